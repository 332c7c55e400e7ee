"""The cards of one position, numbered: plays as sorted tuples of integers, their keys and their reading.

A hint makes thousands of plays out of a few dozen distinct cards; numbering those cards once in
canonical order (:meth:`Context.key`) lets it sort, key, print and read plays without looking a card up
again. :meth:`CardSpace.score` is :func:`~.follow.obligation_score` on numbers: the same greedy
reading, unit by unit (the lowest tractor, else the lowest sets, then pairs in place of triples; among
tied cards the one with fewer copies first). A tractor may take any of the tied cards of a level that
hold enough copies: they chain alike and, with two decks (二七王, the only game whose tied levels chain),
hold the same two copies, so the choice does not change the score.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from ..cards import Card
from .order import Context, card_points
from .units import Unit

Key = tuple  # (highest value, point cards, values high→low, card numbers): see CardSpace.key
UnitScore = tuple[int, int, int]


class Shown(tuple):
    """A play (its cards in canonical order) that carries its canonical text."""

    text: str


class CardSpace:
    """The distinct cards of one position, numbered in canonical order, with what keys and readings need."""

    def __init__(self, ctx: Context, cards: Iterable[Card]):
        self.cards = sorted(set(cards), key=ctx.key)
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.value = [ctx.gstrength(c) for c in self.cards]
        self.point = [bool(card_points(c)) for c in self.cards]
        self.text = [str(c) for c in self.cards]
        self.strength = [ctx.strength(c) for c in self.cards]
        # a chaining level: (group, level); it chains into the level below when that one chains too
        self.level = [(ctx.group_rank(ctx.group(c)), ctx.chain(c)) if ctx.chain(c) is not None else None
                      for c in self.cards]
        self.chains_down = [bool(ctx.successors(c)) for c in self.cards]

    def numbers(self, cards: Sequence[Card]) -> tuple[int, ...]:
        return tuple(sorted(self.index[c] for c in cards))

    def counts(self, cards: Iterable[Card]) -> Counter:
        """Card number -> copies."""
        return Counter(self.index[c] for c in cards)

    def key(self, numbers: tuple[int, ...]) -> Key:
        """A key that orders plays of one length as play_key does; its last part is the sorted card numbers."""
        values = sorted((self.value[i] for i in numbers), reverse=True)
        return (values[0] if values else -1, sum(1 for i in numbers if self.point[i]), tuple(values), numbers)

    def play(self, numbers: tuple[int, ...]) -> Shown:
        play = Shown(self.cards[i] for i in numbers)
        play.text = " ".join(self.text[i] for i in numbers)
        return play

    # -- the greedy reading of obligation_score ---------------------------------------

    def score(self, numbers: Sequence[int], units: Sequence[Unit]) -> list[UnitScore]:
        """What the cards manage to match of the lead's shape, unit by unit (as obligation_score)."""
        left = Counter(numbers)
        out = []
        for u in units:
            out.append((1, 0, 0) if u.is_single else self._unit_score(left, u))
        return out

    def _unit_score(self, left: Counter, u: Unit) -> UnitScore:
        if u.length >= 2 and self._take_tractor(left, u.width, u.length):
            return (1, u.length, 0)
        got_w = self._take_sets(left, u.width, u.length)
        got_2 = self._take_sets(left, 2, u.length - got_w) if u.width == 3 else 0
        return (1 if u.length == 1 and got_w == 1 else 0, got_w, got_2)

    def _take_tractor(self, left: Counter, width: int, length: int) -> bool:
        """Take the tractor with the lowest top out of ``left``, if there is one."""
        at: dict[tuple, int] = {}  # chaining level -> a card of it with ``width`` copies
        for i, n in left.items():
            if n >= width and self.level[i] is not None:
                at.setdefault(self.level[i], i)
        for top in sorted(at, key=lambda lv: (self.strength[at[lv]], lv)):
            run = [at[top]]
            while len(run) < length and self.chains_down[run[-1]]:
                below = (top[0], self.level[run[-1]][1] - 1)
                if below not in at:
                    break
                run.append(at[below])
            if len(run) == length:
                for i in run:
                    left[i] -= width
                return True
        return False

    def _take_sets(self, left: Counter, width: int, most: int) -> int:
        """Take up to ``most`` sets of ``width`` identical cards out of ``left``, lowest first."""
        got = 0
        for i in sorted((i for i, n in left.items() if n >= width), key=lambda i: (self.strength[i], left[i], i)):
            while left[i] >= width and got < most:
                left[i] -= width
                got += 1
        return got
