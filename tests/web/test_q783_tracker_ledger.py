"""The Q783 round tracker following a ledger table's next hand (/tables/<id>/edit/rounds): it starts from the
table's players, rules and carried banks, and "record" saves the followed hand as the table's next hand
through the ledger — once, whatever is tapped twice, sent stale or tampered with; never a 500."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest


@pytest.fixture
def client(app):
    app.config["WTF_CSRF_ENABLED"] = False  # CSRF has tests of its own; here the posts are the point
    return app.test_client()


def new_table(client, players=("甲", "乙", "丙", "丁"), rules=None):
    created = client.post("/api/v1/tables", json={"game": "q783", "players": list(players),
                                                  **({"rules": rules} if rules else {})}).get_json()
    client.get(f"/tables/{created['id']}/edit/{created['edit_token']}")  # the edit cookie
    return created


def tracker(created) -> str:
    return f"/tables/{created['id']}/edit/rounds"


def state_of(resp) -> str:
    found = re.search(r'<input id="state" name="state" type="hidden" value="([^"]*)"', resp.get_data(as_text=True))
    return unescape(found.group(1)) if found else ""


def post(client, created, state, action, **fields):
    return client.post(tracker(created), data={"state": state, "action": action, **fields})


def hands(client, created) -> list[dict]:
    return client.get(f"/api/v1/tables/{created['id']}").get_json()["hands"]


def record_hand_by_api(client, created, body):
    resp = client.post(f"/api/v1/tables/{created['id']}/hands", json=body,
                       headers={"X-Edit-Token": created["edit_token"]})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def followed_hand(client, created, banks=("100",) * 4):
    """Start a hand (typing the banks when the table carries none), one round, seat 2 out first: the state."""
    resp = client.get(tracker(created))
    state = state_of(resp)
    if "开始这一手" in resp.get_data(as_text=True):
        state = state_of(post(client, created, state, "start", **{f"bank_{i}": b for i, b in enumerate(banks)}))
    state = state_of(post(client, created, state, "round", winner="0", won_with="fu_q783"))
    return state_of(post(client, created, state, "finish", place_0="2"))


def test_a_followed_hand_is_recorded_as_the_tables_next_hand(client):
    created = new_table(client)
    state = followed_hand(client, created)
    resp = post(client, created, state, "record")
    assert resp.status_code == 303
    assert resp.headers["Location"].endswith(f"/tables/{created['id']}/edit#hand-1")
    (hand,) = hands(client, created)
    assert hand["input"]["rounds"] == [{"winner": 0, "won_with": "fu_q783"}]
    assert hand["input"]["finish_order"] == [2]
    assert hand["banks"] == [110, 30, 230, 30]  # 副Q783: 20 from each; seat 2 out first: 50 from each


def test_the_next_hand_starts_from_the_tables_carried_banks_and_records_once_on_a_double_post(client):
    created = new_table(client)
    record_hand_by_api(client, created, {"banks": [100, 100, 100, 100], "rounds": [], "finish_order": [1]})
    resp = client.get(tracker(created))
    assert "开始这一手" not in resp.get_data(as_text=True)  # the banks carry over: straight to the rounds
    assert [int(b) for b in re.findall(r'<td class="num bank">(\d+)</td>', resp.get_data(as_text=True))] == \
        [50, 250, 50, 50]
    state = followed_hand(client, created)
    first = post(client, created, state, "record")
    second = post(client, created, state, "record")
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert len(hands(client, created)) == 2
    assert hands(client, created)[1]["banks"] == [60, 180, 160, 0]
    again = post(client, created, state, "undo")  # a page from before the record: the hand is on the table
    assert again.status_code == 200 and "已记为第2局" in again.get_data(as_text=True)
    assert len(hands(client, created)) == 2


def test_a_hand_recorded_meanwhile_by_another_phone_is_not_overwritten(client):
    created = new_table(client)
    record_hand_by_api(client, created, {"banks": [125, 125, 125, 125], "rounds": [], "finish_order": [1]})
    state = followed_hand(client, created)
    record_hand_by_api(client, created, {"rounds": [], "finish_order": [0]})  # another phone: hand 2
    resp = post(client, created, state, "record")
    assert resp.status_code == 200
    assert "第2局" in resp.get_data(as_text=True)
    assert len(hands(client, created)) == 2  # nothing recorded from the stale hand
    rebased = json.loads(state_of(resp))
    assert rebased["base"] == 2 and rebased["banks"] == hands(client, created)[1]["banks"]
    assert post(client, created, state_of(resp), "record").status_code == 303  # checked, then recorded
    assert len(hands(client, created)) == 3


def test_a_hand_not_over_yet_is_not_recorded(client):
    created = new_table(client)
    state = state_of(post(client, created, "", "start", **{f"bank_{i}": "100" for i in range(4)}))
    state = state_of(post(client, created, state, "round", winner="1", cards="♠Q"))
    resp = post(client, created, state, "record")
    assert resp.status_code == 200 and "还没结束" in resp.get_data(as_text=True)
    assert hands(client, created) == []


@pytest.mark.parametrize("state", ["not json", "[1, 2]", '{"players": 4}', "{" * 3000,
                                   '{"players": 5, "teams": false, "banks": null, "names": [], "rules": {}, '
                                   '"rounds": [], "finish_order": null, "table": "someother", "base": 0, "key": "k"}'])
def test_a_bad_or_foreign_state_starts_again_from_the_table(client, state):
    created = new_table(client, players=("甲", "乙", "丙"))
    for action in ("record", "round", "finish", "undo", "start", "nonsense"):
        resp = post(client, created, state, action, winner="0", cards="♠Q")
        assert resp.status_code in (200, 303), (action, resp.status_code)
    assert all(len(h["deltas"]) == 3 for h in hands(client, created))


def test_a_state_posted_with_other_players_or_rules_keeps_the_tables(client):
    created = new_table(client, players=("甲", "乙", "丙"))
    state = json.loads(state_of(post(client, created, "", "start", **{f"bank_{i}": "100" for i in range(3)})))
    state.update(players=6, names=["x"] * 6, rules={"penalty": 100})
    resp = post(client, created, json.dumps(state), "finish", place_0="1")
    kept = json.loads(state_of(resp))
    assert kept["players"] == 3 and kept["names"] == ["甲", "乙", "丙"] and kept["rules"]["penalty"] == 50
    assert post(client, created, state_of(resp), "record").status_code in (200, 303)
    for hand in hands(client, created):
        assert len(hand["deltas"]) == 3


def test_the_tracker_needs_the_edit_cookie_and_a_table_whose_game_is_followed_live(app, client):
    created = new_table(client)
    stranger = app.test_client()
    assert stranger.get(tracker(created)).status_code == 403
    assert stranger.post(tracker(created), data={"action": "record"}).status_code == 403
    assert client.get("/tables/nosuchtable/edit/rounds").status_code == 404
    other = client.post("/api/v1/tables", json={"game": "shuangkou", "players": ["a", "b", "c", "d"]}).get_json()
    client.get(f"/tables/{other['id']}/edit/{other['edit_token']}")
    assert client.get(f"/tables/{other['id']}/edit/rounds").status_code == 404


def test_the_table_page_links_to_the_tracker_only_for_games_followed_live(client):
    created = new_table(client)
    assert tracker(created) in client.get(f"/tables/{created['id']}/edit").get_data(as_text=True)
    other = client.post("/api/v1/tables", json={"game": "shuangkou", "players": ["a", "b", "c", "d"]}).get_json()
    client.get(f"/tables/{other['id']}/edit/{other['edit_token']}")
    assert "/edit/rounds" not in client.get(f"/tables/{other['id']}/edit").get_data(as_text=True)


def test_a_hand_recorded_between_the_page_and_the_write_is_caught_under_the_tables_lock(client, monkeypatch):
    """Another phone's hand lands after the tracker checked the table but before it writes: the write, made
    under the table's lock, sees it and records nothing (the followed hand is rebased to be checked)."""
    from webapp import ledger as m
    from webapp.ledger import following

    created = new_table(client)
    record_hand_by_api(client, created, {"banks": [125, 125, 125, 125], "rounds": [], "finish_order": [1]})
    state = followed_hand(client, created)
    followed = following.followed

    def and_then_another_phone(here, data, notices):
        out = followed(here, data, notices)
        m.record_hand(created["id"], created["edit_token"], lambda: {"rounds": [], "finish_order": [0]}, "zh")
        return out

    monkeypatch.setattr(following, "followed", and_then_another_phone)
    resp = post(client, created, state, "record")
    assert resp.status_code == 200 and "第2局" in resp.get_data(as_text=True)
    assert [h["input"]["finish_order"] for h in hands(client, created)] == [[1], [0]]
    assert json.loads(state_of(resp))["base"] == 2


