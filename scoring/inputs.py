"""Declared inputs: a game says once what a settle input holds.

A :class:`Schema` is a tuple of fields (a seat, seats in order, a number with
its range and step, a switch, cards, a choice, one number per seat, repeated
rows). From that one declaration come

* the API's checks: :meth:`Schema.read` turns the JSON-shaped payload into
  :class:`Values`, collecting **every** error of the request at once
  (:class:`~scoring.errors.InputErrors`), each with its path
  (``bombs[1].lines``) and a message that names the field by its label;
* the forms (``webapp/schema_forms.py`` builds them field by field, rows
  growing as needed, and maps form data to the payload and back);
* the words of a hand (:meth:`Schema.words`: 庄家 老王，叫分 100 …) for the
  ledger's hand cards and its CSV columns.

Numbers are strict: a JSON integer, or text of ASCII digits with one optional
sign. Text must be valid Unicode without control characters. A value quoted
back in a message is shown escaped (:func:`shown`), never raw.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cards import Card, Deck, format_cards, parse_cards
from .errors import InputErrors, InvalidInput, MalformedInput, PaijuError
from .i18n import Text, join, seat_name, shown, t, unknown_seat  # shown: a quoted value, escaped (used here and re-exported)

_PATH = re.compile(r"^(?P<name>[a-z_0-9]+)(?:\[(?P<i>\d+)\])?(?:\.(?P<sub>[a-z_0-9]+))?$")
MAX_TEXT = 400  # characters in one text field (a 3-deck hand is about 160 cards)
_MISSING = object()


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

    def shown_under(self, rules: Any) -> bool:
        return self.shown_when is None or bool(self.shown_when(rules))

    def read(self, raw: Any, ctx: Context, path: str, label: Text, problems: Problems) -> Any:
        raise NotImplementedError

    def read_in(self, payload: Mapping, ctx: Context, prefix: str, problems: Problems,
                label: Text | None = None) -> Any:
        """This field's value in ``payload``; a problem (and ``_MISSING``) when it is wrong."""
        path = prefix + self.name
        label = label or self.label
        raw = payload.get(self.name)
        if raw is None or (isinstance(raw, str) and not raw.strip() and not isinstance(self, CardsField)):
            if self.required:
                problems.add(MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=label), field=path,
                                            code="missing_field"))
                return _MISSING
            return self.default
        return self.read(raw, ctx, path, label, problems)

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
        if not self.required:
            schema = {"anyOf": [schema, {"type": "null"}]}
        return dict(schema, title=self.label)


def _not_integer(label: Text, raw: Any, path: str) -> MalformedInput:
    return MalformedInput(t("「{f}」应为整数，收到「{v}」", "“{f}” must be a whole number, got “{v}”",
                            f=label, v=shown(raw)), field=path, code="not_an_integer")


