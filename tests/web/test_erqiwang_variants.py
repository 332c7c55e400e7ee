"""二七王 house-rule variant (docs/rules/variants.md §12 bottom_bonus, 抠底): every binding example through
the HTTP API, the new response field ``defender_total``, and zero-sum settlements with it switched on."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.registry import get_game

ON = {"bottom_bonus": "on"}
GAME = get_game("erqiwang")


def settle(api, body, rules=ON, status=200):
    got, out = api("erqiwang/settle", {"declarer": 0, **body, "rules": rules}, lang="en")
    assert got == status, out
    return out


@pytest.mark.parametrize("bid,points,bottom,last_trick,total,deltas", [
    (80, 50, 20, "pair", 90, [-1, 1, -1, 1]),
    (80, 50, 20, "single", 70, [1, -1, 1, -1]),
    (80, 50, 20, "none", 50, [1, -1, 1, -1]),
    (60, 0, 10, "single", 10, [4, -4, 4, -4]),
    (40, 60, 30, "tractor", 120, [-20, 20, -20, 20]),
    (65, 30, 5, "throw", 35, [2, -2, 2, -2]),
])
def test_bottom_bonus_the_last_trick_multiplies_the_bottom_for_the_defenders(api, bid, points, bottom, last_trick,
                                                                             total, deltas):
    out = settle(api, {"bid": bid, "defender_points": points, "bottom_points": bottom, "last_trick": last_trick})
    assert out["defender_total"] == total and out["deltas"] == deltas


def test_bottom_bonus_off_by_default_ignores_the_bottom_and_says_so(api):
    out = settle(api, {"bid": 80, "defender_points": 50, "bottom_points": 20, "last_trick": "pair"}, rules={})
    assert out["deltas"] == [1, -1, 1, -1] and out["defender_total"] == 50
    assert any("抠底 off" in s and "not used" in s for s in out["steps"])


def test_bottom_bonus_steps_say_what_the_bottom_added(api):
    out = settle(api, {"bid": 80, "defender_points": 50, "bottom_points": 20, "last_trick": "pair"})
    assert any("20 × 2 = 40" in s and "50 + 40 = 90" in s for s in out["steps"])


@pytest.mark.parametrize("body,field,code", [
    ({"bid": 80, "defender_points": 190, "bottom_points": 20, "last_trick": "single"}, "bottom_points",
     "too_many_points"),
    ({"bid": 80, "defender_points": 50, "bottom_points": 85, "last_trick": "single"}, "bottom_points",
     "out_of_range"),
    ({"bid": 80, "defender_points": 50, "bottom_points": 12, "last_trick": "single"}, "bottom_points",
     "not_multiple_of_5"),
    ({"bid": 80, "defender_points": 50, "bottom_points": 20, "last_trick": "triple"}, "last_trick", "invalid_choice"),
    ({"bid": 80, "defender_points": 50, "bottom_points": 20}, "last_trick", "required_by_rule"),
    ({"bid": 80, "defender_points": 50, "last_trick": "pair"}, "bottom_points", "required_by_rule"),
])
def test_bottom_bonus_bad_bottom_or_last_trick_is_a_422_naming_the_field(api, body, field, code):
    out = settle(api, body, status=422)
    assert out["error"]["field"] == field and out["error"]["code"] == code and out["error"]["message"]


def test_bottom_bonus_a_last_trick_of_none_needs_no_bottom_points(api):
    out = settle(api, {"bid": 80, "defender_points": 50, "last_trick": "none"})
    assert out["defender_total"] == 50 and out["deltas"] == [1, -1, 1, -1]


def test_bottom_bonus_off_still_checks_the_fields_range(api):
    out = settle(api, {"bid": 80, "defender_points": 50, "bottom_points": 85}, rules={}, status=422)
    assert out["error"]["field"] == "bottom_points"


def test_bottom_bonus_a_last_trick_that_is_not_text_is_a_400(api):
    out = settle(api, {"bid": 80, "defender_points": 50, "bottom_points": 20, "last_trick": 2}, status=400)
    assert out["error"]["field"] == "last_trick"


def test_bottom_bonus_leaves_surrender_and_chongguan_as_they_are(api):
    body = {"bid": 80, "surrender": True, "chongguan": [{"seat": 1, "jokers": 3, "trump7_pairs": 1}]}
    out = settle(api, body)
    # the stake 1 to each 闲家; the surrendered 冲关 counts only its jokers part (1), paid by seats 0 and 2
    assert out["deltas"] == [-2, 3, -2, 1] == settle(api, body, rules={})["deltas"]
    assert any("no 抠底" in s for s in out["steps"])
    out = settle(api, {"bid": 80, "defender_points": 50, "bottom_points": 20, "last_trick": "pair",
                       "chongguan": [{"seat": 1, "jokers": 3, "trump7_pairs": 1}]})
    assert out["deltas"] == [-1 - 2, 1 + 4, -1 - 2, 1]  # 闲家 win with 90; the 冲关 of 2 as without 抠底


def test_bottom_bonus_is_listed_with_its_default(api):
    status, out = api("games", method="GET")
    game = next(g for g in out["games"] if g["slug"] == "erqiwang")
    option = next(o for o in game["options"] if o["name"] == "bottom_bonus")
    assert option["default"] == "off" and option["values"] == ["off", "on"] and "飙分" in option["help"]


def test_bottom_bonus_fields_show_on_the_settle_form_only_when_it_is_on(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    off = client.get("/erqiwang/settle").get_data(as_text=True)
    assert 'name="last_trick"' not in off and 'name="bottom_points"' not in off
    on = client.post("/erqiwang/settle", data={"rules-bottom_bonus": "on", "action": "refresh"}).get_data(as_text=True)
    assert 'name="last_trick"' in on and 'name="bottom_points"' in on


@st.composite
def settle_body(draw):
    surrender = draw(st.booleans())
    body = {"declarer": draw(st.integers(0, 3)), "bid": draw(st.integers(1, 16)) * 5, "surrender": surrender}
    points = draw(st.integers(0, 24)) * 5
    body["defender_points"] = points
    body["bottom_points"] = draw(st.integers(0, min(80, 200 - points) // 5)) * 5
    body["last_trick"] = draw(st.sampled_from(["none", "single", "throw", "pair", "tractor"]))
    if draw(st.booleans()):
        body["chongguan"] = [{"seat": draw(st.integers(0, 3)), "jokers": draw(st.integers(0, 4)),
                              "trump7_pairs": draw(st.integers(0, 1))}]
    rules = draw(st.fixed_dictionaries({}, optional={"bottom_bonus": st.sampled_from(["off", "on"]),
                                                     "sides": st.sampled_from(["partners", "solo"]),
                                                     "base": st.integers(1, 5)}))
    return {**body, "rules": rules}


@settings(max_examples=examples(200), deadline=None)
@given(settle_body())
def test_bottom_bonus_settlements_stay_zero_sum(body):
    out = GAME.run("settle", body)
    assert sum(out["deltas"]) == 0
    if body["rules"].get("bottom_bonus") != "on" or body["surrender"]:
        assert out["defender_total"] == body["defender_points"]
    else:
        assert out["defender_total"] >= body["defender_points"]


anything = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                     st.text(max_size=8), st.sampled_from(["none", "pair", "triple", "20", "²", "-5"]),
                     st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                          max_size=2))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bottom=anything, last=anything, points=anything, rule=st.sampled_from(["on", "off", "maybe", 1]))
def test_bottom_bonus_no_input_gives_a_server_error(client, bottom, last, points, rule):
    body = {"declarer": 0, "bid": 80, "defender_points": points, "bottom_points": bottom, "last_trick": last,
            "rules": {"bottom_bonus": rule}}
    resp = client.post("/api/v1/erqiwang/settle", data=json.dumps(body), content_type="application/json")
    assert resp.status_code < 500, resp.get_data(as_text=True)[:300]
    if resp.status_code >= 400:
        assert resp.get_json()["error"]["message"]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bottom=st.text(max_size=6), last=st.text(max_size=8) | st.sampled_from(["none", "tractor"]),
       rule=st.sampled_from(["on", "off", ""]))
def test_bottom_bonus_no_form_input_gives_a_server_error(app, bottom, last, rule):
    app.config["WTF_CSRF_ENABLED"] = False
    resp = app.test_client().post("/erqiwang/settle", data={
        "declarer": "0", "bid": "80", "defender_points": "50", "bottom_points": bottom, "last_trick": last,
        "rules-bottom_bonus": rule})
    assert resp.status_code < 500
