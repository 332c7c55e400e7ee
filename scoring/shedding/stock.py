"""Stock patterns: the shapes shedding games share, declared by a game with its parameters.

A game declares a stock pattern as a subclass carrying its parameters (python-chess's variants are
subclasses the same way) and lists it in its spec's ``pattern_types``; only the rules that are its
own stay in the game's module::

    class TripleWith(stock.TripleWith):
        two = stock.Two.PAIR                                  # 三带一对, not 三带二
        text = t("三张带一张单牌或一对", "a triple with one single or one pair")

Each reads, generates (:meth:`~.pattern.Pattern.candidates`) and builds its leads
(:meth:`~.pattern.Pattern.leads`) the same way; a reading is labelled "name（cards）" with the
names of the spec's ``kind_names``, and ``text`` is the pattern's line on the rules page.

Here: one rank (:class:`SameRank`), a triple or a four with kickers (:class:`TripleWith`,
:class:`FourWithTwo`); runs and airplanes are in :mod:`.runs`, bombs in :mod:`.bombs`, wild
jokers in :mod:`.wild`. An attachment (kicker, wing) is never of the rank it is attached to.

One rank, n of a kind and runs also give their :class:`Template` s (ranks and how many of each,
before the cards are chosen): wild jokers fill them (:class:`.wild.Filled`).
"""
from __future__ import annotations

from collections import Counter
from enum import Enum
from typing import Iterable, NamedTuple

from ..cards import BIG_JOKER, LITTLE_JOKER
from ..i18n import Text
from .counts import RankCounts, kicked, multisets
from .pattern import HandGroups, Pattern, labelled
from .reading import Reading

JOKERS = (BIG_JOKER, LITTLE_JOKER)
SAME_KINDS = {1: "single", 2: "pair", 3: "triple"}


class Template(NamedTuple):
    """A play before its cards are chosen: ``widths[i]`` cards of rank ``window[i]``, read as ``kind`` with
    ``key``, topped by rank ``top`` (None: no top)."""

    kind: str
    window: tuple[int, ...]
    widths: tuple[int, ...]
    key: tuple
    top: int | None


def template(kind: str, window: tuple[int, ...], widths: tuple[int, ...], key: tuple, top: int | None) -> Template:
    return tuple.__new__(Template, (kind, window, widths, key, top))  # without NamedTuple's Python-level __new__


def held(hand: HandGroups, rank: int | None) -> Iterable[int]:
    """The natural ranks of ``hand``, highest first (only ``rank`` when it is given)."""
    if rank is None:
        return reversed(hand.naturals)
    return (rank,) if rank in hand.have and rank not in JOKERS else ()


class StockPattern(Pattern):
    """A stock pattern: readings labelled with the spec's ``kind_names``; ``text`` is its rules-page line."""

    text: Text | None = None

    def __init__(self, spec):
        super().__init__(spec)
        self.names = spec.kind_names
        self.power = self.order.power
        self.joker_powers = frozenset(self.order.power(r) for r in JOKERS)
        self._made: dict = {}

    def once(self, key, make):
        """What ``make()`` gives, made once for this pattern (its templates of one size)."""
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = make()
        return found

    def make(self, kind: str, cards, key: tuple, detail: str, **extra) -> Reading:
        return self.reading(kind, cards, key, labelled(self.names[kind], detail), **extra)

    def describe(self) -> Text | None:
        return self.text

    def natural(self, p: int) -> bool:
        """Is power ``p`` a natural rank's (no joker)?"""
        return p not in self.joker_powers

    def high_first(self, ranks: Iterable[int]) -> str:
        """The ranks of an attachment, highest first: "K 5"."""
        return self.order.names(sorted(ranks, key=self.power, reverse=True))

    def templates(self, hand: HandGroups, size: int, rank: int | None = None) -> Iterable[Template]:
        """The templates of ``size`` cards on ranks ``hand`` holds naturally (only those holding ``rank`` when it is
        given), in generation order (none: this pattern has no templates)."""
        return ()

    def fitting(self, counts: Counter, n: int) -> Iterable[Template]:
        """The templates of ``n`` cards holding the natural cards ``counts`` (and no more of a rank than they
        take)."""
        return ()

    def up_to(self, counts: RankCounts, level: int | None, least: int) -> list[int]:
        """The natural powers held ``least`` times or more: a body's top, which decides its leads (only ``level``
        when it is given), lowest first."""
        jokers = self.joker_powers
        return [p for p in counts.at(level, least) if p not in jokers]


