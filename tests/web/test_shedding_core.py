"""The shared shedding core, on a toy game: N of a kind only, 4+ is a bomb, 2 high."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.cards import Card, Deck, parse_cards
from scoring.errors import InvalidInput, InvalidNotation, MalformedInput
from scoring.i18n import render, t
from scoring.plays import FOLLOW_LIMIT, LegalPlays
from scoring.shedding import (
    MAX_PLAYS,
    Reading,
    SheddingSpec,
    brute_force_plays,
    by_rank,
    is_pass,
    legal_plays,
    multisets,
    shedding_actions,
    spec_cache,
)


class Toy(SheddingSpec):
    slug = "toy"
    bare = True

    def deck(self):
        return Deck(2, jokers=False)

    def order(self, card):
        return 15 if card.rank == 2 else card.rank

    def sort_key(self):
        return lambda c: (-self.order(c), c._suit_index if c.suit is not None else 9)

    def points(self, card):
        return 10 if card.rank in (10, 13) else 0

    def readings(self, cards):
        ranks = {c.rank for c in cards}
        if len(ranks) != 1:
            return []
        n = len(cards)
        r = self.order(cards[0])
        return [Reading("bomb" if n >= 4 else f"x{n}", t("{n}张", "{n} of a kind", n=n), (n, r) if n >= 4 else (r,),
                        n, n >= 4, tuple(cards))]

    def beats(self, play, table):
        if play.is_bomb:
            return not table.is_bomb or play.key > table.key
        return play.kind == table.kind and play.key > table.key

    def candidates(self, hand, table, size, need=None):
        for r, cards in by_rank(hand, self.sort_key()).items():
            if len(cards) >= size:
                yield cards[:size]


class _Rules(dict):
    preset = "toy"
    __getattr__ = dict.get


R = _Rules(must_beat=False)
TOY = Toy(R)
toy_for = spec_cache(Toy)
ACTIONS = shedding_actions(toy_for)


def cards(text):
    return parse_cards(text, bare=True)


def test_classify_gives_canonical_cards_and_readings_largest_first():
    out = ACTIONS["classify"]({"cards": "3 3 3 3"}, R).to_json()
    assert out["cards"] == "3 3 3 3" and out["valid"] and out["readings"][0]["bomb"] is True


def test_classify_no_pattern_says_why():
    out = ACTIONS["classify"]({"cards": "3 4"}, R).to_json()
    assert out["valid"] is False and out["readings"] == [] and "3" in render(out["reason"], "en")


def test_check_lead_follow_and_reading():
    assert ACTIONS["check"]({"play": "5 5"}, R).to_json()["legal"]
    out = ACTIONS["check"]({"play": "5 5", "previous": "4 4"}, R).to_json()
    assert out["legal"] and out["reading"]["kind"] == "x2" and out["table"]["kind"] == "x2"
    out = ACTIONS["check"]({"play": "3 3", "previous": "4 4"}, R).to_json()
    assert not out["legal"] and "not higher" in render(out["reason"], "en")


def test_check_a_different_pattern_is_explained():
    out = ACTIONS["check"]({"play": "5 5 5", "previous": "4 4"}, R).to_json()
    assert not out["legal"] and "different pattern" in render(out["reason"], "en")


def test_check_only_a_bigger_bomb_beats_a_bomb():
    out = ACTIONS["check"]({"play": "A A", "previous": "4 4 4 4"}, R).to_json()
    assert not out["legal"] and "bomb" in render(out["reason"], "en")


def test_check_play_must_be_in_the_hand_bare_ranks_match_any_suit():
    assert ACTIONS["check"]({"play": "5 5", "hand": "♠5 ♥5 3"}, R).to_json()["legal"]
    out = ACTIONS["check"]({"play": "5 5 5", "hand": "♠5 ♥5 3"}, R).to_json()
    assert not out["legal"] and "5" in render(out["reason"], "en")


def test_all_cards_of_a_request_fit_the_pack_together():
    with pytest.raises(InvalidNotation) as e:
        ACTIONS["check"]({"play": "5 5 5", "previous": "5 5 5 5 5 5"}, R).to_json()
    assert "at most 8" in e.value.message.render("en")


def test_pass_words_and_pass_rules():
    assert all(is_pass(w) for w in ["pass", "PASS", "不出", "过", " 要不起 "]) and not is_pass("3")
    assert not ACTIONS["check"]({"play": "pass"}, R).to_json()["legal"]
    assert ACTIONS["check"]({"play": "pass", "previous": "A"}, R).to_json()["legal"]
    strict = _Rules(must_beat=True)
    assert not ACTIONS["check"]({"play": "pass", "previous": "A", "hand": "2 3"}, strict).to_json()["legal"]
    assert ACTIONS["check"]({"play": "pass", "previous": "A", "hand": "K 3"}, strict).to_json()["legal"]
    with pytest.raises(InvalidInput):
        ACTIONS["check"]({"play": "pass", "previous": "A"}, strict).to_json()


def test_table_that_is_no_pattern_is_invalid_input():
    with pytest.raises(InvalidInput) as e:
        ACTIONS["check"]({"play": "5", "previous": "3 4"}, R).to_json()
    assert e.value.field == "previous"


def test_previous_reading_picks_a_reading_by_index():
    with pytest.raises(InvalidInput):
        ACTIONS["check"]({"play": "5", "previous": "4", "previous_reading": 3}, R).to_json()
    assert ACTIONS["check"]({"play": "5", "previous": "4", "previous_reading": 0}, R).to_json()["legal"]


@pytest.mark.parametrize("payload", [{}, {"play": 3}, {"play": "5", "hand": ["5"]}])
def test_malformed_payloads_raise_malformed_input(payload):
    with pytest.raises((MalformedInput, InvalidNotation)):
        ACTIONS["check"](payload, R).to_json()


def test_smallest_lead_plain_plays_by_rank_then_fewer_cards_and_bombs_last():
    plays = list(legal_plays(TOY, cards("3 3 3 3 K 9 9 2"), None))
    texts = [" ".join(map(str, c)) for c, _ in plays]
    assert texts == ["3", "3 3", "3 3 3", "9", "9 9", "K", "2", "3 3 3 3"]


def test_a_higher_plain_play_comes_before_a_bomb_with_a_lower_top():
    plays = legal_plays(TOY, cards("3 3 3 3 9 9"), legal_read("8 8"))
    assert [" ".join(map(str, c)) for c, _ in plays] == ["9 9", "3 3 3 3"]


def test_bombs_come_weakest_first():
    plays = legal_plays(TOY, cards("5 5 5 5 5 3 3 3 3"), legal_read("A"))
    assert [" ".join(map(str, c)) for c, _ in plays] == ["3 3 3 3", "5 5 5 5", "5 5 5 5 5"]


def test_legal_plays_is_a_lazy_view_smallest_first():
    plays = legal_plays(TOY, cards("3 3 5 9 9"), legal_read("4 4"))
    assert isinstance(plays, LegalPlays) and plays
    assert plays.smallest().cards == tuple(cards("9 9")) and plays.smallest().reading.kind == "x2"
    assert cards("9 9") in plays and cards("3 3") not in plays and cards("9 9 9") not in plays
    assert plays.take(5) == ([plays.smallest()], False)
    assert not legal_plays(TOY, cards("3 3 5"), legal_read("4 4"))


def test_must_beat_if_able_refuses_a_pass_exactly_when_legal_plays_is_not_empty():
    strict = _Rules(must_beat=True)
    for hand in ("3 5 9 9", "3 5 9"):
        can_beat = bool(legal_plays(Toy(strict), cards(hand), legal_read("4 4")))
        out = ACTIONS["check"]({"play": "pass", "previous": "4 4", "hand": hand}, strict).to_json()
        assert out["legal"] is not can_beat


def test_spec_for_builds_one_spec_per_distinct_rules():
    assert toy_for(_Rules(must_beat=True)) is toy_for(_Rules(must_beat=True))
    assert toy_for(_Rules(must_beat=True)) is not toy_for(_Rules(must_beat=False))


def test_hint_action_smallest_and_pass():
    out = ACTIONS["hint"]({"hand": "3 5 5", "previous": "4 4"}, R).to_json()
    assert out["plays"] == ["5 5"] and out["smallest"] == "5 5" and out["truncated"] is False
    out = ACTIONS["hint"]({"hand": "3 5", "previous": "4 4"}, R).to_json()
    assert out["plays"] == [] and out["smallest"] is None


def test_hint_limit_cuts_to_the_smallest_and_says_so():
    out = ACTIONS["hint"]({"hand": "3 4 5 6 7 8", "limit": 2}, R).to_json()
    assert out["plays"] == ["3", "4"] and out["truncated"] is True
    with pytest.raises(InvalidInput):
        ACTIONS["hint"]({"hand": "3", "limit": 0}, R).to_json()
    assert MAX_PLAYS == FOLLOW_LIMIT >= 100


def test_multisets_takes_k_items_every_way():
    got = sorted(multisets([("a", 2), ("b", 1)], 2))
    assert got == sorted([(("a", 2),), (("a", 1), ("b", 1))])
    assert list(multisets([("a", 1)], 2)) == []


def legal_read(text):
    return TOY.readings(cards(text))[0]


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.sampled_from([2, 3, 4, 5, 10, 13, 14]), min_size=1, max_size=9),
       st.sampled_from([None, "4", "4 4", "10 10 10", "6 6 6 6", "2"]))
def test_core_hint_equals_brute_force(ranks, table):
    hand = [Card(r) for r in ranks]
    counts = {r: ranks.count(r) for r in ranks}
    if any(n > 8 for n in counts.values()):
        return
    tr = legal_read(table) if table else None
    plays = legal_plays(TOY, hand, tr)
    assert {TOY.identity(c) for c, _ in plays} == set(brute_force_plays(TOY, hand, tr))


# --- no input reaches a 500 ----------------------------------------------------

from hypothesis import HealthCheck  # noqa: E402

from webapp import create_app  # noqa: E402

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=12)
    | st.sampled_from(["♠A ♥A", "7 7 大王", "pass", "3 4 5 6 7", "大王 大王 小王 小王", "♠3", "", "X9"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)
_FIELDS = st.sampled_from(["play", "previous", "hand", "cards", "rules", "limit", "previous_reading", "winner",
                           "cards_left", "finish_order", "bombs"])


@pytest.fixture(scope="module")
def raw_client():
    return create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": "sqlite://"}).test_client()


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["paodekuai", "shuangkou"]), st.sampled_from(["classify", "check", "hint", "settle"]),
       st.dictionaries(_FIELDS, _JSON, max_size=5))
def test_no_payload_gives_a_500_on_shedding_endpoints(raw_client, game, action, body):
    resp = raw_client.post(f"/api/v1/{game}/{action}", json=body)
    assert resp.status_code in (200, 400, 404, 422), (body, resp.get_json())
    if resp.status_code != 200:
        assert resp.get_json()["error"]["message"]


class PointsToy(Toy):
    """The toy game with point cards 10 and K (it counts them in the smallest-play order)."""

    def order(self, card):
        return 9 if card.rank in (10, 13) else super().order(card)


def test_a_cut_lead_list_respects_point_cards_before_size():
    spec = PointsToy(R)
    hand = cards("9 9 10 10 K")
    full, _ = legal_plays(spec, hand, None).take(100)
    cut, truncated = legal_plays(spec, hand, None).take(3)
    assert truncated and cut == full[:3]
    assert [" ".join(map(str, c)) for c, _ in full][:2] == ["9", "9 9"]  # no points before points


# --- the core's building blocks ---------------------------------------------------

from scoring import paodekuai as pdk  # noqa: E402
from scoring import q783
from scoring import shuangkou as sk
from scoring.shedding import STANDARD, RankOrder, read_cards  # noqa: E402


def test_zhengshangyou_is_a_variant_subclass_of_paodekuai_chosen_by_preset():
    zsy = pdk.spec_for(pdk.RULESET.resolve({"preset": pdk.ZSY}))
    plain = pdk.spec_for(pdk.RULESET.resolve({"preset": pdk.PDK52}))
    assert type(zsy) is pdk.ZhengshangyouSpec and isinstance(zsy, pdk.PaodekuaiSpec)
    assert type(plain) is pdk.PaodekuaiSpec
    assert pdk.find_variant(pdk.PDK48) is pdk.PaodekuaiSpec


def test_paodekuai_and_shuangkou_share_one_rank_order_and_q783_builds_its_own():
    rules_pdk = pdk.RULESET.resolve({})
    rules_sk = sk.RULESET.resolve({})
    assert pdk.spec_for(rules_pdk).rank_order is STANDARD is sk.spec_for(rules_sk).rank_order
    order = q783.spec_for(q783.RULESET.resolve({})).rank_order
    assert isinstance(order, RankOrder) and order.power(12) > order.power(7) > order.power(4)
    assert order.power(5) == -1  # a score card is never played


def test_a_rank_order_sorts_highest_first_and_lists_low_runs_only_when_asked():
    hand = parse_cards("♠3 大王 ♥2 ♣A")
    assert [str(c) for c in sorted(hand, key=STANDARD.sort_key)] == ["大王", "♥2", "♣A", "♠3"]
    assert [3, 4, 5, 6, 7] in STANDARD.windows(5) and [14, 2, 3, 4, 5] not in STANDARD.windows(5)
    assert [14, 2, 3, 4, 5] in STANDARD.windows(5, low=True)
    assert STANDARD.run_top([14, 2, 3, 4, 5], low=True) == 5 and STANDARD.run_top([12, 13, 14, 2, 3], True) is None


def test_the_shuangkou_hint_keeps_a_template_exactly_when_its_pattern_beats_the_table():
    spec = sk.spec_for(sk.RULESET.resolve({"same_lines": "first_played"}))
    table = spec.readings(parse_cards("4 4 4 4 4", bare=True))[0]
    bomb = spec.pattern("bomb")
    five = spec.readings(parse_cards("9 9 9 9 9", bare=True))[0]
    six = spec.readings(parse_cards("3 3 3 3 3 3", bare=True))[0]
    assert not bomb.beats(five, table) and bomb.beats(six, table)  # first_played: only more lines beat
    plays = {" ".join(map(str, p.cards)) for p in legal_plays(spec, parse_cards("9 9 9 9 9 3 3 3 3 3 3", bare=True),
                                                               table)}
    assert "9 9 9 9 9" not in plays and "3 3 3 3 3 3" in plays


def test_each_pattern_describes_itself_on_the_rules_page():
    rules = sk.RULESET.resolve({"min_triple_run": 2})
    texts = sk.pattern_texts(rules)
    assert texts[0] == sk.spec_for(rules).pattern("single").describe() and "(2+)" in render(texts[0], "en")
    zsy = pdk.RULESET.resolve({"preset": pdk.ZSY})
    assert pdk.spec_for(zsy).pattern("straight_flush").describe() in pdk.pattern_texts(zsy)


def test_a_card_error_is_raised_as_a_copy_about_the_field_and_never_changed():
    original = InvalidNotation(t("牌太多", "too many cards"))

    class Refusing:
        def check(self, cards, field=None):
            raise original

    class RefusingToy(Toy):
        def deck(self):
            return Refusing()

    with pytest.raises(InvalidNotation) as e:
        read_cards({"hand": "3"}, "hand", RefusingToy(R))
    assert e.value.field == "hand" and e.value is not original and original.field is None
