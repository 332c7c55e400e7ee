"""Stock bombs: n of a kind, short bombs of a named rank (三个A), 天王 (four jokers), kickers; their order.

A game declares its bombs with their parameters (see :mod:`.stock`)::

    class Bomb(bombs.Bomb):
        least, most = 4, None           # 4 or more of a rank: more cards beat fewer, then the rank
        four_jokers = True              # 大王 大王 小王 小王, the highest
        kicker_rule = "bomb_kickers"    # the house rule that lets a bomb carry two singles or two pairs

A bomb's key is (tier, cards, power): n of a kind is (0, n, power of the rank), 天王 (1, 0, 0); a
short bomb is (0, its cards, power), or (1, 0, 0) when its ``short_top_rule`` is on. A bomb beats
every plain play, and a bomb only when it carries as many kicker cards and has a higher key; a game may
key n of a kind its own way (:meth:`Bomb.rank_key`). n of a kind gives its templates for wild jokers
(:mod:`.wild`).
"""
from __future__ import annotations

from collections import Counter
from typing import Mapping

from ..cards import BIG_JOKER, LITTLE_JOKER
from .counts import merged, multiset_units, multisets
from .stock import JOKERS, StockPattern, held, template

FOUR_JOKERS = Counter({BIG_JOKER: 2, LITTLE_JOKER: 2})
FOUR_JOKERS_TEXT = "大王 大王 小王 小王"


