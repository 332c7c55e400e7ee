"""The trick counter's declaration (scoring/live.py) says what the engine does: the bottom multiplier of each
last-trick outcome is the one the settlement applies, the bottom scores only where the rules say, the
settle fields it names exist, and the pages render it only for the games that declare one."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest

from scoring.registry import all_games, get_game


def described(slug, **rules):
    game = get_game(slug)
    return game.live_counter.describe(game.ruleset.resolve(rules))


@pytest.mark.parametrize("outcome", ["none", "single", "throw", "pair", "tractor"])
def test_erqiwang_bottom_times_are_the_settlements(outcome, api):
    last = next(o for o in described("erqiwang", bottom_bonus="on")["last"] if o["value"] == outcome)
    status, out = api("erqiwang/settle", {"declarer": 0, "bid": 80, "defender_points": 50, "bottom_points": 20,
                                          **last["fills"], "rules": {"bottom_bonus": "on"}})
    assert status == 200
    assert out["defender_total"] == 50 + 20 * last["times"]


def test_erqiwang_without_bottom_bonus_has_no_bottom_and_solo_has_no_partner():
    off = described("erqiwang")
    assert off["bottom"] is None and off["last"] == [] and off["partner"] == 2
    assert described("erqiwang", sides="solo")["partner"] is None


@pytest.mark.parametrize("rule, times", [("last_trick", 0), ("always", 1)])
def test_hongwu_bottom_when_the_defenders_take_the_last_trick_follows_the_bottom_rule(rule, times, api):
    last = {o["value"]: o for o in described("hongwu", bottom=rule)["last"]}
    assert last["declarer"]["times"] == 1 and last["defenders"]["times"] == times
    base = {"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15, "rules": {"bottom": rule}}
    status, out = api("hongwu/settle", {**base, **last["defenders"]["fills"]})
    assert status == 200
    assert out["points"] == 120 + 15 * times


def test_the_fields_a_counter_fills_are_declared_settle_fields():
    for game in all_games():
        if game.live_counter is None:
            continue
        for rules in ({}, {"bottom_bonus": "on"} if game.slug == "erqiwang" else {"decks": 3}):
            cfg = game.live_counter.describe(game.ruleset.resolve(rules))
            names = {f.name for f in game.settle_input.fields}
            filled = {cfg["declarer"], cfg["points"], *(k for o in cfg["last"] for k in o["fills"])}
            if cfg["bottom"]:
                filled.add(cfg["bottom"]["field"])
            if cfg["red_fives"]:
                filled.add(cfg["red_fives"]["field"])
            assert filled <= names, game.slug


def counter_config(client, url):
    html = client.get(url).get_data(as_text=True)
    found = re.search(r'data-trick-counter="([^"]*)"', html)
    return json.loads(unescape(found.group(1))) if found else None


def test_only_the_trick_games_show_the_counter_and_it_follows_the_chosen_rules(app, client):
    app.config["WTF_CSRF_ENABLED"] = False
    assert counter_config(client, "/hongwu/settle")["red_fives"]["max"] == 2
    assert counter_config(client, "/erqiwang/settle")["bottom"] is None
    for slug in ("paodekuai", "shuangkou", "q783"):
        assert counter_config(client, f"/{slug}/settle") is None, slug
    resp = client.post("/erqiwang/settle", data={"action": "refresh", "rules-bottom_bonus": "on"})
    assert resp.status_code == 200
    found = json.loads(unescape(re.search(r'data-trick-counter="([^"]*)"', resp.get_data(as_text=True)).group(1)))
    assert found["bottom"] == {"field": "bottom_points", "side": "defenders", "max": 80}


@pytest.mark.parametrize("preset, bid, points, made", [("seed", 100, 100, False), ("seed", 100, 105, True),
                                                        ("tiers_321", 100, 100, True), ("tiers_321", 100, 95, False)])
def test_hongwu_goal_is_what_the_settlement_calls_making_the_bid(preset, bid, points, made, api):
    goal = described("hongwu", preset=preset)["goal"]
    shown_made = points >= bid + (5 if goal["beyond"] else 0)
    status, out = api("hongwu/settle", {"declarer": 0, "bid": bid, "declarer_points": points,
                                        "rules": {"preset": preset}})
    assert status == 200
    assert shown_made == made == (out["deltas"][0] > 0)


@pytest.mark.parametrize("points, made", [(45, True), (40, False)])
def test_erqiwang_goal_is_what_the_settlement_calls_making_the_bid(points, made, api):
    goal = described("erqiwang")["goal"]
    assert goal["side"] == "defenders" and not goal["beyond"]
    status, out = api("erqiwang/settle", {"declarer": 0, "bid": 45, "defender_points": points})
    assert status == 200
    assert (points >= 45) == made == (out["winner"] == "defenders")
