"""The inputs of the actions besides settle (check, hint, classify, trick, bidding), read as those answers
always have: one problem at a time, naming the field by its API name (“hand” is missing, “limit” is 0).

:class:`NamedField` is the field kind of such a body (a whole number, a list, card texts one per seat); the
game cores add theirs (cards in a shedding game's pack, the trump suit). The helpers below read one value
outside a schema (an item of a list of bids). Each :class:`~scoring.errors.MalformedInput` (wrong type, missing field) or
:class:`~scoring.errors.InvalidInput` (a value out of range) naming the field, so that no input reaches a 500.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import parse_cards
from ..errors import InvalidInput, MalformedInput, PaijuError
from ..i18n import Text, shown, t
from .base import MISSING, Bound, Context, Field, bound, int_json_schema, static, strict_int
from .notation import cards_schema


def missing(path: str) -> MalformedInput:
    return MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=path), field=path, code="missing_field")


def get_field(payload: Mapping, name: str, default: Any = MISSING) -> Any:
    if name not in payload or payload[name] is None:
        if default is MISSING:
            raise missing(name)
        return default
    return payload[name]


def as_int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """A strict whole number: a JSON integer or text of ASCII digits with one optional sign."""
    number = strict_int(value)
    if number is None:
        raise MalformedInput(t("「{f}」应为整数，收到「{v}」", "“{f}” must be a whole number, got “{v}”",
                               f=field, v=shown(value)), field=field, code="not_an_integer")
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        raise InvalidInput(out_of_range(field, number, lo, hi), field=field, code="out_of_range")
    return number


def out_of_range(field: str, value: Any, lo: int | None, hi: int | None):
    if lo is not None and hi is not None:
        return t("「{f}」为{v}，应在{lo}到{hi}之间", "“{f}” is {v}; it must be from {lo} to {hi}",
                 f=field, v=value, lo=lo, hi=hi)
    if lo is not None:
        return t("「{f}」为{v}，应不小于{lo}", "“{f}” is {v}; it must be at least {lo}", f=field, v=value, lo=lo)
    return t("「{f}」为{v}，应不大于{hi}", "“{f}” is {v}; it must be at most {hi}", f=field, v=value, hi=hi)


def get_int(payload: Mapping, name: str, lo: int | None = None, hi: int | None = None,
            default: Any = MISSING) -> int:
    value = get_field(payload, name, default)
    if value is default and default is not MISSING:
        return value
    return as_int(value, name, lo, hi)


def get_list(payload: Mapping, name: str, default: Any = MISSING) -> list:
    value = get_field(payload, name, default)
    if value is default and default is not MISSING:
        return value
    return as_list(value, name)


def as_list(value: Any, field: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise MalformedInput(t("「{f}」应为列表", "“{f}” must be a list", f=field), field=field, code="not_a_list")
    return list(value)


@dataclass(frozen=True)
class NamedField(Field):
    """A field of an action's body: only a null or absent value is missing, and a problem names the field by
    its path. A kind says how to :meth:`parse` a given value, raising its problem."""

    reads_blank: ClassVar[bool] = True  # blank text is given to parse (not taken as missing)

    def read_in(self, payload, ctx, prefix, problems, label=None):
        path = prefix + self.name
        raw = payload.get(self.name)
        if raw is None:
            if self.required:
                problems.add(missing(path))
                return MISSING
            return self.default
        try:
            return self.parse(raw, payload, ctx, path)
        except PaijuError as exc:
            problems.add(exc)
            return MISSING

    def parse(self, raw: Any, payload: Mapping, ctx: Context, path: str) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class WholeNumberField(NamedField):
    """A strict whole number in a range (:func:`as_int`)."""

    kind: ClassVar[str] = "number"

    lo: Bound = None
    hi: Bound = None
    entry: str = "number"

    def parse(self, raw, payload, ctx, path):
        return as_int(raw, path, bound(self.lo, ctx), bound(self.hi, ctx))

    def json_schema(self, ctx):
        return int_json_schema(static(self.lo), static(self.hi))


@dataclass(frozen=True)
class ListField(NamedField):
    """A list whose items the action reads one by one as it goes (bids: each a number or a pass)."""

    kind: ClassVar[str] = "list"

    items: tuple[dict, ...] = ({"type": "string"},)  # the JSON Schemas an item may match
    entry: str = "words"

    def parse(self, raw, payload, ctx, path):
        return as_list(raw, path)

    def json_schema(self, ctx):
        return {"type": "array", "items": {"anyOf": list(self.items)}}


@dataclass(frozen=True)
class CardTextsField(NamedField):
    """Card texts, one per seat in order (the plays of a trick) or one per other hand: from ``fewest`` to
    ``most`` items (by default one per seat); ``blank_items``: an empty or null item is no cards."""

    kind: ClassVar[str] = "card_texts"

    fewest: int = 0
    most: Bound = None
    blank_items: bool = False
    #: the words of item ``i`` on a form (the lead, the second play …); past them, :attr:`item_label`
    item_labels: tuple[Text, ...] = ()
    item_label: Text = t("第{n}项", "item {n}")
    entry: str = "seat_cards"

    def parse(self, raw, payload, ctx, path):
        values = as_list(raw, path)
        lo, hi = self.fewest, bound(self.most, ctx) or ctx.seats
        if not lo <= len(values) <= hi:
            raise InvalidInput(t("「{f}」应有{lo}到{hi}项，收到{n}项", "“{f}” must hold {lo} to {hi} entries, got {n}",
                                 f=path, lo=lo, hi=hi, n=len(values)), field=path, code="wrong_count")
        return [self.parse_item(v, f"{path}[{i}]", ctx) for i, v in enumerate(values)]

    def parse_item(self, value, path, ctx):
        try:
            return parse_cards("" if value is None and self.blank_items else value, bare=ctx.bare,
                               allow_empty=self.blank_items)
        except PaijuError as exc:
            raise exc.replaced(field=path) from None

    def label_of_item(self, index: int) -> Text:
        if index < len(self.item_labels):
            return self.item_labels[index]
        return Text(self.item_label.zh, self.item_label.en, {"n": index + 1})

    def json_schema(self, ctx):
        item = cards_schema(0 if self.blank_items else 1)
        return {"type": "array", "items": {"anyOf": [item, {"type": "null"}]} if self.blank_items else item,
                "minItems": self.fewest, "maxItems": bound(self.most, ctx) or ctx.seats}