def strict_int(raw: Any) -> int | None:
    """A JSON integer or text of ASCII digits with one optional sign; None for anything else."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
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


#: text a number may be sent as (the API's strict reading also allows surrounding spaces)
INT_TEXT = r"^[+-]?[0-9]{1,9}$"


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


@dataclass(frozen=True)
class IntField(Field):
    """A whole number with a range (bounds may depend on the rules) and a step."""

    kind: ClassVar[str] = "number"

    lo: Bound = None
    hi: Bound = None
    step: int = 1
    entry: str = "number"
    #: the values a table uses most, offered as one-tap chips (may depend on the rules)
    chips: tuple[int, ...] | Callable[[Context], tuple[int, ...]] = ()

    #: a range this small is entered by chips alone, one per value
    CHIPS_ONLY: ClassVar[int] = 12

    def bounds(self, ctx: Context) -> tuple[int | None, int | None]:
        return bound(self.lo, ctx), bound(self.hi, ctx)

    def every_value(self, ctx: Context) -> tuple[int, ...] | None:
        """All the values, when there are few enough to offer each as a chip; None otherwise."""
        lo, hi = self.bounds(ctx)
        if lo is None or hi is None or (hi - lo) // self.step + 1 > self.CHIPS_ONLY:
            return None
        return tuple(range(lo, hi + 1, self.step))

    def chip_values(self, ctx: Context) -> tuple[int, ...]:
        return tuple(self.chips(ctx) if callable(self.chips) else self.chips)

    def read(self, raw, ctx, path, label, problems):
        value = strict_int(raw)
        if value is None:
            problems.add(_not_integer(label, raw, path))
            return _MISSING
        lo, hi = self.bounds(ctx)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            problems.add(InvalidInput(t("「{f}」为{v}，{r}", "“{f}” is {v}; {r}", f=label, v=value,
                                        r=range_text(lo, hi, self.step)), field=path, code="out_of_range"))
            return _MISSING
        if value % self.step:
            problems.add(InvalidInput(not_a_multiple(label, value, self.step), field=path,
                                      code="not_multiple_of_5" if self.step == 5 else "out_of_range"))
            return _MISSING
        return value

    def json_schema(self, ctx):
        return int_json_schema(static(self.lo), static(self.hi), self.step)


@dataclass(frozen=True)
class SeatField(Field):
    """One seat of the table (0-based in the API)."""

    kind: ClassVar[str] = "seat"

    entry: str = "seat"

    def read(self, raw, ctx, path, label, problems):
        return read_seat(raw, ctx, path, label, problems)

    def json_schema(self, ctx):
        return seat_json_schema(ctx)

    def value_words(self, value, ctx):
        return ctx.seat_words(value)


def read_seat(raw, ctx: Context, path: str, label: Text, problems: Problems) -> Any:
    seat = strict_int(raw)
    if seat is None:
        problems.add(_not_integer(label, raw, path))
        return _MISSING
    if not 0 <= seat < ctx.seats:
        problems.add(InvalidInput(t("「{f}」：{why}", "“{f}”: {why}", f=label,
                                    why=unknown_seat(seat, ctx.seats)), field=path, code="unknown_seat"))
        return _MISSING
    return seat


@dataclass(frozen=True)
class SwitchField(Field):
    """On or off (a JSON boolean)."""

    kind: ClassVar[str] = "switch"

    required: bool = False
    default: Any = False
    entry: str = "switch"

    def read(self, raw, ctx, path, label, problems):
        if isinstance(raw, bool):
            return raw
        problems.add(MalformedInput(t("「{f}」应为 true 或 false，收到「{v}」",
                                      "“{f}” must be true or false, got “{v}”", f=label, v=shown(raw)),
                                    field=path, code="not_a_boolean"))
        return _MISSING

    def words(self, value, ctx):
        return self.label if value else None

    def json_schema(self, ctx):
        return {"type": "boolean"}


def read_text(raw: Any, path: str, label: Text, problems: Problems) -> str | None:
    """Text that is valid Unicode, without control characters, not too long."""
    if not isinstance(raw, str):
        problems.add(MalformedInput(t("「{f}」应为文字", "“{f}” must be text", f=label), field=path,
                                    code="not_a_string"))
        return None
    bad = next((c for c in raw if 0xD800 <= ord(c) <= 0xDFFF or (ord(c) < 32 and c not in "\t\n\r")
                or 0x7F <= ord(c) < 0xA0), None)
    if bad is not None:
        problems.add(MalformedInput(t("「{f}」里有不能用的字符 {c}（控制字符或残缺的 Unicode）",
                                      "“{f}” holds a character that cannot be used, {c} (a control character "
                                      "or broken Unicode)", f=label, c=shown(bad)), field=path,
                                    code="bad_character"))
        return None
    if len(raw) > MAX_TEXT:
        problems.add(InvalidInput(t("「{f}」太长（最多{m}个字符）", "“{f}” is too long (at most {m} characters)",
                                    f=label, m=MAX_TEXT), field=path, code="too_long"))
        return None
    return raw


@dataclass(frozen=True)
class CardsField(Field):
    """Cards in the notation of the rules; checked against the pack of the rules."""

    kind: ClassVar[str] = "cards"

    entry: str = "cards"

    def read(self, raw, ctx, path, label, problems):
        text = read_text(raw, path, label, problems)
        if text is None:
            return _MISSING
        if not text.strip():
            return self.default if not self.required else self._missing(label, path, problems)
        try:
            cards = parse_cards(text, bare=ctx.bare)
            if ctx.deck is not None:
                ctx.deck.check(cards, field=path)
        except PaijuError as exc:
            problems.add(exc.replaced(field=path, message=t("{f}：{m}", "{f}: {m}", f=label, m=exc.message)))
            return _MISSING
        return cards

    def _missing(self, label, path, problems):
        problems.add(MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=label), field=path,
                                    code="missing_field"))
        return _MISSING

    def value_words(self, value, ctx):
        return format_cards(value)

    def json_schema(self, ctx):
        return {"type": "string", "maxLength": MAX_TEXT, "description": "cards, e.g. “♠A ♥10 大王”"}


@dataclass(frozen=True)
class ChoiceField(Field):
    """One of a few values; ``parse`` reads what a client may send into a choice."""

    kind: ClassVar[str] = "choice"

    choices: tuple[tuple[str, Text], ...] = ()
    parse: Callable[[Any], Any] | None = None
    entry: str = "choice"

    def read(self, raw, ctx, path, label, problems):
        try:
            return self.parse(raw) if self.parse else self._plain(raw)
        except (PaijuError, ValueError, TypeError, KeyError):
            valid = join([t("{v}（{w}）", "{v} ({w})", v=v, w=words) for v, words in self.choices], " / ", " / ")
            problems.add(MalformedInput(t("「{f}」不能是「{v}」，可选：{valid}", "“{f}” cannot be “{v}”; allowed: {valid}",
                                          f=label, v=shown(raw), valid=valid), field=path, code="invalid_choice"))
            return _MISSING

    def _plain(self, raw):
        if raw in {v for v, _ in self.choices}:
            return raw
        raise ValueError(raw)

    def json_schema(self, ctx):
        values = [v for v, _ in self.choices]
        if self.parse is None:
            return {"enum": values}
        return {"type": "string", "maxLength": MAX_TEXT, "examples": values}

    def value_words(self, value, ctx):
        return next((words for v, words in self.choices if v == value), str(value))


@dataclass(frozen=True)
class SeatOrderField(Field):
    """Distinct seats in order (who went out first, second, …)."""

    kind: ClassVar[str] = "seat_order"

    min_len: int = 1
    max_len: Bound = None
    entry: str = "seat_order"
    place_label: Text = t("第{n}个", "place {n}")

    def read(self, raw, ctx, path, label, problems):
        if not isinstance(raw, (list, tuple)):
            problems.add(MalformedInput(t("「{f}」应为座位的列表", "“{f}” must be a list of seats", f=label),
                                        field=path, code="not_a_list"))
            return _MISSING
        hi = bound(self.max_len, ctx) or ctx.seats
        if not self.min_len <= len(raw) <= hi:
            problems.add(InvalidInput(t("「{f}」列出了{n}个座位，应为{lo}到{hi}个", "“{f}” lists {n} seats; give "
                                        "{lo} to {hi}", f=label, n=len(raw), lo=self.min_len, hi=hi),
                                      field=path, code="out_of_range"))
            return _MISSING
        seats, ok = [], True
        for i, item in enumerate(raw):
            where = t("{f}：{p}", "{f}, {p}", f=label, p=item_label(self.place_label, i))
            seat = read_seat(item, ctx, f"{path}[{i}]", where, problems)
            if seat is _MISSING:
                ok = False
            elif seat in seats:
                problems.add(InvalidInput(t("{s}在「{f}」里出现了两次：每人只能出现一次",
                                            "{s} appears twice in “{f}”: each player appears once",
                                            s=ctx.seat_words(seat), f=label), field=f"{path}[{i}]",
                                          code="repeated_seat"))
                ok = False
            else:
                seats.append(seat)
        return seats if ok else _MISSING

    def json_schema(self, ctx):
        hi = static(self.max_len)
        return {"type": "array", "items": seat_json_schema(ctx), "minItems": self.min_len,
                "maxItems": hi if hi is not None else ctx.seats}

    def path_label(self, index, sub):
        if index is None:
            return self.label
        return t("{f}：{p}", "{f}, {p}", f=self.label, p=item_label(self.place_label, int(index)))

    def words(self, value, ctx):
        if not value:
            return None
        return t("{f}：{v}", "{f}: {v}", f=self.label, v=join([ctx.seat_words(s) for s in value], " → ", " → "))


@dataclass(frozen=True)
class PerSeatField(Field):
    """One whole number per seat (cards left, banks)."""

    kind: ClassVar[str] = "per_seat"

    item: IntField = field(default_factory=lambda: IntField("", t("", "")))
    entry: str = "per_seat"
    #: a seat field whose seat has 0 here; on a form, a blank box at that seat means 0
    zero_at: str | None = None

    def read(self, raw, ctx, path, label, problems):
        if not isinstance(raw, (list, tuple)):
            problems.add(MalformedInput(t("「{f}」应为每个座位一个整数的列表", "“{f}” must be a list of one whole "
                                          "number per seat", f=label), field=path, code="not_a_list"))
            return _MISSING
        if len(raw) != ctx.seats:
            problems.add(InvalidInput(t("「{f}」有{k}个数：这些规则是{n}人玩，请每个座位填一个",
                                        "“{f}” has {k} numbers: these rules are for {n} players, give one per seat",
                                        f=label, k=len(raw), n=ctx.seats), field=path, code="wrong_length"))
            return _MISSING
        out, ok = [], True
        for i, item in enumerate(raw):
            if item is None:
                problems.add(MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=self.seat_label(i, label)),
                                            field=f"{path}[{i}]", code="missing_field"))
                value = _MISSING
            else:
                value = self.read_item(item, i, ctx, f"{path}[{i}]", label, problems)
            ok = ok and value is not _MISSING
            out.append(value)
        return out if ok else _MISSING

    def read_item(self, item, seat: int, ctx, path, label, problems):
        """One seat's number. Read first without its words (a valid number needs none); only a refused one is
        read again, with the seat's words (2号位的剩余牌数) for its message."""
        quiet = Problems()
        value = self.item.read(item, ctx, path, label, quiet)
        if quiet:
            value = self.item.read(item, ctx, path, self.seat_label(seat, label), problems)
        return value

    @staticmethod
    def seat_label(seat: int, label: Text) -> Text:
        return t("{s}的{f}", "{f} of {s}", s=seat_name(seat), f=label)

    def json_schema(self, ctx):
        return {"type": "array", "items": self.item.json_schema(ctx), "maxItems": ctx.seats}

    def path_label(self, index, sub):
        if index is None:
            return self.label
        return self.seat_label(int(index), self.label)

    def words(self, value, ctx):
        if value is None:
            return None
        return t("{f}：{v}", "{f}: {v}", f=self.label,
                 v=join([t("{s} {n}", "{s} {n}", s=ctx.seat_words(i), n=n) for i, n in enumerate(value)]))


