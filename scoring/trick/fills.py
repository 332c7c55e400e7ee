"""Sub-multisets of a pool of cards, generated lazily in the order of :meth:`Context.play_key`.

A play is ``base + fill``: ``base`` fixed (the cards a follower must play, or a tractor the lead's shape
asks for), ``fill`` any ``k`` cards of ``pool``, optionally holding at least ``triples`` cards three times
and ``triples + pairs`` cards at least twice (so that the play holds that many triples and pairs apart
from the base). The fills come smallest first, with no sorting beyond the few plays that tie on their
cards' order values:

* ``play_key`` compares the highest card, then the number of point cards, then the cards' order values
  (highest first), then their canonical keys. The pool is read as *tiers*, the cards of one order value
  (:meth:`Context.gstrength`) highest first; every card of a tier is a point card or none is.
* Adding the same base to two fills keeps their order: both compare on the tier where their counts first
  differ, from the top, and the one with fewer cards there is smaller. So a search that sets how many
  cards each tier gives, from the top tier down, fewer first, meets the fills in order; fills that differ
  only in which cards of a tier they take (tied cards of different suits) are sorted among themselves.
* The search runs once per (highest tier, number of point cards), in that order, and enters a tier's
  choice only if some fill can still be completed below it (:meth:`Fills._possible`, memoised), so its
  work follows the number of fills it yields.

Cards are numbered in canonical order (:class:`~.space.CardSpace`), so a play is a sorted tuple of
numbers and its key is built from integers.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Mapping, Sequence

from .space import CardSpace, Key

@dataclass(frozen=True)
class Tier:
    """The pool's cards of one order value (card numbers with their copies); all point cards or none."""

    value: int
    point: bool
    cards: tuple[tuple[int, int], ...]
    size: int  # its cards with their copies


class Fills:
    """Every ``k``-card fill of ``pool`` added to ``base`` (see the module), smallest first."""

    def __init__(self, space: CardSpace, base: Sequence[int], pool: Mapping[int, int], k: int,
                 triples: int = 0, pairs: int = 0):
        """``base``: card numbers (:class:`~.space.CardSpace`); ``pool``: card number -> copies."""
        self.space = space
        self.base = tuple(sorted(base))
        self.k = k
        self.triples = triples
        self.doubles = triples + pairs  # cards the fill holds at least twice (a triple counts too)
        self.tiers = _tiers(space, pool)
        self.points_from = [0] * (len(self.tiers) + 1)  # point cards from tier i down, and other cards
        self.others_from = [0] * (len(self.tiers) + 1)
        for j in range(len(self.tiers) - 1, -1, -1):
            tier = self.tiers[j]
            self.points_from[j] = self.points_from[j + 1] + (tier.size if tier.point else 0)
            self.others_from[j] = self.others_from[j + 1] + (0 if tier.point else tier.size)
        # for each number of cards, the lowest tier from which the tiers down still hold that many
        self.lowest = [0] * (k + 1)
        held = 0
        for j in range(len(self.tiers) - 1, -1, -1):
            for m in range(held + 1, min(k, held + self.tiers[j].size) + 1):
                self.lowest[m] = j
            held += self.tiers[j].size
        self._memo: dict[tuple, bool] = {}

    def __iter__(self) -> Iterator[Key]:
        """The plays' keys (:meth:`~.space.CardSpace.key`), smallest first."""
        return map(self.space.key, self.plays())

    def plays(self) -> Iterator[tuple[int, ...]]:
        """The plays (sorted card numbers), smallest first."""
        top = max((self.space.value[i] for i in self.base), default=None)
        if self.k == 0:
            if self.doubles == 0:
                yield self.base
            return
        # first the fills under the base's highest card (they share it), then by their own highest tier
        under = [i for i, tier in enumerate(self.tiers) if top is not None and tier.value <= top]
        if under:
            yield from self._phase(under[0], exact_top=False)
        for i in range(len(self.tiers) - 1, -1, -1):
            if top is None or self.tiers[i].value > top:
                yield from self._phase(i, exact_top=True)

    def _phase(self, start: int, exact_top: bool) -> Iterator[tuple[int, ...]]:
        """The fills from tiers ``start``… (holding a card of tier ``start`` if ``exact_top``), by point cards."""
        for points in range(self.k + 1):
            if self._possible(start, self.k, points, self.triples, self.doubles):
                yield from self._search(start, self.k, points, [((), self.triples, self.doubles)], exact_top)

    def _search(self, i: int, cards: int, points: int, partials: list, first: bool) -> Iterator[tuple[int, ...]]:
        """Place ``cards`` cards (``points`` of them point cards) from tier ``i`` down after each partial fill
        ``(numbers, triples still wanted, doubles still wanted)``; every partial given can be completed.
        The fills whose highest new card is in a lower tier come first (``first``: only tier ``i``)."""
        if cards == 0:
            yield from self._leaf(partials)
            return
        lowest = i if first else self.lowest[cards]
        for j in range(lowest, i - 1, -1):
            yield from self._branch(j, cards, points, partials)

    def _branch(self, j: int, cards: int, points: int, partials: list) -> Iterator[tuple[int, ...]]:
        """The fills whose highest new cards are ``n`` ≥ 1 cards of tier ``j``, fewer first."""
        tier = self.tiers[j]
        for n in range(1, min(tier.size, cards) + 1):
            left, left_points = cards - n, points - n if tier.point else points
            if left_points < 0 or left_points > left:
                continue
            grown = [(numbers + taken, t, d) for numbers, want_3, want_2 in partials
                     for taken, t, d in _takes(tier.cards, n, want_3, want_2)
                     if self._possible(j + 1, left, left_points, t, d)]
            if grown:
                yield from self._search(j + 1, left, left_points, grown, False)

    def _possible(self, i: int, cards: int, points: int, want_3: int, want_2: int) -> bool:
        """Can ``cards`` cards from tier ``i`` down, ``points`` of them point cards, hold ``want_3`` triples
        and ``want_2`` cards at least twice?"""
        if not want_3 and not want_2:  # tiers are all point cards or none: counting is enough
            return 0 <= points <= self.points_from[i] and 0 <= cards - points <= self.others_from[i]
        if cards == 0:
            return False
        if i == len(self.tiers) or 3 * want_3 + 2 * max(0, want_2 - want_3) > cards:
            return False
        state = (i, cards, points, want_3, want_2)
        found = self._memo.get(state)
        if found is None:
            tier = self.tiers[i]
            found = any(self._possible(i + 1, cards - n, points - (n if tier.point else 0), t, d)
                        for n in range(0, min(tier.size, cards) + 1)
                        if (points - n >= 0 if tier.point else True)
                        for t, d in _reach(tier.cards, n, want_3, want_2))
            self._memo[state] = found
        return found

    def _leaf(self, partials: list) -> Iterator[tuple[int, ...]]:
        """The plays of fills that took as many cards of each tier (so the same values and point cards):
        they differ only in which tied cards, ordered by the cards' numbers."""
        found = [tuple(sorted(self.base + numbers)) for numbers, _, _ in partials]
        if len(found) > 1:
            found.sort()
        yield from found


