"""The ledger pages' forms: opening a table, the buttons, a hand's settle form and its JSON form."""
from __future__ import annotations

import json
from typing import Any

from flask import request
from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField, TextAreaField
from wtforms.validators import Optional as OptionalV

from scoring.errors import MalformedInput, PaijuError
from scoring.i18n import t
from scoring.registry import get_game

from .. import schema_forms
from ..errors import error_messages
from ..offline_page import at_table
from .cleaning import MAX_SEATS
from .models import LedgerHand, LedgerTable
from .records import next_hand
from .table_rules import own_rules, resolved


class CreateTableForm(FlaskForm):
    game = HiddenField()
    name_0 = StringField(validators=[OptionalV()])
    name_1 = StringField(validators=[OptionalV()])
    name_2 = StringField(validators=[OptionalV()])
    name_3 = StringField(validators=[OptionalV()])
    name_4 = StringField(validators=[OptionalV()])
    name_5 = StringField(validators=[OptionalV()])

    def names(self) -> list[tuple[int, str]]:
        out = []
        for i in range(MAX_SEATS):
            value = (self[f"name_{i}"].data or "").strip()
            if value:
                out.append((i, value))
        return out


class VersionForm(FlaskForm):
    """Undo / delete: CSRF plus the version the phone saw."""
    version = HiddenField()


class RawInputForm(FlaskForm):
    """The hand's settle input as JSON: for inputs the game's form cannot show."""
    version = HiddenField()
    raw = TextAreaField(validators=[OptionalV()])


def csrf_message() -> str:
    return gettext("表单已失效，请刷新页面后再提交。")


def settle_form(table: LedgerTable, formdata=None, data=None, add_row=None, seats: list[int] | None = None,
                hand: LedgerHand | None = None):
    """The settle form for the next hand (or for a ``hand`` recorded: played by its ``seats``, under its own
    rules)."""
    game = get_game(table.game)
    kwargs = {"data": data} if data is not None else {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    seats = seats if seats is not None else table.seating()
    rules = own_rules(table, hand.rules if hand is not None else None)
    form = schema_forms.settle_form(game, resolved(game.ruleset, rules), len(seats), add_row, **kwargs)
    form.seat_names = table.names_of(seats)  # what its messages call each seat
    return form


def prefill(table: LedgerTable, stored: dict | None = None, seats: list[int] | None = None) -> dict:
    """The form's data: a stored input (or the carried state, for a new hand) with the players' names."""
    game = get_game(table.game)
    payload = stored if stored is not None else next_input(table)
    return schema_forms.form_data(game, payload, table.names_of(seats if seats is not None else table.seating()))


def next_input(table: LedgerTable) -> dict:
    """What the next hand's form starts from, in one query (:func:`.records.next_hand`): what its game's
    ``kept_fields`` keep from the last hand's input (Q783's teams), and what it carries."""
    nxt = next_hand(table)
    given = nxt.last_input or {}
    kept = {key: given[key] for key in get_game(table.game).kept_fields if key in given}
    return {**kept, **(nxt.carried or {})}


def next_hand_form(table: LedgerTable):
    """The settle form for the next hand, filled with what it carries."""
    return settle_form(table, data=prefill(table))


def engine_error(form, exc: PaijuError) -> list[str]:
    """The messages for the top of the form: a pointer to the marked fields, and what no field took."""
    left = error_messages(form, exc)
    if len(left) < len(getattr(exc, "errors", (exc,))):
        left.insert(0, gettext("没有保存：请看下面标出的错误"))
    return left


def table_says(table: LedgerTable, data: dict) -> dict:
    """A form's input without the field the table itself fills in (``Game.table_input``: the form's
    hidden default would not follow a seat joining or leaving)."""
    return at_table(get_game(table.game), data, None)


def pretty(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


class EditAttempt:
    """A posted edit of a hand: the settle form and the JSON form as typed, and the typed input."""

    def __init__(self, table: LedgerTable, hand: LedgerHand):
        self.json = request.form.get("mode") == "json"
        self.table = table
        seats = hand.seating()
        prefilled = prefill(table, hand.input, seats)
        self.raw_form = RawInputForm() if self.json else RawInputForm(data={"raw": pretty(hand.input)})
        self.form = (settle_form(table, formdata=None, data=prefilled, seats=seats, hand=hand) if self.json
                     else settle_form(table, seats=seats, hand=hand))
        self.version = request.form.get("version") or str(table.version)
        self.errors: list[str] = []
        self.status = 200
        valid = (self.raw_form if self.json else self.form).validate()
        if not valid:
            self.errors, self.status = [csrf_message()], 400

    def typed(self) -> Any:
        """The typed input (the JSON form's text read, or the settle form's payload)."""
        if not self.json:
            return table_says(self.table, self.form.to_payload())
        try:
            return json.loads(self.raw_form.raw.data or "")
        except (ValueError, RecursionError):
            raise MalformedInput(t("这不是有效的 JSON", "this is not valid JSON"), field="input",
                                 code="malformed_json")

    def body(self) -> dict:
        return {"version": self.version, "input": self.typed()}
