"""A circle's season (牌友圈; docs/api.md, "Evenings in a row and circles"; issue 28 item 4):
``GET /api/v1/circles/<circle>`` adds up the evenings played in a row by name, lists who sat on one side for the
team games, and merges two spellings of one person (``POST /api/v1/circles/<circle>/aliases``). On SQLite and
PostgreSQL."""
from __future__ import annotations

import csv
import io
import re

import pytest
from sqlalchemy import text
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

from scoring.i18n import signed
from webapp.ledger.db import db

PLAYERS = ["甲", "乙", "丙", "丁"]
CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')


def post(client, path, body, token=None):
    resp = client.post(f"/api/v1/{path}", json=body, headers={"X-Edit-Token": token} if token else {})
    return resp.status_code, resp.get_json(silent=True)


def open_table(client, game, players=PLAYERS):
    status, out = post(client, "tables", {"game": game, "players": players})
    assert status == 201, out
    return out


def play(client, table, hands):
    for hand in hands:
        status, out = post(client, f"tables/{table['id']}/hands", hand, table["edit_token"])
        assert status == 201, out


def next_evening(client, table, players=None):
    status, out = post(client, f"tables/{table['id']}/next-evening", {"players": players} if players else {},
                       table["edit_token"])
    assert status == 201, out
    return out


def circle_of(client, table):
    return client.get(f"/api/v1/tables/{table['id']}").get_json()["circle"]


def circle(client, circle_id):
    resp = client.get(f"/api/v1/circles/{circle_id}")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def hongwu(declarer, points):
    return {"declarer": declarer, "bid": 100, "declarer_points": points}


def three_hongwu_evenings(client):
    """Three evenings of 红五; on the third 戊 takes 丁's place."""
    first = open_table(client, "hongwu")
    play(client, first, [hongwu(0, 120), hongwu(1, 40)])
    second = next_evening(client, first)
    play(client, second, [hongwu(2, 110), hongwu(0, 20), hongwu(3, 125)])
    third = next_evening(client, second, ["甲", "乙", "丙", "戊"])
    play(client, third, [hongwu(3, 130)])
    return [first, second, third]


def test_three_evenings_in_a_row_form_one_circle_whose_standings_are_the_sum_of_the_evenings(lclient):  # noqa: F811
    evenings = three_hongwu_evenings(lclient)
    tables = [lclient.get(f"/api/v1/tables/{e['id']}").get_json() for e in evenings]
    season = circle(lclient, tables[0]["circle"])
    assert season["id"] == tables[0]["circle"] and season["game"] == "hongwu"
    assert [e["table"] for e in season["evenings"]] == [e["id"] for e in evenings]
    assert [e["hands"] for e in season["evenings"]] == [2, 3, 1]
    assert [e["started_at"] for e in season["evenings"]] == [t["started_at"] for t in tables]
    for line, table in zip(season["evenings"], tables):
        assert line["totals"] == dict(zip(table["players"], table["totals"]))
    summed: dict[str, int] = {}
    for table in tables:
        for name, total in zip(table["players"], table["totals"]):
            summed[name] = summed.get(name, 0) + total
    standings = {s["name"]: s for s in season["standings"]}
    assert {name: s["total"] for name, s in standings.items()} == summed
    assert [s["name"] for s in season["standings"]] == sorted(summed, key=lambda n: (-summed[n], n))
    assert (standings["甲"]["evenings"], standings["丁"]["evenings"], standings["戊"]["evenings"]) == (3, 2, 1)
    assert (standings["甲"]["hands"], standings["丁"]["hands"], standings["戊"]["hands"]) == (6, 5, 1)


def test_a_circles_standings_count_hands_won_and_the_declarers_contracts(lclient):  # noqa: F811
    evenings = three_hongwu_evenings(lclient)
    standings = {s["name"]: s for s in circle(lclient, circle_of(lclient, evenings[0]))["standings"]}
    # 甲 declared twice (made 120, failed 20), 丁 made 125, 戊 made 130, 乙 failed 40, 丙 made 110
    made = {name: (s["declarer_made"], s["declarer_failed"]) for name, s in standings.items()}
    assert made == {"甲": (1, 1), "乙": (0, 1), "丙": (1, 0), "丁": (1, 0), "戊": (1, 0)}
    hands = [lclient.get(f"/api/v1/tables/{e['id']}").get_json() for e in evenings]
    won: dict[str, int] = {}
    for table in hands:
        for hand in table["hands"]:
            for name, delta in zip(table["players"], hand["deltas"]):
                won[name] = won.get(name, 0) + (delta > 0)
    assert {name: s["won"] for name, s in standings.items()} == won


def _pairs(season) -> dict[tuple[str, str], tuple[int, int]]:
    return {tuple(sorted((p["a"], p["b"]))): (p["hands"], p["total"]) for p in season["partners"]}


