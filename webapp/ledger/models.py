"""The table ledger's data: a table (game, seats, house rules), its hands, and the answers kept for
idempotent writes. Tables and columns only; what is done with them is in :mod:`.service` and beside it.

A hand keeps the settle input as entered and the engine's result, stored once in no language: its texts
(the steps) as plain JSON (``scoring.i18n.to_json``), rendered in the reader's language when shown
(:mod:`.shown`). The table keeps its totals (``kept_totals``), changed by every write in the same locked
transaction that changes a hand's deltas, so recording a hand does not read the others; tests check they
always equal the sum of the stored deltas.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, TypeDecorator, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scoring.i18n import ZH_KEY

from .db import db
from .shown import hand_shown, seat_names


def _now() -> datetime:
    return datetime.now(timezone.utc)


def new_table_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits, 22 characters


def new_edit_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits, 32 characters


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def handed_on(secret: str | bytes, token: str, next_id: str) -> str:
    """The edit token an evening's ``token`` hands on to its next evening ``next_id``: made from both with the
    server's secret, so the previous evening's editors can be given it again (only its hash is stored) until
    the next evening's own editors take a new one; 192 bits, as :func:`new_edit_token`."""
    key = secret.encode("utf-8", "surrogatepass") if isinstance(secret, str) else secret
    message = f"next-evening\0{token}\0{next_id}".encode("utf-8", "surrogatepass")
    return base64.urlsafe_b64encode(hmac.new(key, message, hashlib.sha256).digest()[:24]).decode("ascii")



MAX_PEOPLE = 16  # everyone who ever sat at a table (players who left keep their name and total)

class StoredTime(TypeDecorator):
    """A time column that reads a value it cannot parse (a SQLite text written by hand or by another
    program) as None instead of failing the whole query; :mod:`.integrity` then names the hand."""
    impl = DateTime(timezone=True)
    cache_ok = True

    def result_processor(self, dialect, coltype):
        return _tolerant(self.impl_instance.result_processor(dialect, coltype), lambda value: None)


def _tolerant(parse, fallback):
    """``parse`` (a column type's result processor, or None: nothing to parse), whose failure on a value
    gives ``fallback(value)`` instead of failing the query."""
    if parse is None:
        return None

    def read(value):
        try:
            return parse(value)
        except (ValueError, TypeError, RecursionError):
            return fallback(value)
    return read


class NotJSON:
    """What a JSON column reads as when its text is not JSON (SQLite keeps JSON as text, which another program
    may have left malformed): no list, dict, number or string, so :mod:`.integrity` names it and refuses the
    table, instead of the query that read it failing."""
    __slots__ = ("text",)

    def __init__(self, text: Any):
        self.text = str(text)[:60]

    def __repr__(self) -> str:
        return self.text


class StoredJSON(TypeDecorator):
    """A JSON column read whatever it holds: text that is not JSON reads as :class:`NotJSON`."""
    impl = JSON
    cache_ok = True

    def result_processor(self, dialect, coltype):
        return _tolerant(self.impl_instance.result_processor(dialect, coltype), NotJSON)


class StoredInt(TypeDecorator):
    """An integer column read whatever it holds (SQLite keeps any value in any column): what is not a whole
    number reads as None, which :mod:`.integrity` names."""
    impl = Integer
    cache_ok = True

    def result_processor(self, dialect, coltype):
        def read(value):
            return value if isinstance(value, int) and not isinstance(value, bool) else None
        return read


def _steps_ok(steps: Any) -> bool:
    return isinstance(steps, list) and all(
        isinstance(s, str) or (isinstance(s, dict) and isinstance(s.get(ZH_KEY), str)) for s in steps)


class StoredResult(TypeDecorator):
    """A hand's stored result, a JSON object. A value this version cannot read as one (text that is not JSON, a
    list, a string: written by hand or by another program) reads as ``{}`` — the hand shows its deltas without
    steps and carries nothing — instead of failing every query that reads it; steps that are not texts are
    left out (settled again when shown, as a result without steps is)."""
    impl = JSON
    cache_ok = True

    def result_processor(self, dialect, coltype):
        parse = self.impl_instance.result_processor(dialect, coltype)

        def read(value):
            try:
                value = parse(value) if parse is not None else value
            except (ValueError, TypeError, RecursionError):
                return {}
            if not isinstance(value, dict):
                return {}
            if "steps" in value and not _steps_ok(value["steps"]):
                value = {k: v for k, v in value.items() if k != "steps"}
            return value
        return read


