"""Serving for real (issue 25): the rate limits hold across every worker process of `make serve` (counted in
the database) and across two servers sharing PostgreSQL and Redis; two servers on one database agree on a
table, its live polls and an idempotency key; kill -9 of one server during writes loses and doubles nothing
while the clients carry on against the other."""
from __future__ import annotations

import os
import signal
import threading
from contextlib import ExitStack

import pytest

from servers import call, create_tables, redis_server_url
from test_ledger_db import fresh_postgres_database
from test_serving import make_serve

pytestmark = pytest.mark.slow  # server processes: left out of `make check`

PLAYERS = ["甲", "乙", "丙", "丁"]
CREATE_LIMIT = 20


def test_a_limit_of_20_a_minute_lets_20_table_creations_through_across_every_worker(tmp_path):
    with make_serve(tmp_path, WEB_CONCURRENCY="4", LEDGER_CREATE_LIMIT=f"{CREATE_LIMIT} per minute") as (port, _):
        statuses = create_tables([port], 2 * CREATE_LIMIT)
    assert statuses.count(201) == CREATE_LIMIT and statuses.count(429) == CREATE_LIMIT


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    """Two `make serve`s (two workers each) on one PostgreSQL database and one Redis: (ports, procs, redis)."""
    import redis
    url, drop = fresh_postgres_database()
    redis_url = redis_server_url()
    store = redis.Redis.from_url(redis_url)
    store.flushdb()
    shared = {"DATABASE_URL": url, "RATELIMIT_STORAGE_URI": redis_url, "WEB_CONCURRENCY": "2",
              "LEDGER_CREATE_LIMIT": f"{CREATE_LIMIT} per minute", "LEDGER_WRITE_LIMIT": "100000 per minute"}
    with ExitStack() as stack:
        servers = [stack.enter_context(make_serve(tmp_path_factory.mktemp(f"server{i}"), **shared))
                   for i in range(2)]
        yield [port for port, _log in servers], store
    drop()


def _table(port: int) -> tuple[str, dict]:
    status, created, _ = call(port, "POST", "/api/v1/tables", {"game": "q783", "players": PLAYERS})
    assert status == 201, created
    return created["id"], {"X-Edit-Token": created["edit_token"]}


def test_a_table_made_on_one_server_is_read_and_polled_live_on_the_other(two_servers):
    (one, other), _store = two_servers
    tid, token = _table(one)
    status, table, headers = call(other, "GET", f"/api/v1/tables/{tid}")
    assert status == 200 and table["players"] == PLAYERS and table["hands"] == []
    assert call(other, "GET", f"/api/v1/tables/{tid}", headers={"If-None-Match": headers["ETag"]})[0] == 304
    assert call(one, "POST", f"/api/v1/tables/{tid}/hands", {"rounds": [], "finish_order": [0]}, token)[0] == 201
    status, polled, _ = call(other, "GET", f"/api/v1/tables/{tid}", headers={"If-None-Match": headers["ETag"]})
    assert status == 200 and len(polled["hands"]) == 1 and polled["version"] > table["version"]


def test_one_idempotency_key_sent_to_both_servers_records_once(two_servers):
    (one, other), _store = two_servers
    tid, token = _table(one)
    hand = {"rounds": [], "finish_order": [1]}
    first = call(one, "POST", f"/api/v1/tables/{tid}/hands", hand, {**token, "Idempotency-Key": "after"})
    again = call(other, "POST", f"/api/v1/tables/{tid}/hands", hand, {**token, "Idempotency-Key": "after"})
    assert first[0] == again[0] == 201 and first[1] == again[1]
    answers = []
    threads = [threading.Thread(target=lambda port=port: answers.append(call(
        port, "POST", f"/api/v1/tables/{tid}/hands", hand, {**token, "Idempotency-Key": "at-once"})))
        for port in (one, other) * 4]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert {a[0] for a in answers} == {201} and len({a[1]["hand"]["number"] for a in answers}) == 1
    assert len(call(other, "GET", f"/api/v1/tables/{tid}")[1]["hands"]) == 2


def test_a_limit_of_20_a_minute_counts_across_both_servers(two_servers):
    ports, store = two_servers
    store.flushdb()  # the earlier tests' creations are not this test's
    statuses = create_tables(ports, 2 * CREATE_LIMIT)
    assert statuses.count(201) == CREATE_LIMIT and statuses.count(429) == CREATE_LIMIT
    store.flushdb()


def _writer(ports, tid, token, name, count, acknowledged):
    """Writes ``count`` hands, each with its own key, to the first server that answers; a hand whose answer
    was lost is sent again with the same key (to the other server)."""
    for i in range(count):
        key = f"{name}-{i}"
        for attempt in range(20):
            port = ports[(i + attempt) % len(ports)]
            try:
                status, answer, _ = call(port, "POST", f"/api/v1/tables/{tid}/hands",
                                         {"rounds": [], "finish_order": [i % 4]}, {**token, "Idempotency-Key": key},
                                         timeout=10)
            except OSError:
                continue
            if status == 201:
                acknowledged[key] = answer["hand"]["number"]
                break


def test_kill_9_of_one_server_during_writes_loses_and_doubles_nothing(two_servers):
    ports, _store = two_servers
    tid, token = _table(ports[1])
    acknowledged: dict[str, int] = {}
    writers = [threading.Thread(target=_writer, args=(ports, tid, token, f"w{n}", 15, acknowledged))
               for n in range(6)]
    for th in writers:
        th.start()
    while len(acknowledged) < 20:
        threading.Event().wait(0.05)
    victim = _serve_pid(ports[0])
    os.killpg(victim, signal.SIGKILL)  # the master and its workers, mid-write
    for th in writers:
        th.join(120)
    table = call(ports[1], "GET", f"/api/v1/tables/{tid}")[1]
    numbers = [h["number"] for h in table["hands"]]
    assert len(acknowledged) == 6 * 15  # every writer carried on against the other server
    assert numbers == list(range(1, len(numbers) + 1))  # nothing lost in between, nothing doubled
    assert len(numbers) == len(acknowledged) and set(acknowledged.values()) == set(numbers)


def _serve_pid(port: int) -> int:
    """The process group of the `make serve` listening on ``port`` (make_serve starts each in its own)."""
    from test_serving import SERVERS
    return SERVERS[port]