class Bomb(StockPattern):
    """``least`` … ``most`` (None: no limit) cards of a natural rank; the optional bombs below."""

    kinds = ("bomb",)
    bomb = True
    least: int = 4
    most: int | None = 4
    #: rank → cards of a bomb smaller than ``least`` (跑得快's 三个A: {ACE: 3})
    short: Mapping[int, int] = {}
    #: the house rule that makes a short bomb the highest (else it is the lowest, by its cards)
    short_top_rule: str | None = None
    #: 大王 大王 小王 小王 is a bomb, the highest
    four_jokers = False
    #: the house rule under which a bomb may carry two singles (2 cards) or two pairs of different ranks (4 cards)
    kicker_rule: str | None = None

    def __init__(self, spec):
        super().__init__(spec)
        self.kickers = bool(self.kicker_rule and self.rules.get(self.kicker_rule))
        self.short_top = bool(self.short_top_rule and self.rules.get(self.short_top_rule))
        self.short_powers = {self.power(r): n for r, n in self.short.items()}
        self.fewest = min([self.least, *self.short.values()])
        self.p_big, self.p_little = self.power(BIG_JOKER), self.power(LITTLE_JOKER)
        self.four_joker_shape = ((self.p_big, 2), (self.p_little, 2))

    def key(self, part: Counter) -> tuple | None:
        """(tier, cards, power) of a bomb made of exactly ``part``, or None."""
        if self.four_jokers and part == FOUR_JOKERS:
            return (1, 0, 0)
        if len(part) != 1:
            return None
        rank, n = next(iter(part.items()))
        if self.least <= n and (self.most is None or n <= self.most):
            return self.rank_key(rank, n)
        if self.short.get(rank) == n:
            return (1, 0, 0) if self.short_top else (0, n, self.power(rank))
        return None

    def rank_key(self, rank: int, n: int) -> tuple:
        """The key of ``n`` of a kind (``least`` … ``most``): (0, n, power); a game may order its bombs otherwise."""
        return (0, n, self.power(rank))

    def templates(self, hand, size, rank=None):
        """``size`` of a kind (``least`` … ``most``) of each natural rank, highest first."""
        if size < self.least or (self.most is not None and size > self.most):
            return ()
        shapes = self.once(size, lambda: {r: template("bomb", (r,), (size,), self.rank_key(r, size), r)
                                          for r in self.order.ranks() if r not in JOKERS})
        return [shapes[r] for r in held(hand, rank) if r in shapes]

    def fitting(self, counts, n):
        if len(counts) == 1 and self.least <= n and (self.most is None or n <= self.most):
            r = next(iter(counts))
            if r not in JOKERS:
                yield template("bomb", (r,), (n,), self.rank_key(r, n), r)

    def reads_size(self, n):
        return n >= self.fewest and (self.most is None or self.kickers or n <= self.most)

    def detail(self, part: Counter) -> str:
        if len(part) == 2:
            return FOUR_JOKERS_TEXT
        rank, n = next(iter(part.items()))
        return self.order.names([rank], n)

    def read(self, cards, counts):
        key = self.key(counts)
        if key is not None:
            yield self.plain(cards, counts, key)
        elif self.kickers and len(cards) >= 6 and len(counts) > 1:  # a bomb of 4 or more and its 2 or 4 kickers
            yield from self.read_with_kickers(cards, counts)

    def plain(self, cards, part: Counter, key: tuple):
        """The reading of a bomb without kickers (a game may label it its own way)."""
        return self.make("bomb", cards, key, self.detail(part), top=self.order.name(max(part, key=self.power)),
                         kickers=0)

    def read_with_kickers(self, cards, counts):
        """A bomb carrying two singles (2 cards) or two pairs of different ranks (4 cards)."""
        parts = [Counter({r: k}) for r, k in counts.items() if r not in JOKERS and k >= 4]
        if self.four_jokers and counts[BIG_JOKER] == 2 and counts[LITTLE_JOKER] == 2:
            parts.append(FOUR_JOKERS)
        for part in parts:
            rest = counts - part
            m = sum(rest.values())
            if any(r in rest for r in part):
                continue
            if m == 2 or (m == 4 and len(rest) == 2 and all(k == 2 for k in rest.values())):
                detail = self.detail(part) + " + " + self.high_first(rest.elements())
                yield self.make("bomb", cards, self.key(part), detail, top=self.order.name(max(part, key=self.power)),
                                kickers=m)

    def holds_four_jokers(self, have) -> bool:
        return self.four_jokers and have.get(BIG_JOKER) == 2 and have.get(LITTLE_JOKER) == 2

    def candidates(self, hand, table, size, need):
        four_jokers = self.holds_four_jokers(hand.have)
        if size == 4 and four_jokers:
            yield hand.take([(BIG_JOKER, 2), (LITTLE_JOKER, 2)])
        most = self.most
        for r in hand.naturals:
            have = hand.have[r]
            if self.least <= size <= have and (most is None or size <= most):
                yield hand.take([(r, size)])
            if self.short.get(r) == size and have >= size:
                yield hand.take([(r, size)])
        if self.kickers:
            parts = [[(r, k)] for r in hand.naturals for k in range(4, hand.have[r] + 1)]
            if four_jokers:
                parts.append([(BIG_JOKER, 2), (LITTLE_JOKER, 2)])
            for part in parts:
                yield from self.with_kickers(hand, part, size - sum(k for _, k in part))

    @staticmethod
    def with_kickers(hand, part, m: int):
        avail = hand.available(exclude={r for r, _ in part})
        if m == 2:
            for choice in multisets(avail, 2):
                yield hand.take(part + list(choice))
        elif m == 4:
            pairs = [r for r, k in avail if k >= 2]
            for i, a in enumerate(pairs):
                for b in pairs[i + 1:]:
                    yield hand.take(part + [(a, 2), (b, 2)])

    def leads(self, counts, level):
        jokers, short, least = self.joker_powers, self.short_powers, self.least
        for p in counts.at(level, self.fewest):
            if p in jokers:
                continue
            n = counts.count[p]
            most = n if self.most is None else min(n, self.most)
            for k in range(least, most + 1):
                yield p, k, ((p, k),), None
            if p in short and n >= short[p]:
                yield p, short[p], ((p, short[p]),), None
        four = self.four_jokers and counts.count.get(self.p_big) == 2 and counts.count.get(self.p_little) == 2
        four = four and level in (None, self.p_big)
        if four:
            yield self.p_big, 4, self.four_joker_shape, None
        if self.kickers:
            yield from self.kicked(counts, level, four)

    def kicked(self, counts, level, four: bool):
        """Bombs with two singles or two pairs of different ranks, topped by ``level``."""
        bodies = [((p, n),) for p in self.up_to(counts, level, 4) for n in range(4, counts.count[p] + 1)]
        if four:
            bodies.append(self.four_joker_shape)
        for body in bodies:
            top, size, exclude = body[0][0], sum(n for _, n in body), {p for p, _ in body}
            for att in multiset_units(counts.units(exclude), 2):
                yield top, size + 2, merged(body, att), None
            for att in multiset_units(counts.units(exclude, width=2, most=1), 2):
                yield top, size + 4, merged(body, att, 2), None

    def beats(self, play, table):
        """A bomb beats every plain play; a bomb only with as many kicker cards and a higher key."""
        if not table.is_bomb:
            return True
        return play.extra.get("kickers", 0) == table.extra.get("kickers", 0) and play.key > table.key
