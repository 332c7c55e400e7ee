"""红五 house-rule variant (docs/rules/variants.md §11 failed_throw) and the check response's ``forced``:
every binding example through the HTTP API."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import hongwu
from scoring.cards import Card, Suit
from scoring.trick import check_lead, decompose
from scoring.trick.throws import beater

OTHERS = ["♦K ♦K ♣4", "♣5", "♣6"]
SINGLE_FIRST = {"failed_throw": "single_first"}


def check(api, hand, play, others, rules=None, lead=None, lang="en"):
    body = {"trump": "♠", "hand": hand, "play": play, "others": others, "lead": lead, "rules": rules or {}}
    status, out = api("hongwu/check", body, lang=lang)
    assert status == 200, out
    return out


@pytest.mark.parametrize("rules,hand,play,others,legal,forced", [
    ({}, "♦A ♦Q ♦Q ♣9", "♦A ♦Q ♦Q", OTHERS, False, "♦Q ♦Q"),
    (SINGLE_FIRST, "♦A ♦Q ♦Q ♣9", "♦A ♦Q ♦Q", OTHERS, False, "♦A"),
    (SINGLE_FIRST, "♦A ♦A ♦9 ♦8 ♣9", "♦A ♦A ♦9 ♦8", OTHERS, False, "♦8"),
    ({}, "♦A ♦A ♦9 ♦8 ♣9", "♦A ♦A ♦9 ♦8", OTHERS, False, "♦8"),
    (SINGLE_FIRST, "♦A ♦A ♦Q ♦Q ♣9", "♦A ♦A ♦Q ♦Q", OTHERS, False, "♦Q ♦Q"),
    (SINGLE_FIRST, "♦A ♦A ♦K ♣9", "♦A ♦A ♦K", ["♣4", "♣5", "♣6"], True, None),
])
def test_failed_throw_forced_is_what_the_thrower_must_play_instead(api, rules, hand, play, others, legal, forced):
    out = check(api, hand, play, others, rules)
    assert out["legal"] is legal and out["forced"] == forced


def test_failed_throw_undecided_throw_has_no_forced_play(api):
    out = check(api, "♦A ♦K ♣9", "♦A ♦K", None, SINGLE_FIRST)
    assert out["legal"] is None and out["forced"] is None


def test_failed_throw_beaten_is_the_default(api):
    status, out = api("games", method="GET")
    game = next(g for g in out["games"] if g["slug"] == "hongwu")
    option = next(o for o in game["options"] if o["name"] == "failed_throw")
    assert option["default"] == "beaten" and option["values"] == ["beaten", "single_first"]
    assert "同城游" in option["help"]


def test_failed_throw_single_first_names_the_tongchengyou_rule_in_the_reason(api):
    out = check(api, "♦A ♦Q ♦Q ♣9", "♦A ♦Q ♦Q", OTHERS, SINGLE_FIRST)
    assert "同城游" in out["reason"] and "play ♦A instead" in out["reason"]
    zh = check(api, "♦A ♦Q ♦Q ♣9", "♦A ♦Q ♦Q", OTHERS, SINGLE_FIRST, lang="zh")
    assert "应改出♦A" in zh["reason"]


def test_failed_throw_beaten_with_hands_missing_is_forced_only_when_no_lower_unit_could_be_beaten(api):
    hand, throw = "♦A ♦K ♦9 ♦9 ♣9", "♦A ♦K ♦9 ♦9"
    # the other ♦A beats ♦K; the lower pair ♦9 ♦9 might be beaten by a pair nobody has shown yet
    out = check(api, hand, throw, ["♦A ♣4"])
    assert out["legal"] is False and out["forced"] is None and "hands not given" in out["reason"]
    assert check(api, hand, throw, ["♦A ♣4", "♣5", "♣6"])["forced"] == "♦K"
    # under single_first the lowest single, whatever the others hold
    assert check(api, hand, throw, ["♦A ♣4"], SINGLE_FIRST)["forced"] == "♦K"
    # a shown ♦10 ♦10 beats the lowest unit itself: forced with two hands missing
    assert check(api, hand, throw, ["♦10 ♦10 ♣4"])["forced"] == "♦9 ♦9"


@pytest.mark.parametrize("rules", [{}, SINGLE_FIRST])
def test_failed_throw_forced_is_null_for_follows_and_single_unit_leads(api, rules):
    assert check(api, "♣9 ♣9 ♣4 ♥A", "♣9 ♣4", None, rules, lead="♣K ♣K")["forced"] is None
    assert check(api, "♦Q ♦Q ♣9", "♦Q ♦Q", OTHERS, rules)["forced"] is None


def test_failed_throw_single_first_takes_pairs_before_tractors(api):
    # ♦9 ♦9 ♦10 ♦10 is a tractor, ♦A ♦A a pair: no single, so the lowest pair, not the lower tractor
    out = check(api, "♦A ♦A ♦10 ♦10 ♦9 ♦9 ♣3", "♦A ♦A ♦10 ♦10 ♦9 ♦9", ["♦J ♦J ♦Q ♦Q", "♣5", "♣6"], SINGLE_FIRST)
    assert out["legal"] is False and out["forced"] == "♦A ♦A"
    out = check(api, "♦A ♦A ♦10 ♦10 ♦9 ♦9 ♣3", "♦A ♦A ♦10 ♦10 ♦9 ♦9", ["♦J ♦J ♦Q ♦Q", "♣5", "♣6"])
    assert out["forced"] == "♦10 ♦10 ♦9 ♦9"


# ==========================================================================
# Property: what a failed throw must play instead
# ==========================================================================

@st.composite
def throw_deal(draw):
    """A throw of diamonds (T = ♠) from a small pool, and three other hands dealt from the rest."""
    pool = [Card(r, Suit.DIAMONDS) for r in range(4, 15) for _ in range(2)]
    order = draw(st.permutations(range(len(pool))))
    cut = draw(st.integers(2, 7))
    throw = [pool[i] for i in order[:cut]]
    rest = [pool[i] for i in order[cut:]]
    sizes = [draw(st.integers(0, 4)) for _ in range(3)]
    others, at = [], 0
    for n in sizes:
        others.append(rest[at:at + n])
        at += n
    return throw, others, draw(st.sampled_from(["beaten", "single_first"]))


@settings(max_examples=examples(150), deadline=None)
@given(throw_deal())
def test_failed_throw_forced_is_a_unit_of_the_throw_chosen_by_the_rule(deal):
    throw, others, rule = deal
    rules = hongwu.RULESET.resolve({"failed_throw": rule})
    ctx = hongwu.context(Suit.SPADES, rules)
    units = decompose(ctx, throw)
    verdict = check_lead(ctx, throw, throw, others)
    if len(units) == 1 or verdict.legal is not False:
        assert verdict.forced is None
        return
    forced = verdict.forced
    assert forced in units
    if rule == "single_first":
        assert forced == min(units, key=lambda u: (u.length >= 2, u.width > 1, u.top, u.size))
    else:
        beaten = [u for u in units if any(beater(ctx, u, o, ctx.group(u.cards[0])) for o in others)]
        assert forced == min(beaten, key=lambda u: (u.top, u.size))


# ==========================================================================
# The check page
# ==========================================================================

@pytest.mark.parametrize("lang,words", [("zh", "甩牌失败，应改出："), ("en", "The throw fails; play instead:")])
def test_failed_throw_check_page_shows_the_forced_cards_in_both_languages(app, lang, words):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    client.get(f"/lang/{lang}")
    html = client.post("/hongwu/check", data={"trump": "♠", "hand": "♦A ♦Q ♦Q ♣9", "play": "♦A ♦Q ♦Q",
                                              "others": "\n".join(OTHERS)}).get_data(as_text=True)
    assert re.search(rf'<p class="forced">{re.escape(words)}\s*<strong class="cards">♦Q ♦Q</strong>', html)
    legal = client.post("/hongwu/check", data={"trump": "♠", "hand": "♦A ♦A ♦K ♣9", "play": "♦A ♦A ♦K",
                                               "others": "♣4\n♣5\n♣6"}).get_data(as_text=True)
    assert 'class="forced"' not in legal
