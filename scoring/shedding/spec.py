"""The base of a game's spec: its rules for the shedding core, bound to one resolved ``Rules``."""
from __future__ import annotations

from collections import Counter
from typing import Callable, Hashable, Iterable, Mapping, Sequence, TypeVar

from ..cards import Card, Deck, format_cards
from ..i18n import Text, t
from ..rules import Rules
from .order import STANDARD, RankOrder
from .pattern import HandGroups, Pattern
from .reading import Reading, distinct_readings

S = TypeVar("S", bound="SheddingSpec")
CACHE_SIZE = 256  # distinct rule sets kept per game (a request may send any combination of options)


class SheddingSpec:
    """One game's rules for the core, built once per resolved rules (see :func:`spec_cache`).

    A game lists its :attr:`pattern_types` (in generation order: the hint keeps the
    first of two plays that are the same, and breaks ties of the smallest-play order
    by this order) and may override the hooks below.
    """

    slug = ""
    bare = False  # accept bare ranks (suit unknown)
    rank_order: RankOrder = STANDARD
    pattern_types: tuple[type[Pattern], ...] = ()
    #: the turn inputs of a check or hint this game reads (``next_cards_left``, ``first_play``; see ``turn.py``)
    turn_inputs: tuple[str, ...] = ()
    #: kind → its name, for the labels of the stock patterns (:mod:`.stock`)
    kind_names: Mapping[str, Text] = {}
    #: may a stock run start low with 2 or A-2 (A2345, 2233; :mod:`.runs`)?
    low_runs = False
    #: does :meth:`sorted_readings` put every reading that ranks as a bomb (a bomb, or of a kind that beats any
    #: plain play) before every other? Then the bomb patterns' readings of a play tell its largest reading when
    #: it has a bomb one (the hint reads only those to rank a plain play that may also be a bomb)
    bombs_read_first = False

    def __init__(self, rules):
        self.rules = rules
        #: rank → power when ``order`` is the rank order's (the hint then looks powers up without a call)
        self.power_table = self.rank_order.table if type(self).order is SheddingSpec.order else None
        self.has_points = type(self).points is not SheddingSpec.points
        self.patterns = tuple(kind(self) for kind in self.pattern_types)
        self._pattern_of = {k: p for p in self.patterns for k in p.kinds}
        #: a play is told apart by its powers high to low (the default identity in an order of one power a rank)
        self.identity_by_powers = (type(self).identity is SheddingSpec.identity and self.power_table is not None
                                   and not self.has_points and self.rank_order.one_power_a_rank)
        #: every pattern builds its leads from the rank counts, in the rank order's powers, without point cards
        self.builds_leads = (self.power_table is not None and not self.has_points
                             and all(type(p).leads is not Pattern.leads for p in self.patterns))
        self._last_hand: tuple = (None, None)
        self._readers: dict[int, tuple[Pattern, ...]] = {}

    # --- the pack and the order ------------------------------------------------
    def deck(self) -> Deck:
        raise NotImplementedError

    def order(self, card: Card) -> int:
        """Single-card strength, higher = stronger."""
        return self.rank_order.card_power(card)

    def sort_key(self) -> Callable[[Card], tuple]:
        return self.rank_order.sort_key

    def points(self, card: Card) -> int:
        """Point cards count in the smallest-play order (0: no point cards)."""
        return 0

    def suits_needed(self, cards: Sequence[Card], payload: Mapping) -> Text | None:
        """Why some bare ranks among ``cards`` need their suits in this request (with an example); None: they do not."""
        return None

    def identity(self, cards: Sequence[Card]) -> Hashable:
        """When two plays are "the same play": by default the multiset of ranks (suits never count)."""
        return tuple(sorted(c.rank for c in cards))

    def max_hand(self) -> int | None:
        """The most cards a hand can hold (the deal), or None for no limit."""
        return None

    # --- patterns ------------------------------------------------------------------
    def readings(self, cards: Sequence[Card], among: Sequence[Pattern] | None = None) -> list[Reading]:
        """Every reading of ``cards`` (by the patterns ``among`` only, when given), largest first; [] = no pattern."""
        cards = tuple(cards)
        counts = Counter([c.rank for c in cards])
        return self.sorted_readings([r for p in self.readers(len(cards), among) for r in p.read(cards, counts)])

    def readers(self, n: int, among: Sequence[Pattern] | None = None) -> tuple[Pattern, ...]:
        """The patterns that can read ``n`` cards, in their order (those ``among`` some only, when given)."""
        found = self._readers.get(n)
        if found is None:
            found = self._readers[n] = tuple(p for p in self.patterns if p.reads_size(n))
        return found if among is None else tuple(p for p in found if p in among)

    def sorted_readings(self, readings: list[Reading]) -> list[Reading]:
        return distinct_readings(readings)

    def pattern(self, kind: str) -> Pattern:
        return self._pattern_of[kind]

    def beats(self, play: Reading, table: Reading) -> bool:
        """Does reading ``play`` beat reading ``table``? Its pattern decides."""
        return self._pattern_of[play.kind].beats(play, table)

    def why_not(self, play: Reading, table: Reading) -> Text | None:
        """Why ``play`` does not beat ``table`` when the core's general words are not enough."""
        return None

    def restricts(self, turn) -> bool:
        """Do these rules forbid some plays in this turn (see :meth:`forbids`)? Default: never."""
        return False

    def forbids(self, play: Reading, turn) -> Text | None:
        """Why the house rules forbid ``play`` (a legal reading) in ``turn``, or None when they allow it."""
        return None

    def forbids_cards(self, cards: Sequence[Card], turn) -> bool | None:
        """Whether the turn forbids every reading of ``cards`` (True), none (False), or it depends on the
        reading (None: the hint reads the cards and asks :meth:`forbids`). Default: it depends."""
        return None

    def no_pattern(self, cards: Sequence[Card]) -> Text:
        return t("「{c}」不成任何牌型", "“{c}” is not a pattern of this game",
                 c=format_cards(cards, self.sort_key()))

    # --- the hint ---------------------------------------------------------------------
    def sizes(self, hand: Sequence[Card], table: Reading | None) -> Iterable[int]:
        """The play sizes worth generating."""
        return range(1, len(hand) + 1)

    def grouped(self, hand: Sequence[Card]) -> HandGroups:
        """``hand`` by rank; kept for the last hand, as the core asks for every size of one hand."""
        last, groups = self._last_hand
        if last is not hand or type(hand) is not tuple:  # a tuple cannot change behind our back
            groups = self.group(hand)
            self._last_hand = (hand, groups)
        return groups

    def group(self, hand: Sequence[Card]) -> HandGroups:
        """``hand`` grouped for the generators (a :class:`~.wild.WildHand` where jokers are wild)."""
        return HandGroups(hand, self.rank_order)

    def release(self) -> None:
        """Forget what was kept for the last hand (the search calls this when it is done with a hand)."""
        self._last_hand = (None, None)

    def candidates(self, hand: Sequence[Card], table: Reading | None, size: int,
                   need: int | None = None) -> Iterable:
        """Plays of ``size`` cards from ``hand`` (see ``legal_plays``): every pattern the table allows."""
        groups = self.grouped(hand).ask(table, size, need)
        for pattern in self.patterns:
            if pattern.answers(table, size):
                yield from pattern.candidates(groups, table, size, need)


def rules_key(rules) -> Hashable:
    return rules.key if isinstance(rules, Rules) else tuple(sorted(rules.items()))


def spec_cache(build: Callable[[object], S]) -> Callable[[object], S]:
    """``spec_for(rules)``: the spec ``build(rules)`` makes, built once per distinct rules."""
    cache: dict = {}

    def spec_for(rules) -> S:
        key = rules_key(rules)
        spec = cache.get(key)
        if spec is None:
            if len(cache) >= CACHE_SIZE:
                cache.clear()
            spec = cache[key] = build(rules)
        return spec

    return spec_for
