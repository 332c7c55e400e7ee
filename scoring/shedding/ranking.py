"""The smallest-play order of a shedding game's plays (``rules/common.md``, "Smallest legal play").

A play that is not a bomb comes before every bomb (bombs weakest first, by their key); then the lowest
**deciding rank** (the ``key[0]`` of a plain reading: the rank of a single or pair, the triple of 三带一, the
top of a run); then fewer point cards, fewer cards; then kickers from loose cards first (fewest groups of the
hand broken, the largest broken group smallest); then the lower cards. A play reads as a bomb when any of its
legal readings is one (the largest reading wins); of several readings, the lowest order counts.
:func:`preference` is that order for one play, read from scratch (the tests' oracle); :class:`Ranking` gives
it to the search (:mod:`.search`), which works it out without reading most plays.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import NamedTuple, Sequence

from ..cards import Card
from .counts import kicker_breaks
from .pattern import Pattern
from .reading import Reading, probe
from .runs import Airplane, ShortWingedPlane
from .spec import SheddingSpec
from .stock import FourWithTwo, TripleWith
from .turn import Turn

PLAIN, BOMB = 0, 1
#: a play's place in the order: (PLAIN, deciding power) or (BOMB, bomb key)
Rank = tuple
_PLAIN_TABLE = probe("", (), 0, False)  # a plain play of no kind: a pattern that answers it with -1 cards beats any


def legal_readings(spec: SheddingSpec, cards: Sequence[Card], table: Reading | None,
                   turn: Turn | None = None, among: Sequence[Pattern] | None = None) -> list[Reading]:
    """Every reading of ``cards`` (by the patterns ``among`` only, when given) that is a legal lead / beats
    ``table`` (and the turn allows), largest first."""
    readings = spec.readings(cards) if among is None else spec.readings(cards, among)
    return [r for r in readings
            if (table is None or spec.beats(r, table)) and (turn is None or spec.forbids(r, turn) is None)]


def bomb_kinds(spec: SheddingSpec) -> frozenset:
    """The kinds that count as bombs in the smallest-play order: bombs, and what beats any plain play (Q783)."""
    return patterns_of(spec).bomb_kinds


class Patterns(NamedTuple):
    """A spec's patterns as the order sees them (worked out once a spec)."""

    bombs: tuple[Pattern, ...]  # the bomb patterns (:func:`is_bomb_pattern`)
    plain: tuple[tuple[Pattern, bool], ...]  # the others, each with whether it carries kickers
    bomb_kinds: frozenset
    kickers: bool  # may a play have kickers (:func:`kicker_breaks`)? Not when no pattern carries any


@lru_cache(maxsize=256)
def patterns_of(spec: SheddingSpec) -> Patterns:
    bombs = tuple(p for p in spec.patterns if is_bomb_pattern(p))
    return Patterns(bombs, tuple((p, has_kickers(p)) for p in spec.patterns if p not in bombs),
                    frozenset(k for p in bombs for k in p.kinds), any(has_kickers(p) for p in spec.patterns))


def is_bomb_pattern(pattern: Pattern) -> bool:
    return pattern.bomb or pattern.answers(_PLAIN_TABLE, -1)


def has_kickers(pattern: Pattern) -> bool:
    """Does the pattern carry cards apart from its deciding group (kickers, wings), maybe higher than it?"""
    return isinstance(pattern, (TripleWith, FourWithTwo, Airplane, ShortWingedPlane)) or bool(
        getattr(pattern, "kickers", False))


class Ranking:
    """The smallest-play order of the plays of one hand (see the module's words)."""

    def __init__(self, spec: SheddingSpec, hand: Sequence[Card]):
        self.spec = spec
        patterns = patterns_of(spec)
        self.bombs, self.bomb_patterns, self.kickers = patterns.bomb_kinds, patterns.bombs, patterns.kickers
        self.table = spec.power_table
        self.have = Counter(self.powers(hand))
        self.wild = frozenset(getattr(spec, "wild", ()))
        self.wild_powers = frozenset(spec.rank_order.power(r) for r in self.wild)

    def powers(self, cards: Sequence[Card]) -> tuple[int, ...]:
        """The cards' powers, high to low."""
        table = self.table
        if table is not None:
            return tuple(sorted([table[c.rank] for c in cards], reverse=True))
        return tuple(sorted([self.spec.order(c) for c in cards], reverse=True))

    def rank_of(self, readings: Sequence) -> Rank:
        """The place of a play whose largest legal reading (or probe) comes first in ``readings``: a bomb by its
        key, a plain play by its deciding rank."""
        r = readings[0]
        if r.is_bomb or r.kind in self.bombs:
            return (BOMB, r.key)
        return (PLAIN, r.key[0])

    def key(self, cards: Sequence[Card], rank: Rank, powers: tuple | None = None) -> tuple:
        """The whole order of a play of this place: then points, cards, broken groups, the cards high to low."""
        if powers is None:
            powers = self.powers(cards)
        spec = self.spec
        points = sum(spec.points(c) for c in cards) if spec.has_points else 0
        return (rank[0], rank[1], points, len(powers), self.broken(powers), powers)

    def broken(self, powers: Sequence[int]) -> tuple:
        """The sizes of the hand's groups (pair 2, triple 3, bomb 4 …) the play's kickers take part of."""
        groups = set(powers)
        if self.wild_powers and not self.wild_powers.isdisjoint(groups):
            return ()  # wild jokers fill in: no kickers
        return kicker_breaks([(p, powers.count(p)) for p in groups], self.have)

    def might_be_bomb(self, cards: Sequence[Card], powers: Sequence[int] = ()) -> bool:
        """Can a plain play with wild jokers also read as a bomb (four cards or more of each rank, jokers filling:
        a bomb of a kind, a chain)? The jokers must make up what each natural rank lacks of four. ``powers``, the
        cards' when known, may tell at once that there is no wild joker."""
        wild = self.wild
        if not wild:
            return False
        if powers:  # every natural rank needs four cards: more ranks than a quarter of the cards, no bomb
            present = self.wild_powers.intersection(powers)
            if not present or 4 * (len(set(powers)) - len(present)) > len(powers):
                return False
        jokers, ranks = 0, Counter()
        for c in cards:
            if c.rank in wild:
                jokers += 1
            else:
                ranks[c.rank] += 1
        return jokers > 0 and sum([4 - n for n in ranks.values() if n < 4]) <= jokers


def preference(spec: SheddingSpec, cards: Sequence[Card], table: Reading | None = None, turn: Turn | None = None,
               hand: Sequence[Card] | None = None) -> tuple | None:
    """The smallest-play order of one play from ``hand`` (smaller is played first by 托管), read from scratch;
    None when it is no legal play."""
    readings = legal_readings(spec, cards, table, turn)
    if not readings:
        return None
    ranking = Ranking(spec, cards if hand is None else hand)
    return ranking.key(cards, ranking.rank_of(readings))
