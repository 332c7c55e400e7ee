"""A hand as a rank-count histogram, for patterns that build their leads by construction.

A pattern that implements :meth:`~scoring.shedding.pattern.Pattern.leads` names
each lead by its **shape**: ``((power, n), …)``, highest power first, ``n`` cards
of each rank (the first ``n`` of that rank in the canonical order). The powers
being one per rank, a shape names the multiset of ranks, so it is also the
play's identity; its powers high to low break the last ties of the smallest-play
order (:mod:`.search`).

``level`` (a power, or None for no constraint) asks for the leads whose highest
card has that power; :func:`attachments` enumerates the kickers and wings of a
body under that constraint. A :class:`Deciding` level asks instead for the leads
whose **deciding rank** has that power (the smallest-play order of
``rules/common.md``): a body topped by it, with kickers and wings of any rank.
"""
from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any, Iterator, Sequence

from ..cards import NAMED_RANKS, Q783_RANKS, Card, written_places, written_ranks

Shape = tuple  # ((power, n), …), highest power first
_first, _second = itemgetter(0), itemgetter(1)


class Deciding(int):
    """A level naming the deciding rank of the leads asked for (the top of their body), not their highest card:
    their kickers and wings may be of any rank. It is an ``int``, so a pattern compares it as any level."""


class RankCounts:
    """A hand by power: the cards of each power in canonical order, how many, the powers present low → high."""

    def __init__(self, hand: Sequence[Card], order):
        table = order.table
        groups: dict[int, list[Card]] = {}
        for c in sorted(hand, key=order.sort_key):
            groups.setdefault(table[c.rank], []).append(c)
        self.groups = {p: tuple(g) for p, g in groups.items()}
        self.count = {p: len(g) for p, g in groups.items()}
        self.powers = sorted(self.count)
        self.rank = {p: g[0].rank for p, g in groups.items()}
        #: (power, n) → the first ``n`` cards of that power
        self.part = {(p, n): g[:n] for p, g in self.groups.items() for n in range(1, len(g) + 1)}
        #: the powers of ranks a play holding them all is written by what they are, not by counts (:meth:`written`)
        power_of = {r: p for p, r in self.rank.items()}
        self.low, self.jokers = ({power_of[r] for r in ranks} if ranks <= power_of.keys() else None
                                 for ranks in NAMED_RANKS)
        self.q783 = {power_of[r] for r in Q783_RANKS if r in power_of}
        self.named = bool(self.low or self.jokers or len(self.q783) == len(Q783_RANKS))  # may a play hold them?

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
        if powers and len(shape) == 4 and self.q783 >= powers:
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

    def at(self, level: int | None) -> list[int]:
        """The powers a one-rank lead topped by ``level`` may have: ``[level]`` when held, every power for None."""
        if level is None:
            return self.powers
        return [level] if level in self.count else []

    def tops(self, level: int | None) -> list[int]:
        """The powers a body of several ranks may be topped by: every power for None, the powers up to ``level``,
        or only ``level`` itself for a :class:`Deciding` level (a body decides by its top)."""
        if level is None:
            return self.powers
        if isinstance(level, Deciding):
            return self.at(level)
        return [p for p in self.powers if p <= level]

    def units(self, level: int | None, exclude, width: int = 1, most: int | None = None,
              keep=None) -> list[tuple[int, int]]:
        """(power, how many ``width``-card units) of the powers up to ``level``, highest first, for attachments.

        ``exclude`` are the body's powers; ``keep(power)`` filters (no jokers, …); ``most`` caps the units of a power.
        A :class:`Deciding` level caps nothing: kickers may be higher than the body.
        """
        out = []
        cap = None if isinstance(level, Deciding) else level
        for p in reversed(self.powers):
            if (cap is not None and p > cap) or p in exclude or (keep is not None and not keep(p)):
                continue
            u = self.count[p] // width
            if most is not None and u > most:
                u = most
            if u:
                out.append((p, u))
        return out


def attachments(avail: Sequence[tuple[int, int]], k: int, level: int | None,
                top: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every multiset of ``k`` units from ``avail`` (highest first) such that the play tops at ``level``.

    ``top`` is the body's highest power: when it is below ``level`` the attachments
    must hold a unit of ``level``; above it, there is nothing. Under a :class:`Deciding`
    level only a body topped by it has attachments (all of them). Each multiset comes
    as ((power, units), …), highest first.
    """
    if isinstance(level, Deciding) and top != level:
        return
    if level is None or top == level:
        yield from multiset_units(avail, k)
        return
    if top > level or not avail or avail[0][0] != level:
        return
    (p, have), rest = avail[0], avail[1:]
    for j in range(min(have, k), 0, -1):
        for tail in multiset_units(rest, k - j):
            yield ((p, j),) + tail


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
