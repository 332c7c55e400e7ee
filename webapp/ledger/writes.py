"""The ledger's write transaction: the table's lock, retries when a concurrent writer got in the way."""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

from .db import begin_write, db
from .errors import busy, not_found
from .models import LedgerTable
from .integrity import check_readable, totals_kept
from .queries import check_token, hand_totals, valid_id
from .shown import writing

WRITE_ATTEMPTS = 8


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
    with writing():
        return _write_attempts(work, respond)


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
    check_readable(table)
    if not totals_kept(table):  # a table from before the totals were kept, or changed by hand: from its hands
        table.kept_totals = hand_totals(table.id, len(table.players))
    return table
