"""A retried or doubled POST records one hand (issue 9), on SQLite and PostgreSQL:
the ``Idempotency-Key`` header of the API, the hidden key of the hand form,
and N real threads posting the same key at once."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from test_ledger_concurrency import run_together
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_ledger_hardening import hand_rows
from test_tables_api import Ledger, assert_error, first_out
from test_tables_pages import csrf, open_table
from webapp.ledger import models as m
from webapp.ledger.db import db

THREADS = 8


@pytest.fixture
def led(lclient):  # noqa: F811
    return Ledger(lclient)


def post(led, tid, token, hand, key, lang=None):
    return led.call("POST", f"tables/{tid}/hands", hand, token=token, lang=lang, headers={"Idempotency-Key": key})


def test_a_retry_with_the_same_key_answers_the_first_answer_and_records_nothing_new(ledger_app, led):
    tid, token = led.create()
    first = post(led, tid, token, first_out(0), "retry-1")
    assert first[0] == 201
    again = post(led, tid, token, first_out(0), "retry-1", lang="en")
    assert again == first  # same status, same body (its language too), same hand number
    assert hand_rows(ledger_app, tid) == 1 and led.table(tid)["version"] == 2


def test_the_same_key_with_another_body_is_refused_and_records_nothing_new(ledger_app, led):
    tid, token = led.create()
    post(led, tid, token, first_out(0), "k")
    status, out = post(led, tid, token, first_out(2), "k")
    assert status == 422 and out["error"]["code"] == "idempotency_key_reused"
    assert hand_rows(ledger_app, tid) == 1


def test_different_keys_and_no_key_each_record_a_hand(ledger_app, led):
    tid, token = led.create()
    numbers = [post(led, tid, token, first_out(0), key)[1]["hand"]["number"] for key in ("a", "b")]
    numbers.append(led.add(tid, token, first_out(0))[1]["hand"]["number"])
    assert numbers == [1, 2, 3] and hand_rows(ledger_app, tid) == 3


def test_a_key_belongs_to_its_table(ledger_app, led):
    one, token_one = led.create()
    two, token_two = led.create()
    assert post(led, one, token_one, first_out(0), "same")[0] == 201
    assert post(led, two, token_two, first_out(1), "same")[0] == 201
    assert hand_rows(ledger_app, one) == 1 and hand_rows(ledger_app, two) == 1


def test_a_key_is_remembered_for_a_day_then_records_again(ledger_app, led):
    tid, token = led.create()
    post(led, tid, token, first_out(0), "old")
    with ledger_app.app_context():
        db.session.execute(update(m.LedgerIdempotency).values(created_at=m._now() - timedelta(hours=25)))
        db.session.commit()
    status, out = post(led, tid, token, first_out(0), "old")
    assert status == 201 and out["hand"]["number"] == 2


@pytest.mark.parametrize("key", ["", "x" * 129, "with space", "naïve", "tab\there"])
def test_a_key_that_is_not_1_to_128_visible_ascii_characters_is_a_400(ledger_app, led, key):
    tid, token = led.create()
    status, out = led.call("POST", f"tables/{tid}/hands", first_out(0), token=token,
                           headers={"Idempotency-Key": key.encode("utf-8").decode("latin-1")})
    assert status == 400, out
    assert_error(out, "bad_idempotency_key", "Idempotency-Key")
    assert hand_rows(ledger_app, tid) == 0


def test_a_refused_hand_leaves_its_key_unused(ledger_app, led):
    tid, token = led.create()
    status, _ = post(led, tid, token, {"finish_order": [9]}, "k")
    assert 400 <= status < 500
    status, out = post(led, tid, token, first_out(0), "k")
    assert status == 201 and out["hand"]["number"] == 1


def test_threads_posting_the_same_key_at_once_record_exactly_one_hand(ledger_app):
    client = ledger_app.test_client()
    created = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    tid, token = created["id"], created["edit_token"]

    def job(c):
        resp = c.post(f"/api/v1/tables/{tid}/hands", json=first_out(0),
                      headers={"X-Edit-Token": token, "Idempotency-Key": "tap-tap-tap"})
        return resp.status_code, resp.get_json()

    answers = run_together(ledger_app, [job] * THREADS)
    assert {status for status, _ in answers} == {201}
    assert all(body == answers[0][1] for _, body in answers)
    assert hand_rows(ledger_app, tid) == 1


# --- the hand form carries its own key -------------------------------------------

KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


def test_the_hand_form_sent_twice_records_one_hand_and_a_new_form_gets_a_new_key(ledger_app, lclient):  # noqa: F811
    table_id, edit_path = open_table(lclient)
    page = lclient.get(edit_path).get_data(as_text=True)
    key = KEY.search(page).group(1)
    data = {"csrf_token": csrf(page), "idempotency_key": key, "finish_order-0": "1"}
    first = lclient.post(edit_path, data=data)
    again = lclient.post(edit_path, data=data)  # a double tap, a reload that resends, a retry after a lost signal
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert hand_rows(ledger_app, table_id) == 1
    fresh = lclient.get(edit_path).get_data(as_text=True)
    assert KEY.search(fresh).group(1) != key


RECORDED = re.compile(r'data-recorded-hand="(\d+)"')


def test_the_page_a_hand_form_leads_to_names_the_hand_it_became_even_when_sent_again(ledger_app, lclient):  # noqa: F811
    """A phone that sent a held hand compares its own deltas with that hand (static/held-in-phone.js): the
    page the save leads to names it once, also for a resend answered from the key, never as a notice."""
    _table_id, edit_path = open_table(lclient)
    page = lclient.get(edit_path).get_data(as_text=True)
    data = {"csrf_token": csrf(page), "idempotency_key": KEY.search(page).group(1), "finish_order-0": "1"}
    first = lclient.post(edit_path, data=data, follow_redirects=True).get_data(as_text=True)
    assert RECORDED.findall(first) == ["1"]
    page = lclient.get(edit_path).get_data(as_text=True)
    assert RECORDED.findall(page) == []  # said once, to the page the save led to
    second = {"csrf_token": csrf(page), "idempotency_key": KEY.search(page).group(1), "finish_order-0": "2"}
    assert RECORDED.findall(lclient.post(edit_path, data=second, follow_redirects=True).get_data(as_text=True)) == ["2"]
    again = lclient.post(edit_path, data=data, follow_redirects=True).get_data(as_text=True)
    assert RECORDED.findall(again) == ["1"]
    assert 'class="notice" role="status">1<' not in again


def test_threads_sending_the_same_hand_form_at_once_record_one_hand(ledger_app):
    client = ledger_app.test_client()
    table_id, edit_path = open_table(client)
    page = client.get(edit_path).get_data(as_text=True)
    data = {"csrf_token": csrf(page), "idempotency_key": KEY.search(page).group(1), "finish_order-0": "2"}
    cookie = client.get_cookie("paiju_edit", path=f"/tables/{table_id}").value
    session = client.get_cookie("session").value

    def job(c):
        c.set_cookie("paiju_edit", cookie, path=f"/tables/{table_id}")
        c.set_cookie("session", session)
        return c.post(edit_path, data=data).status_code

    assert set(run_together(ledger_app, [job] * THREADS)) == {303}
    assert hand_rows(ledger_app, table_id) == 1


def test_a_key_kept_before_bodies_were_remembered_still_answers_its_first_hand(ledger_app, led):
    tid, token = led.create()
    first = post(led, tid, token, first_out(0), "old")
    with ledger_app.app_context():  # as a row written before migration 0005 has it: no digest
        db.session.execute(update(m.LedgerIdempotency).values(request_digest=None))
        db.session.commit()
    assert post(led, tid, token, first_out(2), "old") == first
    assert hand_rows(ledger_app, tid) == 1
