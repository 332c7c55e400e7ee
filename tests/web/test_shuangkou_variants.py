"""双扣 house-rule variants (docs/rules/variants.md §9 wild_over_eight, §10 contribution: doubling):
every binding example through the HTTP API."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.shared_app

EIGHT_FOURS = " ".join(["4"] * 8)
CHAIN_8X3 = " ".join(["5"] * 8 + ["6"] * 8 + ["7"] * 8)  # 8线3连环: 11 lines, 24 cards
OVER_EIGHT = {"wild_over_eight": True}


def classify_lines(api, cards, **rules):
    status, out = api("shuangkou/classify", {"cards": cards, "rules": rules}, lang="en")
    assert status == 200, out
    return out["readings"][0]["lines"] if out["valid"] else None


def legal(api, previous, play, **rules):
    status, out = api("shuangkou/check", {"previous": previous, "play": play, "rules": rules}, lang="en")
    assert status == 200, out
    return out["legal"]


def settle(api, order, bombs, **rules):
    status, out = api("shuangkou/settle", {"finish_order": order, "bombs": bombs, "rules": rules}, lang="en")
    assert status == 200, out
    return out


# ==========================================================================
# §9 wild_over_eight: 王补成九相以上
# ==========================================================================

@pytest.mark.parametrize("cards,lines", [
    (EIGHT_FOURS + " 大王", 9),
    ("5 5 5 5 5 5 大王 大王 小王", 9),
    (EIGHT_FOURS + " 大王 大王 小王 小王", 12),
])
def test_wild_over_eight_jokers_extend_a_rank_past_eight_lines_equal_cards(api, cards, lines):
    assert classify_lines(api, cards, **OVER_EIGHT) == lines


def test_wild_over_eight_under_baibian_only_the_big_joker_extends_to_ten(api):
    assert classify_lines(api, EIGHT_FOURS + " 大王 大王", preset="baibian", **OVER_EIGHT) == 10
    assert classify_lines(api, EIGHT_FOURS + " 大王 小王", preset="baibian", **OVER_EIGHT) is None


def test_wild_over_eight_off_by_default_nine_cards_of_a_rank_are_no_pattern(api):
    assert classify_lines(api, EIGHT_FOURS + " 大王") is None


def test_wild_over_eight_under_wild_none_has_no_effect(api):
    assert classify_lines(api, EIGHT_FOURS + " 大王", wild="none", **OVER_EIGHT) is None


def test_wild_over_eight_nine_lines_beat_eight_of_a_kind(api):
    assert legal(api, " ".join(["9"] * 8), EIGHT_FOURS + " 大王", **OVER_EIGHT)


def test_wild_over_eight_eleven_of_a_kind_beats_eight_line_three_chain_by_fewer_cards(api):
    assert legal(api, CHAIN_8X3, EIGHT_FOURS + " 大王 大王 小王", **OVER_EIGHT)
    assert not legal(api, EIGHT_FOURS + " 大王 大王 小王", CHAIN_8X3, **OVER_EIGHT)


def test_wild_over_eight_twelve_lines_set_times_256_under_cap_twelve_and_pay_the_eight_line_contribution(api):
    out = settle(api, [0, 2], [{"seat": 0, "cards": EIGHT_FOURS + " 大王 大王 小王 小王"}], cap_lines=12,
                 **OVER_EIGHT)
    assert out["deltas"] == [798, -778, 758, -778] and out["multiplier"] == 256
    assert any("wild jokers past eight" in s and "12 lines" in s for s in out["steps"])


def test_wild_over_eight_a_losers_twelve_line_bomb_entered_as_lines(api):
    out = settle(api, [0, 2], [{"seat": 1, "lines": 12}], **OVER_EIGHT)
    assert out["deltas"] == [-7, 27, -7, -13] and out["multiplier"] == 1


def test_wild_over_eight_off_twelve_lines_are_refused(api):
    status, out = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [{"seat": 1, "lines": 12}]}, lang="en")
    assert status == 422 and out["error"]["field"] == "bombs[0].lines" and "11" in out["error"]["message"]


def test_wild_over_eight_ten_lines_under_the_default_cap_are_times_sixteen(api):
    out = settle(api, [0, 2], [{"seat": 0, "cards": EIGHT_FOURS + " 大王 大王"}], **OVER_EIGHT)
    assert out["deltas"] == [78, -58, 38, -58] and out["multiplier"] == 16
    assert any("capped at 8 lines" in s for s in out["steps"])


def test_wild_over_eight_thirteen_lines_are_out_of_range(api):
    status, out = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 13}],
                                           "rules": OVER_EIGHT}, lang="en")
    assert status == 422 and out["error"]["field"] == "bombs[0].lines" and out["error"]["code"] == "out_of_range"
    assert "12" in out["error"]["message"]


def test_wild_over_eight_hint_offers_the_nine_line_bomb_on_eight_of_a_kind(api):
    status, out = api("shuangkou/hint", {"hand": EIGHT_FOURS + " 大王 3", "previous": " ".join(["9"] * 8),
                                         "rules": OVER_EIGHT}, lang="en")
    assert status == 200 and out["plays"] == ["4 4 4 4 4 4 4 4 大王"]


# ==========================================================================
# §10 contribution: doubling (贡献分每多一线翻倍)
# ==========================================================================

@pytest.mark.parametrize("order,bombs,rules,deltas,mult", [
    ([0, 2], [{"seat": 0, "cards": "6 6 6 6 6 6"}], {}, [24, -16, 8, -16], 4),
    ([1, 3], [{"seat": 2, "cards": " ".join(["8"] * 8)}], {}, [-19, -13, 45, -13], 1),
    ([0, 2], [{"seat": 0, "lines": 9}], {}, [144, -80, 16, -80], 16),
    ([0, 2], [{"seat": 1, "cards": "大王 大王 小王 小王"}], {}, [-5, 21, -5, -11], 1),
    ([1, 0, 3, 2], [{"seat": 3, "cards": "5 5 5 5 5"}, {"seat": 0, "cards": "4 4 4 4"}], {}, [-4, 4, -4, 4], 2),
    ([0, 2], [{"seat": 0, "cards": EIGHT_FOURS + " 大王 大王 小王 小王"}], {"wild_over_eight": True, "cap_lines": 12},
     [1536, -1024, 512, -1024], 256),
])
def test_contribution_doubling_each_other_player_pays_two_to_the_lines_minus_four(api, order, bombs, rules,
                                                                                    deltas, mult):
    out = settle(api, order, bombs, contribution="doubling", **rules)
    assert out["deltas"] == deltas and out["multiplier"] == mult


def test_contribution_doubling_says_so_in_the_steps(api):
    out = settle(api, [0, 2], [{"seat": 0, "lines": 9}], contribution="doubling")
    assert any("doubling" in s and "2^(9−4) = 32" in s and "+96" in s for s in out["steps"])
    status, zh = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 9}],
                                          "rules": {"contribution": "doubling"}})
    assert any("每多一线翻倍" in s for s in zh["steps"])


def test_games_listing_publishes_wild_over_eight_and_the_doubling_contribution(api):
    status, out = api("games", method="GET")
    game = next(g for g in out["games"] if g["slug"] == "shuangkou")
    options = {o["name"]: o for o in game["options"]}
    assert options["wild_over_eight"]["default"] is False and options["wild_over_eight"]["values"] == [False, True]
    assert options["contribution"]["default"] == "seed"
    assert options["contribution"]["values"] == ["seed", "1-3-5", "doubling"]
