"""A record that money is settled on (issue 38; docs/api.md, "A record that money is settled on"): a closed
evening takes no new hand, the next evening asked twice takes nobody's link away, a hand states who sat where,
stored inputs read back typed, names are one person however they are spelled. On SQLite and PostgreSQL."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import text
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

from webapp.ledger.db import db

PLAYERS = ["甲", "乙", "丙", "丁"]
HAND = {"declarer": 0, "bid": 100, "declarer_points": 60}  # 红五
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def post(client, path, body, token=None, lang=None):
    headers = {"X-Edit-Token": token} if token else {}
    if lang:
        headers["Accept-Language"] = lang
    resp = client.post(f"/api/v1/{path}", json=body, headers=headers)
    return resp.status_code, resp.get_json(silent=True)


def open_table(client, game="hongwu", players=PLAYERS):
    status, out = post(client, "tables", {"game": game, "players": players})
    assert status == 201, out
    return out


def read(client, table_id):
    return client.get(f"/api/v1/tables/{table_id}").get_json()


def hand_count(client) -> int:
    with client.application.app_context():
        return db.session.execute(text("SELECT count(*) FROM ledger_hands")).scalar_one()


def csrf(client, path) -> str:
    match = CSRF.search(client.get(path).get_data(as_text=True))
    assert match
    return match.group(1)


# --- a closed evening ---------------------------------------------------------------------------------------

def test_a_hand_sent_to_an_evening_that_has_a_next_one_is_409_evening_closed_and_records_nothing(lclient):  # noqa: F811
    first = open_table(lclient)
    assert post(lclient, f"tables/{first['id']}/hands", HAND, first["edit_token"])[0] == 201
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    before = read(lclient, first["id"])
    status, err = post(lclient, f"tables/{first['id']}/hands", HAND, first["edit_token"])
    assert status == 409 and err["error"]["code"] == "evening_closed" and err["next"] == second["id"]
    after = read(lclient, first["id"])
    assert (after["totals"], after["version"], len(after["hands"])) == (before["totals"], before["version"], 1)
    assert hand_count(lclient) == 1
    # its past hands can still be edited and deleted
    assert post(lclient, f"tables/{second['id']}/hands", HAND, second["edit_token"])[0] == 201
    edited = lclient.put(f"/api/v1/tables/{first['id']}/hands/1", headers={"X-Edit-Token": first["edit_token"]},
                         json={"version": after["version"], "input": {**HAND, "declarer_points": 85}})
    assert edited.status_code == 200 and read(lclient, first["id"])["hands"][0]["input"]["declarer_points"] == 85
    deleted = lclient.delete(f"/api/v1/tables/{first['id']}/hands/1", headers={"X-Edit-Token": first["edit_token"]})
    assert deleted.status_code == 204 and read(lclient, first["id"])["hands"] == []


def test_a_closed_evenings_page_form_keeps_what_was_typed_and_says_so_in_words(lclient):  # noqa: F811
    first = open_table(lclient)
    lclient.get(f"/tables/{first['id']}/edit/{first['edit_token']}")
    token = csrf(lclient, f"/tables/{first['id']}/edit")
    post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    resp = lclient.post(f"/tables/{first['id']}/edit", data={"csrf_token": token, "declarer": "0", "bid": "100",
                                                            "declarer_points": "60"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 409 and "下一晚已经开了" in html and 'value="60"' in html
    assert hand_count(lclient) == 0


# --- the next evening, asked twice ---------------------------------------------------------------------------

def test_asking_for_the_next_evening_again_answers_the_same_evening_and_token_and_no_link_stops_working(
        lclient):  # noqa: F811
    first = open_table(lclient)
    status, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert status == 201
    status, again = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert status == 200 and (again["id"], again["edit_token"], again["edit_url"]) == (
        second["id"], second["edit_token"], second["edit_url"])
    status, same_players = post(lclient, f"tables/{first['id']}/next-evening", {"players": PLAYERS},
                                first["edit_token"])
    assert status == 200 and same_players["edit_token"] == second["edit_token"]
    assert post(lclient, f"tables/{second['id']}/hands", HAND, second["edit_token"])[0] == 201
    assert post(lclient, f"tables/{first['id']}/token", {}, first["edit_token"])[0] == 200  # the first's link too
    with lclient.application.app_context():
        assert db.session.execute(text("SELECT count(*) FROM ledger_tables")).scalar_one() == 2


def test_asking_for_the_next_evening_again_with_other_players_is_409_next_exists(lclient):  # noqa: F811
    first = open_table(lclient)
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    status, err = post(lclient, f"tables/{first['id']}/next-evening", {"players": ["甲", "乙", "丙", "戊"]},
                       first["edit_token"])
    assert status == 409 and err["error"]["code"] == "next_exists" and err["id"] == second["id"]
    assert "edit_token" not in err and "edit_url" not in err
    assert read(lclient, second["id"])["players"] == PLAYERS
    assert post(lclient, f"tables/{second['id']}/hands", HAND, second["edit_token"])[0] == 201


def test_once_the_next_evening_took_a_new_token_the_earlier_evenings_token_gets_409_next_exists_without_it(
        lclient):  # noqa: F811
    first = open_table(lclient)
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    _, rotated = post(lclient, f"tables/{second['id']}/token", {}, second["edit_token"])
    status, err = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert status == 409 and err["error"]["code"] == "next_exists"
    assert set(err) == {"error", "id", "view_url"} and err["id"] == second["id"]
    assert err["view_url"].endswith(f"/tables/{second['id']}")
    assert post(lclient, f"tables/{second['id']}/hands", HAND, rotated["edit_token"])[0] == 201  # still theirs


# --- a hand states who sat where -----------------------------------------------------------------------------

def swap_first_two(client, table) -> None:
    client.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    resp = client.post(f"/tables/{table['id']}/edit/seats", data={
        "csrf_token": csrf(client, f"/tables/{table['id']}/edit"), "kind": "swap", "seat": "1", "other": "2"})
    assert resp.status_code == 303


def test_a_hand_whose_seated_is_not_the_seating_now_is_409_seats_changed_and_records_nothing(lclient):  # noqa: F811
    table = open_table(lclient)
    swap_first_two(lclient, table)
    status, err = post(lclient, f"tables/{table['id']}/hands", {**HAND, "seated": PLAYERS}, table["edit_token"])
    assert status == 409 and err["error"]["code"] == "seats_changed" and err["seated"] == ["乙", "甲", "丙", "丁"]
    assert hand_count(lclient) == 0 and read(lclient, table["id"])["totals"] == [0, 0, 0, 0]
    status, _ = post(lclient, f"tables/{table['id']}/hands", {**HAND, "seated": ["乙", "甲", "丙", "丁"]},
                     table["edit_token"])
    assert status == 201 and "seated" not in read(lclient, table["id"])["hands"][0]["input"]


def test_seated_that_is_not_a_list_of_names_is_a_400_naming_it(lclient):  # noqa: F811
    table = open_table(lclient)
    for seated in ("甲乙丙丁", [0, 1, 2, 3]):
        status, err = post(lclient, f"tables/{table['id']}/hands", {**HAND, "seated": seated}, table["edit_token"])
        assert status == 400 and err["error"]["field"] == "seated"
    assert hand_count(lclient) == 0


def test_a_hand_recorded_from_the_page_form_reads_back_its_whole_numbers_as_integers_as_the_api_does(
        lclient):  # noqa: F811
    by_page, by_api = open_table(lclient), open_table(lclient)
    lclient.get(f"/tables/{by_page['id']}/edit/{by_page['edit_token']}")
    resp = lclient.post(f"/tables/{by_page['id']}/edit", data={
        "csrf_token": csrf(lclient, f"/tables/{by_page['id']}/edit"), "declarer": "0", "bid": "100",
        "declarer_points": "60", "red_fives-0-owner": "0", "red_fives-0-captured_by": "2"})
    assert resp.status_code == 303
    hand = {**HAND, "red_fives": [{"owner": 0, "captured_by": 2}]}
    assert post(lclient, f"tables/{by_api['id']}/hands", hand, by_api["edit_token"])[0] == 201
    page_input = read(lclient, by_page["id"])["hands"][0]["input"]
    api_input = read(lclient, by_api["id"])["hands"][0]["input"]
    for key in ("declarer", "bid", "declarer_points"):
        assert type(page_input[key]) is int and page_input[key] == api_input[key]
    assert page_input["red_fives"][0] == {"owner": 0, "captured_by": 2}


def test_a_hand_a_page_stored_with_whole_numbers_as_text_reads_them_back_as_integers(lclient):  # noqa: F811
    table = open_table(lclient)
    post(lclient, f"tables/{table['id']}/hands", HAND, table["edit_token"])
    with lclient.application.app_context():  # as a page's form stored it before inputs were stored typed
        db.session.execute(text("UPDATE ledger_hands SET input = :v"),
                           {"v": '{"declarer": "0", "bid": "100", "declarer_points": "60"}'})
        db.session.commit()
    assert read(lclient, table["id"])["hands"][0]["input"] == HAND


# --- names -------------------------------------------------------------------------------------------------

def test_a_name_is_stored_in_nfc_without_its_outer_spaces(lclient):  # noqa: F811
    table = open_table(lclient, players=["  Ame\u0301lie ", "乙", "丙", "丁"])
    assert read(lclient, table["id"])["players"][0] == "Am\u00e9lie"


@pytest.mark.parametrize("name", ["a\u200bb", "\u202eab", "\ufeffab", "a\u200d", "a\u2066b\u2069", "a\x00b", "a\x7f"])
def test_a_name_holding_a_control_format_or_bidirectional_character_is_a_422_naming_the_field(lclient,  # noqa: F811
                                                                                           name):
    status, err = post(lclient, "tables", {"game": "hongwu", "players": ["甲", name, "丙", "丁"]})
    assert status == 422 and err["error"]["field"] == "players[1]" and err["error"]["code"] == "bad_name"
    assert name not in err["error"]["message"]  # the message shows it escaped, never raw


@pytest.mark.parametrize("twin", ["A", "ａ", "Ａ"])
def test_two_names_equal_under_nfkc_and_case_folding_are_a_422_duplicate_name(lclient, twin):  # noqa: F811
    status, err = post(lclient, "tables", {"game": "hongwu", "players": ["a", "乙", "丙", twin]})
    assert status == 422 and err["error"]["code"] == "duplicate_name" and err["error"]["field"] == "players[3]"


def test_the_next_evenings_players_are_checked_as_names_are(lclient):  # noqa: F811
    first = open_table(lclient)
    status, err = post(lclient, f"tables/{first['id']}/next-evening", {"players": ["甲", "乙\u202e", "丙", "丁"]},
                       first["edit_token"])
    assert status == 422 and err["error"]["field"] == "players[1]"
    status, err = post(lclient, f"tables/{first['id']}/next-evening", {"players": ["x", "X", "丙", "丁"]},
                       first["edit_token"])
    assert status == 422 and err["error"]["code"] == "duplicate_name"


@pytest.mark.parametrize("lang, words", [("zh", "看不见的字符"), ("en", "invisible character")])
def test_a_page_form_with_an_invisible_character_in_a_name_says_so_in_words(lclient, lang, words):  # noqa: F811
    lclient.set_cookie("lang", lang)
    token = csrf(lclient, "/tables/new?game=hongwu")
    resp = lclient.post("/tables/new?game=hongwu", data={"csrf_token": token, "game": "hongwu", "name_0": "甲",
                                                         "name_1": "乙\u200b", "name_2": "丙", "name_3": "丁"})
    assert resp.status_code == 422 and words in resp.get_data(as_text=True)
    table = open_table(lclient)
    lclient.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    for change in ({"kind": "replace", "seat": "2", "name": "戊\u202e"}, {"kind": "rename", "seat": "2", "name": "甲"}):
        resp = lclient.post(f"/tables/{table['id']}/edit/seats", data={
            "csrf_token": csrf(lclient, f"/tables/{table['id']}/edit"), **change})
        assert resp.status_code == 422, change
    assert read(lclient, table["id"])["players"] == PLAYERS


def test_names_equal_under_nfkc_and_case_folding_are_one_person_in_a_circle(lclient):  # noqa: F811
    first = open_table(lclient, players=["amy", "乙", "丙", "丁"])
    assert post(lclient, f"tables/{first['id']}/hands", HAND, first["edit_token"])[0] == 201
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {"players": ["ＡＭＹ", "乙", "丙", "丁"]},
                     first["edit_token"])
    assert post(lclient, f"tables/{second['id']}/hands", HAND, second["edit_token"])[0] == 201
    circle = lclient.get(f"/api/v1/circles/{read(lclient, first['id'])['circle']}").get_json()
    names = [s["name"] for s in circle["standings"]]
    assert sorted(names) == sorted(["amy", "乙", "丙", "丁"])
    amy = next(s for s in circle["standings"] if s["name"] == "amy")
    assert (amy["evenings"], amy["hands"]) == (2, 2)


# --- a stale 304 ---------------------------------------------------------------------------------------------

def test_deleting_a_middle_evening_changes_the_etag_of_the_evenings_before_and_after_it(lclient):  # noqa: F811
    first = open_table(lclient)
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    _, third = post(lclient, f"tables/{second['id']}/next-evening", {}, second["edit_token"])
    tags = {t: lclient.get(f"/api/v1/tables/{t}").headers["ETag"] for t in (first["id"], third["id"])}
    assert lclient.delete(f"/api/v1/tables/{second['id']}",
                          headers={"X-Edit-Token": second["edit_token"]}).status_code == 204
    for table_id, tag in tags.items():
        resp = lclient.get(f"/api/v1/tables/{table_id}", headers={"If-None-Match": tag})
        assert resp.status_code == 200 and resp.headers["ETag"] != tag
    assert read(lclient, first["id"])["next"] is None and read(lclient, third["id"])["previous"] is None
