"""The database behind the table ledger: Flask-SQLAlchemy + Alembic.

* ``DATABASE_URL`` (config key, then the environment) picks the database;
  the default is an SQLite file under ``instance/``. ``postgres://`` and
  ``postgresql://`` URLs are sent through psycopg 3.
* The schema comes from the Alembic migrations in ``migrations/``, applied
  automatically the first time a request needs the database (so ``make run``
  needs nothing else); ``flask --app webapp db upgrade`` does the same by hand.
  Alembic is imported only then (:class:`MigrateOnFirstUse`).
  Under gunicorn (``preload_app``) the master applies them once before it forks
  the workers (:func:`migrate_before_fork`), so no worker loads Alembic.
* Engines are fork-safe: a process forked from one that used the database
  (gunicorn's workers from its master) drops the inherited pool, without
  closing the parent's connections, and opens its own.
* SQLite: WAL journal, a busy timeout, and :func:`begin_write` starts write
  transactions with ``BEGIN IMMEDIATE`` so two writers never interleave.
  PostgreSQL: ``webapp.ledger.writes.locked_table`` takes the table row ``FOR UPDATE``.
* Migrations run under :func:`migrations_locked`: one process at a time.
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import os
import threading
import time
import weakref
from pathlib import Path

import orjson
from flask import current_app
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event, text
from sqlalchemy.orm import DeclarativeBase

_NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=_NAMING)


db = SQLAlchemy(model_class=Base)

SQLITE_BUSY_TIMEOUT = 30  # seconds a writer waits for another one
_IMMEDIATE = contextvars.ContextVar("paiju_sqlite_immediate", default=False)
_WEBAPP = Path(__file__).resolve().parent.parent
_MIGRATE_LOCK = threading.Lock()
_PG_MIGRATION_LOCK = 7_830_501  # any constant: the ledger's advisory lock while migrating
#: every engine an app of this process made, to be dropped in a forked child (SQLAlchemy: "Using
#: Connection Pools with Multiprocessing or os.fork()")
_ENGINES: "weakref.WeakSet" = weakref.WeakSet()
_log = logging.getLogger(__name__)


def _drop_inherited_pools() -> None:
    for engine in list(_ENGINES):
        engine.dispose(close=False)


os.register_at_fork(after_in_child=_drop_inherited_pools)


def stored_json(value) -> str:
    """A JSON column's value as stored: orjson (a long edit writes hundreds of results: about an eighth of the
    standard library's time), the standard library for what orjson refuses (a lone surrogate, a key that is
    not a string, an integer past 64 bits), so what is stored is what the standard library would store."""
    try:
        return orjson.dumps(value).decode()
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value)


def read_json(text: str):
    """A JSON column's stored text read back (orjson; the standard library for what it refuses, e.g. NaN)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def database_url(app) -> str:
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not url:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        return "sqlite:///" + str(Path(app.instance_path) / "paiju.db")
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def migrations_dir() -> str:
    """``migrations/`` beside the packages in a checkout, inside ``webapp/`` in a wheel."""
    inside = _WEBAPP / "migrations"
    return str(inside if inside.is_dir() else _WEBAPP.parent / "migrations")


def init_app(app) -> None:
    url = database_url(app)
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault("json_serializer", stored_json)
    options.setdefault("json_deserializer", read_json)
    if url.startswith("sqlite"):
        options.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT, "check_same_thread": False})
    else:
        options.setdefault("pool_pre_ping", True)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    db.init_app(app)

    app.extensions["migrate"] = MigrateOnFirstUse(app)
    if os.environ.get("FLASK_RUN_FROM_CLI") == "true":  # the `flask db …` commands are looked up now
        app.extensions["migrate"].register()

    with app.app_context():
        engine = db.engine
        _ENGINES.add(engine)
        if engine.dialect.name == "sqlite":
            _sqlite_events(engine)
    app.extensions["paiju_db"] = {"migrated": False}


class MigrateOnFirstUse:
    """Flask-Migrate's registration, made when something first asks for it (an upgrade, a ``flask db``
    command): importing Flask-Migrate imports Alembic, some 50 modules and ~0.4 s that only migrating
    needs. Registering replaces this stand-in in ``app.extensions`` with Flask-Migrate's own."""

    def __init__(self, app):
        self._app = app

    def register(self):
        from flask_migrate import Migrate
        Migrate(self._app, db, directory=migrations_dir())
        return self._app.extensions["migrate"]

    def __getattr__(self, name: str):
        return getattr(self.register(), name)


