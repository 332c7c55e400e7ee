"""Reads have a bound (issue 38, item 7): realistic input bounds."""
from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import event
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures (SQLite and PostgreSQL)

from bench.large_tables import (LARGE_RULES, LIMITS, LONG_NAMES, circle_of, fill_by_copying, largest_q783_hand, new_table,
                                ordinary_q783_hand, record)
from bench.read_bounds import forget, next_url
from webapp.ledger.db import db
from webapp.ledger.service import MAX_EVENINGS, max_evenings


def test_a_q783_hand_cannot_have_more_rounds_than_two_decks_have_play_cards(client):
    rounds = [{"winner": 0, "count": 1}] * 81  # 108 cards less 28 score cards: 80 can be played
    answer = client.post("/api/v1/q783/settle", json={"players": 4, "rounds": rounds, "finish_order": [0],
                                                       "rules": {"scoring": "cards"}})
    assert answer.status_code in (400, 422), answer.status_code
    assert answer.get_json()["error"]["code"] == "too_many", answer.get_json()


def _settled(client, rounds, rules):
    return client.post("/api/v1/q783/settle", json={"players": 4, "rounds": rounds, "finish_order": [0],
                                                     "rules": {"scoring": "cards", **rules}})


@pytest.mark.parametrize("rules, most", [({}, 80), ({"decks": 1}, 40), ({"ace_scores": True}, 72)])
def test_a_q783_hands_rounds_play_no_more_cards_than_its_pack_has_to_play(client, rules, most):
    full = [{"winner": 0, "count": most - 1}, {"winner": 1, "count": 1}]
    assert _settled(client, full, rules).status_code == 200
    over = _settled(client, [{"winner": 0, "count": most - 1}, {"winner": 1, "count": 2}], rules)
    assert over.status_code == 422, over.get_json()
    assert over.get_json()["error"]["code"] in ("too_many_cards", "out_of_range"), over.get_json()
    ones = _settled(client, [{"winner": i % 4, "count": 1} for i in range(most + 1)], rules)
    assert ones.status_code in (400, 422) and ones.get_json()["error"]["code"] in ("too_many", "too_many_cards")


# --- a table's reads within 2 MB, in documented pages ------------------------------------------------------

MB2 = 2 * 1024 * 1024


def largest_table(app, client, hands: int) -> str:
    """A Q783 table of ``hands`` of the largest hands the API accepts: six players with the longest names, as many
    rounds as a hand may have."""
    table_id, headers = new_table(client, LONG_NAMES, LARGE_RULES)
    record(client, table_id, headers, largest_q783_hand())
    fill_by_copying(app, table_id, hands)
    return table_id


def _every_page(client, url: str) -> list:
    answers = []
    while url:
        answer = client.get(url)
        assert answer.status_code == 200, answer.get_json()
        answers.append(answer)
        url = next_url(answer)
    return answers


def test_the_api_reads_a_table_of_large_hands_in_pages_that_hold_every_hand_once(ledger_app, lclient):  # noqa: F811
    app, client = ledger_app, lclient  # SQLite and PostgreSQL: the page is chosen by measuring rows in SQL
    table_id = largest_table(app, client, 100)
    answers = _every_page(client, f"/api/v1/tables/{table_id}")
    assert len(answers) > 2 and max(len(a.data) for a in answers) <= MB2
    numbers = [hand["number"] for a in answers for hand in a.get_json()["hands"]]
    assert numbers == list(range(1, 101))
    bodies = [a.get_json() for a in answers]
    assert all(b["hand_count"] == 100 and b["totals"] == bodies[0]["totals"] for b in bodies)
    assert [b["hands_next"] for b in bodies[:-1]] == [b["hands"][0]["number"] for b in bodies[1:]]
    assert bodies[-1]["hands_next"] is None and "Link" not in answers[-1].headers
    sums = [sum(hand["deltas"][seat] for b in bodies for hand in b["hands"]) for seat in range(6)]
    assert bodies[0]["totals"] == sums


@pytest.mark.parametrize("query", ["", "?hands_from=1000"])
def test_a_page_of_the_largest_table_is_at_most_2_mb(app, client, query):
    table_id = largest_table(app, client, 2000)
    answer = client.get(f"/api/v1/tables/{table_id}{query}")
    body = answer.get_json()
    assert len(answer.data) <= MB2 and body["hand_count"] == 2000 and 10 <= len(body["hands"]) < 100
    assert body["hands_next"] == body["hands"][-1]["number"] + 1 and 'rel="next"' in answer.headers["Link"]


def test_a_table_of_300_ordinary_hands_still_reads_whole(app, client):
    table_id, headers = new_table(client, ["甲", "乙", "丙", "丁"])
    for i in range(4):
        record(client, table_id, headers, ordinary_q783_hand(i))
    fill_by_copying(app, table_id, 300)
    answer = client.get(f"/api/v1/tables/{table_id}")
    body = answer.get_json()
    assert len(body["hands"]) == 300 and body["hand_count"] == 300 and body["hands_next"] is None
    assert "Link" not in answer.headers


