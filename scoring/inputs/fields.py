"""The kinds of input field: a number, a seat, a switch, text, cards, a choice, seats in order, one number per
seat, repeated rows."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ..cards import format_cards, parse_cards
from ..errors import InvalidInput, MalformedInput, PaijuError
from ..i18n import Text, join, seat_name, shown, t, unknown_seat
from .base import (MAX_TEXT, MISSING, Bound, Context, Field, Problems, Values, bound, in_row, int_json_schema,
                   item_label, not_a_multiple, not_integer, range_text, seat_json_schema, static, strict_int)
from .notation import cards_schema


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
            problems.add(not_integer(label, raw, path))
            return MISSING
        lo, hi = self.bounds(ctx)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            problems.add(InvalidInput(t("「{f}」为{v}，{r}", "“{f}” is {v}; {r}", f=label, v=value,
                                        r=range_text(lo, hi, self.step)), field=path, code="out_of_range"))
            return MISSING
        if value % self.step:
            problems.add(InvalidInput(not_a_multiple(label, value, self.step), field=path,
                                      code="not_multiple_of_5" if self.step == 5 else "out_of_range"))
            return MISSING
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
        problems.add(not_integer(label, raw, path))
        return MISSING
    if not 0 <= seat < ctx.seats:
        problems.add(InvalidInput(t("「{f}」：{why}", "“{f}”: {why}", f=label,
                                    why=unknown_seat(seat, ctx.seats)), field=path, code="unknown_seat"))
        return MISSING
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
        return MISSING

    def words(self, value, ctx):
        return self.label if value else None

    def json_schema(self, ctx):
        return {"type": "boolean"}


#: text :func:`read_text` takes, as a JSON Schema pattern: no control character but tab, line feed and carriage
#: return (lone surrogates, refused too, are left out: an ECMA pattern without the u flag cannot name them)
PLAIN_TEXT = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"


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


#: the control characters that are white space (U+000B, U+001C …): the card reader takes them for separators
SPACE_CONTROLS = {c: " " for c in range(0xA0) if chr(c).isspace() and chr(c) not in " \t\n\r"}


def read_card_text(raw: Any, path: str, label: Text, problems: Problems) -> str | None:
    """Card text as :func:`read_text`, but a control character that is white space is a separator there, as in
    every other card field (the card text pattern of the OpenAPI document says so)."""
    checked = read_text(raw.translate(SPACE_CONTROLS) if isinstance(raw, str) else raw, path, label, problems)
    return None if checked is None else raw


@dataclass(frozen=True)
class CardsField(Field):
    """Cards in the notation of the rules; checked against the pack of the rules."""

    kind: ClassVar[str] = "cards"
    reads_blank: ClassVar[bool] = True

    entry: str = "cards"
    rows: int = 1  # the height of its box on a form (a hand: 2)

    def read(self, raw, ctx, path, label, problems):
        text = read_card_text(raw, path, label, problems)
        if text is None:
            return MISSING
        if not text.strip():
            return self.default if not self.required else self._missing(label, path, problems)
        try:
            cards = parse_cards(text, bare=ctx.bare)
            if ctx.deck is not None:
                ctx.deck.check(cards, field=path)
        except PaijuError as exc:
            problems.add(exc.replaced(field=path, message=t("{f}：{m}", "{f}: {m}", f=label, m=exc.message)))
            return MISSING
        return cards

    def _missing(self, label, path, problems):
        problems.add(MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=label), field=path,
                                    code="missing_field"))
        return MISSING

    def value_words(self, value, ctx):
        return format_cards(value)

    def json_schema(self, ctx):
        """Card text (:mod:`~scoring.inputs.notation`): a required field names at least one card."""
        return cards_schema(1 if self.required else 0)


@dataclass(frozen=True)
class ChoiceField(Field):
    """One of a few values; ``parse`` reads what a client may send into a choice."""

    kind: ClassVar[str] = "choice"

    choices: tuple[tuple[str, Text], ...] = ()
    parse: Callable[[Any], Any] | None = None
    entry: str = "choice"
    #: the choices a form offers first (the ones a table uses most); the rest one tap away. Empty: all at once
    common: tuple[str, ...] = ()
    #: the text ``parse`` reads, as a JSON Schema pattern (made when the document is built); None: any text
    pattern: Callable[[], str] | None = None

    def read(self, raw, ctx, path, label, problems):
        try:
            return self.parse(raw) if self.parse else self._plain(raw)
        except (PaijuError, ValueError, TypeError, KeyError):
            valid = join([t("{v}（{w}）", "{v} ({w})", v=v, w=words) for v, words in self.choices], " / ", " / ")
            problems.add(MalformedInput(t("「{f}」不能是「{v}」，可选：{valid}", "“{f}” cannot be “{v}”; allowed: {valid}",
                                          f=label, v=shown(raw), valid=valid), field=path, code="invalid_choice"))
            return MISSING

    def _plain(self, raw):
        if raw in {v for v, _ in self.choices}:
            return raw
        raise ValueError(raw)

    def json_schema(self, ctx):
        values = [v for v, _ in self.choices]
        if self.parse is None:
            return {"enum": values}
        if self.pattern is not None:
            return {"type": "string", "pattern": self.pattern(), "examples": values}
        return {"type": "string", "maxLength": MAX_TEXT, "examples": values}

    def value_words(self, value, ctx):
        """The choice's words: the value as sent (``"♠"``), or as ``parse`` read it (``Suit.SPADES``)."""
        for v, words in self.choices:
            if v == value or (self.parse is not None and self._parsed(v) == value):
                return words
        return str(value)

    def _parsed(self, choice: str):
        try:
            return self.parse(choice)
        except (PaijuError, ValueError, TypeError, KeyError):
            return None


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
            return MISSING
        hi = bound(self.max_len, ctx) or ctx.seats
        if not self.min_len <= len(raw) <= hi:
            problems.add(InvalidInput(t("「{f}」列出了{n}个座位，应为{lo}到{hi}个", "“{f}” lists {n} seats; give "
                                        "{lo} to {hi}", f=label, n=len(raw), lo=self.min_len, hi=hi),
                                      field=path, code="out_of_range"))
            return MISSING
        seats, ok = [], True
        for i, item in enumerate(raw):
            where = t("{f}：{p}", "{f}, {p}", f=label, p=item_label(self.place_label, i))
            seat = read_seat(item, ctx, f"{path}[{i}]", where, problems)
            if seat is MISSING:
                ok = False
            elif seat in seats:
                problems.add(InvalidInput(t("{s}在「{f}」里出现了两次：每人只能出现一次",
                                            "{s} appears twice in “{f}”: each player appears once",
                                            s=ctx.seat_words(seat), f=label), field=f"{path}[{i}]",
                                          code="repeated_seat"))
                ok = False
            else:
                seats.append(seat)
        return seats if ok else MISSING

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
            return MISSING
        if len(raw) != ctx.seats:
            problems.add(InvalidInput(t("「{f}」有{k}个数：这些规则是{n}人玩，请每个座位填一个",
                                        "“{f}” has {k} numbers: these rules are for {n} players, give one per seat",
                                        f=label, k=len(raw), n=ctx.seats), field=path, code="wrong_length"))
            return MISSING
        plain = self._plain_numbers(raw, ctx)
        if plain is not None:
            return plain
        out, ok = [], True
        for i, item in enumerate(raw):
            if item is None:
                problems.add(MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=self.seat_label(i, label)),
                                            field=f"{path}[{i}]", code="missing_field"))
                value = MISSING
            else:
                value = self.read_item(item, i, ctx, f"{path}[{i}]", label, problems)
            ok = ok and value is not MISSING
            out.append(value)
        return out if ok else MISSING

    def _plain_numbers(self, raw, ctx) -> list[int] | None:
        """``raw`` as it is when every item is a JSON integer the item field takes (the usual case, and every
        stored hand a long edit settles again: no item is read alone); None when any needs reading."""
        lo, hi = self.item.bounds(ctx)
        step = self.item.step
        for item in raw:
            if type(item) is not int or (lo is not None and item < lo) or (hi is not None and item > hi) \
                    or item % step:
                return None
        return list(raw)

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
    #: the fields of a row a form offers one tap away (a rarer way to give the row); None: its optional cards
    tucked: tuple[str, ...] | None = None
    #: a row gives at least one of these fields (not null, not blank; its game's check says so when none is):
    #: stated in the JSON Schema
    needs_one_of: tuple[str, ...] = ()

    def tucked_fields(self) -> tuple[str, ...]:
        """The names of the fields a form tucks away in each row."""
        if self.tucked is not None:
            return self.tucked
        return tuple(f.name for f in self.fields if isinstance(f, CardsField) and not f.required)

    def read(self, raw, ctx, path, label, problems):
        if not isinstance(raw, (list, tuple)):
            problems.add(MalformedInput(t("「{f}」应为列表", "“{f}” must be a list", f=label), field=path,
                                        code="not_a_list"))
            return MISSING
        most = bound(self.max_rows, ctx)
        if most is not None and len(raw) > most:
            problems.add(InvalidInput(t("「{f}」有{n}行，最多{m}行", "“{f}” has {n} rows; at most {m}", f=label,
                                        n=len(raw), m=most), field=path, code="too_many"))
            return MISSING
        rows, ok = [], True
        for i, item in enumerate(raw):
            row = self.read_row(item, ctx, f"{path}[{i}]", item_label(self.row_label, i), problems)
            ok = ok and row is not MISSING
            rows.append(row)
        return tuple(rows) if ok else MISSING

    def read_row(self, item, ctx, path, label, problems):
        if not isinstance(item, Mapping):
            problems.add(MalformedInput(t("「{f}」应为对象", "“{f}” must be an object", f=label), field=path,
                                        code=self.row_code))
            return MISSING
        before = len(problems.items)
        row = Values()
        for f in self.fields:
            row[f.name] = f.read_in(item, ctx, path + ".", problems, label=in_row(label, f.label))
        if len(problems.items) > before:
            return MISSING
        problem = self.check_row(row, ctx, path, label) if self.check_row else None
        if problem is not None:
            problems.add(problem)
            return MISSING
        return row

    def json_schema(self, ctx):
        row = {"type": "object", "properties": {f.name: f.described(ctx) for f in self.fields},
               "required": [f.name for f in self.fields if f.required]}
        given = [f for f in self.fields if f.name in self.needs_one_of]
        if given:
            row["anyOf"] = [{"required": [f.name], "properties": {f.name: replace(f, required=True).json_schema(ctx)}}
                            for f in given]
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
        rows = [join([w for f in self.fields if (w := self._row_words(f, row.get(f.name), ctx)) is not None], " ", " ")
                for row in value]
        return t("{f}：{v}", "{f}: {v}", f=self.label, v=join(rows, "；", "; "))

    def _row_words(self, f: Field, value, ctx):
        """A row's field in words; its first field, a seat, by the player's name alone (炸弹：老王 7线, not
        炸弹：谁打的 老王)."""
        if isinstance(f, SeatField) and f is self.fields[0] and value is not None:
            return f.value_words(value, ctx)
        return f.words(value, ctx)
