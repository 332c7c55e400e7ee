"""What this version can read of a stored table. A row written by another version (or by hand) may hold what
this one does not understand: a game or a house rule it dropped, a hand's input that is not an object,
deltas that are not numbers, a seat out of range, a time it cannot parse. Such a table is refused as a whole
with :class:`TableUnreadable` (its pages say so in words, show the hands that can be read with their totals and
offer the CSV; the API answers 409 ``table_unreadable``), so no page ever meets it half-way through.

The check reads every hand's few columns (not its result) once per table and process, then only the hands
written since (by ``changed_version``): a page view of an unchanged table costs a dictionary look-up, a
write what it changed (2,000 hands: about 60 ms the first time in a process, under 1 ms after a write)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import render_template
from sqlalchemy import select

from scoring.errors import PaijuError
from scoring.i18n import Text, join, t
from scoring.registry import SLUGS, get_game

from ..i18n import page_message
from .db import db
from .errors import TableError
from .models import MAX_PEOPLE, LedgerHand, LedgerTable

MEMO_TABLES = 512


@dataclass(frozen=True)
class StoredHand:
    """A stored hand as far as it can be read: its number, its deltas per player when they read as numbers
    (else None), and what is wrong with it (empty: nothing)."""
    number: int
    deltas: tuple[int, ...] | None
    problems: tuple[Text, ...]


class TableUnreadable(TableError):
    """The table holds what this version cannot read; ``hands`` is every hand as far as it could be read."""

    def __init__(self, table_id: str, problems: list[Text], hands: tuple[StoredHand, ...] = (),
                 players: list[str] | None = None):
        super().__init__(t("这张牌桌存的数据本版本读不了：{p}", "This version cannot read what this table stored: {p}",
                           p=join(problems, "；", "; ")), code="table_unreadable", field="id")
        self.table_id, self.problems, self.hands, self.players = table_id, problems, hands, players or []


def unreadable_page(exc: TableUnreadable, status: int = 409):
    """The page for a table this version cannot read: what it cannot read, the readable hands and their
    totals, and the CSV of everything stored."""
    players = exc.players
    readable = [h for h in exc.hands if h.deltas is not None and not h.problems]
    totals = [sum(h.deltas[i] for h in readable) for i in range(len(players))] if players else []
    return render_template("tables/unreadable.html", message=page_message(exc), table_id=exc.table_id,
                           hands=exc.hands, players=players, totals=totals), status


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _names(players: Any) -> list[str] | None:
    ok = isinstance(players, list) and 0 < len(players) <= MAX_PEOPLE and all(isinstance(p, str) for p in players)
    return players if ok else None


def table_problems(table: LedgerTable) -> list[Text]:
    """What cannot be read of the table's own row (its game, house rules and players)."""
    if table.game not in SLUGS:
        return [t("游戏「{g}」本版本没有", "the game “{g}” is not in this version", g=str(table.game)[:30])]
    problems = []
    game = get_game(table.game)
    try:
        if not isinstance(table.rules, dict):
            raise TypeError
        game.ruleset.resolve(table.rules)
    except (PaijuError, TypeError, ValueError, KeyError):
        problems.append(t("它的规则（{r}）本版本没有", "its house rules ({r}) are not in this version",
                          r=str(table.rules)[:80]))
    if _names(table.players) is None:
        problems.append(t("玩家名单读不出", "its list of players cannot be read"))
    return problems


def _hand_problems(row, players: int) -> tuple[tuple[int, ...] | None, list[Text]]:
    number, data, deltas, seats, created, updated = row
    problems = []
    if not isinstance(data, dict):
        problems.append(t("输入不是一个对象", "its input is not an object"))
    if not (isinstance(deltas, list) and all(_is_int(d) for d in deltas)):
        problems.append(t("得失分不是数", "its points are not numbers"))
        deltas = None
    elif len(deltas) > players:
        problems.append(t("得失分比玩家多", "it has points for more players than the table has"))
        deltas = None
    if seats is not None and not (isinstance(seats, list) and all(_is_int(s) and 0 <= s < players for s in seats)
                                  and len(set(seats)) == len(seats)):
        problems.append(t("座位超出了玩家名单", "its seats are outside the list of players"))
    if not isinstance(created, datetime) or not isinstance(updated, datetime):
        problems.append(t("时间读不出", "its time cannot be read"))
    return (tuple(deltas) + (0,) * (players - len(deltas)) if deltas is not None else None), problems


_memo: OrderedDict = OrderedDict()
_memo_lock = threading.Lock()


def stored_hands(table: LedgerTable) -> tuple[StoredHand, ...]:
    """Every hand of the table as far as it can be read. Kept per table: a new version reads only the hands
    written since (their ``changed_version``), so a write costs what it changed, not the table's length."""
    with _memo_lock:
        known = _memo.get(table.id)
        if known is not None:
            _memo.move_to_end(table.id)
    players = len(table.players) if _names(table.players) else MAX_PEOPLE
    if known is not None and known[0] == (table.version, players):
        return known[2]
    seen = known[1] if known is not None and known[0][1] == players else {}  # players changed: read all again
    versions = db.session.execute(select(LedgerHand.number, LedgerHand.changed_version)
                                  .where(LedgerHand.table_id == table.id).order_by(LedgerHand.number)).all()
    stale = [n for n, v in versions if n not in seen or seen[n][0] != v]
    fresh = _read(table.id, players, stale) if stale else {}
    by_number = {n: fresh[n] if n in fresh else seen[n] for n, _ in versions}
    hands = tuple(by_number[n][1] for n, _ in versions)
    with _memo_lock:
        _memo[table.id] = ((table.version, players), by_number, hands)
        while len(_memo) > MEMO_TABLES:
            _memo.popitem(last=False)
    return hands


def _read(table_id: str, players: int, numbers: list[int]) -> dict[int, tuple[int, StoredHand]]:
    out = {}
    for chunk in range(0, len(numbers), 500):
        rows = db.session.execute(
            select(LedgerHand.number, LedgerHand.input, LedgerHand.deltas, LedgerHand.seats,
                   LedgerHand.created_at, LedgerHand.updated_at, LedgerHand.changed_version)
            .where(LedgerHand.table_id == table_id, LedgerHand.number.in_(numbers[chunk:chunk + 500]))).all()
        for row in rows:
            deltas, problems = _hand_problems(row[:6], players)
            out[row[0]] = (row[6], StoredHand(row[0], deltas, tuple(problems)))
    return out


def check_readable(table: LedgerTable) -> None:
    """Refuse (:class:`TableUnreadable`) a table this version cannot read, naming what it cannot read."""
    hands = stored_hands(table)
    problems = table_problems(table)
    bad = [h for h in hands if h.problems]
    problems += [t("第{n}局：{p}", "hand {n}: {p}", n=h.number, p=join(h.problems)) for h in bad[:5]]
    if len(bad) > 5:
        problems.append(t("还有{k}局", "{k} more hands", k=len(bad) - 5))
    if problems:
        raise TableUnreadable(table.id, problems, hands, _names(table.players) or [])