def test_shuangkou_partners_are_the_players_opposite_with_their_points_added_up(lclient):  # noqa: F811
    table = open_table(lclient, "shuangkou")
    play(lclient, table, [{"finish_order": [0, 2]}, {"finish_order": [1, 3]}, {"finish_order": [0, 1, 2]}])
    second = next_evening(lclient, table)
    play(lclient, second, [{"finish_order": [2, 0]}])
    hands = [h for e in (table, second) for h in lclient.get(f"/api/v1/tables/{e['id']}").get_json()["hands"]]
    pairs = _pairs(circle(lclient, circle_of(lclient, table)))
    assert set(pairs) == {("丙", "甲"), ("丁", "乙")}
    assert pairs[("丙", "甲")] == (4, sum(h["deltas"][0] + h["deltas"][2] for h in hands))
    assert pairs[("丁", "乙")] == (4, sum(h["deltas"][1] + h["deltas"][3] for h in hands))


def test_hongwu_partners_are_the_defenders_who_sat_against_the_declarer(lclient):  # noqa: F811
    table = open_table(lclient, "hongwu")
    play(lclient, table, [hongwu(0, 120), hongwu(0, 40), hongwu(1, 60)])
    hands = lclient.get(f"/api/v1/tables/{table['id']}").get_json()["hands"]
    season = circle(lclient, circle_of(lclient, table))
    pairs = _pairs(season)
    assert pairs[("丙", "乙")] == (2, sum(h["deltas"][1] + h["deltas"][2] for h in hands[:2]))
    assert pairs[("丙", "甲")] == (1, hands[2]["deltas"][0] + hands[2]["deltas"][2])
    assert set(pairs) == {("丙", "乙"), ("丁", "乙"), ("丁", "丙"), ("丙", "甲"), ("丁", "甲")}
    totals = [p["total"] for p in season["partners"]]
    assert totals == sorted(totals, reverse=True)


def test_a_game_without_sides_and_q783_without_teams_have_no_partners_while_q783_in_teams_has(lclient):  # noqa: F811
    alone = open_table(lclient, "paodekuai")
    play(lclient, alone, [{"winner": 0, "cards_left": [0, 5, 13, 10]}])
    assert circle(lclient, circle_of(lclient, alone))["partners"] == []
    q783 = open_table(lclient, "q783")
    play(lclient, q783, [{"rounds": [], "finish_order": [0]}])
    assert circle(lclient, circle_of(lclient, q783))["partners"] == []
    teams = open_table(lclient, "q783")
    play(lclient, teams, [{"teams": True, "rounds": [], "finish_order": [0, 2]}])
    assert set(_pairs(circle(lclient, circle_of(lclient, teams)))) == {("丙", "甲"), ("丁", "乙")}


@pytest.mark.parametrize("rules, sides", [({}, {("丙", "甲"), ("丁", "乙")}),
                                          ({"sides": "solo"}, {("丙", "乙"), ("丁", "乙"), ("丁", "丙")})])
def test_erqiwang_partners_are_the_declarers_side_with_or_without_the_partner_opposite(lclient, rules, sides):  # noqa: F811
    status, table = post(lclient, "tables", {"game": "erqiwang", "players": PLAYERS, "rules": rules})
    assert status == 201
    play(lclient, table, [{"declarer": 0, "bid": 60, "defender_points": 100}])
    assert set(_pairs(circle(lclient, circle_of(lclient, table)))) == sides


@pytest.mark.parametrize("circle_id", ["no-such-circle", "a" * 33, "bad id", "%00", "ä"])
def test_an_unknown_circle_is_a_404_in_the_error_shape(lclient, circle_id):  # noqa: F811
    resp = lclient.get(f"/api/v1/circles/{circle_id}")
    assert resp.status_code == 404
    assert set(resp.get_json()["error"]) == {"code", "message", "field"}
    assert lclient.get(f"/circles/{circle_id}").status_code == 404
    assert lclient.get(f"/circles/{circle_id}/export.csv").status_code == 404


def test_a_table_made_before_circles_is_read_as_a_circle_named_by_its_id(lclient):  # noqa: F811
    table = open_table(lclient, "hongwu")
    play(lclient, table, [hongwu(0, 120)])
    with lclient.application.app_context():
        db.session.execute(text("UPDATE ledger_tables SET circle = NULL WHERE id = :id"), {"id": table["id"]})
        db.session.commit()
    assert [e["table"] for e in circle(lclient, table["id"])["evenings"]] == [table["id"]]


def _merged_circle(client):
    first = open_table(client, "hongwu")
    play(client, first, [hongwu(0, 120)])
    second = next_evening(client, first, ["老甲", "乙", "丙", "丁"])
    play(client, second, [hongwu(0, 130)])
    return first, second, circle_of(client, first)


