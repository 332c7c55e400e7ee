"""南昌二七王: every binding example of docs/rules/erqiwang.md, through the HTTP API."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.shared_app


def settle(api, **body):
    status, out = api("erqiwang/settle", body, lang="en")
    assert status == 200, out
    return out


# -- settlement table (binding; 庄家 seat 0, partner seat 2) ----------------

@pytest.mark.parametrize("bid,points,deltas", [
    (60, 100, [-4, 4, -4, 4]),   # 闲家 win, 检分: 40 over → one more stake
    (60, 140, [-6, 6, -6, 6]),   # 80 over → two more
    (80, 50, [1, -1, 1, -1]),    # 庄家 wins, 小光 line 40 reached
    (80, 35, [2, -2, 2, -2]),    # 小光
    (60, 0, [8, -8, 8, -8]),     # 大光
    (40, 65, [-8, 8, -8, 8]),    # bid ≤ 40: stake 4, step 20
    (55, 25, [4, -4, 4, -4]),    # 小光, line 30
    (45, 45, [-2, 2, -2, 2]),    # exactly the bid: 闲家 win
])
def test_binding_settlement_table(api, bid, points, deltas):
    out = settle(api, declarer=0, bid=bid, defender_points=points)
    assert out["deltas"] == deltas


def test_stake_is_1_2_or_4_by_bid(api):
    assert settle(api, declarer=0, bid=65, defender_points=70)["stake"] == 1
    assert settle(api, declarer=0, bid=60, defender_points=70)["stake"] == 2
    assert settle(api, declarer=0, bid=45, defender_points=70)["stake"] == 2
    assert settle(api, declarer=0, bid=40, defender_points=70)["stake"] == 4


def test_xiaoguang_line_is_half_the_bid_rounded_up_to_five(api):
    # 45 → line 25: 20 is 小光, 25 is saved
    assert settle(api, declarer=0, bid=45, defender_points=20)["multiplier"] == 2
    assert settle(api, declarer=0, bid=45, defender_points=25)["multiplier"] == 1
    # 40 → line 20
    assert settle(api, declarer=0, bid=40, defender_points=15)["multiplier"] == 2
    assert settle(api, declarer=0, bid=40, defender_points=20)["multiplier"] == 1


def test_chongguan_three_jokers_and_trump7_pair_paid_by_both_opponents(api):
    out = settle(api, declarer=0, bid=80, defender_points=50,
                 chongguan=[{"seat": 1, "jokers": 3, "trump7_pairs": 1}])
    assert out["deltas"] == [-1, 3, -1, -1]


def test_sides_solo_declarer_alone_receives_the_total(api):
    out = settle(api, declarer=0, bid=80, defender_points=50, rules={"sides": "solo"})
    assert out["deltas"] == [3, -1, -1, -1]


@pytest.mark.parametrize("counts,value", [
    (dict(jokers=4, trump7_pairs=1, off7_pairs=1, trump2_pairs=1, off2_pairs=1), 7),
    (dict(jokers=3, trump7_pairs=1, off7_pairs=3, trump2_pairs=1, off2_pairs=3), 9),
    (dict(jokers=3, off7_pairs=1), 1),                    # no 正7对: the chain stops
    (dict(jokers=3, trump7_pairs=1, trump2_pairs=1), 2),  # no 负7对: 正2对 does not count
    (dict(jokers=2, trump7_pairs=1, off7_pairs=3), 0),    # fewer than 3 王: no 冲关
])
def test_binding_chongguan_values(api, counts, value):
    out = settle(api, declarer=0, bid=80, defender_points=50, chongguan=[{"seat": 1, **counts}])
    assert out["chongguan"] == [{"seat": 1, "value": value}]
    base = [1, -1, 1, -1]
    assert out["deltas"] == [base[0] - value, base[1] + 2 * value, base[2] - value, base[3]]


def test_chongguan_from_cards_with_spades_trump_is_3(api):
    out = settle(api, declarer=0, bid=80, defender_points=50,
                 chongguan=[{"seat": 1, "cards": "大王 大王 小王 ♠7 ♠7 ♥7 ♥7", "trump": "♠"}])
    assert out["chongguan"] == [{"seat": 1, "value": 3}]


def test_chongguan_is_never_multiplied_by_stake_or_guang(api):
    out = settle(api, declarer=0, bid=40, defender_points=0, chongguan=[{"seat": 0, "jokers": 4}])
    # 大光 at stake 4: 16 per 闲家; 冲关 3 from each 闲家
    assert out["deltas"] == [16 + 6, -16 - 3, 16, -16 - 3]


def test_surrender_pays_one_stake_and_only_the_jokers_part_of_chongguan(api):
    out = settle(api, declarer=0, bid=60, surrender=True,
                 chongguan=[{"seat": 0, "jokers": 4, "trump7_pairs": 1, "off7_pairs": 2}])
    # each 闲家 +2; 冲关 counts 3 only
    assert out["deltas"] == [-2 + 6, 2 - 3, -2, 2 - 3]


def test_base_scales_stake_and_chongguan(api):
    out = settle(api, declarer=0, bid=80, defender_points=50, rules={"base": 3},
                 chongguan=[{"seat": 1, "jokers": 3, "trump7_pairs": 1}])
    assert out["deltas"] == [-3, 9, -3, -3]


def test_steps_explain_the_arithmetic_bilingually(api):
    body = dict(declarer=0, bid=60, defender_points=140)
    _, en = api("erqiwang/settle", body, lang="en")
    _, zh = api("erqiwang/settle", body)
    assert any("80 over" in s for s in en["steps"])
    assert any("检分" in s for s in zh["steps"])


@pytest.mark.parametrize("body,field", [
    (dict(declarer=0, bid=85, defender_points=50), "bid"),
    (dict(declarer=0, bid=0, defender_points=50), "bid"),
    (dict(declarer=0, bid=62, defender_points=50), "bid"),
    (dict(declarer=0, bid=60, defender_points=205), "defender_points"),
    (dict(declarer=0, bid=60, defender_points=53), "defender_points"),
    (dict(declarer=5, bid=60, defender_points=50), "declarer"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1, "jokers": 5}]), "chongguan[0].jokers"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1, "trump7_pairs": 2}]),
     "chongguan[0].trump7_pairs"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1, "off2_pairs": 4}]),
     "chongguan[0].off2_pairs"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1, "jokers": 3}, {"seat": 2, "jokers": 3}]),
     "chongguan"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1, "cards": "大王 大王 大王", "trump": "♠"}]),
     "chongguan[0].cards"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1, "cards": "大王 大王 小王", "trump": "X"}]),
     "chongguan[0].trump"),
    (dict(declarer=0, bid=60, defender_points=50,
          chongguan=[{"seat": 1, "cards": "大王 大王 小王", "trump": "♠", "trump7_pairs": 1}]),
     "chongguan[0].trump7_pairs"),
    (dict(declarer=0, bid=60, defender_points=50, chongguan=[{"seat": 1}]), "chongguan[0]"),
])
def test_settle_rejects_impossible_input_naming_the_field(api, body, field):
    status, out = api("erqiwang/settle", body, lang="en")
    assert status in (400, 422), out
    assert out["error"]["field"] == field


# -- tricks (binding, T = ♠) --------------------------------------------------

@pytest.mark.parametrize("plays,winner", [
    (["♥7", "♠7", "大王", "♦7"], 2),
    (["♥7", "♦7"], 0),               # 副7s tie: first played wins
    (["♥A ♥A", "♠3 ♠3"], 1),         # trump pair ruffs
])
def test_binding_trick_examples(api, plays, winner):
    status, out = api("erqiwang/trick", {"trump": "♠", "plays": plays})
    assert status == 200, out
    assert out["winner"] == winner


def test_off_suit_8866_is_a_tractor_because_7_left_the_suit(api):
    _, out = api("erqiwang/classify", {"trump": "♠", "cards": "♥8 ♥8 ♥6 ♥6"})
    assert out["readings"][0]["kind"] == "tractor"


def test_trump_levels_above_ace_chain_into_tractors(api):
    _, out = api("erqiwang/classify", {"trump": "♠", "cards": "小王 小王 ♠7 ♠7"})
    assert out["readings"][0]["kind"] == "tractor"


def test_two_off7_pairs_of_different_suits_are_the_same_level_not_a_tractor(api):
    _, out = api("erqiwang/classify", {"trump": "♠", "cards": "♥7 ♥7 ♦7 ♦7"})
    assert out["readings"][0]["kind"] == "throw"


def test_off7_chains_between_trump7_and_trump2(api):
    _, out = api("erqiwang/classify", {"trump": "♠", "cards": "♠7 ♠7 ♥7 ♥7 ♠2 ♠2"})
    assert out["readings"][0]["kind"] == "tractor"
    assert out["readings"][0]["length"] == 3


def test_jokers_sevens_and_twos_follow_as_trump(api):
    # hearts led, the player holds no hearts but a heart 7 is trump: may ruff or discard
    _, out = api("erqiwang/check", {"trump": "♠", "lead": "♥A", "hand": "♥7 ♣3", "play": "♣3"})
    assert out["legal"] is True
    # trump led: every 王, 7 and 2 counts as the same suit
    _, out = api("erqiwang/check", {"trump": "♠", "lead": "♠A", "hand": "♥7 ♣3", "play": "♣3"}, lang="en")
    assert out["legal"] is False
    assert "trump" in out["reason"]


def test_no_trump_cannot_be_named(api):
    status, out = api("erqiwang/trick", {"trump": "NT", "plays": ["♥7", "♦7"]}, lang="en")
    assert status == 400
    assert out["error"]["field"] == "trump"
    assert "NT" in out["error"]["message"]


def test_erqiwang_game_lists_its_options(api):
    _, out = api("games", method="GET")
    g = next(x for x in out["games"] if x["slug"] == "erqiwang")
    names = {o["name"]: o for o in g["options"]}
    assert set(names) == {"base", "sides", "throw_compare", "bottom_bonus"}
    assert names["sides"]["values"] == ["partners", "solo"] and names["sides"]["reading"] is True
    assert all(o["label"] and o["help"] for o in g["options"])
    assert {"classify", "check", "trick", "hint", "settle", "bidding"} <= set(g["actions"])


def test_solo_chongguan_is_paid_by_every_other_player(api):
    out = settle(api, declarer=0, bid=80, defender_points=50, rules={"sides": "solo"},
                 chongguan=[{"seat": 0, "jokers": 3}])
    assert out["deltas"] == [3 + 3, -1 - 1, -1 - 1, -1 - 1]
