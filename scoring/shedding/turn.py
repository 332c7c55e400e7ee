"""What a check or hint knows of the turn beyond the cards: the whole hand, the next player's cards, the first play.

House rules that depend on the turn (跑得快's 报单必出最大, 首出必带黑桃3, 牌够只能三带二)
ask a spec's :meth:`~scoring.shedding.spec.SheddingSpec.forbids` about a reading
in a :class:`Turn`. The turn inputs are declared once here (:data:`TURN_FIELDS`,
read strictly like every declared input and drawn by the check and hint
forms); a spec lists those it reads (``turn_inputs``), a game that lists none
reads none of them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Sequence

from ..cards import Card
from ..errors import InvalidInput
from ..i18n import t
from ..inputs import Context, IntField, Schema, SwitchField

if TYPE_CHECKING:  # the spec imports nothing from here; the name is for annotations only
    from .spec import SheddingSpec

#: every turn input a shedding game may read, with the house rule it is for in its label
TURN_FIELDS = {
    "next_cards_left": IntField("next_cards_left", t("下家剩几张", "cards the next player holds"), required=False,
                                lo=1, help=t("报单必出最大时填", "for “next on one card: a single must be your largest”")),
    "first_play": SwitchField("first_play", t("这一局的第一手", "the first play of the hand"),
                              help=t("首出必带黑桃3时勾选", "for “the first play must hold ♠3”")),
}


@dataclass(frozen=True)
class Turn:
    """The player's whole hand (None: not given), the cards the next player holds, whether this is the first play."""

    hand: tuple[Card, ...] | None = None
    next_cards_left: int | None = None
    first_play: bool = False


def turn_schema(spec: "SheddingSpec") -> Schema:
    """The turn inputs ``spec`` reads; the next player holds at most a deal."""
    return _turn_schema(tuple(spec.turn_inputs), spec.max_hand())


@lru_cache(maxsize=64)
def _turn_schema(names: tuple[str, ...], most: int | None) -> Schema:
    fields = (TURN_FIELDS[name] for name in names)
    at_most = lambda ctx: most  # noqa: E731 - a bound of these rules: the API's description leaves it out
    return Schema(tuple(replace(f, hi=at_most) if isinstance(f, IntField) else f for f in fields))


def read_turn(payload: Mapping, spec: "SheddingSpec", hand: Sequence[Card] | None, leading: bool) -> Turn:
    """The turn of a check or hint (``first_play`` only on a lead)."""
    if all(payload.get(name) is None for name in spec.turn_inputs):  # none given: each its default, unread
        values = {name: TURN_FIELDS[name].default for name in spec.turn_inputs}
    else:
        values = turn_schema(spec).read(payload, Context(rules=spec.rules))
    first = bool(values.get("first_play"))
    if first and not leading:
        raise InvalidInput(t("「{f}」：一局的第一手时桌上没有牌，请清空桌上的牌",
                             "“{f}”: at the first play of a hand the table is empty; clear the table's play",
                             f=TURN_FIELDS["first_play"].label), field="first_play", code="first_play_follows")
    return Turn(tuple(hand) if hand is not None else None, values.get("next_cards_left"), first)