class LedgerTable(db.Model):
    __tablename__ = "ledger_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(20))
    players: Mapped[list] = mapped_column(StoredJSON)
    rules: Mapped[dict] = mapped_column(StoredJSON)
    version: Mapped[int] = mapped_column(StoredInt, default=1)
    created_at: Mapped[datetime] = mapped_column(StoredTime(), default=_now)
    updated_at: Mapped[datetime] = mapped_column(StoredTime(), default=_now)
    # the hand the last undo took, {"number", "input"}, until it is redone or a new hand is recorded
    undone: Mapped[dict | None] = mapped_column(StoredJSON, nullable=True)
    # the version of the last change a live poll cannot send as changed hands (a hand deleted)
    reset_version: Mapped[int] = mapped_column(StoredInt, default=0)
    # the sum of the hands' deltas per seat (None: not kept yet, a table from before migration 0003)
    kept_totals: Mapped[list | None] = mapped_column(StoredJSON, nullable=True)
    # who sits where for the next hands: indexes into ``players`` in seat order (None: every player, in order).
    # ``players`` is everyone who played at this table (a player who left keeps a name and a total).
    seated: Mapped[list | None] = mapped_column(StoredJSON, nullable=True)
    # the evenings played in a row by the same people (牌友圈): the circle's id (None: a table from before
    # migration 0007, a circle of its own) and the evening this one followed (not a foreign key: deleting
    # an evening leaves the next one standing)
    circle: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    previous_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)

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

    @property
    def circle_id(self) -> str:
        return self.circle or self.id

    def touch(self) -> None:
        self.version = self.version + 1
        self.updated_at = _now()

    def reset(self) -> None:
        """This change takes a hand away: a live view reads the hands it shows again."""
        self.reset_version = self.version

    def add_to_totals(self, deltas: list[int] | None, sign: int = 1) -> None:
        """``deltas`` are per player (a hand's are; see :func:`scoring.series.per_player`)."""
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
    number: Mapped[int] = mapped_column(StoredInt)
    input: Mapped[dict] = mapped_column(StoredJSON)
    deltas: Mapped[list] = mapped_column(StoredJSON)
    # the engine's result without deltas, its texts in no language (scoring.i18n.to_json; migration 0004).
    # Read only when needed (its JSON is most of a row): the writes read it with the hands they carry from
    # (:data:`.queries.WITH_RESULT`), a reader when a hand's rendering is not memoized yet (:func:`.shown.shown_of`).
    result: Mapped[dict] = mapped_column(StoredResult(), deferred=True)
    # whether this hand ends a series (Game.ends_series), so pages number series without reading every result
    ends_series: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(StoredTime(), default=_now)
    updated_at: Mapped[datetime] = mapped_column(StoredTime(), default=_now)
    edited_at: Mapped[datetime | None] = mapped_column(StoredTime(), nullable=True)  # its input
    # the table version that last wrote this hand's input (an edit's conflict check), and its result too
    # (what a live poll sends again)
    input_version: Mapped[int] = mapped_column(StoredInt, default=0)
    changed_version: Mapped[int] = mapped_column(StoredInt, default=0)
    # the players in this hand's seats (indexes into the table's players; None: all of them, in order).
    # ``deltas`` are per player (0 for one who did not play this hand), so totals sum them by index.
    seats: Mapped[list | None] = mapped_column(StoredJSON, nullable=True)
    # the house rules this hand was settled with (migration 0009); None (SQL NULL): the table's rules now. A
    # change of the table's rules first writes the old ones into every hand without any (:mod:`.table_rules`),
    # so a hand never takes rules it was not played with.
    rules: Mapped[dict | None] = mapped_column(StoredJSON(none_as_null=True), nullable=True)

    table: Mapped[LedgerTable] = relationship(back_populates="hands")

    def shown(self, lang: str, players: list[str] | None = None) -> dict:
        """The engine's result in one language (steps and any extra fields); a copy. With the table's
        ``players``, its seats' words are their names."""
        return hand_shown(self, lang, seat_names(players, self.seating()) if players is not None else None)

    def seating(self) -> list[int]:
        """The players (indexes) in this hand's seats, in seat order; its input's seat numbers are these."""
        return list(self.seats) if self.seats is not None else list(range(len(self.deltas or [])))


class LedgerIdempotency(db.Model):
    """The first answer to a ``POST …/hands`` that carried an ``Idempotency-Key``."""
    __tablename__ = "ledger_idempotency"
    __table_args__ = (UniqueConstraint("table_id", "key", name="uq_ledger_idempotency_table_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("ledger_tables.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(128))
    status: Mapped[int] = mapped_column(StoredInt)
    answer: Mapped[dict] = mapped_column(StoredJSON)
    #: sha256 of what the first request sent (None: kept by a version before 0005, not compared)
    request_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(StoredTime(), default=_now)


class LedgerCircleAlias(db.Model):
    """Two spellings of one person in a circle (牌友圈): its standings count ``name`` as ``same_as``
    (migration 0008; ``circle`` is a table's ``circle_id``, not a foreign key: a circle has no row of its own)."""
    __tablename__ = "ledger_circle_aliases"
    __table_args__ = (UniqueConstraint("circle", "name", name="uq_ledger_circle_aliases_circle_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    circle: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    same_as: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(StoredTime(), default=_now)


class LedgerRateLimit(db.Model):
    """A rate limit's counter for one client and scope (:mod:`.ratelimits`): hits in the window that ends at
    ``expires_at`` (seconds since the epoch)."""
    __tablename__ = "ledger_rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)
