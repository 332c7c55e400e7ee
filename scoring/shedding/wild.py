"""Wild jokers: jokers that stand for any card when played with at least one natural card (双扣).

A game with wild jokers builds its spec on :class:`WildSpec` (naming its ``wild_ranks``): the
spec reads a play's natural cards, the wild jokers left to fill in (jokers played alone are
themselves; a joker that is not wild never joins natural cards), and groups a hand as a
:class:`WildHand`, a :class:`~.pattern.HandGroups` that also knows the wild jokers; for each
question of the hint (table, size, need) the core hands its patterns ``hand.ask(table, size,
need)``, the same hand with the question set, as :meth:`Pattern.candidates
<.pattern.Pattern.candidates>`'s ``hand``.

A stock pattern takes wild jokers with :class:`Filled` before it in its bases::

    class Run(wild.Filled, runs.Run):
        max_len = 12

It then reads and generates through its :class:`~.stock.Template` s (ranks and how many of
each): :meth:`WildHand.emit` says which natural cards and jokers can fill a template, keeping
only the templates whose reading beats the table (asked of the pattern's own ``beats``). Each
candidate comes as ``(cards, make_reading, powers, probe)``, trusted by the search (:mod:`.search`).
A reading of a filled template shows the ranks it stands for and what the jokers stand for:
"顺子（3 4 5 6 7）（王当 5）", extra fields ``as`` and ``wild_as``.
"""
from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Mapping, Sequence

from ..cards import BIG_JOKER, LITTLE_JOKER, Card
from ..i18n import Text, t
from .pattern import HandGroups, Pattern, labelled
from .reading import Reading, probe
from .spec import SheddingSpec
from .stock import StockPattern, Template

JOKERS = (BIG_JOKER, LITTLE_JOKER)


class WildSpec(SheddingSpec):
    """A spec whose jokers of :meth:`wild_ranks` fill in for natural cards played with them."""

    def __init__(self, rules):
        super().__init__(rules)
        self.wild = tuple(self.wild_ranks())

    def wild_ranks(self) -> Sequence[int]:
        """The jokers that are wild under these rules (default: both)."""
        return JOKERS

    def readings(self, cards: Sequence[Card], among: Sequence[Pattern] | None = None) -> list[Reading]:
        """Every distinct reading (by the patterns ``among`` only, when given), largest first: each pattern reads
        the natural cards, the wild jokers filling."""
        cards = tuple(cards)
        most = self.max_hand()
        if not cards or (most is not None and len(cards) > most):
            return []
        counts = Counter([c.rank for c in cards])
        if not all(r in JOKERS for r in counts):  # jokers alone are themselves
            counts = Counter({r: k for r, k in counts.items() if r not in self.wild})
            if any(r in JOKERS for r in counts):  # a joker that is not wild never joins natural cards
                return []
        return self.sorted_readings([r for p in self.readers(len(cards), among) for r in p.read(cards, counts)])

    def group(self, hand: Sequence[Card]) -> WildHand:
        return WildHand(hand, self.rank_order, self.wild)


