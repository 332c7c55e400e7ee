"""Following a 红五 or 二七王 hand trick by trick is the one live-hand protocol (scoring/trick/live.py, issue 24):
the followed hand fills the game's own settle input and settles exactly as the same numbers typed in; the
bottom counts as the rules say; the page shows the points still out and says as soon as the hand is decided
(issue 28), and a ledger table records the followed hand."""
from __future__ import annotations

import re
from html import unescape

import pytest

from scoring.registry import all_games, get_game


def follow(slug, start, tricks, finish=None, **rules):
    game = get_game(slug)
    resolved = game.ruleset.resolve(rules)
    live = game.live_hand
    hand = live.kept(live.start({"players": 4, **start}, resolved))
    hand[live.rounds_field] = [dict(trick) for trick in tricks]
    if finish is None:
        return live.restore(hand, resolved), None
    _, state = live.finish(hand, finish, resolved)
    return state, live.settle_payload(state, resolved)


def test_only_the_games_that_declare_a_live_hand_have_the_live_tab():
    assert {g.slug for g in all_games() if "rounds" in g.tabs} == {"q783", "hongwu", "erqiwang"}


@pytest.mark.parametrize("outcome", ["none", "single", "throw", "pair", "tractor"])
def test_erqiwang_a_followed_hand_settles_as_its_numbers_typed_in(outcome, api):
    state, payload = follow("erqiwang", {"declarer": 0, "bid": 80}, [{"winner": 1, "points": 30},
                                                                      {"winner": 0, "points": 40},
                                                                      {"winner": 3, "points": 20}],
                            {"last": outcome, "bottom": 20}, bottom_bonus="on")
    assert payload["defender_points"] == 50 and payload["bottom_points"] == 20 and payload["last_trick"] == outcome
    status, typed = api("erqiwang/settle", {**payload, "rules": {"bottom_bonus": "on"}})
    assert status == 200 and list(state.deltas) == typed["deltas"] and state.finished


def test_erqiwang_solo_counts_the_declarers_tricks_alone_and_with_a_partner_the_partners_too():
    tricks = [{"winner": 2, "points": 50}, {"winner": 1, "points": 20}]
    _, partnered = follow("erqiwang", {"declarer": 0, "bid": 60}, tricks, {"last": None, "bottom": 0})
    _, solo = follow("erqiwang", {"declarer": 0, "bid": 60}, tricks, {"last": None, "bottom": 0}, sides="solo")
    assert partnered["defender_points"] == 20 and solo["defender_points"] == 70


@pytest.mark.parametrize("rule, counted", [("last_trick", 0), ("always", 15)])
def test_hongwu_the_bottom_when_the_defenders_take_the_last_trick_follows_the_bottom_rule(rule, counted, api):
    state, payload = follow("hongwu", {"declarer": 0, "bid": 100}, [{"winner": 0, "points": 120}],
                            {"last": "defenders", "bottom": 15}, bottom=rule)
    status, typed = api("hongwu/settle", {**payload, "rules": {"bottom": rule}})
    assert status == 200 and typed["points"] == 120 + counted and list(state.deltas) == typed["deltas"]


def test_hongwu_a_red_five_taken_in_a_trick_is_one_the_settlement_counts(api):
    state, payload = follow("hongwu", {"declarer": 0, "bid": 100},
                            [{"winner": 0, "points": 110, "red_five": 2}], {"last": "declarer", "bottom": 0})
    assert payload["red_fives"] == [{"owner": 2, "captured_by": 0}]
    assert list(state.deltas) == api("hongwu/settle", payload)[1]["deltas"]


def test_a_red_five_won_back_by_its_own_side_is_refused():
    from scoring.errors import InvalidInput
    with pytest.raises(InvalidInput):
        follow("hongwu", {"declarer": 0, "bid": 100}, [{"winner": 1, "points": 10, "red_five": 2}])


def test_the_fields_a_followed_hand_fills_are_the_games_settle_fields():
    for slug, rules in (("hongwu", {}), ("hongwu", {"decks": 3}), ("erqiwang", {"bottom_bonus": "on"})):
        _, payload = follow(slug, {"declarer": 0, "bid": 100 if slug == "hongwu" else 60},
                            [{"winner": 1, "points": 20}], {"last": get_game(slug).live_hand.choices(
                                "last", get_game(slug).ruleset.resolve(rules))[0][0], "bottom": 0}, **rules)
        assert set(payload) <= {f.name for f in get_game(slug).settle_input.fields}, slug


def _words(state) -> list[str]:
    return [s.render("en") for s in state.steps]


@pytest.mark.parametrize("slug, start, tricks, decided", [
    ("hongwu", {"declarer": 0, "bid": 100}, [(1, 100), (2, 80)], "defenders (闲家) win"),
    ("hongwu", {"declarer": 0, "bid": 100}, [(0, 100), (0, 80)], "declarer (庄家) wins"),
    ("hongwu", {"declarer": 0, "bid": 100}, [(0, 100), (0, 10)], None),  # two red fives could still swing it
    ("erqiwang", {"declarer": 0, "bid": 60}, [(1, 50), (3, 20)], "defenders (闲家) win"),
    ("erqiwang", {"declarer": 0, "bid": 60}, [(0, 40), (1, 30)], None),
])
def test_the_page_says_the_points_still_out_and_when_the_hand_is_decided(slug, start, tricks, decided):
    state, _ = follow(slug, start, [{"winner": w, "points": p} for w, p in tricks])
    words = _words(state)
    assert f"{200 - sum(p for _, p in tricks)} still out" in words[0]
    assert (decided is None and len(words) == 1) or (decided is not None and decided in words[1])


@pytest.mark.parametrize("slug, start, tricks, finish", [
    ("hongwu", {"declarer": "1", "bid": "100"}, [(1, "60"), (3, "40"), (1, "50")], {"last": "declarer", "bottom": "10"}),
    ("erqiwang", {"declarer": "0", "bid": "60"}, [(1, "50"), (2, "40")], {"last": "", "bottom": ""})])
def test_a_ledger_table_records_a_hand_followed_trick_by_trick(app, client, slug, start, tricks, finish):
    app.config["WTF_CSRF_ENABLED"] = False
    created = client.post("/api/v1/tables", json={"game": slug, "players": ["甲", "乙", "丙", "丁"]}).get_json()
    tid = created["id"]
    client.get(f"/tables/{tid}/edit/{created['edit_token']}")
    url = f"/tables/{tid}/edit/rounds"
    state = _state(client.get(url))
    state = _state(client.post(url, data={"state": state, "action": "start", **start}))
    for winner, points in tricks:
        page = client.post(url, data={"state": state, "action": "round", "winner": str(winner), "points": points})
        state = _state(page)
    assert "still out" in page.get_data(as_text=True) or "在外" in page.get_data(as_text=True)
    state = _state(client.post(url, data={"state": state, "action": "finish", **{k: v for k, v in finish.items() if v},
                                          **({"bottom": "0"} if not finish["bottom"] else {})}))
    assert client.post(url, data={"state": state, "action": "record"}).status_code == 303
    (hand,) = client.get(f"/api/v1/tables/{tid}").get_json()["hands"]
    assert sum(hand["deltas"]) == 0 and any(hand["deltas"])


def _state(resp) -> str:
    found = re.search(r'<input id="state" name="state" type="hidden" value="([^"]*)"', resp.get_data(as_text=True))
    return unescape(found.group(1)) if found else ""
