"""Patterns: each reads itself from cards, generates its candidates from a hand and knows what it beats.

A game's spec lists its patterns (:attr:`SheddingSpec.patterns`); the spec's
``readings`` asks every pattern that can hold that many cards (``reads_size``)
to read them, ``candidates`` asks every pattern the table allows
(``answers``) for its plays of one size, and ``beats`` asks the pattern of
the play. A pattern is built for one spec (so for one resolved
rules) and reaches the rules and the rank order through it.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..cards import BIG_JOKER, LITTLE_JOKER, Card
from ..i18n import Text, t
from .counts import RankCounts, multisets  # noqa: F401  (multisets: the generators' helper, named here too)
from .reading import Reading

if TYPE_CHECKING:  # the spec imports this module; the name is for annotations only
    from .spec import SheddingSpec


class Pattern:
    """One pattern (or one family of kinds) of a game."""

    #: the reading kinds this pattern makes (stable strings of the API)
    kinds: tuple[str, ...] = ()
    #: a bomb pattern may be played on any table
    bomb = False
    #: the fewest cards of its deciding rank a lead of this pattern holds (:meth:`leads` at a level): the
    #: search does not ask it at a rank held fewer times
    deciding_width = 1

    def __init__(self, spec: "SheddingSpec"):
        self.spec = spec
        self.rules = spec.rules
        self.order = spec.rank_order

    def reads_size(self, n: int) -> bool:
        """Can ``n`` cards be this pattern at all? (A cheap filter before :meth:`read`.)"""
        return True

    def read(self, cards: tuple[Card, ...], counts: Counter) -> Iterable[Reading]:
        """Every reading of ``cards`` as this pattern (``counts``: how many of each rank)."""
        return ()

    def candidates(self, hand: "HandGroups", table: Reading | None, size: int, need: int | None) -> Iterable:
        """Card sets of ``size`` cards from ``hand`` that may be this pattern (over-generating is fine)."""
        return ()

    def leads(self, counts: "RankCounts", level: int | None) -> Iterable[tuple]:
        """Every lead of this pattern whose deciding rank (the top of its body) has power ``level`` (None: every
        lead), by construction.

        Each is ``(deciding, size, shape, cards)`` (see :mod:`.counts`): ``deciding`` the power of the top of its
        body; ``cards`` None for the first cards of each rank of ``shape``, else the cards themselves (when suits
        matter). Every one must have a reading and none may be missed: a spec whose patterns all build their
        leads lets the hint skip reading each candidate. A pattern that does not build them leaves this
        unimplemented (the hint then filters :meth:`candidates`).
        """
        raise NotImplementedError

    def beats(self, play: Reading, table: Reading) -> bool:
        """Does ``play`` (a reading of this pattern) beat ``table``? Default: same kind and size, higher key."""
        return (not table.is_bomb and play.kind == table.kind and play.size == table.size
                and play.key > table.key)

    def answers(self, table: Reading | None, size: int) -> bool:
        """May a play of this pattern and size be put on ``table`` at all (the hint's first filter)?"""
        if table is None or self.bomb:
            return True
        return not table.is_bomb and size == table.size and table.kind in self.kinds

    def describe(self) -> Text | None:
        """This pattern's line on the rules page (None: it shares another pattern's line)."""
        return None

    def reading(self, kind: str, cards: Sequence[Card], key: tuple, label: Text, **extra: Any) -> Reading:
        return Reading(kind, label, key, len(cards), self.bomb, tuple(cards), extra)


def labelled(name: Text, detail: str) -> Text:
    """"name（detail）": the label of most readings."""
    return t("{k}（{d}）", "{k} ({d})", k=name, d=detail)


class HandGroups:
    """A hand grouped by rank (each group in canonical order) with its counts, for the generators."""

    def __init__(self, hand: Sequence[Card], order):
        self.cards = hand
        self.order = order
        self.groups = by_rank(hand, order.sort_key)
        self.have = {r: len(g) for r, g in self.groups.items()}
        self.ranks = sorted(self.have, key=order.table.__getitem__)  # low → high (order.by_power, by its table)
        self.naturals = [r for r in self.ranks if r not in (BIG_JOKER, LITTLE_JOKER)]

    def count(self, rank: int) -> int:
        return self.have.get(rank, 0)

    def take(self, choice: Iterable[tuple[int, int]]) -> list[Card]:
        """The first ``n`` cards of each rank for ``choice`` = [(rank, n), …]."""
        out: list[Card] = []
        for rank, n in choice:
            out.extend(self.groups[rank][:n])
        return out

    def available(self, exclude=()) -> list[tuple[int, int]]:
        """(rank, count) low → high, without the ranks in ``exclude``."""
        return [(r, self.have[r]) for r in self.ranks if r not in exclude]

    def ask(self, table: Reading | None, size: int, need: int | None) -> "HandGroups":
        """This hand for one question of the hint (a subclass may keep the question: :mod:`.wild`)."""
        return self


def by_rank(hand: Sequence[Card], key) -> dict[int, list[Card]]:
    """Cards grouped by rank, each group in canonical order."""
    groups: dict[int, list[Card]] = {}
    for c in sorted(hand, key=key):
        groups.setdefault(c.rank, []).append(c)
    return groups
