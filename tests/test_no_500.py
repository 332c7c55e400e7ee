"""No input produces a 500: random JSON thrown at every action of every built game."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.registry import all_games

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