@dataclass(frozen=True)
class RowsField(Field):
    """Repeated rows of the same fields (bombs, rounds, red fives, 冲关), up to ``max_rows``."""

    kind: ClassVar[str] = "rows"

    fields: tuple[Field, ...] = ()
    row_label: Text = t("第{n}行", "row {n}")
    max_rows: Bound = 100
    required: bool = False
    default: Any = ()
    entry: str = "rows"
    row_code: str = "not_an_object"  # the error code of a row that is not an object
    #: checks one read row (all its fields valid); returns the problem or None
    check_row: Callable[[Values, Context, str, Text], PaijuError | None] | None = None

    def read(self, raw, ctx, path, label, problems):
        if not isinstance(raw, (list, tuple)):
            problems.add(MalformedInput(t("「{f}」应为列表", "“{f}” must be a list", f=label), field=path,
                                        code="not_a_list"))
            return _MISSING
        most = bound(self.max_rows, ctx)
        if most is not None and len(raw) > most:
            problems.add(InvalidInput(t("「{f}」有{n}行，最多{m}行", "“{f}” has {n} rows; at most {m}", f=label,
                                        n=len(raw), m=most), field=path, code="too_many"))
            return _MISSING
        rows, ok = [], True
        for i, item in enumerate(raw):
            row = self.read_row(item, ctx, f"{path}[{i}]", item_label(self.row_label, i), problems)
            ok = ok and row is not _MISSING
            rows.append(row)
        return tuple(rows) if ok else _MISSING

    def read_row(self, item, ctx, path, label, problems):
        if not isinstance(item, Mapping):
            problems.add(MalformedInput(t("「{f}」应为对象", "“{f}” must be an object", f=label), field=path,
                                        code=self.row_code))
            return _MISSING
        before = len(problems.items)
        row = Values()
        for f in self.fields:
            row[f.name] = f.read_in(item, ctx, path + ".", problems, label=in_row(label, f.label))
        if len(problems.items) > before:
            return _MISSING
        problem = self.check_row(row, ctx, path, label) if self.check_row else None
        if problem is not None:
            problems.add(problem)
            return _MISSING
        return row

    def json_schema(self, ctx):
        row = {"type": "object", "properties": {f.name: f.described(ctx) for f in self.fields},
               "required": [f.name for f in self.fields if f.required]}
        schema: dict = {"type": "array", "items": row}
        most = static(self.max_rows)
        if most is not None:
            schema["maxItems"] = most
        return schema

    def path_label(self, index, sub):
        if index is None:
            return self.label
        row = item_label(self.row_label, int(index))
        part = next((f for f in self.fields if f.name == sub), None)
        return in_row(row, part.label) if part is not None else row

    def words(self, value, ctx):
        if not value:
            return None
        rows = [join([w for f in self.fields if (w := f.words(row.get(f.name), ctx)) is not None], " ", " ")
                for row in value]
        return t("{f}：{v}", "{f}: {v}", f=self.label, v=join(rows, "；", "; "))


# ---------------------------------------------------------------------------
# A schema
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Schema:
    """A game's settle input: fields in the order a table knows them."""

    fields: tuple[Field, ...]
    #: the name of the field that sets the number of seats (Q783's ``players``), if any
    seats_field: str | None = None

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

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
            if f.name == self.seats_field and isinstance(values[f.name], int):
                ctx = Context(ctx.rules, values[f.name], ctx.deck, ctx.bare, ctx.names)
        problems.raise_any()
        return values

    def words(self, payload: Mapping, ctx: Context) -> list[Text]:
        """The input in words, field by field (what cannot be read is left out)."""
        out = []
        for f in self.fields:
            problems = Problems()
            value = f.read_in(payload, ctx, "", problems)
            if f.name == self.seats_field and isinstance(value, int):
                ctx = Context(ctx.rules, value, ctx.deck, ctx.bare, ctx.names)
            if problems or value is _MISSING:
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
    if problems or value is _MISSING:
        return None
    return field.words(value, ctx)
