"""The trick-taking core (scoring/trick/): following obligations, throws, winners, hints.

Scenarios go through the HTTP API and are named after the rule they check;
the properties (hint ⊆ check, hint == brute force, 托管 passes check,
zero-sum settlements, no 500) use hypothesis.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import erqiwang, hongwu
from scoring.cards import BIG, LITTLE, SUITS, Card, Suit, parse_cards
from scoring.errors import InvalidNotation
from scoring.plays import FOLLOW_LIMIT, LEAD_LIMIT, MAX_LIMIT
from scoring.registry import get_game
from scoring.rules import Rules
from scoring.trick import (
    TRUMP,
    Context,
    ThrowCompare,
    ThrowRule,
    check_deck,
    check_follow,
    check_lead,
    decompose,
    legal_plays,
    smallest,
    winner,
)


def check(api, game="hongwu", lang="en", **body):
    status, out = api(f"{game}/check", body, lang=lang)
    assert status == 200, out
    return out


# -- suit following ------------------------------------------------------------

def test_must_follow_the_led_suit_when_holding_it(api):
    out = check(api, trump="♠", lead="♣A", hand="♣4 ♥K", play="♥K")
    assert out["legal"] is False
    assert "♣" in out["reason"]


def test_short_in_the_led_suit_must_play_all_of_it_and_fill_with_anything(api):
    assert check(api, trump="♠", lead="♣K ♣K", hand="♣4 ♥4 ♦6", play="♥4 ♦6")["legal"] is False
    assert check(api, trump="♠", lead="♣K ♣K", hand="♣4 ♥4 ♦6", play="♣4 ♦6")["legal"] is True


def test_void_in_the_led_suit_may_discard_or_ruff(api):
    assert check(api, trump="♠", lead="♣K", hand="♥4 ♠6", play="♥4")["legal"] is True
    assert check(api, trump="♠", lead="♣K", hand="♥4 ♠6", play="♠6")["legal"] is True


def test_trump_lead_must_be_followed_by_any_trump_including_red_five_jokers_and_twos(api):
    out = check(api, trump="♠", lead="♠A", hand="♥5 ♣4", play="♣4")
    assert out["legal"] is False and "trump" in out["reason"]
    assert check(api, trump="♠", lead="♠A", hand="♦2 ♣4", play="♦2")["legal"] is True


def test_play_must_have_as_many_cards_as_the_lead(api):
    out = check(api, trump="♠", lead="♣K ♣K", hand="♣9 ♣9 ♣4", play="♣9")
    assert out["legal"] is False and "2" in out["reason"]


# -- shape following -------------------------------------------------------------

def test_pair_lead_must_be_followed_by_pair_when_holding_one(api):
    out = check(api, trump="♠", lead="♣K ♣K", hand="♣9 ♣9 ♣4 ♥A", play="♣9 ♣4")
    assert out["legal"] is False
    assert out["reason"] == "you hold a ♣ pair and must follow with a pair"


def test_pair_lead_without_a_pair_may_be_followed_by_two_singles(api):
    assert check(api, trump="♠", lead="♣K ♣K", hand="♣9 ♣8 ♣4", play="♣9 ♣4")["legal"] is True


def test_tractor_lead_must_be_followed_by_tractor_when_holding_one(api):
    out = check(api, trump="♠", lead="♣K ♣K ♣Q ♣Q", hand="♣9 ♣9 ♣8 ♣8 ♣4 ♣4", play="♣9 ♣9 ♣4 ♣4")
    assert out["legal"] is False
    assert out["reason"] == "you hold a ♣ tractor and must follow with a tractor"
    assert check(api, trump="♠", lead="♣K ♣K ♣Q ♣Q", hand="♣9 ♣9 ♣8 ♣8 ♣4 ♣4",
                 play="♣9 ♣9 ♣8 ♣8")["legal"] is True


def test_tractor_lead_without_tractor_must_be_followed_by_pairs(api):
    out = check(api, trump="♠", lead="♣K ♣K ♣Q ♣Q", hand="♣9 ♣9 ♣6 ♣4 ♣4", play="♣9 ♣9 ♣6 ♣4")
    assert out["legal"] is False
    assert "2" in out["reason"] and "pairs" in out["reason"]
    assert check(api, trump="♠", lead="♣K ♣K ♣Q ♣Q", hand="♣9 ♣9 ♣6 ♣4 ♣4",
                 play="♣9 ♣9 ♣4 ♣4")["legal"] is True


def test_tractor_lead_with_one_pair_must_include_that_pair(api):
    out = check(api, trump="♠", lead="♣K ♣K ♣Q ♣Q", hand="♣9 ♣9 ♣6 ♣4 ♣5", play="♣9 ♣6 ♣4 ♣5", lang="zh")
    assert out["legal"] is False
    assert out["reason"] == "你有♣对子，必须跟对"


def test_throw_is_followed_unit_by_unit_longest_first(api):
    # lead: pair ♣A♣A + single ♣K (a throw); the follower holds a pair and must use it
    out = check(api, trump="♠", lead="♣A ♣A ♣K", hand="♣9 ♣9 ♣8 ♣4", play="♣9 ♣8 ♣4")
    assert out["legal"] is False
    assert "throw" in out["reason"] and "pair" in out["reason"]
    assert check(api, trump="♠", lead="♣A ♣A ♣K", hand="♣9 ♣9 ♣8 ♣4", play="♣9 ♣9 ♣4")["legal"] is True


def test_follow_shape_off_only_asks_for_the_suit(api):
    out = check(api, trump="♠", lead="♣K ♣K", hand="♣9 ♣9 ♣4 ♥A", play="♣9 ♣4", rules={"follow_shape": False})
    assert out["legal"] is True


def test_erqiwang_always_follows_shape_seed_binding(api):
    out = check(api, "erqiwang", trump="♠", lead="♣K ♣K", hand="♣9 ♣9 ♣4 ♥A", play="♣9 ♣4")
    assert out["legal"] is False


def test_erqiwang_tractor_of_trump_levels_must_be_followed_by_trump_tractor(api):
    out = check(api, "erqiwang", trump="♠", lead="大王 大王 小王 小王",
                hand="♠7 ♠7 ♥7 ♥7 ♠4 ♠3", play="♠7 ♠7 ♠4 ♠3")
    assert out["legal"] is False and "tractor" in out["reason"]


# -- trick winners ------------------------------------------------------------------

def test_discard_never_wins(api):
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣6", "♥A", "♦A", "♣4"]})
    assert out["winner"] == 0


def test_ruff_beats_any_plain_card_and_over_ruff_beats_the_ruff(api):
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣A", "♠4", "♣K", "大王"]})
    assert out["winner"] == 3


def test_equal_ruffs_first_played_wins(api):
    _, out = api("erqiwang/trick", {"trump": "♠", "plays": ["♣A", "♥7", "♦7", "♣3"]})
    assert out["winner"] == 1


def test_tractor_ruff_must_be_a_tractor(api):
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣5 ♣5 ♣6 ♣6", "♠4 ♠4 ♠9 ♠9", "♠6 ♠6 ♠7 ♠7"]})
    assert out["winner"] == 2


def test_throw_is_compared_by_its_longest_unit_under_the_house_rule(api):
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣A ♣K ♣K", "♠3 ♠4 ♠4", "♠A ♠J ♠J"],
                                  "rules": {"throw_compare": "longest_unit"}})
    assert out["winner"] == 2
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣K ♣K ♣A", "♠6 ♠6 ♠7", "♠4 ♠4 ♠A"],
                                  "rules": {"throw_compare": "longest_unit"}})
    assert out["winner"] == 1


def test_throw_ruffs_compare_by_their_highest_card_by_default(api):
    """common.md: for a throw, plays are compared by their highest single card of the matching shape."""
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣K ♣K ♣A", "♠6 ♠6 ♠7", "♠4 ♠4 ♠A"]})
    assert out["winner"] == 2


def test_throw_with_only_some_other_hands_given_is_undecided(api):
    body = {"trump": "♠", "lead": None, "play": "♣Q ♣Q ♣A", "hand": "♣Q ♣Q ♣A ♥4", "others": ["♥9", "♦9"]}
    _, out = api("hongwu/check", body)
    assert out["legal"] is None
    _, out = api("hongwu/check", {**body, "others": []})
    assert out["legal"] is None
    _, out = api("hongwu/check", {**body, "others": ["♥9", "♦9", "♣K ♣K"]})
    assert out["legal"] is False
    _, out = api("hongwu/check", {**body, "others": ["♥9", "♦9", "♠3"]})
    assert out["legal"] is True


def test_trump_throw_with_only_some_other_hands_given_is_undecided(api):
    body = {"trump": "♠", "lead": None, "play": "♠3 ♠3 ♠A", "hand": "♠3 ♠3 ♠A ♥4", "others": ["♥9", "♦9"]}
    _, out = api("erqiwang/check", body)
    assert out["legal"] is None
    _, out = api("erqiwang/check", {**body, "others": ["♥9", "♦9", "♣9"]})
    assert out["legal"] is True


def test_follow_reasons_name_trumps_without_a_doubled_word(api):
    _, out = api("erqiwang/check", {"trump": "♠", "lead": "♠3", "play": "♥4", "hand": "♥7 ♥4"})
    assert out["legal"] is False and "主牌牌" not in out["reason"] and "主牌" in out["reason"]


def test_trick_plays_must_have_equal_length(api):
    status, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣A ♣A", "♣5"]})
    assert status == 422 and out["error"]["field"] == "plays[1]"


def test_trick_lead_from_two_groups_is_rejected(api):
    status, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣A ♦A", "♣5 ♣4"]})
    assert status == 422 and out["error"]["field"] == "plays[0]"


# -- throws -------------------------------------------------------------------------

def test_hongwu_throw_without_other_hands_is_undecided_and_names_units_to_check(api):
    out = check(api, trump="♠", hand="♣A ♣Q ♣Q ♣5", play="♣A ♣Q ♣Q")
    assert out["legal"] is None
    assert "♣Q ♣Q" in out["reason"]


def test_hongwu_throw_that_no_outside_card_can_beat_stands(api):
    out = check(api, trump="♠", hand="♣A ♣A ♣K ♣5", play="♣A ♣A ♣K")
    assert out["legal"] is True


def test_hongwu_failed_throw_names_the_beaten_unit_the_beater_and_what_to_play(api):
    out = check(api, trump="♠", hand="♣A ♣Q ♣Q ♣5", play="♣A ♣Q ♣Q", others=["♥3", "♣K ♣K", "♦4"])
    assert out["legal"] is False
    assert "♣Q ♣Q" in out["reason"] and "♣K ♣K" in out["reason"] and "others[1]" in out["reason"]


def test_hongwu_throw_nobody_can_beat_stands_with_other_hands(api):
    out = check(api, trump="♠", hand="♣A ♣Q ♣Q ♣5", play="♣A ♣Q ♣Q", others=["♥3", "♣K ♣J", "♦4"])
    assert out["legal"] is True


def test_erqiwang_may_throw_only_trumps(api):
    out = check(api, "erqiwang", trump="♠", hand="♣A ♣A ♣K", play="♣A ♣A ♣K")
    assert out["legal"] is False and "trump" in out["reason"]


def test_erqiwang_trump_throw_only_when_nobody_else_holds_trump(api):
    out = check(api, "erqiwang", trump="♠", hand="♠A ♠A ♠K", play="♠A ♠A ♠K", others=["♥3", "♣4 ♦7", "♦4"])
    assert out["legal"] is False and "♦7" in out["reason"]
    out = check(api, "erqiwang", trump="♠", hand="♠A ♠A ♠K", play="♠A ♠A ♠K", others=["♥3", "♣4", "♦4"])
    assert out["legal"] is True
    assert check(api, "erqiwang", trump="♠", hand="♠A ♠A ♠K", play="♠A ♠A ♠K")["legal"] is None


def test_single_unit_leads_are_always_legal(api):
    assert check(api, trump="♥", hand="♥5 ♥5 ♣3", play="♥5 ♥5")["legal"] is True
    assert check(api, trump="♥", hand="♥4 ♥4 ♥6 ♥6", play="♥4 ♥4 ♥6 ♥6")["legal"] is True


def test_lead_from_two_groups_is_illegal(api):
    assert check(api, trump="♥", hand="♣4 ♦4", play="♣4 ♦4")["legal"] is False


# -- input checks ----------------------------------------------------------------------

@pytest.mark.parametrize("trump", ["♠", "S", "s", "黑桃", "spades", "♤"])
def test_trump_accepts_symbols_letters_and_names(api, trump):
    status, out = api("hongwu/trick", {"trump": trump, "plays": ["♣A", "♠4"]})
    assert status == 200 and out["winner"] == 1


@pytest.mark.parametrize("trump", ["X", "♠♥", 7, "", None, "王"])
def test_bad_trump_gets_an_error_naming_it(api, trump):
    status, out = api("hongwu/trick", {"trump": trump, "plays": ["♣A", "♠4"]}, lang="en")
    assert status == 400
    assert out["error"]["field"] == "trump"
    if isinstance(trump, str) and trump:
        assert trump in out["error"]["message"]


def test_cards_in_trick_games_need_suits(api):
    status, out = api("hongwu/check", {"trump": "♠", "hand": "9 9", "play": "9"}, lang="en")
    assert status == 422 and out["error"]["code"] == "suit_required"


def test_all_cards_of_a_request_are_checked_together_against_the_decks(api):
    status, out = api("hongwu/check", {"trump": "♠", "lead": "♣A", "hand": "♣A ♣5", "play": "♣5",
                                       "others": ["♣A"]}, lang="en")
    assert status == 422
    assert "♣A" in out["error"]["message"] and "2" in out["error"]["message"]


def test_play_must_come_out_of_the_hand(api):
    status, out = api("hongwu/check", {"trump": "♠", "lead": "♣A", "hand": "♣4 ♣5", "play": "♣6"}, lang="en")
    assert status == 422 and out["error"]["code"] == "not_in_hand"


@pytest.mark.parametrize("game", ["hongwu", "erqiwang"])
@pytest.mark.parametrize("action", ["classify", "check", "trick", "hint", "settle", "bidding"])
def test_empty_body_is_a_clear_error_not_a_500(api, game, action):
    status, out = api(f"{game}/{action}", {})
    assert status in (400, 422) and out["error"]["message"]


# -- hint / 托管 ------------------------------------------------------------------------

def test_hint_smallest_follows_with_lowest_cards(api):
    _, out = api("hongwu/hint", {"trump": "♠", "lead": "♣A", "hand": "♣K ♣4 ♣9 ♥3"})
    assert out["plays"] == ["♣4", "♣9", "♣K"]
    assert out["smallest"] == "♣4"
    assert out["truncated"] is False


def test_hint_smallest_prefers_fewer_point_cards(api):
    _, out = api("hongwu/hint", {"trump": "♠", "lead": "♣A ♣A", "hand": "♥5 ♦5 ♥4 ♦3"})
    # void in clubs: discard; ♥5 is trump in 红五, ♦5 and ♦3 and ♥4 are plain
    assert out["smallest"] == "♥4 ♦3"


def test_hint_for_a_lead_lists_units_and_smallest_single(api):
    _, out = api("erqiwang/hint", {"trump": "♠", "hand": "♣4 ♣4 ♣3 ♣3 ♥9"})
    assert "♣4 ♣4 ♣3 ♣3" in out["plays"]
    assert out["smallest"] == "♣3"


def test_hint_truncates_when_the_set_explodes(api):
    hand = "♣A ♣K ♣Q ♣J ♣10 ♣9 ♣8 ♣7 ♣6 ♣5 ♣4 ♣3 ♦A ♦K ♦Q ♦J ♦10 ♦9 ♦8 ♦7 ♦6 ♦5 ♦4 ♦3 ♥A"
    status, out = api("hongwu/hint", {"trump": "♠", "lead": "♠A ♠A ♠K ♠K ♠Q ♠Q ♠J ♠J", "hand": hand})
    assert status == 200
    assert out["truncated"] is True
    assert out["smallest"] is not None
    assert len(out["plays"]) == FOLLOW_LIMIT


def test_order_for_lists_the_full_order_high_to_low():
    rows = hongwu.order_for("♥")
    assert rows[0][1] == [Card(5, Suit.HEARTS)]
    assert [c for _, cards in rows for c in cards].count(Card(5, Suit.HEARTS)) == 1
    assert sum(len(cards) for _, cards in rows) == 54
    rows = erqiwang.order_for("♠")
    assert rows[0][1] == [BIG] and rows[1][1] == [LITTLE]
    assert sum(len(cards) for _, cards in rows) == 54


def test_sort_key_orders_canonically_highest_first():
    key = hongwu.sort_key("♥")
    cards = parse_cards("♠A 大王 ♥5 ♦3 ♥3 ♥2 ♠2")
    assert [str(c) for c in sorted(cards, key=key)] == ["♥5", "大王", "♥3", "♦3", "♥2", "♠2", "♠A"]


# -- bidding ---------------------------------------------------------------------------

def test_hongwu_bidding_winner_is_the_last_bidder_after_three_passes(api):
    _, out = api("hongwu/bidding", {"bids": [60, "pass", 70, "pass", "pass"], "start": 0})
    assert out["legal"] is True and out["complete"] is True
    assert out["declarer"] == 2 and out["bid"] == 70


def test_hongwu_bid_must_rise_5_to_15(api):
    _, out = api("hongwu/bidding", {"bids": [60, 80]}, lang="en")
    assert out["legal"] is False and out["illegal_index"] == 1 and "80" in out["reason"]
    _, out = api("hongwu/bidding", {"bids": [60, 62]})
    assert out["legal"] is False and out["illegal_index"] == 1


def test_hongwu_bid_of_200_wins_at_once(api):
    bids = [60, 75, 90, 105, 120, 135, 150, 165, 180, 195, 200]
    _, out = api("hongwu/bidding", {"bids": bids, "start": 1})
    assert out["complete"] is True and out["bid"] == 200 and out["declarer"] == (1 + 10) % 4
    _, out = api("hongwu/bidding", {"bids": bids + ["pass"], "start": 1})
    assert out["legal"] is False and out["illegal_index"] == 11


def test_hongwu_nobody_bids_first_player_is_declarer_at_60(api):
    _, out = api("hongwu/bidding", {"bids": ["pass"] * 4, "start": 2})
    assert out["declarer"] == 2 and out["bid"] == 60


def test_hongwu_a_pass_is_final(api):
    _, out = api("hongwu/bidding", {"bids": [60, "pass", 65, 70, 75], "start": 0})
    # seat 1 passed, so after seat 3's 70 comes seat 0 (75), not seat 1
    assert out["legal"] is True and out["complete"] is False and out["next"] == 2


def test_erqiwang_first_bidder_must_bid_80_and_bids_go_down(api):
    _, out = api("erqiwang/bidding", {"bids": ["pass"]})
    assert out["legal"] is False and out["illegal_index"] == 0
    _, out = api("erqiwang/bidding", {"bids": [75]})
    assert out["legal"] is False
    _, out = api("erqiwang/bidding", {"bids": [80, 80]})
    assert out["legal"] is False and out["illegal_index"] == 1
    _, out = api("erqiwang/bidding", {"bids": [80, 60, "pass", "pass", "pass"]})
    assert out["complete"] is True and out["declarer"] == 1 and out["bid"] == 60


def test_erqiwang_bid_of_5_wins_at_once(api):
    _, out = api("erqiwang/bidding", {"bids": [80, 5]})
    assert out["complete"] is True and out["declarer"] == 1 and out["bid"] == 5


def test_bidding_function_is_exposed():
    assert hongwu.validate_bidding([60, "pass", "pass", "pass"], 0, hongwu.RULESET.resolve({})).declarer == 0
    assert erqiwang.validate_bidding([80, "pass", "pass", "pass"], 3).declarer == 3


# ==========================================================================
# Properties
# ==========================================================================

GAMES = {
    "hongwu": (hongwu, {}),
    "hongwu3": (hongwu, {"decks": 3}),
    "hongwu_free": (hongwu, {"follow_shape": False}),
    "hongwu_single_first": (hongwu, {"failed_throw": "single_first"}),
    "erqiwang": (erqiwang, {}),
}


def ctx_for(name: str, trump: Suit) -> Context:
    module, rules = GAMES[name]
    return module.context(trump, module.RULESET.resolve(rules))


@st.composite
def table(draw, lead_needed=True):
    """A small pool (trump suit + one plain suit + jokers, low ranks) so that pairs and tractors happen."""
    name = draw(st.sampled_from(sorted(GAMES)))
    trump = draw(st.sampled_from(SUITS))
    plain = draw(st.sampled_from([s for s in SUITS if s != trump]))
    ctx = ctx_for(name, trump)
    lo = draw(st.integers(2, 8))
    pool = [c for c in ctx.deck.all_cards()
            if (c.is_joker or (c.suit in (trump, plain, Suit.HEARTS) and lo <= c.rank <= lo + 4))]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=1, max_size=9))
    hand = [pool[i] for i in idx]
    rest = [c for i, c in enumerate(pool) if i not in set(idx)]
    lead = None
    if lead_needed and rest:
        g = draw(st.sampled_from(sorted({ctx.group(c) for c in rest}, key=str)))
        in_g = [c for c in rest if ctx.group(c) == g]
        k = draw(st.integers(1, min(4, len(in_g), len(hand))))
        picks = draw(st.lists(st.integers(0, len(in_g) - 1), unique=True, min_size=k, max_size=k))
        lead = [in_g[i] for i in picks]
    return ctx, hand, lead


def brute_force(ctx, hand, lead):
    out = set()
    for combo in set(combinations(sorted(hand, key=ctx.key), len(lead))):
        if check_follow(ctx, lead, hand, combo)[0]:
            out.add(tuple(sorted(combo, key=ctx.key)))
    return out


@settings(max_examples=examples(300), deadline=None)
@given(table())
def test_hint_equals_brute_force_on_small_hands(t):
    ctx, hand, lead = t
    if lead is None or len(lead) > len(hand):
        return
    plays = list(legal_plays(ctx, hand, lead))
    assert set(plays) == brute_force(ctx, hand, lead)
    assert len(plays) == len(set(plays))
    keys = [ctx.play_key(p) for p in plays]
    assert keys == sorted(keys)


@settings(max_examples=examples(300), deadline=None)
@given(table())
def test_every_hinted_play_passes_check_and_smallest_is_legal(t):
    ctx, hand, lead = t
    if lead is not None and len(lead) > len(hand):
        return
    plays = list(legal_plays(ctx, hand, lead))
    for p in plays:
        if lead:
            assert check_follow(ctx, lead, hand, p)[0] is True
        else:
            assert check_lead(ctx, hand, p, None)[0] is True
    small = smallest(ctx, hand, lead)
    assert small is not None
    if lead:
        assert check_follow(ctx, lead, hand, small)[0] is True
        assert small == min(plays, key=ctx.play_key)
    else:
        assert check_lead(ctx, hand, small, None)[0] is True


@settings(max_examples=examples(200), deadline=None)
@given(table(lead_needed=False))
def test_lead_hint_equals_every_single_unit_sub_multiset(t):
    ctx, hand, _ = t
    plays = list(legal_plays(ctx, hand, None))
    expect = set()
    for k in range(1, len(hand) + 1):
        for combo in set(combinations(sorted(hand, key=ctx.key), k)):
            if len(ctx.groups_of(combo)) == 1 and len(decompose(ctx, combo)) == 1:
                expect.add(tuple(sorted(combo, key=ctx.key)))
    assert set(plays) == expect


@settings(max_examples=examples(150), deadline=None)
@given(table(), st.data())
def test_large_hands_smallest_always_passes_check(t, data):
    ctx, _, lead = t
    if lead is None:
        return
    deck = Counter(ctx.deck.all_cards()) - Counter(lead)
    pool = list(deck.elements())
    idx = data.draw(st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=len(lead), max_size=25))
    hand = [pool[i] for i in idx]
    small = smallest(ctx, hand, lead)
    assert small is not None
    assert check_follow(ctx, lead, hand, small)[0] is True


@settings(max_examples=examples(150), deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.sampled_from(SUITS), st.data())
def test_trick_winner_is_an_index_and_points_are_counted(name, trump, data):
    ctx = ctx_for(name, trump)
    pool = ctx.deck.all_cards()
    n = data.draw(st.integers(1, 3))
    k = data.draw(st.integers(2, 4))
    idx = data.draw(st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=n * k, max_size=n * k))
    cards = [pool[i] for i in idx]
    plays = [cards[i * n:(i + 1) * n] for i in range(k)]
    if len(ctx.groups_of(plays[0])) != 1:
        return
    index, reason = winner(ctx, plays)
    assert 0 <= index < k and reason.render("en")
    # the winner either is the lead or is in the led group / trump
    if index:
        gs = ctx.groups_of(plays[index])
        assert gs in ([ctx.group(plays[0][0])], [TRUMP])


# -- zero-sum settlements ---------------------------------------------------------------

@st.composite
def hongwu_input(draw):
    decks = draw(st.sampled_from([2, 3]))
    total = 100 * decks
    lo, hi = (60, 200) if decks == 2 else (90, 300)
    declarer = draw(st.integers(0, 3))
    bottom = 5 * draw(st.integers(0, (80 if decks == 2 else 60) // 5))
    won = 5 * draw(st.integers(0, (total - bottom) // 5))
    fives = []
    for _ in range(draw(st.integers(0, decks))):
        other = draw(st.sampled_from([s for s in range(4) if s != declarer]))
        fives.append({"owner": declarer, "captured_by": other} if draw(st.booleans())
                     else {"owner": other, "captured_by": declarer})
    rules = {"decks": decks, "preset": draw(st.sampled_from(["seed", "tiers_321"])),
             "base": draw(st.integers(1, 10)), "bottom": draw(st.sampled_from(["last_trick", "always"])),
             "red_five_points": draw(st.integers(0, 10))}
    return {"declarer": declarer, "bid": 5 * draw(st.integers(lo // 5, hi // 5)), "declarer_points": won,
            "bottom_points": bottom, "declarer_took_bottom": draw(st.booleans()), "red_fives": fives, "rules": rules}


@settings(max_examples=examples(300), deadline=None)
@given(hongwu_input())
def test_hongwu_settlement_is_zero_sum(body):
    out = get_game("hongwu").run("settle", body)
    assert sum(out["deltas"]) == 0
    assert out["steps"]


@st.composite
def erqiwang_input(draw):
    cg = []
    left = {"jokers": 4, "trump7_pairs": 1, "off7_pairs": 3, "trump2_pairs": 1, "off2_pairs": 3}
    for seat in draw(st.lists(st.integers(0, 3), unique=True, max_size=2)):
        entry = {"seat": seat}
        for name in left:
            v = draw(st.integers(0, left[name]))
            left[name] -= v
            entry[name] = v
        cg.append(entry)
    return {"declarer": draw(st.integers(0, 3)), "bid": 5 * draw(st.integers(1, 16)),
            "defender_points": 5 * draw(st.integers(0, 40)), "surrender": draw(st.booleans()), "chongguan": cg,
            "rules": {"base": draw(st.integers(1, 5)), "sides": draw(st.sampled_from(["partners", "solo"]))}}


@settings(max_examples=examples(300), deadline=None)
@given(erqiwang_input())
def test_erqiwang_settlement_is_zero_sum(body):
    out = get_game("erqiwang").run("settle", body)
    assert sum(out["deltas"]) == 0
    if body["rules"]["sides"] == "partners":
        d = body["declarer"]
        if not body["chongguan"]:
            assert out["deltas"][d] == out["deltas"][(d + 2) % 4]


# -- no input gives a 500 -----------------------------------------------------------------

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 400) | st.sampled_from(["♠", "S", "pass", "♣A ♣A", "大王", "x", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["trump", "lead", "play", "hand", "others", "plays", "cards", "bids", "start", "declarer",
                         "bid", "declarer_points", "bottom_points", "red_fives", "defender_points", "chongguan",
                         "surrender", "rules", "seat", "jokers", "owner", "captured_by"]), inner, max_size=6),
    max_leaves=12)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["hongwu", "erqiwang"]),
       st.sampled_from(["classify", "check", "trick", "hint", "settle", "bidding"]), junk)
def test_no_input_gives_a_500(api, game, action, body):
    status, out = api(f"{game}/{action}", body)
    assert status in (200, 400, 422), (status, body)
    if status != 200:
        assert out["error"]["message"]


# -- adjacency ("successor") and three decks ------------------------------------------------

def test_successor_skips_removed_cards_and_stops_above_the_trump_ace_in_hongwu():
    ctx = hongwu.context("♥")
    c = parse_cards
    assert ctx.successors(c("♥6")[0]) == (c("♥4")[0],)      # ♥5 left the suit
    assert ctx.successors(c("♥A")[0]) == (c("♥K")[0],)
    assert ctx.successors(c("♥2")[0]) == ()                  # nothing above the trump A chains
    assert ctx.successors(BIG) == ()
    assert ctx.successors(c("♣4")[0]) == (c("♣3")[0],)
    assert ctx.successors(c("♦4")[0]) == ()                  # ♦3 is 副参谋 when ♥ is trump


def test_successor_chains_trump_levels_in_erqiwang():
    ctx = erqiwang.context("♠")
    c = parse_cards
    assert ctx.successors(BIG) == (LITTLE,)
    assert ctx.successors(LITTLE) == (c("♠7")[0],)
    assert set(ctx.successors(c("♠7")[0])) == set(c("♥7 ♣7 ♦7"))
    assert ctx.successors(c("♥7")[0]) == (c("♠2")[0],)
    assert set(ctx.successors(c("♠2")[0])) == set(c("♥2 ♣2 ♦2"))
    assert ctx.successors(c("♦2")[0]) == (c("♠A")[0],)
    assert ctx.successors(c("♥8")[0]) == (c("♥6")[0],)


def test_triple_lead_must_be_followed_by_triple_when_holding_one(api):
    body = {"trump": "♠", "lead": "♣9 ♣9 ♣9", "hand": "♣8 ♣8 ♣8 ♣4 ♣4", "rules": {"decks": 3}}
    out = check(api, play="♣8 ♣4 ♣4", **body)
    assert out["legal"] is False and out["reason"] == "you hold a ♣ triple and must follow with a triple"
    assert check(api, play="♣8 ♣8 ♣8", **body)["legal"] is True


def test_triple_lead_without_triple_must_be_followed_by_pair(api):
    body = {"trump": "♠", "lead": "♣9 ♣9 ♣9", "hand": "♣8 ♣8 ♣4 ♣5", "rules": {"decks": 3}}
    assert check(api, play="♣8 ♣4 ♣5", **body)["legal"] is False
    assert check(api, play="♣8 ♣8 ♣5", **body)["legal"] is True


def test_triple_ruff_beats_a_triple_lead(api):
    _, out = api("hongwu/trick", {"trump": "♠", "plays": ["♣9 ♣9 ♣9", "♣10 ♣10 ♣10", "♠4 ♠4 ♠4", "♠5 ♠5 ♣K"],
                                  "rules": {"decks": 3}})
    assert out["winner"] == 2 and out["points"] == 50


def test_erqiwang_tractor_lead_followed_through_the_off7_level(api):
    # lead 主7对 + 副7对 (a tractor); the follower's ♦7♦7 ♠2♠2 is a tractor too (副7 → 主2)
    body = {"trump": "♠", "lead": "♠7 ♠7 ♥7 ♥7", "hand": "♦7 ♦7 ♠2 ♠2 ♠4 ♠3"}
    assert check(api, "erqiwang", play="♦7 ♦7 ♠4 ♠3", **body)["legal"] is False
    assert check(api, "erqiwang", play="♦7 ♦7 ♠2 ♠2", **body)["legal"] is True
    _, out = api("erqiwang/trick", {"trump": "♠", "plays": ["♠7 ♠7 ♥7 ♥7", "♦7 ♦7 ♠2 ♠2"]})
    assert out["winner"] == 0


def test_trick_reason_counts_plays_from_one_like_a_player_does(api):
    _, out = api("hongwu/trick", {"trump": "♥", "plays": ["大王", "♥5", "小王", "♠2"]})
    assert out["winner"] == 1
    assert "第2手" in out["reason"]
    _, out = api("hongwu/trick", {"trump": "♥", "plays": ["大王", "♥5", "小王", "♠2"]}, lang="en")
    assert "play 2" in out["reason"]


# -- the legal-plays view and the hint limit -----------------------------------------------

def test_legal_plays_answer_membership_and_emptiness_without_listing():
    ctx = hongwu.context("♠")
    hand, lead = parse_cards("♣K ♣4 ♣9 ♣9 ♥3 ♣8 ♣8"), parse_cards("♣A ♣A")
    plays = legal_plays(ctx, hand, lead)
    assert plays and plays.smallest() == tuple(parse_cards("♣8 ♣8"))
    assert tuple(parse_cards("♣9 ♣9")) in plays
    assert tuple(parse_cards("♣9 ♣4")) not in plays      # holds a pair, must follow with one
    assert tuple(parse_cards("♣K ♣K")) not in plays      # not in the hand
    lead_plays = legal_plays(ctx, hand, None)
    assert tuple(parse_cards("♣9 ♣9 ♣8 ♣8")) in lead_plays
    assert tuple(parse_cards("♣9 ♣9 ♣4")) not in lead_plays  # a throw is never hinted


def test_hint_limit_cuts_the_list_and_truncated_says_whether_more_plays_exist(api):
    body = {"trump": "♠", "lead": "♣A", "hand": "♣K ♣4 ♣9 ♥3"}
    _, out = api("hongwu/hint", {**body, "limit": 2})
    assert out["plays"] == ["♣4", "♣9"] and out["truncated"] is True and out["smallest"] == "♣4"
    _, out = api("hongwu/hint", {**body, "limit": 3})
    assert out["plays"] == ["♣4", "♣9", "♣K"] and out["truncated"] is False


@pytest.mark.parametrize("limit", [0, MAX_LIMIT + 1, "many"])
def test_hint_limit_outside_one_to_the_maximum_is_an_error_naming_the_field(api, limit):
    status, out = api("hongwu/hint", {"trump": "♠", "lead": "♣A", "hand": "♣K ♣4", "limit": limit})
    assert status in (400, 422) and out["error"]["field"] == "limit"


def test_lead_hint_lists_every_lead_of_a_deal_by_default_and_is_cut_by_limit(api):
    # 25 cards (a deal) rich in tied trump levels: 173 leads, fewer than the default cut of a lead
    hand = "大王 大王 小王 小王 ♠7 ♠7 ♥7 ♥7 ♣7 ♣7 ♦7 ♦7 ♠2 ♠2 ♥2 ♥2 ♣2 ♣2 ♦2 ♦2 ♠A ♠A ♠K ♠K ♠Q"
    total = legal_plays(erqiwang.context("♠"), parse_cards(hand), None).count()
    assert 100 < total <= LEAD_LIMIT
    _, out = api("erqiwang/hint", {"trump": "♠", "hand": hand})
    assert len(out["plays"]) == total and out["truncated"] is False
    _, out = api("erqiwang/hint", {"trump": "♠", "hand": hand, "limit": 100})
    assert len(out["plays"]) == 100 and out["truncated"] is True


def test_hint_smallest_is_the_smallest_of_all_legal_plays_even_when_the_list_is_cut(api):
    ctx = hongwu.context("♠")
    hand = "♣A ♣K ♣Q ♣J ♣10 ♣9 ♦A ♦K ♦Q ♦5 ♦4 ♥A ♥10"
    every = list(legal_plays(ctx, parse_cards(hand), parse_cards("♠A ♠A ♠K ♠K")))
    _, out = api("hongwu/hint", {"trump": "♠", "lead": "♠A ♠A ♠K ♠K", "hand": hand, "limit": 1})
    assert out["truncated"] is True
    assert out["smallest"] == ctx.fmt(min(every, key=ctx.play_key)) == out["plays"][0]


# -- policies --------------------------------------------------------------------------------

def test_throw_policies_are_enums_equal_to_their_rule_strings():
    assert ThrowCompare.default() == "highest_card" and ThrowRule.default() == "any_group"
    spec = hongwu.spec_for(hongwu.RULESET.resolve({"throw_compare": "longest_unit"}))
    assert spec.throw_compare is ThrowCompare.LONGEST_UNIT and spec.throw_compare == "longest_unit"
    assert erqiwang.spec_for(erqiwang.RULESET.resolve({})).throw is ThrowRule.TRUMP_ONLY


def test_games_list_the_throw_compare_rule_with_its_plain_values(api):
    _, out = api("games", method="GET")
    for slug in ("hongwu", "erqiwang"):
        g = next(x for x in out["games"] if x["slug"] == slug)
        option = next(o for o in g["options"] if o["name"] == "throw_compare")
        assert option["default"] == "highest_card" and option["values"] == ["highest_card", "longest_unit"]


def test_deck_errors_of_a_request_say_every_card_was_counted_together():
    ctx = hongwu.context("♠")
    with pytest.raises(InvalidNotation) as caught:
        check_deck(ctx.deck, parse_cards("♣4 ♣4 ♣4"), "hand+lead")
    assert "counting every card of this request: hand+lead" in caught.value.message.render("en")
    assert "counting every card" in str(caught.value)


@pytest.mark.parametrize("triple", ["♥2", "♣2", "♦2"])
def test_pairs_are_taken_from_tied_cards_with_fewer_copies_so_a_triple_stays_whole(api, triple):
    # 副2 of three suits tie; the lead's tractor (none in hand) takes the two pairs, the triple matches the triple
    pairs = [s for s in ("♥2", "♣2", "♦2") if s != triple]
    hand = " ".join([triple] * 3 + [p for p in pairs for _ in range(2)] + ["♠A"])
    body = {"trump": "♠", "lead": "♠K ♠K ♠Q ♠Q ♠5 ♠5 ♠5", "hand": hand, "rules": {"decks": 3}}
    broken = " ".join([triple] * 2 + [p for p in pairs for _ in range(2)] + ["♠A"])
    out = check(api, play=broken, **body)
    assert out["legal"] is False and "triple" in out["reason"]
    assert check(api, play=" ".join([triple] * 3 + [p for p in pairs for _ in range(2)]), **body)["legal"] is True
