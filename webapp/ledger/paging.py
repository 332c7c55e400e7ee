"""A table's hands in pages that fit (issue 38 item 7, docs/api.md "Reads have a bound"): every read without a
token answers within 2 MB and 0.2 s of CPU however large the table.

What a hand costs to answer grows with what it stores: its input and its result (the steps, in no language),
rendered in the reader's language. A page holds consecutive hands whose stored input and result add up to at most
:data:`PAGE_WEIGHT` characters, measured in SQL (no hand is decoded to choose them), and always at least one hand.
A stored result renders to less than it stores (both languages are stored, one is shown): the largest Q783 hand
stores about 105,000 characters and answers about 58 KB; ordinary hands store about 5,000, so 300 of them read
whole."""
from __future__ import annotations

from flask import request
from sqlalchemy import Text, cast, func, select

from scoring.errors import PaijuError
from scoring.inputs.reading import as_int

from .db import db
from .models import LedgerHand

#: the stored characters (input and result) of the hands one read answers at most
PAGE_WEIGHT = 2_000_000
#: the query parameters of a read's page
PAGE_ARGS = ("hands_from", "hands_limit")
#: the largest ``hands_from`` read (a whole number as a query reads it has at most nine digits; a number past a table's
#: last hand answers no hand)
LAST_FROM = 10 ** 9 - 1
#: the most hands a table has (``service.MAX_HANDS``): the largest ``hands_limit``
MOST_HANDS = 2000


def _weight():
    """A hand's stored input and result, in characters, as SQL."""
    return (func.coalesce(func.length(cast(LedgerHand.input, Text)), 0)
            + func.coalesce(func.length(cast(LedgerHand.result, Text)), 0))


def within(rows, budget: int) -> list[int]:
    """The numbers of the leading ``rows`` (number, weight) whose weights add up to at most ``budget`` (the first
    one always)."""
    numbers, spent = [], 0
    for number, weight in rows:
        spent += weight or 0
        if numbers and spent > budget:
            break
        numbers.append(number)
    return numbers


def _weighed(query, limit: int, budget: int, batch: int = 32) -> list:
    """(number, weight) of the leading rows of ``query`` (ordered by number; ``after`` reads on) until their
    weights pass ``budget`` or ``limit`` + 1 rows are read: a few at a time, eight times as many each time, so a
    page of large hands measures few more than it holds (each weight reads the whole stored row)."""
    rows, spent = [], 0
    while len(rows) <= limit and spent <= budget:
        more = db.session.execute(query(rows[-1][0] if rows else None).limit(min(batch, limit + 1 - len(rows)))).all()
        rows += more
        spent += sum(weight or 0 for _, weight in more)
        if len(more) < batch:
            break
        batch = min(batch * 8, 1024)
    return rows


def page_from(table_id: str, first: int, limit: int, budget: int = PAGE_WEIGHT) -> tuple[list[int], int | None]:
    """The numbers of the hands from number ``first`` on that one read answers (at most ``limit``, within
    ``budget``), and the number to read on from (None: no hand is left)."""
    def query(after: int | None):
        return (select(LedgerHand.number, _weight())
                .where(LedgerHand.table_id == table_id, LedgerHand.number >= first if after is None
                       else LedgerHand.number > after).order_by(LedgerHand.number))
    rows = _weighed(query, limit, budget)
    numbers = within(rows[:limit], budget)
    following = rows[len(numbers)][0] if len(rows) > len(numbers) else None
    return numbers, following


def latest_within(table_id: str, limit: int, before: int | None = None, budget: int = PAGE_WEIGHT) -> list[int]:
    """The numbers of the last hands (before hand ``before``), at most ``limit`` and within ``budget``, in order:
    the hands a table page shows (the older ones are a link away)."""
    def query(after: int | None):
        bound = before if after is None else after
        chosen = select(LedgerHand.number, _weight()).where(LedgerHand.table_id == table_id)
        return chosen.where(LedgerHand.number < bound) if bound is not None else chosen
    rows = _weighed(lambda after: query(after).order_by(LedgerHand.number.desc()), limit - 1, budget)
    return sorted(within(rows[:limit], budget))


def query_number(name: str, lo: int, hi: int) -> int | None:
    """A whole-number query parameter from ``lo`` to ``hi`` (absent: None); anything else is a 400 naming it."""
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        return as_int(raw, name, lo, hi)
    except PaijuError as exc:
        raise exc.replaced(status=400) from None


def asked_page() -> tuple[int, int]:
    """``hands_from`` (the first hand's number; default: the first hand) and ``hands_limit`` (default: every
    hand) of a read."""
    first = query_number("hands_from", 1, LAST_FROM)
    limit = query_number("hands_limit", 1, MOST_HANDS)
    return first or 1, limit or MOST_HANDS
