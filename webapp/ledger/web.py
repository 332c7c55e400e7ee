"""What the ledger's API and pages share: the database set-up, the rate limits, the edit link and cookie,
and the purge command.

Creating tables and writing are rate-limited per client (Flask-Limiter); tables untouched for
``LEDGER_PURGE_DAYS`` days go with ``flask --app webapp purge-tables``.
"""
from __future__ import annotations

import os

import click
from flask import current_app, render_template, request, url_for
from flask.cli import with_appcontext
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

from scoring.i18n import render, t

from ..api import error_response
from ..errors import add_statuses
from ..i18n import current_lang
from ..openapi import add_operations
from . import db as ledger_db
from . import ratelimits  # registers the paiju-db:// storage with the limits library
from .errors import Busy, NotAllowed, TableFull, TableNotFound, WriteConflict
from .integrity import TableUnreadable
from .openapi import ledger_operations
from .service import purge_tables

EDIT_COOKIE = "paiju_edit"
PURGE_DAYS = 180
LIMITS = {"LEDGER_CREATE_LIMIT": "20 per minute", "LEDGER_WRITE_LIMIT": "120 per minute"}

limiter = Limiter(get_remote_address)

add_statuses(((TableNotFound, 404), (NotAllowed, 403), (WriteConflict, 409), (Busy, 503), (TableFull, 422),
              (TableUnreadable, 409)))


def init_app(app) -> None:
    """The database, the limits and the purge command (the blueprints are registered by the app factory)."""
    ledger_db.init_app(app)
    for key, default in LIMITS.items():
        app.config.setdefault(key, os.environ.get(key, default))
    # the counters in the ledger's database (every worker and server sharing it), or Redis/Valkey when set
    app.config.setdefault("RATELIMIT_STORAGE_URI", os.environ.get("RATELIMIT_STORAGE_URI", f"{ratelimits.SCHEME}://"))
    # a counter store that fails (Redis gone, the database busy past its timeout) lets the request through
    # rather than answering 500: a limit is a guard, the ledger's own write is what must not fail
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    app.config.setdefault("LEDGER_PURGE_DAYS", int(os.environ.get("LEDGER_PURGE_DAYS", PURGE_DAYS)))
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    app.cli.add_command(purge_tables_command)
    add_operations(app, ledger_operations)


def _create_limit() -> str:
    return current_app.config["LEDGER_CREATE_LIMIT"]


def _write_limit() -> str:
    return current_app.config["LEDGER_WRITE_LIMIT"]


# one budget per client across the API and the pages
limit_creates = limiter.shared_limit(_create_limit, scope="ledger-create", methods=["POST"])
limit_writes = limiter.shared_limit(_write_limit, scope="ledger-write", methods=["POST", "PUT", "DELETE"])


def window_words(seconds: int):
    """A limit's window in words: 20 秒 / 20 seconds, 1 分钟 / a minute, 2 小时 / 2 hours."""
    for size, zh, en_one, en_many in ((86400, "{n}天", "a day", "{n} days"), (3600, "{n}小时", "an hour", "{n} hours"),
                                      (60, "{n}分钟", "a minute", "{n} minutes"), (1, "{n}秒", "a second", "{n} seconds")):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return t(zh, en_one if n == 1 else en_many, n=n)
    return t("{n}秒", "{n} seconds", n=seconds)


def _rate_limited(exc: RateLimitExceeded):
    item = exc.limit.limit
    window = window_words(int(item.get_expiry()))
    message = t("操作太频繁：每{w}最多{n}次，请稍等再试（最多等{w}）",
                "Too many requests: at most {n} in {w}; please wait (at most {w}) and try again",
                n=item.amount, w=window)
    if request.path.startswith("/api/"):
        return error_response("rate_limited", message, 429)
    return render_template("tables/error.html", status=429, message=render(message, current_lang())), 429


@click.command("purge-tables")
@with_appcontext
@click.option("--days", type=int, default=None, help="untouched for this many days (default LEDGER_PURGE_DAYS)")
def purge_tables_command(days: int | None):
    """Delete the tables nobody changed for LEDGER_PURGE_DAYS days (default 180)."""
    ledger_db.ensure_schema()
    days = days if days is not None else int(current_app.config["LEDGER_PURGE_DAYS"])
    gone = purge_tables(days)
    click.echo(f"purged {gone} table(s) untouched for {days} days")


def edit_link(table_id: str, token: str) -> str:
    return url_for("tables.open_edit_link", table_id=table_id, token=token, _external=True)


def with_edit_cookie(resp, table_id: str, token: str):
    """Keep the edit capability in an HttpOnly cookie that only this table's pages receive."""
    resp.set_cookie(EDIT_COOKIE, token, max_age=int(current_app.config["LEDGER_PURGE_DAYS"]) * 86400,
                    path=f"/tables/{table_id}", httponly=True, samesite="Lax", secure=request.is_secure)
    return resp


def entry_url(table_id: str) -> str:
    """The edit page scrolled to the totals and the form for the next hand: where a save, an undo, 结账's way
    back and every other way back to an evening the phone can edit lead."""
    return url_for("tables.edit", table_id=table_id) + "#entry"


def first_hand(table_id: str) -> str:
    """A new table's (or evening's) edit page, on its first hand: the page says it is new (``new=1``)."""
    return url_for("tables.edit", table_id=table_id, new=1) + "#entry"


def holds_edit_token(table) -> bool:
    """This phone holds the table's edit token (its cookie, which only the table's own pages receive)."""
    return table.token_ok(request.cookies.get(EDIT_COOKIE))
