"""A hand as a rank-count histogram, for patterns that build their leads by construction.

A pattern that implements :meth:`~scoring.shedding.pattern.Pattern.leads` names
each lead by its **shape**: ``((power, n), …)``, highest power first, ``n`` cards
of each rank (the first ``n`` of that rank in the canonical order). The powers
being one per rank, a shape names the multiset of ranks, so it is also the
play's identity; its powers high to low break the last ties of the smallest-play
order (:mod:`.search`).

``level`` (a power, or None for every lead) asks for the leads whose **deciding
rank** has that power (the smallest-play order of ``rules/common.md``): a body
topped by it, with kickers and wings of any rank (:func:`multiset_units`).
"""
from __future__ import annotations

from functools import cached_property
from itertools import chain
from operator import itemgetter
from typing import Any, Iterator, Sequence

from ..cards import Card, written_places, written_ranks

Shape = tuple  # ((power, n), …), highest power first
_first, _second = itemgetter(0), itemgetter(1)


class RankCounts:
    """A hand by power: the cards of each power in canonical order, how many, the powers present low → high."""

    def __init__(self, hand: Sequence[Card], order):
        table = order.table
        #: power → how many cards of it; (power, n) → the first ``n`` cards of that power
        self.count: dict[int, int] = {}
        self.part: dict[tuple[int, int], tuple[Card, ...]] = {}
        count, part, pairs, triples = self.count, self.part, [], []
        for c in sorted(hand, key=order.card_key):  # highest first: the powers come highest first
            p = table[c.rank]
            n = count.get(p)
            if n is None:
                count[p], part[p, 1] = 1, (c,)
                continue
            count[p] = n = n + 1
            part[p, n] = part[p, n - 1] + (c,)
            if n == 2:
                pairs.append(p)
            elif n == 3:
                triples.append(p)
        self.powers = list(reversed(count))
        #: the powers held twice or more, three times or more, low → high (:meth:`at`)
        self.pairs, self.triples = pairs[::-1], triples[::-1]
        #: the powers of ranks a play holding them all is written by what they are, not by counts (:meth:`written`)
        low, jokers, q783 = order.named_powers
        self.low, self.jokers, self.q783 = _held(count, low), _held(count, jokers), _held(count, q783)
        self.named = bool(self.low or self.jokers or self.q783)  # may a play hold them?

    @cached_property
    def groups(self) -> dict[int, tuple[Card, ...]]:
        """power → every card of it, in canonical order."""
        return {p: self.part[p, n] for p, n in self.count.items()}

    def lead(self, shape: Shape) -> tuple[tuple, tuple[Card, ...]]:
        """A lead's kickers' broken groups (:func:`kicker_breaks`) and its cards as written (:meth:`written`),
        from one look at its ranks' counts (:func:`layout`), unless it may hold ranks written by what they are
        (most leads hold one, two or three ranks: those are put together by hand, :attr:`writers`)."""
        n = len(shape)
        if n == 1:
            return (), self.part[shape[0]]
        if self.jokers or (n == 4 and self.q783):  # both jokers, or Q 7 8 3 (one each)
            return kicker_breaks(shape, self.count), self.written(shape)
        if n == 2:
            return self.two(shape)
        if n == 3:
            return self.three(shape)
        return self.laid_out(shape)

    @property
    def writers(self) -> tuple:
        """:meth:`lead` of a shape of 0 … 3 ranks, without asking again what the hand holds (a lead of more ranks:
        :meth:`lead`)."""
        if self.jokers:
            return (None, self.lead, self.lead, self.lead)
        return (None, self.lead, self.two, self.three)

    def laid_out(self, shape: Shape) -> tuple[tuple, tuple[Card, ...]]:
        """:meth:`lead` by the layout of the shape's counts (a low run written by its ranks)."""
        part = self.part
        sizes = tuple(map(_second, shape))
        order, kickers, even = _LAYOUTS.get(sizes) or layout(sizes)
        if even and self.low and self.low.issubset(map(_first, shape)):
            return (), self.written(shape)  # a low run
        cards = tuple(chain.from_iterable([part[shape[i]] for i in order]))
        if not kickers:
            return (), cards
        have, out = self.count, []
        for i in kickers:
            p, k = shape[i]
            if k < have[p]:
                out.append(have[p])
        if len(out) > 1:
            out.sort(reverse=True)
        return tuple(out), cards

    def two(self, shape: Shape) -> tuple[tuple, tuple[Card, ...]]:
        """:meth:`lead` of a shape of two ranks: a body held three times or more and a kicker held once or twice
        (三带一, 三带一对), or two groups rising."""
        part, (high, low) = self.part, shape
        if high[1] >= 3 > low[1]:
            held = self.count[low[0]]
            return ((held,) if low[1] < held else ()), part[high] + part[low]
        if low[1] >= 3 > high[1]:
            held = self.count[high[0]]
            return ((held,) if high[1] < held else ()), part[low] + part[high]
        if high[1] == low[1] and self.low and high[0] in self.low and low[0] in self.low:
            return (), self.written(shape)  # a low run (2 2 3 3)
        return (), part[low] + part[high]

    def three(self, shape: Shape) -> tuple[tuple, tuple[Card, ...]]:
        """:meth:`lead` of a shape of three ranks that is a body held three times or more with two kickers held
        once or twice (三带二 of two singles, 四带二), the body first and the kickers rising; else by its layout."""
        high, mid, low = shape
        if high[1] >= 3 > mid[1] and low[1] < 3:
            body, high = high, mid
        elif mid[1] >= 3 > high[1] and low[1] < 3:
            body = mid
        elif low[1] >= 3 > high[1] and mid[1] < 3:
            body, low = low, mid
        else:
            return self.laid_out(shape)
        held, part = self.count, self.part
        lo, hi = held[low[0]], held[high[0]]
        cards = part[body] + part[low] + part[high]
        if low[1] < lo:
            if high[1] < hi:
                return ((lo, hi) if lo >= hi else (hi, lo)), cards
            return (lo,), cards
        return ((hi,) if high[1] < hi else ()), cards

    def cards(self, shape: Shape) -> tuple[Card, ...]:
        """The cards of a shape: the first ``n`` of each power, highest first (so already in canonical order)."""
        if len(shape) == 1:
            return self.part[shape[0]]
        return tuple(chain.from_iterable(map(self.part.__getitem__, shape)))

    def written(self, shape: Shape) -> tuple[Card, ...]:
        """The cards of a shape as a player reads them (:func:`~scoring.cards.arrange`): by its ranks' counts
        alone, unless it holds ranks written by what they are (both jokers: one rank; Q 7 8 3; a run holding a 2
        and a 3: a low run)."""
        if len(shape) == 1:
            return self.part[shape[0]]
        rising = shape[::-1]
        powers = set(map(_first, shape)) if self.named else ()
        if powers and len(shape) == 4 and self.q783 and self.q783 >= powers:
            return self.arranged(rising)
        sizes, part = tuple(map(_second, rising)), self.part.__getitem__
        if powers and self.jokers and self.jokers <= powers:  # both jokers: one rank, the highest (else read)
            if not self.jokers.issuperset((rising[-1][0], rising[-2][0])):
                return self.arranged(rising)
            rising = rising[:-2] + ((rising[-2], rising[-1]),)
            sizes, part = sizes[:-2] + (sizes[-2] + sizes[-1],), self.parts
        ranks = written_ranks(sizes)
        if ranks is not None:
            rising = map(rising.__getitem__, ranks)
        elif powers and self.low and self.low <= powers and min(sizes) == max(sizes):
            return self.arranged(shape[::-1])
        return tuple(chain.from_iterable(map(part, rising)))

    def parts(self, group) -> tuple[Card, ...]:
        """The cards of a (power, n) of a shape, or of both jokers' two ((power, n), (power, n))."""
        return self.part[group[0]] + self.part[group[1]] if type(group[1]) is tuple else self.part[group]

    def arranged(self, rising: Shape) -> tuple[Card, ...]:
        """:meth:`written` by :func:`~scoring.cards.written_places`, the cards' ranks read one by one."""
        cards = tuple(chain.from_iterable(map(self.part.__getitem__, rising)))
        order = written_places([c.rank for c in cards])
        return cards if order is None else tuple(map(cards.__getitem__, order))

    def has(self, power: int, n: int = 1) -> bool:
        return self.count.get(power, 0) >= n

    def at(self, level: int | None, least: int = 1) -> list[int]:
        """The powers held ``least`` times or more (a body's top, a run's, a bomb's) a lead topped by ``level`` may
        have, low → high: ``[level]`` when it is held so, every such power for None."""
        if level is not None:
            return [level] if self.count.get(level, 0) >= least else []
        if least < 3:
            return self.powers if least < 2 else self.pairs
        return self.triples if least == 3 else [p for p in self.triples if self.count[p] >= least]

    def units(self, exclude, width: int = 1, most: int | None = None, keep=None) -> list[tuple[int, int]]:
        """(power, how many ``width``-card units) of every power, highest first, for attachments (of any rank: a
        body decides a lead, not its highest card).

        ``exclude`` are the body's powers; ``keep(power)`` filters (no jokers, …); ``most`` caps the units of a power.
        """
        out = []
        for p in reversed(self.powers):
            if p in exclude or (keep is not None and not keep(p)):
                continue
            u = self.count[p] // width
            if most is not None and u > most:
                u = most
            if u:
                out.append((p, u))
        return out


