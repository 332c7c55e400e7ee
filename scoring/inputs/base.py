"""The ground of declared inputs: the context a payload is read in, read values, problems, labels of paths,
the :class:`Field` every input kind extends, and strict whole numbers."""
from __future__ import annotations

import re

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import Deck
from ..errors import InputErrors, MalformedInput, PaijuError
from ..i18n import Text, seat_name, shown, t

#: what Python's str.strip() takes away, as a JSON Schema (ECMA) character class: the same set, written out
PY_SPACE = "[\\t\\n\\u000b\\u000c\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
MAX_TEXT = 400  # characters in one text field (a 3-deck hand is about 160 cards)
MISSING = object()  # what a field reads when its value is wrong (its problem is recorded)


# ---------------------------------------------------------------------------
# The context a payload is read in, and what reading gives
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Context:
    """What a field needs to know to read a value: the rules, the seats, the pack."""

    rules: Any = None
    seats: int = 4
    deck: Deck | None = None
    bare: bool = False            # bare ranks (suit unknown) accepted
    names: Sequence[str] = ()     # player names, for words only
    core: Any = None              # the game's core for these rules (a shedding spec), for fields that ask it

    def seat_words(self, seat: int) -> Text:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return t("{n}", "{n}", n=self.names[seat])
        return seat_name(seat)


class Values(dict):
    """Read input: a dict with attribute access (``values.bid``).

    Items are set one by one as the schema reads them, and never changed after (a change other than
    setting an item is refused). Each is also an attribute of its own, so reading one needs no failed
    look-up first (a settle reads about 18); a name the class itself has (``items``, ``get``) stays the
    class's, read as an item."""

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, value)
        if not hasattr(type(self), name):
            vars(self)[name] = value

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def _unchanged(self, *args, **kwargs):
        raise TypeError("read input is not changed once read")

    __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _unchanged


class Problems:
    """The errors of one request, in the order of the fields."""

    def __init__(self):
        self.items: list[PaijuError] = []

    def add(self, error: PaijuError) -> None:
        self.items.append(error)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_any(self) -> None:
        if self.items:
            raise InputErrors(self.items)


# ---------------------------------------------------------------------------
# Labels of paths: "第3圈：赢的牌" / "round 3, the winning play"
# ---------------------------------------------------------------------------

def numbered(text: Text, n: Any) -> Text:
    """``text`` with its ``{n}`` filled in."""
    return Text(text.zh, text.en, {**text.params, "n": n})


def item_label(row: Text, index: int) -> Text:
    return numbered(row, index + 1)


def in_row(row: Text, label: Text) -> Text:
    return t("{row}{f}", "{f} of {row}", row=row, f=label)


# ---------------------------------------------------------------------------
# Fields
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One input. ``entry`` says how a thumb enters it on a page."""

    name: str
    label: Text
    required: bool = True
    default: Any = None
    help: Text | None = None
    entry: str = "text"
    #: the label cut short for a narrow box on a phone (a per-seat number's placeholder); None: the label
    short: Text | None = None
    #: the house rules under which a form shows this field (None: always); the API reads it either way
    shown_when: Callable[[Any], bool] | None = None

    kind: ClassVar[str] = "text"
    #: blank text is read by the field itself (cards: blank is no cards), not taken as missing
    reads_blank: ClassVar[bool] = False

    def shown_under(self, rules: Any) -> bool:
        return self.shown_when is None or bool(self.shown_when(rules))

    def read(self, raw: Any, ctx: Context, path: str, label: Text, problems: Problems) -> Any:
        raise NotImplementedError

    def read_in(self, payload: Mapping, ctx: Context, prefix: str, problems: Problems,
                label: Text | None = None) -> Any:
        """This field's value in ``payload``; a problem (and ``MISSING``) when it is wrong."""
        path = prefix + self.name
        label = label or self.label
        raw = payload.get(self.name)
        if raw is None or (isinstance(raw, str) and not raw.strip() and not self.reads_blank):
            if self.required:
                problems.add(MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=label), field=path,
                                            code="missing_field"))
                return MISSING
            return self.default
        return self.read(raw, ctx, path, label, problems)

    def read_alone(self, payload: Mapping, ctx: Context) -> Any:
        """This field's value in ``payload``; its first problem raised as it is."""
        problems = Problems()
        value = self.read_in(payload, ctx, "", problems)
        if problems:
            raise problems.items[0]
        return value

    def path_label(self, index: str | None, sub: str | None) -> Text:
        """The words for this field, or for item ``index`` of it (and its part ``sub``)."""
        return self.label

    def words(self, value: Any, ctx: Context) -> Text | None:
        """The value in words, for the ledger (None: say nothing)."""
        if value is None or value == self.default:
            return None
        return t("{f} {v}", "{f} {v}", f=self.label, v=self.value_words(value, ctx))

    def value_words(self, value: Any, ctx: Context) -> Any:
        return str(value)

    def json_schema(self, ctx: Context) -> dict:
        """The JSON Schema of this field's value (for the OpenAPI document); ``ctx.seats`` is the most seats.

        Bounds that depend on the house rules are left out: the schema holds under any rules."""
        raise NotImplementedError

    def described(self, ctx: Context) -> dict:
        """:meth:`json_schema` with the label as its title (a :class:`Text`, rendered by the caller) and
        ``null`` allowed when the field is optional (it then takes its default)."""
        schema = self.json_schema(ctx)
        if not self.required:  # null or blank text (read_in): the default
            blank = [] if self.reads_blank else [{"type": "string", "pattern": f"^{PY_SPACE}*$"}]
            schema = {"anyOf": [schema, {"type": "null"}, *blank]}
        return dict(schema, title=self.label)


