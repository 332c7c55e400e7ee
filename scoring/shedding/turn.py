"""What a check or hint knows of the turn beyond the cards: the whole hand, the next player's cards, the first play.

House rules that depend on the turn (跑得快's 报单必出最大, 首出必带黑桃3, 牌够只能三带二)
ask a spec's :meth:`~scoring.shedding.spec.SheddingSpec.forbids` about a reading
in a :class:`Turn`. A spec lists the turn inputs it reads (``turn_inputs``);
a game that lists none reads none of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from ..cards import Card
from ..errors import InvalidInput
from ..i18n import t
from ..payload import get_bool, get_int

if TYPE_CHECKING:  # the spec imports nothing from here; the name is for annotations only
    from .spec import SheddingSpec


@dataclass(frozen=True)
class Turn:
    """The player's whole hand (None: not given), the cards the next player holds, whether this is the first play."""

    hand: tuple[Card, ...] | None = None
    next_cards_left: int | None = None
    first_play: bool = False


def read_turn(payload: Mapping, spec: "SheddingSpec", hand: Sequence[Card] | None, leading: bool) -> Turn:
    """The turn inputs ``spec`` reads (``next_cards_left``: 1 … the deal; ``first_play`` only on a lead)."""
    names = spec.turn_inputs
    after = None
    if "next_cards_left" in names and payload.get("next_cards_left") is not None:
        after = get_int(payload, "next_cards_left", 1, spec.max_hand())
    first = "first_play" in names and get_bool(payload, "first_play")
    if first and not leading:
        raise InvalidInput(t("「first_play」是一局的第一手，那时桌上没有牌：请清空「previous」",
                             "“first_play” is the first play of a hand, when the table is empty: clear “previous”"),
                           field="first_play", code="first_play_follows")
    return Turn(tuple(hand) if hand is not None else None, after, first)
