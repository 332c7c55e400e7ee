"""跑得快 house rules of docs/rules/variants.md (sections 1–8): every binding example through the HTTP API,
then the properties (zero-sum settlements, hint = brute force) with the new options switched on at random."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples
from test_paodekuai import few_ranks

from scoring import paodekuai as pdk
from scoring.cards import parse_cards
from scoring.shedding import brute_force_plays, legal_plays
from scoring.shedding.turn import Turn

pytestmark = pytest.mark.shared_app

ZSY, P52, P48, P45 = "zhengshangyou108", "paodekuai52", "paodekuai48", "paodekuai45"
PER_CARD = {"preset": P48, "penalty": "per_card"}


def post(api, action, body, lang="en"):
    return api(f"paodekuai/{action}", body, lang=lang)


def settled(api, rules, winner, left, **extra):
    status, out = post(api, "settle", {"winner": winner, "cards_left": left, "rules": rules, **extra})
    assert status == 200, out
    return out


def refused(api, action, body):
    """A request the rules refuse: its status and the field the error names."""
    status, out = post(api, action, body)
    return status, out["error"]["field"], out["error"]["code"]


def legal(api, rules, play, previous=None, hand=None, **extra):
    status, out = post(api, "check", {"play": play, "previous": previous, "hand": hand, "rules": rules, **extra})
    assert status == 200, out
    return out["legal"]


def hinted(api, rules, hand, previous=None, **extra):
    status, out = post(api, "hint", {"hand": hand, "previous": previous, "rules": rules, **extra})
    assert status == 200, out
    return out["plays"], out["smallest"]


# ==========================================================================
# 1. paodekuai45 (十五张)
# ==========================================================================

@pytest.mark.parametrize("rules,winner,left,deltas", [
    ({"preset": P45}, 1, [11, 0, 12], [-22, 58, -36]),
    ({"preset": P45}, 0, [0, 15, 7], [67, -60, -7]),
    ({"preset": P45, "penalty": "per_card"}, 2, [7, 15, 0], [-7, -30, 37]),
])
def test_paodekuai45_settles_with_fifteen_dealt(api, rules, winner, left, deltas):
    assert settled(api, rules, winner, left)["deltas"] == deltas


@pytest.mark.parametrize("left,field", [([0, 16, 3], "cards_left[1]"), ([0, 5, 6, 7], "cards_left")])
def test_paodekuai45_is_three_players_holding_one_to_fifteen(api, left, field):
    status, where, _ = refused(api, "settle", {"winner": 0, "cards_left": left, "rules": {"preset": P45}})
    assert (status, where) == (422, field)


@pytest.mark.parametrize("play,previous", [("♠A", None), ("♠K ♥K ♣K", None), ("♠Q ♥Q ♣Q ♦Q", "♠K ♥K ♣K ♠4 ♥4"),
                                           ("♠2", "♠A")])
def test_paodekuai45_plays_as_the_one_deck_game(api, play, previous):
    assert legal(api, {"preset": P45}, play, previous)


def test_paodekuai45_kkk_is_a_plain_triple_not_a_bomb(api):
    status, out = post(api, "classify", {"cards": "♠K ♥K ♣K", "rules": {"preset": P45}})
    assert [r["kind"] for r in out["readings"]] == ["triple"]


@pytest.mark.parametrize("card", ["♥A", "♦K", "♥2", "大王"])
def test_paodekuai45_cards_outside_its_deck_are_refused_by_name(api, card):
    status, out = post(api, "check", {"play": card, "rules": {"preset": P45}})
    assert status == 422 and out["error"]["code"] == "card_not_in_deck" and out["error"]["field"] == "play"
    assert card in out["error"]["message"]


# ==========================================================================
# 2. bomb_points
# ==========================================================================

@pytest.mark.parametrize("bombs", [[{"seat": 1}], [{"seat": 1, "cards": "♠9 ♥9 ♣9 ♦9"}]])
def test_bomb_points_every_other_player_pays_the_bomb(api, bombs):
    out = settled(api, {**PER_CARD, "bomb_points": 10}, 0, [0, 5, 9], bombs=bombs)
    assert out["deltas"] == [4, 15, -19]


def test_bomb_points_are_multiplied_by_the_stake_per_bomb(api):
    out = settled(api, {"preset": P52, "stake": 2, "bomb_points": 5}, 3, [13, 4, 1, 0],
                  bombs=[{"seat": 3}, {"seat": 3}])
    assert out["deltas"] == [-124, -28, -22, 174]


def test_bomb_points_default_zero_bombs_score_nothing(api):
    out = settled(api, {"preset": P52}, 0, [0, 5, 13, 10], bombs=[{"seat": 2}])
    assert out["deltas"] == [87, -5, -52, -30]
    assert any("bomb points 0" in s for s in out["steps"])


@pytest.mark.parametrize("bombs,field,code", [([{"seat": 3}], "bombs[0].seat", "unknown_seat"),
                                              ([{"seat": 1, "cards": "♠9 ♥9"}], "bombs[0].cards", "not_a_bomb")])
def test_bomb_points_bombs_name_a_seat_and_real_bomb_cards(api, bombs, field, code):
    body = {"winner": 0, "cards_left": [0, 5, 9], "bombs": bombs, "rules": {**PER_CARD, "bomb_points": 10}}
    assert refused(api, "settle", body) == (422, field, code)


# ==========================================================================
# 3. zhaniao
# ==========================================================================

@pytest.mark.parametrize("rules,winner,heart10,left,bombs,deltas", [
    ({**PER_CARD, "zhaniao": "cards"}, 0, 0, [0, 6, 10], [], [32, -12, -20]),
    ({**PER_CARD, "zhaniao": "cards"}, 0, 2, [0, 6, 16], [], [70, -6, -64]),
    ({**PER_CARD, "zhaniao": "cards", "bomb_points": 10}, 1, 1, [4, 0, 8], [{"seat": 0}], [12, 14, -26]),
    ({**PER_CARD, "zhaniao": "all", "bomb_points": 10}, 1, 1, [4, 0, 8], [{"seat": 0}], [22, 4, -26]),
    ({**PER_CARD, "zhaniao": "cards"}, 0, 1, [0, 1, 5], [], [5, 0, -5]),
    ({"preset": P52, "zhaniao": "cards"}, 0, 2, [0, 5, 13, 10], [], [139, -5, -104, -30]),
])
def test_zhaniao_doubles_payments_to_or_from_the_heart10_holder(api, rules, winner, heart10, left, bombs, deltas):
    assert settled(api, rules, winner, left, heart10=heart10, bombs=bombs)["deltas"] == deltas


def test_zhaniao_step_says_times_two(api):
    status, out = post(api, "settle", {"winner": 0, "cards_left": [0, 6, 16], "heart10": 2,
                                       "rules": {**PER_CARD, "zhaniao": "cards"}}, lang="zh")
    assert any("红桃10扎鸟：×2" in s for s in out["steps"])


def test_zhaniao_off_heart10_is_not_used_and_the_steps_say_so(api):
    out = settled(api, {"preset": P52, "zhaniao": "off"}, 0, [0, 5, 13, 10], heart10=2)
    assert out["deltas"] == [87, -5, -52, -30]
    assert "扎鸟 off: who held ♥10 is not used" in out["steps"]


def test_zhaniao_is_refused_with_two_decks(api):
    body = {"winner": 0, "cards_left": [0, 1, 1, 1], "heart10": 0, "rules": {"preset": ZSY, "zhaniao": "cards"}}
    status, field, code = refused(api, "settle", body)
    assert (status, field) == (422, "rules.zhaniao") and code != "invalid_option"


@pytest.mark.parametrize("extra", [{}, {"heart10": 5}])
def test_zhaniao_requires_a_seat_of_the_table_as_heart10(api, extra):
    body = {"winner": 0, "cards_left": [0, 6, 10], "rules": {**PER_CARD, "zhaniao": "cards"}, **extra}
    status, field, _ = refused(api, "settle", body)
    assert (status, field) == (422, "heart10")


# ==========================================================================
# 4. baopei
# ==========================================================================

@pytest.mark.parametrize("rules,winner,let_go,left,extra,deltas", [
    ({**PER_CARD}, 1, 0, [5, 0, 9], {}, [-14, 14, 0]),
    ({**PER_CARD}, 1, 0, [3, 0, 16], {}, [-35, 35, 0]),
    ({**PER_CARD, "bomb_points": 10}, 2, 1, [7, 4, 0], {"bombs": [{"seat": 0}]}, [20, -21, 1]),
    ({"preset": P52}, 0, 3, [0, 5, 13, 10], {}, [87, 0, 0, -87]),
    ({**PER_CARD, "zhaniao": "cards"}, 1, 0, [5, 0, 9], {"heart10": 2}, [-23, 23, 0]),
    ({**PER_CARD}, 1, None, [5, 0, 9], {}, [-5, 14, -9]),
])
def test_baopei_the_loser_who_let_go_pays_every_card_payment(api, rules, winner, let_go, left, extra, deltas):
    out = settled(api, {**rules, "baopei": True}, winner, left, let_go=let_go, **extra)
    assert out["deltas"] == deltas


def test_baopei_off_let_go_is_not_used(api):
    out = settled(api, {"preset": P52, "baopei": False}, 0, [0, 5, 13, 10], let_go=3)
    assert out["deltas"] == [87, -5, -52, -30]
    assert "包赔 off: let_go not used" in out["steps"]


@pytest.mark.parametrize("let_go", [1, 3])
def test_baopei_let_go_is_a_loser_of_the_table(api, let_go):
    body = {"winner": 1, "cards_left": [5, 0, 9], "let_go": let_go, "rules": {**PER_CARD, "baopei": True}}
    status, field, _ = refused(api, "settle", body)
    assert (status, field) == (422, "let_go")


# ==========================================================================
# 5. baoben
# ==========================================================================

@pytest.mark.parametrize("rules,left,deltas", [
    ({**PER_CARD, "baoben": False}, [0, 1, 16], [33, -1, -32]),
    ({**PER_CARD}, [0, 1, 16], [32, 0, -32]),
    ({"preset": P52, "penalty": "per_card", "baoben": False}, [0, 1, 3, 13], [30, -1, -3, -26]),
    ({"preset": P52, "penalty": "per_card"}, [0, 1, 3, 13], [29, 0, -3, -26]),
])
def test_baoben_off_a_loser_on_one_card_pays_for_it(api, rules, left, deltas):
    assert settled(api, rules, 0, left)["deltas"] == deltas


# ==========================================================================
# 6. baodan_max
# ==========================================================================

BAODAN = {"preset": P48, "baodan_max": True}


@pytest.mark.parametrize("rules,play,previous,hand,after,verdict", [
    (BAODAN, "♠9", None, "♠9 ♥K ♣4", 1, False),
    (BAODAN, "♥K", None, "♠9 ♥K ♣4", 1, True),
    (BAODAN, "♣4 ♦4", None, "♣4 ♦4 ♥K", 1, True),
    (BAODAN, "♠9", "♠8", "♠9 ♥K", 1, False),
    (BAODAN, "♥K", "♠8", "♠9 ♥K", 1, True),
    (BAODAN, "♠9", None, "♠9 ♥K ♣4", 2, True),
    ({"preset": P48}, "♠9", None, "♠9 ♥K ♣4", 1, True),
    ({**BAODAN, "preset": P52}, "♥A", None, "♠2 ♥A ♣3", 1, False),
    (BAODAN, "♥K", None, "♠K ♥K ♣4", 1, True),
])
def test_baodan_max_next_on_one_card_a_single_must_be_the_highest_rank(api, rules, play, previous, hand, after,
                                                                       verdict):
    assert legal(api, rules, play, previous, hand, next_cards_left=after) is verdict


@pytest.mark.parametrize("extra,field", [({"next_cards_left": 1}, "hand"),
                                         ({"next_cards_left": 0, "hand": "♠9 ♥K"}, "next_cards_left")])
def test_baodan_max_needs_the_hand_and_a_real_card_count(api, extra, field):
    status, where, _ = refused(api, "check", {"play": "♠9", "rules": BAODAN, **extra})
    assert (status, where) == (422, field)


def test_baodan_max_hint_offers_only_the_largest_single(api):
    assert hinted(api, BAODAN, "♠9 ♥K ♣4", "♠8", next_cards_left=1) == (["♥K"], "♥K")
    assert hinted(api, {"preset": P48}, "♠9 ♥K ♣4", "♠8", next_cards_left=1) == (["♠9", "♥K"], "♠9")


def test_baodan_max_hint_lead_smallest_is_the_pair(api):
    plays, smallest = hinted(api, BAODAN, "♠9 ♥K ♣4 ♦4", next_cards_left=1)
    assert sorted(plays) == sorted(["♣4 ♦4", "♥K"]) and smallest == "♣4 ♦4"


# ==========================================================================
# 7. spade3_first
# ==========================================================================

SPADE3 = {"preset": P48, "spade3_first": True}


@pytest.mark.parametrize("rules,play,hand,first,verdict", [
    (SPADE3, "♥4 ♣4", "♠3 ♥4 ♣4 ♦9", True, False),
    (SPADE3, "♠3 ♥3", "♠3 ♥3 ♦9", True, True),
    (SPADE3, "♠3 ♠4 ♥5 ♣6 ♦7", "♠3 ♠4 ♥5 ♣6 ♦7 ♦9", True, True),
    (SPADE3, "♥4 ♣4", "♠3 ♥4 ♣4 ♦9", False, True),
    ({"preset": P48}, "♥4 ♣4", "♠3 ♥4 ♣4 ♦9", True, True),
    (SPADE3, "♥4 ♣4", "♥4 ♣4 ♦9", True, False),
])
def test_spade3_first_the_first_play_must_hold_spade_three(api, rules, play, hand, first, verdict):
    assert legal(api, rules, play, None, hand, first_play=first) is verdict


def test_spade3_first_hint_finds_the_two_suit_straight_holding_spade_three(api):
    plays, _ = hinted(api, {"preset": ZSY, "spade3_first": True}, "♠3 ♥3 ♠4 ♠5 ♠6 ♠7 ♥7", first_play=True)
    assert "♠3 ♠4 ♠5 ♠6 ♥7" in plays and "♠3 ♠4 ♠5 ♠6 ♠7" in plays


def test_spade3_first_first_play_cannot_follow(api):
    status, field, _ = refused(api, "check", {"play": "♥4 ♣4", "previous": "♠5", "first_play": True,
                                              "rules": SPADE3})
    assert (status, field) == (422, "first_play")


def test_spade3_first_hint_lists_only_plays_with_spade_three(api):
    assert hinted(api, SPADE3, "♠3 ♥4 ♣4", first_play=True) == (["♠3"], "♠3")
    assert hinted(api, {"preset": P48}, "♠3 ♥4 ♣4", first_play=True) == (["♠3", "♥4", "♥4 ♣4"], "♠3")


# ==========================================================================
# 8. full_kickers
# ==========================================================================

FULL = {"preset": P48, "full_kickers": True}


@pytest.mark.parametrize("rules,play,previous,hand,verdict", [
    (FULL, "♠8 ♥8 ♣8 ♠4", None, "♠8 ♥8 ♣8 ♠4 ♥9", False),
    (FULL, "♠8 ♥8 ♣8 ♠4", None, "♠8 ♥8 ♣8 ♠4", True),
    (FULL, "♠8 ♥8 ♣8", None, "♠8 ♥8 ♣8 ♠4 ♥4", False),
    (FULL, "♠8 ♥8 ♣8", None, "♠8 ♥8 ♣8", True),
    (FULL, "♠8 ♥8 ♣8", None, None, False),
    (FULL, "♠8 ♥8 ♣8 ♦3", "♠7 ♥7 ♣7 ♠4 ♥4", "♠8 ♥8 ♣8 ♦3", True),
    ({"preset": P48}, "♠8 ♥8 ♣8 ♦3", "♠7 ♥7 ♣7 ♠4 ♥4", "♠8 ♥8 ♣8 ♦3", False),
    (FULL, "♠8 ♥8 ♣8 ♦3", "♠9 ♥9 ♣9 ♠4 ♥4", "♠8 ♥8 ♣8 ♦3", False),
    (FULL, "♠8 ♥8 ♣8", "♠7 ♥7 ♣7 ♠4 ♥4", "♠8 ♥8 ♣8", True),
    (FULL, "♠8 ♥8 ♣8 ♠4 ♥9", None, "♠8 ♥8 ♣8 ♠4 ♥9 ♦J", True),
    (FULL, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4", None, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9", False),
    (FULL, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4", None, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4", True),
    (FULL, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9", None, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9", True),
    ({"preset": P48}, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9", None, "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9", False),
    ({**FULL, "preset": P52}, "♠A ♥A ♣A", None, "♠A ♥A ♣A ♦9", True),
])
def test_full_kickers_short_triples_only_as_the_last_play(api, rules, play, previous, hand, verdict):
    assert legal(api, rules, play, previous, hand) is verdict


def test_full_kickers_without_hand_the_reason_says_why(api):
    status, out = post(api, "check", {"play": "♠8 ♥8 ♣8", "rules": FULL})
    assert out["legal"] is False and "no hand" in out["reason"]


def test_full_kickers_is_refused_with_two_decks(api):
    status, field, code = refused(api, "check", {"play": "♠3", "rules": {"preset": ZSY, "full_kickers": True}})
    assert (status, field) == (422, "rules.full_kickers") and code != "invalid_option"


def test_full_kickers_hint_a_last_short_triple_answers_three_with_two(api):
    assert hinted(api, FULL, "♠8 ♥8 ♣8 ♦3", "♠7 ♥7 ♣7 ♠4 ♥4") == (["♠8 ♥8 ♣8 ♦3"], "♠8 ♥8 ♣8 ♦3")
    assert hinted(api, {"preset": P48}, "♠8 ♥8 ♣8 ♦3", "♠7 ♥7 ♣7 ♠4 ♥4") == ([], None)


# ==========================================================================
# The listing, and the properties
# ==========================================================================

def test_games_listing_publishes_the_new_options_and_preset(api):
    status, out = api("games", method="GET", lang="en")
    game = next(g for g in out["games"] if g["slug"] == "paodekuai")
    assert P45 in game["presets"]
    options = {o["name"]: o for o in game["options"]}
    assert {k: options[k]["default"] for k in ("bomb_points", "zhaniao", "baopei", "baoben", "baodan_max",
                                                "spade3_first", "full_kickers")} == {
        "bomb_points": 0, "zhaniao": "off", "baopei": False, "baoben": True, "baodan_max": False,
        "spade3_first": False, "full_kickers": False}
    assert options["zhaniao"]["values"] == ["off", "cards", "all"]


@st.composite
def evening_hand(draw):
    """A settle request of any preset with every settle option switched on at random."""
    preset = draw(st.sampled_from([P52, P48, P45, ZSY]))
    info = pdk.PRESETS[preset]
    seats, dealt = info["players"], info["dealt"]
    rules = {"preset": preset, "penalty": draw(st.sampled_from(["seed", "per_card"])),
             "stake": draw(st.integers(1, 100)), "bomb_points": draw(st.integers(0, 100)),
             "baopei": draw(st.booleans()), "baoben": draw(st.booleans())}
    if preset != ZSY:
        rules["zhaniao"] = draw(st.sampled_from(["off", "cards", "all"]))
    winner = draw(st.integers(0, seats - 1))
    left = [0 if i == winner else draw(st.integers(1, dealt)) for i in range(seats)]
    losers = [i for i in range(seats) if i != winner]
    body = {"winner": winner, "cards_left": left, "rules": rules,
            "bombs": [{"seat": s} for s in draw(st.lists(st.integers(0, seats - 1), max_size=4))],
            "heart10": draw(st.integers(0, seats - 1)),
            "let_go": draw(st.one_of(st.none(), st.sampled_from(losers)))}
    return body


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(evening_hand())  # the api fixture holds no state between requests
def test_every_settlement_with_the_new_options_is_zero_sum(api, body):
    status, out = post(api, "settle", body)
    assert status == 200, out
    assert sum(out["deltas"]) == 0


@st.composite
def small_turn(draw):
    """Rules with the turn options at random, a small hand, maybe a table, and the turn."""
    preset = draw(st.sampled_from([P52, P48, P45, ZSY]))
    rules = pdk.RULESET.resolve({"preset": preset, "baodan_max": draw(st.booleans()),
                                 "spade3_first": draw(st.booleans()),
                                 "full_kickers": preset != ZSY and draw(st.booleans())})
    hand, table = few_ranks(draw, rules, most=5)
    spec = pdk.spec_for(rules)
    reading = spec.readings(table)[0] if table and spec.readings(table) else None
    turn = Turn(tuple(hand), draw(st.sampled_from([None, 1, 2])), reading is None and draw(st.booleans()))
    return spec, hand, reading, turn


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_turn())
def test_hint_under_the_turn_options_equals_brute_force(case):
    spec, hand, table, turn = case
    plays = list(legal_plays(spec, hand, table, turn))
    got = {spec.identity(c) for c, _ in plays}
    assert len(got) == len(plays)
    assert got == set(brute_force_plays(spec, hand, table, turn))


@st.composite
def last_triples(draw):
    """牌够只能三带二: hands of few consecutive ranks (triples and planes) against 3带2s and airplanes."""
    rules = pdk.RULESET.resolve({"preset": draw(st.sampled_from([P52, P48])), "full_kickers": True})
    spec = pdk.spec_for(rules)
    start = draw(st.sampled_from([3, 5, 9]))
    pool = [c for c in pdk.deck_for(rules).all_cards() if start <= c.rank < start + 3]
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    rng.shuffle(pool)
    hand = pool[:draw(st.integers(3, 9))]
    table = draw(st.sampled_from([None, "♠4 ♥4 ♣4 ♠Q ♥K", "♠8 ♥8 ♣8 ♠Q ♥Q", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠Q ♥Q ♠K ♥K",
                                  "♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠Q ♥J ♠K ♥A"]))
    reading = spec.readings(parse_cards(table))[0] if table else None
    return spec, hand, reading, Turn(tuple(hand))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(last_triples())
def test_hint_of_short_last_triples_equals_brute_force(case):
    spec, hand, table, turn = case
    plays = list(legal_plays(spec, hand, table, turn))
    assert {spec.identity(c) for c, _ in plays} == set(brute_force_plays(spec, hand, table, turn))


odd = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 12, 10 ** 12), st.floats(allow_nan=False),
                st.text(max_size=8), st.sampled_from(["♠9 ♥9 ♣9 ♦9", "♠3", "1", "cards", "all", "on"]),
                st.lists(st.one_of(st.integers(-2, 5), st.dictionaries(st.sampled_from(["seat", "cards"]),
                                                                        st.one_of(st.integers(-1, 4), st.text(max_size=6),
                                                                                  st.just("♠9 ♥9 ♣9 ♦9")),
                                                                        max_size=2)), max_size=3))
variant_rules = st.dictionaries(st.sampled_from(["preset", "zhaniao", "bomb_points", "baopei", "baoben", "baodan_max",
                                                 "spade3_first", "full_kickers", "penalty"]),
                                st.one_of(odd, st.sampled_from([P45, ZSY, P48, "cards", "all", 10, True])), max_size=4)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(["settle", "check", "hint"]), rules=variant_rules,
       body=st.dictionaries(st.sampled_from(["heart10", "let_go", "bombs", "next_cards_left", "first_play",
                                             "play", "previous", "hand", "winner", "cards_left"]), odd, max_size=6))
def test_no_house_rule_input_gives_a_server_error(api, action, rules, body):
    status, out = post(api, action, {**body, "rules": rules})  # the api fixture holds no state between requests
    assert status < 500, out
    if status >= 400:
        assert out["error"]["code"] and out["error"]["message"]


def test_baoben_off_under_seed_changes_nothing_and_the_steps_say_why(api):
    out = settled(api, {"preset": P52, "baoben": False}, 0, [0, 5, 13, 10])
    assert out["deltas"] == [87, -5, -52, -30]
    assert any("applies to “1 per card, last card free, shut out double” only" in s for s in out["steps"])


def test_spade3_first_hand_without_spade_three_has_no_first_play(api):
    status, out = post(api, "hint", {"hand": "♥4 ♣4 ♦9", "first_play": True, "rules": SPADE3})
    assert out["plays"] == [] and out["smallest"] is None and "no legal lead" in out["reason"]


@st.composite
def spade_three_runs(draw):
    """首出必带黑桃3 in 争上游: a spade run from ♠3 and a few low cards of other suits, so that a straight of
    two suits must be built with ♠3 kept and another card swapped in."""
    rules = pdk.RULESET.resolve({"preset": ZSY, "spade3_first": True})
    spades = parse_cards("♠3 ♠4 ♠5 ♠6 ♠7")
    others = [c for c in pdk.deck_for(rules).all_cards() if 3 <= c.rank <= 8 and c not in spades]
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    hand = [*spades, *rng.sample(others, draw(st.integers(1, 3)))]
    return pdk.spec_for(rules), hand, Turn(tuple(hand), None, True)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spade_three_runs())
def test_hint_of_first_plays_with_spade_three_equals_brute_force(case):
    spec, hand, turn = case
    plays = list(legal_plays(spec, hand, None, turn))
    assert {spec.identity(c) for c, _ in plays} == set(brute_force_plays(spec, hand, None, turn))