def test_hands_from_and_hands_limit_choose_a_page_with_its_own_etag(lclient):  # noqa: F811
    client = lclient
    table_id, headers = new_table(client, ["甲", "乙", "丙", "丁"])
    for i in range(12):
        record(client, table_id, headers, ordinary_q783_hand(i))
    page = client.get(f"/api/v1/tables/{table_id}?hands_from=3&hands_limit=4")
    body = page.get_json()
    assert [h["number"] for h in body["hands"]] == [3, 4, 5, 6] and body["hands_next"] == 7
    assert "hands_from=7" in page.headers["Link"] and "hands_limit=4" in page.headers["Link"]
    whole = client.get(f"/api/v1/tables/{table_id}")
    assert whole.get_json()["totals"] == body["totals"] and whole.headers["ETag"] != page.headers["ETag"]
    again = client.get(f"/api/v1/tables/{table_id}?hands_from=3&hands_limit=4",
                       headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("query", ["hands_from=0", "hands_from=x", "hands_limit=0", "hands_limit=2001",
                                   "hands_from=%C2%B2", "hands_from=1000000000"])
def test_a_page_asked_wrongly_is_a_400_naming_its_parameter(client, query):
    table_id, _ = new_table(client, ["甲", "乙", "丙", "丁"])
    answer = client.get(f"/api/v1/tables/{table_id}?{query}")
    assert answer.status_code == 400 and answer.get_json()["error"]["field"] == query.split("=")[0]


def test_the_table_page_and_its_live_part_show_fewer_large_hands_within_2_mb_and_link_the_older(app, client):
    table_id = largest_table(app, client, 2000)
    page = client.get(f"/tables/{table_id}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and len(page.data) <= MB2
    assert 'href="?before=' in text and text.count('class="hand"') < 50
    fresh = client.get(f"/tables/{table_id}/live?v=0")
    assert fresh.status_code == 200 and len(fresh.data) <= MB2


def test_the_table_page_shows_large_hands_up_to_half_the_weight_an_api_page_holds(app, client):
    """A page does more with each hand than the API (its input in words, its steps in HTML): a fresh process
    renders at most half an API page's worth (issue 38 item 7, 0.2 s of CPU)."""
    table_id = largest_table(app, client, 40)
    in_api = len(client.get(f"/api/v1/tables/{table_id}").get_json()["hands"])
    shown = client.get(f"/tables/{table_id}").get_data(as_text=True).count('class="hand"')
    assert in_api >= 10 and 1 <= shown <= in_api // 2 + 1, (shown, in_api)


def test_the_csv_of_the_largest_table_comes_in_linked_parts_that_add_up(app, client):
    table_id = largest_table(app, client, 2000)
    first = client.get(f"/tables/{table_id}/export.csv")
    assert first.status_code == 200 and len(first.data) <= MB2
    rows = list(csv.reader(io.StringIO(first.get_data(as_text=True).lstrip("\ufeff"))))
    following = int(next_url(first).rsplit("hands_from=", 1)[1])
    assert rows[-1][0] == "…" and f"hands_from={following}" in rows[-1][1]
    assert [int(r[0]) for r in rows[1:-1]] == list(range(1, following))
    last = client.get(f"/tables/{table_id}/export.csv?hands_from=1990")
    rows = list(csv.reader(io.StringIO(last.get_data(as_text=True).lstrip("\ufeff"))))
    totals = client.get(f"/api/v1/tables/{table_id}?hands_limit=1").get_json()["totals"]
    assert "Link" not in last.headers and [int(v) for v in rows[-1][1:7]] == totals
    assert [int(r[0]) for r in rows[1:-1]] == list(range(1990, 2001))


# --- a circle's reads: a bound on its evenings ------------------------------------------------------------------

def test_a_circle_takes_no_evening_beyond_its_limit(app, client):
    app.config["LEDGER_MAX_EVENINGS"] = 3
    table_id, headers = new_table(client, ["甲", "乙", "丙", "丁"])
    for _ in range(2):
        out = client.post(f"/api/v1/tables/{table_id}/next-evening", json={}, headers=headers).get_json()
        table_id, headers = out["id"], {"X-Edit-Token": out["edit_token"]}
    refused = client.post(f"/api/v1/tables/{table_id}/next-evening", json={}, headers=headers)
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["error"]["code"] == "too_many_evenings" and refused.get_json()["limit"] == 3
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["next"] is None


def test_the_reads_of_the_longest_circle_are_within_2_mb(app, client):
    app.config.update(LIMITS)
    circle, _first = circle_of(app, client, max_evenings_of(app), 50)
    body = client.get(f"/api/v1/circles/{circle}").get_json()
    assert len(body["evenings"]) == max_evenings_of(app) == MAX_EVENINGS
    for url in (f"/api/v1/circles/{circle}", f"/circles/{circle}", f"/circles/{circle}/export.csv"):
        answer = client.get(url)
        assert answer.status_code == 200 and len(answer.data) <= MB2, url


def max_evenings_of(app) -> int:
    with app.app_context():
        return max_evenings()


def _statements(app, client, url: str) -> int:
    """How many SQL statements ``url`` runs as a fresh process first reads it (nothing checked or rendered yet)."""
    seen = []
    with app.app_context():
        engine = db.engine

    def listener(_conn, _cursor, statement, *_rest):
        seen.append(statement)
    event.listen(engine, "before_cursor_execute", listener)
    try:
        forget()
        assert client.get(url).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    return len(seen)


def test_a_circle_is_read_in_as_many_statements_whatever_its_number_of_evenings(app, client):
    """Every evening's hands are checked and read together (issue 38 item 7: a circle's CPU does not grow by a
    statement or two per evening)."""
    app.config.update(LIMITS)
    short, _first = circle_of(app, client, 2, 3)
    long, _first = circle_of(app, client, 6, 3)
    for path in ("/api/v1/circles/{c}", "/circles/{c}", "/circles/{c}/export.csv"):
        counts = [_statements(app, client, path.format(c=circle)) for circle in (short, long)]
        assert counts[0] == counts[1], (path, counts)
