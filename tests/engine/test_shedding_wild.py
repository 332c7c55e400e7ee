"""Wild jokers as a core capability (``scoring/shedding/wild.py``), on a small game of its own: stock one rank,
n of a kind and runs whose templates wild jokers fill (``wild.Filled``) under a ``wild.WildSpec``.

Its hint is checked against the brute-force oracle (every sub-multiset judged through the readings);
its readings say what the jokers stand for; jokers alone are themselves and a joker that is not wild
never joins natural cards. 双扣 is built the same way (its own checks: tests/web/test_shuangkou.py).
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.cards import BIG_JOKER, Deck, format_cards, parse_cards
from scoring.i18n import t
from scoring.shedding import bombs, brute_force_multisets, legal_plays, runs, spec_cache, stock, wild

NAMES = {"single": t("单张", "single"), "pair": t("对子", "pair"), "triple": t("三张", "triple"),
         "bomb": t("炸弹", "bomb"), "straight": t("顺子", "straight"), "pair_run": t("连对", "pair run")}


class SameRank(wild.Filled, stock.SameRank):
    pass


class Bomb(wild.Filled, bombs.Bomb):
    least, most = 4, 6


class Straight(wild.Filled, runs.Run):
    max_len = 7


class PairRun(wild.Filled, runs.Run):
    width, min_len, kind = 2, 3, "pair_run"


class Jokers(stock.SameRank):
    """Jokers alone: a single or a pair of one joker (the stock one rank, read as it stands)."""

    def read(self, cards, counts):
        if all(r in stock.JOKERS for r in counts):
            yield from super().read(cards, counts)

    def candidates(self, hand, table, size, need):
        for r in stock.JOKERS:
            if size <= hand.count(r) and size <= 2:
                yield hand.take([(r, size)])


class WildGame(wild.WildSpec):
    slug = "wild-test"
    bare = True
    kind_names = NAMES
    pattern_types = (Jokers, SameRank, Bomb, Straight, PairRun)

    def deck(self):
        return Deck(2, jokers=True)

    def wild_ranks(self):
        return (BIG_JOKER,) if self.rules.get("big_only") else stock.JOKERS


spec_for = spec_cache(WildGame)
BOTH, BIG_ONLY = spec_for({}), spec_for({"big_only": True})


def read(spec, text: str) -> list[tuple[str, dict]]:
    return [(r.label.render("zh"), {k: v for k, v in r.extra.items() if k != "top"})
            for r in spec.readings(parse_cards(text, bare=True))]


def test_wild_jokers_fill_a_template_and_say_what_they_stand_for():
    assert read(BOTH, "3 4 大王 6 7") == [("顺子（3 4 5 6 7）（王当 5）", {"as": "3 4 5 6 7", "wild_as": ["5"]})]
    assert read(BOTH, "9 9 小王 大王") == [("炸弹（9 9 9 9）（王当 9 9）", {"as": "9 9 9 9", "wild_as": ["9", "9"]})]


def test_a_play_read_several_ways_gives_every_reading():
    assert [label for label, _ in read(BOTH, "6 7 8 9 大王")] == ["顺子（5 6 7 8 9）（王当 5）", "顺子（6 7 8 9 10）（王当 10）"]


def test_a_run_is_at_most_its_max_len_ranks_jokers_filling_or_not():
    assert [label for label, _ in read(BOTH, "3 4 5 6 7 8 大王")] == ["顺子（3 4 5 6 7 8 9）（王当 9）"]
    assert read(BOTH, "3 4 5 6 7 8 9 10") == []
    assert read(BOTH, "3 4 5 6 7 8 9 大王") == []


def test_jokers_alone_are_themselves():
    assert read(BOTH, "大王 大王") == [("对子（大王 大王）", {})]
    assert read(BOTH, "大王 小王") == []


def test_a_joker_that_is_not_wild_never_joins_natural_cards():
    assert read(BIG_ONLY, "5 小王") == []
    assert read(BIG_ONLY, "5 大王") == [("对子（5 5）（王当 5）", {"as": "5 5", "wild_as": ["5"]})]
    assert read(BOTH, "5 小王") == [("对子（5 5）（王当 5）", {"as": "5 5", "wild_as": ["5"]})]


RANKS = ["3", "4", "5", "6", "7", "9", "大王", "小王"]


@st.composite
def hand_and_table(draw):
    cards = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=9))
    cards = [c for i, c in enumerate(cards) if cards[:i].count(c) < (2 if c in ("大王", "小王") else 8)]
    table = draw(st.sampled_from([None, "4", "6 6", "3 3 3", "3 4 5 6 7", "4 4 5 5 6 6", "5 5 5 5", "7 7 7 7 7"]))
    return " ".join(cards), table


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_table(), st.sampled_from([BOTH, BIG_ONLY]))
def test_the_hint_with_wild_jokers_is_every_legal_sub_multiset(case, spec):
    hand, previous = case
    hand = parse_cards(hand, bare=True)
    table = spec.readings(parse_cards(previous, bare=True))[0] if previous else None
    got = {spec.identity(p.cards): format_cards(p.cards, spec.sort_key()) for p in legal_plays(spec, hand, table)}
    oracle = brute_force_multisets(spec, hand, table)
    assert set(got) == set(oracle)