class SameRank(StockPattern):
    """Single, pair, triple (no triple of jokers); ``bomb_triples``: ranks whose triple is a bomb instead."""

    kinds = ("single", "pair", "triple")
    bomb_triples: tuple[int, ...] = ()

    def reads_size(self, n):
        return n <= 3

    def read(self, cards, counts):
        n = len(cards)
        if len(counts) != 1 or n > 3:
            return
        r = next(iter(counts))
        if n == 3 and r in self.bomb_triples:
            return
        yield self.make(SAME_KINDS[n], cards, (self.power(r),), self.detail(r, n), **self.extra(r))

    def detail(self, rank: int, n: int) -> str:
        """The cards of a reading as its label shows them: "5 5" (a game may show the rank once)."""
        return self.order.names([rank], n)

    def extra(self, rank: int) -> dict:
        """The reading's extra fields: its ``top`` (a game may name them otherwise)."""
        return {"top": self.order.name(rank)}

    def candidates(self, hand: HandGroups, table, size, need):
        if size == 1:
            for r in hand.ranks:
                yield hand.take([(r, 1)])
        elif size == 2:
            for r in hand.ranks:
                if hand.have[r] >= 2:
                    yield hand.take([(r, 2)])
        elif size == 3:
            for r in hand.naturals:
                if hand.have[r] >= 3 and r not in self.bomb_triples:
                    yield hand.take([(r, 3)])

    def templates(self, hand, size, rank=None):
        if size > 3:
            return ()
        shapes = self.once(size, lambda: {r: template(SAME_KINDS[size], (r,), (size,), (self.power(r),), r)
                                          for r in self.order.ranks() if size < 3 or r not in self.bomb_triples})
        return [shapes[r] for r in held(hand, rank) if r in shapes]

    def fitting(self, counts, n):
        if len(counts) == 1 and n <= 3:
            r = next(iter(counts))
            if r not in JOKERS and (n < 3 or r not in self.bomb_triples):
                yield template(SAME_KINDS[n], (r,), (n,), (self.power(r),), r)

    def leads(self, counts, level):
        no_triples = self.joker_powers.union(map(self.power, self.bomb_triples))
        for p in counts.at(level):
            n = counts.count[p]
            yield p, 1, ((p, 1),), None
            if n >= 2:
                yield p, 2, ((p, 2),), None
            if n >= 3 and p not in no_triples:
                yield p, 3, ((p, 3),), None


class Two(Enum):
    """What a triple's two attached cards may be (三带二 or 三带一对)."""

    ANY = "any"    # any two cards of other ranks, no joker: kind ``triple_two``
    PAIR = "pair"  # one pair of another rank (a pair of one joker too): kind ``triple_pair``


class TripleWith(StockPattern):
    """三带一 and a triple with two (:class:`Two`, by default two cards of any other ranks)."""

    two = Two.ANY
    deciding_width = 3

    def __init__(self, spec):
        super().__init__(spec)
        self.kinds = ("triple_single", "triple_two" if self.two is Two.ANY else "triple_pair")

    def reads_size(self, n):
        return n in (4, 5)

    def read(self, cards, counts):
        if len(cards) not in (4, 5):
            return
        for r in [r for r, k in counts.items() if r not in JOKERS and k == 3]:
            rest = counts - Counter({r: 3})
            head = self.order.names([r], 3) + " + "
            if len(cards) == 4:
                yield self.make("triple_single", cards, (self.power(r),), head + self.order.name(next(iter(rest))),
                                top=self.order.name(r))
            elif self.two_ok(rest):
                yield self.make(self.kinds[1], cards, (self.power(r),), head + self.high_first(rest.elements()),
                                top=self.order.name(r))

    def two_ok(self, rest: Counter) -> bool:
        if self.two is Two.PAIR:
            return len(rest) == 1
        return not any(x in JOKERS for x in rest)

    def candidates(self, hand, table, size, need):
        if size not in (4, 5):
            return
        for r in hand.naturals:
            if hand.have[r] >= 3:
                yield from self.attach(hand, r, hand.available(exclude=(r,)), size - 3)

    def attach(self, hand: HandGroups, rank: int, avail, m: int):
        if m == 2 and self.two is Two.PAIR:
            for q, k in avail:
                if k >= 2:
                    yield hand.take([(rank, 3), (q, 2)])
            return
        for choice in multisets(avail, m):
            yield hand.take([(rank, 3)] + list(choice))

    def leads(self, counts, level):
        for p in self.up_to(counts, level, 3):
            body = (p, 3)
            for shape in kicked(body, counts.units((p,)), 1):
                yield p, 4, shape, None
            if self.two is Two.PAIR:  # one pair of another rank
                for shape in kicked(body, counts.units((p,), width=2), 1, 2):
                    yield p, 5, shape, None
            else:  # two cards of other ranks, no joker
                for shape in kicked(body, counts.units((p, *self.joker_powers)), 2):
                    yield p, 5, shape, None


class FourWithTwo(StockPattern):
    """四带二: four of a rank with two cards of other ranks (singles or a pair); not a bomb."""

    kinds = ("four_two",)
    deciding_width = 4

    def reads_size(self, n):
        return n == 6

    def read(self, cards, counts):
        fours = [r for r, k in counts.items() if r not in JOKERS and k == 4]
        if len(cards) == 6 and len(fours) == 1:
            r = fours[0]
            yield self.make("four_two", cards, (self.power(r),),
                            self.order.names([r], 4) + " + " + self.high_first((counts - Counter({r: 4})).elements()),
                            top=self.order.name(r))

    def candidates(self, hand, table, size, need):
        if size != 6:
            return
        for r in hand.naturals:
            if hand.have[r] >= 4:
                for choice in multisets(hand.available(exclude=(r,)), 2):
                    yield hand.take([(r, 4)] + list(choice))

    def leads(self, counts, level):
        for p in self.up_to(counts, level, 4):
            for shape in kicked((p, 4), counts.units((p,)), 2):
                yield p, 6, shape, None