def test_an_alias_counts_one_spelling_as_another_in_the_standings_and_can_be_undone(lclient):  # noqa: F811
    first, second, circle_id = _merged_circle(lclient)
    before = {s["name"]: s for s in circle(lclient, circle_id)["standings"]}
    status, out = post(lclient, f"circles/{circle_id}/aliases", {"name": "老甲", "same_as": "甲"}, second["edit_token"])
    assert status == 200 and out == {"aliases": {"老甲": "甲"}}
    season = circle(lclient, circle_id)
    merged = {s["name"]: s for s in season["standings"]}
    assert "老甲" not in merged and season["aliases"] == {"老甲": "甲"}
    assert merged["甲"]["total"] == before["甲"]["total"] + before["老甲"]["total"]
    assert (merged["甲"]["evenings"], merged["甲"]["hands"], merged["甲"]["declarer_made"]) == (2, 2, 2)
    assert season["evenings"][1]["totals"]["甲"] == before["老甲"]["total"]
    status, out = post(lclient, f"circles/{circle_id}/aliases", {"name": "老甲", "same_as": None}, first["edit_token"])
    assert status == 200 and out == {"aliases": {}}
    assert "老甲" in {s["name"] for s in circle(lclient, circle_id)["standings"]}


def test_an_alias_needs_the_edit_token_of_an_evening_of_the_circle_and_names_in_it(lclient):  # noqa: F811
    first, _second, circle_id = _merged_circle(lclient)
    stranger = open_table(lclient, "hongwu")
    body = {"name": "老甲", "same_as": "甲"}
    assert post(lclient, f"circles/{circle_id}/aliases", body)[0] == 403
    assert post(lclient, f"circles/{circle_id}/aliases", body, stranger["edit_token"])[0] == 403
    assert post(lclient, "circles/no-such-circle/aliases", body, first["edit_token"])[0] == 404
    status, err = post(lclient, f"circles/{circle_id}/aliases", {"name": "老甲", "same_as": "无名"}, first["edit_token"])
    assert status == 422 and err["error"]["field"] == "same_as"
    status, err = post(lclient, f"circles/{circle_id}/aliases", {"name": 3, "same_as": "甲"}, first["edit_token"])
    assert status == 400 and err["error"]["field"] == "name"
    assert post(lclient, f"circles/{circle_id}/aliases", body, first["edit_token"])[0] == 200
    status, err = post(lclient, f"circles/{circle_id}/aliases", {"name": "甲", "same_as": "老甲"}, first["edit_token"])
    assert status == 422 and err["error"]["code"] == "alias_loop"
    assert circle(lclient, circle_id)["aliases"] == {"老甲": "甲"}


# --- the page and the CSV -----------------------------------------------------------------

def test_the_circle_page_shows_standings_money_the_chart_and_its_numbers_in_zh_and_en(lclient):  # noqa: F811
    evenings = three_hongwu_evenings(lclient)
    table_page = lclient.get(f"/tables/{evenings[1]['id']}?stay=1").get_data(as_text=True)
    link = re.search(r'href="(/circles/[^"]+)"', table_page).group(1).replace("&amp;", "&")
    season = circle(lclient, circle_of(lclient, evenings[0]))
    page = lclient.get(link + "&per_point=0.5").get_data(as_text=True)
    assert "牌友圈" in page and "积分榜" in page and 'class="ledger-chart"' in page
    top = season["standings"][0]
    assert f"{top['total'] / 2:.2f}" in page
    running = 0
    points = []
    for line in season["evenings"]:
        running += line["totals"].get(top["name"], 0)
        points.append(signed(running))
    assert f"<strong>{top['name']}</strong>: {' → '.join(points)}" in page
    best = season["partners"][0]
    assert f"搭子：{best['a']} 和 {best['b']}，一起{best['hands']}局，两人共{signed(best['total'])}分" in page
    assert "的对头：" in page
    lclient.set_cookie("lang", "en")
    english = lclient.get(link).get_data(as_text=True)
    assert "Circle" in english and "Standings" in english and "Partners" in english


def test_the_circle_csv_has_one_row_per_evening_per_player_adding_up_to_the_standings(lclient):  # noqa: F811
    evenings = three_hongwu_evenings(lclient)
    circle_id = circle_of(lclient, evenings[0])
    resp = lclient.get(f"/circles/{circle_id}/export.csv")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))[1:]
    assert len(rows) == 4 + 4 + 4
    last = {row[3]: int(row[6]) for row in rows}
    assert last == {s["name"]: s["total"] for s in circle(lclient, circle_id)["standings"]}


