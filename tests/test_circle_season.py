"""The engine's circle season (scoring/circle.py): 对头 (against whom a player lost most), aliases followed to
the end of a chain, and every team game's sides as its ``Game.sides`` declares them."""
from __future__ import annotations

from scoring.circle import Evening, canonical, has_sides, season
from scoring.registry import get_game

NAMES = ("甲", "乙", "丙", "丁")


def hongwu_evening(table="t1", names=NAMES):
    game = get_game("hongwu")
    hands = [(1, {"declarer": 0}, [-9, 3, 3, 3], {"made": False}, [0, 1, 2, 3]),
             (2, {"declarer": 1}, [-3, 9, -3, -3], {"made": True}, [0, 1, 2, 3])]
    return game, Evening(table, None, names, hands, [-12, 12, 0, 0], game.ruleset.resolve({}))


def test_a_players_rival_is_the_opponent_against_whom_their_own_points_add_up_lowest():
    game, evening = hongwu_evening()
    rivals = {r.a: (r.b, r.hands, r.total) for r in season(game, [evening]).rivals}
    assert rivals["甲"] == ("乙", 2, -12)   # against 丙 or 丁 only hand 1: -9
    assert rivals["丙"] == ("乙", 1, -3)
    assert "乙" not in rivals               # gained against everyone


def test_an_alias_chain_is_followed_to_its_end_and_a_loop_stops_where_it_closes():
    assert canonical("A", {"A": "B", "B": "C"}) == "C"
    assert canonical("A", {"A": "B", "B": "A"}) == "B"
    game, evening = hongwu_evening(names=("老甲", "乙", "丙", "丁"))
    _, other = hongwu_evening("t2")
    standings = {s.name: s.total for s in season(game, [evening, other], {"老甲": "甲"}).standings}
    assert standings == {"甲": -24, "乙": 24, "丙": 0, "丁": 0}


def test_the_team_games_declare_their_sides_and_the_others_none():
    four = {"declarer": 2}
    assert get_game("shuangkou").sides({}, None, 4) == [(0, 2), (1, 3)]
    assert get_game("hongwu").sides(four, None, 4) == [(2,), (0, 1, 3)]
    erqiwang = get_game("erqiwang")
    assert erqiwang.sides(four, erqiwang.ruleset.resolve({}), 4) == [(0, 2), (1, 3)]
    assert erqiwang.sides(four, erqiwang.ruleset.resolve({"sides": "solo"}), 4) == [(2,), (0, 1, 3)]
    q783 = get_game("q783")
    assert q783.sides({"teams": True, "players": 6}, None, 6) == [(0, 2, 4), (1, 3, 5)]
    assert q783.sides({"teams": False}, None, 4) is None
    assert get_game("hongwu").sides({"declarer": "x"}, None, 4) is None
    assert not has_sides(get_game("paodekuai")) and has_sides(get_game("q783"))
