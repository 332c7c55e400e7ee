"""Evenings in a row (docs/api.md, "Evenings in a row and circles"; issue 26 item 8, issue 28 item 3):
``POST /api/v1/tables/<id>/next-evening`` opens the evening after a table in the same circle, the table answers
its ``circle``, ``previous``, ``next`` and ``started_at``, and each table page links the evening before and after.
On SQLite and PostgreSQL."""
from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import text
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

from webapp.ledger.db import db

PLAYERS = ["甲", "乙", "丙", "丁"]
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def post(client, path, body, token=None):
    resp = client.post(f"/api/v1/{path}", json=body, headers={"X-Edit-Token": token} if token else {})
    return resp.status_code, resp.get_json(silent=True)


def open_table(client, game="hongwu", players=PLAYERS, rules=None):
    status, out = post(client, "tables", {"game": game, "players": players, **({"rules": rules} if rules else {})})
    assert status == 201, out
    return out


def read(client, table_id):
    return client.get(f"/api/v1/tables/{table_id}").get_json()


def test_the_next_evening_keeps_game_rules_and_players_and_joins_the_circle(lclient):  # noqa: F811
    first = open_table(lclient, rules={"preset": "tiers_321", "base": 3})
    status, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert status == 201 and set(second) == {"id", "edit_token", "view_url", "edit_url"}
    before, after = read(lclient, first["id"]), read(lclient, second["id"])
    assert (after["game"], after["players"], after["rules"]) == (before["game"], before["players"], before["rules"])
    assert after["hands"] == [] and after["totals"] == [0, 0, 0, 0]
    assert after["circle"] == before["circle"] and before["circle"] not in (first["id"], second["id"])
    assert (before["previous"], before["next"]) == (None, second["id"])
    assert (after["previous"], after["next"]) == (first["id"], None)
    assert datetime.fromisoformat(before["started_at"]) <= datetime.fromisoformat(after["started_at"])
    assert datetime.fromisoformat(after["started_at"]).utcoffset().total_seconds() == 0


def test_three_evenings_in_a_row_share_one_circle_and_link_both_ways(lclient):  # noqa: F811
    first = open_table(lclient)
    ids, token = [first["id"]], first["edit_token"]
    for _ in range(2):
        status, out = post(lclient, f"tables/{ids[-1]}/next-evening", {}, token)
        assert status == 201
        ids.append(out["id"])
        token = out["edit_token"]
    tables = [read(lclient, i) for i in ids]
    assert len({t["circle"] for t in tables}) == 1
    assert [t["previous"] for t in tables] == [None, ids[0], ids[1]]
    assert [t["next"] for t in tables] == [ids[1], ids[2], None]


def test_asking_again_answers_the_same_next_evening_with_the_same_token_and_opens_no_second(lclient):  # noqa: F811
    first = open_table(lclient)
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    status, again = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert status == 200 and again["id"] == second["id"] and again["edit_token"] == second["edit_token"]
    hand = {"declarer": 0, "bid": 100, "declarer_points": 60}
    assert post(lclient, f"tables/{second['id']}/hands", hand, second["edit_token"])[0] == 201  # issue 38
    with lclient.application.app_context():
        count = db.session.execute(text("SELECT count(*) FROM ledger_tables")).scalar_one()
    assert count == 2


def test_the_next_evening_takes_the_players_it_is_given_and_refuses_bad_ones_in_the_error_shape(lclient):  # noqa: F811
    first = open_table(lclient)
    status, out = post(lclient, f"tables/{first['id']}/next-evening", {"players": ["甲", "乙", "丙", "戊"]},
                       first["edit_token"])
    assert status == 201 and read(lclient, out["id"])["players"] == ["甲", "乙", "丙", "戊"]
    other = open_table(lclient)
    status, err = post(lclient, f"tables/{other['id']}/next-evening", {"players": ["甲", "甲", "丙", "丁"]},
                       other["edit_token"])
    assert status == 422 and err["error"]["field"] == "players[1]"  # as when a table is opened
    assert read(lclient, other["id"])["next"] is None