def _tiers(space: CardSpace, pool: Mapping[int, int]) -> list[Tier]:
    by_value: dict[int, list[tuple[int, int]]] = {}
    for i, n in pool.items():
        if n > 0:
            by_value.setdefault(space.value[i], []).append((i, n))
    return [Tier(v, space.point[cards[0][0]], tuple(sorted(cards)), sum(n for _, n in cards))
            for v, cards in sorted(by_value.items(), reverse=True)]


@lru_cache(maxsize=8192)
def _splits(cards: tuple[tuple[int, int], ...], n: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Every way of taking ``n`` cards from a tier: the card numbers taken, and how many of the tier's
    cards it takes three times and at least twice."""
    if not cards:
        return (((), 0, 0),) if n == 0 else ()
    (card, cap), rest = cards[0], cards[1:]
    out = []
    for m in range(min(cap, n), -1, -1):
        for taken, threes, twos in _splits(rest, n - m):
            out.append(((card,) * m + taken, threes + (m >= 3), twos + (m >= 2)))
    return tuple(out)


@lru_cache(maxsize=8192)
def _takes(cards: tuple[tuple[int, int], ...], n: int, want_3: int, want_2: int
           ) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """The splits of ``n`` cards of a tier, each with the triples and doubles still wanted after it."""
    return tuple((taken, max(0, want_3 - threes), max(0, want_2 - twos))
                 for taken, threes, twos in _splits(cards, n))


@lru_cache(maxsize=8192)
def _reach(cards: tuple[tuple[int, int], ...], n: int, want_3: int, want_2: int) -> frozenset[tuple[int, int]]:
    """What may still be wanted after taking ``n`` cards of a tier (the distinct outcomes)."""
    return frozenset((t, d) for _, t, d in _takes(cards, n, want_3, want_2))
