"""Reading one value of a payload outside a schema, raising its error at once (a number in a list, an item of
a bid): a strict whole number in a range, a present field, a list.

Each raises :class:`~scoring.errors.MalformedInput` (wrong type, missing field) or
:class:`~scoring.errors.InvalidInput` (a value out of range) naming the field, so that no input reaches a 500.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidInput, MalformedInput
from ..i18n import shown, t
from .base import MISSING, strict_int


def get_field(payload: Mapping, name: str, default: Any = MISSING) -> Any:
    if name not in payload or payload[name] is None:
        if default is MISSING:
            raise MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=name), field=name, code="missing_field")
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
    if not isinstance(value, (list, tuple)):
        raise MalformedInput(t("「{f}」应为列表", "“{f}” must be a list", f=name), field=name, code="not_a_list")
    return list(value)
