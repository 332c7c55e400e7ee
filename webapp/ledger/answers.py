"""The ledger's reads as the API gives them (docs/api.md): a hand, a table (what a write returns: :mod:`.records`)."""
from __future__ import annotations

from datetime import UTC, datetime

from scoring.registry import get_game

from .cleaning import typed
from .db import db
from .models import LedgerHand, LedgerTable
from .paging import page_from
from .queries import TableRead, evenings_around, hand_count, hand_totals, last_hand, load_table, table_version
from .records import hand_fields
from .settling import carried_fields
from .shown import seat_names, shown_of
from .table_rules import own_rules


def hand_json(hand: LedgerHand, lang: str, table: LedgerTable, shown: dict | None = None, fields=()) -> dict:
    """A hand for the API: deltas per player of the table; the house rules it was settled with (its own, or the
    table's now: :mod:`.table_rules`); ``seats`` (beyond the contract) only for a hand played after the seats
    changed: the players its input's seats are.
    ``shown``: its result in ``lang`` when the caller has it already (:func:`.shown.shown_of`). ``fields``: the
    game's settle fields, whose whole numbers its input gives as integers (a hand a page's form recorded before
    inputs were stored typed holds them as text: :func:`.cleaning.typed`)."""
    players = table.players
    shown = shown if shown is not None else hand.shown(lang, players)
    deltas = list(hand.deltas) + [0] * (len(players) - len(hand.deltas))
    data = typed(fields, hand.input) if fields and isinstance(hand.input, dict) else hand.input
    return hand_fields(hand.number, data, deltas, own_rules(table, hand.rules), hand.seats, shown)


class TablePage:
    """One read of a table's hands (:mod:`.paging`): the hands read, and what the whole table adds up to, all at
    one version of it."""

    def __init__(self, read: TableRead, totals: list[int], count: int, following: int | None):
        self.read, self.totals, self.count, self.following = read, totals, count, following


def one_snapshot() -> None:
    """The read's statements from here on see the table at one moment: on PostgreSQL (which reads each statement at
    its own moment) one REPEATABLE READ transaction, begun here (a read has nothing to commit; the isolation goes
    with the connection back to the pool); SQLite's reads see one moment anyway (one writer at a time)."""
    if db.engine.dialect.name == "postgresql":
        db.session.commit()
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def read_page(table_id: str, first: int, limit: int, tries: int = 10) -> TablePage:
    """The hands from number ``first`` on that fit one read (at most ``limit``), the table's totals and its number
    of hands. Read in a few statements (PostgreSQL reads each at its own moment), so read again while a write
    changed the table in between: its version before the first statement and after the last one differ."""
    one_snapshot()
    for _ in range(tries):
        before = table_version(table_id)
        numbers, following = page_from(table_id, first, limit)
        read = load_table(table_id, numbers)
        page = TablePage(read, hand_totals(read.table.id, len(read.table.players)), hand_count(read.table.id),
                         following)
        if before == read.version == table_version(table_id):
            break
    return page


def table_json(page: TablePage, lang: str) -> dict:
    """The API's table (docs/api.md): the page's hands, the whole table's totals; ``hand_count`` and
    ``hands_next`` (the number to read on from, or None) say what the page holds of the whole."""
    read = page.read
    table, hands = read.table, read.hands
    shown = shown_of(table.id, [(h.number, h.changed_version) for h in hands], lang,
                     [seat_names(table.players, h.seating()) for h in hands])
    fields = get_game(table.game).settle_input.fields
    out = {"id": table.id, "game": table.game, "players": list(table.players), "rules": dict(table.rules),
           "version": read.version, "totals": page.totals, "hand_count": page.count, "hands_next": page.following,
           "hands": [hand_json(h, lang, table, result, fields) for h, result in zip(hands, shown)]}
    last = hands[-1] if hands and page.following is None else last_hand(table.id) if page.count else None
    out.update(carried_fields(table, last))
    out.update(evening_fields(table))
    return out


def evening_fields(table: LedgerTable) -> dict:
    """Where this evening stands among the circle's: its circle, the evenings before and after, its start."""
    previous, following = evenings_around(table)
    started = _utc(table.created_at).isoformat() if table.created_at else None
    return {"circle": table.circle_id, "previous": previous, "next": following, "started_at": started}


def _utc(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone: it was written in UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
