"""The table ledger's data: a table (game, seats, house rules) and its hands.

A hand keeps the settle input as entered and the engine's result, stored once
in no language: its texts (the steps) as plain JSON (``scoring.i18n.to_json``),
rendered in the reader's language when a page, the API or a CSV shows the hand
(:func:`shown_of`, memoized per hand and language in :data:`SHOWN`). The table
keeps its totals (``kept_totals``), changed by every write in the same locked
transaction that changes a hand's deltas (:func:`set_result`, :func:`_remove`),
so recording a hand does not read the others; tests check they always equal the
sum of the stored deltas.
"""
from __future__ import annotations

import contextvars
import hashlib
import hmac
import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

from flask import current_app
from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint, delete, func,
                        inspect, select)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, mapped_column, relationship, undefer

from scoring.errors import InvalidInput, MalformedInput, PaijuError
from scoring.i18n import Text, render_json, t, to_json
from scoring.inputs import Problems, read_text, shown, strict_int
from scoring.inputs import RowsField
from scoring.registry import SLUGS, get_game

from .db import begin_write, db


def _now() -> datetime:
    return datetime.now(timezone.utc)


def new_table_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits, 22 characters


def new_edit_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits, 32 characters


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class LedgerTable(db.Model):
    __tablename__ = "ledger_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(20))
    players: Mapped[list] = mapped_column(JSON)
    rules: Mapped[dict] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # the hand the last undo took, {"number", "input"}, until it is redone or a new hand is recorded
    undone: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # the version of the last change a live poll cannot send as changed hands (a hand deleted)
    reset_version: Mapped[int] = mapped_column(Integer, default=0)
    # the sum of the hands' deltas per seat (None: not kept yet, a table from before migration 0003)
    kept_totals: Mapped[list | None] = mapped_column(JSON, nullable=True)
    # who sits where for the next hands: indexes into ``players`` in seat order (None: every player, in order).
    # ``players`` is everyone who played at this table (a player who left keeps a name and a total).
    seated: Mapped[list | None] = mapped_column(JSON, nullable=True)

    hands: Mapped[list["LedgerHand"]] = relationship(
        back_populates="table", order_by="LedgerHand.number", cascade="all, delete-orphan",
        passive_deletes=True)

    def token_ok(self, token: str | None) -> bool:
        """Constant-time check of an edit token (only its SHA-256 is stored)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return False
        return hmac.compare_digest(token_digest(token), self.token_hash)

    def totals(self, hands) -> list[int]:
        totals = [0] * len(self.players)
        for hand in hands:
            for seat, d in enumerate(hand.deltas[:len(totals)]):
                totals[seat] += d
        return totals

    def touch(self) -> None:
        self.version = self.version + 1
        self.updated_at = _now()

    def reset(self) -> None:
        """This change takes a hand away: a live view reads the hands it shows again."""
        self.reset_version = self.version

    def add_to_totals(self, deltas: list[int] | None, sign: int = 1) -> None:
        """``deltas`` are per player (a hand's are; see :func:`per_player`)."""
        kept = list(self.kept_totals or [])
        kept += [0] * (len(self.players) - len(kept))
        for player, d in enumerate((deltas or [])[:len(kept)]):
            kept[player] += sign * d
        self.kept_totals = kept

    def seating(self) -> list[int]:
        """The players (indexes) in seat order for the next hand."""
        return list(self.seated) if self.seated is not None else list(range(len(self.players)))

    def names_of(self, seats: list[int]) -> list[str]:
        return [self.players[i] for i in seats]


class LedgerHand(db.Model):
    __tablename__ = "ledger_hands"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_ledger_hands_table_number"),
                      Index("ix_ledger_hands_table_changed", "table_id", "changed_version"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("ledger_tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    input: Mapped[dict] = mapped_column(JSON)
    deltas: Mapped[list] = mapped_column(JSON)
    # the engine's result without deltas, its texts in no language (scoring.i18n.to_json; migration 0004).
    # Read only when needed (its JSON is most of a row): the writes read it with the hands they carry from
    # (:data:`WITH_RESULT`), a reader when a hand's rendering is not memoized yet (:func:`shown_of`).
    result: Mapped[dict] = mapped_column(JSON, deferred=True)
    # whether this hand ends a series (Q783: a 大局), so pages number series without reading every result
    ends_series: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    edited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # its input
    # the table version that last wrote this hand's input (an edit's conflict check), and its result too
    # (what a live poll sends again)
    input_version: Mapped[int] = mapped_column(Integer, default=0)
    changed_version: Mapped[int] = mapped_column(Integer, default=0)
    # the players in this hand's seats (indexes into the table's players; None: all of them, in order).
    # ``deltas`` are per player (0 for one who did not play this hand), so totals sum them by index.
    seats: Mapped[list | None] = mapped_column(JSON, nullable=True)

    table: Mapped[LedgerTable] = relationship(back_populates="hands")

    def shown(self, lang: str) -> dict:
        """The engine's result in one language (steps and any extra fields); a copy."""
        if "result" in inspect(self).unloaded:
            return shown_of(self.table_id, [(self.number, self.changed_version)], lang)[0]
        key, writing = (self.table_id, self.number, self.changed_version, lang), _WRITING.get()
        found = None if writing else SHOWN.find(key)
        if found is None:
            found = render_json(self.result or {}, lang)
            if not writing:
                SHOWN.put(key, found)
        return dict(found)

    def seating(self) -> list[int]:
        """The players (indexes) in this hand's seats, in seat order; its input's seat numbers are these."""
        return list(self.seats) if self.seats is not None else list(range(len(self.deltas or [])))

    def carried_in(self, key: str) -> Any:
        """What this hand was settled with for a carried field (Q783: ``banks_before``)."""
        return (self.result or {}).get(f"{key}_before")


class ShownMemo:
    """Stored results rendered in one language, by (table, hand number, the table version that wrote the
    result, language): a result stored under a version never changes (every rewrite is at a newer
    version), so an entry is never stale; past ``size`` entries the least recently used go."""

    def __init__(self, size: int):
        self.size, self.entries, self.lock = size, OrderedDict(), threading.Lock()

    def find(self, key: tuple) -> dict | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple, shown: dict) -> None:
        with self.lock:
            self.entries[key] = shown
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


SHOWN = ShownMemo(4000)  # a table at its hand limit in both languages (some 7 MB)
# set within a write (:func:`write`): a result read there may be one the transaction wrote and may yet roll
# back, so nothing is memoized (outside a write every result read is committed)
_WRITING = contextvars.ContextVar("paiju_ledger_writing", default=False)
WITH_RESULT = undefer(LedgerHand.result)  # the option of the reads that need the hands' results


def shown_of(table_id: str, hands: list[tuple[int, int]], lang: str, batch: int = 100) -> list[dict]:
    """The results in ``lang`` of a table's ``hands`` (number, the version that wrote its result), in that
    order: from the memo, the others read (a batch per statement, each with the version that wrote it, so
    nothing is memoized under another version), rendered and memoized (outside a write)."""
    writing = _WRITING.get()
    found = [None if writing else SHOWN.find((table_id, number, version, lang)) for number, version in hands]
    missing = [number for (number, _), shown in zip(hands, found) if shown is None]
    fresh = {}
    for start in range(0, len(missing), batch):
        rows = db.session.execute(select(LedgerHand.number, LedgerHand.changed_version, LedgerHand.result)
                                  .where(LedgerHand.table_id == table_id,
                                         LedgerHand.number.in_(missing[start:start + batch]))).all()
        for number, version, result in rows:
            fresh[number] = render_json(result or {}, lang)
            if not writing:
                SHOWN.put((table_id, number, version, lang), fresh[number])
    # a hand gone since it was listed (PostgreSQL reads each statement at its own moment) shows nothing
    return [dict(shown if shown is not None else fresh.get(number, {})) for (number, _), shown in zip(hands, found)]


class LedgerIdempotency(db.Model):
    """The first answer to a ``POST …/hands`` that carried an ``Idempotency-Key``."""
    __tablename__ = "ledger_idempotency"
    __table_args__ = (UniqueConstraint("table_id", "key", name="uq_ledger_idempotency_table_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("ledger_tables.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(128))
    status: Mapped[int] = mapped_column(Integer)
    answer: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


# ---------------------------------------------------------------------------
# The ledger's operations (used by the JSON API and by the pages alike)
# ---------------------------------------------------------------------------


MIN_SEATS, MAX_SEATS = 3, 6
MAX_NAME = 16
# how many seats a game's rules play with comes from the engine (Game.seat_range)
WRITE_ATTEMPTS = 8


class TableError(PaijuError):
    """A ledger error with its own HTTP status (404, 403, 409, 503, …)."""

    def __init__(self, message: Text, *, status: int, code: str, field: str | None = None, **extra: Any):
        super().__init__(message, field=field, code=code)
        self.status = status
        self.extra = extra


def not_found(table_id: str) -> TableError:
    return TableError(t("没有这张牌桌（编号「{id}」）", "there is no table “{id}”", id=str(table_id)[:40]),
                      status=404, code="table_not_found", field="id")


def forbidden() -> TableError:
    return TableError(t("只有持编辑链接的人才能修改这张牌桌（编辑令牌缺失或不对）",
                        "only the holder of the edit link can change this table (the edit token is "
                        "missing or wrong)"), status=403, code="forbidden", field="token")


def stale(current: int, given: int) -> TableError:
    return TableError(t("这张牌桌刚被别人改过（你看到的是第{g}版，现在是第{v}版），没有保存；请刷新后再改",
                        "someone changed this table since you loaded it (you had version {g}, it is now "
                        "version {v}); nothing was saved: reload and try again", g=given, v=current),
                      status=409, code="stale_version", field="version", version=current)


def hand_not_found(number: Any) -> TableError:
    return TableError(t("这张牌桌没有第{n}局", "this table has no hand {n}", n=str(number)[:20]),
                      status=404, code="hand_not_found", field="number")


def busy() -> TableError:
    return TableError(t("同时提交的人太多，请再试一次", "too many changes at once; please try again"),
                      status=503, code="busy")


MAX_HANDS = 2000  # hands per table (config LEDGER_MAX_HANDS)
IDEMPOTENCY_TTL = timedelta(days=1)
MAX_DEPTH = 12  # nesting of a hand's input (a row of rounds is 3 deep)


def max_hands() -> int:
    return int(current_app.config.get("LEDGER_MAX_HANDS") or MAX_HANDS)


def table_full(limit: int) -> TableError:
    return TableError(t("这张牌桌已记满{n}局，不能再记了；请开一张新牌桌接着记",
                        "this table holds its limit of {n} hands and takes no more; open a new table to go on",
                        n=limit), status=422, code="too_many_hands", field=None, limit=limit)


# --- what may be stored ----------------------------------------------------

def _label(game, path: str) -> Text:
    label = game.settle_input.label_of(path) if game is not None else None
    return label or t("「{p}」", "“{p}”", p=path)


def _check_text(text: str, path: str, label: Text) -> None:
    problems = Problems()
    read_text(text, path, label, problems)
    problems.raise_any()


def check_storable(value: Any, field: str, game=None) -> None:
    """Refuse what could not be stored and served back as JSON: text that is not valid Unicode or holds
    control characters, numbers that are not finite (NaN, Infinity, 1e400), nesting deeper than MAX_DEPTH."""
    stack = [(value, field, 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise MalformedInput(t("「{f}」嵌套太深", "“{f}” is nested too deeply", f=_label(game, field)),
                                 field=field, code="too_deep")
        if isinstance(item, float) and not math.isfinite(item):
            raise MalformedInput(t("「{f}」应为有限的数", "“{f}” must be a finite number", f=_label(game, path)),
                                 field=path, code="not_finite")
        if isinstance(item, str):
            _check_text(item, path, _label(game, path))
        elif isinstance(item, Mapping):
            for key, sub in item.items():
                _check_text(str(key), path, _label(game, path))
                stack.append((sub, f"{path}.{key}", depth + 1))
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, f"{path}[{i}]", depth + 1) for i, sub in enumerate(item))


# --- reading -------------------------------------------------------------

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
    table = find_table(table_id)
    if table is None:
        raise not_found(table_id)
    return table


class TableRead:
    """A table as one read saw it: its version and its hands from the same statement."""

    def __init__(self, table: LedgerTable, version: int, hands: list["LedgerHand"]):
        self.table, self.version, self.hands = table, version, hands


def load_table(table_id: Any) -> TableRead:
    """The table with its hands; the version is read by the hands' own statement, so the two always
    agree (PostgreSQL reads each statement at its own moment). The table's other columns never change
    after it is opened, and they are decoded once, not once per hand."""
    table = get_table(table_id)
    rows = db.session.execute(
        select(LedgerTable.version, LedgerHand).outerjoin(LedgerHand, LedgerHand.table_id == LedgerTable.id)
        .where(LedgerTable.id == table.id).order_by(LedgerHand.number)
        .execution_options(populate_existing=True)).all()
    if not rows:
        raise not_found(table_id)  # deleted between the two statements
    return TableRead(table, rows[0][0], [hand for _, hand in rows if hand is not None])


def export_rows(table: LedgerTable, lang: str) -> list[tuple[int, dict, list, list, list]]:
    """(number, input, deltas per player, steps in ``lang``, the players in its seats) of every hand."""
    rows = db.session.execute(
        select(LedgerHand.number, LedgerHand.input, LedgerHand.deltas, LedgerHand.changed_version, LedgerHand.seats)
        .where(LedgerHand.table_id == table.id).order_by(LedgerHand.number)).all()
    shown = shown_of(table.id, [(number, version) for number, _, _, version, _ in rows], lang)
    players = len(table.players)
    return [(number, data, list(deltas) + [0] * (players - len(deltas)), list(result.get("steps") or []),
             list(seats) if seats is not None else list(range(len(deltas))))
            for (number, data, deltas, _, seats), result in zip(rows, shown)]


def table_version(table_id: Any) -> int | None:
    """Just the version: the cheap question a polling viewer asks."""
    if not valid_id(table_id):
        return None
    return db.session.execute(select(LedgerTable.version).where(LedgerTable.id == table_id)).scalar()


def check_token(table: LedgerTable, token: str | None) -> None:
    if not table.token_ok(token):
        raise forbidden()


def carried_input(game, hand: "LedgerHand | None", seats: list[int] | None = None) -> dict | None:
    """What the next hand, played by ``seats`` (player indexes in seat order), takes from ``hand`` (Q783:
    its banks, each player's bank following the player to a new seat), or None (a fresh start: also
    when the players are not the same ones)."""
    if hand is None or not game.carries_state:
        return None
    carried = game.carried(hand.result or {})
    if carried is None or seats is None:
        return carried
    before = hand.seating()
    if sorted(before) != sorted(seats):
        return None
    return {key: [dict(zip(before, value))[p] for p in seats] if isinstance(value, list) else value
            for key, value in carried.items()}


def table_carried(table: LedgerTable) -> dict | None:
    """What the table's next hand takes from its last one."""
    return carried_input(get_game(table.game), last_hand(table.id), table.seating())


def table_banks(table: LedgerTable) -> list | None:
    """The carried banks (Q783), for the table's answers."""
    return (table_carried(table) or {}).get("banks")


def hand_json(hand: LedgerHand, lang: str, players: int, shown: dict | None = None) -> dict:
    """A hand for the API: deltas per player of the table (``players`` of them); ``seats`` (beyond the
    contract) only for a hand played after the seats changed: the players its input's seats are.
    ``shown``: its result in ``lang`` when the caller has it already (:func:`shown_of`)."""
    shown = dict(shown) if shown is not None else hand.shown(lang)
    deltas = list(hand.deltas) + [0] * (players - len(hand.deltas))
    out = {"number": hand.number, "input": hand.input, "deltas": deltas, "steps": list(shown.pop("steps", []))}
    if hand.seats is not None:
        out["seats"] = list(hand.seats)
    out.update(shown)
    return out


def table_json(read: TableRead, lang: str) -> dict:
    table, hands = read.table, read.hands
    shown = shown_of(table.id, [(h.number, h.changed_version) for h in hands], lang)
    out = {"id": table.id, "game": table.game, "players": list(table.players), "rules": dict(table.rules),
           "version": read.version, "totals": table.totals(hands),
           "hands": [hand_json(h, lang, len(table.players), result) for h, result in zip(hands, shown)]}
    _add_carried(out, table, hands[-1] if hands else None)
    return out


def _add_carried(out: dict, table: LedgerTable, last: "LedgerHand | None") -> None:
    """The carried fields (Q783: ``banks``) the table's next hand takes from its ``last`` hand."""
    game = get_game(table.game)
    carried = carried_input(game, last, table.seating()) or {}
    for key in game.carried_fields:
        out[key] = carried.get(key)


# --- validating ----------------------------------------------------------

def _game(slug: Any):
    if not isinstance(slug, str) or slug not in SLUGS:
        raise MalformedInput(t("没有「{g}」这个游戏，可选：{valid}", "there is no game “{g}”; allowed: {valid}",
                               g=shown(slug, 30), valid=" / ".join(SLUGS)), field="game", code="unknown_game")
    return get_game(slug)


def clean_players(players: Any, game_slug: str | None = None, rules: Any = None) -> list[str]:
    if not isinstance(players, (list, tuple)):
        raise MalformedInput(t("「players」应为玩家名字的列表", "“players” must be a list of names"),
                             field="players", code="not_a_list")
    names = []
    for i, name in enumerate(players):
        names.append(clean_name(name, i, names))
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise InvalidInput(t("一张牌桌要{lo}到{hi}个玩家，这里有{n}个",
                             "a table needs {lo} to {hi} players; got {n}", lo=MIN_SEATS, hi=MAX_SEATS,
                             n=len(names)), field="players", code="seat_count")
    game = get_game(game_slug) if game_slug else None
    if game is not None:
        lo, hi = game.seat_range(rules)
        if not lo <= len(names) <= hi:
            need = str(lo) if lo == hi else f"{lo}–{hi}"
            fix = game.seat_count_fix(len(names), rules)
            raise InvalidInput(t("「{g}」按这些规则要{k}个玩家，这里有{n}个{fix}",
                                 "“{g}” with these rules is played by {k} players; got {n}{fix}",
                                 g=game.name, k=need, n=len(names),
                                 fix=t("：{f}", ": {f}", f=fix) if fix else ""), field="players", code="seat_count")
    return names


def clean_name(name: Any, i: int, taken: list[str], field: str | None = None) -> str:
    """Player ``i``'s name, spaces folded, checked: text, not empty, at most MAX_NAME characters, none of
    the ``taken`` names."""
    field = field or f"players[{i}]"
    if not isinstance(name, str):
        raise MalformedInput(t("第{n}个玩家的名字应为文字", "player {n}'s name must be text", n=i + 1),
                             field=field, code="not_a_string")
    _check_text(name, field, t("第{n}个玩家的名字", "player {n}'s name", n=i + 1))
    name = " ".join(name.split())
    if not name:
        raise InvalidInput(t("第{n}个玩家的名字是空的", "player {n}'s name is empty", n=i + 1),
                           field=field, code="empty_name")
    if len(name) > MAX_NAME or any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in name):
        raise InvalidInput(t("名字「{v}」太长或含控制字符（最多{m}个字）",
                             "the name “{v}” is too long or has control characters (at most {m})",
                             v=shown(name, MAX_NAME), m=MAX_NAME), field=field, code="bad_name")
    if name in taken:
        raise InvalidInput(t("名字「{v}」重复了，每个座位要不同的名字",
                             "the name “{v}” appears twice; every seat needs its own name", v=name),
                           field=field, code="duplicate_name")
    return name


def clean_input(game, payload: Any) -> dict:
    """A hand's settle input as the ledger stores it: the game's declared fields only (rows too),
    every value storable (:func:`check_storable`)."""
    if not isinstance(payload, Mapping):
        raise MalformedInput(t("这一局的输入应为 JSON 对象", "a hand's input must be a JSON object"),
                             field="input", code="malformed_input")
    if "rules" in payload and payload["rules"] not in (None, {}):
        raise MalformedInput(t("牌桌的规则在开桌时已定，这一局的输入里不能再给 rules",
                               "the table's house rules were fixed when it was opened; a hand's input "
                               "cannot carry “rules”"), field="rules", code="rules_fixed")
    data = declared_only(game.settle_input.fields, payload)
    for key, value in data.items():
        check_storable(value, key, game)
    return data


def declared_only(fields, payload: Mapping) -> dict:
    """The declared fields of ``payload``; a row of a repeated field keeps its own declared fields only."""
    out = {}
    for field in fields:
        if field.name not in payload:
            continue
        value = payload[field.name]
        if isinstance(field, RowsField) and isinstance(value, (list, tuple)):
            value = [declared_only(field.fields, row) if isinstance(row, Mapping) else row for row in value]
        out[field.name] = value
    return out


def carried_values(game, previous: "LedgerHand | None", data: Mapping, seats: list[int]) -> dict:
    """What a hand starts from for each carried field: the previous hand's state, else its own input."""
    carried = carried_input(game, previous, seats) or {}
    return {key: carried.get(key, data.get(key)) for key in game.carried_fields}


def per_player(deltas: list[int], seats: list[int], players: int) -> list[int]:
    """A hand's deltas by seat, as the ledger stores them: by player (0 for those not playing it)."""
    out = [0] * players
    for seat, d in enumerate(deltas):
        out[seats[seat]] += d
    return out


def settle(table: LedgerTable, data: dict, previous: "LedgerHand | None",
           seats: list[int]) -> tuple[list[int], dict]:
    """Run the game's settle on one hand played by ``seats`` (player indexes in seat order); returns the
    deltas per player and the stored result."""
    game = get_game(table.game)
    carried = carried_input(game, previous, seats)
    payload = {**game.table_input(len(seats)), **data, **(carried or {}), "rules": dict(table.rules)}
    result = game.run("settle", payload)
    deltas = [int(d) for d in result["deltas"]]
    if len(deltas) != len(seats):
        raise InvalidInput(t("这张牌桌有{k}个座位，这一局却算出了{n}家的输赢；请按{k}家填写",
                             "this table has {k} seats but the hand settled {n}; enter it for {k} players",
                             k=len(seats), n=len(deltas)), field="input", code="seat_count")
    rest = {k: v for k, v in result.items() if k != "deltas"}
    for key, value in carried_values(game, previous, data, seats).items():  # what this hand started from
        rest[f"{key}_before"] = value
    return per_player(deltas, seats, len(table.players)), to_json(rest)


def set_result(table: LedgerTable, hand: "LedgerHand", deltas: list[int], result: dict) -> None:
    """Store a hand's settlement, written at the table's version; the table's totals follow."""
    table.add_to_totals(hand.deltas, -1)
    table.add_to_totals(deltas)
    hand.deltas, hand.result, hand.updated_at, hand.changed_version = deltas, result, _now(), table.version
    hand.ends_series = bool(get_game(table.game).ends_series(result))


def set_input(table: LedgerTable, hand: "LedgerHand", data: dict, deltas: list[int], result: dict) -> None:
    """Store a hand's input (recorded or edited at the table's version) with its settlement."""
    hand.input, hand.input_version = data, table.version
    set_result(table, hand, deltas, result)


def _in_hand(exc: PaijuError, number: int) -> PaijuError:
    """An error of a later hand that an edit re-settled, saying which hand it is in."""
    return exc.replaced(message=t("第{n}局：{m}", "hand {n}: {m}", n=number, m=exc.message))


def _hands_after(table_id: str, number: int, batch: int = 4) -> Iterator["LedgerHand"]:
    """The hands after hand ``number`` in order, read a few at a time, twice as many each time (an early
    stop, the usual case, reads few)."""
    while True:
        rows = db.session.execute(select(LedgerHand).options(WITH_RESULT).where(LedgerHand.table_id == table_id,
                                                                                LedgerHand.number > number)
                                  .order_by(LedgerHand.number).limit(batch)).scalars().all()
        yield from rows
        if len(rows) < batch:
            return
        number, batch = rows[-1].number, min(batch * 2, 64)


def resettle_after(table: LedgerTable, previous: "LedgerHand | None", number: int) -> list[int]:
    """A game that carries state from hand to hand (Q783's banks): settle again the hands after hand
    ``number`` (``previous`` is the hand they now follow), until one starts from what it started from
    before: from there on nothing changes. Returns the numbers of the hands settled again."""
    game = get_game(table.game)
    if not game.carries_state:
        return []
    again = []
    for hand in _hands_after(table.id, number):
        starts = carried_values(game, previous, hand.input, hand.seating())
        if all(hand.carried_in(key) == value for key, value in starts.items()):
            break
        try:
            deltas, result = settle(table, hand.input, previous, hand.seating())
        except PaijuError as exc:
            raise _in_hand(exc, hand.number)
        set_result(table, hand, deltas, result)
        again.append(hand.number)
        previous = hand
    return again


# --- writing -------------------------------------------------------------

def _retryable(exc: Exception) -> bool:
    if isinstance(exc, IntegrityError):
        return True  # a duplicate hand number: someone else got there first
    text = str(getattr(exc, "orig", exc)).lower()
    return any(s in text for s in ("locked", "busy", "deadlock", "could not serialize", "serialization"))


def write(work: Callable[[], Any], respond: Callable[[Any], Any] | None = None) -> Any:
    """Run ``work`` in a write transaction holding the table's lock, retrying
    when a concurrent writer got in the way; engine errors store nothing.
    ``respond`` turns the work's result into the response inside the same
    transaction: when the answer cannot be produced, nothing is committed."""
    writing = _WRITING.set(True)
    try:
        return _write_attempts(work, respond)
    finally:
        _WRITING.reset(writing)


def _write_attempts(work: Callable[[], Any], respond: Callable[[Any], Any] | None) -> Any:
    for attempt in range(WRITE_ATTEMPTS):
        try:
            begin_write()
            result = work()
            if respond is not None:
                result = respond(result)
            db.session.commit()
            return result
        except (OperationalError, IntegrityError) as exc:
            db.session.rollback()
            if not _retryable(exc):
                raise
            time.sleep(random.uniform(0.005, 0.03) * (attempt + 1))
        except BaseException:
            db.session.rollback()
            raise
    raise busy()


def locked_table(table_id: Any, token: str | None) -> LedgerTable:
    """Within :func:`write`: the table, locked against other writers, token checked."""
    if not valid_id(table_id):
        raise not_found(table_id)
    table = db.session.execute(
        select(LedgerTable).where(LedgerTable.id == table_id).with_for_update()
        .execution_options(populate_existing=True)).scalar_one_or_none()
    if table is None:
        raise not_found(table_id)
    check_token(table, token)
    if table.kept_totals is None:  # a table from before the totals were kept: from its hands, once
        table.kept_totals = hand_totals(table.id, len(table.players))
    return table


def create_table(game_slug: Any, players: Any, rules: Any) -> tuple[str, str]:
    """Open a table; returns its id and the edit token (only its hash is kept)."""
    game = _game(game_slug)
    resolved = game.ruleset.resolve(rules if rules is not None else {}).as_dict()
    names = clean_players(players, game.slug, resolved)
    token = new_edit_token()

    def work():
        table = LedgerTable(id=new_table_id(), token_hash=token_digest(token), game=game.slug,
                            players=names, rules=resolved, version=1, kept_totals=[0] * len(names))
        db.session.add(table)
        db.session.flush()
        return table.id

    return write(work), token


# --- reading hands one query at a time (never the whole table on a write) ---

def _hands_of(table_id: str):
    return select(LedgerHand).where(LedgerHand.table_id == table_id)


def last_hand(table_id: str) -> "LedgerHand | None":
    """The last hand, its result read (what the next hand carries from it)."""
    return db.session.execute(_hands_of(table_id).options(WITH_RESULT)
                              .order_by(LedgerHand.number.desc()).limit(1)).scalar()


#: the numbers a hand can have: its column is a 32-bit integer on PostgreSQL, while a URL takes any digits
HAND_NUMBERS = range(1, 2 ** 31)


def hand_numbered(table_id: str, number: int) -> "LedgerHand":
    if number not in HAND_NUMBERS:
        raise hand_not_found(number)
    hand = db.session.execute(_hands_of(table_id).where(LedgerHand.number == number)).scalar()
    if hand is None:
        raise hand_not_found(number)
    return hand


def hand_before(table_id: str, number: int) -> "LedgerHand | None":
    return db.session.execute(_hands_of(table_id).options(WITH_RESULT).where(LedgerHand.number < number)
                              .order_by(LedgerHand.number.desc()).limit(1)).scalar()


def hand_count(table_id: str) -> int:
    return db.session.execute(select(func.count()).select_from(LedgerHand)
                              .where(LedgerHand.table_id == table_id)).scalar() or 0


def hand_summaries(table_id: str) -> list[tuple[int, list, bool]]:
    """Every hand's number, deltas and whether it ends a series, in order: the small columns only."""
    return [tuple(row) for row in db.session.execute(
        select(LedgerHand.number, LedgerHand.deltas, LedgerHand.ends_series)
        .where(LedgerHand.table_id == table_id).order_by(LedgerHand.number))]


def hand_facts(table_id: str) -> list[tuple[int, dict, list, dict, list[int]]]:
    """(number, input, deltas, {"made": …}, the players in its seats) of every hand, in order: what the
    evening's statistics read, the one fact of the result they need read in SQL (no step is decoded)."""
    rows = db.session.execute(select(LedgerHand.number, LedgerHand.input, LedgerHand.deltas,
                                     LedgerHand.result["made"].as_boolean(), LedgerHand.seats)
                              .where(LedgerHand.table_id == table_id).order_by(LedgerHand.number)).all()
    return [(number, data, deltas, {"made": made}, list(seats) if seats is not None else list(range(len(deltas))))
            for number, data, deltas, made, seats in rows]


def hands_numbered(table_id: str, numbers: list[int]) -> list["LedgerHand"]:
    """The hands with these numbers, in order (their results read when shown: :func:`shown_of`)."""
    if not numbers:
        return []
    return list(db.session.execute(_hands_of(table_id).where(LedgerHand.number.in_(numbers))
                                   .order_by(LedgerHand.number)).scalars())


def _seat_delta(seat: int):
    """A hand's delta for ``seat`` as SQL (0 where the hand has no such seat)."""
    return func.coalesce(LedgerHand.deltas[seat].as_integer(), 0)


def hand_totals(table_id: str, seats: int) -> list[int]:
    """Every seat's total, summed in SQL from the deltas column alone (no hand is decoded here)."""
    sums = [func.coalesce(func.sum(_seat_delta(seat)), 0) for seat in range(seats)]
    return [int(v) for v in db.session.execute(select(*sums).where(LedgerHand.table_id == table_id)).one()]


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


def latest_numbers(table_id: str, limit: int, before: int | None = None) -> list[int]:
    """The numbers of the last ``limit`` hands (before hand ``before``), in order."""
    query = select(LedgerHand.number).where(LedgerHand.table_id == table_id)
    if before is not None:
        query = query.where(LedgerHand.number < before)
    return sorted(db.session.execute(query.order_by(LedgerHand.number.desc()).limit(limit)).scalars())


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


def _answer(table: LedgerTable, hand: "LedgerHand | None", last: "LedgerHand | None", lang: str,
            resettled: list[int] | None = None) -> dict:
    """The write's answer, built inside its transaction (so it is consistent); ``resettled``: the later
    hands an edit or a delete settled again (Q783), an addition to the contract (docs/api.md)."""
    db.session.flush()
    out = {"totals": list(table.kept_totals), "version": table.version}
    if hand is not None:
        out = {"hand": hand_json(hand, lang, len(table.players)), **out}
    _add_carried(out, table, last)
    if resettled is not None:
        out["resettled"] = resettled
    return out


# --- idempotency -------------------------------------------------------------

def valid_key(key: Any) -> bool:
    """An Idempotency-Key: 1–128 visible ASCII characters."""
    return isinstance(key, str) and 0 < len(key) <= 128 and all("!" <= c <= "~" for c in key)


def bad_key() -> MalformedInput:
    return MalformedInput(t("「Idempotency-Key」应为1到128个可见的 ASCII 字符",
                            "“Idempotency-Key” must be 1 to 128 visible ASCII characters"),
                          field="Idempotency-Key", code="bad_idempotency_key")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def stored_answer(table_id: str, key: str) -> dict | None:
    """Within :func:`write`: the first answer given to ``key`` on this table within a day (an older
    one is forgotten, so the key can be used again)."""
    row = db.session.execute(select(LedgerIdempotency).where(LedgerIdempotency.table_id == table_id,
                                                             LedgerIdempotency.key == key)).scalar()
    if row is None:
        return None
    if _aware(row.created_at) < _now() - IDEMPOTENCY_TTL:
        db.session.delete(row)
        db.session.flush()
        return None
    return row.answer


# --- the writes ----------------------------------------------------------------

def record_hand(table_id: Any, token: str | None, get_input: Callable[[], Any], lang: str = "zh",
                key: str | None = None, respond: Callable[[dict], Any] | None = None) -> Any:
    """Append a hand. ``get_input`` is called after the token check. With an idempotency ``key`` already
    answered on this table, the first answer again and nothing recorded."""
    if key is not None and not valid_key(key):
        raise bad_key()

    def work():
        table = locked_table(table_id, token)
        first = stored_answer(table.id, key) if key is not None else None
        if first is not None:
            return first
        data = clean_input(get_game(table.game), get_input())
        if hand_count(table.id) >= max_hands():
            raise table_full(max_hands())
        hand = _append(table, data)
        table.undone = None  # a new hand: what undo took is gone for good
        answer = _answer(table, hand, hand, lang)
        if key is not None:
            db.session.add(LedgerIdempotency(table_id=table.id, key=key, status=201, answer=answer))
        return answer

    return write(work, respond)


def _append(table: LedgerTable, data: dict) -> "LedgerHand":
    """Within :func:`write`: settle ``data`` as the table's next hand and add it."""
    previous = last_hand(table.id)
    seats = table.seating()
    deltas, result = settle(table, data, previous, seats)
    table.touch()
    hand = LedgerHand(table_id=table.id, number=(previous.number + 1) if previous else 1,
                      seats=None if table.seated is None else seats)
    set_input(table, hand, data, deltas, result)
    db.session.add(hand)
    return hand


def _given_version(version: Any) -> int:
    given = strict_int(version)
    if given is None:
        raise MalformedInput(t("「version」应为整数，收到「{v}」", "“version” must be a whole number, got “{v}”",
                               v=shown(version)), field="version", code="not_an_integer")
    return given


def _check_version(table: LedgerTable, version: Any) -> None:
    given = _given_version(version)
    if given != table.version:
        raise stale(table.version, given)


def conflict(number: int, current: int) -> TableError:
    return TableError(t("第{n}局在你打开之后被别人改过了：请选留哪一个版本",
                        "hand {n} was changed by someone else after you opened it: choose which version to keep",
                        n=number), status=409, code="edit_conflict", field="version", version=current,
                      number=number)


def changed_under_undo(number: int, current: int) -> TableError:
    return TableError(t("第{n}局在你打开之后被别人改过了，没有撤销；请看过再决定",
                        "hand {n} was changed by someone else after you opened it; nothing was undone: look "
                        "at it first", n=number), status=409, code="edit_conflict", field="version",
                      version=current, number=number)


def _check_hand_version(table: LedgerTable, hand: "LedgerHand", version: Any, error=conflict) -> None:
    """The merge: a version older than the table's is fine when nobody wrote this hand's input since."""
    given = _given_version(version)
    if given > table.version:
        raise stale(table.version, given)
    if hand.input_version > given:
        raise error(hand.number, table.version)


def _edit_body(body: Any) -> Mapping:
    if not isinstance(body, Mapping):
        raise MalformedInput(t("请求体应为 JSON 对象", "the request body must be a JSON object"))
    if body.get("version") is None:
        raise MalformedInput(t("缺少「version」（你看到的牌桌版本）",
                               "“version” is missing (the table version you saw)"),
                             field="version", code="missing_field")
    if "input" not in body:
        raise MalformedInput(t("缺少「input」", "“input” is missing"), field="input", code="missing_field")
    return body


def edit_hand(table_id: Any, token: str | None, number: int, get_body: Callable[[], Any],
              lang: str = "zh", respond: Callable[[dict], Any] | None = None, merge: bool = False) -> Any:
    """Replace a hand's input (``{"version", "input"}``); totals follow. The API's ``version`` is the
    table's (the contract); with ``merge`` (the pages) an older version is saved when nobody wrote this
    hand since, and a real conflict is ``edit_conflict``."""
    def work():
        table = locked_table(table_id, token)
        body = _edit_body(get_body())
        hand = hand_numbered(table.id, number)
        if merge:
            _check_hand_version(table, hand, body["version"])
        else:
            _check_version(table, body["version"])
        game = get_game(table.game)
        data = clean_input(game, body["input"])
        deltas, result = settle(table, data, hand_before(table.id, number), hand.seating())
        table.touch()
        set_input(table, hand, data, deltas, result)
        hand.edited_at = hand.updated_at
        again = resettle_after(table, hand, number)
        return _answer(table, hand, last_hand(table.id), lang, again)

    return write(work, respond)


def _remove(table: LedgerTable, hand: "LedgerHand") -> list[int]:
    """Within :func:`write`: delete ``hand``; the hands after it are settled again (returned)."""
    table.touch()
    table.reset()
    table.add_to_totals(hand.deltas, -1)
    db.session.delete(hand)
    db.session.flush()
    return resettle_after(table, hand_before(table.id, hand.number), hand.number)


def delete_hand(table_id: Any, token: str | None, number: int, version: Any = None, lang: str = "zh") -> dict:
    """Delete one hand; a given stale version → 409."""
    def work():
        table = locked_table(table_id, token)
        if version is not None:
            _check_version(table, version)
        again = _remove(table, hand_numbered(table.id, number))
        return _answer(table, None, last_hand(table.id), lang, again)

    return write(work)


def not_last(number: int) -> TableError:
    return TableError(t("第{n}局已经不是最后一局了（别人又记了一局），没有撤销",
                        "hand {n} is no longer the last hand (someone recorded another); nothing was undone",
                        n=number), status=409, code="not_last_hand", field="number")


def undo_hand(table_id: Any, token: str | None, number: Any, version: Any) -> dict | None:
    """Undo: take the last hand away, if it is still hand ``number`` as the phone saw it at ``version``
    (someone else's new hand or edit is never undone by mistake), and keep it for :func:`redo_hand`.
    Returns the hand taken ({"number", "input"}), or None when the table has no hands."""
    def work():
        table = locked_table(table_id, token)
        last = last_hand(table.id)
        if last is None:
            return None
        if strict_int(number) != last.number:
            raise not_last(strict_int(number) or 0)
        _check_hand_version(table, last, version, changed_under_undo)
        taken = {"number": last.number, "input": last.input, "seats": last.seating()}
        _remove(table, last)
        table.undone = taken
        return taken

    return write(work)


def redo_hand(table_id: Any, token: str | None, number: Any) -> bool:
    """Redo: record again the hand the last undo took (hand ``number``). Idempotent: once it is back, or
    when a new hand was recorded since, nothing happens (False)."""
    def work():
        table = locked_table(table_id, token)
        taken = table.undone
        if not taken or taken.get("number") != strict_int(number):
            return False
        if taken.get("seats", table.seating()) != table.seating():  # the seats changed since: its input no longer fits
            return False
        _append(table, taken["input"])
        table.undone = None
        return True

    return write(work)


def rotate_token(table_id: Any, token: str | None) -> str:
    """A new edit token for the table; the old one (links, cookies) stops working."""
    fresh = new_edit_token()

    def work():
        table = locked_table(table_id, token)
        table.token_hash = token_digest(fresh)
        table.touch()

    write(work)
    return fresh


def delete_table(table_id: Any, token: str | None) -> None:
    """Delete the table with all its hands."""
    def work():
        db.session.delete(locked_table(table_id, token))

    write(work)


def purge_tables(days: int) -> int:
    """Delete the tables untouched for ``days`` days, and idempotency keys older than a day; returns how
    many tables went."""
    def work():
        cutoff = _now() - timedelta(days=days)
        gone = db.session.execute(delete(LedgerTable).where(LedgerTable.updated_at < cutoff)).rowcount
        db.session.execute(delete(LedgerIdempotency).where(LedgerIdempotency.created_at < _now() - IDEMPOTENCY_TTL))
        return gone

    return write(work)


# --- players and seats during the evening ---------------------------------------

MAX_PEOPLE = 16  # everyone who ever sat at a table (players who left keep their name and total)
SEAT_CHANGES = ("rename", "swap", "join", "leave", "replace")


def seat_change_refused(message: Text, field: str = "seat") -> InvalidInput:
    return InvalidInput(message, field=field, code="seat_change")


def _seat_index(table: LedgerTable, value: Any, field: str = "seat") -> int:
    seat = strict_int(value)
    seats = table.seating()
    if seat is None or not 0 <= seat < len(seats):
        raise seat_change_refused(t("没有这个座位（「{v}」）：座位是 1 到 {n}", "there is no seat “{v}”: seats are 1 to {n}",
                                    v=shown(value, 10), n=len(seats)), field)
    return seat


def _seat_count_ok(table: LedgerTable, count: int) -> None:
    game = get_game(table.game)
    lo, hi = game.seat_range(table.rules)
    if not lo <= count <= hi:
        need = str(lo) if lo == hi else f"{lo}–{hi}"
        raise seat_change_refused(t("「{g}」按这张牌桌的规则要{k}个玩家，换座后会是{n}个；可以换人，不能只加或只减",
                                    "“{g}” with this table's rules is played by {k}; that change would leave {n}: "
                                    "replace a player instead", g=game.name, k=need, n=count))


def _new_player(table: LedgerTable, name: Any) -> int:
    """Add a player to the table's list (not seated yet); returns the index."""
    if len(table.players) >= MAX_PEOPLE:
        raise seat_change_refused(t("一张牌桌最多记{m}个人", "a table records at most {m} people", m=MAX_PEOPLE),
                                  "name")
    table.players = [*table.players, clean_name(name, len(table.players), list(table.players), "name")]
    table.add_to_totals(None)
    return len(table.players) - 1


def _apply_seat_change(table: LedgerTable, change: Mapping) -> None:
    kind = change.get("kind")
    seats = table.seating()
    if kind == "rename":
        seat = _seat_index(table, change.get("seat"))
        others = [n for i, n in enumerate(table.players) if i != seats[seat]]
        names = list(table.players)
        names[seats[seat]] = clean_name(change.get("name"), seats[seat], others, "name")
        table.players = names
    elif kind == "swap":
        a, b = _seat_index(table, change.get("seat")), _seat_index(table, change.get("other"), "other")
        seats[a], seats[b] = seats[b], seats[a]
    elif kind == "join":
        _seat_count_ok(table, len(seats) + 1)
        seats.append(_new_player(table, change.get("name")))
    elif kind == "leave":
        _seat_count_ok(table, len(seats) - 1)
        seats.pop(_seat_index(table, change.get("seat")))
    elif kind == "replace":
        seat = _seat_index(table, change.get("seat"))
        seats[seat] = _new_player(table, change.get("name"))
    else:
        raise MalformedInput(t("不认识的换座「{k}」，可选：{valid}", "unknown seat change “{k}”; allowed: {valid}",
                               k=shown(kind, 20), valid=" / ".join(SEAT_CHANGES)), field="kind", code="seat_change")
    table.seated = seats


def change_seats(table_id: Any, token: str | None, change: Mapping) -> None:
    """Players and seats during the evening. Seats count from 0 here (the pages show 1-based numbers):

    * ``rename`` (seat, name): the player's name, on every hand (a typo, a nickname);
    * ``swap`` (seat, other): two players change seats for the next hands (the hands already played keep
      who sat where; totals follow the players);
    * ``join`` (name) / ``leave`` (seat): a seat more or less for the next hands, where the game's seat
      range allows it; a player who leaves keeps the name and total;
    * ``replace`` (seat, name): someone new takes that seat for the next hands (any game).

    A Q783 table whose players change (join, leave, replace) starts its next hand from typed banks; a swap
    keeps every player's bank."""
    def work():
        table = locked_table(table_id, token)
        table.touch()
        table.reset()
        _apply_seat_change(table, change)

    write(work)
