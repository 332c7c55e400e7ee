"""The order of a trick game under one trump: levels, policies, the trump context.

A game describes its order as lists of :class:`Level` (high→low) for the trump
group and each plain suit (:class:`TrickSpec`). :class:`Context` reads that
once per trump suit and gives every card its :class:`CardOrder`: its suit group
(the trump group or one plain suit), its level inside the group (ties share a
level), whether the level chains into tractors, and its label — the way a card
of the shengji ``mechanics`` crate carries its trump.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from enum import StrEnum
from typing import Callable, Iterable, NamedTuple, Sequence, Union

from ..cards import SUITS, Card, Deck, Suit, format_cards
from ..i18n import Text, t
from ..rules import Option
from .inputs import parse_trump

TRUMP = "trump"  # the group key of the trump group; plain groups are Suit values
Group = Union[str, Suit]

POINT_VALUES = {5: 5, 10: 10, 13: 10}
TRUMP_BASE = 100  # any trump ranks above any plain card across groups (plain cards rank 2…14)


def card_points(card: Card) -> int:
    return 0 if card.is_joker else POINT_VALUES.get(card.rank, 0)


def points_of(cards: Iterable[Card]) -> int:
    return sum(card_points(c) for c in cards)


class ThrowRule(StrEnum):
    """Which throws (甩牌) a game allows."""

    ANY_GROUP = "any_group"    # 红五: from any group, if no other hand can beat a unit
    TRUMP_ONLY = "trump_only"  # 二七王: trumps only, and only while nobody else holds trump

    @classmethod
    def default(cls) -> "ThrowRule":
        return cls.ANY_GROUP


class FailedThrow(StrEnum):
    """Which unit a failed throw must play instead (the ``failed_throw`` house rule of 红五)."""

    BEATEN = "beaten"              # the beaten unit with the lowest top card, then the fewest cards
    SINGLE_FIRST = "single_first"  # 同城游: the lowest single, else the lowest pair (triple), else tractor

    @classmethod
    def default(cls) -> "FailedThrow":
        return cls.BEATEN


class ThrowCompare(StrEnum):
    """How plays matching a thrown lead's shape compare (the ``throw_compare`` house rule)."""

    HIGHEST_CARD = "highest_card"  # by their highest card (the common rules' default)
    LONGEST_UNIT = "longest_unit"  # by their longest unit (house rule)

    @classmethod
    def default(cls) -> "ThrowCompare":
        return cls.HIGHEST_CARD


#: the house rule shared by both trick games: how plays matching a thrown lead compare
THROW_COMPARE = Option(
    "throw_compare", ThrowCompare.default().value, tuple(c.value for c in ThrowCompare),
    t("甩牌怎样比大小", "Comparing throws"),
    t("「按最大的一张比」：跟上甩牌牌型的出牌按其中最大的一张比（通用规则的默认）；「按最长的一手比」：按最长的一手比（地方玩法）",
      "“by the highest card”: plays matching a throw's shape compare by their highest card (the common rules' "
      "default); “by the longest unit”: by their longest unit (house rule)"),
    value_labels={ThrowCompare.HIGHEST_CARD.value: t("按最大的一张比", "by the highest card"),
                  ThrowCompare.LONGEST_UNIT.value: t("按最长的一手比", "by the longest unit")})


@dataclass(frozen=True)
class Level:
    """One level of a group's order: the cards that tie, and whether it chains."""

    label: Text
    cards: tuple[Card, ...]
    chain: bool = True


@dataclass(frozen=True)
class TrickSpec:
    """What a trick game tells the core (built per resolved rules)."""

    slug: str
    deck: Deck
    #: ``levels(trump) -> (trump levels high→low, {suit: plain levels high→low})``
    levels: Callable[[Suit], tuple[list[Level], dict[Suit, list[Level]]]]
    throw: ThrowRule = ThrowRule.default()
    follow_shape: bool = True
    throw_compare: ThrowCompare = ThrowCompare.default()
    failed_throw: FailedThrow = FailedThrow.default()
    deal: int | None = None  # the cards each player is dealt: the most a hand can hold (None: no limit)

    def __post_init__(self):
        # a resolved rules value is a plain string: read it into its policy (ValueError if unknown)
        object.__setattr__(self, "throw", ThrowRule(self.throw))
        object.__setattr__(self, "throw_compare", ThrowCompare(self.throw_compare))
        object.__setattr__(self, "failed_throw", FailedThrow(self.failed_throw))


class CardOrder(NamedTuple):
    """What one card is under one trump."""

    group: Group
    strength: int        # level inside the group: higher is stronger, tied cards share it
    chain: int | None    # the level for tractor adjacency; None when the level does not chain
    label: Text
    across: int          # order across groups: any trump above any plain card, plain cards by rank
    key: tuple           # canonical sort key (ascending = shown first)


