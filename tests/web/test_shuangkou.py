"""双扣 (docs/rules/shuangkou.md): binding examples through the HTTP API, house rules, properties."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import shuangkou as sk
from scoring.cards import BIG_JOKER, LITTLE_JOKER, Card, parse_cards
from scoring.errors import InvalidNotation
from scoring.registry import get_game
from scoring.shedding import brute_force_plays, legal_plays

pytestmark = pytest.mark.shared_app

GAME = get_game("shuangkou")


def check(api, play, previous=None, lang="en", **rules):
    status, out = api("shuangkou/check", {"play": play, "previous": previous, "rules": rules}, lang=lang)
    assert status == 200, out
    return out


def classify(api, cards, lang="en", **rules):
    status, out = api("shuangkou/classify", {"cards": cards, "rules": rules}, lang=lang)
    assert status == 200, out
    return out


def settle(api, order, bombs=(), lang="en", **rules):
    status, out = api("shuangkou/settle", {"finish_order": order, "bombs": list(bombs), "rules": rules}, lang=lang)
    assert status == 200, out
    return out


def rules(**kw):
    return sk.RULESET.resolve(kw)


def readings(cards, **kw):
    return sk.spec_for(rules(**kw)).readings(parse_cards(cards, bare=True))


# ==========================================================================
# Binding examples: settlement
# ==========================================================================

def test_shuangkou_winners_largest_bomb_doubles_and_big_bombs_pay_contribution(api):
    out = settle(api, [0, 2], [{"seat": 0, "cards": "6 6 6 6 6 6"}, {"seat": 1, "cards": "大王 大王 小王 小王"}])
    assert out["deltas"] == [12, 4, 4, -20] and out["outcome"] == "shuangkou" and out["multiplier"] == 4


def test_dankou_five_line_bomb_of_the_winners_doubles(api):
    out = settle(api, [1, 0, 3, 2], [{"seat": 3, "cards": "5 5 5 5 5"}, {"seat": 0, "cards": "4 4 4 4"}])
    assert out["deltas"] == [-4, 4, -4, 4] and out["outcome"] == "dankou" and out["multiplier"] == 2


def test_pingkou_without_bombs_is_plus_one_minus_one(api):
    out = settle(api, [2, 1, 3, 0])
    assert out["deltas"] == [1, -1, 1, -1] and out["outcome"] == "pingkou" and out["multiplier"] == 1


def test_losers_bomb_pays_contribution_but_no_multiplier(api):
    out = settle(api, [1, 3], [{"seat": 2, "lines": 8}])
    assert out["deltas"] == [-13, -7, 27, -7] and out["multiplier"] == 1


def test_nine_lines_is_capped_at_times_sixteen_and_pays_the_eight_line_contribution(api):
    out = settle(api, [0, 2], [{"seat": 0, "cards": "5 5 5 5 5 6 6 6 6 6 7 7 7 7 7 8 8 8 8 8"}])
    assert out["deltas"] == [78, -58, 38, -58] and out["multiplier"] == 16


def test_cap_lines_twelve_keeps_doubling(api):
    out = settle(api, [0, 2], [{"seat": 0, "lines": 9}], cap_lines=12)
    assert out["deltas"] == [126, -106, 86, -106] and out["multiplier"] == 32


def test_settlement_steps_explain_outcome_multiplier_contribution_total(api):
    out = settle(api, [0, 2], [{"seat": 0, "lines": 6}, {"seat": 1, "lines": 7}])
    steps = out["steps"]
    assert "×4" in steps[1] and any("+18" in s and "−6" in s for s in steps) and steps[-1] == "total: seat 1 +12, seat 2 +4, seat 3 +4, seat 4 −20"
    status, zh = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 6}]})
    assert "双扣" in zh["steps"][0] and zh["steps"][-1].startswith("合计")


# ==========================================================================
# Settlement house rules
# ==========================================================================

def test_contribution_1_3_5(api):
    out = settle(api, [1, 3], [{"seat": 2, "lines": 8}], contribution="1-3-5")
    assert out["deltas"] == [-3 - 5, 3 - 5, -3 + 15, 3 - 5]


def test_pingkou_as_a_draw_pays_nothing_before_contributions(api):
    assert settle(api, [2, 1, 3, 0], pingkou="draw")["deltas"] == [0, 0, 0, 0]
    assert settle(api, [2, 1, 3, 0], [{"seat": 2, "lines": 6}], pingkou="draw")["deltas"] == [-2, -2, 6, -2]


def test_pingkou_first_out_team_still_counts_for_the_multiplier(api):
    # reading: 平扣's first-out team is the winning team for the multiplier
    assert settle(api, [2, 1, 3, 0], [{"seat": 0, "lines": 5}])["deltas"] == [2, -2, 2, -2]


def test_a_three_seat_order_decides_pingkou_when_the_partner_is_missing(api):
    assert settle(api, [0, 1, 3])["outcome"] == "pingkou"


def test_four_line_bombs_do_not_double(api):
    assert settle(api, [0, 2], [{"seat": 0, "lines": 4}])["multiplier"] == 1


@pytest.mark.parametrize("body,field,code", [
    ({"finish_order": [0, 0]}, "finish_order[1]", "repeated_seat"),
    ({"finish_order": [0, 4]}, "finish_order[1]", "unknown_seat"),
    ({"finish_order": [0, 1]}, "finish_order", "undecided"),
    ({"finish_order": [0]}, "finish_order", "out_of_range"),
    ({"finish_order": [0, 1, 2, 3, 0]}, "finish_order", "out_of_range"),
    ({"finish_order": [0, 2], "bombs": [{"seat": 0, "cards": "7 7 7 8"}]}, "bombs[0].cards", "not_a_bomb"),
    ({"finish_order": [0, 2], "bombs": [{"seat": 0, "cards": "3 4 5 6 7"}]}, "bombs[0].cards", "not_a_bomb"),
    ({"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 3}]}, "bombs[0].lines", "out_of_range"),
    ({"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 12}]}, "bombs[0].lines", "out_of_range"),
    ({"finish_order": [0, 2], "bombs": [{"seat": 5, "lines": 6}]}, "bombs[0].seat", "unknown_seat"),
])
def test_bad_settle_input_is_a_422_naming_the_field(api, body, field, code):
    status, out = api("shuangkou/settle", body, lang="en")
    assert status == 422, out
    assert out["error"]["field"] == field and out["error"]["code"] == code and out["error"]["message"]


def test_an_undecided_order_asks_for_one_more_seat(api):
    status, out = api("shuangkou/settle", {"finish_order": [0, 1]}, lang="en")
    # seat values 0, 1 are read as 1号位 and 2号位: the partner asked about is value 2, "seat 3"
    assert "seat 3 (partner of seat 1)" in out["error"]["message"] and "third or fourth" in out["error"]["message"]
    assert "seat 1 → seat 2" in out["error"]["message"] and "finish_order" not in out["error"]["message"]


def test_a_bomb_that_is_none_says_what_it_is(api):
    status, out = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [{"seat": 1, "cards": "3 4 5 6 7"}]},
                      lang="en")
    assert "not a bomb" in out["error"]["message"] and "straight" in out["error"]["message"]


@pytest.mark.parametrize("body", [
    {}, {"finish_order": "0 2"}, {"finish_order": [0, "x"]}, {"finish_order": [0, 2], "bombs": {"seat": 0}},
    {"finish_order": [0, 2], "bombs": [5]}, {"finish_order": [0, 2], "bombs": [{"lines": 5}]},
    {"finish_order": [0, 2], "bombs": [{"seat": 0}]}, {"finish_order": [0, 2], "bombs": [{"seat": 0, "cards": 7}]},
    {"finish_order": [0, 2], "bombs": [{"seat": 0, "cards": "7 7 X 7"}]},
])
def test_malformed_settle_input_is_a_400(api, body):
    status, out = api("shuangkou/settle", body)
    assert status == 400 and out["error"]["code"]


def test_all_bombs_of_a_hand_must_fit_in_two_packs(api):
    status, out = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [
        {"seat": 0, "cards": "7 7 7 7 7"}, {"seat": 1, "cards": "7 7 7 7"}]}, lang="en")
    assert status == 422 and out["error"]["field"] == "bombs" and "at most 8" in out["error"]["message"]


# ==========================================================================
# Binding examples: plays
# ==========================================================================

@pytest.mark.parametrize("previous,play", [
    ("大王 小王 小王", "♠6 ♥6 ♣6 ♦6 ♠6 ♥6"),
    ("♠2 ♥2 ♣2 ♦2 ♠2 ♥2", "大王 大王 小王 小王"),
    ("大王 大王 小王 小王", "5 5 5 5 6 6 6 6 7 7 7 7"),
    ("5 5 5 5 6 6 6 6 7 7 7 7", "9 9 9 9 9 9 9"),
    ("A A A A", "3 3 3 3 3"),
    ("7 7 7 7 7", "8 8 8 8 8"),
    ("Q Q Q Q Q K K K K K A A A A A", "3 3 3 3 3 3 3 3"),
    ("4 4 5 5 6 6", "7 7 8 9 9 大王"),
    ("3 4 5 6 7 8", "4 5 6 7 8 大王"),
])
def test_bomb_order_and_wild_readings_binding_legal(api, previous, play):
    assert check(api, play, previous)["legal"]


def test_six_of_a_kind_beats_three_jokers_the_lowest_six_line_bomb(api):
    out = check(api, "♠6 ♥6 ♣6 ♦6 ♠6 ♥6", "大王 小王 小王")
    assert out["reading"]["lines"] == 6 and out["table"]["kind"] == "three_jokers"


def test_equal_lines_equal_cards_lower_rank_does_not_beat(api):
    out = check(api, "7 7 7 7 7", "8 8 8 8 8")
    assert not out["legal"] and "equal lines" in out["reason"]


def test_two_is_never_in_a_chain(api):
    out = check(api, "K K K K A A A A 2 2 2 2")
    assert not out["legal"] and "2" in out["reason"]


@pytest.mark.parametrize("play,legal", [("10 J Q K A", True), ("J Q K A 2", False), ("5 5 6 6", False),
                                        ("5 5 5 6 6 6", False)])
def test_leads_straight_to_ace_no_two_pair_run_of_three_triple_run_of_three(api, play, legal):
    assert check(api, play)["legal"] is legal


def test_seven_with_a_joker_reads_as_77_and_does_not_beat_99(api):
    out = check(api, "7 大王", "9 9")
    assert not out["legal"] and out["reading"]["kind"] == "pair" and out["reading"]["top"] == "7"


# ==========================================================================
# Binding examples: readings of jokers
# ==========================================================================

@pytest.mark.parametrize("cards,kind,shown", [
    ("♠7 ♥7 ♣7 ♦7 大王", "bomb", "7 7 7 7 7"),
    ("4 5 6 7 8 大王", "straight", "4 5 6 7 8 9"),
    ("7 7 8 9 9 大王", "pair_run", "7 7 8 8 9 9"),
    ("7 7 8 9 大王 大王", "pair_run", "7 7 8 8 9 9"),
    ("大王 2 2 2", "bomb", "2 2 2 2"),
    ("3 3 4 4 5 大王", "pair_run", "3 3 4 4 5 5"),
    ("5 6 7 9 大王", "straight", "5 6 7 8 9"),
    ("3 3 3 3 4 4 4 4 5 5 5 大王", "chain", "3 3 3 3 4 4 4 4 5 5 5 5"),
])
def test_jokers_are_wild_and_the_larger_reading_comes_first(api, cards, kind, shown):
    out = classify(api, cards)
    assert out["valid"] and out["readings"][0]["kind"] == kind and out["readings"][0]["as"] == shown


def test_456789_with_a_joker_also_reads_as_345678_but_456789_first(api):
    out = classify(api, "4 5 6 7 8 大王")
    assert [r["as"] for r in out["readings"]] == ["4 5 6 7 8 9", "3 4 5 6 7 8"]
    assert out["readings"][0]["wild_as"] == ["9"] and out["readings"][0]["top"] == "9"


def test_3344_with_a_joker_is_no_pattern(api):
    out = classify(api, "3 3 4 4 大王")
    assert not out["valid"] and out["readings"] == []


def test_chain_of_three_fours_is_seven_lines(api):
    out = classify(api, "3 3 3 3 4 4 4 4 5 5 5 大王")
    assert out["readings"][0]["lines"] == 7 and out["readings"][0]["chain"] == {"x": 4, "y": 3}


def test_jokers_alone_are_themselves(api):
    assert classify(api, "大王")["readings"][0]["kind"] == "single"
    assert classify(api, "小王 小王")["readings"][0]["kind"] == "pair"
    assert not classify(api, "大王 小王")["valid"]
    assert classify(api, "大王 小王 小王")["readings"][0]["kind"] == "three_jokers"
    assert classify(api, "大王 大王 小王 小王")["readings"][0]["lines"] == 7


def test_a_lead_shows_every_reading_largest_first(api):
    out = check(api, "3 大王 大王 小王 小王")
    assert out["legal"] and out["reading"]["kind"] == "bomb" and "other readings" in out["reason"]
    kinds = [r["kind"] for r in classify(api, "3 大王 大王 小王 小王")["readings"]]
    assert kinds == ["bomb", "straight"] and [r["kind"] for r in out["readings"]] == kinds


def test_every_distinct_reading_of_a_play_with_jokers():
    # 5 6 + two jokers: 5566 is no pair run (needs 3), but 456 / 567 / 5678? no: 4 cards → 5 5 6 6? no pattern
    assert readings("5 6 大王 大王") == []
    got = {(r.kind, r.extra["as"]) for r in readings("6 7 8 大王 小王")}
    assert got == {("straight", "4 5 6 7 8"), ("straight", "5 6 7 8 9"), ("straight", "6 7 8 9 10")}
    tops = [r.key for r in readings("6 7 8 大王 小王")]
    assert tops == sorted(tops, reverse=True)


def test_bare_ranks_and_suits_mean_the_same_play(api):
    assert classify(api, "♠7 ♥7 ♣7")["readings"][0]["kind"] == "triple"
    assert classify(api, "7 7 7")["cards"] == "7 7 7"
    assert check(api, "8 8 8", "♠7 ♥7 ♣7")["legal"]


def test_a_play_over_27_cards_is_no_pattern(api):
    out = classify(api, " ".join(["5"] * 5 + ["6"] * 5 + ["7"] * 5 + ["8"] * 5 + ["9"] * 5 + ["10"] * 5))
    assert not out["valid"] and "27" in out["reason"]


def test_too_many_copies_across_table_and_hand(api):
    status, out = api("shuangkou/check", {"play": "7 7 7 7 7", "previous": "7 7 7 7", "hand": "7 7 7 7 7"},
                      lang="en")
    assert status == 422 and "at most 8" in out["error"]["message"]
    status, out = api("shuangkou/check", {"play": "大王 大王 大王"}, lang="en")
    assert status == 422 and "大王" in out["error"]["message"] and "at most 2" in out["error"]["message"]


# ==========================================================================
# House rules of play
# ==========================================================================

def test_baibian_only_big_joker_is_wild():
    assert readings("7 7 7 大王", preset="baibian")[0].extra["lines"] == 4
    assert readings("7 7 7 小王", preset="baibian") == []
    assert readings("小王 小王 大王", preset="baibian")[0].kind == "three_jokers"


def test_wild_none_jokers_only_as_themselves():
    assert readings("7 7 7 大王", wild="none") == []
    assert readings("大王 大王", wild="none")[0].kind == "pair"


def test_same_lines_first_played_only_more_lines_beat(api):
    assert not check(api, "8 8 8 8 8", "7 7 7 7 7", same_lines="first_played")["legal"]
    assert not check(api, "9 9 9 9 9 9 9", "5 5 5 5 6 6 6 6 7 7 7 7", same_lines="first_played")["legal"]
    assert check(api, "3 3 3 3 3 3", "A A A A A", same_lines="first_played")["legal"]


def test_chain_with_two_wraps_and_is_the_lowest_of_its_lines_and_size(api):
    assert check(api, "K K K K A A A A 2 2 2 2", chain_with_two=True)["legal"]
    assert check(api, "A A A A 2 2 2 2 3 3 3 3", chain_with_two=True)["legal"]
    assert check(api, "3 3 3 3 4 4 4 4 5 5 5 5", "2 2 2 2 3 3 3 3 4 4 4 4", chain_with_two=True)["legal"]
    assert not check(api, "2 2 2 2 3 3 3 3 4 4 4 4", "3 3 3 3 4 4 4 4 5 5 5 5", chain_with_two=True)["legal"]
    assert check(api, "A A A A 2 2 2 2 3 3 3 3", "K K K K A A A A 2 2 2 2", preset="baibian")["legal"]


def test_uneven_chain_smallest_group_sets_the_lines(api):
    assert not check(api, "4 4 4 4 5 5 5 5 5 6 6 6 6 6 6")["legal"]
    out = check(api, "4 4 4 4 5 5 5 5 5 6 6 6 6 6 6", preset="qianbian")
    assert out["legal"] and out["reading"]["lines"] == 7 and out["reading"]["chain"]["x"] == 4


def test_uneven_chain_with_jokers_lists_every_smallest_group():
    lines = [r.extra["lines"] for r in readings("4 4 4 4 5 5 5 5 6 6 6 6 大王 大王 小王", preset="qianbian")]
    assert lines == [8, 7]


def test_min_triple_run_two_allows_555666(api):
    assert check(api, "5 5 5 6 6 6", min_triple_run=2)["legal"]


# ==========================================================================
# Hints
# ==========================================================================

def hint(api, hand, previous=None, **extra):
    status, out = api("shuangkou/hint", {"hand": hand, "previous": previous, **extra})
    assert status == 200, out
    return out


def test_hint_lists_each_joker_assignment_once(api):
    out = hint(api, "4 5 6 7 大王", "3 4 5 6 7")
    assert out["plays"] == ["4 5 6 7 大王"]  # read as 45678 (or 34567, which does not beat)


def test_hint_smallest_beats_the_table_and_null_means_pass(api):
    out = hint(api, "9 9 J J 大王", "8 8")
    assert out["plays"][:3] == ["9 9", "9 大王", "J J"] and out["smallest"] == "9 9"  # deciding rank first
    assert hint(api, "3 4", "2")["smallest"] is None


def test_hint_lead_is_cut_at_the_default_limit_with_truncated(api):
    hand = "大王 大王 小王 小王 2 2 A A K Q Q J 10 10 9 9 8 8 7 7 6 5 5 4 4 3 3"
    out = hint(api, hand)
    assert out["truncated"] is True and len(out["plays"]) == 200 and out["smallest"] == "3"
    more = hint(api, hand, limit=400)
    assert more["plays"][:200] == out["plays"]


def test_hint_against_a_straight_from_a_27_card_hand_is_complete_and_smallest_first(api):
    hand = "大王 大王 小王 小王 2 2 A A K Q Q J 10 10 9 9 8 8 7 7 6 5 5 4 4 3 3"
    out = hint(api, hand, "3 4 5 6 7")
    assert out["truncated"] is False and out["smallest"] == "4 5 6 7 8"
    assert len(out["plays"]) == len(set(out["plays"]))
    for play in out["plays"][:60] + out["plays"][-20:]:
        assert check(api, play, "3 4 5 6 7")["legal"]


def test_games_listing_has_shuangkou_options_and_presets(api):
    status, out = api("games", method="GET")
    game = next(g for g in out["games"] if g["slug"] == "shuangkou")
    assert game["presets"] == ["seed", "baibian", "qianbian"]
    assert {o["name"] for o in game["options"]} == {"wild", "same_lines", "chain_with_two", "uneven_chain",
                                                    "cap_lines", "contribution", "pingkou", "min_triple_run",
                                                    "wild_over_eight"}
    assert all(o["label"] and o["help"] for o in game["options"])
    assert GAME.bare_ranks and GAME.deck(rules()).size == 108 and sk.pattern_texts(rules())


# ==========================================================================
# Properties
# ==========================================================================

RANK_POOL = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2]
RULE_SETS = [{}, {"preset": "baibian"}, {"preset": "qianbian"}, {"wild": "none"}, {"min_triple_run": 2},
             {"same_lines": "first_played"}, {"wild_over_eight": True},
             {"preset": "baibian", "wild_over_eight": True}, {"wild_over_eight": True, "same_lines": "first_played"}]


@st.composite
def small_hand(draw, max_cards=9):
    ranks = draw(st.lists(st.sampled_from(RANK_POOL), min_size=1, max_size=3, unique=True))
    cards = []
    for r in ranks:
        cards += [Card(r)] * draw(st.integers(1, 5))
    cards += [Card(LITTLE_JOKER)] * draw(st.integers(0, 2)) + [Card(BIG_JOKER)] * draw(st.integers(0, 2))
    cards = cards[:max_cards]
    return cards


@st.composite
def table_play(draw):
    kind = draw(st.sampled_from(["none", "single", "pair", "straight", "pair_run", "bomb", "chain", "jokers"]))
    r = draw(st.sampled_from(RANK_POOL[:-1]))
    text = {
        "none": None, "single": str(r if r < 11 else "JQKA"[r - 11]), "pair": None, "straight": "3 4 5 6 7",
        "pair_run": "3 3 4 4 5 5", "bomb": "6 6 6 6", "chain": "3 3 3 3 4 4 4 4 5 5 5 5", "jokers": "大王 小王 小王",
    }[kind]
    if kind == "pair":
        text = draw(st.sampled_from(["5 5", "9 9", "K K", "2 2"]))
    return text


def fits(hand, previous):
    together = list(hand) + (list(parse_cards(previous, bare=True)) if previous else [])
    try:
        sk.DECK.check(together)
    except InvalidNotation:
        return False
    return True


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hand(), table_play(), st.sampled_from(RULE_SETS))
def test_hint_equals_brute_force_enumeration_of_every_sub_multiset(hand, previous, rule_set):
    r = rules(**rule_set)
    table = sk.spec_for(r).readings(parse_cards(previous, bare=True))[0] if previous else None
    plays = list(legal_plays(sk.spec_for(r), hand, table))
    got = [sk.spec_for(r).identity(c) for c, _ in plays]
    assert len(got) == len(set(got)), "a play listed twice"
    assert set(got) == set(brute_force_plays(sk.spec_for(r), hand, table))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hand(max_cards=12), table_play(), st.sampled_from(RULE_SETS))
def test_every_hinted_play_passes_check_and_smallest_is_first(hand, previous, rule_set):
    assume(fits(hand, previous))
    text = " ".join(map(str, hand))
    out = GAME.run("hint", {"hand": text, "previous": previous, "rules": rule_set, "limit": 5000})
    for play in out["plays"]:
        verdict = GAME.run("check", {"play": play, "previous": previous, "hand": text, "rules": rule_set})
        assert verdict["legal"], (play, verdict["reason"])
    assert out["smallest"] == (out["plays"][0] if out["plays"] else None)


def _key(play, previous, hand):
    from scoring.shedding import preference
    spec = sk.spec_for(rules())
    table = spec.readings(parse_cards(previous, bare=True))[0] if previous else None
    return preference(spec, parse_cards(play, bare=True), table, None, hand)


@settings(max_examples=examples(40), deadline=None)
@given(small_hand(max_cards=12), table_play())
def test_hint_is_smallest_first(hand, previous):
    assume(fits(hand, previous))
    out = GAME.run("hint", {"hand": " ".join(map(str, hand)), "previous": previous})
    keys = [_key(p, previous, hand) for p in out["plays"]]
    assert keys == sorted(keys)


@st.composite
def settle_input(draw):
    first = draw(st.permutations([0, 1, 2, 3]))
    n = draw(st.integers(2, 4))
    order = list(first[:n])
    partner = (order[0] + 2) % 4
    if n == 2 and order[1] != partner:
        order.append(draw(st.sampled_from([s for s in range(4) if s not in order])))
    rule_set = draw(st.fixed_dictionaries({}, optional={
        "cap_lines": st.integers(8, 12), "contribution": st.sampled_from(["seed", "1-3-5", "doubling"]),
        "pingkou": st.sampled_from(["table", "draw"]), "wild_over_eight": st.booleans()}))
    over_eight = rule_set.get("wild_over_eight", False)
    bombs = [{"seat": draw(st.integers(0, 3)), "lines": draw(st.integers(4, 12 if over_eight else 11))}
             for _ in range(draw(st.integers(0, 3)))]
    # bombs as cards: distinct ones, which fit in two packs together
    pool = (["4 4 4 4", "9 9 9 9 9 9", "3 3 3 3 4 4 4 4 5 5 5 5", "A A A A A A A A 大王 大王 小王",
             "6 6 6 6 6 6 6 6 小王"] if over_eight else
            ["4 4 4 4", "9 9 9 9 9 9", "大王 小王 小王", "3 3 3 3 4 4 4 4 5 5 5 5", "A A A A A A A 大王"])
    for cards in draw(st.lists(st.sampled_from(pool), unique=True)):
        bombs.append({"seat": draw(st.integers(0, 3)), "cards": cards})
    bombs = draw(st.permutations(bombs))
    return order, bombs, rule_set


@settings(max_examples=examples(200), deadline=None)
@given(settle_input())
def test_every_settlement_is_zero_sum(case):
    order, bombs, rule_set = case
    out = GAME.run("settle", {"finish_order": order, "bombs": bombs, "rules": rule_set})
    assert sum(out["deltas"]) == 0 and out["outcome"] in ("shuangkou", "dankou", "pingkou")


def brute_force_multisets(hand, table, r):
    """Every sub-multiset of a bare-rank hand (by counts, not by positions), judged by the readings."""
    from itertools import product

    from scoring.shedding import judge
    counts = sorted({c.rank: hand.count(c) for c in hand}.items())
    found = set()
    for pick in product(*(range(n + 1) for _, n in counts)):
        cards = [Card(rank) for (rank, _), k in zip(counts, pick) for _ in range(k)]
        if cards and judge(sk.spec_for(r), cards, table) is not None:
            found.add(sk.spec_for(r).identity(cards))
    return found


@st.composite
def chain_hand(draw):
    start = draw(st.sampled_from([2, 3, 9, 12]))
    ranks = [((start - 2 + i) % 13) + 2 for i in range(draw(st.integers(3, 4)))]
    cards = [Card(rank) for rank in ranks for _ in range(draw(st.integers(2, 6)))]
    cards += [Card(LITTLE_JOKER)] * draw(st.integers(0, 2)) + [Card(BIG_JOKER)] * draw(st.integers(0, 2))
    return cards


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_hand(), st.sampled_from([None, "3 3 3 3 3", "大王 大王 小王 小王", "3 3 3 3 4 4 4 4 5 5 5 5", "7 7"]),
       st.sampled_from([{}, {"preset": "baibian"}, {"preset": "qianbian"}, {"same_lines": "first_played"}]))
def test_hint_equals_brute_force_on_chain_sized_hands_with_jokers(hand, previous, rule_set):
    assume(fits(hand, previous))
    r = rules(**rule_set)
    table = sk.spec_for(r).readings(parse_cards(previous, bare=True))[0] if previous else None
    plays = list(legal_plays(sk.spec_for(r), hand, table))
    got = [sk.spec_for(r).identity(c) for c, _ in plays]
    assert len(got) == len(set(got))
    assert set(got) == brute_force_multisets(hand, table, r)


@st.composite
def over_eight_hand(draw):
    """Many of one rank and the jokers (bombs past eight of a kind), and a few cards of a second rank."""
    main, other = draw(st.sampled_from([(4, 9), (8, 3), (14, 2), (2, 14)]))
    cards = [Card(main)] * draw(st.integers(4, 8)) + [Card(other)] * draw(st.integers(0, 3))
    cards += [Card(LITTLE_JOKER)] * draw(st.integers(0, 2)) + [Card(BIG_JOKER)] * draw(st.integers(0, 2))
    return cards


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(over_eight_hand(), st.sampled_from([None, "5 5 5 5 5 5 5 5", "6 6 6 6 6 6 6 6 大王", "大王 大王 小王 小王",
                                           "5 5 5 5 5 5 5 5 6 6 6 6 6 6 6 6 7 7 7 7 7 7 7 7", "7 7"]),
       st.sampled_from([{"wild_over_eight": True}, {"wild_over_eight": True, "preset": "baibian"},
                        {"wild_over_eight": True, "same_lines": "first_played"}, {"wild_over_eight": True,
                                                                                   "wild": "none"}]))
def test_hint_equals_brute_force_with_wild_jokers_past_eight_of_a_kind(hand, previous, rule_set):
    assume(fits(hand, previous))
    r = rules(**rule_set)
    found = sk.spec_for(rules(wild_over_eight=True)).readings(parse_cards(previous, bare=True)) if previous else None
    assume(found != [])
    table = found[0] if found else None
    plays = list(legal_plays(sk.spec_for(r), hand, table))
    got = [sk.spec_for(r).identity(c) for c, _ in plays]
    assert len(got) == len(set(got))
    assert set(got) == brute_force_multisets(hand, table, r)


def test_a_hand_holds_at_most_27_cards(api):
    status, out = api("shuangkou/hint", {"hand": " ".join(["3", "4", "5", "6", "7", "8", "9"] * 4)}, lang="en")
    assert status == 422 and out["error"]["code"] == "hand_too_large" and "27" in out["error"]["message"]


def test_uneven_chain_hint_with_a_rank_only_the_jokers_fill(api):
    """qianbian: a chain window whose middle rank is all jokers (no natural 8s) still hints."""
    status, out = api("shuangkou/hint", {"hand": "9 9 9 9 10 10 10 10 J J Q Q 小王 小王 大王 大王",
                                         "rules": {"preset": "qianbian"}})
    assert status == 200 and out["plays"]
