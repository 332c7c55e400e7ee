"""The tests' databases: a migrated SQLite file and a migrated PostgreSQL database made once per test process,
and each test's own copy of them (a file copy; ``CREATE DATABASE … TEMPLATE``), so a test pays for a copy,
not for running every migration again. The migrations themselves are tested on empty databases
(:func:`fresh_postgres_database`, a new SQLite path) in tests/web/test_ledger_db.py.

PostgreSQL comes from ``PAIJU_TEST_POSTGRES_URL`` (CI exports it from ``.ci/postgres.sh``); when it is unset
the first test that needs it starts a throwaway server with that same script, and fails loudly (never skips)
when no server can be had."""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "postgres.sh"

_PG: dict = {}
_SQLITE: dict = {}


def plain_url(url: str) -> str:
    """psycopg's own connect() takes postgresql://, not the SQLAlchemy dialect form."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _start_postgres() -> str:
    dir_file = tempfile.NamedTemporaryFile(prefix="paiju-pg-dir-", delete=False).name
    proc = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PAIJU_PG_DIR_FILE": dir_file, "PAIJU_PG_WATCH_PID": str(os.getpid())})
    if proc.returncode != 0 or not proc.stdout.strip():
        raise RuntimeError(f"{SCRIPT} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    pg_dir = Path(dir_file).read_text().strip()
    os.unlink(dir_file)
    atexit.register(subprocess.run, ["bash", str(SCRIPT), "stop", pg_dir], capture_output=True, timeout=120)
    return proc.stdout.strip().splitlines()[-1]


def postgres_server_url() -> str:
    """The server URL, starting a throwaway server once per test process if none is given."""
    if "url" in _PG:
        return _PG["url"]
    if "error" in _PG:
        pytest.fail(_PG["error"], pytrace=False)
    try:
        url = os.environ.get("PAIJU_TEST_POSTGRES_URL") or _start_postgres()
        import psycopg
        with psycopg.connect(plain_url(url), connect_timeout=10) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure must fail the tests loudly
        _PG["error"] = ("PostgreSQL is required for the ledger tests and none could be reached or started "
                        f"(set PAIJU_TEST_POSTGRES_URL or make `bash .ci/postgres.sh` work): {exc}")
        print(_PG["error"], file=sys.stderr)
        pytest.fail(_PG["error"], pytrace=False)
    _PG["url"] = url
    return url


def _admin(sql: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    server = make_url(postgres_server_url()).render_as_string(hide_password=False)
    with psycopg.connect(plain_url(server), autocommit=True) as conn:
        conn.execute(sql)


def _new_database(template: str | None = None):
    """A new database on the test server (a copy of ``template`` if given); returns (url, drop)."""
    from sqlalchemy.engine import make_url

    name = f"paiju_{uuid.uuid4().hex[:16]}"
    _admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""))
    url = make_url(postgres_server_url()).set(database=name).render_as_string(hide_password=False)
    return url, lambda: _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_postgres_database():
    """A new, empty database on the test server; returns (url, drop)."""
    return _new_database()


def _migrate(url: str) -> None:
    from webapp import create_app
    from webapp.ledger.db import db, ensure_schema

    app = create_app({"TESTING": True, "SECRET_KEY": "template", "DATABASE_URL": url})
    ensure_schema(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def migrated_postgres_database():
    """A new database holding the current schema, copied from this process's migrated template."""
    if "template" not in _PG:
        url, drop = _new_database()
        _migrate(url)
        _PG["template"] = url.rsplit("/", 1)[1].split("?", 1)[0]
        atexit.register(drop)
    return _new_database(_PG["template"])


def migrated_sqlite_url(path: Path) -> str:
    """An SQLite URL at ``path``, the file a copy of this process's migrated template."""
    if "template" not in _SQLITE:
        template = Path(tempfile.mkdtemp(prefix="paiju-sqlite-template-")) / "template.db"
        _migrate(f"sqlite:///{template}")
        import sqlite3
        with sqlite3.connect(template) as conn:  # everything in the main file: the copy needs no -wal beside it
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA journal_mode = DELETE")
        _SQLITE["template"] = template
        atexit.register(shutil.rmtree, template.parent, True)
    shutil.copyfile(_SQLITE["template"], path)
    return f"sqlite:///{path}"


def mark_migrated(app):
    """``app`` on a copied template: its first request need not ask Alembic whether the schema is current."""
    app.extensions["paiju_db"]["migrated"] = True
    return app
