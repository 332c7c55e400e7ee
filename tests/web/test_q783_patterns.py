"""Q783 patterns (rules/q783.md): classify, check and hint through the API."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import q783
from scoring.cards import format_cards, parse_cards
from scoring.shedding import brute_force_plays

pytestmark = pytest.mark.shared_app


def check(api, previous, play, rules=None, hand=None, lang="en"):
    body = {"previous": previous, "play": play, "rules": rules or {}}
    if hand is not None:
        body["hand"] = hand
    status, out = api("q783/check", body, lang=lang)
    assert status == 200, out
    return out


def classify(api, cards, rules=None):
    status, out = api("q783/classify", {"cards": cards, "rules": rules or {}}, lang="en")
    assert status == 200, out
    return out


# --------------------------------------------------------------------------
# Binding examples (default rules unless said)
# --------------------------------------------------------------------------

def test_mixed_suits_q783_lead_is_fu_q783(api):
    out = check(api, None, "♠Q ♥7 ♥8 ♣3")
    assert out["legal"] is True
    assert out["reading"]["kind"] == "q783" and out["reading"]["pure"] is False


def test_one_suit_q783_lead_is_zheng_q783(api):
    out = check(api, None, "♥Q ♥7 ♥8 ♥3")
    assert out["legal"] is True
    assert out["reading"]["kind"] == "q783" and out["reading"]["pure"] is True


@pytest.mark.parametrize("play", ["♠5 ♥5", "大王"])
def test_score_cards_are_never_played(api, play):
    out = check(api, None, play)
    assert out["legal"] is False
    assert "score card" in out["reason"]


@pytest.mark.parametrize("previous, play, legal", [
    ("♠4 ♥4 ♣4", "♠Q ♥Q ♣Q", True),
    ("♠2", "♠3", True),
    ("♠2", "♠A", False),
    ("♠Q ♥Q", "♠7 ♥7 ♣7", False),
    ("♠Q ♥Q", "♠Q ♥7 ♥8 ♣3", True),
    ("♠Q ♥7 ♥8 ♣3", "♦Q ♣7 ♠8 ♥3", False),
    ("♠Q ♥7 ♥8 ♣3", "♦Q ♦7 ♦8 ♦3", True),
    ("♦Q ♦7 ♦8 ♦3", "♠4 ♥4 ♣4 ♦4", True),
    ("♠7 ♥7 ♣7 ♦7", "♠Q ♥Q ♣Q ♦Q", True),
    ("♠7 ♥7 ♣7 ♦7", "♠8 ♥8 ♣8 ♦8", False),
    ("♠Q ♥Q ♣Q ♦Q", "♠4 ♥4 ♣4 ♦4 ♠4", True),
])
def test_binding_play_examples_default_rules(api, previous, play, legal):
    assert check(api, previous, play)["legal"] is legal


def test_rank_order_is_q_7_8_3_2_a_j_9_6_4(api):
    order = ["♠Q", "♠7", "♠8", "♠3", "♠2", "♠A", "♠J", "♠9", "♠6", "♠4"]
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            assert check(api, low, high)["legal"] is True, (high, low)
            assert check(api, high, low)["legal"] is False, (low, high)


def test_same_size_different_size_plain_plays_and_equal_fu_q783_explained(api):
    out = check(api, "♠Q ♥Q", "♠7 ♥7 ♣7")
    assert "different size" in out["reason"]
    out = check(api, "♠Q ♥7 ♥8 ♣3", "♦Q ♣7 ♠8 ♥3")
    assert "equal" in out["reason"]


def test_three_bombs_beat_plain_plays_but_stay_below_fu_q783(api):
    rules = {"three_bombs": True}
    assert check(api, "♠Q ♥Q", "♠4 ♥4 ♣4", rules)["legal"] is True
    assert check(api, "♠Q ♥7 ♥8 ♣3", "♠4 ♥4 ♣4", rules)["legal"] is False


def test_double_q783_sits_between_seven_and_eight_bombs(api):
    rules = {"double_q783": True}
    assert check(api, "4 4 4 4 4 4 4", "♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3", rules)["legal"] is True
    assert check(api, "4 4 4 4 4 4 4 4", "♥Q ♥Q ♥7 ♥7 ♥8 ♥8 ♥3 ♥3", rules)["legal"] is False


def test_zheng_double_q783_beats_fu_double_q783(api):
    rules = {"double_q783": True}
    assert check(api, "♠Q ♣Q ♠7 ♣7 ♠8 ♣8 ♠3 ♣3", "♥Q ♥Q ♥7 ♥7 ♥8 ♥8 ♥3 ♥3", rules)["legal"] is True
    assert check(api, "♥Q ♥Q ♥7 ♥7 ♥8 ♥8 ♥3 ♥3", "♠Q ♣Q ♠7 ♣7 ♠8 ♣8 ♠3 ♣3", rules)["legal"] is False


def test_double_q783_is_no_play_without_the_house_rule(api):
    out = classify(api, "♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3")
    assert out["valid"] is False and "double Q783" in out["reason"]


def test_bomb_class_order_low_to_high(api):
    # ranks chosen so that any two plays fit in the two-deck pack together
    chain = [
        "♠4 ♥4 ♣4",                        # 3-bomb (three_bombs)
        "♠Q ♥7 ♥8 ♣3",                     # 副Q783
        "♥Q ♥7 ♥8 ♥3",                     # 正Q783
        "6 6 6 6",                         # 4-bomb
        "J J J J",                         # higher 4-bomb
        "4 4 4 4 4",                       # 5-bomb
        "9 9 9 9 9 9",                     # 6-bomb
        "A A A A A A A",                   # 7-bomb
        "♠Q ♣Q ♠7 ♣7 ♠8 ♣8 ♠3 ♣3",         # 副双Q783
        "♦Q ♦Q ♦7 ♦7 ♦8 ♦8 ♦3 ♦3",         # 正双Q783
        "2 2 2 2 2 2 2 2",                 # 8-bomb
    ]
    rules = {"three_bombs": True, "double_q783": True}
    for i, low in enumerate(chain):
        assert check(api, "♠9", low, rules)["legal"] is True, low   # every bomb-class play beats a plain one
        for high in chain[i + 1:]:
            assert check(api, low, high, rules)["legal"] is True, (low, high)
            assert check(api, high, low, rules)["legal"] is False, (high, low)


def test_triple_is_plain_without_three_bombs(api):
    out = classify(api, "♠4 ♥4 ♣4")
    assert out["readings"][0]["kind"] == "triple" and out["readings"][0]["bomb"] is False
    assert check(api, "♠Q ♥Q", "♠4 ♥4 ♣4")["legal"] is False


def test_n_of_a_kind_up_to_eight_and_no_runs_or_kickers(api):
    assert classify(api, "Q Q Q Q Q Q Q Q")["readings"][0]["kind"] == "bomb"
    for cards in ["♠4 ♠6 ♠9", "♠4 ♥4 ♠6 ♥6", "♠4 ♥4 ♣4 ♠6", "♠Q ♠7 ♠8"]:
        out = classify(api, cards)
        assert out["valid"] is False, cards
        assert "not a Q783 pattern" in out["reason"]


def test_two_low_puts_two_below_four(api):
    assert check(api, "♠2", "♠4")["legal"] is False
    assert check(api, "♠2", "♠4", {"two_low": True})["legal"] is True
    assert check(api, "♠2", "♠A", {"two_low": True})["legal"] is True


def test_two_low_allowed_with_one_deck(api):
    assert check(api, "♠2", "♠4", {"two_low": True, "decks": 1})["legal"] is True


def test_ace_scores_makes_the_ace_a_score_card(api):
    assert check(api, None, "♠A")["legal"] is True
    out = check(api, None, "♠A", {"ace_scores": True})
    assert out["legal"] is False and "score card (50 points)" in out["reason"]


def test_one_deck_holds_at_most_four_of_a_rank(api):
    status, out = api("q783/check", {"previous": None, "play": "4 4 4 4 4", "rules": {"decks": 1}}, lang="en")
    assert status == 422 and out["error"]["code"] == "too_many_copies"
    assert "at most 4" in out["error"]["message"]


def test_plays_other_than_q783_accept_bare_ranks(api):
    assert check(api, "9 9", "Q Q")["legal"] is True
    assert classify(api, "7 7 7 7")["readings"][0]["kind"] == "bomb"


@pytest.mark.parametrize("endpoint, body, field", [
    ("classify", {"cards": "Q 7 8 3"}, "cards"),
    ("check", {"play": "Q 7 8 3", "previous": "♠9"}, "play"),
    ("check", {"play": "♠4 ♥4 ♣4 ♦4", "previous": "Q 7 8 3"}, "previous"),
    ("check", {"play": "♥Q ♥7 ♥8 3", "previous": None}, "play"),
    ("hint", {"hand": "♠4 ♥4 ♣4 ♦4", "previous": "Q 7 8 3"}, "previous"),
    ("classify", {"cards": "Q Q 7 7 8 8 3 3", "rules": {"double_q783": True}}, "cards"),
])
def test_q783_with_bare_ranks_asks_for_suits(api, endpoint, body, field):
    status, out = api(f"q783/{endpoint}", body, lang="en")
    assert status == 422, out
    assert out["error"]["code"] == "suit_required" and out["error"]["field"] == field
    assert "give the suits" in out["error"]["message"]


def test_two_known_suits_already_make_a_fu_q783(api):
    out = classify(api, "♠Q ♥7 8 3")
    assert out["readings"][0]["pure"] is False


def test_classify_q783_readings_carry_pure_and_output_is_canonical(api):
    out = classify(api, "h3 h8 h7 hq")
    assert out["cards"] == "♥Q ♥7 ♥8 ♥3"  # a Q783 is written as players name it
    assert out["readings"] == [{"kind": "q783", "label": "正Q783 (pure Q783)", "size": 4, "bomb": False,
                                "cards": "♥Q ♥7 ♥8 ♥3", "pure": True}]


def test_check_with_a_hand_needs_the_play_in_the_hand(api):
    out = check(api, "♠9", "♠Q", hand="♥Q ♠4")
    assert out["legal"] is False and "does not hold" in out["reason"]
    assert check(api, "♠9", "Q", hand="♥Q ♠4")["legal"] is True


def test_a_hand_with_score_cards_is_refused(api):
    status, out = api("q783/hint", {"hand": "♠Q ♠5", "previous": None}, lang="en")
    assert status == 422 and out["error"]["code"] == "score_card_in_hand"
    assert "score card" in out["error"]["message"]


def test_messages_are_chinese_by_default(api):
    status, out = api("q783/check", {"previous": "♠2", "play": "♠A"})
    assert status == 200 and "不比" in out["reason"]
    status, out = api("q783/classify", {"cards": "♠5"})
    assert "分牌" in out["reason"]


# --------------------------------------------------------------------------
# Hint
# --------------------------------------------------------------------------

def hint(api, hand, previous=None, rules=None):
    status, out = api("q783/hint", {"hand": hand, "previous": previous, "rules": rules or {}}, lang="en")
    assert status == 200, out
    return out


def test_hint_offers_zheng_and_fu_q783_as_two_plays(api):
    out = hint(api, "♥Q ♥7 ♥8 ♥3 ♠Q", None)
    assert "♥Q ♥7 ♥8 ♥3" in out["plays"] and "♠Q ♥7 ♥8 ♥3" in out["plays"]


def test_hint_beats_fu_q783_only_with_zheng_q783_or_bombs(api):
    out = hint(api, "♠Q ♥Q ♥7 ♥8 ♥3 ♣3 4 4 4 4", "♠Q ♥7 ♥8 ♣3")
    assert out["plays"] == ["♥Q ♥7 ♥8 ♥3", "4 4 4 4"]  # the weakest bomb first: 正Q783 < 4-bomb
    assert out["smallest"] == "♥Q ♥7 ♥8 ♥3"


def test_a_double_q783_is_written_as_players_name_it_too(api):
    out = hint(api, "♥3 ♠3 ♥8 ♠8 ♥7 ♠7 ♥Q ♠Q", None, rules={"double_q783": True})
    assert out["plays"][-1] == "♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3"


def test_hint_passes_when_nothing_beats_the_table(api):
    out = hint(api, "♠4 ♠6", "♠Q")
    assert out["plays"] == [] and out["smallest"] is None


def test_hint_smallest_lead_is_the_lowest_single(api):
    out = hint(api, "♠Q ♠9 ♥9 ♠4", None)
    assert out["smallest"] == "♠4"


def test_hint_from_bare_hand_counts_its_q783_as_fu(api):
    out = hint(api, "Q 7 8 3 9", "♠Q ♥7 ♥8 ♣3")
    assert out["plays"] == []
    out = hint(api, "Q 7 8 3 9", "9")
    assert "Q 7 8 3" in out["plays"]  # written as players name it, not ascending


_RANKS = ["Q", "7", "8", "3", "2", "A", "J", "9", "6", "4"]
_SUITS = ["♠", "♥", "♣", "♦"]


@st.composite
def situations(draw):
    rules = {"three_bombs": draw(st.booleans()), "double_q783": draw(st.booleans()),
             "two_low": draw(st.booleans()), "ace_scores": draw(st.booleans())}
    ranks = [r for r in _RANKS if not (rules["ace_scores"] and r == "A")]
    pool = [s + r for r in ranks for s in _SUITS for _ in range(2)]
    if draw(st.booleans()):  # some bare ranks
        pool += [r for r in ranks for _ in range(2)]
    hand = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=10))
    return rules, hand


def _fits(cards, rules):
    try:
        q783.deck(q783.RULESET.resolve(rules)).check(parse_cards(" ".join(cards), bare=True))
        return True
    except Exception:
        return False


_TABLES = [None, "♠4", "♠Q", "♠9 ♥9", "♠3 ♥3 ♣3", "♠Q ♥7 ♥8 ♣3", "♥Q ♥7 ♥8 ♥3", "♠6 ♥6 ♣6 ♦6",
           "♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3"]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(situations(), st.sampled_from(_TABLES))
def test_hint_equals_brute_force_and_every_hint_passes_check(api, situation, previous):
    rules, hand = situation
    if not _fits(hand + (previous.split() if previous else []), rules):
        return
    resolved = q783.RULESET.resolve(rules)
    table = None
    if previous:
        rs = q783.spec_for(resolved).readings(parse_cards(previous))
        if not rs:  # e.g. a double Q783 without the house rule
            return
        table = rs[0]
    out = hint(api, " ".join(hand), previous, rules)
    cards = parse_cards(" ".join(hand), bare=True)
    expected = brute_force_plays(q783.spec_for(resolved), cards, table)
    key = q783.sort_key(resolved)
    got = {q783.spec_for(resolved).identity(parse_cards(p, bare=True)) for p in out["plays"]}
    assert got == set(expected), (sorted(map(str, got)), [format_cards(c, key) for c in expected.values()])
    assert out["truncated"] is False
    for play in out["plays"]:
        reading = q783.spec_for(resolved).readings(parse_cards(play, bare=True))[0]
        if reading.extra.get("suits_known") is False:
            continue  # a bare Q783 is listed by hint (counted as 副) but check asks for its suits
        verdict = check(api, previous, play, rules, hand=" ".join(hand))
        assert verdict["legal"] is True, (play, verdict)


def test_a_score_card_play_is_called_a_score_card_even_with_a_hand(api):
    out = check(api, "♠9", "♠K", hand="♠Q ♠4")
    assert out["legal"] is False and "score card" in out["reason"]