def _held(count: dict, powers: frozenset | None) -> frozenset | None:
    """``powers`` when the hand holds every one of them, else None."""
    return powers if powers is not None and count.keys() >= powers else None


_LAYOUTS: dict[tuple, tuple] = {}  # sizes → layout (a few dozen in any game)


def layout(sizes: tuple[int, ...]) -> tuple:
    """How a shape of these counts (highest power first) is written and which of its groups are kickers: (the
    places of its groups in the written order, the places of its kickers, whether every count is the same).
    The deciding groups (held most, three times or more) come first when the others are held once or twice
    (kickers), all rising; otherwise every group rising (:func:`~scoring.cards.written_ranks`)."""
    rising = tuple(range(len(sizes) - 1, -1, -1))
    ranks = written_ranks(sizes[::-1])
    if ranks is None:
        found: tuple = (rising, (), min(sizes) == max(sizes))
    else:
        order = tuple(rising[r] for r in ranks)
        found = (order, tuple(i for i in order if sizes[i] != max(sizes)), False)
    _LAYOUTS[sizes] = found
    return found


def kicker_breaks(groups: Sequence[tuple[int, int]], have) -> tuple:
    """The sizes of the hand's groups (pair 2, triple 3, bomb 4 …) that the kickers of a play take part of,
    largest first; ``groups`` are the play's (power, how many). A play has kickers when the ranks it holds most
    often, three times or more, come with ranks held once or twice (三带一, 四带二, airplanes, bombs with
    kickers): those are its kickers (the same split as :func:`~scoring.cards.written_order`)."""
    if len(groups) < 2:
        return ()
    most = max(map(_second, groups))
    if most < 3:
        return ()
    out = []
    for p, n in groups:
        if n != most:
            if n > 2:
                return ()
            if n < have.get(p, 0):
                out.append(have[p])
    if len(out) > 1:
        out.sort(reverse=True)
    return tuple(out)


