"""跑得快 / 争上游 (docs/rules/paodekuai.md): binding examples through the HTTP API, then the engine."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import paodekuai as pdk
from scoring.cards import parse_cards
from scoring.registry import get_game
from scoring.shedding import brute_force_plays, legal_plays

pytestmark = pytest.mark.shared_app

ZSY, P52, P48 = "zhengshangyou108", "paodekuai52", "paodekuai48"
GAME = get_game("paodekuai")


def check(api, play, previous=None, preset=P52, lang="en", **extra):
    body = {"play": play, "previous": previous, "rules": {"preset": preset, **extra.pop("rules", {})}, **extra}
    status, out = api("paodekuai/check", body, lang=lang)
    assert status == 200, out
    return out


def settle(api, preset, winner, left, **rules):
    status, out = api("paodekuai/settle", {"winner": winner, "cards_left": left,
                                           "rules": {"preset": preset, **rules}}, lang="en")
    assert status == 200, out
    return out


# ==========================================================================
# Binding examples: settlement
# ==========================================================================

@pytest.mark.parametrize("preset,winner,left,deltas", [
    (P52, 0, [0, 5, 13, 10], [87, -5, -52, -30]),
    (P48, 1, [4, 0, 12], [-4, 28, -24]),
    (ZSY, 3, [1, 27, 7, 0], [-1, -108, -7, 116]),
])
def test_seed_penalty_pays_cards_left_times_multiplier_by_cards_played(api, preset, winner, left, deltas):
    assert settle(api, preset, winner, left)["deltas"] == deltas


@pytest.mark.parametrize("left,deltas", [([0, 5, 13, 10], [41, -5, -26, -10]), ([0, 1, 3, 13], [29, 0, -3, -26])])
def test_per_card_penalty_one_left_pays_nothing_nothing_played_pays_double(api, left, deltas):
    assert settle(api, P52, 0, left, penalty="per_card")["deltas"] == deltas


def test_settlement_steps_show_the_arithmetic(api):
    out = settle(api, P52, 0, [0, 5, 13, 10])
    assert "seat 3: 13 left, played nothing ×4 × stake 1 = −52" in out["steps"]  # seat value 2 reads as seat 3
    status, zh = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 13, 10]})
    assert "3号位：剩13张，一张没出 ×4 ×底分1 = −52" in zh["steps"]


def test_stake_multiplies_every_payment(api):
    assert settle(api, P52, 0, [0, 5, 13, 10], stake=3)["deltas"] == [261, -15, -156, -90]


def test_exactly_one_card_played_counts_as_under_a_quarter(api):
    # reading: the seed's "大于1" leaves 1 unassigned; 1 played of 13 → ×3
    assert settle(api, P52, 0, [0, 12, 1, 1])["deltas"] == [38, -36, -1, -1]


def test_played_a_quarter_exactly_is_times_two(api):
    # 48-card game: 16 dealt, 4 played = dealt/4 → ×2
    assert settle(api, P48, 0, [0, 12, 16])["deltas"] == [24 + 64, -24, -64]


# ==========================================================================
# Settlement input checks
# ==========================================================================

@pytest.mark.parametrize("body,field", [
    ({"winner": 0, "cards_left": [0, 0, 3, 4]}, "cards_left[1]"),          # two winners
    ({"winner": 1, "cards_left": [0, 5, 3, 4]}, "cards_left[1]"),          # winner holds cards
    ({"winner": 0, "cards_left": [0, 14, 3, 4]}, "cards_left[1]"),         # more than dealt
    ({"winner": 0, "cards_left": [0, 5, 3]}, "cards_left"),                # 3 players in a 4-player preset
    ({"winner": 4, "cards_left": [0, 5, 3, 4]}, "winner"),                 # no such seat
    ({"winner": 0, "cards_left": [0, 5, -3, 4]}, "cards_left[2]"),
])
def test_settle_input_checks_exactly_one_winner_others_one_to_dealt_player_count(api, body, field):
    status, out = api("paodekuai/settle", body, lang="en")
    assert status == 422
    assert out["error"]["field"] == field
    assert out["error"]["message"]


def test_settle_player_count_follows_the_preset(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 3, 4],
                                           "rules": {"preset": P48}}, lang="en")
    assert status == 422 and "3 players" in out["error"]["message"]
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 3, 4], "rules": {"preset": P48}})
    assert "3人" in out["error"]["message"]


@pytest.mark.parametrize("body", [{"cards_left": [0, 1, 2, 3]}, {"winner": 0}, {"winner": "x", "cards_left": [0, 1, 1, 1]},
                                  {"winner": 0, "cards_left": "0 1 2 3"}, {"winner": 0, "cards_left": [0, "a", 1, 1]}])
def test_malformed_settle_input_is_a_400_not_a_500(api, body):
    status, out = api("paodekuai/settle", body)
    assert status == 400 and out["error"]["code"]


def test_unknown_option_or_value_is_rejected(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 1, 1], "rules": {"penalty": "x"}})
    assert status == 400 and out["error"]["field"] == "rules.penalty"
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 1, 1], "rules": {"stake": 0}})
    assert status == 400 and out["error"]["field"] == "rules.stake"


# ==========================================================================
# Binding examples: plays
# ==========================================================================

def test_zsy_low_straight_a2345_is_legal_with_top_5(api):
    out = check(api, "♠A ♥2 ♣3 ♦4 ♠5", preset=ZSY)
    assert out["legal"] and out["reading"]["kind"] == "straight" and out["reading"]["top"] == "5"


def test_zsy_two_is_only_low_so_kkaa22_is_no_pair_run(api):
    out = check(api, "♠K ♥K ♠A ♥A ♠2 ♥2", preset=ZSY)
    assert not out["legal"] and out["reading"] is None


def test_zsy_runs_never_wrap(api):
    out = check(api, "♠Q ♥K ♣A ♦2 ♠3", preset=ZSY)
    assert not out["legal"] and "wrap" in out["reason"]


def test_zsy_straight_flush_beats_any_plain_straight_of_the_same_length(api):
    out = check(api, "♥3 ♥4 ♥5 ♥6 ♥7", "♠5 ♥6 ♣7 ♦8 ♠9", preset=ZSY)
    assert out["legal"] and out["reading"]["kind"] == "straight_flush"


def test_zsy_bomb_with_more_cards_beats_fewer(api):
    assert check(api, "♠7 ♥7 ♣7 ♦7 ♠7", "♠2 ♥2 ♣2 ♦2", preset=ZSY)["legal"]


def test_zsy_four_jokers_beat_eight_twos(api):
    assert check(api, "大王 大王 小王 小王", "♠2 ♥2 ♣2 ♦2 ♠2 ♥2 ♣2 ♦2", preset=ZSY)["legal"]


def test_pdk48_two_is_never_in_a_straight(api):
    out = check(api, "♠J ♥Q ♣K ♦A ♠2", preset=P48)
    assert not out["legal"] and "2" in out["reason"]


def test_pdk48_three_aces_are_a_bomb(api):
    out = check(api, "♥A ♣A ♦A", preset=P48)
    assert out["legal"] and out["reading"]["bomb"] is True


def test_pdk48_triple_with_two_singles_beats_triple_with_pair(api):
    out = check(api, "♠10 ♥10 ♣10 ♦3 ♣7", "♠8 ♥8 ♣8 ♠4 ♥4", preset=P48)
    assert out["legal"] and out["reading"]["kind"] == "triple_two"


def test_pdk48_triple_with_one_does_not_beat_triple_with_two(api):
    out = check(api, "♠10 ♥10 ♣10 ♦3", "♠8 ♥8 ♣8 ♠4 ♥4", preset=P48)
    assert not out["legal"] and "different pattern" in out["reason"]


def test_pdk52_bomb_beats_any_non_bomb(api):
    assert check(api, "♠3 ♥3 ♣3 ♦3", "♠8 ♥8 ♣8 ♠4 ♥4", preset=P52)["legal"]


def test_pdk52_four_with_two_is_no_bomb_and_not_the_same_pattern(api):
    out = check(api, "♠9 ♥9 ♣9 ♦9 ♠3 ♦4", "♠K ♥K ♣K ♠4 ♥4", preset=P52)
    assert not out["legal"] and out["reading"]["kind"] == "four_two" and out["reading"]["bomb"] is False


# ==========================================================================
# Binding examples: notation (docs/rules/common.md) through the API
# ==========================================================================

@pytest.mark.parametrize("text", ["SA h10 dT sq", "黑桃A 红心10 方片10 黑桃Q", "♠A,♥10，♦10、♠Q", "♠A♥10♦10♠Q",
                                  "sa H10 Dt SQ"])
def test_any_accepted_notation_answers_in_canonical_form(api, text):
    status, out = api("paodekuai/classify", {"cards": text, "rules": {"preset": ZSY}})
    assert status == 200 and out["cards"] == "♠A ♠Q ♥10 ♦10" and out["valid"] is False  # no play: canonical


def test_jokers_as_bj_lj_and_sj_is_the_spade_jack(api):
    status, out = api("paodekuai/classify", {"cards": "BJ bj LJ lj", "rules": {"preset": ZSY}})
    assert out["cards"] == "小王 小王 大王 大王" and out["readings"][0]["bomb"]  # a play: ascending
    status, out = api("paodekuai/classify", {"cards": "SJ"})
    assert out["cards"] == "♠J" and out["readings"][0]["kind"] == "single"


def test_unknown_token_is_quoted_in_a_400(api):
    status, out = api("paodekuai/check", {"play": "♠A X7"}, lang="en")
    assert status == 400 and "“X7”" in out["error"]["message"] and out["error"]["field"] == "play"
    status, out = api("paodekuai/check", {"play": "♠A X7"})
    assert "「X7」" in out["error"]["message"]


def test_a_rank_without_a_suit_is_enough_where_suits_cannot_matter(api):
    status, out = api("paodekuai/check", {"play": "7 7"}, lang="en")
    assert status == 200 and out["legal"] is True  # a lead of a pair; more in test_paodekuai_bare_ranks.py


def test_too_many_copies_across_table_and_hand_names_card_and_limit(api):
    status, out = api("paodekuai/check", {"play": "♠A", "hand": "♠A ♥3", "previous": "♠A"}, lang="en")
    assert status == 422 and "♠A" in out["error"]["message"] and "at most 1" in out["error"]["message"]


def test_a_third_spade_ace_in_the_two_deck_game_is_too_many(api):
    status, out = api("paodekuai/check", {"play": "♠A", "hand": "♠A ♠A ♠A", "rules": {"preset": ZSY}}, lang="en")
    assert status == 422 and "“♠A” appears 3 times" in out["error"]["message"] and "at most 2" in out["error"]["message"]
    assert out["error"]["field"] == "hand"


def test_a_second_copy_in_one_play_is_too_many_for_one_pack(api):
    status, out = api("paodekuai/check", {"play": "♠A ♠A"}, lang="en")
    assert status == 422 and out["error"]["code"] == "too_many_copies" and out["error"]["field"] == "play"


def test_joker_in_the_jokerless_preset_is_rejected(api):
    status, out = api("paodekuai/check", {"play": "大王"}, lang="en")
    assert status == 422 and "without jokers" in out["error"]["message"]


def test_removed_card_of_the_48_card_pack_is_rejected(api):
    status, out = api("paodekuai/check", {"play": "♠A", "rules": {"preset": P48}}, lang="en")
    assert status == 422 and "removed" in out["error"]["message"] and "♠A" in out["error"]["message"]


def test_empty_play_is_an_error(api):
    status, out = api("paodekuai/check", {"play": "  "})
    assert status == 422 and out["error"]["code"] == "empty_cards"


@pytest.mark.parametrize("body", [{}, {"play": 5}, {"play": ["♠A"]}, {"play": "♠A", "previous": 3},
                                  {"play": "♠A", "rules": []}, {"play": "♠A", "rules": {"nope": 1}}])
def test_malformed_check_payloads_are_400(api, body):
    status, out = api("paodekuai/check", body)
    assert status == 400 and out["error"]["code"]


def test_a_table_play_that_is_no_pattern_is_a_422_on_previous(api):
    status, out = api("paodekuai/check", {"play": "♠A", "previous": "♠3 ♥4"}, lang="en")
    assert status == 422 and out["error"]["field"] == "previous"


# ==========================================================================
# Check: hand, pass, must_beat
# ==========================================================================

def test_a_play_must_come_out_of_the_hand(api):
    out = check(api, "♠A", hand="♥A ♠3")
    assert not out["legal"] and "♠A" in out["reason"]


def test_a_follower_may_pass(api):
    out = check(api, "pass", "♠2", hand="♠A ♥A")
    assert out["legal"] and out["reading"] is None


def test_the_leader_may_not_pass(api):
    assert not check(api, "不出")["legal"]


def test_must_beat_forbids_a_pass_when_the_hand_can_beat(api):
    out = check(api, "pass", "♠K", hand="♠A ♥3", rules={"must_beat": True})
    assert not out["legal"] and "♠A" in out["reason"]
    assert check(api, "pass", "♠K", hand="♠Q ♥3", rules={"must_beat": True})["legal"]


def test_must_beat_needs_the_hand_to_judge_a_pass(api):
    status, out = api("paodekuai/check", {"play": "pass", "previous": "♠K", "rules": {"must_beat": "on"}})
    assert status == 422 and out["error"]["field"] == "hand"


def test_check_reason_is_always_present_and_bilingual(api):
    en = check(api, "♠3 ♥4", lang="en")
    zh = check(api, "♠3 ♥4", lang="zh")
    assert en["reason"] and zh["reason"] and en["reason"] != zh["reason"] and not en["legal"]


# ==========================================================================
# Patterns (engine)
# ==========================================================================

def readings(cards, preset=P52, **rules):
    r = pdk.RULESET.resolve({"preset": preset, **rules})
    return pdk.spec_for(r).readings(parse_cards(cards))


def kinds(cards, preset=P52, **rules):
    return [r.kind for r in readings(cards, preset, **rules)]


def beats(play, table, preset=P52, **rules):
    r = pdk.RULESET.resolve({"preset": preset, **rules})
    return any(pdk.spec_for(r).beats(p, readings(table, preset, **rules)[0]) for p in readings(play, preset, **rules))


def test_pdk_straight_runs_from_3_to_ace():
    assert kinds("♠10 ♥J ♣Q ♦K ♠A") == ["straight"]
    assert kinds("♠A ♥2 ♣3 ♦4 ♠5") == []  # no low A-2 in 跑得快


def test_pdk_pair_and_triple_runs_have_no_two():
    assert kinds("♠A ♥A ♠K ♥K") == ["pair_run"]
    assert kinds("♠A ♥A ♠2 ♥2") == []
    assert kinds("♠A ♥A ♣A ♠K ♥K ♣K") == ["triple_run"]


def test_pdk_airplane_two_or_three_triples_each_with_two_cards():
    assert kinds("♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠3 ♥9 ♣J ♦K") == ["airplane"]
    assert kinds("♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♠3 ♥9 ♣J ♦K ♦Q ♦10") == ["airplane"]


def test_pdk_aaa_is_the_lowest_bomb_unless_aaa_top():
    assert not beats("♥A ♣A ♦A", "♠3 ♥3 ♣3 ♦3")
    assert beats("♥A ♣A ♦A", "♠K ♥K ♣K ♦K", aaa_top=True)


def test_pdk_bombs_compare_by_rank():
    assert beats("♠4 ♥4 ♣4 ♦4", "♠3 ♥3 ♣3 ♦3") and not beats("♠3 ♥3 ♣3 ♦3", "♠4 ♥4 ♣4 ♦4")


def test_non_bomb_needs_same_pattern_same_size_higher_key_card():
    assert beats("♠4 ♥5 ♣6 ♦7 ♠8", "♠3 ♥4 ♣5 ♦6 ♠7")
    assert not beats("♠4 ♥5 ♣6 ♦7 ♠8 ♠9", "♠3 ♥4 ♣5 ♦6 ♠7")
    assert beats("♠2", "♠A") and not beats("♠A", "♠2")


def test_attachments_never_count_in_the_comparison():
    assert beats("♠9 ♥9 ♣9 ♠3 ♥3", "♠8 ♥8 ♣8 ♠K ♥K", P48)


def test_attachment_is_never_of_the_triples_rank():
    assert "triple_single" not in kinds("♠9 ♥9 ♣9 ♦9")


def test_zsy_pair_of_identical_jokers_but_not_big_with_little():
    assert kinds("大王 大王", ZSY) == ["pair"] and kinds("大王 小王", ZSY) == []


def test_zsy_jokers_never_in_a_run():
    assert kinds("♠3 ♥4 ♣5 ♦6 大王", ZSY) == []


def test_zsy_low_runs_join_upward_to_3():
    assert kinds("♠A ♥A ♠2 ♥2 ♠3 ♥3", ZSY) == ["pair_run"]
    assert kinds("♠2 ♥2 ♠3 ♥3", ZSY) == ["pair_run"]
    assert kinds("♠A ♥A ♠2 ♥2", ZSY) == []
    assert beats("♠2 ♥3 ♣4 ♦5 ♠6", "♠A ♥2 ♣3 ♦4 ♠5", ZSY)
    assert beats("♠3 ♥4 ♣5 ♦6 ♠7", "♠2 ♥3 ♣4 ♦5 ♠6", ZSY)


def test_zsy_triple_with_one_single_or_one_pair():
    assert kinds("♠9 ♥9 ♣9 ♠3", ZSY) == ["triple_single"]
    assert kinds("♠9 ♥9 ♣9 ♠3 ♥3", ZSY) == ["triple_pair"]
    assert kinds("♠9 ♥9 ♣9 ♠3 ♥4", ZSY) == []


def test_zsy_triple_run_attachments_all_singles_or_all_pairs():
    assert kinds("♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠3 ♥9", ZSY) == ["triple_run_singles"]
    assert kinds("♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠3 ♥3 ♠9 ♥9", ZSY) == ["triple_run_pairs"]
    assert kinds("♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠3 ♥3 ♠9", ZSY) == []


def test_zsy_straight_flush_is_not_a_bomb_and_flushes_compare_by_top():
    assert not readings("♥3 ♥4 ♥5 ♥6 ♥7", ZSY)[0].is_bomb
    assert beats("♠4 ♠5 ♠6 ♠7 ♠8", "♥3 ♥4 ♥5 ♥6 ♥7", ZSY)
    assert not beats("♠4 ♥5 ♠6 ♠7 ♠8", "♥3 ♥4 ♥5 ♥6 ♥7", ZSY)


def test_zsy_bomb_kickers_two_singles_or_two_pairs_only_with_the_rule():
    assert kinds("♠7 ♥7 ♣7 ♦7 ♠3 ♥9", ZSY) == []
    assert kinds("♠7 ♥7 ♣7 ♦7 ♠3 ♥9", ZSY, bomb_kickers=True) == ["bomb"]
    assert kinds("♠7 ♥7 ♣7 ♦7 ♠3 ♥3 ♠9 ♥9", ZSY, bomb_kickers=True) == ["bomb"]


def test_zsy_bomb_with_kickers_is_beaten_only_by_a_bomb_with_as_many_kicker_cards():
    assert beats("♠8 ♥8 ♣8 ♦8 ♠3 ♥4", "♠7 ♥7 ♣7 ♦7 ♠5 ♥9", ZSY, bomb_kickers=True)
    assert not beats("♠8 ♥8 ♣8 ♦8", "♠7 ♥7 ♣7 ♦7 ♠5 ♥9", ZSY, bomb_kickers=True)
    assert not beats("♠8 ♥8 ♣8 ♦8 ♠3 ♥3 ♠4 ♥4", "♠7 ♥7 ♣7 ♦7 ♠5 ♥9", ZSY, bomb_kickers=True)
    assert beats("♠8 ♥8 ♣8 ♦8 ♠3 ♥4", "♠Q ♥Q ♣Q", ZSY, bomb_kickers=True)


@pytest.mark.parametrize("preset, option", [(P52, "bomb_kickers"), ("paodekuai48", "bomb_kickers"),
                                            ("paodekuai45", "aaa_top"), (ZSY, "aaa_top")])
def test_an_option_that_cannot_apply_to_the_preset_is_refused_not_ignored(api, preset, option):
    seats = 4 if preset in (P52, ZSY) else 3
    for endpoint, body in (("paodekuai/classify", {"cards": "♠7 ♥7 ♣7 ♦7 ♠3 ♥9"}),
                           ("paodekuai/settle", {"winner": 0, "cards_left": [0] + [5] * (seats - 1)})):
        status, out = api(endpoint, {**body, "rules": {"preset": preset, option: True}})
        assert status == 422 and out["error"]["code"] == "option_not_for_preset", (endpoint, out)
        assert out["error"]["field"] == f"rules.{option}"
        status, _ = api(endpoint, {**body, "rules": {"preset": preset, option: False}})
        assert status == 200  # its default is accepted


# ==========================================================================
# Hints
# ==========================================================================

def hint(api, hand, previous=None, preset=P52, **extra):
    status, out = api("paodekuai/hint", {"hand": hand, "previous": previous, "rules": {"preset": preset}, **extra})
    assert status == 200, out
    return out


def test_hint_lead_smallest_is_the_lowest_single(api):
    out = hint(api, "♠3 ♥3 ♣4 ♦5 ♠6 ♥7 ♣8 ♦9")
    assert out["smallest"] == "♠3" and out["plays"][0] == "♠3" and out["truncated"] is False
    assert "♠3 ♣4 ♦5 ♠6 ♥7" in out["plays"] and "♦5 ♠6 ♥7 ♣8 ♦9" in out["plays"]


def test_hint_smallest_beats_the_table_with_the_lowest_highest_card(api):
    out = hint(api, "♠3 ♥9 ♣K ♦2 ♠A", "♠8")
    assert out["smallest"] == "♥9" and out["plays"] == ["♥9", "♣K", "♠A", "♦2"]


def test_hint_passes_when_nothing_beats(api):
    out = hint(api, "♠3 ♥4", "♠2")
    assert out["plays"] == [] and out["smallest"] is None


def test_hint_plays_no_bomb_while_a_plain_play_beats(api):
    # the smallest-play rule of common.md: a play that is not a bomb before every bomb
    out = hint(api, "♠3 ♥3 ♣3 ♦3 ♠9 ♥9", "♠8 ♥8")
    assert out["plays"] == ["♠9 ♥9", "♠3 ♥3 ♣3 ♦3"]


def test_hint_lists_distinct_plays_once_whatever_the_suits(api):
    out = hint(api, "♠5 ♥5 ♣5", "♠4")
    assert out["plays"] == ["♠5"]


def test_hint_zsy_lists_a_flush_and_a_plain_straight_separately(api):
    out = hint(api, "♠3 ♠4 ♠5 ♠6 ♠7 ♥7", "♣2 ♦3 ♣4 ♦5 ♣6", ZSY)
    assert sorted(out["plays"]) == ["♠3 ♠4 ♠5 ♠6 ♠7", "♠3 ♠4 ♠5 ♠6 ♥7"]
    out = hint(api, "♠3 ♠4 ♠5 ♠6 ♠7 ♥7", "♣3 ♦4 ♣5 ♦6 ♣7", ZSY)
    assert out["plays"] == ["♠3 ♠4 ♠5 ♠6 ♠7"]  # only the flush beats an equal plain straight


def test_hint_limit_truncates_to_the_smallest(api):
    full = hint(api, "♠3 ♥3 ♣4 ♦5 ♠6 ♥7 ♣8 ♦9")
    cut = hint(api, "♠3 ♥3 ♣4 ♦5 ♠6 ♥7 ♣8 ♦9", limit=3)
    assert cut["truncated"] is True and cut["plays"] == full["plays"][:3]


def test_games_listing_describes_presets_and_options_with_readings(api):
    status, out = api("games", method="GET", lang="en")
    game = next(g for g in out["games"] if g["slug"] == "paodekuai")
    assert game["presets"] == [P52, P48, "paodekuai45", ZSY] and game["kind"] == "shedding"
    names = {o["name"]: o for o in game["options"]}
    assert set(names) == {"penalty", "stake", "must_beat", "aaa_top", "bomb_kickers", "bomb_points", "zhaniao",
                          "baopei", "baoben", "baodan_max", "spade3_first", "full_kickers"}
    assert names["penalty"]["reading"] is True and names["stake"]["default"] == 1
    p48 = next(p for p in game["preset_details"] if p["name"] == P48)
    assert p48["reading"] is True and "reading" in p48["help"]
    assert all(o["label"] and o["help"] for o in game["options"])


def test_game_exposes_deck_and_patterns_for_pages():
    r = pdk.RULESET.resolve({"preset": P48})
    assert GAME.deck(r).size == 48 and GAME.bare_ranks  # bare ranks are read (suits asked only where they matter)
    assert pdk.pattern_texts(r) and pdk.pattern_texts(pdk.RULESET.resolve({"preset": ZSY}))
    assert [str(c) for c in sorted(parse_cards("♠3 ♥2 ♣A"), key=pdk.sort_key_for(r))] == ["♥2", "♣A", "♠3"]


# ==========================================================================
# Properties
# ==========================================================================

def few_ranks(draw, rules, most: int = 6):
    """A hand of 1 … 8 cards and a table of 0 … 5 from a few ranks of the pack (so that patterns appear)."""
    pack = pdk.deck_for(rules).all_cards()
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    ranks = rng.sample(sorted({c.rank for c in pack}), rng.randint(2, most))
    pool = [c for c in pack if c.rank in ranks]
    rng.shuffle(pool)
    hand = pool[:draw(st.integers(1, 8))]
    table = pool[len(hand):len(hand) + draw(st.integers(0, 5))]
    return hand, table


@st.composite
def small_deal(draw, preset):
    rules = pdk.RULESET.resolve({"preset": preset, "bomb_kickers": draw(st.booleans()) and preset == ZSY,
                                 "aaa_top": draw(st.booleans()) and preset != ZSY})  # each where it applies
    return (rules, *few_ranks(draw, rules))


def _table(rules, table):
    rs = pdk.spec_for(rules).readings(table) if table else []
    return rs[0] if rs else None


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([P52, P48, ZSY]).flatmap(small_deal))
def test_hint_equals_brute_force_over_every_sub_multiset(case):
    rules, hand, table = case
    tr = _table(rules, table)
    plays = list(legal_plays(pdk.spec_for(rules), hand, tr))
    got = {pdk.spec_for(rules).identity(c) for c, _ in plays}
    assert len(got) == len(plays)
    assert got == set(brute_force_plays(pdk.spec_for(rules), hand, tr))


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([P52, P48, ZSY]).flatmap(small_deal))
def test_every_hinted_play_passes_check(case):
    rules, hand, table = case
    previous = " ".join(map(str, table)) if _table(rules, table) else None
    out = GAME.run("hint", {"hand": " ".join(map(str, hand)), "previous": previous, "rules": dict(rules)})
    for play in out["plays"]:
        verdict = GAME.run("check", {"play": play, "previous": previous, "hand": " ".join(map(str, hand)),
                                     "rules": dict(rules)})
        assert verdict["legal"], play
    assert out["smallest"] == (out["plays"][0] if out["plays"] else None)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from([P52, P48, ZSY]), st.data())
def test_every_settlement_is_zero_sum(preset, data):
    info = pdk.PRESETS[preset]
    n, dealt = info["players"], info["dealt"]
    winner = data.draw(st.integers(0, n - 1))
    left = [0 if i == winner else data.draw(st.integers(1, dealt)) for i in range(n)]
    penalty = data.draw(st.sampled_from(["seed", "per_card"]))
    out = GAME.run("settle", {"winner": winner, "cards_left": left,
                              "rules": {"preset": preset, "penalty": penalty, "stake": data.draw(st.integers(1, 100))}})
    assert sum(out["deltas"]) == 0 and out["deltas"][winner] >= 0
    assert len(out["steps"]) == n


@st.composite
def run_heavy_deal(draw):
    """Hands of 10–12 cards around consecutive triples: airplanes, triple runs with attachments, kicker bombs."""
    preset = draw(st.sampled_from([P52, P48, ZSY]))
    rules = pdk.RULESET.resolve({"preset": preset, "bomb_kickers": draw(st.booleans()) and preset == ZSY})
    pack = pdk.deck_for(rules).all_cards()
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    start = draw(st.sampled_from([3, 7, 11, 12]))
    ranks = [r for r in range(start, start + 3) if r <= 14] + ([2] if preset == ZSY and start == 12 else [])
    pool = [c for c in pack if c.rank in ranks]
    rng.shuffle(pool)
    rest = [c for c in pack if c.rank not in ranks]
    rng.shuffle(rest)
    hand = pool[:draw(st.integers(7, 9))] + rest[:draw(st.integers(1, 3))]
    table = draw(st.sampled_from([None, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥6 ♣7 ♦8", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5",
                                  "♠3 ♥3 ♣3 ♦3"]))
    return rules, hand, table


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run_heavy_deal())
def test_hint_equals_brute_force_on_airplane_sized_hands(case):
    rules, hand, table = case
    tr = _table(rules, parse_cards(table)) if table else None
    if table and (tr is None or any(c in hand for c in parse_cards(table)) and rules.preset != ZSY):
        tr = None
    plays = list(legal_plays(pdk.spec_for(rules), hand, tr))
    got = {pdk.spec_for(rules).identity(c) for c, _ in plays}
    assert len(got) == len(plays)
    assert got == set(brute_force_plays(pdk.spec_for(rules), hand, tr))


def test_a_hand_holds_no_more_than_the_deal(api):
    hand = "♠3 ♥3 ♣3 ♦3 ♠4 ♥4 ♣4 ♦4 ♠5 ♥5 ♣5 ♦5 ♠6 ♥6"
    status, out = api("paodekuai/hint", {"hand": hand}, lang="en")
    assert status == 422 and out["error"]["field"] == "hand" and "at most 13" in out["error"]["message"]
    status, out = api("paodekuai/check", {"play": "♠3", "hand": hand, "rules": {"preset": ZSY}})
    assert status == 200
