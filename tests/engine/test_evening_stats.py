"""The evening's numbers (scoring/evening.py): hands won, 庄家 made / failed, biggest hand, streaks."""
from __future__ import annotations

from scoring.evening import contract_made, declarer_field, evening_stats
from scoring.registry import get_game

HONGWU = get_game("hongwu")
ERQIWANG = get_game("erqiwang")
PDK = get_game("paodekuai")


def settled(game, number, payload):
    """A stored hand as the ledger keeps it: (number, input, deltas, result without deltas)."""
    result = game.run("settle", payload)
    return number, payload, result.pop("deltas"), result


def hongwu(number, declarer, bid, points, bottom=0, took=False):
    return settled(HONGWU, number, {"declarer": declarer, "bid": bid, "declarer_points": points,
                                    "bottom_points": bottom, "declarer_took_bottom": took, "red_fives": []})


def pdk(number, deltas):
    return number, {}, deltas, {}


def test_the_trick_games_declare_their_zhuangjia_field_and_the_shedding_games_none():
    assert declarer_field(HONGWU) == "declarer"
    assert declarer_field(ERQIWANG) == "declarer"
    assert declarer_field(PDK) is None
    assert declarer_field(get_game("q783")) is None


def test_a_hand_won_is_a_positive_delta_and_counts_per_player():
    stats = evening_stats(PDK, 4, [pdk(1, [9, -3, -3, -3]), pdk(2, [-4, 6, -2, 0]), pdk(3, [5, -5, 0, 0])])
    assert [s.won for s in stats] == [2, 1, 0, 0]
    assert [s.hands for s in stats] == [3, 3, 3, 3]


def test_the_biggest_hand_is_the_largest_single_win_and_says_which_hand():
    stats = evening_stats(PDK, 4, [pdk(1, [9, -3, -3, -3]), pdk(2, [-14, 12, 2, 0]), pdk(3, [11, -11, 0, 0])])
    assert [(s.biggest, s.biggest_hand) for s in stats] == [(11, 3), (12, 2), (2, 2), (0, None)]


def test_the_streak_is_the_run_the_evening_ends_on_and_the_best_run_is_kept():
    hands = [pdk(1, [5, -5, 0, 0]), pdk(2, [5, -5, 0, 0]), pdk(3, [5, -5, 0, 0]), pdk(4, [-5, 5, 0, 0]),
             pdk(5, [1, 1, -2, 0])]
    stats = evening_stats(PDK, 4, hands)
    assert [s.streak for s in stats] == [1, 2, -1, 0]  # won the last; won 2 in a row; lost the last; even
    assert [s.best_streak for s in stats] == [3, 2, 0, 0]
    assert evening_stats(PDK, 4, [pdk(1, [-1, -1, 2, 0]), pdk(2, [-1, -1, 2, 0])])[0].streak == -2


def test_hands_are_counted_in_hand_order_whatever_order_they_come_in():
    ordered = evening_stats(PDK, 4, [pdk(1, [5, -5, 0, 0]), pdk(2, [-5, 5, 0, 0])])
    shuffled = evening_stats(PDK, 4, [pdk(2, [-5, 5, 0, 0]), pdk(1, [5, -5, 0, 0])])
    assert ordered == shuffled
    assert ordered[0].streak == -1


def test_hongwu_zhuangjia_made_and_failed_come_from_the_engines_result():
    hands = [hongwu(1, 0, 100, 120, 15, True),   # 0 makes it
             hongwu(2, 0, 100, 60),              # 0 fails
             hongwu(3, 2, 80, 95)]               # 2 makes it
    stats = evening_stats(HONGWU, 4, hands)
    assert [(s.declared, s.made, s.failed) for s in stats] == [(2, 1, 1), (0, 0, 0), (1, 1, 0), (0, 0, 0)]


def test_hongwu_exactly_the_bid_fails_under_the_seed_rules():
    """seed tiers: a final of exactly 0 loses (rules/hongwu.md); the stats follow the engine, not a guess."""
    _, _, deltas, result = hongwu(1, 1, 80, 80)
    assert contract_made(result) is False
    assert deltas[1] < 0


def test_erqiwang_zhuangjia_made_when_the_defenders_stay_under_the_bid_and_surrender_fails():
    hands = [settled(ERQIWANG, 1, {"declarer": 1, "bid": 60, "defender_points": 20}),
             settled(ERQIWANG, 2, {"declarer": 1, "bid": 60, "defender_points": 100}),
             settled(ERQIWANG, 3, {"declarer": 3, "bid": 60, "surrender": True})]
    stats = evening_stats(ERQIWANG, 4, hands)
    assert [(s.made, s.failed) for s in stats] == [(0, 0), (1, 1), (0, 0), (0, 1)]


def test_a_stored_hand_without_the_engines_answer_counts_neither_made_nor_failed():
    stats = evening_stats(HONGWU, 4, [(1, {"declarer": 0}, [6, -2, -2, -2], {"final": 20})])
    assert (stats[0].declared, stats[0].made, stats[0].failed) == (0, 0, 0)
    assert stats[0].won == 1


def test_an_odd_stored_declarer_is_ignored_not_an_error():
    for odd in (None, "x", "１", 7, -1, True, "9"):
        stats = evening_stats(HONGWU, 4, [(1, {"declarer": odd}, [6, -2, -2, -2], {"made": True})])
        assert sum(s.declared for s in stats) == 0


def test_a_declarer_stored_as_its_digits_counts_as_that_seat():  # as the table page's form stores it
    stats = evening_stats(HONGWU, 4, [(1, {"declarer": "2"}, [-2, -2, 6, -2], {"made": True})])
    assert [(s.declared, s.made) for s in stats] == [(0, 0), (0, 0), (1, 1), (0, 0)]


def test_no_hands_give_empty_numbers():
    stats = evening_stats(HONGWU, 4, [])
    assert [(s.hands, s.won, s.biggest_hand, s.streak) for s in stats] == [(0, 0, None, 0)] * 4


def test_after_a_seat_change_a_hand_counts_for_the_players_seated_and_its_zhuangjia_is_the_seated_player():
    # five players at the table; hand 2 was played by players 4, 1, 2, 3 (player 0 sat out)
    number, data, deltas, result = hongwu(2, declarer=0, bid=100, points=130)
    per_player = [0, deltas[1], deltas[2], deltas[3], deltas[0]]
    stats = evening_stats(HONGWU, 5, [pdk(1, [3, -1, -1, -1, 0]), (number, data, per_player, result, [4, 1, 2, 3])])
    assert stats[0].hands == 1 and stats[0].streak == 1  # sitting out neither wins nor breaks the streak
    assert stats[4].declared == 1 and stats[0].declared == 0
    assert result["made"] is True and stats[4].made == 1