def test_the_merge_form_counts_a_name_as_another_with_an_evenings_edit_cookie(lclient):  # noqa: F811
    first, _second, circle_id = _merged_circle(lclient)
    page = lclient.get(f"/circles/{circle_id}?via={first['id']}").get_data(as_text=True)
    form = {"csrf_token": CSRF.search(page).group(1), "name": "老甲", "same_as": "甲"}
    refused = lclient.post(f"/tables/{first['id']}/edit/circle-aliases", data=form)
    assert refused.status_code == 403 and circle(lclient, circle_id)["aliases"] == {}
    lclient.get(f"/tables/{first['id']}/edit/{first['edit_token']}")  # the edit cookie of the first evening
    done = lclient.post(f"/tables/{first['id']}/edit/circle-aliases", data=form)
    assert done.status_code == 303 and circle(lclient, circle_id)["aliases"] == {"老甲": "甲"}


# --- what this version cannot read ----------------------------------------------------------

BROKEN = {
    "input a list": "UPDATE ledger_hands SET input = '[1, 2]' WHERE table_id = :id",
    "string deltas": """UPDATE ledger_hands SET deltas = '["a", "b", "c", "d"]' WHERE table_id = :id""",
    "seat out of range": "UPDATE ledger_hands SET seats = '[0, 1, 2, 9]' WHERE table_id = :id",
    "players not names": "UPDATE ledger_tables SET players = '[1, null]' WHERE id = :id",
    "unknown game": "UPDATE ledger_tables SET game = 'mahjong' WHERE id = :id",
    "rules a list": "UPDATE ledger_tables SET rules = '[1]' WHERE id = :id",
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_an_evening_this_version_cannot_read_is_left_out_and_named_without_a_5xx(lclient, broken):  # noqa: F811
    first, second, circle_id = _merged_circle(lclient)
    with lclient.application.app_context():
        db.session.execute(text(BROKEN[broken]), {"id": first["id"]})
        db.session.execute(text("UPDATE ledger_tables SET version = version + 1 WHERE id = :id"), {"id": first["id"]})
        db.session.execute(text("UPDATE ledger_hands SET changed_version = changed_version + 100 WHERE table_id = :id"),
                           {"id": first["id"]})
        db.session.commit()
    for path in (f"/api/v1/circles/{circle_id}", f"/circles/{circle_id}", f"/circles/{circle_id}/export.csv"):
        assert lclient.get(path).status_code == 200, path
    season = lclient.get(f"/api/v1/circles/{circle_id}").get_json()
    assert season["unreadable"] == [first["id"]] and [e["table"] for e in season["evenings"]] == [second["id"]]
    assert season["game"] == "hongwu" and {s["name"] for s in season["standings"]} == {"老甲", "乙", "丙", "丁"}
    assert lclient.get(f"/circles/{circle_id}?via={first['id']}").status_code == 200


def test_an_evening_whose_start_cannot_be_read_still_counts_without_a_date(lclient):  # noqa: F811
    first, second, circle_id = _merged_circle(lclient)
    with lclient.application.app_context():
        db.session.execute(text("UPDATE ledger_tables SET created_at = 'yesterday' WHERE id = :id"), {"id": first["id"]})
        db.session.commit()
        sqlite = db.engine.dialect.name == "sqlite"  # PostgreSQL itself reads 'yesterday' as a time
    season = circle(lclient, circle_id)
    started = {e["table"]: e["started_at"] for e in season["evenings"]}
    assert set(started) == {first["id"], second["id"]}
    if sqlite:
        assert started[first["id"]] is None
    assert lclient.get(f"/circles/{circle_id}").status_code == 200


def test_a_circles_partners_count_each_hand_on_the_sides_of_the_rules_it_was_played_with(lclient):  # noqa: F811
    """二七王 with the partner opposite, then (from hand 2) each declarer alone: hand 1's partners are still 甲 with
    丙 and 乙 with 丁, not the three defenders of a declarer alone under the rules the table plays now."""
    status, table = post(lclient, "tables", {"game": "erqiwang", "players": PLAYERS})
    assert status == 201
    play(lclient, table, [{"declarer": 0, "bid": 60, "defender_points": 100}])
    version = lclient.get(f"/api/v1/tables/{table['id']}").get_json()["version"]
    resp = lclient.put(f"/api/v1/tables/{table['id']}/rules", json={"version": version, "rules": {"sides": "solo"}},
                       headers={"X-Edit-Token": table["edit_token"]})
    assert resp.status_code == 200, resp.get_json()
    play(lclient, table, [{"declarer": 1, "bid": 60, "defender_points": 100}])
    pairs = _pairs(circle(lclient, circle_of(lclient, table)))
    assert {pair: hands for pair, (hands, _) in pairs.items()} == {
        ("丙", "甲"): 2, ("丁", "乙"): 1, ("丁", "甲"): 1, ("丁", "丙"): 1}
