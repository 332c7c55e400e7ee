"""Settle forms built from a game's declared input (``scoring.inputs``).

One WTForms class per game, generated field by field from
``game.settle_input``: a row of repeated fields is a ``FieldList`` of
``FormField`` rows that grows as needed (one blank row is always offered; the
"add a row" button offers another). The same declaration maps the form to the
engine's payload (:meth:`SettleForm.to_payload`), a stored payload back to the
form (:func:`form_data`), and an engine error's path (``bombs[1].lines``) to
the field it is about (:meth:`SettleForm.attach`).

A posted form is read once, straight into the declared input (:class:`SettlePost`: the posted fields as the
phone reads them, the house rules given and resolved once a request); WTForms draws the form and checks its
CSRF token, it is not read again for the payload.

The page and the ledger share these forms.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import request
from flask_wtf import FlaskForm
from markupsafe import escape
from wtforms import BooleanField, FieldList, Form, FormField, StringField

from scoring import inputs
from scoring.errors import PaijuError
from scoring.games import Game
from scoring.i18n import Text, render, seat_number
from scoring.result_view import settle_label
from scoring.rules import Rules
from scoring.results import Settlement

from . import offline_page
from .i18n import current_lang

LIST_FIELDS = (inputs.PerSeatField, inputs.SeatOrderField)
_PATH = re.compile(r"^(?P<name>[a-z_0-9]+)(?:\[(?P<i>\d+)\])?(?:\.(?P<sub>[a-z_0-9]+))?$")
_CLASSES: dict[str, type] = {}


class LabelText:
    """A WTForms label that renders an engine Text in the reader's language."""

    def __init__(self, text: Text):
        self.text = text

    def __str__(self) -> str:
        return render(self.text, current_lang())

    def __html__(self) -> str:
        return str(escape(str(self)))


def _wtf_field(field: inputs.Field):
    label = LabelText(field.label)
    if isinstance(field, inputs.SwitchField):
        return BooleanField(label)
    if isinstance(field, LIST_FIELDS):
        return FieldList(StringField(label), label=label)
    if isinstance(field, inputs.RowsField):
        row = type(f"Row_{field.name}", (Form,), {f.name: _wtf_field(f) for f in field.fields})
        return FieldList(FormField(row, label=label), label=label)
    return StringField(label)


