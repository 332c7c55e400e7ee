"""A :class:`Schema`: the fields of one input, read together with every problem at once."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card, format_cards
from ..errors import InputErrors, PaijuError
from ..i18n import Text
from .base import MISSING, Context, Field, Problems, Values

_PATH = re.compile(r"^(?P<name>[a-z_0-9]+)(?:\[(?P<i>\d+)\])?(?:\.(?P<sub>[a-z_0-9]+))?$")


@dataclass(frozen=True)
class Schema:
    """One input (a game's settle, an action's body): fields in the order a table knows them."""

    fields: tuple[Field, ...]
    #: the name of the field that sets the number of seats (Q783's ``players``), if any
    seats_field: str | None = None
    #: the first problem is raised alone, as it is (the actions besides settle answer one problem at a time)
    first_problem_only: bool = False
    #: the order a form shows the fields in, where it is not the reading order (the first problem depends on that)
    form_order: tuple[str, ...] = ()

    def __add__(self, other: "Schema") -> "Schema":
        """This input's fields, then ``other``'s (an action that reads its input in stages declares their sum)."""
        return replace(self, fields=self.fields + other.fields)

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def form_fields(self, rules: Any = None) -> list[Field]:
        """The fields a form shows under ``rules``, in :attr:`form_order` (the rest after, as declared)."""
        named = [f for n in self.form_order for f in self.fields if f.name == n]
        ordered = named + [f for f in self.fields if f not in named]
        return [f for f in ordered if f.shown_under(rules)]

    def label_of(self, path: str) -> Text | None:
        """The words for a field path (``rounds[2].cards`` → 第3圈赢的牌), or None for no such field."""
        m = _PATH.match(path or "")
        if not m or m.group("name") not in {f.name for f in self.fields}:
            return None
        return self.field(m.group("name")).path_label(m.group("i"), m.group("sub"))

    def json_schema(self, ctx: Context) -> dict:
        """The JSON Schema of a payload (an object; other keys are ignored), for the OpenAPI document."""
        return {"type": "object", "properties": {f.name: f.described(ctx) for f in self.fields},
                "required": [f.name for f in self.fields if f.required]}

    def read(self, payload: Mapping, ctx: Context) -> Values:
        """Every field read; raises :class:`InputErrors` with every problem at once."""
        problems = Problems()
        values = Values()
        for f in self.fields:
            values[f.name] = f.read_in(payload, ctx, "", problems)
            if problems and self.first_problem_only:
                raise problems.items[0]
            if f.name == self.seats_field and isinstance(values[f.name], int) and values[f.name] != ctx.seats:
                ctx = replace(ctx, seats=values[f.name])
        problems.raise_any()
        return values

    def words(self, payload: Mapping, ctx: Context) -> list[Text]:
        """The input in words, field by field (what cannot be read is left out)."""
        out = []
        for f in self.fields:
            problems = Problems()
            value = f.read_in(payload, ctx, "", problems)
            if f.name == self.seats_field and isinstance(value, int):
                ctx = replace(ctx, seats=value)
            if problems or value is MISSING:
                continue
            w = f.words(value, ctx)
            if w is not None:
                out.append(w)
        return out


def one_problem(error: PaijuError) -> InputErrors:
    """A single cross-field problem, raised the same way as field problems."""
    return InputErrors([error])


def fields_named(schema: Schema, names: Iterable[str]) -> list[Field]:
    return [schema.field(n) for n in names]


def cards_text(cards: Sequence[Card] | None, key=None) -> str | None:
    return None if cards is None else format_cards(cards, key)


def field_words(field: Field, payload: Mapping, ctx: Context) -> Text | None:
    """One field of a stored input in words (None when it is empty or cannot be read)."""
    problems = Problems()
    value = field.read_in(payload, ctx, "", problems)
    if problems or value is MISSING:
        return None
    return field.words(value, ctx)
