"""No input produces a 500: random JSON thrown at every action of every built game."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.i18n import t
from scoring.registry import all_games
from webapp.api import error_response

FIELDS = ["cards", "play", "previous", "hand", "lead", "trump", "others", "plays", "winner", "cards_left",
          "finish_order", "bombs", "players", "teams", "banks", "rounds", "declarer", "bid", "declarer_points",
          "bottom_points", "declarer_took_bottom", "red_fives", "defender_points", "chongguan", "surrender",
          "rules", "bids", "start"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False),
                    st.sampled_from(["", "♠A", "7 7 7 7", "大王 小王", "♥5", "S", "abc", "♠", "10", "-5",
                                     "♠Q ♥7 ♥8 ♣3", "preset", "on"]),
                    st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.sampled_from(FIELDS + ["seat", "lines", "owner", "captured_by", "count", "jokers",
                                              "preset", "decks", "stake"]), inner, max_size=4)),
    max_leaves=12)
payloads = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)

ROUTES = [(g.slug, a) for g in all_games() for a in g.action_names()]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=payloads)
def test_no_api_input_gives_a_server_error(client, route, body):
    slug, action = route
    resp = client.post(f"/api/v1/{slug}/{action}", data=json.dumps(body), content_type="application/json")
    assert resp.status_code < 500, (slug, action, body, resp.get_data(as_text=True)[:500])
    if resp.status_code >= 400:
        err = resp.get_json()["error"]
        assert err["code"] and err["message"]


PAGE_FIELDS = ["play", "previous", "hand", "lead", "trump", "others", "play0", "play1", "winner", "cards",
               "count", "players", "teams", "declarer", "bid", "declarer_points", "bottom_points",
               "defender_points", "surrender", "cards_left-0", "cards_left-1", "finish_order-0", "finish_order-1",
               "bombs-0-seat", "bombs-0-cards", "bombs-0-lines", "rounds-0-winner", "rounds-0-cards",
               "rounds-0-count", "bank_0", "red_fives-0-owner", "red_fives-0-captured_by", "chongguan-0-seat", "chongguan-0-cards",
               "chongguan-0-jokers", "rules-preset", "rules-decks", "rules-stake", "rules-wild", "state", "action"]
PAGES = [f"/{g.slug}/{tab}" for g in all_games() for tab in ("check", "hint", "settle")] + \
    ["/hongwu/trick", "/erqiwang/trick", "/q783/rounds"]
form_values = st.one_of(st.sampled_from(["", "0", "1", "7", "-3", "100", "♠A ♠A", "大王", "x", "on", "start",
                                         "round", "undo", "finish", "next", "{}", "[1]", '{"players": 9}',
                                         "paodekuai48", "9999999999999"]), st.text(max_size=10))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(PAGES), data=st.dictionaries(st.sampled_from(PAGE_FIELDS), form_values, max_size=8))
def test_no_form_input_gives_a_server_error(app, url, data):
    app.config["WTF_CSRF_ENABLED"] = False
    resp = app.test_client().post(url, data=data)
    assert resp.status_code < 500, (url, data, resp.get_data(as_text=True)[-800:])


# ---------------------------------------------------------------------------
# Input safety: each cause of a 500 that was found, as the rule it now keeps
# ---------------------------------------------------------------------------

CALCULATORS = [f"/api/v1/{g.slug}/{a}" for g in all_games() for a in g.action_names()]


def post_raw(client, path: str, raw: bytes | str):
    return client.post(path, data=raw, content_type="application/json", headers={"Accept-Language": "en"})


def test_json_nested_1000_deep_is_a_400_on_every_calculator_endpoint(client):
    deep = '{"rules": ' + "[" * 1000 + "]" * 1000 + "}"
    for path in CALCULATORS:
        resp = post_raw(client, path, deep)
        assert resp.status_code == 400, (path, resp.status_code)
        assert resp.get_json()["error"]["code"] in ("too_deep", "malformed_json")


def test_json_nested_past_the_depth_limit_is_refused_even_when_python_could_parse_it(client):
    resp = post_raw(client, "/api/v1/hongwu/settle", '{"red_fives": ' + "[" * 30 + "]" * 30 + "}")
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "too_deep"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_a_number_that_is_not_finite_is_a_400(client, number):
    resp = post_raw(client, "/api/v1/paodekuai/settle", '{"winner": 0, "cards_left": [0, %s, 3, 4]}' % number)
    assert resp.status_code == 400
    body = resp.get_json()
    assert body["error"]["code"] == "malformed_json" and "finite" in body["error"]["message"]


def test_a_body_that_is_not_utf8_is_a_400(client):
    resp = post_raw(client, "/api/v1/paodekuai/settle", b'{"winner": "\xff\xfe"}')
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "malformed_json"


SURROGATE_BODIES = [
    ("/api/v1/paodekuai/check", {"play": "♠A \ud800"}),
    ("/api/v1/paodekuai/check", {"play": "\udfff"}),
    ("/api/v1/hongwu/trick", {"trump": "\ud800", "plays": ["♠A", "♠K"]}),
    ("/api/v1/hongwu/trick", {"trump": ["\ud800"], "plays": ["♠A", "♠K"]}),
    ("/api/v1/hongwu/settle", {"declarer": "\ud800", "bid": 100, "declarer_points": 100}),
    ("/api/v1/paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 2, 3], "rules": {"preset": "\ud800"}}),
    ("/api/v1/paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 2, 3], "rules": {"\ud800": 1}}),
    ("/api/v1/paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 2, 3], "rules": {"stake": "\ud800"}}),
    ("/api/v1/hongwu/bidding", {"bids": ["\ud800"]}),
    ("/api/v1/tables", {"game": "\ud800", "players": ["a", "b", "c", "d"]}),
]


@pytest.mark.parametrize("path,body", SURROGATE_BODIES)
def test_a_lone_surrogate_is_quoted_escaped_never_raw_in_an_error(client, path, body):
    resp = post_raw(client, path, json.dumps(body))  # json.dumps writes a surrogate as \\ud800
    assert 400 <= resp.status_code < 500, (path, body, resp.status_code)
    text = resp.get_data(as_text=True)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    assert resp.get_json()["error"]["message"]


def test_a_message_still_holding_a_surrogate_is_escaped_not_a_500(app):
    with app.test_request_context("/api/v1/x"):
        resp, status = error_response("x", t("「{v}」", "“{v}”", v="a\ud800"), 400, "rules.\udfff")
        body = json.loads(resp.get_data())
    assert status == 400
    assert body["error"] == {"code": "x", "message": "「a\\ud800」", "field": "rules.\\udfff"}


@pytest.mark.parametrize("value", ["²", "¹", "--1", "+-1", "٣", "１", "1.0", "1e3", " ", "\x00"])
def test_a_non_ascii_digit_or_a_doubled_sign_in_an_integer_field_is_a_400(client, value):
    resp = client.post("/api/v1/hongwu/settle", json={"declarer": value, "bid": 100, "declarer_points": 100})
    assert resp.status_code == 400, (value, resp.get_json())
