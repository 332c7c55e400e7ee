"""Bombs that are not four of a rank, in the hint and the check (``rules/paodekuai.md``): 争上游's 天王 (大王 大王
小王 小王), the highest bomb, with kickers under ``bomb_kickers`` (two singles or two pairs, compared only with
bombs carrying as many); 跑得快's three aces, a bomb in the packs that hold only three."""
from __future__ import annotations

from scoring.i18n import render
from scoring.registry import get_game

PAODEKUAI = get_game("paodekuai")
KICKERS = {"preset": "zhengshangyou108", "bomb_kickers": True}
FOUR_JOKERS = "小王 小王 大王 大王"


def run(action: str, payload: dict, rules: dict) -> dict:
    return render(PAODEKUAI.run(action, {**payload, "rules": rules}), "en")


def test_four_jokers_with_two_singles_read_as_a_bomb_topped_by_the_big_joker():
    out = run("classify", {"cards": "大王 3 小王 大王 4 小王"}, KICKERS)
    assert [(r["kind"], r["bomb"], r["kickers"], r["top"]) for r in out["readings"]] == [("bomb", True, 2, "大王")]
    assert out["cards"] == f"{FOUR_JOKERS} 3 4"


def test_a_lead_from_four_jokers_and_two_singles_offers_the_four_jokers_alone_and_with_the_singles():
    plays = run("hint", {"hand": "大王 大王 小王 小王 3 4"}, KICKERS)["plays"]
    assert FOUR_JOKERS in plays and f"{FOUR_JOKERS} 3 4" in plays
    assert plays[0] == "3"  # the smallest lead is no bomb


def test_four_jokers_beat_a_bomb_of_as_many_kickers_and_only_with_as_many():
    two = run("hint", {"hand": "大王 大王 小王 小王 3 4", "previous": "5 5 5 5 6 7"}, KICKERS)
    assert two["plays"] == [f"{FOUR_JOKERS} 3 4"]  # not the four jokers alone: the table's bomb carries two
    four = run("hint", {"hand": "大王 大王 小王 小王 3 3 4 4", "previous": "5 5 5 5 6 6 7 7"}, KICKERS)
    assert four["plays"] == [f"{FOUR_JOKERS} 3 3 4 4"]
    plain = run("hint", {"hand": "大王 大王 小王 小王 3 4", "previous": "5 5 5 5"}, KICKERS)
    assert plain["plays"] == [FOUR_JOKERS]


def test_the_check_lets_four_jokers_beat_a_bomb_only_with_as_many_kickers():
    def legal(play):
        return run("check", {"hand": "大王 大王 小王 小王 3 4 8", "play": play, "previous": "5 5 5 5 6 7"},
                   KICKERS)["legal"]
    assert legal("大王 大王 小王 小王 3 4") is True
    assert legal("大王 大王 小王 小王") is False


def test_three_aces_are_a_bomb_the_hint_offers_over_a_single_king_in_a_pack_of_three_aces():
    out = run("hint", {"hand": "♥A ♣A ♦A ♠3 ♥4", "previous": "♠K"}, {"preset": "paodekuai48"})
    assert out["plays"] == ["♥A", "♥A ♣A ♦A"]