class Context:
    """One game's order for one trump suit: every card's :class:`CardOrder`."""

    def __init__(self, spec: TrickSpec, trump: Suit):
        self.spec = spec
        self.trump = trump
        self.deck = spec.deck
        self.max_width = max(1, spec.deck.copies)
        self.groups, self._group_rank, self._cards, self._level_cards = _order_tables(spec, trump)
        self.cache: dict = {}  # memos of the modules reading this context (lead units, follow obligations)

    # -- per card ------------------------------------------------------------

    def of(self, card: Card) -> CardOrder:
        return self._cards[card]

    def group(self, card: Card) -> Group:
        return self._cards[card].group

    def is_trump(self, card: Card) -> bool:
        return self._cards[card].group == TRUMP

    def strength(self, card: Card) -> int:
        """Level inside the card's group (higher is stronger; ties share it)."""
        return self._cards[card].strength

    def chain(self, card: Card) -> int | None:
        return self._cards[card].chain

    def gstrength(self, card: Card) -> int:
        """Order across groups: any trump above any plain card; plain cards by rank."""
        return self._cards[card].across

    def key(self, card: Card) -> tuple:
        """Canonical sort key (ascending = shown first): trump high→low, then ♠♥♣♦."""
        return self._cards[card].key

    def level_label(self, card: Card) -> Text:
        return self._cards[card].label

    def successors(self, card: Card) -> tuple[Card, ...]:
        """The cards of the next lower level that a pair of ``card`` chains into (adjacency after
        removed cards); empty when the level does not chain (红五 above the trump A) or is the lowest."""
        order = self._cards[card]
        if order.chain is None:
            return ()
        below = self._level_cards.get((order.group, order.chain - 1), ())
        return below if below and self._cards[below[0]].chain is not None else ()

    # -- per play ------------------------------------------------------------

    def group_rank(self, g: Group) -> int:
        """Where a group comes in the canonical order (trump first, then ♠♥♣♦)."""
        return self._group_rank[g]

    def groups_of(self, cards: Iterable[Card]) -> list[Group]:
        return sorted({self.group(c) for c in cards}, key=self.group_rank)

    def fmt(self, cards: Iterable[Card]) -> str:
        return format_cards(cards, self.key)

    def group_name(self, g: Group) -> Text:
        """The suit group in messages; texts say "{g}牌" (so trump is 主 + 牌 = 主牌)."""
        if g == TRUMP:
            return t("主", "trump")
        return Text(g.symbol, g.symbol)

    def play_key(self, cards: Sequence[Card]) -> tuple:
        """Smallness of a play (common rules): highest card lowest, fewer point cards, fewer cards."""
        orders = [self._cards[c] for c in cards]
        gs = sorted((o.across for o in orders), reverse=True)
        return (gs[0] if gs else -1, sum(1 for c in cards if card_points(c)), len(cards), tuple(gs),
                tuple(sorted(o.key for o in orders)))


@lru_cache(maxsize=64)
def _order_tables(spec: TrickSpec, trump: Suit) -> tuple[dict[Group, list[Level]], dict[Group, int],
                                                         dict[Card, CardOrder], dict[tuple[Group, int], tuple]]:
    """The groups, their ranks, every card's :class:`CardOrder` and the cards of each (group, strength),
    read from a game's levels under one trump once (every request's context shares them; none changes
    them)."""
    trump_levels, plain = spec.levels(trump)
    groups: dict[Group, list[Level]] = {TRUMP: list(trump_levels)}
    groups.update((s, list(plain[s])) for s in SUITS if s in plain)
    group_rank = {g: i for i, g in enumerate(groups)}
    cards: dict[Card, CardOrder] = {}
    level_cards: dict[tuple[Group, int], tuple[Card, ...]] = {}
    for g, levels in groups.items():
        for i, lv in enumerate(levels):
            strength = len(levels) - i
            level_cards[(g, strength)] = lv.cards
            for c in lv.cards:
                if c in cards:
                    raise AssertionError(f"{c} in two levels")
                across = TRUMP_BASE + strength if g == TRUMP else c.rank
                key = (group_rank[g], -strength, c._suit_index)
                cards[c] = CardOrder(g, strength, strength if lv.chain else None, lv.label, across, key)
    missing = [c for c in spec.deck.distinct_cards() if c not in cards]
    if missing:
        raise AssertionError(f"{missing[0]} has no level")
    return groups, group_rank, cards, level_cards


def order_rows(ctx: Context) -> list[tuple[Text, list[Card]]]:
    """The full order high→low for the rules page: trump levels one by one, then each plain suit."""
    rows: list[tuple[Text, list[Card]]] = []
    for lv in ctx.groups[TRUMP]:
        if rows and rows[-1][0] == lv.label:
            rows[-1][1].extend(sorted(lv.cards, key=ctx.key))
        else:
            rows.append((lv.label, sorted(lv.cards, key=ctx.key)))
    for s in SUITS:
        if s in ctx.groups:
            cards = [c for lv in ctx.groups[s] for c in lv.cards]
            rows.append((t("{s}（副牌）", "{s} (plain suit)", s=s.symbol), cards))
    return rows


class GameOrder:
    """A trick game's trump context, order rows and sort key, from its rules and spec.

    Each game module does ``_order = GameOrder(RULESET, spec_for)`` and exposes
    ``context = _order.context``, ``order_for = _order.order_for``, ``sort_key = _order.sort_key``.
    """

    def __init__(self, ruleset, spec_for: Callable[[object], TrickSpec]):
        self.ruleset = ruleset
        self.spec_for = spec_for

    def context(self, trump, rules=None) -> Context:
        rules = self.ruleset.resolve(rules)  # a Rules object, a rules dict or None
        if not isinstance(trump, Suit):
            trump = parse_trump(trump)
        return Context(self.spec_for(rules), trump)

    def order_for(self, trump, rules=None) -> list[tuple[Text, list[Card]]]:
        """The full order high→low for a trump suit (rules page)."""
        return order_rows(self.context(trump, rules))

    def sort_key(self, trump, rules=None):
        """Canonical sort key for cards under this trump (highest first)."""
        return self.context(trump, rules).key
