"""Phones writing at the same moment, with real threads, against a file
SQLite database and a PostgreSQL server: no lost hand, no duplicate number,
no corrupted totals, and stale edits get a 409 instead of overwriting."""
from __future__ import annotations

import threading
from collections import Counter

import pytest

from test_ledger_db import ledger_app  # noqa: F401 - fixture

THREADS = 8
HANDS_EACH = 5


def run_together(app, jobs):
    """Run each job(client) in its own thread, all released at once; returns results."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)
    errors: list = []

    def runner(i, job):
        client = app.test_client()
        try:
            barrier.wait()
            results[i] = job(client)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=runner, args=(i, job)) for i, job in enumerate(jobs)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    return results


def create(client, players=("甲", "乙", "丙", "丁"), rules=None):
    resp = client.post("/api/v1/tables", json={"game": "q783", "players": list(players), "rules": rules or {}})
    assert resp.status_code == 201
    body = resp.get_json()
    return body["id"], body["edit_token"]


def first_out(seat):
    return {"rounds": [], "finish_order": [seat]}


def test_hands_submitted_at_the_same_moment_are_all_kept_with_distinct_numbers(ledger_app):
    client = ledger_app.test_client()
    tid, token = create(client)

    def job(seat):
        def post(c):
            statuses = []
            for _ in range(HANDS_EACH):
                resp = c.post(f"/api/v1/tables/{tid}/hands", json=first_out(seat % 4),
                              headers={"X-Edit-Token": token})
                statuses.append((resp.status_code, resp.get_json()))
            return statuses
        return post

    results = run_together(ledger_app, [job(i) for i in range(THREADS)])
    answers = [a for r in results for a in r]
    assert [s for s, _ in answers] == [201] * (THREADS * HANDS_EACH), [a for a in answers if a[0] != 201][:3]
    numbers = [body["hand"]["number"] for _, body in answers]
    assert sorted(numbers) == list(range(1, THREADS * HANDS_EACH + 1))
    assert sorted(body["version"] for _, body in answers) == list(range(2, THREADS * HANDS_EACH + 2))

    table = client.get(f"/api/v1/tables/{tid}").get_json()
    assert [h["number"] for h in table["hands"]] == list(range(1, THREADS * HANDS_EACH + 1))
    assert table["version"] == 1 + THREADS * HANDS_EACH
    wins = Counter(h["input"]["finish_order"][0] for h in table["hands"])
    # each hand: the first out gets 150, the three others pay 50
    expected = [150 * wins[s] - 50 * (THREADS * HANDS_EACH - wins[s]) for s in range(4)]
    assert table["totals"] == expected
    assert wins == Counter({s: THREADS * HANDS_EACH // 4 for s in range(4)})


def test_concurrent_edits_on_the_same_version_let_exactly_one_win_and_409_the_rest(ledger_app):
    client = ledger_app.test_client()
    tid, token = create(client)
    client.post(f"/api/v1/tables/{tid}/hands", json=first_out(0), headers={"X-Edit-Token": token})
    version = client.get(f"/api/v1/tables/{tid}").get_json()["version"]

    def job(seat):
        def put(c):
            resp = c.put(f"/api/v1/tables/{tid}/hands/1", json={"version": version, "input": first_out(seat)},
                         headers={"X-Edit-Token": token, "Accept-Language": "en"})
            return seat, resp.status_code, resp.get_json()
        return put

    results = run_together(ledger_app, [job(s % 4) for s in range(THREADS)])
    statuses = Counter(status for _, status, _ in results)
    assert statuses == Counter({200: 1, 409: THREADS - 1}), results
    winner = next(seat for seat, status, _ in results if status == 200)
    for _, status, body in results:
        if status == 409:
            assert body["error"]["code"] == "stale_version" and "reload" in body["error"]["message"]
    table = client.get(f"/api/v1/tables/{tid}").get_json()
    assert table["version"] == version + 1
    assert table["hands"][0]["input"] == first_out(winner)
    assert table["totals"] == [150 if s == winner else -50 for s in range(4)]


def test_concurrent_undos_of_the_same_version_delete_exactly_one_hand(ledger_app):
    client = ledger_app.test_client()
    tid, token = create(client)
    for seat in range(3):
        client.post(f"/api/v1/tables/{tid}/hands", json=first_out(seat), headers={"X-Edit-Token": token})
    version = client.get(f"/api/v1/tables/{tid}").get_json()["version"]

    def undo(c):
        return c.delete(f"/api/v1/tables/{tid}/hands/3?version={version}",
                        headers={"X-Edit-Token": token}).status_code

    results = run_together(ledger_app, [undo] * THREADS)
    assert sorted(results).count(204) == 1
    assert set(results) <= {204, 409, 404}
    table = client.get(f"/api/v1/tables/{tid}").get_json()
    assert [h["number"] for h in table["hands"]] == [1, 2] and table["version"] == version + 1
    assert table["totals"] == [100, 100, -100, -100]


def test_q783_banks_stay_consistent_when_hands_arrive_together(ledger_app):
    client = ledger_app.test_client()
    tid, token = create(client, rules={"penalty": 5, "negative_banks": True})
    client.post(f"/api/v1/tables/{tid}/hands", json={"banks": [100, 100, 100, 100], "rounds": [],
                                                      "finish_order": [0]}, headers={"X-Edit-Token": token})

    def job(seat):
        def post(c):
            return c.post(f"/api/v1/tables/{tid}/hands", json=first_out(seat % 4),
                          headers={"X-Edit-Token": token}).status_code
        return post

    assert run_together(ledger_app, [job(i) for i in range(THREADS)]) == [201] * THREADS
    table = client.get(f"/api/v1/tables/{tid}").get_json()
    hands = table["hands"]
    assert len(hands) == THREADS + 1
    for before, after in zip(hands, hands[1:]):
        assert after["banks_before"] == before["banks"]  # every hand starts where the last one ended
    assert [100 + t for t in table["totals"]] == table["banks"]
    assert sum(table["banks"]) == 400


@pytest.mark.parametrize("rounds", [3])
def test_readers_polling_during_writes_always_see_totals_matching_their_hands(ledger_app, rounds):
    client = ledger_app.test_client()
    tid, token = create(client)

    def writer(c):
        for i in range(rounds * 4):
            assert c.post(f"/api/v1/tables/{tid}/hands", json=first_out(i % 4),
                          headers={"X-Edit-Token": token}).status_code == 201
        return "written"

    def reader(c):
        seen = 0
        for _ in range(rounds * 4):
            table = c.get(f"/api/v1/tables/{tid}").get_json()
            sums = [sum(h["deltas"][s] for h in table["hands"]) for s in range(4)]
            assert table["totals"] == sums
            assert table["version"] == 1 + len(table["hands"])  # one snapshot: version and hands agree
            seen = max(seen, len(table["hands"]))
        return seen

    results = run_together(ledger_app, [writer, writer, reader, reader])
    assert results[:2] == ["written", "written"]
    assert len(client.get(f"/api/v1/tables/{tid}").get_json()["hands"]) == rounds * 8
