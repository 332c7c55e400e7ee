"""What the ledger's writes return, as values (issue 39 item 5): a hand as it was written, and a write's outcome
(the hand, the table's totals and version, what its next hand carries, the hands settled again). The API and the
pages render these; a record is built inside the write's transaction (so it is consistent) and holds no database
object, so it can be rendered in any language after the transaction, as often as needed.

:class:`NextHand` is what a table's next hand needs to know (the number it takes, what it carries, the last
hand's input), read in one query.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.i18n import render_json
from scoring.registry import get_game

from .db import db
from .models import LedgerHand, LedgerTable
from .queries import last_hand
from .settling import carried_input
from .shown import seat_count, seat_names, with_steps
from .table_rules import own_rules


def hand_fields(number: int, data: Any, deltas: list[int], rules: dict, seats, shown: dict) -> dict:
    """A hand as the API gives it (docs/api.md), from its parts; ``shown``: its result in the reader's language."""
    shown = dict(shown)
    out = {"number": number, "input": data, "deltas": deltas, "steps": list(shown.pop("steps", [])), "rules": rules}
    if seats is not None:
        out["seats"] = list(seats)
    out.update(shown)
    return out


@dataclass(frozen=True)
class HandRecord:
    """A hand as a write left it: its number, input, deltas per player of the table, the house rules it was settled
    with, its seats (None: the table's first seating) and its stored result (rendered per language by
    :meth:`to_json`), with the names of the players in its seats."""
    number: int
    input: Any
    deltas: tuple[int, ...]
    rules: Mapping
    seats: tuple[int, ...] | None
    result: Mapping
    names: tuple[str, ...] | None

    @classmethod
    def of(cls, hand: LedgerHand, table: LedgerTable) -> HandRecord:
        """Within the write: the hand as it stands now."""
        players = table.players
        deltas = list(hand.deltas) + [0] * (len(players) - len(hand.deltas))
        result = with_steps(table.id, hand.result, hand.input, seat_count(hand.seats, hand.deltas), hand.rules)
        return cls(hand.number, hand.input, tuple(deltas), own_rules(table, hand.rules),
                   tuple(hand.seats) if hand.seats is not None else None, result,
                   seat_names(players, hand.seating()))

    def to_json(self, lang: str) -> dict:
        return hand_fields(self.number, self.input, list(self.deltas), dict(self.rules), self.seats,
                           render_json(self.result, lang, self.names))


@dataclass(frozen=True)
class Written:
    """A write's outcome: the hand it wrote (None: a deletion), the table's totals and version after it, every
    carried field of the game with what the next hand takes (None: nothing), and ``resettled``: the later hands an
    edit or a delete settled again (None: a new hand)."""
    totals: tuple[int, ...]
    version: int
    carried: Mapping[str, Any]
    hand: HandRecord | None = None
    resettled: tuple[int, ...] | None = None

    @property
    def number(self) -> int | None:
        """The number of the hand written."""
        return self.hand.number if self.hand is not None else None

    def to_json(self, lang: str) -> dict:
        """The API's answer to the write (docs/api.md)."""
        out = {"totals": list(self.totals), "version": self.version}
        if self.hand is not None:
            out = {"hand": self.hand.to_json(lang), **out}
        out.update(self.carried)
        if self.resettled is not None:
            out["resettled"] = list(self.resettled)
        return out


def written(table: LedgerTable, hand: LedgerHand | None, last: LedgerHand | None,
            resettled: list[int] | None = None) -> Written:
    """Within the write: its outcome (``last``: the table's last hand, what the next hand carries from)."""
    db.session.flush()  # the table's version as committed
    game = get_game(table.game)
    carried = carried_input(game, last, table.seating()) or {}
    return Written(tuple(table.kept_totals), table.version, {key: carried.get(key) for key in game.carried_fields},
                   HandRecord.of(hand, table) if hand is not None else None,
                   tuple(resettled) if resettled is not None else None)


@dataclass(frozen=True)
class Kept:
    """The answer kept for an idempotency key: the first answer again, as it was given (docs/api.md: in the
    language of the first request)."""
    answer: Mapping

    @property
    def number(self) -> int | None:
        hand = self.answer.get("hand")
        number = hand.get("number") if isinstance(hand, Mapping) else None
        return number if isinstance(number, int) and not isinstance(number, bool) else None

    def to_json(self, lang: str) -> dict:
        return dict(self.answer)


@dataclass(frozen=True)
class NextHand:
    """What a table's next hand needs: the number of the table's last hand (``base``: 0 for none), what the next
    hand carries from it (None: a fresh start) and its input (None: no hand yet)."""
    base: int
    carried: Mapping[str, Any] | None
    last_input: Mapping | None

    @property
    def number(self) -> int:
        return self.base + 1


def next_hand(table: LedgerTable, last: LedgerHand | None = None, read: bool = True) -> NextHand:
    """The table's next hand, read in one query (its last hand); or from ``last`` when it is read already
    (``read`` False)."""
    last = last_hand(table.id) if read else last
    carried = carried_input(get_game(table.game), last, table.seating())
    data = last.input if last is not None and isinstance(last.input, Mapping) else None
    return NextHand(last.number if last is not None else 0, carried, data)