def multiset_units(avail: Sequence[tuple[int, int]], k: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every way to take ``k`` units from ``avail`` = [(power, units held)]: ((power, n), …) in ``avail``'s order."""
    if k == 1:
        for p, _ in avail:
            yield ((p, 1),)
        return
    if k == 2:
        for i, (p, have) in enumerate(avail):
            if have >= 2:
                yield ((p, 2),)
            for q, _ in avail[i + 1:]:
                yield ((p, 1), (q, 1))
        return
    yield from multisets(avail, k)


def kicked(group: tuple[int, int], avail: Sequence[tuple[int, int]], k: int, width: int = 1) -> list[Shape]:
    """Every shape of a one-rank body ``group`` with ``k`` units of ``width`` cards from ``avail`` attached
    (:meth:`RankCounts.units`, highest first, without the body's power): :func:`merged` of each of
    :func:`multiset_units`, put in place without sorting for one or two units (三带一, 三带二, 四带二)."""
    p = group[0]
    if k == 1:
        return [((q, width), group) if q > p else (group, (q, width)) for q, _ in avail]
    if k != 2:
        return [merged((group,), att, width) for att in multiset_units(avail, k)]
    out = []
    for i, (q, held) in enumerate(avail):
        if held >= 2:
            both = (q, 2 * width)
            out.append((both, group) if q > p else (group, both))
        one = (q, width)
        for r, _ in avail[i + 1:]:  # r < q
            other = (r, width)
            out.append((one, other, group) if r > p else (one, group, other) if q > p else (group, one, other))
    return out


def merged(body: Shape, extra: Sequence[tuple[int, int]], width: int = 1) -> Shape:
    """``body`` with ``extra`` units of ``width`` cards, highest power first (the powers of the two never meet)."""
    if width != 1:
        extra = [(p, n * width) for p, n in extra]
    return tuple(sorted((*body, *extra), reverse=True))


def multisets(avail: Sequence[tuple[Any, int]], k: int) -> Iterator[tuple[tuple[Any, int], ...]]:
    """Every way to take ``k`` items from ``avail`` = [(item, how many there are)]: ((item, n), …), in the order
    of taking as many of the first item as can be first (then fewer, then none)."""
    if k == 0:
        yield ()
        return
    left = [0] * (len(avail) + 1)  # left[i]: how many items there are from avail[i] on
    for i in range(len(avail) - 1, -1, -1):
        left[i] = left[i + 1] + avail[i][1]
    yield from _taking(avail, left, 0, k)


def _taking(avail, left: list[int], start: int, k: int) -> Iterator[tuple]:
    """:func:`multisets` of ``avail[start:]``, each starting with its first item taken (the ones skipped before
    it taken none): a generator a taken item deep, not an item deep."""
    for i in range(start, len(avail)):
        if left[i] < k:
            return
        item, have = avail[i]
        for n in range(min(have, k), 0, -1):
            if k - n > left[i + 1]:
                break
            if n == k:
                yield ((item, n),)
            else:
                head = ((item, n),)
                for tail in _taking(avail, left, i + 1, k - n):
                    yield head + tail
