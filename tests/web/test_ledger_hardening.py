"""The ledger under hostile or unlucky input (issue 9), on SQLite and PostgreSQL:
only valid, declared, finite data is stored; limits answer with clear messages;
an edit re-settles only what its change reaches; a write whose answer cannot
be produced commits nothing."""
from __future__ import annotations

import pytest
from sqlalchemy import func, insert, select

from test_ledger_db import close_ledger_app, lclient, ledger_app, make_ledger_app  # noqa: F401 - fixtures
from test_tables_api import Ledger, assert_error, first_out
from test_tables_pages import csrf
from webapp import ledger as m
from webapp.ledger import settling
from webapp.ledger.db import db


@pytest.fixture
def led(lclient):  # noqa: F811
    return Ledger(lclient)


def hand_rows(app, table_id):
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(m.LedgerHand)
                                  .where(m.LedgerHand.table_id == table_id)).scalar()


# --- only valid Unicode, declared fields and finite numbers are stored ---------

def test_a_player_name_with_a_lone_surrogate_is_refused_without_echoing_it(led):
    status, out = led.call("POST", "tables", raw='{"game": "q783", "players": ["a\\ud800", "b", "c"]}')
    assert status == 400, out
    assert_error(out, "bad_character", "players[0]")
    assert "\ud800" not in out["error"]["message"] and "\\ud800" in out["error"]["message"]


@pytest.mark.parametrize("where", ["extra", "row_extra"])
def test_a_lone_surrogate_in_an_undeclared_key_of_a_hand_is_not_stored_and_the_table_still_reads(
        ledger_app, led, where):
    tid, token = led.create()
    row = '{"winner": 0, "cards": "33", "zz": "x\\ud800"}' if where == "row_extra" else '{"winner": 0, "cards": "33"}'
    extra = ', "note": "a\\ud800"' if where == "extra" else ""
    status, out = led.call("POST", f"tables/{tid}/hands", token=token,
                           raw='{"rounds": [%s], "finish_order": [0]%s}' % (row, extra))
    assert status == 201, out
    stored = led.table(tid)["hands"][0]["input"]
    assert "note" not in stored and all(set(r) <= {"winner", "cards", "count"} for r in stored["rounds"])
    client = ledger_app.test_client()
    for path in (f"/tables/{tid}", f"/tables/{tid}/live?v=0", f"/tables/{tid}/export.csv"):
        assert client.get(path).status_code == 200, path


def test_a_lone_surrogate_in_a_declared_text_field_of_a_hand_is_a_400_and_stores_nothing(ledger_app, led):
    tid, token = led.create()
    status, out = led.call("POST", f"tables/{tid}/hands", token=token,
                           raw='{"rounds": [{"winner": 0, "cards": "3\\ud800"}], "finish_order": [0]}')
    assert status == 400, out
    assert "\ud800" not in out["error"]["message"]
    assert hand_rows(ledger_app, tid) == 0


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_anywhere_in_a_hand_are_a_400_and_store_nothing(ledger_app, led, number):
    tid, token = led.create()
    status, out = led.call("POST", f"tables/{tid}/hands", token=token,
                           raw='{"rounds": [], "finish_order": [0], "banks": [%s, 1, 1, 1]}' % number)
    assert status == 400, out
    assert out["error"]["code"] == "malformed_json"  # refused as the body is read, before the ledger sees it
    assert hand_rows(ledger_app, tid) == 0
    status, out = led.call("PUT", f"tables/{tid}/hands/1", token=token,
                           raw='{"version": 1, "input": {"finish_order": [%s]}}' % number)
    assert status in (400, 404), out


def test_absurdly_nested_json_in_a_hand_is_a_400(ledger_app, led):
    tid, token = led.create()
    for depth in (50, 5000):
        status, out = led.call("POST", f"tables/{tid}/hands", token=token,
                               raw='{"rounds": [], "finish_order": %s0%s}' % ("[" * depth, "]" * depth))
        assert status == 400, (depth, out)
    assert hand_rows(ledger_app, tid) == 0


