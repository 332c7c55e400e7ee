"""Bytes and CPU of every read without a token at the largest table and the longest circle the ledger accepts
(``python -m bench.read_bounds [repeat]``; issue 38 item 7: each within 2 MB and 0.2 s of CPU).

Tables (Q783; :mod:`bench.large_tables`): 300 ordinary hands of four players; 300 and 2,000 (the hand limit)
of the largest hand the API accepts (six players with 16-character names, as many rounds as a hand may have). A
circle: the most evenings it may have, of 50 ordinary hands each. On SQLite, and on PostgreSQL too when
``PAIJU_BENCH_POSTGRES_URL`` names a server (a throwaway one: ``bash .ci/postgres.sh`` prints its URL).

For each read: the bytes of its answer (a paged read: its largest page, and how many pages the whole takes) and the
median CPU of ``repeat`` requests: warm (the same process asked before), "forgotten" (the rendered results and the
readable-table check forgotten before each) and cold: the first request of a fresh process, made as gunicorn makes
a worker (the app built, migrated and warmed up as ``gunicorn.conf.py`` does, then asked once), one process per
request. Each read is printed against its goal (2 MB, 0.2 s of CPU warm and cold). No assertion: figures to watch;
the tests state the bounds in bytes and pages (``tests/web/test_read_bounds.py``).
"""
from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.large_tables import (LARGE_RULES, LIMITS, LONG_NAMES, circle_of, fill_by_copying, largest_q783_hand,
                                new_table, ordinary_q783_hand, record)
from webapp import create_app
from webapp.ledger import integrity
from webapp.ledger.shown import SHOWN

CIRCLE_HANDS = 50


def forget() -> None:
    """What a fresh process has not read yet: every rendered result and every table's readable check."""
    SHOWN.clear()
    integrity._memo.clear()


def next_url(resp) -> str | None:
    """The next page's address, as the answer's ``Link`` header names it (rel="next"), or None."""
    link = resp.headers.get("Link", "")
    if 'rel="next"' not in link:
        return None
    url = link.split(";")[0].strip("<> ")
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def pages(client, url: str) -> list:
    """Every page of a read, following its ``Link: rel="next"``."""
    out = []
    while url is not None and len(out) < 10_000:
        resp = client.get(url)
        assert resp.status_code == 200, (url, resp.status_code)
        out.append(resp)
        url = next_url(resp)
    return out


def cpu_ms(client, url: str, repeat: int, cold: bool) -> float:
    times = []
    for _ in range(repeat):
        if cold:
            forget()
        c0 = time.process_time()
        client.get(url)
        times.append((time.process_time() - c0) * 1000)
    return statistics.median(times)


def served_app(database_url: str):
    """The app as a gunicorn worker has it when forked (``gunicorn.conf.py``: built, migrated, warmed up, what
    start-up made frozen out of the collector's reach)."""
    from webapp.ledger.db import migrate_before_fork
    from webapp.render import warm_up
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": database_url, **LIMITS})
    migrate_before_fork(app)
    warm_up(app)
    gc.collect()
    gc.freeze()
    return app


