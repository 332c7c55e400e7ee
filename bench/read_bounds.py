"""Bytes and CPU of every read without a token at the largest table and the longest circle the ledger accepts
(``python -m bench.read_bounds [repeat]``; issue 38 item 7: each within 2 MB and 0.2 s of CPU).

Tables (Q783, SQLite; :mod:`bench.large_tables`): 300 ordinary hands of four players; 300 and 2,000 (the hand limit)
of the largest hand the API accepts (six players with 16-character names, as many rounds as a hand may have). A
circle: the most evenings it may have, of 50 ordinary hands each.

For each read: the bytes of its answer (a paged read: its largest page, and how many pages the whole takes) and the
median CPU of ``repeat`` requests, warm and "cold" (as a fresh process first reads it: the rendered results and the
readable-table check forgotten before each). No assertion: figures to watch; the tests state the bounds in bytes and
pages (``tests/web/test_read_bounds.py``).
"""
from __future__ import annotations

import statistics
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


#: issue 38 item 7: every read within 2 MB and 0.2 s of CPU, warm or as a fresh process first reads it
GOAL_KB, GOAL_MS = 2048, 200.0


def row(client, name: str, url: str, repeat: int) -> None:
    answers = pages(client, url)
    largest = max(len(resp.data) for resp in answers)
    warm, cold = cpu_ms(client, url, repeat, False), cpu_ms(client, url, repeat, True)
    within = largest / 1024 <= GOAL_KB and max(warm, cold) <= GOAL_MS
    print(f"  {name:<34} {largest / 1024:>9.0f} {len(answers):>6} {warm:>9.1f} {cold:>9.1f}"
          f"  {'within' if within else 'OVER'}")


def header(title: str) -> None:
    print(title)
    print(f"  {'read':<34} {'KB (max)':>9} {'pages':>6} {'CPU ms':>9} {'cold ms':>9}"
          f"  against {GOAL_KB // 1024} MB and {GOAL_MS / 1000:g} s")


def table_reads(client, table_id: str, repeat: int) -> None:
    for name, url in (("API GET /api/v1/tables/<id>", f"/api/v1/tables/{table_id}"),
                      ("page /tables/<id>", f"/tables/{table_id}"),
                      ("live poll from scratch (v=0)", f"/tables/{table_id}/live?v=0"),
                      ("CSV /tables/<id>/export.csv", f"/tables/{table_id}/export.csv"),
                      ("API settle-up", f"/api/v1/tables/{table_id}/settle-up"),
                      ("page settle-up", f"/tables/{table_id}/settle-up")):
        row(client, name, url, repeat)


def measure_tables(app, client, repeat: int) -> None:
    ordinary, headers = new_table(client, ["甲", "乙", "丙", "丁"])
    for i in range(4):
        record(client, ordinary, headers, ordinary_q783_hand(i))
    fill_by_copying(app, ordinary, 300)
    header("Q783, 300 ordinary hands (4 players)")
    table_reads(client, ordinary, repeat)
    large, headers = new_table(client, LONG_NAMES, LARGE_RULES)
    record(client, large, headers, largest_q783_hand())
    for size in (300, 2000):
        fill_by_copying(app, large, size)
        header(f"Q783, {size} of the largest hands ({len(largest_q783_hand()['rounds'])} rounds, 6 players)")
        table_reads(client, large, repeat)


def measure_circle(app, client, repeat: int, evenings: int) -> None:
    circle, _first = circle_of(app, client, evenings, CIRCLE_HANDS)
    header(f"a circle of {evenings} evenings of {CIRCLE_HANDS} ordinary hands")
    for name, url in (("API GET /api/v1/circles/<c>", f"/api/v1/circles/{circle}"),
                      ("page /circles/<c>", f"/circles/{circle}"),
                      ("CSV /circles/<c>/export.csv", f"/circles/{circle}/export.csv")):
        row(client, name, url, repeat)


def longest_circle() -> int:
    """The most evenings a circle may have (``LEDGER_MAX_EVENINGS``)."""
    from webapp.ledger.service import max_evenings
    return max_evenings()


def main(argv=None) -> int:
    repeat = int((argv or sys.argv[1:] or ["5"])[0])
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{Path(tmp) / 'reads.db'}", **LIMITS})
        client = app.test_client()
        measure_tables(app, client, repeat)
        with app.app_context():
            evenings = longest_circle()
        measure_circle(app, client, repeat, evenings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
