"""The rate limits' counters in the ledger's own database, so that a limit holds across every worker process
of a server, and across servers sharing the database, with no other service (``paiju-db://``, the default).
Redis or Valkey (``RATELIMIT_STORAGE_URI=redis://…``) does the same for a deployment that has one.

A :mod:`limits` storage (registered by its scheme when this module is imported): fixed windows that start at a
key's first hit, as the library's own memory and Redis storages keep them. One upsert per counted request."""
from __future__ import annotations

import random
import time

from flask import current_app
from limits.storage import Storage
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from .db import db, ensure_schema

SCHEME = "paiju-db"
SWEEP_CHANCE = 0.01  # about one counted request in a hundred also drops the windows that have ended

_HIT = text("""
    INSERT INTO ledger_rate_limits (key, count, expires_at) VALUES (:key, :amount, :expires)
    ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN ledger_rate_limits.expires_at <= :now THEN :amount
                     ELSE ledger_rate_limits.count + :amount END,
        expires_at = CASE WHEN ledger_rate_limits.expires_at <= :now THEN :expires
                          ELSE ledger_rate_limits.expires_at END
    RETURNING count""")
_GET = text("SELECT count, expires_at FROM ledger_rate_limits WHERE key = :key")
_SWEEP = text("DELETE FROM ledger_rate_limits WHERE expires_at <= :now")


class DatabaseStorage(Storage):
    """Rate-limit counters in the app's database (Flask-SQLAlchemy's engine of the current app)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self):
        return SQLAlchemyError

    @staticmethod
    def _engine():
        ensure_schema(current_app._get_current_object())
        return db.engine

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        with self._engine().begin() as conn:
            count = conn.execute(_HIT, {"key": key, "amount": amount, "expires": now + expiry, "now": now}).scalar()
            if random.random() < SWEEP_CHANCE:
                conn.execute(_SWEEP, {"now": now})
        return int(count)

    def _row(self, key: str):
        with self._engine().connect() as conn:
            row = conn.execute(_GET, {"key": key}).first()
            conn.rollback()
        return row if row is not None and row.expires_at > time.time() else None

    def get(self, key: str) -> int:
        row = self._row(key)
        return int(row.count) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return float(row.expires_at) if row else time.time()

    def check(self) -> bool:
        try:
            with self._engine().connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except Exception:  # noqa: BLE001 - a health check answers, it does not raise
            return False

    def reset(self) -> int | None:
        with self._engine().begin() as conn:
            return conn.execute(text("DELETE FROM ledger_rate_limits")).rowcount

    def clear(self, key: str) -> None:
        with self._engine().begin() as conn:
            conn.execute(text("DELETE FROM ledger_rate_limits WHERE key = :key"), {"key": key})