class SettleForm(FlaskForm):
    """A game's settle form; ``prepare(seats)`` sizes the per-seat parts and the rows."""

    game: Game

    def prepare(self, ctx: inputs.Context, add_row: str | None = None,
                posted: offline_page.Posted | None = None) -> SettleForm:
        self.ctx, self.posted = ctx, posted
        seats = self.seats = ctx.seats
        self.group_errors: dict[str, list[str]] = {}
        _size(self.names, seats)
        for field in self.fields:
            if isinstance(field, LIST_FIELDS):
                _size(self[field.name], seats)
            elif isinstance(field, inputs.RowsField):
                self._offer_blank_row(field, ctx, extra=field.name == add_row)
        return self

    def _offer_blank_row(self, field: inputs.RowsField, ctx: inputs.Context, extra: bool) -> None:
        rows = self[field.name]
        most = inputs.bound(field.max_rows, ctx)
        if not rows.entries or not _blank_row(rows.entries[-1]) or extra:
            if most is None or len(rows.entries) < most:
                rows.append_entry()

    def rows_of(self, name: str) -> list:
        return self[name].entries

    @property
    def fields(self) -> tuple[inputs.Field, ...]:
        """The fields this form shows: those the table's house rules ask for."""
        rules = self.ctx.rules
        return tuple(f for f in self.game.settle_input.fields if f.shown_under(rules))

    # -- how a phone lays the fields out ---------------------------------------------

    def brief_fields(self, field: inputs.RowsField) -> list[inputs.Field]:
        """A row's fields shown in its short line (those the rules ask for, less the tucked ones)."""
        tucked = field.tucked_fields()
        return [f for f in field.fields if f.shown_under(self.ctx.rules) and f.name not in tucked]

    def tucked_fields(self, field: inputs.RowsField) -> list[inputs.Field]:
        """A row's fields offered one tap away (the rarer way to give the row: its cards)."""
        tucked = field.tucked_fields()
        return [f for f in field.fields if f.shown_under(self.ctx.rules) and f.name in tucked]

    @staticmethod
    def common_options(field: inputs.ChoiceField) -> list[tuple[str, str]]:
        """A choice's common values, offered first (in the order declared common)."""
        words = dict(choice_options(field))
        return [(v, words[v]) for v in field.common if v in words]

    @staticmethod
    def rare_options(field: inputs.ChoiceField) -> list[tuple[str, str]]:
        return [(v, w) for v, w in choice_options(field) if v not in field.common]

    def tucked_in_use(self, field: inputs.RowsField, parts) -> bool:
        """Whether a row's tucked part holds something (a value, a rare choice, an error): then it is open."""
        for f in self.tucked_fields(field):
            if _given(parts[f.name]) or _errors(parts[f.name]):
                return True
        rare = {f.name: f for f in self.brief_fields(field) if getattr(f, "common", ())}
        return any(_given(parts[name]) and _data(parts[name]) not in f.common for name, f in rare.items())

    @staticmethod
    def row_in_use(entry) -> bool:
        """Whether a row holds a value or an error (it then shows all its parts)."""
        return any(_given(f) or f.errors for f in entry.form if not isinstance(f, BooleanField))

    def rows_in_use(self, field: inputs.RowsField) -> bool:
        """Whether rows a hand seldom has are used (or refused): then they are shown open."""
        return bool(self.group_errors.get(field.name)) or any(self.row_in_use(e) for e in self[field.name].entries)

    def seat_errors(self) -> bool:
        """Whether a per-seat number was refused (its folded rows are then shown open)."""
        return any(self.group_errors.get(f.name) or any(e.errors for e in self[f.name].entries)
                   for f in self.fields if isinstance(f, inputs.PerSeatField))

    def drawn(self) -> str:
        """What this form was drawn for (its hidden ``drawn``): the phone says it needs the signal rather than
        answer a form drawn for other house rules (``offline_page.drawn_for``)."""
        return offline_page.drawn_for(self.fields, self.seats)

    def names_given(self) -> list[str]:
        return [(e.data or "").strip() for e in self.names.entries]

    # -- form -> payload ------------------------------------------------------------

    def to_payload(self) -> dict:
        """The form as the engine's settle input, read as the phone reads a posted form: the posted form itself
        (one reading), or what a form filled with data holds."""
        posted = self.posted if self.posted is not None else offline_page.Posted(form_pairs(self))
        return offline_page.settle_fields(self.fields, posted, self.seats)

    # -- errors ---------------------------------------------------------------------

    def label_of(self, path: str) -> str | None:
        return settle_label(self.game, path, current_lang())

    def attach(self, path: str | None, message: str) -> bool:
        """Put an engine error on the field its path names; False when no field matches."""
        m = _PATH.match(path or "")
        if not m or m.group("name") not in {f.name for f in self.fields}:
            return False
        target = self[m.group("name")]
        index, sub = m.group("i"), m.group("sub")
        if index is not None and int(index) < len(target.entries):
            target = target.entries[int(index)]
            if sub is not None and hasattr(target, "form") and sub in target.form._fields:
                target = target.form[sub]
            elif hasattr(target, "form"):
                target = next(iter(target.form))
        elif index is not None or isinstance(target, FieldList):
            self.group_errors.setdefault(m.group("name"), []).append(message)
            return True
        target.errors = list(target.errors or []) + [message]
        return True


def form_pairs(form) -> list[tuple[str, str]]:
    """The (name, value) pairs the form holds, as a browser would post them (a box checked posts "y")."""
    out = []
    for field in form:
        if isinstance(field, (FieldList, FormField)):
            out += form_pairs(field)
        elif isinstance(field, BooleanField):
            out += [(field.name, "y")] if field.data else []
        elif field.data is not None:
            out.append((field.name, str(field.data)))
    return out


def _size(field_list: FieldList, n: int) -> None:
    while len(field_list.entries) < n:
        field_list.append_entry()
    while len(field_list.entries) > n:
        field_list.pop_entry()


def _raw(field) -> str | None:
    """What was typed, stripped, or None: the engine reads the value and quotes bad text back."""
    data = field.data
    if data is None:
        return None
    text = str(data).strip()
    return text or None


def _data(part) -> Any:
    """A row part's value: a form field's data, or a template row's (a dict)."""
    return part.get("data") if isinstance(part, Mapping) else part.data


def _errors(part) -> list:
    return (part.get("errors") if isinstance(part, Mapping) else part.errors) or []


def _given(part) -> bool:
    data = _data(part)
    return data is not None and str(data).strip() != ""


def _blank_row(entry) -> bool:
    return all(_raw(f) is None for f in entry.form if not isinstance(f, BooleanField))


def blank_row(field: inputs.RowsField) -> dict:
    """A row's fields as a template shows them for a row still to come (index ``__N__``)."""
    return {f.name: {"name": f"{field.name}-__N__-{f.name}", "id": f"{field.name}-__N__-{f.name}", "data": "",
                     "errors": []} for f in field.fields}