def test_asking_again_with_players_that_would_be_refused_is_refused_though_the_next_evening_exists(lclient):  # noqa: F811
    first = open_table(lclient)
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    status, err = post(lclient, f"tables/{first['id']}/next-evening", {"players": ["甲"] * 9}, first["edit_token"])
    assert status in (400, 422) and err["error"]["field"].startswith("players")  # schemathesis found a 200 here
    assert post(lclient, f"tables/{second['id']}/hands", {"declarer": 0, "bid": 100, "declarer_points": 60},
                second["edit_token"])[0] == 201  # the refused request changed no token


def test_the_next_evening_needs_the_edit_token_and_a_table_that_exists(lclient):  # noqa: F811
    first = open_table(lclient)
    assert post(lclient, f"tables/{first['id']}/next-evening", {})[0] == 403
    assert post(lclient, f"tables/{first['id']}/next-evening", {}, "wrong")[0] == 403
    assert post(lclient, "tables/no-such-table/next-evening", {}, first["edit_token"])[0] == 404
    assert read(lclient, first["id"])["next"] is None


def test_a_cached_copy_of_the_evening_before_is_not_answered_304_once_its_next_evening_exists(lclient):  # noqa: F811
    first = open_table(lclient)
    etag = lclient.get(f"/api/v1/tables/{first['id']}").headers["ETag"]
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    resp = lclient.get(f"/api/v1/tables/{first['id']}", headers={"If-None-Match": etag})
    assert resp.status_code == 200 and resp.get_json()["next"] == second["id"]


def test_a_table_made_before_circles_is_a_circle_of_its_own_and_its_next_evening_joins_it(lclient):  # noqa: F811
    first = open_table(lclient)
    with lclient.application.app_context():
        db.session.execute(text("UPDATE ledger_tables SET circle = NULL WHERE id = :id"), {"id": first["id"]})
        db.session.commit()
    assert read(lclient, first["id"])["circle"] == first["id"]
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert read(lclient, second["id"])["circle"] == first["id"]


def test_deleting_the_evening_before_leaves_the_next_one_without_a_previous(lclient):  # noqa: F811
    first = open_table(lclient)
    _, second = post(lclient, f"tables/{first['id']}/next-evening", {}, first["edit_token"])
    assert lclient.delete(f"/api/v1/tables/{first['id']}", headers={"X-Edit-Token": first["edit_token"]}).status_code == 204
    after = read(lclient, second["id"])
    assert after["previous"] is None and after["circle"]
    assert "上一晚" not in lclient.get(f"/tables/{second['id']}").get_data(as_text=True)


def test_each_table_page_links_the_evening_before_and_the_evening_after(lclient):  # noqa: F811
    first = open_table(lclient)
    lone = lclient.get(f"/tables/{first['id']}").get_data(as_text=True)
    assert "上一晚" not in lone and "下一晚" not in lone
    lclient.get(f"/tables/{first['id']}/edit/{first['edit_token']}")
    page = lclient.get(f"/tables/{first['id']}/edit").get_data(as_text=True)
    resp = lclient.post(f"/tables/{first['id']}/edit/new-evening", data={"csrf_token": CSRF.search(page).group(1)})
    second = re.match(r".*/tables/([^/]+)/edit\?new=1#entry$", resp.headers["Location"]).group(1)
    before = lclient.get(f"/tables/{first['id']}?stay=1").get_data(as_text=True)
    assert f'rel="next" href="/tables/{second}"' in before and "上一晚" not in before
    lclient.set_cookie("lang", "en")
    after = lclient.get(f"/tables/{second}").get_data(as_text=True)
    assert f'rel="prev" href="/tables/{first["id"]}?stay=1"' in after and "Previous evening" in after


def test_a_second_tap_on_new_evening_opens_the_same_evening_with_its_edit_page(lclient):  # noqa: F811
    first = open_table(lclient)
    lclient.get(f"/tables/{first['id']}/edit/{first['edit_token']}")
    token = CSRF.search(lclient.get(f"/tables/{first['id']}/edit").get_data(as_text=True)).group(1)
    places = [lclient.post(f"/tables/{first['id']}/edit/new-evening", data={"csrf_token": token}).headers["Location"]
              for _ in range(2)]
    assert places[0] == places[1]
    assert lclient.get(places[1]).status_code == 200  # the second answer's cookie opens its edit page
