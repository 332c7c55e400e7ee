"""Stock runs: ``width`` cards of each of consecutive ranks (1 a straight, 2 a pair run, 3 a triple run), and
triple runs carrying wings (airplanes), declared by a game with their parameters (see :mod:`.stock`).

Runs are in the STANDARD order's powers (3 … K A as 3 … 14, 2 as 15): a run goes 3 … A; where the spec's
``low_runs`` allows, 2 and A-2 may start it low when it reaches 3 (2 3 4 …, A 2 3 …, A counted as 1).
A low run's top is its highest rank with A counted as 1. No joker joins a run (wild jokers fill a run's
templates: :mod:`.wild`).
"""
from __future__ import annotations

from collections import Counter
from enum import Enum
from typing import Iterator

from ..cards import ACE
from .counts import RankCounts, Shape, merged, multiset_units, multisets
from .order import STANDARD
from .stock import JOKERS, StockPattern, Template, template

P_ACE, P_TWO = STANDARD.power(ACE), STANDARD.power(2)
LONGEST_RUN = 13  # A 2 3 … K / 2 3 … A, the longest low run


def runs(counts: RankCounts, tops, width: int, shortest: int, longest: int, low: bool) -> Iterator[Shape]:
    """Every run of ``width`` cards a rank, ``shortest`` … ``longest`` ranks, topped by a power of ``tops``
    (highest card first; with ``low`` the runs holding a 2: 2 3 4 …, A 2 3 …, where 2 is the highest power).
    Tops low → high find their runs at once: a run is a slice of :func:`ladder`, as deep as the one below it
    and one more."""
    have, steps, depth, below = counts.count, ladder(width), 0, -1  # depth: of the run topped by ``below``
    for top in tops:
        if top <= P_ACE:
            if below != top - 1:  # not the top just below: walk down from it
                depth, p = 0, top
                while p >= 3 and have.get(p, 0) >= width:
                    depth, p = depth + 1, p - 1
            elif have.get(top, 0) >= width:
                depth += 1
            else:
                depth = 0
            below = top
            if depth >= shortest:
                i = P_ACE - top
                for k in range(shortest, min(depth, longest) + 1):
                    yield steps[i:i + k]
        elif top == P_TWO and low and have.get(P_TWO, 0) >= width:
            yield from low_runs(have, width, shortest, longest)


_LADDERS: dict[int, Shape] = {}


def ladder(width: int) -> Shape:
    """((power, width), …) of every power from the ace down to the 3: the shape of each run of ``width`` is a
    slice of it."""
    found = _LADDERS.get(width)
    if found is None:
        found = _LADDERS[width] = tuple((p, width) for p in range(P_ACE, 2, -1))
    return found


def low_runs(have, width: int, shortest: int, longest: int) -> Iterator[Shape]:
    """2 3 … k and A 2 3 … k (A counted as 1); A 2 3 … K is 2 3 … A, found once."""
    ace = have.get(P_ACE, 0) >= width
    rest: tuple = ()
    for k in range(3, P_ACE + 1):
        if have.get(k, 0) < width:
            return
        rest = ((k, width),) + rest
        if shortest <= k - 1 <= longest:
            yield ((P_TWO, width),) + rest
        if ace and k <= 12 and shortest <= k <= longest:
            yield ((P_TWO, width), (P_ACE, width)) + rest


def written(shape: Shape) -> list[int]:
    """The ranks of a run's shape in the order the run is written, lowest first (2 3 … and A 2 3 … when low)."""
    powers = sorted(p for p, _ in shape)
    if powers[-1] == P_TWO:
        rest = powers[:-1]
        powers = [P_ACE, P_TWO] + rest[:-1] if rest[-1] == P_ACE and 13 not in rest else [P_TWO] + rest
    return [STANDARD.rank_of_power(p) for p in powers]