def not_integer(label: Text, raw: Any, path: str) -> MalformedInput:
    return MalformedInput(t("「{f}」应为整数，收到「{v}」", "“{f}” must be a whole number, got “{v}”",
                            f=label, v=shown(raw)), field=path, code="not_an_integer")


def strict_int(raw: Any) -> int | None:
    """A JSON integer or text of ASCII digits with one optional sign; None for anything else. A JSON number
    with no fraction (``3.0``) is an integer, as JSON Schema counts it."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, float) and raw.is_integer() and abs(raw) < 1e15:
        return int(raw)
    if not isinstance(raw, str):
        return None
    s = raw.strip()
    digits = s[1:] if s[:1] in "+-" else s
    if not digits or len(digits) > 9 or not all("0" <= c <= "9" for c in digits):
        return None
    return int(s)


def range_text(lo: int | None, hi: int | None, step: int) -> Text:
    every = t("，且为{s}的倍数", ", in steps of {s}", s=step) if step > 1 else t("", "")
    if lo is not None and hi is not None:
        return t("应在{lo}到{hi}之间{e}", "it must be from {lo} to {hi}{e}", lo=lo, hi=hi, e=every)
    if lo is not None:
        return t("应不小于{lo}{e}", "it must be at least {lo}{e}", lo=lo, e=every)
    return t("应不大于{hi}{e}", "it must be at most {hi}{e}", hi=hi, e=every)


def not_a_multiple(label: Text, value: int, step: int) -> Text:
    """A number off the step: what is valid, and the two nearest valid values."""
    below = value - value % step
    return t("「{f}」为{v}：只能是{s}的倍数，例如{a}或{b}", "“{f}” is {v}: only multiples of {s} are valid, such as {a} or {b}",
             f=label, v=value, s=step, a=below, b=below + step)


Bound = int | Callable[[Context], int] | None


def bound(value: Bound, ctx: Context) -> int | None:
    return value(ctx) if callable(value) else value


#: text a number may be sent as (strict_int): ASCII digits with one sign, spaces around them
INT_TEXT = f"^{PY_SPACE}*[+-]?[0-9]{{1,9}}{PY_SPACE}*$"


def words_pattern(words, optional: bool = False) -> str:
    """The pattern of text that, stripped and lower-cased, is one of ``words`` (``optional``: or blank)."""
    def any_case(word: str) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isascii() and c.isalpha() else re.escape(c) for c in word)
    body = "|".join(any_case(w) for w in sorted(words) if w)
    return f"^{PY_SPACE}*(?:{body}){'?' if optional else ''}{PY_SPACE}*$"


def int_text_among(values) -> str:
    """The pattern of text :func:`strict_int` reads as one of ``values`` (a few whole numbers): at most nine
    ASCII digits, leading zeros and one sign allowed, spaces around them."""
    def alternatives(numbers):
        return "|".join(str(n) for n in sorted(numbers, reverse=True))
    parts = [f"\\+?0*(?:{alternatives(v for v in values if v > 0)})"] if any(v > 0 for v in values) else []
    if any(v < 0 for v in values):
        parts.append(f"-0*(?:{alternatives(-v for v in values if v < 0)})")
    if 0 in values:
        parts.append("[+-]?0+")
    digits = f"(?=[+-]?[0-9]{{1,9}}{PY_SPACE}*$)"
    return f"^{PY_SPACE}*{digits}(?:{'|'.join(parts)}){PY_SPACE}*$"


def static(value: Bound) -> int | None:
    """A bound the JSON Schema can state: fixed, not depending on the house rules."""
    return None if callable(value) else value


def int_json_schema(lo: int | None, hi: int | None, step: int = 1) -> dict:
    """A whole number as the API reads it: a JSON integer, or ASCII digits with one sign."""
    number: dict = {"type": "integer"}
    if lo is not None:
        number["minimum"] = lo
    if hi is not None:
        number["maximum"] = hi
    if step > 1:
        number["multipleOf"] = step
    return {"anyOf": [number, {"type": "string", "pattern": INT_TEXT}]}


def seat_json_schema(ctx: Context) -> dict:
    return int_json_schema(0, ctx.seats - 1)
