"""Leads built from the rank counts (``Pattern.leads``) are exactly the leads found by reading every candidate.

跑得快 / 争上游 leads are built by construction (no candidate is read); the path that reads each
candidate (kept for the house rules of the turn) is the validator they are checked against: the
same plays, the same cards, the same readings, in the same order.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import paodekuai as pdk
from scoring.cards import BIG_JOKER, LITTLE_JOKER, format_cards, parse_cards
from scoring.shedding import brute_force_plays, legal_plays, search
from scoring.shedding.actions import play_texts, wild_ranks
from scoring.shedding.counts import RankCounts, merged
from scoring.shedding.turn import Turn

PRESETS = ["paodekuai52", "paodekuai48", "paodekuai45", "zhengshangyou108"]


def shown(spec, plays):
    key = spec.sort_key()
    return [(format_cards(cards, key), search.resolve_reading(reading).sig) for cards, reading in plays]


def both_paths(spec, hand, turn=None):
    hand = tuple(hand)
    return (shown(spec, search._built_leads(spec, hand, turn)), shown(spec, search._read_leads(spec, hand, turn)))


def applicable(preset: str, **options) -> dict:
    """The options that apply to ``preset`` (one that cannot is refused: option_not_for_preset)."""
    return {name: value for name, value in options.items()
            if pdk.RULESET.option(name).applies_to(preset)}


@st.composite
def deal(draw):
    """A hand of one preset: any cards, or many cards of a few consecutive ranks (runs, planes, kicker bombs)."""
    preset = draw(st.sampled_from(PRESETS))
    rules = pdk.RULESET.resolve({"preset": preset, **applicable(preset, bomb_kickers=draw(st.booleans()),
                                                                aaa_top=draw(st.booleans()))})
    pack = pdk.deck_for(rules).all_cards()
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    if draw(st.booleans()):
        start = draw(st.sampled_from([2, 3, 6, 10, 12, 13, 14]))
        ranks = {((start - 2 + i) % 13) + 2 for i in range(draw(st.integers(2, 6)))} | {LITTLE_JOKER, BIG_JOKER}
        pack = [c for c in pack if c.rank in ranks]
    most = min(len(pack), pdk.PRESETS[preset]["dealt"])
    return rules, rng.sample(pack, draw(st.integers(1, most)))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal())
def test_built_leads_are_the_read_leads_card_for_card_in_order(case):
    rules, hand = case
    spec = pdk.spec_for(rules)
    assert spec.builds_leads
    built, read = both_paths(spec, hand)
    assert built == read


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal())
def test_built_leads_hold_their_cards_in_the_order_a_player_writes_them(case):
    """The hint writes a built lead's cards as they come (``written_plays``): 5 5 5 3 K, the kickers rising after
    the body, as the writer of every other play puts them (``play_texts``)."""
    rules, hand = case
    spec = pdk.spec_for(rules)
    assert search.written_plays(spec, None)
    plays = [cards for cards, _ in search._built_leads(spec, tuple(hand))]
    assert [" ".join(map(str, cards)) for cards in plays] == play_texts(hand, plays, spec.sort_key(),
                                                                        wild_ranks(spec))


@st.composite
def turn_deal(draw):
    """A hand under the house rules of the turn (牌够只能三带二, 报单必出最大, 首出必带黑桃3) and a turn they restrict."""
    rules, hand = draw(deal())
    one_deck = rules.preset != "zhengshangyou108"
    house = {"full_kickers": one_deck and draw(st.booleans()), "baodan_max": draw(st.booleans()),
             "spade3_first": draw(st.booleans())}
    rules = pdk.RULESET.resolve({**dict(rules), **house})
    turn = Turn(tuple(hand), draw(st.sampled_from([None, 1, 2])), draw(st.booleans()))
    return rules, hand, turn


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn_deal())
def test_built_leads_under_the_house_rules_of_the_turn_are_the_read_leads(case):
    rules, hand, turn = case
    spec = pdk.spec_for(rules)
    built, read = both_paths(spec, hand, search.restricting(spec, turn))
    assert built == read


def test_a_first_play_with_spade_three_keeps_the_straight_that_holds_it():
    """♠4 … ♠7 and ♠3 are the first cards of their ranks: the plain straight swaps in ♥4, not ♥3."""
    rules = pdk.RULESET.resolve({"preset": "zhengshangyou108", "spade3_first": True})
    spec = pdk.spec_for(rules)
    hand = parse_cards("♠3 ♥3 ♠4 ♥4 ♠5 ♠6 ♠7")
    turn = Turn(tuple(hand), None, True)
    built, read = both_paths(spec, hand, turn)
    assert built == read
    assert [text for text, sig in built if sig[0] == "straight"] == ["♠7 ♠6 ♠5 ♥4 ♠3"]


def test_the_worst_paodekuai_hands_build_the_same_leads_as_the_oracle():
    """Hands the hint spends the most on: consecutive triples (planes with wings), a full 争上游 deal of triples."""
    cases = [("paodekuai48", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♦8"),
             ("zhengshangyou108", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠6 ♥6 ♦6 大王 小王")]
    for preset, text in cases:
        spec = pdk.spec_for(pdk.RULESET.resolve({"preset": preset}))
        hand = parse_cards(text)
        plays = list(legal_plays(spec, hand, None))
        assert {spec.identity(c) for c, _ in plays} == set(brute_force_plays(spec, hand, None))
        built, read = both_paths(spec, hand)
        assert built == read


def test_low_runs_of_zhengshangyou_are_built_with_the_two_and_the_ace_low():
    spec = pdk.spec_for(pdk.RULESET.resolve({"preset": "zhengshangyou108"}))
    built, read = both_paths(spec, parse_cards("♠A ♥2 ♣3 ♦4 ♠5 ♥6 ♠2 ♥3 ♠A"))
    assert built == read
    runs = [text for text, sig in built if sig[0] in ("straight", "straight_flush", "pair_run")]
    # by deciding rank (a low run's top, A counted as 1), then fewer cards
    assert runs == ["♠2 ♥2 ♥3 ♣3", "♠2 ♥2 ♠A ♠A ♥3 ♣3", "♠2 ♠A ♠5 ♦4 ♥3", "♠2 ♥6 ♠5 ♦4 ♥3",
                    "♠2 ♠A ♥6 ♠5 ♦4 ♥3"]


def test_a_hand_of_thirteen_ranks_holds_the_long_low_run_once():
    """2 3 … A and A 2 3 … K are the same thirteen ranks: one straight."""
    spec = pdk.spec_for(pdk.RULESET.resolve({"preset": "zhengshangyou108"}))
    hand = parse_cards("♠2 ♥3 ♣4 ♦5 ♠6 ♥7 ♣8 ♦9 ♠10 ♥J ♣Q ♦K ♠A")
    built, read = both_paths(spec, hand)
    assert built == read
    assert sum(1 for text, _ in built if len(text.split()) == 13) == 1


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal())
def test_a_patterns_leads_at_each_deciding_rank_are_its_leads_of_that_rank_in_one_pass(case):
    """Asked rank by rank (a big hand) or all at once (a small one), a pattern builds the same leads in the same
    order within a rank, each with the top of its body as its deciding rank."""
    rules, hand = case
    spec = pdk.spec_for(rules)
    counts = RankCounts(hand, spec.rank_order)
    for pattern in spec.patterns:
        every = sorted(pattern.leads(counts, None), key=lambda lead: lead[0])  # stable
        by_level = [lead for level in counts.powers for lead in pattern.leads(counts, level)]
        assert by_level == every
        assert all(lead[0] == level for level in counts.powers for lead in pattern.leads(counts, level))


def test_attachments_merge_into_the_body_highest_power_first():
    assert merged(((6, 3),), [(9, 1), (5, 1)], 2) == ((9, 2), (6, 3), (5, 2))


def test_rank_counts_give_the_first_cards_of_each_rank_highest_first():
    counts = RankCounts(parse_cards("♦5 ♠5 ♥9 ♣5"), pdk.ORDER)
    assert counts.count == {5: 3, 9: 1} and counts.powers == [5, 9]
    assert [str(c) for c in counts.cards(((9, 1), (5, 2)))] == ["♥9", "♠5", "♣5"]
