"""Idempotent recording: the first answer to a hand sent with an ``Idempotency-Key``, kept for a day."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import delete, select

from .db import db
from .models import LedgerIdempotency, _now

IDEMPOTENCY_TTL = timedelta(days=1)
RECORDED = 201  # the status column keeps what the first answer was: a hand recorded


def valid_key(key: Any) -> bool:
    """An Idempotency-Key: 1–128 visible ASCII characters."""
    return isinstance(key, str) and 0 < len(key) <= 128 and all("!" <= c <= "~" for c in key)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def stored_answer(table_id: str, key: str) -> dict | None:
    """Within :func:`.writes.write`: the first answer given to ``key`` on this table within a day (an older
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


def remember(table_id: str, key: str, answer: dict) -> None:
    """Within :func:`.writes.write`: keep the answer a recorded hand got under ``key``."""
    db.session.add(LedgerIdempotency(table_id=table_id, key=key, status=RECORDED, answer=answer))


def forget_old() -> None:
    """Within :func:`.writes.write`: drop the keys older than a day."""
    db.session.execute(delete(LedgerIdempotency).where(LedgerIdempotency.created_at < _now() - IDEMPOTENCY_TTL))
