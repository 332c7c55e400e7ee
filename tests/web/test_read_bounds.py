"""Reads have a bound (issue 38, item 7): realistic input bounds."""
from __future__ import annotations


def test_a_q783_hand_cannot_have_more_rounds_than_two_decks_have_cards(client):
    rounds = [{"winner": 0, "count": 1}] * 109
    answer = client.post("/api/v1/q783/settle", json={"players": 4, "rounds": rounds, "finish_order": [0]})
    assert answer.status_code in (400, 422), answer.status_code
    assert answer.get_json()["error"]["code"] == "too_many", answer.get_json()