def test_a_write_whose_answer_cannot_be_produced_commits_nothing(ledger_app, led):
    tid, token = led.create()

    def broken(answer):
        raise UnicodeEncodeError("utf-8", "x", 0, 1, "cannot encode")

    with ledger_app.test_request_context():
        with pytest.raises(UnicodeEncodeError):
            m.record_hand(tid, token, lambda: first_out(0), respond=broken)
        with pytest.raises(UnicodeEncodeError):
            m.record_hand(tid, token, lambda: first_out(0), key="k-1", respond=broken)
        db.session.remove()
    assert hand_rows(ledger_app, tid) == 0
    assert led.call("POST", f"tables/{tid}/hands", first_out(0), token=token,
                    headers={"Idempotency-Key": "k-1"})[0] == 201
    assert hand_rows(ledger_app, tid) == 1


# --- limits -------------------------------------------------------------------

@pytest.fixture
def small_app(request, tmp_path):
    """An app with small limits: 3 hands a table, 3 tables and 6 writes a minute."""
    app, drop = make_ledger_app(request.param, tmp_path, LEDGER_MAX_HANDS=3, LEDGER_CREATE_LIMIT="3 per minute",
                                LEDGER_WRITE_LIMIT="6 per minute")
    yield app
    close_ledger_app(app, drop)


@pytest.mark.parametrize("small_app", ["sqlite", "postgresql"], indirect=True)
def test_a_table_at_its_hand_limit_refuses_more_saying_the_limit_and_suggesting_a_new_table(small_app):
    led = Ledger(small_app.test_client())
    tid, token = led.create()
    for seat in range(3):
        assert led.add(tid, token, first_out(seat))[0] == 201
    status, out = led.add(tid, token, first_out(0), lang="en")
    assert status == 422
    assert_error(out, "too_many_hands")
    assert "3 hands" in out["error"]["message"] and "new table" in out["error"]["message"]
    assert hand_rows(small_app, tid) == 3


@pytest.mark.parametrize("small_app", ["sqlite", "postgresql"], indirect=True)
def test_creating_tables_and_writing_too_often_is_a_429_in_the_error_shape(small_app):
    led = Ledger(small_app.test_client())
    tid, token = led.create()
    led.create()
    led.create()
    status, out = led.call("POST", "tables", {"game": "q783", "players": ["a", "b", "c"]}, lang="en")
    assert status == 429
    assert_error(out, "rate_limited")
    assert "at most 3 in a minute" in out["error"]["message"]  # the window as configured, in words
    browser = small_app.test_client()
    form = browser.get("/tables/new?game=q783").get_data(as_text=True)
    page = browser.post("/tables/new?game=q783", data={"csrf_token": csrf(form), "name_0": "a", "name_1": "b",
                                                       "name_2": "c"})
    assert page.status_code == 429 and "操作太频繁" in page.get_data(as_text=True)
    statuses = [led.call("DELETE", f"tables/{tid}/hands/9", token=token)[0] for _ in range(7)]
    assert statuses[:6] == [404] * 6 and statuses[6] == 429


@pytest.mark.parametrize("small_app", ["sqlite"], indirect=True)
def test_the_q783_round_tracker_of_a_table_shares_the_write_limit(small_app):
    """Its blueprint is one the limiter's hooks skip: the limit decorator enforces the limit by itself."""
    tid, _token = Ledger(small_app.test_client()).create()
    browser = small_app.test_client()
    token = csrf(browser.get("/tables/new?game=q783").get_data(as_text=True))
    statuses = [browser.post(f"/tables/{tid}/edit/rounds", data={"csrf_token": token}).status_code for _ in range(7)]
    assert 429 not in statuses[:6] and statuses[6] == 429


def test_a_body_over_the_size_limit_is_a_413_in_the_error_shape(led):
    tid, token = led.create()
    status, out = led.call("POST", f"tables/{tid}/hands", token=token,
                           raw='{"finish_order": [0], "pad": "%s"}' % ("x" * 300_000))
    assert status == 413
    assert_error(out, "too_large")


