"""One game's rank order: rank → power, the canonical card order, names, run windows."""
from __future__ import annotations

from functools import cache
from typing import Callable, Iterable, Mapping, Sequence

from ..cards import ACE, BIG_JOKER, LITTLE_JOKER, NAMED_RANKS, Q783_RANKS, Card, rank_name

RUN_RANKS = tuple(range(3, ACE + 1))  # a run goes 3 … A; A and 2 join low only where a game allows


class RankOrder:
    """How strong each rank is in one game (higher power = stronger).

    ``unranked_key`` orders the cards that have no power (Q783's score cards),
    after every ranked card; without it every rank must have a power.
    """

    def __init__(self, powers: Mapping[int, int], unranked_key: Callable[[Card], tuple] | None = None):
        self.powers = dict(powers)
        self._rank_of = {p: r for r, p in self.powers.items()}
        #: every rank's power, -1 for the unranked (a plain dict: the hint looks up every card)
        self.table = {r: self.powers.get(r, -1) for r in range(BIG_JOKER + 1)}
        self._unranked_key = unranked_key
        #: the powers of the ranks written by what they are when a play holds them all (2 and 3: a low run; both
        #: jokers; Q 7 8 3), or None where the order lacks one (:class:`~.counts.RankCounts`)
        self.named_powers = tuple(frozenset(self.powers[r] for r in ranks) if ranks <= self.powers.keys() else None
                                  for ranks in (*NAMED_RANKS, Q783_RANKS))
        #: a card's place in the canonical order (as :meth:`sort_key` sorts it: an int where every rank has a
        #: power), worked out once a card (cards are values made once: a dict finds them fast)
        self.card_key = _Keys(self.sort_key if unranked_key else self.int_key).__getitem__
        #: every rank of the pack has a power and no two share one (the powers then name a play's ranks)
        self.one_power_a_rank = (all(r in self.powers for r in range(2, BIG_JOKER + 1))
                                 and len(set(self.powers.values())) == len(self.powers))

    @classmethod
    def high_to_low(cls, ranks: Sequence[int], unranked_key: Callable[[Card], tuple] | None = None) -> "RankOrder":
        """The order of ``ranks`` listed highest first (powers len … 1)."""
        return cls({r: len(ranks) - i for i, r in enumerate(ranks)}, unranked_key)

    # --- strength --------------------------------------------------------
    def power(self, rank: int) -> int:
        """The strength of a rank; -1 for a rank that is never played."""
        return self.powers.get(rank, -1)

    def card_power(self, card: Card) -> int:
        return self.powers.get(card.rank, -1)

    def rank_of_power(self, power: int) -> int | None:
        return self._rank_of.get(power)

    def ranks(self) -> list[int]:
        """The ranked ranks, highest first."""
        return sorted(self.powers, key=self.powers.__getitem__, reverse=True)

    def by_power(self, ranks: Iterable[int], reverse: bool = False) -> list[int]:
        return sorted(ranks, key=self.power, reverse=reverse)

    # --- the canonical card order -----------------------------------------
    def sort_key(self, card: Card) -> tuple:
        """Highest first, then suit (bare cards last); unranked cards after every ranked one."""
        suit = card._suit_index if card.suit is not None else 9
        power = self.table[card.rank]
        if power >= 0:
            return (-power, suit)  # powers are positive: every ranked key is below (1, …)
        if self._unranked_key is None:
            raise KeyError(card.rank)
        return (1,) + self._unranked_key(card) + (suit,)

    def int_key(self, card: Card) -> int:
        """:meth:`sort_key` as one int, for an order without unranked cards (an int compares faster)."""
        power, suit = self.sort_key(card)
        return power * 16 + suit

    # --- names -------------------------------------------------------------
    @staticmethod
    def name(rank: int) -> str:
        return rank_name(rank)

    @staticmethod
    def names(ranks: Iterable[int], times: int = 1) -> str:
        """``ranks`` spaced, each written ``times`` times: names([3, 4], 2) = "3 3 4 4"."""
        return " ".join([rank_name(r) for r in ranks for _ in range(times)])

    # --- runs ----------------------------------------------------------------
    @staticmethod
    @cache  # the hints ask for the same few windows over and over; callers never change them
    def windows(length: int, low: bool = False) -> list[list[int]]:
        """Every run of ``length`` consecutive ranks 3 … A; with ``low`` also 2-3-… and A-2-3-…"""
        out = [list(range(start, start + length)) for start in range(3, ACE - length + 2)]
        if low:
            if length >= 2:
                out.append([2] + list(range(3, 2 + length)))
            if length >= 3:
                out.append([ACE, 2] + list(range(3, 1 + length)))
        return out

    @staticmethod
    def wrapping_windows(length: int) -> list[list[int]]:
        """The runs of ``length`` ranks that hold a 2, wrapping around (K A 2, A 2 3, 2 3 4, …)."""
        ring = [2] + list(RUN_RANKS)
        return [[ring[(i - pos) % len(ring)] for i in range(length)] for pos in range(length)]

    @staticmethod
    def run_top(ranks: Sequence[int], low: bool) -> int | None:
        """The top of consecutive distinct ``ranks`` (A high; with ``low`` A-2 may join 3 low), else None.

        A low run's top is its highest rank with A counted as 1.
        """
        rs = sorted(ranks)
        if rs[-1] > ACE:
            return None
        if 2 not in rs:
            return rs[-1] if rs[-1] - rs[0] + 1 == len(rs) else None
        if not low:
            return None
        pos = sorted(1 if r == ACE else r for r in rs)
        if pos[-1] - pos[0] + 1 == len(pos) and 3 in pos:
            return pos[-1]
        return None

    @staticmethod
    def run_text(ranks: Iterable[int], top: int, times: int = 1) -> str:
        """The ranks of a run with this top, lowest first (A first in a low run), each written ``times``
        times: run_text([9, 8], 9, 2) = "8 8 9 9"."""
        distinct = set(ranks)
        if ACE in distinct and top < len(distinct) + 2:  # a low run: A counts as 1
            distinct.discard(ACE)
            ordered = [ACE, *sorted(distinct)]
        else:
            ordered = sorted(distinct)
        return RankOrder.names(ordered, times)


class _Keys(dict):
    """card → its sort key, each worked out the first time it is asked for."""

    def __init__(self, make: Callable[[Card], tuple]):
        super().__init__()
        self.make = make

    def __missing__(self, card: Card) -> tuple:
        key = self[card] = self.make(card)
        return key


#: 3 … K A 2 小王 大王 as 3 … 17: 跑得快 / 争上游 and 双扣.
STANDARD = RankOrder({**{r: r for r in RUN_RANKS}, 2: 15, LITTLE_JOKER: 16, BIG_JOKER: 17})
