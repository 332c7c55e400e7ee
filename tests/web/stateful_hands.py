"""What schemathesis' stateful phase needs and the OpenAPI document cannot say: which game a table plays.

The document gives one hand body for every table (any game's settle input, ``anyOf``), so a hand drawn from it
seldom fits the game of the table a link names, and the ledger answers 422: the walk never records a hand, and
the links from a hand written (edit it, delete it, …) are never followed. :class:`Tables` learns each table the
run makes from the answers (the game, seats and rules its creation sent) and, before a hand is recorded on one of
them, gives most drawn hands that do not fit one that does: one of the game's own worked examples for that many
seats, checked by the engine under the table's rules.

Drawing a hand from the document is also slow for the walk: its card-text and number patterns are met by
filtering, and two draws in three of a hand body give up, which ends the whole scenario, so the walk seldom
takes a step that records or edits a hand. :func:`walk_bodies` draws those bodies in the walk from the games'
worked examples instead (valid by the document; the unit phases and the other OpenAPI tests draw them from it).

Used by ``tests/web/test_openapi_stateful.py`` in process and by ``.ci/schemathesis_hooks.py`` for the CLI
against a running server.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from scoring.errors import PaijuError
from scoring.registry import all_games, get_game

CREATE = ("POST", "/api/v1/tables")
NEXT_EVENING = ("POST", "/api/v1/tables/{table_id}/next-evening")
RECORD = ("POST", "/api/v1/tables/{table_id}/hands")
EDIT = ("PUT", "/api/v1/tables/{table_id}/hands/{number}")
RULES = ("PUT", "/api/v1/tables/{table_id}/rules")
#: of the drawn hands that do not fit their table, one in KEEP_EVERY is sent as drawn (the ledger's 422 to a hand
#: of another game stays in the walk); the others are replaced by one that fits. Which, and by which, depends on
#: the drawn hand alone: the same draw sends the same request (Hypothesis replays draws and wants the same steps)
KEEP_EVERY = 4


@dataclass(frozen=True)
class Table:
    game: str
    seats: int
    rules: Any


def operation(case) -> tuple[str, str]:
    return case.method.upper(), case.path


def reads(table: Table, hand: Any) -> bool:
    """Whether the table's game settles this hand under the table's rules (as the ledger would read it)."""
    game = get_game(table.game)
    if not isinstance(hand, dict) or "rules" in hand or game.seats_given(hand) not in (None, table.seats):
        return False
    try:
        game.run("settle", {**hand, **game.table_input(table.seats), "rules": table.rules})
    except (PaijuError, TypeError, ValueError):
        return False
    return True


def worked_hands(game) -> list[dict]:
    """A game's worked settle examples, without their own rules (a hand on a table takes the table's)."""
    return [{k: v for k, v in payload.items() if k != "rules"}
            for action, _, payload in game.examples if action == "settle"]


def fitting_hands(table: Table) -> list[dict]:
    """The game's worked hands that this table's game reads."""
    return [hand for hand in worked_hands(get_game(table.game)) if reads(table, hand)]


def walk_bodies(label: tuple[str, str], strategy):
    """The bodies the walk sends to record or edit a hand: any game's worked hand (an edit's at any version);
    every other operation's body as the document draws it (``strategy``)."""
    hands = st.sampled_from([hand for game in all_games() for hand in worked_hands(game)])
    if label == RECORD:
        return hands
    if label == EDIT:
        return st.fixed_dictionaries({"version": st.integers(1, 40), "input": hands})
    return strategy


@dataclass
class Tables:
    """The tables a run made, learnt from its answers, and hands that fit them."""

    made: dict[str, Table] = field(default_factory=dict)

    def learn(self, case, response) -> None:
        """Remember the table a creation or a next evening answered (201, or 200: the next evening already), and
        the rules a change of them answered."""
        if response.status_code == 200 and operation(case) == RULES:
            self.new_rules(case.path_parameters.get("table_id"), response.json()["rules"])
        if response.status_code not in (200, 201) or operation(case) not in (CREATE, NEXT_EVENING):
            return
        body = case.body if isinstance(case.body, dict) else {}
        if operation(case) == CREATE:
            table = Table(body.get("game"), len(body.get("players") or ()), body.get("rules"))
        else:
            before = self.made.get(case.path_parameters.get("table_id"))
            if before is None:
                return
            players = body.get("players")
            table = Table(before.game, len(players) if players else before.seats, before.rules)
        if get_game(table.game) is not None:
            self.made[response.json()["id"]] = table

    def new_rules(self, table_id: str, rules: dict) -> None:
        """The table's hands from now on are read under ``rules`` (its ``PUT …/rules`` answered them)."""
        before = self.made.get(table_id)
        if before is not None:
            self.made[table_id] = Table(before.game, before.seats, rules)

    def fit(self, case) -> None:
        """Before a positive hand record on a table of the run: a hand its game reads, unless the drawn one does
        or it is one of the misfits sent as drawn)."""
        table = self.made.get((case.path_parameters or {}).get("table_id"))
        if operation(case) != RECORD or table is None or not positive(case) or reads(table, case.body):
            return
        drawn = zlib.crc32(json.dumps(case.body, sort_keys=True, default=repr).encode())
        hands = fitting_hands(table)
        if hands and drawn % KEEP_EVERY:
            case.body = hands[drawn % len(hands)]


def positive(case) -> bool:
    """Whether schemathesis drew this case as valid by the document (a negative one must stay invalid)."""
    meta = getattr(case, "meta", None)
    return meta is None or not meta.generation.mode.is_negative