# --- an edit re-settles only as far as its change reaches ---------------------

SERIES_ENDS = [{"banks": [60, 60, 60, 60], "rounds": [], "finish_order": [0]},  # [210, 10, 10, 10]
               first_out(0)]  # nobody left with 50: the 大局 ends


def test_editing_hand_1_resettles_forward_only_until_a_hand_starts_from_what_it_started_from(ledger_app, led,
                                                                                             monkeypatch):
    tid, token = led.create()
    later = [{"banks": [80, 80, 80, 80], "rounds": [], "finish_order": [s % 4]} for s in range(8)]
    for hand in SERIES_ENDS + later:
        assert led.add(tid, token, hand)[0] == 201
    settled = []
    real = settling._settled  # every hand the ledger settles, loud or quiet
    monkeypatch.setattr(settling, "_settled", lambda *args, **kw: settled.append(args[2]) or real(*args, **kw))
    edited = {"banks": [60, 60, 60, 60], "rounds": [], "finish_order": [1]}
    status, out = led.call("PUT", f"tables/{tid}/hands/1", {"version": 11, "input": edited}, token=token)
    assert status == 200, out
    assert len(settled) == 2  # hand 1, and hand 2 (its banks changed); hand 3 starts a new 大局 as before
    monkeypatch.undo()
    fresh, fresh_token = led.create()
    for hand in [edited, SERIES_ENDS[1]] + later:
        led.add(fresh, fresh_token, hand)
    assert [h["deltas"] for h in led.table(tid)["hands"]] == [h["deltas"] for h in led.table(fresh)["hands"]]
    assert led.table(tid)["totals"] == led.table(fresh)["totals"]


def test_editing_a_hand_resettles_every_later_hand_its_change_reaches(led):
    tid, token = led.create()
    led.add(tid, token, {"banks": [125, 125, 125, 125], "rounds": [], "finish_order": [0]})
    led.add(tid, token, first_out(1))
    status, _ = led.call("PUT", f"tables/{tid}/hands/1", token=token,
                         body={"version": 3, "input": {"banks": [125, 125, 125, 125], "rounds": [],
                                                       "finish_order": [3]}})
    assert status == 200
    hands = led.table(tid)["hands"]
    assert hands[1]["banks_before"] == hands[0]["banks"] == [75, 75, 75, 275]
    assert hands[1]["banks"] == [25, 225, 25, 225]


# --- the table pages show the latest hands -------------------------------------

def copy_hands(app, table_id, count):
    """Make the table hold ``count`` hands quickly: copies of its hand 1 (same input, same result)."""
    with app.app_context():
        first = db.session.execute(select(m.LedgerHand).where(m.LedgerHand.table_id == table_id)).scalar_one()
        rows = [{"table_id": table_id, "number": n, "input": first.input, "deltas": first.deltas,
                 "result": first.result, "ends_series": first.ends_series, "created_at": first.created_at,
                 "updated_at": first.updated_at} for n in range(2, count + 1)]
        db.session.execute(insert(m.LedgerHand), rows)
        db.session.commit()