def test_a_record_the_engine_refuses_names_the_field_as_the_form_calls_it(client):
    created = new_table(client)
    state = json.loads(state_of(post(client, created, "", "start", **{f"bank_{i}": "100" for i in range(4)})))
    state["finish_order"] = []  # sent as if the hand were over with nobody out
    page = post(client, created, json.dumps(state), "record").get_data(as_text=True)
    assert "「出完的顺序」是空的" in page and "finish_order" not in re.sub(r'value="[^"]*"', "", page)
    assert hands(client, created) == []


def test_a_six_seat_table_with_seven_people_after_a_replacement_follows_and_records_the_seated_six(client):
    created = new_table(client, players=("甲", "乙", "丙", "丁", "戊", "己"))
    edit = f"/tables/{created['id']}/edit"
    assert client.post(edit + "/seats", data={"kind": "replace", "seat": "3", "name": "庚"}).status_code == 303
    page = client.get(tracker(created))
    assert page.status_code == 200
    assert "甲 · 乙 · 庚 · 丁 · 戊 · 己" in page.get_data(as_text=True)
    state = state_of(post(client, created, state_of(page), "start", **{f"bank_{i}": "80" for i in range(6)}))
    state = state_of(post(client, created, state, "round", winner="0", won_with="fu_q783"))
    state = state_of(post(client, created, state, "finish", place_0="2"))
    assert post(client, created, state, "record").status_code == 303
    table = client.get(f"/api/v1/tables/{created['id']}").get_json()
    assert table["players"] == ["甲", "乙", "丙", "丁", "戊", "己", "庚"]
    (hand,) = table["hands"]
    assert hand["seats"] == [0, 1, 6, 3, 4, 5]
    assert hand["deltas"][2] == 0 and sum(hand["deltas"]) == 0 and hand["deltas"][6] != 0