def first_request_ms(database_url: str, url: str) -> float:
    """The CPU of ``url`` asked first of a fresh process (:func:`served_app`), in another process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-m", "bench.read_bounds", "--first", database_url, url],
                         capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.split()[-1])


def fresh_ms(database_url: str, url: str, repeat: int) -> float:
    return statistics.median(first_request_ms(database_url, url) for _ in range(repeat))


#: issue 38 item 7: every read within 2 MB and 0.2 s of CPU, warm or as a fresh process first reads it
GOAL_KB, GOAL_MS = 2048, 200.0


def row(client, name: str, url: str, repeat: int, database_url: str) -> None:
    answers = pages(client, url)
    largest = max(len(resp.data) for resp in answers)
    warm, forgotten = cpu_ms(client, url, repeat, False), cpu_ms(client, url, repeat, True)
    fresh = fresh_ms(database_url, url, repeat)
    within = largest / 1024 <= GOAL_KB and max(warm, fresh) <= GOAL_MS
    print(f"  {name:<34} {largest / 1024:>9.0f} {len(answers):>6} {warm:>8.1f} {forgotten:>9.1f} {fresh:>8.1f}"
          f"  {'within' if within else 'OVER'}", flush=True)


def header(title: str) -> None:
    print(title)
    print(f"  {'read':<34} {'KB (max)':>9} {'pages':>6} {'warm ms':>8} {'forgot ms':>9} {'cold ms':>8}"
          f"  against {GOAL_KB // 1024} MB and {GOAL_MS / 1000:g} s (warm, cold)", flush=True)


def table_reads(client, table_id: str, repeat: int, database_url: str) -> None:
    for name, url in (("API GET /api/v1/tables/<id>", f"/api/v1/tables/{table_id}"),
                      ("page /tables/<id>", f"/tables/{table_id}"),
                      ("live poll from scratch (v=0)", f"/tables/{table_id}/live?v=0"),
                      ("CSV /tables/<id>/export.csv", f"/tables/{table_id}/export.csv"),
                      ("API settle-up", f"/api/v1/tables/{table_id}/settle-up"),
                      ("page settle-up", f"/tables/{table_id}/settle-up")):
        row(client, name, url, repeat, database_url)


def measure_tables(app, client, repeat: int, database_url: str) -> None:
    ordinary, headers = new_table(client, ["甲", "乙", "丙", "丁"])
    for i in range(4):
        record(client, ordinary, headers, ordinary_q783_hand(i))
    fill_by_copying(app, ordinary, 300)
    header("Q783, 300 ordinary hands (4 players)")
    table_reads(client, ordinary, repeat, database_url)
    large, headers = new_table(client, LONG_NAMES, LARGE_RULES)
    record(client, large, headers, largest_q783_hand())
    for size in (300, 2000):
        fill_by_copying(app, large, size)
        header(f"Q783, {size} of the largest hands ({len(largest_q783_hand()['rounds'])} rounds, 6 players)")
        table_reads(client, large, repeat, database_url)


def measure_circle(app, client, repeat: int, evenings: int, database_url: str) -> None:
    circle, _first = circle_of(app, client, evenings, CIRCLE_HANDS)
    header(f"a circle of {evenings} evenings of {CIRCLE_HANDS} ordinary hands")
    for name, url in (("API GET /api/v1/circles/<c>", f"/api/v1/circles/{circle}"),
                      ("page /circles/<c>", f"/circles/{circle}"),
                      ("CSV /circles/<c>/export.csv", f"/circles/{circle}/export.csv")):
        row(client, name, url, repeat, database_url)


def longest_circle() -> int:
    """The most evenings a circle may have (``LEDGER_MAX_EVENINGS``)."""
    from webapp.ledger.service import max_evenings
    return max_evenings()


def measure(database_url: str, repeat: int) -> None:
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": database_url, **LIMITS})
    client = app.test_client()
    measure_tables(app, client, repeat, database_url)
    with app.app_context():
        evenings = longest_circle()
    measure_circle(app, client, repeat, evenings, database_url)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--first"]:  # a fresh process's first request (first_request_ms)
        client = served_app(argv[1]).test_client()
        c0 = time.process_time()
        client.get(argv[2])
        print(f"{(time.process_time() - c0) * 1000:.1f}")
        return 0
    repeat = int((argv or ["5"])[0])
    with tempfile.TemporaryDirectory() as tmp:
        print("SQLite", flush=True)
        measure(f"sqlite:///{Path(tmp) / 'reads.db'}", repeat)
    postgres = os.environ.get("PAIJU_BENCH_POSTGRES_URL")
    if postgres:
        print("PostgreSQL", flush=True)
        measure(postgres, repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
