"""Reads have a bound (issue 38, item 7): realistic input bounds."""
from __future__ import annotations

import pytest


def test_a_q783_hand_cannot_have_more_rounds_than_two_decks_have_play_cards(client):
    rounds = [{"winner": 0, "count": 1}] * 81  # 108 cards less 28 score cards: 80 can be played
    answer = client.post("/api/v1/q783/settle", json={"players": 4, "rounds": rounds, "finish_order": [0],
                                                       "rules": {"scoring": "cards"}})
    assert answer.status_code in (400, 422), answer.status_code
    assert answer.get_json()["error"]["code"] == "too_many", answer.get_json()


def _settled(client, rounds, rules):
    return client.post("/api/v1/q783/settle", json={"players": 4, "rounds": rounds, "finish_order": [0],
                                                     "rules": {"scoring": "cards", **rules}})


@pytest.mark.parametrize("rules, most", [({}, 80), ({"decks": 1}, 40), ({"ace_scores": True}, 72)])
def test_a_q783_hands_rounds_play_no_more_cards_than_its_pack_has_to_play(client, rules, most):
    full = [{"winner": 0, "count": most - 1}, {"winner": 1, "count": 1}]
    assert _settled(client, full, rules).status_code == 200
    over = _settled(client, [{"winner": 0, "count": most - 1}, {"winner": 1, "count": 2}], rules)
    assert over.status_code == 422, over.get_json()
    assert over.get_json()["error"]["code"] in ("too_many_cards", "out_of_range"), over.get_json()
    ones = _settled(client, [{"winner": i % 4, "count": 1} for i in range(most + 1)], rules)
    assert ones.status_code in (400, 422) and ones.get_json()["error"]["code"] in ("too_many", "too_many_cards")
