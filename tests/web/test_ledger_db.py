"""The ledger's database: fixtures for SQLite *and* PostgreSQL, and the
schema/migration tests.

Every ledger test runs on both databases (tests/databases.py says where
PostgreSQL comes from). Each test gets its own copy of the migrated schema;
the migration tests here, marked ``empty_database``, start from nothing.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from databases import (
    fresh_postgres_database,
    mark_migrated,
    migrated_postgres_database,
    migrated_sqlite_url,
)
from sqlalchemy import inspect, text

from webapp import create_app
from webapp.ledger.db import database_url, db, ensure_schema

ROOT = Path(__file__).resolve().parents[2]
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def make_ledger_app(kind: str, tmp_path: Path, migrated: bool = True, **config):
    """The whole app on its own database of ``kind``: a copy of the migrated schema, or (``migrated=False``)
    an empty database that the first request migrates."""
    if kind == "sqlite":
        path = tmp_path / "ledger.db"
        url, drop = (migrated_sqlite_url(path) if migrated else f"sqlite:///{path}"), None
    else:
        url, drop = migrated_postgres_database() if migrated else fresh_postgres_database()
    # the tests open many tables a minute from one address: rate limits are tested on their own
    limits = {"LEDGER_CREATE_LIMIT": "10000 per minute", "LEDGER_WRITE_LIMIT": "10000 per minute"}
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, **limits, **config})
    return (mark_migrated(app) if migrated else app), drop


def close_ledger_app(app, drop) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    if drop:
        drop()


@pytest.fixture(params=DATABASES)
def ledger_app(request, tmp_path):
    """The whole app on SQLite, then on PostgreSQL, each a copy of the migrated schema; a test marked
    ``empty_database`` gets an empty one, migrated by its first request."""
    empty = request.node.get_closest_marker("empty_database") is not None
    app, drop = make_ledger_app(request.param, tmp_path, migrated=not empty)
    yield app
    close_ledger_app(app, drop)


@pytest.fixture
def lclient(ledger_app):
    return ledger_app.test_client()


# ---------------------------------------------------------------------------
# Schema tests
# ---------------------------------------------------------------------------

@pytest.mark.empty_database
def test_migrations_create_the_ledger_schema_on_first_use(ledger_app):
    ensure_schema(ledger_app)
    with ledger_app.app_context():
        insp = inspect(db.engine)
        assert {"ledger_tables", "ledger_hands", "alembic_version"} <= set(insp.get_table_names())
        uniques = insp.get_unique_constraints("ledger_hands")
        assert any(sorted(u["column_names"]) == ["number", "table_id"] for u in uniques)
        assert db.session.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0010"
        if db.engine.dialect.name == "sqlite":  # 0010: the large result last, so no small column is read past it
            columns = [c["name"] for c in insp.get_columns("ledger_hands")]
            assert columns[-1] == "result" and columns.index("input") == len(columns) - 2, columns


@pytest.mark.empty_database
def test_migrations_are_idempotent_across_app_starts(ledger_app):
    ensure_schema(ledger_app)
    url = ledger_app.config["DATABASE_URL"]
    again = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url})
    try:
        ensure_schema(again)
        with again.app_context():
            assert db.session.execute(text("SELECT count(*) FROM ledger_tables")).scalar() == 0
    finally:
        with again.app_context():
            db.engine.dispose()


def test_database_url_defaults_to_sqlite_under_instance_and_maps_postgres_to_psycopg(tmp_path, monkeypatch):
    from types import SimpleNamespace
    monkeypatch.delenv("DATABASE_URL", raising=False)
    fake = SimpleNamespace(config={"DATABASE_URL": None}, instance_path=str(tmp_path / "instance"))
    assert database_url(fake) == f"sqlite:///{tmp_path / 'instance' / 'paiju.db'}"
    assert (tmp_path / "instance").is_dir()
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@h/db")
    assert database_url(fake) == "postgresql+psycopg://u:p@h/db"
    fake.config["DATABASE_URL"] = "postgresql://u@h:5/db"
    assert database_url(fake) == "postgresql+psycopg://u@h:5/db"
    fake.config["DATABASE_URL"] = "sqlite:///x.db"
    assert database_url(fake) == "sqlite:///x.db"


STARTER = """
import sys
from webapp import create_app
from webapp.ledger.db import ensure_schema
app = create_app({"SECRET_KEY": "t", "DATABASE_URL": sys.argv[1]})
ensure_schema(app)
resp = app.test_client().post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]})
assert resp.status_code == 201, resp.get_data(as_text=True)
"""


@pytest.mark.slow  # server processes: left out of `make check`
@pytest.mark.parametrize("kind", DATABASES)
def test_several_server_processes_starting_at_once_all_find_the_schema_ready(kind, tmp_path):
    url, drop = (f"sqlite:///{tmp_path / 'race.db'}", None) if kind == "sqlite" else fresh_postgres_database()
    try:
        procs = [subprocess.Popen([sys.executable, "-c", STARTER, url], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(4)]
        outs = [p.communicate(timeout=300) for p in procs]
        assert [p.returncode for p in procs] == [0] * 4, [err[-2000:] for _, err in outs]
        app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": url})
        with app.app_context():
            assert db.session.execute(text("SELECT count(*) FROM ledger_tables")).scalar() == 4
            db.session.remove()
            db.engine.dispose()
    finally:
        if drop:
            drop()


def test_an_sqlite_upgrade_is_one_transaction_so_no_other_process_sees_it_half_done(tmp_path):
    """SQLite DDL is not transactional to Alembic, which commits after each migration; another process
    could then start on the next migration at the same time (CI saw 0003 → 0004 updated twice).
    The whole upgrade is one BEGIN IMMEDIATE transaction: while it runs, other connections see nothing."""
    import sqlite3
    from contextlib import closing

    from alembic.script import ScriptDirectory

    from webapp.ledger.db import migrations_dir
    path = tmp_path / "one.db"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{path}"})
    seen, used = [], []

    def look(ctx, **_):
        used.append(ctx.connection.connection.driver_connection)
        assert used[-1].execute("PRAGMA foreign_keys").fetchone() == (0,)  # off while migrating
        with closing(sqlite3.connect(path, timeout=0)) as other:
            seen.append(other.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall())

    app.extensions["migrate"].configure_args["on_version_apply"] = [look]
    try:
        ensure_schema(app)
        assert used[-1].execute("PRAGMA foreign_keys").fetchone() == (1,)  # back on, in the pool
    finally:
        close_ledger_app(app, None)
    migrations = len(list(ScriptDirectory(migrations_dir()).walk_revisions()))
    assert len(seen) == migrations > 1 and all(tables == [] for tables in seen), seen


def test_the_models_and_the_migrations_describe_the_same_schema(ledger_app):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    ensure_schema(ledger_app)
    with ledger_app.app_context():
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
    assert diff == [], "webapp/ledger/models.py changed without a migration: run `flask --app webapp db migrate`"


def test_a_row_left_dangling_before_an_upgrade_does_not_stop_it(tmp_path):
    """The upgrade refuses to leave rows referring to no row, but only those it would make itself."""
    import sqlite3
    from contextlib import closing

    from flask_migrate import upgrade

    from webapp.ledger.db import migrations_dir
    path = tmp_path / "old.db"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{path}"})
    try:
        with app.app_context():
            upgrade(directory=migrations_dir(), revision="0003")
        with closing(sqlite3.connect(path)) as raw, raw:  # foreign keys off: a hand of no table
            raw.execute("INSERT INTO ledger_hands (table_id, number, input, deltas, result, created_at, updated_at, "
                        "input_version, changed_version) VALUES ('gone', 1, '{}', '[]', '{}', 'x', 'x', 0, 0)")
        ensure_schema(app)
        with app.app_context():
            assert db.session.execute(text("SELECT table_id FROM ledger_hands")).scalars().all() == ["gone"]
            db.session.remove()
    finally:
        close_ledger_app(app, None)


def test_a_downgrade_and_upgrade_keep_every_table_and_its_hands(lclient, ledger_app):
    """SQLite changes a column by rebuilding the table: its DROP must not cascade to the rows referring to
    it (the hands), as it would with foreign keys on. Down to 0002 and back up, the table and its hand stay."""
    from flask_migrate import downgrade, upgrade

    from webapp.ledger.db import migrations_dir
    made = lclient.post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]}).get_json()
    hand = {"banks": [100] * 3, "rounds": [], "finish_order": [0]}
    assert lclient.post(f"/api/v1/tables/{made['id']}/hands", json=hand,
                        headers={"X-Edit-Token": made["edit_token"]}).status_code == 201
    count = "SELECT (SELECT count(*) FROM ledger_tables), (SELECT count(*) FROM ledger_hands)"
    with ledger_app.app_context():
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0002")
        assert tuple(db.session.execute(text(count)).one()) == (1, 1)
        db.session.remove()
        upgrade(directory=migrations_dir())
        assert tuple(db.session.execute(text(count)).one()) == (1, 1)
        db.session.remove()
    assert [h["number"] for h in lclient.get(f"/api/v1/tables/{made['id']}").get_json()["hands"]] == [1]


@pytest.mark.empty_database
def test_migration_0002_marks_the_stored_hands_that_end_a_series(ledger_app):
    """Hands stored before 0002 get ends_series from their result (a Q783 hand whose 大局 is over)."""
    from flask_migrate import upgrade

    from webapp.ledger.db import migrations_dir
    with ledger_app.app_context():
        upgrade(directory=migrations_dir(), revision="0001")
        now = "2026-11-30 12:00:00"
        db.session.execute(text("INSERT INTO ledger_tables (id, token_hash, game, players, rules, version, "
                                "created_at, updated_at) VALUES ('t1', 'x', 'q783', '[]', '{}', 3, :n, :n)"),
                           {"n": now})
        for number, over in ((1, False), (2, True)):
            result = '{"zh": {"game_over": %s}, "en": {}}' % ("true" if over else "false")
            db.session.execute(text("INSERT INTO ledger_hands (table_id, number, input, deltas, result, "
                                    "created_at, updated_at) VALUES ('t1', :num, '{}', '[]', :r, :n, :n)"),
                               {"num": number, "r": result, "n": now})
        db.session.commit()
        upgrade(directory=migrations_dir())
        ends = db.session.execute(text("SELECT number, ends_series FROM ledger_hands ORDER BY number")).all()
        assert [(n, bool(e)) for n, e in ends] == [(1, False), (2, True)]
        db.session.remove()
