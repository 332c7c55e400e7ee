"""A table's hands one after another (``scoring/series.py``): what a hand carries to the next (Q783's banks),
when the next hand starts fresh instead, when a stored hand is moved to other banks without being read again,
and that a hand settled in a chain answers what the game's own quiet settle answers."""
from __future__ import annotations

import pytest

from scoring import series
from scoring.errors import PaijuError
from scoring.registry import get_game

Q783 = get_game("q783")
RULES = Q783.ruleset.resolve({"negative_banks": True, "scoring": "cards"})
HAND = {"players": 4, "rounds": [{"winner": 0, "count": 2}], "finish_order": [1]}


def test_banks_follow_their_players_to_new_seats():
    assert series.carried_to({"banks": [10, 20, 30, 40]}, [0, 1, 2, 3], [1, 0, 3, 2]) == {"banks": [20, 10, 40, 30]}


def test_banks_of_another_number_of_seats_than_the_hand_s_are_not_carried():
    # the same players, but the carried banks name three seats: the next hand starts fresh
    assert series.carried_to({"banks": [10, 20, 30]}, [0, 1, 2, 3], [0, 1, 2, 3]) is None
    assert series.carried_to({"banks": [10, 20, 30]}, [0, 1, 2, 3], [1, 0, 2, 3]) is None


def test_nothing_is_carried_after_no_hand_or_in_a_game_that_carries_nothing():
    result = Q783.settle_quietly({**HAND, "banks": [100] * 4}, RULES)
    assert series.carried_after(Q783, result, [0, 1, 2, 3], [0, 1, 2, 3]) == {"banks": result["banks"]}
    assert series.carried_after(Q783, None, [0, 1, 2, 3], [0, 1, 2, 3]) is None
    paodekuai = get_game("paodekuai")
    assert series.carried_after(paodekuai, {"deltas": [1, -1, 0]}, [0, 1, 2], [0, 1, 2]) is None


FIRST = Q783.settle_quietly({**HAND, "banks": [100] * 4}, RULES)


def moved(deltas, seats, players=4):
    """The hand (stored from banks of 100 each) moved to banks 90, 110, 100, 100, or None: settle it in full."""
    return series.settle_moved(Q783, HAND, {"banks": [100] * 4}, {"banks": FIRST["banks"]}, deltas,
                               {"banks": [90, 110, 100, 100]}, seats, players, RULES)


def test_a_stored_hand_moves_to_other_banks_without_being_read_again():
    answer = moved(FIRST["deltas"], [0, 1, 2, 3])
    assert answer is not None
    assert answer[1] == Q783.settle_quietly({**HAND, "banks": [90, 110, 100, 100]}, RULES)


@pytest.mark.parametrize("deltas, seats", [
    ([-20, 140, -60], [0, 1, 2, 3]),        # deltas for fewer players than the table has
    ([-20, 140, -60, -60], [0, 1, 1, 3]),   # a player in two seats
    ([-20, 140, -60, -60], [0, 1, 2, 4]),   # a seat of a player the table does not have
], ids=["short deltas", "repeated seat", "seat past the players"])
def test_a_stored_hand_whose_seats_or_deltas_do_not_fit_the_table_is_settled_in_full_not_moved(deltas, seats):
    assert FIRST["deltas"] == [-20, 140, -60, -60]  # the same numbers, only the table's shape is wrong
    assert moved(deltas, seats) is None


def _answer(settle, payload):
    try:
        return settle(payload, RULES)
    except PaijuError as exc:
        return ("refused", exc.code, exc.field, str(exc))


@pytest.mark.parametrize("extra", [{"note": object()}, {"finish_order": {1}}], ids=["settles", "refused"])
def test_a_hand_whose_input_is_not_json_is_settled_in_full_with_the_game_s_own_answer(extra):
    payload = {**HAND, "banks": [100] * 4, **extra}
    in_chain = _answer(lambda p, rules: series.settle_quietly(Q783, p, rules), payload)
    assert in_chain == _answer(Q783.settle_quietly, payload)


def test_forgetting_the_read_hands_empties_the_process_s_store_of_them():
    series.settle_quietly(Q783, {**HAND, "banks": [100] * 4}, RULES)
    assert series._read_once.cache_info().currsize >= 1
    series.forget_read_hands()
    assert series._read_once.cache_info().currsize == 0
