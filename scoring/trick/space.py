"""The cards of a context, numbered: plays as sorted tuples of integers, their keys and their reading.

A hint makes thousands of plays out of a few dozen distinct cards; numbering the deck's distinct cards
once in canonical order (:meth:`Context.key`, :func:`space_of`) lets it sort, key, print and read plays
without looking a card up again.

:meth:`CardSpace.score` is the shape obligation of following (:func:`~.follow.obligation_score` reads
cards through it): the greedy reading of the lead's units, one by one — the lowest tractor, else the
lowest sets, then pairs in place of triples; among tied cards the one with fewer copies first, so that
a pair leaves a triple whole and the reading does not depend on the order the cards were given in. A
tractor may take any of the tied cards of a level that hold enough copies: they chain alike and, with two
decks (二七王, the only game whose tied levels chain), hold the same two copies, so the choice does not
change the score.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Iterable, Sequence

from ..cards import Card, Suit
from .order import Context, TrickSpec, card_points
from .units import Unit

Key = tuple  # (highest value, point cards, values high→low, card numbers): see CardSpace.key
#: what cards manage of one unit of the lead: (the whole unit?, sets of its width, pairs in place of triples)
UnitScore = tuple[int, int, int]
SINGLE: UnitScore = (1, 0, 0)  # a single is always matched
RUNG = 8  # a chaining level's rung is chain * RUNG + group rank: the level below in its group is rung - RUNG


class CardSpace:
    """Distinct cards numbered in canonical order, with what keys and readings need."""

    def __init__(self, ctx: Context, cards: Iterable[Card]):
        if ctx.max_width > 3:
            raise ValueError("the reading of sets (score) holds for at most three copies of a card")
        self.cards = sorted(set(cards), key=ctx.key)
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.value = [ctx.gstrength(c) for c in self.cards]
        self.point = [bool(card_points(c)) for c in self.cards]
        self.text = [str(c) for c in self.cards]
        self.strength = [ctx.strength(c) for c in self.cards]
        # tractors chain consecutive rungs; lower rungs first is the order of (strength, group)
        self.rung = [None if ctx.chain(c) is None else ctx.chain(c) * RUNG + ctx.group_rank(ctx.group(c))
                     for c in self.cards]
        # which of tied cards a set takes matters only when one could give a pair and keep a card: with three
        # copies (three decks)
        ties = Counter((ctx.group(c), self.strength[i]) for i, c in enumerate(self.cards))
        self.tied = [ctx.max_width >= 3 and ties[(ctx.group(c), self.strength[i])] > 1
                     for i, c in enumerate(self.cards)]

    def numbers(self, cards: Iterable[Card]) -> tuple[int, ...]:
        return tuple(sorted(self.index[c] for c in cards))

    def counts(self, cards: Iterable[Card]) -> Counter:
        """Card number -> copies."""
        return Counter(self.index[c] for c in cards)

    def key(self, numbers: tuple[int, ...]) -> Key:
        """A key that orders plays of one length as play_key does; its last part is the sorted card numbers."""
        value = self.value
        values = sorted([value[i] for i in numbers], reverse=True)
        point = self.point
        return (values[0] if values else -1, sum([point[i] for i in numbers]), tuple(values), numbers)

    def group_key(self, numbers: tuple[int, ...]) -> Key:
        """:meth:`key` of cards of one group: numbered from the highest down, their values need no sort."""
        values = tuple(map(self.value.__getitem__, numbers))
        return (values[0], sum(map(self.point.__getitem__, numbers)), values, numbers)

    def play(self, numbers: tuple[int, ...]) -> tuple[Card, ...]:
        return tuple(map(self.cards.__getitem__, numbers))

    def text_of(self, numbers: tuple[int, ...]) -> str:
        """The canonical text of a play (numbers sorted), as ``Context.fmt`` writes it."""
        return " ".join(map(self.text.__getitem__, numbers))

    # -- the shape obligation: the greedy reading ------------------------------------

    def score(self, numbers: Sequence[int], units: Sequence[Unit]) -> list[UnitScore]:
        """What cards of one group (sorted numbers, copies repeated) manage to match of the lead's shape,
        unit by unit."""
        left: dict[int, int] = {}
        for i in numbers:
            left[i] = left.get(i, 0) + 1
        # lowest first: cards of one group are numbered from the highest down, tied cards side by side;
        # among tied cards the one with fewer copies first. A set taken leaves its card fewer than two
        # copies (no card has more than three), out of any later set, so this order holds throughout.
        lowest = list(reversed(left))
        if any(map(self.tied.__getitem__, lowest)) and self._unequal_ties(left, lowest):
            strength = self.strength
            lowest.sort(key=lambda i: (strength[i], left[i]))
        rung = self.rung
        chaining = [i for i in lowest if rung[i] is not None]
        return [SINGLE if u.width == 1 and u.length == 1 else self._unit_score(left, lowest, chaining, u)
                for u in units]

    def _unequal_ties(self, left: dict[int, int], lowest: list[int]) -> bool:
        """Do tied cards (of one strength) come with different copies?"""
        strength, tied = self.strength, self.tied
        copies: dict[int, int] = {}
        return any(copies.setdefault(strength[i], left[i]) != left[i] for i in lowest if tied[i])

    def _unit_score(self, left: dict[int, int], lowest: list[int], chaining: list[int], u: Unit) -> UnitScore:
        """Match one pair, triple or tractor out of ``left`` (taking what it uses)."""
        width, length = u.width, u.length
        if length >= 2 and len(chaining) >= length and self._take_tractor(left, chaining, width, length):
            return (1, length, 0)
        # no tractor: as many sets of the unit's width as there are, then pairs in place of triples
        got_w = _take_sets(left, lowest, width, length)
        got_2 = _take_sets(left, lowest, 2, length - got_w) if width == 3 else 0
        return (1 if length == 1 and got_w == 1 else 0, got_w, got_2)

    def _take_tractor(self, left: dict[int, int], chaining: list[int], width: int, length: int) -> bool:
        """Take the tractor with the lowest top out of ``left`` (``chaining``: its chaining cards, lowest
        first), if there is one."""
        rung = self.rung
        run: list[int] = []  # the cards of consecutive rungs so far, one per rung
        last = None  # the rung of the last card in the run
        for i in chaining:
            if left[i] < width or rung[i] == last:
                continue
            if last != rung[i] - RUNG:
                run = []
            run.append(i)
            last = rung[i]
            if len(run) == length:
                for j in run:
                    left[j] -= width
                return True
        return False


def _take_sets(left: dict[int, int], lowest: list[int], width: int, most: int) -> int:
    """Take up to ``most`` sets of ``width`` identical cards out of ``left``, in the order of ``lowest``."""
    got = 0
    for i in lowest:
        if got == most:
            break
        if left[i] >= width:
            left[i] -= width
            got += 1
    return got


def space_of(ctx: Context) -> CardSpace:
    """The numbered distinct cards of the context's deck (made once per game and trump)."""
    return _deck_space(ctx.spec, ctx.trump)


@lru_cache(maxsize=64)
def _deck_space(spec: TrickSpec, trump: Suit) -> CardSpace:
    ctx = Context(spec, trump)
    return CardSpace(ctx, ctx.deck.distinct_cards())