def test_the_read_only_page_of_a_table_at_the_hand_limit_shows_the_latest_50_hands_and_stays_small(
        ledger_app, led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    copy_hands(ledger_app, tid, m.MAX_HANDS)
    client = ledger_app.test_client()
    resp = client.get(f"/tables/{tid}")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and len(resp.data) < 150_000, len(resp.data)
    assert html.count('class="hand"') == 50 and 'id="hand-2000"' in html and 'id="hand-1950"' not in html
    assert "?before=1951" in html and "+300000" in html  # the total is over every hand: 2000 × +150
    older = client.get(f"/tables/{tid}?before=1951").get_data(as_text=True)
    assert 'id="hand-1950"' in older and 'id="hand-1901"' in older and 'id="hand-1951"' not in older
    assert "hx-get" not in older  # a page of older hands does not poll


def test_a_short_table_shows_every_hand_and_no_link_to_older_ones(led, ledger_app):
    tid, token = led.create()
    for seat in range(3):
        led.add(tid, token, first_out(seat))
    html = ledger_app.test_client().get(f"/tables/{tid}").get_data(as_text=True)
    assert html.count('class="hand"') == 3 and "?before=" not in html


@pytest.mark.parametrize("number", [2 ** 31, 2 ** 63, 10 ** 30])
def test_a_hand_number_no_column_can_hold_is_a_404_hand_not_found_on_the_api_and_the_pages(ledger_app, led,
                                                                                             number):
    """A hand's number is a 32-bit integer in the database; the URL takes any digits."""
    tid, token = led.create()
    assert led.add(tid, token, first_out(0))[0] == 201
    status, out = led.call("PUT", f"tables/{tid}/hands/{number}", {"version": 1, "input": first_out(1)},
                           token=token)
    assert status == 404 and out["error"]["code"] == "hand_not_found", out
    status, out = led.call("DELETE", f"tables/{tid}/hands/{number}", token=token)
    assert status == 404 and out["error"]["code"] == "hand_not_found", out
    client = ledger_app.test_client()
    page = client.get(f"/tables/{tid}/edit/{token}", follow_redirects=True).get_data(as_text=True)
    for path in (f"/tables/{tid}/edit/hands/{number}", f"/tables/{tid}/edit/hands/{number}/delete"):
        assert client.get(path).status_code == 404, path
        assert client.post(path, data={"csrf_token": csrf(page), "version": "1"}).status_code == 404, path


@pytest.mark.parametrize("since", ["\u00b2", "\u0661", "1" * 5000, "-1", " 1"])
def test_a_live_poll_whose_version_is_not_plain_digits_gets_the_whole_fragment(ledger_app, led, since):
    """``v`` is the version the page holds: anything but a few ASCII digits (a superscript two, an
    Arabic-Indic one, 5,000 digits) is no version, so the poll answers as to a page that holds none."""
    tid, token = led.create()
    client = ledger_app.test_client()
    client.get(f"/tables/{tid}/edit/{token}")
    for path in (f"/tables/{tid}/live", f"/tables/{tid}/edit/live"):
        assert client.get(path, query_string={"v": since}).status_code == 200, path


def test_a_lone_surrogate_typed_into_an_edit_that_meets_a_conflict_is_shown_escaped_not_a_500(ledger_app, led):
    """Someone else changed the hand meanwhile: the page shows both versions, the typed one as typed,
    and a lone surrogate in it (no UTF-8 can carry one) as its escape."""
    import re
    tid, token = led.create()
    assert led.add(tid, token, first_out(0))[0] == 201
    client = ledger_app.test_client()
    client.get(f"/tables/{tid}/edit/{token}")
    page = client.get(f"/tables/{tid}/edit/hands/1").get_data(as_text=True)
    held = re.search(r'name="version"[^>]*value="(\d+)"', page).group(1)
    assert led.call("PUT", f"tables/{tid}/hands/1", {"version": int(held), "input": first_out(1)},
                    token=token)[0] == 200
    typed = '{"rounds": [], "finish_order": [0], "note": "\\ud800"}'
    resp = client.post(f"/tables/{tid}/edit/hands/1",
                       data={"csrf_token": csrf(page), "version": held, "mode": "json", "raw": typed})
    assert resp.status_code == 409
    assert "\\ud800" in resp.get_data(as_text=True)


@pytest.mark.parametrize("seconds,zh,en", [(20, "20秒", "20 seconds"), (60, "1分钟", "a minute"),
                                           (120, "2分钟", "2 minutes"), (3600, "1小时", "an hour"), (90, "90秒", "90 seconds")])
def test_a_rate_limit_message_names_its_own_window(seconds, zh, en):
    from scoring.i18n import render
    from webapp.ledger.web import window_words
    assert render(window_words(seconds), "zh") == zh and render(window_words(seconds), "en") == en
