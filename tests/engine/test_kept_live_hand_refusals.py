"""A live hand is kept between requests as a plain mapping and read back by ``restore`` (``scoring/live.py``):
what does not read back is refused with its field and code (a 4xx the page shows by the field), never
a crash — for the trick games' protocol (``scoring/trick/live.py``) and for Q783's round machine
(``scoring/q783_rounds.py``), which checks the table, each round and the finishing order itself."""
from __future__ import annotations

import pytest

from scoring.errors import InvalidInput, MalformedInput
from scoring.registry import get_game


def kept(slug: str, start: dict, rules: dict) -> tuple:
    game = get_game(slug)
    resolved = game.ruleset.resolve(rules)
    live = game.live_hand
    return live, live.kept(live.start({"players": 4, **start}, resolved)), resolved


def refusal(slug: str, start: dict, change: dict, rules: dict | None = None) -> tuple[str, str, str]:
    live, hand, resolved = kept(slug, start, rules or {})
    changed = {live.rounds_field if key == "rounds" else key: value for key, value in change.items()}
    with pytest.raises((InvalidInput, MalformedInput)) as refused:
        live.restore({**hand, **changed}, resolved)
    error = refused.value
    return type(error).__name__, error.code, error.field


ERQIWANG = {"declarer": 0, "bid": 80}


@pytest.mark.parametrize("change, expected", [
    ({"declarer": 7}, ("MalformedInput", "invalid_seat", "declarer")),
    ({"bid": "eighty"}, ("MalformedInput", "not_an_integer", "bid")),
    ({"rounds": [5]}, ("MalformedInput", "malformed_round", "tricks[0]")),
    ({"rounds": [{"winner": 1, "points": 7}]}, ("InvalidInput", "not_a_multiple", "tricks[0].points")),
    ({"rounds": [{"winner": 1, "points": 100}, {"winner": 2, "points": 100}, {"winner": 3, "points": 5}]},
     ("InvalidInput", "too_many_points", "tricks[2].points")),  # the pack holds 200
    ({"last": "nobody_knows"}, ("MalformedInput", "invalid_choice", "last")),
    ({"last": "none", "bottom": 7}, ("InvalidInput", "out_of_range", "bottom")),
], ids=["declarer seat", "bid", "trick not an object", "points not by fives", "more points than the pack",
        "last trick", "bottom not by fives"])
def test_a_kept_trick_hand_that_does_not_read_back_is_refused_by_its_field(change, expected):
    assert refusal("erqiwang", ERQIWANG, change) == expected


def test_a_finished_trick_hand_takes_no_more_tricks_until_undone():
    live, hand, resolved = kept("erqiwang", ERQIWANG, {})
    finished, _ = live.finish(hand, {"last": "none", "bottom": 0}, resolved)
    with pytest.raises(InvalidInput) as refused:
        live.add(finished, {"winner": 1, "points": 5}, resolved)
    assert (refused.value.code, refused.value.field) == ("hand_closed", "tricks")
    assert live.add(live.undo(finished), {"winner": 1, "points": 5}, resolved).rounds == ({"winner": 1, "points": 5},)


@pytest.mark.parametrize("change, rules, expected", [
    ({"players": 7}, {}, ("InvalidInput", "out_of_range", "players")),
    ({"banks": 100}, {}, ("MalformedInput", "not_a_list", "banks")),
    ({"banks": [100, 100, 100]}, {}, ("InvalidInput", "wrong_length", "banks")),
    ({"rounds": [5]}, {}, ("MalformedInput", "malformed_round", "rounds[0]")),
    ({"rounds": [{"winner": 9, "count": 2}]}, {"scoring": "cards"}, ("InvalidInput", "unknown_seat", "rounds[0].winner")),
    ({"rounds": [{"winner": 0, "count": 999}]}, {"scoring": "cards"}, ("InvalidInput", "out_of_range", "rounds[0].count")),
    ({"rounds": [{"winner": 0}]}, {"scoring": "cards"}, ("MalformedInput", "missing_field", "rounds[0].cards")),
    ({"rounds": [{"winner": 0, "won_with": "a_royal_flush"}]}, {},
     ("MalformedInput", "invalid_choice", "rounds[0].won_with")),
    ({"finish_order": 1}, {}, ("MalformedInput", "not_a_list", "finish_order")),
    ({"finish_order": [1, 1]}, {}, ("InvalidInput", "repeated_seat", "finish_order[1]")),
], ids=["seven players", "banks not a list", "banks of three seats", "round not an object", "winner's seat",
        "count past the pack", "round with neither cards nor count", "won with", "finishing order not a list",
        "a seat out twice"])
def test_a_kept_q783_hand_that_does_not_read_back_is_refused_by_its_field(change, rules, expected):
    assert refusal("q783", {}, change, rules) == expected
