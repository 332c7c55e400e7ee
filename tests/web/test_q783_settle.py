"""Q783 settlement (rules/q783.md): round payouts, banks, penalties, teams — through the API."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.i18n import render
from scoring.registry import get_game

pytestmark = pytest.mark.shared_app

EXAMPLE_ROUNDS = [
    {"winner": 0, "cards": "♠Q"},
    {"winner": 2, "cards": "♥Q ♥7 ♥8 ♥3"},
    {"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4 ♠4"},
]


def settle(api, body, lang="en"):
    return api("q783/settle", body, lang=lang)


# --------------------------------------------------------------------------
# Binding examples
# --------------------------------------------------------------------------

def test_solo_hand_rounds_then_capped_penalty_empties_banks_and_ends_the_game(api):
    status, body = settle(api, {"players": 4, "teams": False, "banks": [100, 100, 100, 100],
                                "rounds": EXAMPLE_ROUNDS, "finish_order": [2], "rules": {"penalty": 50}})
    assert status == 200, body
    assert body["banks"] == [0, 155, 245, 0]
    assert body["deltas"] == [-100, 55, 145, -100]
    assert body["game_over"] is True
    text = "\n".join(body["steps"])
    assert "has only 25 left" in text and "has only 5 left" in text


def test_each_round_is_paid_at_once_by_every_other_player(api):
    for rnd, expected in [
        (EXAMPLE_ROUNDS[0], [15, -5, -5, -5]),     # plain: 5 each
        (EXAMPLE_ROUNDS[1], [-40, -40, 120, -40]),  # 正Q783: 40 each
        (EXAMPLE_ROUNDS[2], [-50, 150, -50, -50]),  # 5-bomb: 50 each
    ]:
        status, body = settle(api, {"players": 4, "banks": [100] * 4, "rounds": [rnd],
                                    "finish_order": [3], "rules": {"penalty": 0}})
        assert status == 200, body
        assert body["deltas"] == expected


def test_banks_after_the_example_rounds_before_the_penalty(api):
    status, body = settle(api, {"players": 4, "banks": [100] * 4, "rounds": EXAMPLE_ROUNDS,
                                "finish_order": [2], "rules": {"penalty": 0}})
    assert status == 200, body
    assert body["banks"] == [25, 205, 165, 5]
    assert body["game_over"] is False


def test_scoring_cards_pays_five_per_card_the_winner_played(api):
    # winners played 1, 4 and 5 cards: 5, 20, 25 per other player
    rounds = [{"winner": 0, "cards": "♠Q"}, {"winner": 2, "count": 4}, {"winner": 1, "count": 5}]
    status, body = settle(api, {"players": 4, "banks": [100] * 4, "rounds": rounds,
                                "finish_order": [2], "rules": {"scoring": "cards", "penalty": 0}})
    assert status == 200, body
    assert body["deltas"] == [-30, 50, 30, -50]


def test_scoring_cards_counts_the_cards_of_a_given_play(api):
    status, body = settle(api, {"players": 4, "banks": None, "rounds": EXAMPLE_ROUNDS,
                                "finish_order": [2], "rules": {"scoring": "cards"}})
    assert status == 200, body
    # before the penalty [-30, 50, 30, -50]; then 0, 1, 3 pay 50 to seat 2
    assert body["deltas"] == [-80, 0, 180, -100]
    assert body["banks"] is None and body["game_over"] is False


def test_scoring_cards_accepts_a_bare_q783_since_only_the_count_matters(api):
    status, body = settle(api, {"players": 4, "rounds": [{"winner": 1, "cards": "Q 7 8 3"}],
                                "finish_order": [1], "rules": {"scoring": "cards", "penalty": 0}})
    assert status == 200, body
    assert body["deltas"] == [-20, 60, -20, -20]


def test_teams_only_the_opponents_pay_a_round_and_teammates_share_it(api):
    status, body = settle(api, {"players": 4, "teams": True, "banks": [100, 100, 100, 100],
                                "rounds": [{"winner": 0, "cards": "♠9 ♥9"}], "finish_order": [0, 2],
                                "rules": {"team_penalty": 0}})
    assert status == 200, body
    # team A +10, team B -10, split over two seats
    assert body["deltas"] == [5, -5, 5, -5]
    assert body["banks"] == [110, 90, 110, 90]


def test_teams_team_out_first_wins_and_each_loser_pays_team_penalty(api):
    status, body = settle(api, {"players": 4, "teams": True, "banks": [200, 200, 200, 200],
                                "rounds": [{"winner": 0, "cards": "♠9 ♥9"}], "finish_order": [1, 3]})
    assert status == 200, body
    # round: team A +10; penalty: seats 0 and 2 each pay 100 -> team B +200
    assert body["deltas"] == [-95, 95, -95, 95]
    assert body["banks"] == [10, 390, 10, 390]


def test_teams_first_and_last_place_against_second_and_third_is_a_draw(api):
    status, body = settle(api, {"players": 4, "teams": True, "banks": [200, 200, 200, 200],
                                "rounds": [{"winner": 0, "cards": "♠9 ♥9"}], "finish_order": [0, 1, 3]})
    assert status == 200, body
    assert body["deltas"] == [5, -5, 5, -5]
    assert any("draw" in s for s in body["steps"])


def test_teams_team_that_goes_out_first_with_first_place_wins(api):
    status, body = settle(api, {"players": 4, "teams": True, "banks": [200, 200, 200, 200],
                                "rounds": [], "finish_order": [0, 1, 2]})
    assert status == 200, body
    assert body["deltas"] == [100, -100, 100, -100]


def test_six_player_teams_are_even_against_odd_seats(api):
    status, body = settle(api, {"players": 6, "teams": True, "banks": [150, 150, 150, 150, 150, 150],
                                "rounds": [{"winner": 3, "cards": "♠Q"}], "finish_order": [1, 3, 5]})
    assert status == 200, body
    # round: 0, 2, 4 pay 5 each (team B +15); penalty: 0, 2, 4 pay 100 each -> 150 capped at 135
    assert body["banks"] == [0, 300, 0, 300, 0, 300]
    assert body["deltas"] == [-50, 50, -50, 50, -50, 50]
    assert body["game_over"] is True


def test_team_change_is_split_and_the_lowest_seat_takes_the_remainder(api):
    # team B has 25 and owes 2 x 100: pays 25; -25 over two seats -> -13 (seat 1), -12 (seat 3)
    status, body = settle(api, {"players": 4, "teams": True, "banks": [100, 25, 100, 25],
                                "rounds": [], "finish_order": [0, 2]})
    assert status == 200, body
    assert body["deltas"] == [13, -13, 12, -12]
    assert body["banks"] == [125, 0, 125, 0]


def test_game_over_ends_the_hand_at_the_payment_that_empties_a_bank(api):
    status, body = settle(api, {"players": 3, "banks": [5, 100, 100],
                                "rounds": [{"winner": 1, "cards": "♠6"}], "finish_order": [2]})
    assert status == 200, body
    assert body["game_over"] is True
    assert body["deltas"] == [-5, 10, -5]   # no penalty after the 大局 ended
    status, body = settle(api, {"players": 3, "banks": [5, 100, 100],
                                "rounds": [{"winner": 1, "cards": "♠6"}, {"winner": 2, "cards": "♠9"}],
                                "finish_order": [2]})
    assert status == 422 and body["error"]["code"] == "game_over"


def test_negative_banks_let_banks_go_below_zero_and_play_goes_on(api):
    status, body = settle(api, {"players": 4, "banks": [100] * 4, "rounds": EXAMPLE_ROUNDS,
                                "finish_order": [2], "rules": {"negative_banks": True}})
    assert status == 200, body
    assert body["banks"] == [-25, 155, 315, -45]
    assert body["game_over"] is False
    assert sum(body["deltas"]) == 0


def test_winner_points_house_rule_the_side_that_gained_more_wins(api):
    # seat 1 gained most in the rounds (-5 - 40 + 150 = 105) though seat 2 went out first
    status, body = settle(api, {"players": 4, "banks": None, "rounds": EXAMPLE_ROUNDS,
                                "finish_order": [2], "rules": {"winner": "points"}})
    assert status == 200, body
    assert body["deltas"] == [-75 - 50, 105 + 150, 65 - 50, -95 - 50]


def test_winner_points_equal_gains_are_a_draw(api):
    status, body = settle(api, {"players": 4, "teams": True, "rounds": [{"winner": 0, "cards": "♠9"},
                                                                         {"winner": 1, "cards": "♠J"}],
                                "finish_order": [0, 2], "rules": {"winner": "points"}})
    assert status == 200, body
    assert body["deltas"] == [0, 0, 0, 0]


def test_pattern_payouts_q783_kinds_and_bombs(api):
    cases = [
        ("♠Q ♥7 ♥8 ♣3", {}, 20),
        ("♥Q ♥7 ♥8 ♥3", {}, 40),
        ("♠4 ♥4 ♣4 ♦4", {}, 40),
        ("♠Q ♥Q ♣Q ♦Q ♠Q ♥Q ♣Q ♦Q", {}, 80),
        ("♠4 ♥4 ♣4", {"three_bombs": True}, 30),
        ("♠4 ♥4 ♣4", {}, 5),
        ("♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3", {"double_q783": True}, 40),
        ("♥Q ♥Q ♥7 ♥7 ♥8 ♥8 ♥3 ♥3", {"double_q783": True}, 80),
    ]
    for cards, rules, each in cases:
        status, body = settle(api, {"players": 3, "rounds": [{"winner": 0, "cards": cards}],
                                    "finish_order": [0], "rules": dict(rules, penalty=0)})
        assert status == 200, (cards, body)
        assert body["deltas"] == [2 * each, -each, -each], cards


def test_steps_are_chinese_by_default(api):
    status, body = api("q783/settle", {"players": 4, "banks": [100] * 4, "rounds": EXAMPLE_ROUNDS,
                                       "finish_order": [2]})
    assert status == 200
    assert body["steps"][1].startswith("第1圈")
    assert "正Q783" in body["steps"][5]


# --------------------------------------------------------------------------
# Bad input: clear 4xx messages
# --------------------------------------------------------------------------

@pytest.mark.parametrize("body, status, code, words", [
    ({"players": 4, "rounds": [{"winner": 4, "cards": "♠Q"}], "finish_order": [0]},
     422, "unknown_seat", "there is no seat value 4"),
    ({"players": 4, "rounds": [], "finish_order": [0, 0]}, 422, "repeated_seat", "seat 1 appears twice"),
    ({"players": 4, "rounds": [], "finish_order": [7]}, 422, "unknown_seat", "there is no seat value 7"),
    ({"players": 4, "banks": [200, 200, 100, 10], "rounds": [], "finish_order": [0]},
     422, "banks_above_total", "510"),
    ({"players": 4, "banks": [200, 200, 100, 10], "rounds": [], "finish_order": [0],
      "rules": {"decks": 1}}, 422, "banks_above_total", "250"),
    ({"players": 4, "banks": [-5, 10, 10, 10], "rounds": [], "finish_order": [0]},
     422, "negative_bank", "cannot be negative"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "♠5 ♥5"}], "finish_order": [0]},
     422, "illegal_play", "score card"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "大王"}], "finish_order": [0]},
     422, "illegal_play", "score card"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "♠A"}], "finish_order": [0],
      "rules": {"ace_scores": True}}, 422, "illegal_play", "score card"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "♠Q ♥7"}], "finish_order": [0]},
     422, "illegal_play", "not a Q783 pattern"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "Q 7 8 3"}], "finish_order": [0]},
     422, "suit_required", "give the suits"),
    ({"players": 4, "rounds": [{"winner": 0, "count": 3}], "finish_order": [0]},
     422, "missing_field", "winning play"),
    ({"players": 4, "rounds": [{"cards": "♠Q"}], "finish_order": [0]}, 400, "missing_field", "winner"),
    ({"players": 4, "rounds": ["♠Q"], "finish_order": [0]}, 400, "malformed_round", "must be an object"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "♠X"}], "finish_order": [0]},
     400, "invalid_cards", "cannot read"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "♠Q ♠Q ♠Q"}], "finish_order": [0]},
     422, "too_many_copies", "at most 2"),
    ({"players": 4, "rounds": [], "finish_order": []}, 422, "undecided", "empty"),
    ({"players": 4, "teams": True, "rounds": [], "finish_order": [0, 1]}, 422, "undecided", "does not decide"),
    ({"players": 5, "teams": True, "rounds": [], "finish_order": [0]}, 422, "teams_need_4_or_6", "4 or 6"),
    ({"players": 7, "rounds": [], "finish_order": [0]}, 422, "out_of_range", "3 to 6"),
    ({"players": 2, "rounds": [], "finish_order": [0]}, 422, "out_of_range", "3 to 6"),
    ({"players": 4, "banks": [100, 100], "rounds": [], "finish_order": [0]}, 422, "wrong_length", "one per seat"),
    ({"players": 4, "teams": True, "banks": [100, 100, 50, 100], "rounds": [], "finish_order": [0, 2]},
     422, "team_banks_differ", "same number"),
    ({"players": 4, "rounds": [{"winner": 0, "count": 0}], "finish_order": [0], "rules": {"scoring": "cards"}},
     422, "out_of_range", "count"),
    ({"players": 4, "rounds": [{"winner": 0, "cards": "♠Q ♥Q", "count": 1}], "finish_order": [0],
      "rules": {"scoring": "cards"}}, 422, "out_of_range", "fewer than"),
    ({"players": "four", "rounds": [], "finish_order": [0]}, 400, "not_an_integer", "whole number"),
    ({"players": 4, "rounds": {}, "finish_order": [0]}, 400, "not_a_list", "list"),
    ({"players": 4, "rounds": [], "finish_order": "0"}, 400, "not_a_list", "list of seats"),
    ({"players": 4, "rounds": [], "finish_order": [0], "rules": {"penalty": 3}}, 400, "invalid_option", "penalty"),
])
def test_bad_settle_input_gets_a_clear_error(api, body, status, code, words):
    got_status, got = settle(api, body)
    assert got_status == status, got
    assert got["error"]["code"] == code, got
    assert words in got["error"]["message"], got["error"]["message"]
    zh_status, zh = settle(api, body, lang=None)
    assert zh_status == status and zh["error"]["message"] != got["error"]["message"]


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------

_PLAYS = ["♠Q", "♠9 ♥9", "♠4 ♥4 ♣4", "♠Q ♥7 ♥8 ♣3", "♥Q ♥7 ♥8 ♥3", "♠6 ♥6 ♣6 ♦6",
          "♠2 ♥2 ♣2 ♦2 ♠2", "♠J ♥J ♣J ♦J ♠J ♥J", "♠7 ♥7 ♣7 ♦7 ♠7 ♥7 ♣7",
          "♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3", "♠8 ♥8 ♣8 ♦8 ♠8 ♥8 ♣8 ♦8"]


@st.composite
def hands(draw):
    teams = draw(st.booleans())
    players = draw(st.sampled_from([4, 6])) if teams else draw(st.integers(3, 6))
    rules = {
        "scoring": draw(st.sampled_from(["pattern", "cards"])),
        "penalty": draw(st.sampled_from([0, 30, 50, 100])),
        "team_penalty": draw(st.sampled_from([50, 100, 200])),
        "negative_banks": draw(st.booleans()),
        "winner": draw(st.sampled_from(["first_out", "points"])),
        "three_bombs": draw(st.booleans()),
        "double_q783": True,
    }
    if draw(st.booleans()):
        sides = 2 if teams else players
        side_banks = [5 * draw(st.integers(0, 100 // sides)) for _ in range(sides)]  # banks come in 5s
        banks = [side_banks[s % 2] if teams else side_banks[s] for s in range(players)]
    else:
        banks = None
    rounds = []
    used: Counter = Counter()  # the rounds of one hand are distinct cards of a 2-deck pack
    for _ in range(draw(st.integers(0, 8))):
        if rules["scoring"] == "cards" and draw(st.booleans()):
            rounds.append({"winner": draw(st.integers(0, players - 1)), "count": draw(st.integers(1, 20))})
        else:
            play = draw(st.sampled_from(_PLAYS))
            if any(used[c] + n > 2 for c, n in Counter(play.split()).items()):
                continue
            used.update(play.split())
            rounds.append({"winner": draw(st.integers(0, players - 1)), "cards": play})
    order = draw(st.permutations(list(range(players))))
    return {"players": players, "teams": teams, "banks": banks, "rounds": rounds,
            "finish_order": order, "rules": rules}


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands())
def test_every_settlement_is_zero_sum_and_banks_follow_the_deltas(api, body):
    status, out = settle(api, body)
    if status == 422:
        # the only valid refusals: a round after the 大局 ended, rounds playing more cards than the pack has
        assert out["error"]["code"] in ("game_over", "too_many_cards")
        return
    assert status == 200, out
    assert sum(out["deltas"]) == 0
    if body["banks"] is not None:
        players = body["players"]
        if body["teams"]:
            for side in (0, 1):
                seats = range(side, players, 2)
                change = sum(out["deltas"][s] for s in seats)
                assert all(out["banks"][s] == body["banks"][side] + change for s in seats)
        else:
            assert [b + d for b, d in zip(body["banks"], out["deltas"])] == out["banks"]
        if not body["rules"]["negative_banks"]:
            assert min(out["banks"]) >= 0
            if out["game_over"]:
                assert min(out["banks"]) == 0
            elif body["rounds"]:
                assert min(out["banks"]) > 0


@settings(max_examples=examples(100), deadline=None)
@given(hands())
def test_the_tracker_replayed_round_by_round_gives_the_settlement(body):
    from scoring import q783
    rules = q783.RULESET.resolve(body["rules"])
    try:
        expected = get_game("q783").run("settle", body)
    except Exception as exc:  # game_over and too_many_cards refusals
        assert getattr(exc, "code", None) in ("game_over", "too_many_cards")
        return
    state = q783.new_hand(body["players"], body["teams"], body["banks"], rules)
    for rnd in body["rounds"]:
        state, _ = q783.apply_round(state, rnd, rules)
    if not state["game_over"]:
        state, _ = q783.finish_hand(state, body["finish_order"], rules)
    assert state["deltas"] == expected["deltas"]
    assert state["banks"] == expected["banks"]
    assert state["game_over"] == expected["game_over"]
    assert render(expected["steps"], "en")


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["♠Q", "Q 7 8 3", "大王", "♥Q ♥7 ♥8 ♥3", "4 4 4 4"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["winner", "cards", "count", "x"]), inner, max_size=3),
    max_leaves=10)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({}, optional={
    "players": _JSONISH, "teams": _JSONISH, "banks": _JSONISH, "rounds": _JSONISH,
    "finish_order": _JSONISH, "rules": st.dictionaries(
        st.sampled_from(["scoring", "penalty", "decks", "winner", "negative_banks", "bogus"]), _JSONISH,
        max_size=2)}))
def test_no_settle_input_causes_a_server_error(api, body):
    status, out = settle(api, body)
    assert status in (200, 400, 422), out
    if status != 200:
        assert set(out["error"]) == {"code", "message", "field"}


def test_tracker_undo_drops_the_last_round_then_the_settlement():
    from scoring import q783
    rules = q783.RULESET.resolve({})
    state = q783.new_hand(4, True, [100, 100, 100, 100], rules)
    state, _ = q783.apply_round(state, {"winner": 0, "cards": "♠9 ♥9"}, rules)
    after_one = state
    state, steps = q783.apply_round(state, {"winner": 1, "cards": "4 4 4 4"}, rules)
    assert state["banks"] == [30, 170, 30, 170]
    state, _ = q783.undo_round(state, rules)
    assert state["banks"] == after_one["banks"] == [110, 90, 110, 90]
    assert state["rounds"] == [{"winner": 0, "cards": "♠9 ♥9"}]
    state, _ = q783.finish_hand(state, [0, 2], rules)
    # team B owes 2 x 100 but holds 90: capped, and the 大局 is over
    assert state["finished"] and state["game_over"] and state["deltas"] == [50, -50, 50, -50]
    state, _ = q783.undo_round(state, rules)
    assert not state["finished"] and not state["game_over"] and state["banks"] == [110, 90, 110, 90]


def test_rounds_of_one_hand_cannot_use_more_copies_than_the_pack_holds(api):
    """common.md: all the cards one request names together fit the decks (2 decks: two ♠Q)."""
    rounds = [{"winner": 0, "cards": "♠Q ♥Q"}] * 3
    status, out = api("q783/settle", {"players": 4, "rounds": rounds, "finish_order": [0],
                                      "rules": {"negative_banks": True}})
    assert status in (400, 422)
    assert out["error"]["field"] == "rounds[2].cards"
    assert "♠Q" in out["error"]["message"] and "2" in out["error"]["message"]


def test_a_round_count_under_pattern_scoring_is_refused_not_ignored(api):
    status, out = api("q783/settle", {"players": 4, "rounds": [{"winner": 0, "cards": "♠Q", "count": 3}],
                                      "finish_order": [0]})
    assert status == 422 and out["error"]["field"] == "rounds[0].count"
    status, out = api("q783/settle", {"players": 4, "rounds": [{"winner": 0, "cards": "♠Q", "count": 3}],
                                      "finish_order": [0], "rules": {"scoring": "cards"}})
    assert status == 200


@pytest.mark.parametrize("won_with,paid", [("plain", 5), ("fu_q783", 20), ("zheng_q783", 40), ("bomb5", 50),
                                           ("bomb8", 80)])
def test_a_round_may_say_what_won_it_instead_of_its_cards(api, won_with, paid):
    status, out = api("q783/settle", {"rounds": [{"winner": 2, "won_with": won_with}], "finish_order": [2]})
    assert status == 200 and out["deltas"] == [-paid - 50, -paid - 50, 3 * paid + 150, -paid - 50]


def test_what_won_and_the_winning_cards_must_agree(api):
    status, out = api("q783/settle", {"rounds": [{"winner": 0, "won_with": "fu_q783", "cards": "♥Q ♥7 ♥8 ♥3"}]},
                      lang="en")
    assert status == 422 and out["error"]["code"] == "cards_won_with_disagree"
    assert out["error"]["field"] == "rounds[0].won_with" and "♥Q ♥7 ♥8 ♥3" in out["error"]["message"]


@pytest.mark.parametrize("won_with,rules", [("bomb3", {}), ("fu_double_q783", {}), ("bomb5", {"decks": 1})])
def test_a_winning_play_these_rules_do_not_have_is_refused(api, won_with, rules):
    status, out = api("q783/settle", {"rounds": [{"winner": 0, "won_with": won_with}], "finish_order": [0],
                                      "rules": rules})
    assert status == 422 and out["error"]["code"] == "not_in_these_rules"
    status, _ = api("q783/settle", {"rounds": [{"winner": 0, "won_with": "bomb3"}], "finish_order": [0],
                                    "rules": {"three_bombs": True}})
    assert status == 200
