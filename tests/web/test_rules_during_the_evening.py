"""Rules changed during the evening (issue 38 item 5; docs/api.md, "A record that money is settled on"): new house
rules apply from the next hand on, every hand keeps and answers the rules it was settled with, an edit of a past
hand settles it again with its own rules, and a stale version, rules the game refuses or rules its seats refuse
change nothing. On SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import inspect
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

from webapp.ledger.db import db

PLAYERS = ["甲", "乙", "丙", "丁"]
#: a 跑得快 hand with a bomb: 甲 out first; the bomb scores only under 炸弹分 (bomb_points) above 0
BOMB_HAND = {"winner": 0, "cards_left": [0, 5, 6, 7], "bombs": [{"seat": 0}]}
NO_BOMB_POINTS = [25, -5, -6, -14]  # the hand under the default rules (炸弹分 0)
TEN_BOMB_POINTS = [55, -15, -16, -24]  # the same hand under 炸弹分 10


def api(client, method, path, body=None, token=None):
    resp = client.open(f"/api/v1/tables{path}", method=method, json=body,
                       headers={"X-Edit-Token": token} if token else {})
    return resp.status_code, resp.get_json(silent=True)


def open_table(client):
    status, table = api(client, "POST", "", {"game": "paodekuai", "players": PLAYERS})
    assert status == 201, table
    return table["id"], table["edit_token"]


def record(client, tid, token, hand=BOMB_HAND):
    status, out = api(client, "POST", f"/{tid}/hands", hand, token)
    assert status == 201, out
    return out


def read(client, tid):
    return api(client, "GET", f"/{tid}")[1]


def change_rules(client, tid, token, rules, version=None):
    version = read(client, tid)["version"] if version is None else version
    return api(client, "PUT", f"/{tid}/rules", {"version": version, "rules": rules}, token)


def test_new_rules_apply_from_the_next_hand_and_each_hand_answers_the_rules_it_was_settled_with(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    assert record(lclient, tid, token)["hand"]["deltas"] == NO_BOMB_POINTS
    before = read(lclient, tid)["version"]
    status, out = change_rules(lclient, tid, token, {"bomb_points": 10})
    assert status == 200, out
    assert out["from_hand"] == 2 and out["version"] == before + 1 and out["rules"]["bomb_points"] == 10
    assert record(lclient, tid, token)["hand"]["deltas"] == TEN_BOMB_POINTS
    table = read(lclient, tid)
    assert table["rules"]["bomb_points"] == 10
    assert [hand["rules"]["bomb_points"] for hand in table["hands"]] == [0, 10]
    assert table["totals"] == [a + b for a, b in zip(NO_BOMB_POINTS, TEN_BOMB_POINTS)]


def test_editing_a_past_hand_settles_it_again_with_its_own_rules_never_the_tables_now(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    record(lclient, tid, token, {"winner": 1, "cards_left": [5, 0, 6, 7]})
    assert change_rules(lclient, tid, token, {"bomb_points": 10})[0] == 200
    record(lclient, tid, token)
    status, out = api(lclient, "PUT", f"/{tid}/hands/1", {"version": read(lclient, tid)["version"],
                                                          "input": BOMB_HAND}, token)
    assert status == 200, out
    table = read(lclient, tid)
    assert table["hands"][0]["deltas"] == NO_BOMB_POINTS and table["hands"][0]["rules"]["bomb_points"] == 0
    assert table["totals"] == [a + b for a, b in zip(NO_BOMB_POINTS, TEN_BOMB_POINTS)]


def test_a_rules_change_at_a_version_that_is_not_current_is_409_stale_version_and_changes_nothing(
        lclient):  # noqa: F811
    tid, token = open_table(lclient)
    old = read(lclient, tid)["version"]
    record(lclient, tid, token)
    status, err = change_rules(lclient, tid, token, {"bomb_points": 10}, version=old)
    assert status == 409 and err["error"]["code"] == "stale_version" and err["version"] == old + 1
    table = read(lclient, tid)
    assert table["rules"]["bomb_points"] == 0 and table["version"] == old + 1


@pytest.mark.parametrize("rules, status, code", [
    ([1], 400, "malformed_input"),  # no rules object at all
    ({"bomb_points": "lots"}, 422, "invalid_option"),  # a value the table's game does not take
    ({"no_such_rule": 1}, 422, "invalid_option"),  # an option it does not have (another game may)
    ({"preset": "paodekuai48"}, 422, "seat_count"),  # a deal for three, at a table of four
])
def test_rules_the_game_or_the_tables_seats_refuse_are_refused_and_change_nothing(
        lclient, rules, status, code):  # noqa: F811
    tid, token = open_table(lclient)
    before = read(lclient, tid)
    answered, err = change_rules(lclient, tid, token, rules)
    assert (answered, err["error"]["code"]) == (status, code)
    after = read(lclient, tid)
    assert (after["rules"], after["version"]) == (before["rules"], before["version"])


def test_a_rules_change_needs_the_edit_token(lclient):  # noqa: F811
    tid, _ = open_table(lclient)
    assert change_rules(lclient, tid, "wrong", {"bomb_points": 10})[0] == 403
    assert read(lclient, tid)["rules"]["bomb_points"] == 0


def test_hands_stored_before_migration_0009_read_as_the_tables_rules_and_keep_them_once_the_rules_change(
        lclient, ledger_app):  # noqa: F811
    from flask_migrate import downgrade, upgrade

    from webapp.ledger.db import migrations_dir
    tid, token = open_table(lclient)
    record(lclient, tid, token)
    with ledger_app.app_context():  # the hand as the version before per-hand rules stored it
        db.session.remove()
        downgrade(directory=migrations_dir(), revision="0008")
        assert "rules" not in {c["name"] for c in inspect(db.engine).get_columns("ledger_hands")}
        db.session.remove()
        upgrade(directory=migrations_dir())
        db.session.remove()
    table = read(lclient, tid)
    assert table["hands"][0]["rules"] == table["rules"]
    assert change_rules(lclient, tid, token, {"bomb_points": 10})[0] == 200
    assert read(lclient, tid)["hands"][0]["rules"]["bomb_points"] == 0
    status, out = api(lclient, "PUT", f"/{tid}/hands/1", {"version": read(lclient, tid)["version"],
                                                          "input": BOMB_HAND}, token)
    assert status == 200 and out["hand"]["deltas"] == NO_BOMB_POINTS


def test_an_undone_hand_is_not_redone_under_rules_changed_since(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    record(lclient, tid, token)
    with lclient.application.app_context():
        from webapp.ledger import service
        table_version = read(lclient, tid)["version"]
        assert service.undo_hand(tid, token, 1, table_version)["number"] == 1
        assert change_rules(lclient, tid, token, {"bomb_points": 10})[0] == 200
        assert service.redo_hand(tid, token, 1) is False
    assert read(lclient, tid)["hands"] == []


def test_share_text_lists_the_rules_that_changed_and_from_which_hand(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    record(lclient, tid, token)
    assert change_rules(lclient, tid, token, {"bomb_points": 10})[0] == 200
    record(lclient, tid, token)
    assert change_rules(lclient, tid, token, {"bomb_points": 10, "stake": 2})[0] == 200
    assert change_rules(lclient, tid, token, {"bomb_points": 10, "stake": 2, "baoben": False})[0] == 200
    record(lclient, tid, token)
    zh = lclient.get(f"/api/v1/tables/{tid}/settle-up").get_json()["share_text"].splitlines()
    assert zh[1:3] == ["第2局起：炸弹分 10", "第3局起：底分 2，报单保本 关"]
    en = lclient.get(f"/api/v1/tables/{tid}/settle-up", headers={"Accept-Language": "en"}).get_json()["share_text"]
    assert en.splitlines()[1] == "from hand 2: Bomb points 10"


def test_the_csv_writes_each_hands_input_under_the_rules_it_was_played_with_not_the_tables_now(lclient):  # noqa: F811
    """A Q783 round won with two ♠4 is a pair of two decks; once the table plays one deck, the hands before the change
    still read (and write) their rounds under two decks, and a later hand under one."""
    status, table = api(lclient, "POST", "", {"game": "q783", "players": PLAYERS})
    assert status == 201, table
    tid, token = table["id"], table["edit_token"]
    record(lclient, tid, token, {"banks": [60] * 4, "rounds": [{"winner": 1, "cards": "♠4 ♠4"}], "finish_order": [0]})
    status, out = change_rules(lclient, tid, token, {"decks": 1})
    assert status == 200, out
    record(lclient, tid, token, {"rounds": [{"winner": 2, "cards": "♠9 ♥9"}], "finish_order": [1]})
    resp = lclient.get(f"/tables/{tid}/export.csv?lang=en")
    assert resp.status_code == 200
    rows = list(csv.reader(io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))
    rounds = rows[0].index(next(h for h in rows[0] if h.lower().startswith("round")))
    assert "♠4 ♠4" in rows[1][rounds] and "♠9 ♥9" in rows[2][rounds], rows