class Filled(StockPattern):
    """A stock pattern whose :class:`~.stock.Template` s wild jokers fill (first in the bases of a game's
    pattern, before the stock pattern giving the templates). Its hand is the :class:`WildHand` of a
    :class:`WildSpec`. A game may label the readings its own way (:meth:`label`, :meth:`more`)."""

    leads = Pattern.leads  # leads are not built from the natural rank counts: the hint reads the candidates

    def read(self, cards, counts):
        for shape in self.fitting(counts, len(cards)):
            yield self.filled(shape, cards, self.fill(shape, counts))

    @staticmethod
    def fill(shape: Template, counts: Mapping[int, int]) -> list[int]:
        """The ranks the jokers stand for when ``counts`` natural cards are played as ``shape``."""
        return [r for r, w in zip(shape.window, shape.widths) for _ in range(w - counts.get(r, 0))]

    def candidates(self, hand: HandGroups, table, size, need):
        filled, emit = self.filled, hand.emit
        for shape in self.templates(hand, size, hand.need_rank):
            yield from emit(self, shape.window, shape.widths, shape.kind, shape.key, partial(filled, shape))

    def filled(self, shape: Template, cards, fill: Sequence[int]) -> Reading:
        """The reading of ``cards`` as ``shape``, the jokers standing for ``fill``."""
        name = self.order.names
        shown = name([r for r, w in zip(shape.window, shape.widths) for _ in range(w)])
        label = self.label(shape, shown)
        extra = {"top": None if shape.top is None else self.order.name(shape.top), "as": shown}
        if fill:
            label = label + t("（王当 {w}）", " (jokers as {w})", w=name(fill))
            extra["wild_as"] = [self.order.name(r) for r in fill]
        extra.update(self.more(shape))
        return Reading(shape.kind, label, shape.key, len(cards), self.bomb, tuple(cards), extra)

    def label(self, shape: Template, shown: str) -> Text:
        """The label of a filled template, before what the jokers stand for: "name（ranks）"."""
        return labelled(self.names[shape.kind], shown)

    def more(self, shape: Template) -> dict:
        """A game's extra fields of a filled template's reading."""
        return {}


