"""红五: every binding example of docs/rules/hongwu.md, through the HTTP API."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.shared_app


def settle(api, **body):
    status, out = api("hongwu/settle", body, lang="en")
    assert status == 200, out
    return out


# -- settlement examples (binding; 庄家 seat 0 unless said) ------------------

def test_example1_final_35_is_plus_6b_for_the_declarer(api):
    out = settle(api, declarer=0, bid=100, declarer_points=120, bottom_points=15, declarer_took_bottom=True)
    assert out["final"] == 35
    assert out["deltas"] == [12, -4, -4, -4]


def test_example2_bottom_not_scored_when_defenders_take_last_trick(api):
    out = settle(api, declarer=0, bid=100, declarer_points=60, bottom_points=20, declarer_took_bottom=False)
    assert out["final"] == -40
    assert out["deltas"] == [-12, 4, 4, 4]


def test_example3_exactly_zero_final_points_loses(api):
    out = settle(api, declarer=0, bid=150, declarer_points=150)
    assert out["final"] == 0
    assert out["deltas"] == [-6, 2, 2, 2]


def test_example4_declarers_red_five_captured_costs_20_card_points_and_2_game_points(api):
    out = settle(api, declarer=1, bid=80, declarer_points=90, bottom_points=10, declarer_took_bottom=True,
                 red_fives=[{"owner": 1, "captured_by": 3}])
    assert out["final"] == 0
    assert out["deltas"] == [2, -8, 2, 4]


def test_example5_final_minus_80_is_minus_9b(api):
    out = settle(api, declarer=3, bid=200, declarer_points=120)
    assert out["final"] == -80
    assert out["deltas"] == [6, 6, 6, -18]


def test_example6_final_80_is_plus_9b(api):
    out = settle(api, declarer=0, bid=60, declarer_points=140)
    assert out["final"] == 80
    assert out["deltas"] == [18, -6, -6, -6]


def test_example7_defenders_red_five_captured_by_declarer_adds_20(api):
    out = settle(api, declarer=0, bid=100, declarer_points=75, bottom_points=10, declarer_took_bottom=True,
                 red_fives=[{"owner": 2, "captured_by": 0}])
    assert out["final"] == 5
    assert out["deltas"] == [8, -2, -4, -2]


def test_settlement_steps_show_the_arithmetic_in_both_languages(api):
    body = dict(declarer=0, bid=100, declarer_points=75, bottom_points=10, declarer_took_bottom=True,
                red_fives=[{"owner": 2, "captured_by": 0}])
    _, en = api("hongwu/settle", body, lang="en")
    _, zh = api("hongwu/settle", body)
    assert any("75 + 10 − 100 + 20 = 5" in s for s in en["steps"])
    assert any("75 + 10 − 100 + 20 = 5" in s and "庄家" in s for s in zh["steps"])
    assert en["steps"] != zh["steps"]


def test_bottom_always_scores_the_bottom_without_the_last_trick(api):
    out = settle(api, declarer=0, bid=100, declarer_points=60, bottom_points=20, rules={"bottom": "always"})
    assert out["final"] == -20
    assert out["deltas"] == [-6, 2, 2, 2]


def test_base_scales_the_table_but_not_the_red_five_payment(api):
    out = settle(api, declarer=0, bid=100, declarer_points=75, bottom_points=10, declarer_took_bottom=True,
                 red_fives=[{"owner": 2, "captured_by": 0}], rules={"base": 1})
    assert out["deltas"] == [5, -1, -3, -1]


def test_red_five_points_option_changes_the_capture_payment(api):
    out = settle(api, declarer=1, bid=80, declarer_points=90, bottom_points=10, declarer_took_bottom=True,
                 red_fives=[{"owner": 1, "captured_by": 3}], rules={"red_five_points": 5})
    assert out["deltas"] == [2, -11, 2, 7]


# -- tiers_321 preset ---------------------------------------------------------

@pytest.mark.parametrize("won,deltas", [
    (100, [3, -1, -1, -1]),      # made the bid: 1b each (b = 1 here)
    (150, [6, -2, -2, -2]),      # 半空: ≥ 100 + bid/2 = 150
    (200, [9, -3, -3, -3]),      # 全空
    (95, [-3, 1, 1, 1]),         # missed
    (45, [-6, 2, 2, 2]),         # under half the bid
    (0, [-9, 3, 3, 3]),          # 0 points
])
def test_tiers_321_pays_one_two_three_base(api, won, deltas):
    out = settle(api, declarer=0, bid=100, declarer_points=won, rules={"preset": "tiers_321", "base": 1})
    assert out["deltas"] == deltas
    assert out["final"] == won - 100


# -- input checks -------------------------------------------------------------

@pytest.mark.parametrize("body,field", [
    (dict(declarer=0, bid=101, declarer_points=120), "bid"),
    (dict(declarer=0, bid=100, declarer_points=121), "declarer_points"),
    (dict(declarer=0, bid=100, declarer_points=201), "declarer_points"),
    (dict(declarer=0, bid=55, declarer_points=100), "bid"),
    (dict(declarer=0, bid=205, declarer_points=100), "bid"),
    (dict(declarer=0, bid=100, declarer_points=150, bottom_points=85), "bottom_points"),
    (dict(declarer=0, bid=100, declarer_points=150, bottom_points=60), "bottom_points"),
    (dict(declarer=4, bid=100, declarer_points=150), "declarer"),
    (dict(declarer=0, bid=100, declarer_points=150,
          red_fives=[{"owner": 1, "captured_by": 2}]), "red_fives[0]"),
    (dict(declarer=0, bid=100, declarer_points=150,
          red_fives=[{"owner": 0, "captured_by": 0}]), "red_fives[0]"),
    (dict(declarer=0, bid=100, declarer_points=150,
          red_fives=[{"owner": 0, "captured_by": 1}] * 3), "red_fives"),
])
def test_settle_rejects_impossible_input_naming_the_field(api, body, field):
    status, out = api("hongwu/settle", body, lang="en")
    assert status in (400, 422)
    assert out["error"]["field"] == field
    assert out["error"]["message"]


def test_three_decks_allow_300_points_and_three_red_fives(api):
    out = settle(api, declarer=0, bid=150, declarer_points=250, bottom_points=40, declarer_took_bottom=True,
                 red_fives=[{"owner": 1, "captured_by": 0}] * 3, rules={"decks": 3})
    assert sum(out["deltas"]) == 0
    status, err = api("hongwu/settle", dict(declarer=0, bid=150, declarer_points=250, bottom_points=65,
                                            rules={"decks": 3}))
    assert status == 422 and err["error"]["field"] == "bottom_points"


@pytest.mark.parametrize("body", [
    None, [], {"declarer": "x", "bid": 100, "declarer_points": 10}, {"declarer": 0, "bid": True},
    {"declarer": 0, "bid": 100, "declarer_points": 10, "red_fives": "x"},
    {"declarer": 0, "bid": 100, "declarer_points": 10, "red_fives": [5]},
    {"declarer": 0, "bid": 100, "declarer_points": 10, "red_fives": [{"owner": 1}]},
    {"declarer": 0, "bid": 100, "declarer_points": 10, "rules": {"preset": "nope"}},
    {"declarer": 0, "bid": 100, "declarer_points": 10, "rules": {"decks": 4}},
    {"declarer": 0, "bid": 100, "declarer_points": 10, "declarer_took_bottom": "maybe"},
])
def test_settle_never_answers_500(api, body):
    status, out = api("hongwu/settle", body)
    assert status in (400, 422)
    assert "error" in out


# -- tricks (binding) -------------------------------------------------------------

@pytest.mark.parametrize("trump,plays,winner", [
    ("♥", ["大王", "♥5", "小王", "♠2"], 1),                 # 红五 is highest
    ("♥", ["♥5", "♥5", "♠3", "♦3"], 0),                     # tied red fives: first wins
    ("♥", ["♦3", "♥3", "♠A", "♥A"], 1),                     # 正参谋 > 副参谋
    ("♠", ["♣2", "♦2", "♥2", "♠A"], 0),                     # 副2s tie; any 2 beats trump A
    ("♠", ["♣2", "♠2"], 1),                                 # 主2 > 副2
    ("♠", ["♣K ♣K", "♠3 ♠3"], 1),                           # trump pair ruffs
    ("♠", ["♣K ♣K", "♠4 ♠6"], 0),                           # a ruff must match the shape
    ("♠", ["♥4 ♥4 ♥6 ♥6", "♥9 ♥9 ♥10 ♥10"], 1),             # tractor beats tractor
])
def test_binding_trick_examples(api, trump, plays, winner):
    status, out = api("hongwu/trick", {"trump": trump, "plays": plays}, lang="en")
    assert status == 200, out
    assert out["winner"] == winner
    assert out["reason"]


def test_trick_counts_fives_tens_and_kings(api):
    _, out = api("hongwu/trick", {"trump": "S", "plays": ["♣K", "♣5", "♣10", "♣4"]})
    assert out["points"] == 25 and out["winner"] == 0


def test_over_ruff_beats_the_first_ruff(api):
    _, out = api("hongwu/trick", {"trump": "S", "plays": ["♣A", "♠4", "♠9", "♣K"]}, lang="en")
    assert out["winner"] == 2
    assert "over-ruff" in out["reason"]


# -- tractors and patterns ---------------------------------------------------------

def test_hearts_4466_is_a_tractor_because_red_five_left_the_suit(api):
    _, out = api("hongwu/classify", {"trump": "♠", "cards": "♥4 ♥4 ♥6 ♥6"})
    assert out["readings"][0]["kind"] == "tractor"


def test_clubs_4455_is_a_tractor_with_spades_trump(api):
    _, out = api("hongwu/classify", {"trump": "♠", "cards": "♣4 ♣4 ♣5 ♣5"})
    assert out["readings"][0]["kind"] == "tractor"


def test_jokers_above_trump_ace_never_form_a_tractor(api):
    _, out = api("hongwu/classify", {"trump": "♠", "cards": "大王 大王 小王 小王"})
    assert out["valid"] is True
    assert out["readings"][0]["kind"] == "throw"
    assert out["readings"][0]["unit_kinds"] == ["pair", "pair"]


def test_spade2_club2_is_not_a_pair(api):
    _, out = api("hongwu/classify", {"trump": "♥", "cards": "♠2 ♣2"})
    assert out["readings"][0]["kind"] == "throw"


def test_triple_exists_only_with_three_decks(api):
    _, out = api("hongwu/classify", {"trump": "♥", "cards": "♣9 ♣9 ♣9", "rules": {"decks": 3}})
    assert out["readings"][0]["kind"] == "triple"
    status, err = api("hongwu/classify", {"trump": "♥", "cards": "♣9 ♣9 ♣9"}, lang="en")
    assert status == 422
    assert "♣9" in err["error"]["message"] and "2" in err["error"]["message"]


# -- follow checks (binding) ----------------------------------------------------

def test_pair_lead_must_be_followed_by_pair_when_holding_one(api):
    body = {"trump": "♠", "lead": "♣K ♣K", "hand": "♣9 ♣9 ♣4 ♥A", "play": "♣9 ♣4"}
    status, out = api("hongwu/check", body, lang="en")
    assert status == 200
    assert out["legal"] is False
    assert out["reason"] == "you hold a ♣ pair and must follow with a pair"
    _, zh = api("hongwu/check", body)
    assert zh["reason"] == "你有♣对子，必须跟对"


def test_pair_lead_followed_by_the_pair_is_legal(api):
    _, out = api("hongwu/check", {"trump": "♠", "lead": "♣K ♣K", "hand": "♣9 ♣9 ♣4 ♥A", "play": "♣9 ♣9"})
    assert out["legal"] is True


def test_tiers_321_quanqong_and_zero_look_at_card_points_won(api):
    # all 200 won but a red five lost: 180 points, still 全空 (3b) since the bid 150 is made
    out = settle(api, declarer=0, bid=150, declarer_points=200, red_fives=[{"owner": 0, "captured_by": 1}],
                 rules={"preset": "tiers_321", "base": 1})
    assert out["deltas"] == [9 - 2, -3 + 2, -3, -3]
    # 10 won, a red five lost: −10 points, but not "won 0": under half the bid → 2b
    out = settle(api, declarer=0, bid=100, declarer_points=10, red_fives=[{"owner": 0, "captured_by": 1}],
                 rules={"preset": "tiers_321", "base": 1, "red_five_points": 0})
    assert out["deltas"] == [-6, 2, 2, 2]


def test_hongwu_game_lists_its_options_and_presets(api):
    _, out = api("games", method="GET")
    g = next(x for x in out["games"] if x["slug"] == "hongwu")
    assert g["presets"] == ["seed", "tiers_321"]
    names = {o["name"]: o for o in g["options"]}
    assert set(names) == {"decks", "base", "bottom", "red_five_points", "follow_shape", "throw_compare",
                          "failed_throw"}
    assert names["follow_shape"]["default"] is True and names["follow_shape"]["reading"] is True
    assert names["bottom"]["reading"] is True
    assert all(o["label"] and o["help"] for o in g["options"])
    assert {"classify", "check", "trick", "hint", "settle", "bidding"} <= set(g["actions"])
