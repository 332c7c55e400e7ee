"""The table ledger's JSON API (/api/v1/tables), on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

Q = "q783"


class Ledger:
    """Small helper around the test client for one app."""

    def __init__(self, client):
        self.client = client

    def call(self, method, path, body=None, token=None, lang=None, headers=None, raw=None):
        h = dict(headers or {})
        if token is not None:
            h["X-Edit-Token"] = token
        if lang:
            h["Accept-Language"] = lang
        kwargs = {"data": raw, "content_type": "application/json"} if raw is not None else {"json": body}
        resp = self.client.open(f"/api/v1/{path}", method=method, headers=h, **kwargs)
        return resp.status_code, resp.get_json(silent=True)

    def create(self, game=Q, players=("甲", "乙", "丙", "丁"), rules=None):
        body = {"game": game, "players": list(players)}
        if rules is not None:
            body["rules"] = rules
        status, out = self.call("POST", "tables", body)
        assert status == 201, out
        return out["id"], out["edit_token"]

    def table(self, tid, lang=None):
        status, out = self.call("GET", f"tables/{tid}", lang=lang)
        assert status == 200, out
        return out

    def add(self, tid, token, hand, lang=None):
        return self.call("POST", f"tables/{tid}/hands", hand, token=token, lang=lang)


@pytest.fixture
def led(lclient):  # noqa: F811
    return Ledger(lclient)


def first_out(seat):
    """A Q783 hand with no rounds: the first out collects the penalty (50) from everyone."""
    return {"rounds": [], "finish_order": [seat]}


def assert_error(body, code, field=None):
    assert set(body) >= {"error"}
    err = body["error"]
    assert set(err) == {"code", "message", "field"}
    assert err["code"] == code
    assert isinstance(err["message"], str) and err["message"]
    if field is not None:
        assert err["field"] == field


# --- creating ---------------------------------------------------------------

def test_creating_a_table_returns_id_token_and_links_with_128_bit_secrets(led):
    status, out = led.call("POST", "tables", {"game": Q, "players": ["A", "B", "C"], "rules": {"penalty": 30}})
    assert status == 201
    assert set(out) >= {"id", "edit_token", "view_url", "edit_url"}
    assert len(out["id"]) >= 22 and len(out["edit_token"]) >= 22  # token_urlsafe: 6 bits a character
    assert out["id"] != out["edit_token"]
    assert out["view_url"].endswith(f"/tables/{out['id']}")
    assert out["edit_token"] in out["edit_url"] and out["edit_token"] not in out["view_url"]
    table = led.table(out["id"])
    assert table["game"] == Q and table["players"] == ["A", "B", "C"]
    assert table["rules"]["penalty"] == 30 and table["rules"]["preset"]
    assert table["version"] == 1 and table["totals"] == [0, 0, 0] and table["hands"] == []
    assert "edit_token" not in table and "token_hash" not in table


def test_two_tables_never_share_an_id_or_a_token(led):
    a, b = led.create(), led.create()
    assert len({a[0], a[1], b[0], b[1]}) == 4


@pytest.mark.parametrize("body, status, code, field", [
    ({"game": "mahjong", "players": ["a", "b", "c"]}, 400, "unknown_game", "game"),
    ({"players": ["a", "b", "c"]}, 400, "unknown_game", "game"),
    ({"game": Q, "players": ["a", "b"]}, 422, "seat_count", "players"),
    ({"game": Q, "players": ["a", "b", "c", "d", "e", "f", "g"]}, 422, "seat_count", "players"),
    ({"game": Q, "players": "a,b,c"}, 400, "not_a_list", "players"),
    ({"game": Q, "players": ["a", "b", 3]}, 400, "not_a_string", "players[2]"),
    ({"game": Q, "players": ["a", " ", "c"]}, 422, "empty_name", "players[1]"),
    ({"game": Q, "players": ["a", "b", "a "]}, 422, "duplicate_name", "players[2]"),
    ({"game": Q, "players": ["a", "b", "x" * 40]}, 422, "bad_name", "players[2]"),
    ({"game": Q, "players": ["a", "b", "c\x00"]}, 422, "bad_name", "players[2]"),  # a control character
    ({"game": "shuangkou", "players": ["a", "b", "c"]}, 422, None, None),
    ({"game": Q, "players": ["a", "b", "c"], "rules": {"penalty": "lots"}}, 400, "invalid_option", "rules.penalty"),
    ({"game": Q, "players": ["a", "b", "c"], "rules": {"no_such_rule": 1}}, 400, "invalid_option", None),
    ({"game": Q, "players": ["a", "b", "c"], "rules": [1]}, 400, None, "rules"),
])
def test_creating_a_table_rejects_bad_input_in_the_error_shape(led, body, status, code, field):
    got, out = led.call("POST", "tables", body, lang="en")
    assert got == status, out
    assert_error(out, code or out["error"]["code"], field)


def test_creating_a_table_with_a_body_that_is_not_json_is_a_400(led):
    status, out = led.call("POST", "tables", raw="{not json")
    assert status == 400
    assert_error(out, "malformed_json")
    status, out = led.call("POST", "tables", raw="[" * 100000 + "]" * 100000)
    assert status in (400, 413)


def test_post_to_tables_is_not_swallowed_by_the_generic_game_action_route(led):
    status, out = led.call("POST", "tables", {"game": Q, "players": ["a", "b", "c"]})
    assert status == 201 and "edit_token" in out
    tid, _ = led.create()
    status, out = led.call("POST", f"tables/{tid}")  # not a route of the ledger
    assert status in (404, 405)
    assert "error" in out


def test_no_table_is_listed_anywhere(led):
    tid, _ = led.create()
    status, out = led.call("GET", "tables")
    assert status in (404, 405)
    assert tid not in str(out)
    status, out = led.call("GET", "games")
    assert tid not in str(out)


# --- reading ----------------------------------------------------------------

def test_an_unknown_table_is_a_404_in_the_error_shape_in_both_languages(led):
    status, zh = led.call("GET", "tables/nope")
    assert status == 404
    assert_error(zh, "table_not_found", "id")
    status, en = led.call("GET", "tables/nope", lang="en")
    assert status == 404 and "no table" in en["error"]["message"]
    assert zh["error"]["message"] != en["error"]["message"]
    for method, path in (("POST", "tables/nope/hands"), ("PUT", "tables/nope/hands/1"),
                         ("DELETE", "tables/nope/hands/1")):
        status, out = led.call(method, path, {"version": 1, "input": {}}, token="x")
        assert status == 404, (method, out)
        assert_error(out, "table_not_found")


def test_reading_a_table_answers_304_while_its_version_is_unchanged(led):
    tid, token = led.create()
    resp = led.client.get(f"/api/v1/tables/{tid}")
    etag = resp.headers["ETag"]
    again = led.client.get(f"/api/v1/tables/{tid}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    led.add(tid, token, first_out(0))
    changed = led.client.get(f"/api/v1/tables/{tid}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json()["version"] == 2


# --- recording --------------------------------------------------------------

def test_recording_hands_numbers_them_and_keeps_running_totals(led):
    tid, token = led.create()
    status, out = led.add(tid, token, first_out(1))
    assert status == 201
    assert out["hand"]["number"] == 1
    assert out["hand"]["deltas"] == [-50, 150, -50, -50]
    assert out["hand"]["steps"] and all(isinstance(s, str) for s in out["hand"]["steps"])
    assert out["totals"] == [-50, 150, -50, -50] and out["version"] == 2
    status, out = led.add(tid, token, {"rounds": [{"winner": 0, "cards": "♠4"}], "finish_order": [2]})
    assert status == 201 and out["hand"]["number"] == 2 and out["version"] == 3
    table = led.table(tid)
    assert [h["number"] for h in table["hands"]] == [1, 2]
    assert table["totals"] == [sum(h["deltas"][i] for h in table["hands"]) for i in range(4)]
    assert sum(table["totals"]) == 0
    assert table["hands"][0]["input"] == first_out(1)


def test_steps_follow_the_reader_language(led):
    tid, token = led.create()
    led.add(tid, token, first_out(1))
    zh, en = led.table(tid)["hands"][0]["steps"], led.table(tid, lang="en")["hands"][0]["steps"]
    assert zh != en and "penalty" in " ".join(en)


@pytest.mark.parametrize("token", [None, "", "wrong-token", "x" * 500])
def test_a_write_without_the_right_token_is_a_403_and_changes_nothing(led, token):
    tid, good = led.create()
    led.add(tid, good, first_out(0))
    checks = [("POST", f"tables/{tid}/hands", first_out(1)),
              ("PUT", f"tables/{tid}/hands/1", {"version": 2, "input": first_out(3)}),
              ("DELETE", f"tables/{tid}/hands/1", None)]
    for method, path, body in checks:
        status, out = led.call(method, path, body, token=token, lang="en")
        assert status == 403, (method, out)
        assert_error(out, "forbidden", "token")
        assert "edit" in out["error"]["message"]
    table = led.table(tid)
    assert table["version"] == 2 and len(table["hands"]) == 1 and table["hands"][0]["input"] == first_out(0)


def test_the_token_of_another_table_does_not_open_this_one(led):
    tid, _ = led.create()
    _, other = led.create()
    status, out = led.add(tid, other, first_out(0))
    assert status == 403


def test_tokens_are_compared_in_constant_time(led, monkeypatch):
    import hmac

    import webapp.ledger.models as models
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(models.hmac, "compare_digest", spy)
    tid, token = led.create()
    assert led.add(tid, token, first_out(0))[0] == 201
    assert led.add(tid, token + "x", first_out(0))[0] == 403
    assert len(calls) >= 2


# a hand's input the table's game cannot read is a 422: the document's hand body is any game's input
@pytest.mark.parametrize("hand, status, field", [
    ({"rounds": [], "finish_order": [9]}, 422, None),
    ({"rounds": "lots", "finish_order": [0]}, 422, "rounds"),
    ({"rounds": [{"winner": 0, "cards": "♠5"}], "finish_order": [0]}, None, None),  # score cards are not played
    ({"rounds": [], "finish_order": [0], "players": 5}, 422, None),  # 5 seats on a 4-seat table
    ({"rounds": [], "finish_order": [0], "rules": {"penalty": 100}}, 422, "rules"),
])
def test_bad_settle_input_answers_the_engines_4xx_and_stores_nothing(led, hand, status, field):
    tid, token = led.create()
    got, out = led.add(tid, token, hand, lang="en")
    assert 400 <= got < 500, out
    if status:
        assert got == status, out
    assert_error(out, out["error"]["code"], field)
    table = led.table(tid)
    assert table["hands"] == [] and table["version"] == 1 and table["totals"] == [0, 0, 0, 0]


def test_a_hand_body_that_is_not_an_object_is_a_400(led):
    tid, token = led.create()
    for raw in ("[1, 2]", "not json", "3"):
        status, out = led.call("POST", f"tables/{tid}/hands", raw=raw, token=token)
        assert status == 400, raw
        assert "error" in out


# --- editing ----------------------------------------------------------------

def test_editing_a_past_hand_recomputes_the_totals_and_bumps_the_version(led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    led.add(tid, token, first_out(1))
    status, out = led.call("PUT", f"tables/{tid}/hands/1", {"version": 3, "input": first_out(2)}, token=token)
    assert status == 200, out
    assert out["version"] == 4
    assert out["hand"]["number"] == 1 and out["hand"]["deltas"] == [-50, -50, 150, -50]
    assert out["totals"] == [-100, 100, 100, -100]
    table = led.table(tid)
    assert table["hands"][0]["input"] == first_out(2) and table["totals"] == out["totals"]


def test_an_edit_on_a_stale_version_is_a_409_with_a_clear_message_and_no_overwrite(led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))  # version 2
    led.add(tid, token, first_out(1))  # version 3: a phone that loaded version 2 is stale
    status, out = led.call("PUT", f"tables/{tid}/hands/1", {"version": 2, "input": first_out(3)},
                           token=token, lang="en")
    assert status == 409
    assert_error(out, "stale_version", "version")
    assert "reload" in out["error"]["message"] and out["version"] == 3
    status, zh = led.call("PUT", f"tables/{tid}/hands/1", {"version": 2, "input": first_out(3)}, token=token)
    assert status == 409 and "刷新" in zh["error"]["message"]
    table = led.table(tid)
    assert table["version"] == 3 and table["hands"][0]["input"] == first_out(0)


@pytest.mark.parametrize("body, status, field", [
    ({"input": first_out(1)}, 428, "version"),  # an edit must name the version it changes
    ({"version": 2}, 400, "input"),
    ({"version": "two", "input": first_out(1)}, 400, "version"),
    ({"version": 2, "input": [1]}, 400, "input"),
    ({"version": 2, "input": {"rounds": [], "finish_order": [7]}}, 422, None),
])
def test_an_edit_with_bad_input_is_a_4xx_and_changes_nothing(led, body, status, field):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    got, out = led.call("PUT", f"tables/{tid}/hands/1", body, token=token)
    assert got == status, out
    assert_error(out, out["error"]["code"], field)
    assert led.table(tid)["version"] == 2


def test_editing_or_deleting_a_hand_that_does_not_exist_is_a_404(led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    status, out = led.call("PUT", f"tables/{tid}/hands/5", {"version": 2, "input": first_out(1)}, token=token)
    assert status == 404
    assert_error(out, "hand_not_found")
    status, out = led.call("DELETE", f"tables/{tid}/hands/5", token=token)
    assert status == 404
    status, out = led.call("DELETE", f"tables/{tid}/hands/abc", token=token)
    assert status == 404 and "error" in out


# --- deleting ---------------------------------------------------------------

def test_deleting_a_hand_answers_204_and_recomputes_the_totals(led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    led.add(tid, token, first_out(1))
    resp = led.client.delete(f"/api/v1/tables/{tid}/hands/1", headers={"X-Edit-Token": token})
    assert resp.status_code == 204 and resp.data == b""
    table = led.table(tid)
    assert [h["number"] for h in table["hands"]] == [2]
    assert table["totals"] == [-50, 150, -50, -50] and table["version"] == 4


def test_undo_deletes_the_last_hand_and_the_next_hand_takes_its_number(led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    led.add(tid, token, first_out(1))
    assert led.call("DELETE", f"tables/{tid}/hands/2", token=token)[0] == 204
    status, out = led.add(tid, token, first_out(3))
    assert out["hand"]["number"] == 2
    assert led.table(tid)["totals"] == [100, -100, -100, 100]


def test_a_delete_that_names_a_stale_version_is_a_409(led):
    tid, token = led.create()
    led.add(tid, token, first_out(0))
    led.add(tid, token, first_out(1))
    status, out = led.call("DELETE", f"tables/{tid}/hands/2?version=2", token=token)
    assert status == 409
    assert_error(out, "stale_version")
    status, out = led.call("DELETE", f"tables/{tid}/hands/2", {"version": 2}, token=token)
    assert status == 409
    assert len(led.table(tid)["hands"]) == 2
    assert led.call("DELETE", f"tables/{tid}/hands/2?version=3", token=token)[0] == 204


def test_the_version_grows_by_exactly_one_with_every_change(led):
    tid, token = led.create()
    versions = [led.table(tid)["version"]]
    versions.append(led.add(tid, token, first_out(0))[1]["version"])
    versions.append(led.add(tid, token, first_out(1))[1]["version"])
    versions.append(led.call("PUT", f"tables/{tid}/hands/1", {"version": versions[-1], "input": first_out(2)},
                             token=token)[1]["version"])
    led.call("DELETE", f"tables/{tid}/hands/2", token=token)
    versions.append(led.table(tid)["version"])
    assert versions == [1, 2, 3, 4, 5]
    led.add(tid, token, {"rounds": [], "finish_order": [99]})  # rejected: no change, no new version
    assert led.table(tid)["version"] == 5


# --- Q783: banks carried from hand to hand ----------------------------------

BANKS = [100, 100, 100, 100]


def test_q783_carries_the_banks_from_hand_to_hand(led):
    tid, token = led.create()
    status, out = led.add(tid, token, {"banks": BANKS, "rounds": [], "finish_order": [0]})
    assert out["hand"]["banks"] == [250, 50, 50, 50] and out["hand"]["game_over"] is False
    assert out["banks"] == [250, 50, 50, 50]
    status, out = led.add(tid, token, first_out(1))  # no banks given: the ledger carries them
    assert status == 201
    assert out["hand"]["banks_before"] == [250, 50, 50, 50]
    assert out["hand"]["banks"] == [200, 200, 0, 0] and out["hand"]["game_over"] is True
    assert led.table(tid)["banks"] is None  # the 大局 is over: the next hand starts a new one


def test_q783_a_new_big_round_starts_with_the_banks_the_hand_gives(led):
    tid, token = led.create()
    led.add(tid, token, {"banks": [50, 50, 50, 50], "rounds": [], "finish_order": [0]})  # ends at once
    status, out = led.add(tid, token, {"banks": [80, 80, 80, 80], "rounds": [], "finish_order": [1]})
    assert out["hand"]["banks_before"] == [80, 80, 80, 80]
    assert out["hand"]["banks"] == [30, 230, 30, 30]


def test_q783_banks_given_in_the_middle_of_a_big_round_are_overridden_by_the_carried_ones(led):
    tid, token = led.create()
    led.add(tid, token, {"banks": BANKS, "rounds": [], "finish_order": [0]})
    status, out = led.add(tid, token, {"banks": [5, 5, 5, 5], "rounds": [], "finish_order": [0]})
    assert out["hand"]["banks_before"] == [250, 50, 50, 50]


def test_q783_editing_an_early_hand_recomputes_the_banks_of_the_later_ones(led):
    tid, token = led.create(rules={"penalty": 30})
    led.add(tid, token, {"banks": BANKS, "rounds": [], "finish_order": [0]})
    led.add(tid, token, first_out(0))
    assert led.table(tid)["hands"][1]["banks"] == [280, 40, 40, 40]
    status, out = led.call("PUT", f"tables/{tid}/hands/1",
                           {"version": 3, "input": {"banks": BANKS, "rounds": [], "finish_order": [1]}},
                           token=token)
    assert status == 200, out
    table = led.table(tid)
    assert table["hands"][1]["banks_before"] == [70, 190, 70, 70]
    assert table["hands"][1]["banks"] == [160, 160, 40, 40]
    assert table["totals"] == [60, 60, -60, -60] and table["banks"] == [160, 160, 40, 40]
    assert out["totals"] == table["totals"]


def test_q783_deleting_a_hand_recomputes_the_banks_after_it(led):
    tid, token = led.create(rules={"penalty": 30})
    led.add(tid, token, {"banks": BANKS, "rounds": [], "finish_order": [0]})
    led.add(tid, token, first_out(1))
    led.add(tid, token, first_out(2))
    assert led.table(tid)["banks"] == [130, 130, 130, 10]
    assert led.call("DELETE", f"tables/{tid}/hands/2", token=token)[0] == 204
    table = led.table(tid)
    assert table["hands"][1]["banks_before"] == [190, 70, 70, 70]
    assert table["banks"] == [160, 40, 160, 40]


def test_q783_banks_beyond_the_deck_are_rejected_and_nothing_is_stored(led):
    tid, token = led.create()
    status, out = led.add(tid, token, {"banks": [200, 200, 200, 200], "rounds": [], "finish_order": [0]})
    assert status == 422, out
    assert led.table(tid)["hands"] == []


def test_q783_negative_banks_keep_the_big_round_going(led):
    tid, token = led.create(rules={"negative_banks": True})
    led.add(tid, token, {"banks": [50, 50, 50, 50], "rounds": [], "finish_order": [0]})
    status, out = led.add(tid, token, first_out(0))
    assert out["hand"]["banks_before"] == [200, 0, 0, 0]
    assert out["hand"]["banks"] == [350, -50, -50, -50] and out["hand"]["game_over"] is False


# --- other games -----------------------------------------------------------

def test_a_shuangkou_table_keeps_totals_over_its_hands(led):
    tid, token = led.create(game="shuangkou")
    status, out = led.add(tid, token, {"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 6},
                                                                          {"seat": 1, "lines": 7}]})
    assert status == 201, out
    assert out["hand"]["deltas"] == [12, 4, 4, -20] and out["hand"]["outcome"] == "shuangkou"
    status, out = led.add(tid, token, {"finish_order": [2, 1, 3, 0], "bombs": []})
    assert out["hand"]["deltas"] == [1, -1, 1, -1]
    assert out["totals"] == [13, 3, 5, -21]
    status, out = led.call("PUT", f"tables/{tid}/hands/1", {"version": 3, "input": {"finish_order": [1, 0, 3, 2],
                           "bombs": [{"seat": 3, "lines": 5}, {"seat": 0, "lines": 4}]}}, token=token)
    assert status == 200 and out["totals"] == [-3, 3, -3, 3]


def test_a_hand_for_more_seats_than_the_table_has_is_refused(led):
    tid, token = led.create(game="q783", players=["a", "b", "c"])
    status, out = led.add(tid, token, {"players": 4, "rounds": [], "finish_order": [0]}, lang="en")
    assert status == 422
    assert_error(out, "seat_count", "input")
    assert "3 seats" in out["error"]["message"]
    assert led.table(tid)["hands"] == []


def test_a_paodekuai_table_uses_its_house_rules_for_every_hand(led):
    tid, token = led.create(game="paodekuai", rules={"stake": 2})
    status, out = led.add(tid, token, {"winner": 0, "cards_left": [0, 5, 13, 10]})
    assert status == 201, out
    assert out["hand"]["deltas"] == [174, -10, -104, -60]


# --- no input gives a 500 ---------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from properties import examples

FIELDS = ["players", "teams", "banks", "rounds", "finish_order", "rules", "winner", "cards", "count", "version",
          "input", "game", "cards_left", "bombs"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False),
                    st.sampled_from(["", "0", "1", "♠Q ♥7 ♥8 ♣3", "♠4", "q783", "\x00", "大王", "-1"]),
                    st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(FIELDS + ["seat"]), inner, max_size=4)),
    max_leaves=12)
bodies = st.one_of(st.dictionaries(st.sampled_from(FIELDS), values, max_size=6), values)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies, where=st.sampled_from(["create", "hands", "put", "delete"]),
       table_id=st.sampled_from(["", "x", "%00", "a" * 40, "ok"]))
def test_no_ledger_api_input_gives_a_server_error(led, body, where, table_id):
    tid, token = led.create()
    tid = tid if table_id == "ok" else table_id
    led.add(led.create()[0], token, first_out(0))
    if where == "create":
        status, out = led.call("POST", "tables", body)
    elif where == "hands":
        status, out = led.call("POST", f"tables/{tid}/hands", body, token=token)
    elif where == "put":
        status, out = led.call("PUT", f"tables/{tid}/hands/1", body, token=token)
    else:
        status, out = led.call("DELETE", f"tables/{tid}/hands/1", body, token=token)
    assert status < 500, (where, body, out)
    if status >= 400:
        assert out["error"]["code"] and out["error"]["message"]


def test_a_paodekuai_table_needs_the_seat_count_of_its_preset(api):
    status, out = api("tables", {"game": "paodekuai", "players": ["a", "b", "c"],
                                 "rules": {"preset": "paodekuai52"}})
    assert status == 422 and out["error"]["code"] == "seat_count"
    status, out = api("tables", {"game": "paodekuai", "players": ["a", "b", "c", "d", "e", "f"],
                                 "rules": {"preset": "paodekuai48"}})
    assert status == 422 and out["error"]["code"] == "seat_count"
    status, _ = api("tables", {"game": "paodekuai", "players": ["a", "b", "c"],
                               "rules": {"preset": "paodekuai48"}})
    assert status == 201
