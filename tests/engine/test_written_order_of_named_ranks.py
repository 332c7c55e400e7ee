"""How a play holding named ranks is written (``rules/common.md``, "Smallest legal play"; ``cards.arrange``):
a play of Q, 7, 8 and 3 held unevenly is written like any other play, its deciding group first and the kickers
after it; a low run filled by wild jokers is written from its low end, the jokers last.

Each example is a legal play of a game, written as that game's ``classify`` answers it."""
from __future__ import annotations

from scoring.i18n import render
from scoring.registry import get_game


def written(slug: str, cards: str, **rules) -> tuple[str, list[str]]:
    """The play as the game writes it, and its readings (to show the play is legal)."""
    out = render(get_game(slug).run("classify", {"cards": cards, "rules": rules}), "en")
    return out["cards"], [r["kind"] for r in out["readings"]]


def test_an_airplane_with_q_and_3_as_its_pairs_is_written_triples_first_not_as_q_7_8_3():
    # ranks Q, 7, 8 and 3 (what a Q783 play holds), but held 2, 3, 3, 2 times: the triples decide, the pairs follow
    cards, kinds = written("paodekuai", "Q Q 3 8 7 8 3 7 7 8", preset="zhengshangyou108")
    assert kinds == ["triple_run_pairs"]
    assert cards == "7 7 7 8 8 8 3 3 Q Q"


def test_the_same_ranks_held_as_often_each_are_written_as_players_name_them_q_7_8_3():
    cards, _ = written("q783", "♥3 ♥8 ♥7 ♥Q")
    assert cards == "♥Q ♥7 ♥8 ♥3"


def test_a_chain_bomb_through_2_and_3_filled_by_four_wild_jokers_is_written_from_its_low_end():
    cards, kinds = written("shuangkou", "大王 3 3 2 2 小王 3 3 2 2 大王 小王", chain_with_two=True)
    assert kinds == ["chain", "chain"]  # 2222 3333 4444 or AAAA 2222 3333
    assert cards == "2 2 2 2 3 3 3 3 小王 小王 大王 大王"  # not 3 3 3 3 2 2 2 2 …: 2 is low in a run through 3


def test_a_chain_through_2_and_3_that_one_wild_joker_fills_unevenly_is_written_from_its_low_end():
    # 2222 3333 444 and a joker for the fourth 4: the ranks are held unevenly, yet the run starts at 2
    cards, kinds = written("shuangkou", "4 3 2 大王 2 3 4 2 3 4 2 3", chain_with_two=True)
    assert kinds == ["chain"]
    assert cards == "2 2 2 2 3 3 3 3 4 4 4 大王"  # as the same chain without a joker is written