def _sqlite_events(engine) -> None:
    """pysqlite's own transaction handling is off; we emit BEGIN ourselves."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT * 1000}")
        cur.execute("PRAGMA foreign_keys = ON")
        if engine.url.database not in (None, "", ":memory:"):
            cur.execute("PRAGMA journal_mode = WAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if _IMMEDIATE.get() else "BEGIN")


@contextlib.contextmanager
def migrations_locked(connection):
    """Hold the ledger's migration lock on ``connection`` while Alembic migrates with it, so several
    processes starting at once migrate one after the other, each reading the version the last left.

    PostgreSQL: an advisory lock (Alembic runs every migration in one transaction there). SQLite: one
    ``BEGIN IMMEDIATE`` transaction around them all (Alembic counts SQLite's DDL as not transactional
    and would commit after each migration, letting another process read the version in between and
    apply the next migration a second time), with foreign keys off (:func:`_sqlite_foreign_keys_off`)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
        connection.commit()
        try:
            yield
        finally:
            connection.rollback()
            connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_MIGRATION_LOCK})
            connection.commit()
    elif connection.dialect.name == "sqlite":
        token = _IMMEDIATE.set(True)
        try:
            with _sqlite_foreign_keys_off(connection), connection.begin():
                dangling = set(_dangling_rows(connection))  # from before this upgrade: not its doing
                yield  # Alembic sees a transaction begun outside it and leaves it be
                added = set(_dangling_rows(connection)) - dangling
                if added:  # raised inside the transaction: it rolls back
                    raise MigrationBrokeReferences(sorted(added)[:5])
        finally:
            _IMMEDIATE.reset(token)
    else:
        yield


class MigrationBrokeReferences(Exception):
    """An upgrade would leave rows referring to rows that are gone (not a RuntimeError: Flask-Migrate turns
    those into ``sys.exit``, which would stop a server starting rather than let it retry and log)."""

    def __init__(self, rows):
        super().__init__(f"the migrations would leave rows referring to no row (table, rowid, …): {rows}")


def _dangling_rows(connection) -> list[tuple]:
    return [tuple(row) for row in connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()]


@contextlib.contextmanager
def _sqlite_foreign_keys_off(connection):
    """SQLite changes or drops a column by rebuilding the table, and dropping the old one deletes its
    rows: with foreign keys on, that deletes every row referring to them (a table's hands) by cascade.
    So foreign keys are off while migrating, as SQLite's ALTER TABLE page says; the pragma only takes
    effect outside a transaction, hence on the driver's connection before the transaction begins."""
    driver = connection.connection.driver_connection
    driver.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        if driver.in_transaction:  # a rollback that failed: the pragma would do nothing, so drop the connection
            connection.invalidate()
        else:
            driver.execute("PRAGMA foreign_keys = ON")


def ensure_schema(app=None) -> None:
    """Apply the migrations once per app (idempotent, safe across threads)."""
    app = app or current_app._get_current_object()
    state = app.extensions["paiju_db"]
    if state["migrated"]:
        return
    with _MIGRATE_LOCK:  # Alembic's context is process-global: one upgrade at a time
        if state["migrated"]:
            return
        from flask_migrate import upgrade  # as above: Alembic only when migrating
        with app.app_context():
            # a second process starting at the same moment waits for the first and then finds the
            # schema current (migrations_locked, used by migrations/env.py)
            state["auto_migrating"] = True
            try:
                try:
                    upgrade(directory=migrations_dir())
                except Exception:  # noqa: BLE001 - e.g. another process migrating past the busy timeout: once more
                    db.session.remove()
                    db.engine.dispose()
                    time.sleep(0.2)
                    upgrade(directory=migrations_dir())
            finally:
                state["auto_migrating"] = False
                db.session.remove()
        state["migrated"] = True


def migrate_before_fork(app) -> None:
    """In a server's master process, before it forks workers: apply the migrations once and close every
    connection that took, so each worker starts with the schema current and nothing to do. Should the
    database not answer yet, the workers migrate on first use as before."""
    try:
        ensure_schema(app)
    except Exception:  # noqa: BLE001 - a database still starting must not stop the server starting
        _log.exception("migrations not applied at start; the workers will apply them on first use")
    with app.app_context():
        db.engine.dispose()


def begin_write() -> None:
    """Start a fresh write transaction on the session (SQLite: BEGIN IMMEDIATE)."""
    db.session.rollback()
    if db.engine.dialect.name == "sqlite":
        token = _IMMEDIATE.set(True)
        try:
            db.session.connection()
        finally:
            _IMMEDIATE.reset(token)
    else:
        db.session.connection()
