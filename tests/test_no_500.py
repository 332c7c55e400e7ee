"""No input produces a 500: random JSON thrown at every action of every built game."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.games import all_games

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

ROUTES = [(g.slug, a) for g in all_games() if g.built for a in g.actions]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=payloads)
def test_no_api_input_gives_a_server_error(client, route, body):
    slug, action = route
    resp = client.post(f"/api/v1/{slug}/{action}", data=json.dumps(body), content_type="application/json")
    assert resp.status_code < 500, (slug, action, body, resp.get_data(as_text=True)[:500])
    if resp.status_code >= 400:
        err = resp.get_json()["error"]
        assert err["code"] and err["message"]
