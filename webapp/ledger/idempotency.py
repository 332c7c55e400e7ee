"""Idempotent recording: the first answer to a hand sent with an ``Idempotency-Key``, kept for a day."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import delete, select

from scoring.i18n import t

from .db import db
from .errors import key_reused
from .integrity import TableUnreadable
from .models import LedgerIdempotency, _now

IDEMPOTENCY_TTL = timedelta(days=1)
RECORDED = 201  # the status column keeps what the first answer was: a hand recorded


def valid_key(key: Any) -> bool:
    """An Idempotency-Key: 1–128 visible ASCII characters."""
    return isinstance(key, str) and 0 < len(key) <= 128 and all("!" <= c <= "~" for c in key)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def request_digest(sent: Any) -> str:
    """What a request sent, as a short fingerprint: the same body twice (a retry, a double tap) gives the same
    digest, whatever order its keys came in."""
    try:
        canonical = json.dumps(sent, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    except (TypeError, ValueError, RecursionError):  # keys of mixed types, absurd nesting: as Python shows it
        canonical = repr(sent)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def stored_answer(table_id: str, key: str, digest: str | None = None) -> dict | None:
    """Within :func:`.writes.write`: the first answer given to ``key`` on this table within a day (an older
    one is forgotten, so the key can be used again; one this version cannot read is a 409 ``table_unreadable``:
    neither answered nor recorded again). The key sent again with another request (``digest``
    differs from the first's) is refused: 422 ``idempotency_key_reused`` (draft-ietf-httpapi-idempotency-key-
    header §2.7); a row kept by a version that stored no digest is not compared."""
    row = db.session.execute(select(LedgerIdempotency).where(LedgerIdempotency.table_id == table_id,
                                                             LedgerIdempotency.key == key)).scalar()
    if row is None:
        return None
    if not (isinstance(row.created_at, datetime) and isinstance(row.answer, dict) and row.status == RECORDED):
        raise TableUnreadable(table_id, [t("为这个 Idempotency-Key 记下的回答读不出", "the answer kept for this "
                                           "Idempotency-Key cannot be read")])
    if _aware(row.created_at) < _now() - IDEMPOTENCY_TTL:
        db.session.delete(row)
        db.session.flush()
        return None
    if digest is not None and row.request_digest is not None and row.request_digest != digest:
        raise key_reused()
    return row.answer


def remember(table_id: str, key: str, answer: dict, digest: str | None = None) -> None:
    """Within :func:`.writes.write`: keep the answer a recorded hand got under ``key`` (and what was sent)."""
    db.session.add(LedgerIdempotency(table_id=table_id, key=key, status=RECORDED, answer=answer,
                                     request_digest=digest))


def forget_old() -> None:
    """Within :func:`.writes.write`: drop the keys older than a day."""
    db.session.execute(delete(LedgerIdempotency).where(LedgerIdempotency.created_at < _now() - IDEMPOTENCY_TTL))
