"""Reading the ledger: a table, its hands one query at a time (never the whole table on a write), and
the sums the pages draw, computed in SQL over the small columns."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import JSON, Integer, and_, case, false, func, literal, select, type_coerce
from sqlalchemy.orm import undefer

from .db import db
from .errors import forbidden, hand_not_found, not_found
from .integrity import check_readable
from .models import LedgerHand, LedgerTable
from .shown import seat_names, shown_of

WITH_RESULT = undefer(LedgerHand.result)  # the option of the reads that need the hands' results
#: the numbers a hand can have: its column is a 32-bit integer on PostgreSQL, while a URL takes any digits
HAND_NUMBERS = range(1, 2 ** 31)
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def valid_id(table_id: Any) -> bool:
    """Ids are token_urlsafe text; anything else is not looked up at all
    (PostgreSQL would reject a NUL byte with an error, not a miss)."""
    return isinstance(table_id, str) and 0 < len(table_id) <= 32 and set(table_id) <= _ID_CHARS


def find_table(table_id: Any) -> LedgerTable | None:
    if not valid_id(table_id):
        return None
    return db.session.get(LedgerTable, table_id)


def get_table(table_id: Any) -> LedgerTable:
    """The table, refused when it is not there or holds what this version cannot read (``.integrity``)."""
    table = find_table(table_id)
    if table is None:
        raise not_found(table_id)
    check_readable(table)
    return table


def check_token(table: LedgerTable, token: str | None) -> None:
    if not table.token_ok(token):
        raise forbidden()


def table_version(table_id: Any) -> int | None:
    """Just the version: the cheap question a polling viewer asks."""
    if not valid_id(table_id):
        return None
    return db.session.execute(select(LedgerTable.version).where(LedgerTable.id == table_id)).scalar()


class TableRead:
    """A table as one read saw it: its version and its hands from the same statement."""

    def __init__(self, table: LedgerTable, version: int, hands: list[LedgerHand]):
        self.table, self.version, self.hands = table, version, hands


def load_table(table_id: Any, numbers: list[int] | None = None) -> TableRead:
    """The table with its hands (those numbered from the first to the last of ``numbers`` only, when given); the
    version is read by the hands' own statement, so the two always agree (PostgreSQL reads each statement at its
    own moment). The table's other columns never change after it is opened, and they are decoded once, not once
    per hand."""
    table = get_table(table_id)
    joined = LedgerHand.table_id == LedgerTable.id
    if numbers is not None:
        joined = and_(joined, LedgerHand.number.between(numbers[0], numbers[-1])) if numbers else false()
    rows = db.session.execute(
        select(LedgerTable.version, LedgerHand).outerjoin(LedgerHand, joined)
        .where(LedgerTable.id == table.id).order_by(LedgerHand.number)
        .execution_options(populate_existing=True)).all()
    if not rows:
        raise not_found(table_id)  # deleted between the two statements
    return TableRead(table, rows[0][0], [hand for _, hand in rows if hand is not None])


def _seating(seats: list | None, deltas: list) -> list[int]:
    return list(seats) if seats is not None else list(range(len(deltas)))


def export_rows(table: LedgerTable, lang: str, numbers: list[int]) -> list[tuple[int, dict, list, list, list, Any]]:
    """(number, input, deltas per player, steps in ``lang``, the players in its seats, its stored rules: None for
    the table's now) of every hand numbered from the first to the last of ``numbers``."""
    if not numbers:
        return []
    rows = db.session.execute(
        select(LedgerHand.number, LedgerHand.input, LedgerHand.deltas, LedgerHand.changed_version, LedgerHand.seats,
               LedgerHand.rules)
        .where(LedgerHand.table_id == table.id, LedgerHand.number.between(numbers[0], numbers[-1]))
        .order_by(LedgerHand.number)).all()
    shown = shown_of(table.id, [(number, version) for number, _, _, version, _, _ in rows], lang,
                     [seat_names(table.players, _seating(seats, deltas)) for _, _, deltas, _, seats, _ in rows])
    players = len(table.players)
    return [(number, data, list(deltas) + [0] * (players - len(deltas)), list(result.get("steps") or []),
             _seating(seats, deltas), rules)
            for (number, data, deltas, _, seats, rules), result in zip(rows, shown)]


# --- one hand, or a few -----------------------------------------------------------

def _hands_of(table_id: str):
    return select(LedgerHand).where(LedgerHand.table_id == table_id)


def last_hand(table_id: str) -> LedgerHand | None:
    """The last hand, its result read (what the next hand carries from it)."""
    return db.session.execute(_hands_of(table_id).options(WITH_RESULT)
                              .order_by(LedgerHand.number.desc()).limit(1)).scalar()


def hand_numbered(table_id: str, number: int) -> LedgerHand:
    if number not in HAND_NUMBERS:
        raise hand_not_found(number)
    hand = db.session.execute(_hands_of(table_id).where(LedgerHand.number == number)).scalar()
    if hand is None:
        raise hand_not_found(number)
    return hand


def hand_before(table_id: str, number: int) -> LedgerHand | None:
    return db.session.execute(_hands_of(table_id).options(WITH_RESULT).where(LedgerHand.number < number)
                              .order_by(LedgerHand.number.desc()).limit(1)).scalar()


class LaterHand:
    """A hand after an edited one, as a re-settle reads it: its small columns (its own rules among them), what it
    started from and ended with for each carried field (``<field>_before`` and ``<field>``, read out of the stored
    result in SQL: the result itself is not decoded) and whether it ended a series."""

    __slots__ = ("id", "number", "input", "deltas", "seats", "rules", "ends_series", "before", "ended")

    def __init__(self, row, keys: tuple[str, ...]):
        self.id, self.number, self.input, self.deltas, self.seats, self.rules, self.ends_series = row[:7]
        self.before = dict(zip(keys, row[7:7 + len(keys)]))
        self.ended = dict(zip(keys, row[7 + len(keys):]))

    def seating(self) -> list[int]:
        return _seating(self.seats, self.deltas or [])


def _stored_value(key: str, boolean: bool = False):
    """SQL for one value of a hand's stored result (NULL when it has none), as JSON or ``boolean``. SQLite keeps
    JSON as text, which another program may have left malformed: there it is read only from valid JSON
    (``json_extract`` would fail the whole query); on PostgreSQL a boolean only from a JSON true or false."""
    value = LedgerHand.result[key].as_boolean() if boolean else type_coerce(LedgerHand.result[key], JSON())
    if db.session.get_bind().dialect.name == "sqlite":
        return type_coerce(case((func.json_valid(LedgerHand.result) == 1, value), else_=None), value.type)
    if boolean:  # PostgreSQL: a stored value that is not true or false would fail the cast, and the query
        return case((func.json_typeof(LedgerHand.result[key]) == "boolean", value), else_=None)
    return value


def hands_after(table_id: str, number: int, carried: tuple[str, ...], batch: int = 8) -> Iterator[LaterHand]:
    """The hands after hand ``number`` in order (:class:`LaterHand`), a few at a time, eight times as many each
    time (an early stop, the usual case, reads few; a long edit reads 300 hands in three queries, each of which
    costs more than decoding a hundred rows)."""
    columns = [LedgerHand.id, LedgerHand.number, LedgerHand.input, LedgerHand.deltas, LedgerHand.seats,
               LedgerHand.rules, LedgerHand.ends_series, *(_stored_value(f"{key}_before") for key in carried),
               *(_stored_value(key) for key in carried)]
    while True:
        rows = db.session.execute(select(*columns).where(LedgerHand.table_id == table_id, LedgerHand.number > number)
                                  .order_by(LedgerHand.number).limit(batch)).all()
        yield from (LaterHand(row, carried) for row in rows)
        if len(rows) < batch:
            return
        number, batch = rows[-1][1], min(batch * 8, 512)


def hands_numbered(table_id: str, numbers: list[int]) -> list[LedgerHand]:
    """The hands with these numbers, in order (their results read when shown: :func:`.shown.shown_of`)."""
    if not numbers:
        return []
    return list(db.session.execute(_hands_of(table_id).where(LedgerHand.number.in_(numbers))
                                   .order_by(LedgerHand.number)).scalars())


# --- the small columns of every hand ------------------------------------------------

def hand_count(table_id: str) -> int:
    return db.session.execute(select(func.count()).select_from(LedgerHand)
                              .where(LedgerHand.table_id == table_id)).scalar() or 0


def hand_facts(table_id: str, inputs: bool = True) -> list[tuple[int, dict, list, dict, list[int], Any]]:
    """(number, input, deltas, {"made": …}, the players in its seats, its stored rules: None for the table's now)
    of every hand, in order: what the evening's statistics read, the one fact of the result they need read in
    SQL (no step is decoded). ``inputs`` False: neither the input nor the result is read (``{}`` and None), for
    statistics that need neither (a game without a 庄家: a large hand's result is most of its row, and SQL would
    parse every one of them for ``made``)."""
    wanted = (LedgerHand.input, _stored_value("made", boolean=True)) if inputs else (literal(None), literal(None))
    rows = db.session.execute(select(LedgerHand.number, wanted[0], LedgerHand.deltas, wanted[1], LedgerHand.seats,
                                     LedgerHand.rules)
                              .where(LedgerHand.table_id == table_id).order_by(LedgerHand.number)).all()
    if not inputs:
        rows = [(number, {}, *rest) for number, _, *rest in rows]
    return [(number, data, deltas, {"made": made}, _seating(seats, deltas), rules)
            for number, data, deltas, made, seats, rules in rows]


def evenings_facts(table_ids: list[str], inputs: bool = True, made: bool = True) -> dict[str, list[tuple]]:
    """:func:`hand_facts` of several tables (a circle's evenings) in one query, by table id; without ``inputs``
    every hand's input reads as ``{}``, without ``made`` its 'made' as None (neither is read)."""
    out: dict[str, list[tuple]] = {table_id: [] for table_id in table_ids}
    if not table_ids:
        return out
    rows = db.session.execute(select(LedgerHand.table_id, LedgerHand.number,
                                     LedgerHand.input if inputs else literal(None), LedgerHand.deltas,
                                     _stored_value("made", boolean=True) if made else literal(None),
                                     LedgerHand.seats, LedgerHand.rules)
                              .where(LedgerHand.table_id.in_(table_ids))
                              .order_by(LedgerHand.table_id, LedgerHand.number)).all()
    for table_id, number, data, deltas, was_made, seats, rules in rows:
        out[table_id].append((number, data if inputs else {}, deltas, {"made": was_made}, _seating(seats, deltas),
                              rules))
    return out


def _seat_delta(seat: int):
    """A hand's delta for ``seat`` as SQL (0 where the hand has no such seat)."""
    return func.coalesce(LedgerHand.deltas[seat].as_integer(), 0)


def hand_totals(table_id: str, seats: int, before: int | None = None) -> list[int]:
    """Every seat's total (of the hands before hand ``before`` only, when given), summed in SQL from the deltas
    column alone (no hand is decoded here)."""
    sums = [func.coalesce(func.sum(_seat_delta(seat)), 0) for seat in range(seats)]
    query = select(*sums).where(LedgerHand.table_id == table_id)
    if before is not None:
        query = query.where(LedgerHand.number < before)
    return [int(v) for v in db.session.execute(query).one()]


def running_totals(table_id: str, seats: int, step: int, count: int, numbers: list[int]) -> list[tuple]:
    """(ordinal, number, the seats' totals after it, how many series ended before it) of every ``step``-th
    hand, the last one and the hands ``numbers``: window sums in SQL over the small columns, so only the
    rows a page draws come back to Python (the chart's points and the shown hands' running totals)."""
    ordered = {"order_by": LedgerHand.number}
    ended = func.cast(LedgerHand.ends_series, Integer)
    inner = select(func.row_number().over(**ordered).label("ordinal"), LedgerHand.number,
                   (func.sum(ended).over(**ordered) - ended).label("ended"),
                   *[func.sum(_seat_delta(seat)).over(**ordered).label(f"s{seat}") for seat in range(seats)]
                   ).where(LedgerHand.table_id == table_id).subquery()
    wanted = (inner.c.ordinal % step == 0) | (inner.c.ordinal == count)
    if numbers:
        wanted = wanted | inner.c.number.in_(numbers)
    rows = db.session.execute(select(inner).where(wanted).order_by(inner.c.ordinal)).all()
    return [(row[0], row[1], [int(v) for v in row[3:]], int(row[2])) for row in rows]


def number_range(table_id: str) -> tuple[int | None, int | None]:
    """The first and the last hand's numbers (None, None without hands)."""
    first, last = db.session.execute(select(func.min(LedgerHand.number), func.max(LedgerHand.number))
                                     .where(LedgerHand.table_id == table_id)).one()
    return first, last


def changed_since(table_id: str, version: int) -> list[int]:
    """The numbers of the hands written after table ``version`` (new, edited or settled again)."""
    return list(db.session.execute(select(LedgerHand.number).where(LedgerHand.table_id == table_id,
                                                                  LedgerHand.changed_version > version)
                                   .order_by(LedgerHand.number)).scalars())


def next_of(table_id: str) -> str | None:
    """The id of the evening played after this one (the latest, should there be two), or None."""
    return db.session.execute(select(LedgerTable.id).where(LedgerTable.previous_id == table_id)
                              .order_by(LedgerTable.created_at.desc()).limit(1)).scalar_one_or_none()


def evening_count(circle_id: str) -> int:
    """How many evenings the circle has (a table from before circles were stored is a circle of its own)."""
    return db.session.execute(select(func.count()).select_from(LedgerTable).where(
        (LedgerTable.circle == circle_id) | ((LedgerTable.id == circle_id) & LedgerTable.circle.is_(None)))).scalar() or 0


def evenings_around(table: LedgerTable) -> tuple[str | None, str | None]:
    """The ids of the evening before this one (if it is still there) and of the evening after it."""
    previous = table.previous_id
    if previous is not None and db.session.get(LedgerTable, previous) is None:
        previous = None
    return previous, next_of(table.id)