def seat_options(seats: int, names=()) -> list[tuple[str, str]]:
    """(value, words) for seat chips: the seat's value and what a player reads: the player's name, or the seat's
    number (1号位 is value 0) where no name is known."""
    names = list(names or ())
    return [(str(i), names[i] if i < len(names) and names[i] else str(seat_number(i))) for i in range(seats)]


def choice_options(field: inputs.ChoiceField) -> list[tuple[str, str]]:
    return [(value, render(words, current_lang())) for value, words in field.choices]


def value_options(values) -> list[tuple[str, str]]:
    return [(str(v), str(v)) for v in values]


# -- payload -> form ---------------------------------------------------------------

def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _form_value(field: inputs.Field, value: Any) -> Any:
    if isinstance(field, inputs.SwitchField):
        return bool(value)
    if isinstance(field, LIST_FIELDS):
        return [_text(v) for v in value] if isinstance(value, (list, tuple)) else []
    if isinstance(field, inputs.RowsField):
        rows = value if isinstance(value, (list, tuple)) else []
        return [{f.name: _form_value(f, row.get(f.name)) for f in field.fields}
                for row in rows if isinstance(row, Mapping)]
    return _text(value)


def form_data(game: Game, payload: Mapping, names: list[str] | tuple[str, ...] = ()) -> dict:
    """The form's data for a stored input (what the form cannot hold is left out)."""
    out = {f.name: _form_value(f, payload.get(f.name)) for f in game.settle_input.fields}
    out["names"] = list(names)
    return out


# -- the class ------------------------------------------------------------------------

def settle_form_class(game: Game) -> type[SettleForm]:
    if game.slug not in _CLASSES:
        attrs = {f.name: _wtf_field(f) for f in game.settle_input.fields}
        attrs["names"] = FieldList(StringField(), min_entries=0)
        attrs["game"] = game
        _CLASSES[game.slug] = type(f"Settle_{game.slug}", (SettleForm,), attrs)
    return _CLASSES[game.slug]


def settle_form(game: Game, rules, seats: int, add_row: str | None = None, posted=None, **kwargs) -> SettleForm:
    """The settle form; bound to the request's form data unless ``formdata`` or ``data`` is given. Its payload is
    read from the posted form straight (``posted``: read already, :class:`SettlePost`), unless it is filled with
    ``data``."""
    ctx = replace(game.input_context(rules), seats=seats)
    if posted is None and "data" not in kwargs:
        posted = _posted(kwargs.get("formdata", request.form if request.method in SUBMITTED else None))
    return settle_form_class(game)(**kwargs).prepare(ctx, add_row, posted)


SUBMITTED = frozenset({"POST", "PUT", "PATCH", "DELETE"})  # the methods whose form FlaskForm reads


def _posted(formdata) -> offline_page.Posted | None:
    items = getattr(formdata, "items", None)
    return offline_page.Posted(items(multi=True)) if items is not None else None


def seats_for(game: Game, rules, args: Mapping | None = None) -> int:
    """How many seats the settle form shows (the phone reads it the same way)."""
    return offline_page.seats_for(game, rules, args or {})


# -- a settle page's post, read once ------------------------------------------------------------------------

@dataclass(frozen=True)
class SettlePost:
    """A settle page's request, read once: the posted fields (None: not posted), the house rules given (read as the
    phone reads them) and resolved once (``refused``: why they could not be, the defaults then drawn), the button
    pressed (``refresh`` after "switch to preset …", whose preset is ``switched``) and the seats the form shows."""
    posted: offline_page.Posted | None
    rules_given: dict
    rules: Rules
    refused: PaijuError | None
    action: str
    switched: str | None
    seats: int

    @classmethod
    def read(cls, game: Game, formdata, args: Mapping) -> SettlePost:
        posted = _posted(formdata) if formdata is not None else None
        given = posted or offline_page.Posted(())
        switched = given.get("switch_preset")
        switched = switched if switched in {p.name for p in game.ruleset.presets} else None
        if switched is not None:
            given = offline_page.Posted([(offline_page.RULES + "preset", switched), *given.values.items()])
        rules_given = offline_page.rules_payload(game, given)
        try:
            rules, refused = game.ruleset.resolve(rules_given), None
        except PaijuError as exc:
            rules, refused = game.ruleset.resolve({}), exc
        action = "refresh" if switched else (given.get("action") or "") if formdata is not None else ""
        seats = offline_page.seats_for(game, rules, formdata if formdata is not None else args)
        return cls(posted, rules_given, rules, refused, action, switched, seats)

    def settle(self, game: Game, payload: Mapping) -> Settlement:
        """The engine's settle of ``payload`` under the rules given (resolved once: their refusal is raised)."""
        if self.refused is not None:
            raise self.refused
        return game.settle_payload(payload, self.rules)