class WildHand(HandGroups):
    """A hand grouped by rank whose jokers of ``wild`` ranks may fill in, asked one question at a time.

    ``natural_have`` counts the natural ranks (highest first); ``memo`` keeps what a pattern
    works out once a hand (the hint asks size after size). The question's fields (``table``,
    ``size``, ``need_rank``, ``need_joker``) are set by :meth:`ask`.
    """

    def __init__(self, hand: Sequence[Card], order, wild: Sequence[int]):
        super().__init__(hand, order)
        self.natural_have = {r: n for r, n in self.have.items() if r not in JOKERS}
        self.memo: dict = {}
        self.big = self.groups.get(BIG_JOKER, []) if BIG_JOKER in wild else []
        self.little = self.groups.get(LITTLE_JOKER, []) if LITTLE_JOKER in wild else []
        self.budget = len(self.big) + len(self.little)
        self.powers = order.table
        self.p_big, self.p_little = order.power(BIG_JOKER), order.power(LITTLE_JOKER)
        #: natural rank → [(its first u cards, their powers) for u = 0 …]: a template's cards in parts made once
        self.parts = {r: [(tuple(g[:u]), (self.powers[r],) * u) for u in range(len(g) + 1)]
                      for r, g in self.groups.items() if r in self.natural_have}
        self._question(None, 0, None)

    def ask(self, table: Reading | None, size: int, need: int | None) -> "WildHand":
        """This hand for one question: ``size`` cards on ``table``, topped by power ``need`` (None: any)."""
        q = object.__new__(WildHand)  # the grouping and the memo are the hand's, shared (in __init__'s order)
        q.cards, q.order, q.groups, q.have, q.ranks, q.naturals = (self.cards, self.order, self.groups, self.have,
                                                                  self.ranks, self.naturals)
        q.natural_have, q.memo, q.big, q.little, q.budget = (self.natural_have, self.memo, self.big, self.little,
                                                            self.budget)
        q.powers, q.p_big, q.p_little, q.parts = self.powers, self.p_big, self.p_little, self.parts
        q._question(table, size, need)
        return q

    def _question(self, table: Reading | None, size: int, need: int | None) -> None:
        self.table, self.size = table, size
        needed = None if need is None else self.order.rank_of_power(need)  # the lead's level, as a rank
        self.need_joker = needed if needed in JOKERS else None
        self.need_rank = None if needed in JOKERS else needed
        self._splits: dict[int, list] = {}
        self._kept: dict[tuple, bool] = {}

    def keeps(self, pattern: Pattern, kind: str, key: tuple) -> bool:
        """Does a play of this template beat the table (a lead: always)? Asked once a kind and key."""
        if self.table is None:
            return True
        kept = self._kept.get((kind, key))
        if kept is None:
            kept = self._kept[kind, key] = pattern.beats(probe(kind, key, self.size, pattern.bomb), self.table)
        return kept

    def splits(self, k: int) -> list[tuple[tuple[Card, ...], tuple[int, ...]]]:
        """Every way to choose ``k`` wild jokers (大王 first), honouring a needed joker: (jokers, their powers)."""
        if k not in self._splits:
            out = []
            for b in range(min(k, len(self.big)), -1, -1):
                n_little = k - b
                if n_little > len(self.little):
                    break
                if (self.need_joker == BIG_JOKER and b == 0) or (self.need_joker == LITTLE_JOKER and n_little == 0):
                    continue
                out.append((tuple(self.big[:b] + self.little[:n_little]),
                            (self.p_big,) * b + (self.p_little,) * n_little))
            self._splits[k] = out
        return self._splits[k]

    def fills(self, window: Sequence[int], widths: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
        """(naturals used per rank, jokers needed) for a template, at least one natural card."""
        have, budget, need, size = self.natural_have, self.budget, self.need_rank, self.size
        caps = [min(have.get(r, 0), g) for r, g in zip(window, widths)]
        after = _after(caps, widths)
        if after[0] > budget:
            return []  # too few jokers for what the hand lacks
        lows = [1 if r == need else 0 for r in window]  # the needed rank takes a natural card
        last, found, acc = len(window) - 1, [], [0] * len(window)  # names the nested function shares: cells

        def rec(i: int, deficit: int):
            g = widths[i]
            least = g - budget + deficit + after[i + 1]  # the jokers left fill the rest of this rank and the next
            if least < lows[i]:
                least = lows[i]
            for u in range(caps[i], least - 1, -1):
                acc[i] = u
                if i < last:
                    rec(i + 1, deficit + g - u)
                elif deficit + g - u < size:
                    found.append((tuple(acc), deficit + g - u))
            acc[i] = 0

        rec(0, 0)
        del rec  # a nested function that calls itself is a reference cycle (it would wait for the GC): break it
        return found

    def natural_cards(self, window: Sequence[int], used: Sequence[int]) -> tuple[tuple[Card, ...], tuple[int, ...]]:
        """The natural cards of a template and their powers high to low (with the jokers' before them, a
        candidate's identity and smallest-play order: the search need not sort them again)."""
        parts = self.parts
        cards: tuple = ()
        taken = []
        for r, u in zip(window, used):
            if u:
                part = parts[r][u]
                cards += part[0]
                taken.append(part[1])
        if len(taken) == 1:
            return cards, taken[0]
        taken.sort(reverse=True)  # each one power repeated: by the power, high to low
        powers: tuple = ()
        for part in taken:
            powers += part
        return cards, powers

    def emit(self, pattern: Pattern, window, widths, kind: str, key: tuple, make):
        """Every candidate of one template; ``make(cards, fill)`` builds its reading when it is kept."""
        if self.need_rank is not None and self.need_rank not in window:
            return
        if not self.keeps(pattern, kind, key):
            return
        head = probe(kind, key, self.size, pattern.bomb)  # the reading's place in the smallest-play order
        for used, k in self.fills(window, widths):
            splits = self.splits(k)
            if not splits:
                continue
            nat_cards, nat_powers = self.natural_cards(window, used)
            for jokers, powers in splits:
                cards = nat_cards + jokers
                yield cards, partial(_make_filled, make, cards, window, widths, used), powers + nat_powers, head


def _make_filled(make, cards, window, widths, used):
    """``make(cards, fill)``: the reading of a template's candidate, the jokers standing for what ``used`` lacks
    (worked out only for the plays whose reading is asked for)."""
    return make(cards, [r for r, g, u in zip(window, widths, used) for _ in range(g - u)])


# --- uneven groups (双扣's 千变 chains): each rank of a window ``least`` … ``most`` cards, jokers filling ------------

def uneven_naturals(hand: WildHand, window: Sequence[int], least: int, most: int) -> list[tuple]:
    """How many naturals of each rank of ``window`` a chain of ``hand.size`` cards with groups of ``least`` …
    ``most`` may use: (used, their number, the chain's X (the largest smallest group they allow), their cards
    and powers).

    Worked out once a hand for every size (the hint asks size after size), each size's list in the
    order of one search (most naturals of the lowest rank first).
    """
    memo_key = ("uneven", tuple(window), hand.need_rank)
    by_size = hand.memo.get(memo_key)
    if by_size is None:
        by_size = hand.memo[memo_key] = _naturals_by_size(hand, window, least, most)
    return by_size.get(hand.size, [])


def _file_by_size(by_size: dict, hand: WildHand, window, used: tuple[int, ...], total: int, floor: int,
                  top: int, bounds: tuple[int, int]) -> None:
    """File one choice of naturals (and its cards, made once) under every size from ``floor`` to ``top`` that
    allows an X: the largest smallest group (``least`` … ``most``) with every group filled to it fitting the
    size, none below the naturals' smallest. ``floor`` is the cards of the groups filled to ``least``."""
    x, most = bounds
    low, spread = min(used), most * (len(used) - 1)
    cards, grow = floor, used.count(x) + sum([u < x for u in used])  # cards at X; groups one more X adds to
    naturals = None
    for size in range(floor, top + 1):
        while x < most and cards + grow <= size:  # the largest X that fits grows with the size
            cards += grow
            x += 1
            grow += used.count(x)
        if x >= low and x >= size - spread:  # else no X: the smallest group would be below the naturals' or too
            naturals = naturals or hand.natural_cards(window, used)  # many cards for the others to hold
            by_size.setdefault(size, []).append((used, total, x, naturals))


def _naturals_by_size(hand: WildHand, window: Sequence[int], least: int, most: int) -> dict[int, list[tuple]]:
    """Every choice of naturals for a chain on ``window`` (with their number and X), under each size it fits: at
    least one natural, the groups short of ``least`` filled by the wild jokers (``floor`` … naturals + jokers)."""
    budget, need_rank = hand.budget, hand.need_rank
    caps = [min(hand.natural_have.get(r, 0), most) for r in window]
    after = _after(caps, [least] * len(window))
    if after[0] > budget:
        return {}  # too few jokers for what the hand lacks
    lows = [1 if r == need_rank else 0 for r in window]
    m = len(window)
    biggest, last = most * m, m - 1
    acc = [0] * m
    by_size: dict[int, list[tuple]] = {}

    def rec(i, total, floor):
        # total: naturals so far; floor: the least cards the groups so far need (each group has ``least`` or more)
        for u in range(caps[i], lows[i] - 1, -1):
            t, f = total + u, floor + (u if u > least else least)
            if f - t + after[i + 1] > budget:
                break  # fewer naturals of this rank only need more jokers (the ranks after need at least after[i+1])
            acc[i] = u
            if i < last:
                rec(i + 1, t, f)
            elif t:
                _file_by_size(by_size, hand, window, tuple(acc), t, f, min(t + budget, biggest), (least, most))
        acc[i] = 0

    rec(0, 0, 0)
    del rec  # break the cycle of a nested function that calls itself
    return by_size


def _after(caps: Sequence[int], widths: Sequence[int]) -> list[int]:
    """The least wild jokers the ranks from each place on need (ranks of ``widths`` cards, the hand holding
    ``caps`` of each), and none past the last: a choice for one rank must leave that many."""
    after = [0] * (len(caps) + 1)
    for i in range(len(caps) - 1, -1, -1):
        short = widths[i] - caps[i]
        after[i] = after[i + 1] + (short if short > 0 else 0)
    return after