class Run(StockPattern):
    """``width`` cards of each of ``min_len`` … ``max_len`` (None: any number of) consecutive ranks, kind ``kind``."""

    width, min_len, kind = 1, 5, "straight"
    max_len: int | None = None

    @property
    def kinds(self):
        return (self.kind,)

    @property
    def deciding_width(self):
        return self.width

    def lengths(self, n: int) -> bool:
        """Can ``n`` cards be a run: a whole number of ranks, ``min_len`` … ``max_len``?"""
        length, left = divmod(n, self.width)
        return not left and self.min_len <= length and (self.max_len is None or length <= self.max_len)

    def reads_size(self, n):
        return self.lengths(n)

    def shaped(self, counts: Counter, n: int) -> bool:
        """Exactly ``width`` cards of each of two ranks or more (consecutive or not)."""
        return len(counts) >= 2 and n == self.width * len(counts) and max(counts.values()) == self.width

    def read(self, cards, counts):
        if not self.shaped(counts, len(cards)) or not self.reads(cards):
            return
        top = STANDARD.run_top(list(counts), self.spec.low_runs)  # None for jokers, a 2 out of place or a gap
        if top is not None:
            yield self.make(self.kind, cards, (top,), self.detail(cards, counts, top), **self.extra(cards, top))

    def reads(self, cards) -> bool:
        return True

    def detail(self, cards, counts, top) -> str:
        return STANDARD.run_text(counts, top, self.width)

    def extra(self, cards, top) -> dict:
        return {"top": STANDARD.name(top)}

    def candidates(self, hand, table, size, need):
        if not self.lengths(size):
            return
        width, have = self.width, hand.have
        for window in STANDARD.windows(size // width, self.spec.low_runs):
            if all(have.get(r, 0) >= width for r in window):
                yield from self.pick(hand, window)

    def pick(self, hand, window):
        yield hand.take([(r, self.width) for r in window])

    def templates(self, hand, size, rank=None):
        return self.runs_of(size, rank)

    def runs_of(self, size: int, rank: int | None = None) -> list[Template]:
        """The template of every run of ``size`` cards (holding ``rank`` when it is given), lowest first (made once
        a size and rank)."""
        if rank is None:
            return self.once(size, lambda: self.make_templates(size))
        return self.once((size, rank), lambda: [s for s in self.runs_of(size) if rank in s.window])

    def make_templates(self, size: int) -> list[Template]:
        if not self.lengths(size):
            return []
        width, length, low = self.width, size // self.width, self.spec.low_runs
        out = []
        for window in STANDARD.windows(length, low):
            top = STANDARD.run_top(window, low)
            out.append(template(self.kind, tuple(window), (width,) * length, (top,), top))
        return out

    def fitting(self, counts, n):
        if max(counts.values()) > self.width:
            return
        for run in self.runs_of(n):
            if all(r in run.window for r in counts):
                yield run

    def leads(self, counts, level):
        width, longest = self.width, self.max_len or LONGEST_RUN
        for shape in runs(counts, counts.at(level, width), width, self.min_len, longest, self.spec.low_runs):
            yield shape[0][0], width * len(shape), shape, None


class Wings(Enum):
    """What each triple of an airplane carries."""

    TWO_EACH = "two_each"        # two cards of other ranks, no joker (飞机带翅膀)
    SINGLE_EACH = "single_each"  # one card of another rank, jokers too
    PAIR_EACH = "pair_each"      # one pair of another rank (a pair of one joker too; four of a rank are two pairs)


class Airplane(StockPattern):
    """Two or more (up to ``max_triples``) consecutive triples, each carrying its :class:`Wings`."""

    kind = "airplane"
    wings = Wings.TWO_EACH
    max_triples: int | None = 3
    deciding_width = 3

    def __init__(self, spec):
        super().__init__(spec)
        self.kinds = (self.kind,)
        self.step = 4 if self.wings is Wings.SINGLE_EACH else 5  # cards a triple, with its wings

    def triples(self, n: int) -> int | None:
        """How many triples ``n`` cards of this pattern hold, or None."""
        k, left = divmod(n, self.step)
        if left or k < 2 or (self.max_triples is not None and k > self.max_triples):
            return None
        return k

    def reads_size(self, n):
        return self.triples(n) is not None

    def read(self, cards, counts):
        k = self.triples(len(cards))
        tri = [r for r, c in counts.items() if c == 3 and r <= ACE]
        if k > len(tri):
            return
        low = self.spec.low_runs
        for window in STANDARD.windows(k, low):
            if not all(r in tri for r in window):
                continue
            top = STANDARD.run_top(window, low)
            rest = counts - Counter({r: 3 for r in window})
            if top is None or any(r in rest for r in window) or not self.wings_ok(rest):
                continue
            detail = STANDARD.run_text(window, top, 3) + " + " + self.high_first(rest.elements())
            yield self.make(self.kind, cards, (top,), detail, top=STANDARD.name(top))

    def wings_ok(self, rest: Counter) -> bool:
        if self.wings is Wings.TWO_EACH:
            return not any(r in JOKERS for r in rest)
        if self.wings is Wings.PAIR_EACH:
            return all(v % 2 == 0 for v in rest.values()) and all(v == 2 for r, v in rest.items() if r in JOKERS)
        return True

    def candidates(self, hand, table, size, need):
        k = self.triples(size)
        if k is None:
            return
        have = hand.have
        for window in STANDARD.windows(k, self.spec.low_runs):
            if all(have.get(r, 0) >= 3 for r in window):
                body = [(r, 3) for r in window]
                for wings in self.wing_choices(hand.available(exclude=window), k, size - 3 * k):
                    yield hand.take(body + wings)

    def wing_choices(self, avail, k: int, m: int):
        if self.wings is Wings.TWO_EACH:
            avail = [(q, c) for q, c in avail if q not in JOKERS]
        elif self.wings is Wings.PAIR_EACH:
            for choice in multisets([(q, c // 2) for q, c in avail if c >= 2], k):
                yield [(q, 2 * n) for q, n in choice]
            return
        for choice in multisets(avail, m):
            yield list(choice)

    def leads(self, counts, level):
        for body in runs(counts, counts.at(level, 3), 3, 2, self.max_triples or LONGEST_RUN, self.spec.low_runs):
            k, exclude, top = len(body), {p for p, _ in body}, body[0][0]
            if self.wings is Wings.TWO_EACH:
                for att in multiset_units(counts.units(exclude, keep=self.natural), 2 * k):
                    yield top, 5 * k, merged(body, att), None
            elif self.wings is Wings.SINGLE_EACH:
                for att in multiset_units(counts.units(exclude), k):
                    yield top, 4 * k, merged(body, att), None
            else:
                for att in multiset_units(counts.units(exclude, width=2), k):
                    yield top, 5 * k, merged(body, att, 2), None


class ShortWingedPlane(StockPattern):
    """带少牌: *t* ≥ 2 consecutive triples (3 … A, never low) carrying 1 … 2*t* − 1 wing cards, no joker."""

    kinds = ("airplane_short",)
    deciding_width = 3

    @staticmethod
    def shapes(n: int):
        """(triples, wing cards) of the short-winged planes of ``n`` cards."""
        return [(k, n - 3 * k) for k in range(2, n // 3 + 1) if 1 <= n - 3 * k <= 2 * k - 1]

    def reads_size(self, n):
        return bool(self.shapes(n))

    def read(self, cards, counts):
        tri = {r for r, c in counts.items() if c == 3 and r <= ACE}
        for k, _wings in self.shapes(len(cards)):
            for window in STANDARD.windows(k, False):
                rest = counts - Counter({r: 3 for r in window})
                if not tri.issuperset(window) or any(r in rest for r in window) or any(r in JOKERS for r in rest):
                    continue
                top = window[-1]
                detail = STANDARD.run_text(window, top, 3) + " + " + self.high_first(rest.elements())
                yield self.make("airplane_short", cards, (top,), detail, top=STANDARD.name(top), triples=k)

    def candidates(self, hand, table, size, need):
        for k, wings in self.shapes(size):
            for window in STANDARD.windows(k, False):
                if all(hand.have.get(r, 0) >= 3 for r in window):
                    avail = [(q, c) for q, c in hand.available(exclude=window) if q not in JOKERS]
                    for choice in multisets(avail, wings):
                        yield hand.take([(r, 3) for r in window] + list(choice))

    def leads(self, counts, level):
        for body in runs(counts, counts.at(level, 3), 3, 2, LONGEST_RUN, False):
            k, exclude, top = len(body), {p for p, _ in body}, body[0][0]
            avail = counts.units(exclude, keep=self.natural)
            for wings in range(1, 2 * k):
                for att in multiset_units(avail, wings):
                    yield top, 3 * k + wings, merged(body, att), None
