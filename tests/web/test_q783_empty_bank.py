"""A Q783 hand cannot start where its 大局 has already ended (issue 27): a starting bank of 0 is refused, on the
API and at a table, unless negative banks are allowed."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang, words", [("zh", "这一大局已经结束"), ("en", "already over")])
def test_a_hand_starting_with_an_empty_bank_is_refused_with_game_over(api, lang, words):
    status, out = api("q783/settle", {"players": 4, "banks": [100, 0, 100, 100], "rounds": [], "finish_order": [0]},
                      lang=lang)
    assert status == 422 and out["error"]["code"] == "game_over" and out["error"]["field"] == "banks[1]"
    assert words in out["error"]["message"]


def test_with_negative_banks_a_bank_of_0_is_just_a_bank(api):
    status, out = api("q783/settle", {"players": 4, "banks": [100, 0, 100, 100], "rounds": [], "finish_order": [0],
                                      "rules": {"negative_banks": True}})
    assert status == 200 and sum(out["deltas"]) == 0


def test_a_table_refuses_a_first_hand_whose_bank_is_empty(client):
    created = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    answer = client.post(f"/api/v1/tables/{created['id']}/hands", headers={"X-Edit-Token": created["edit_token"]},
                         json={"banks": [0, 100, 100, 100], "rounds": [], "finish_order": [1]})
    assert answer.status_code == 422 and answer.get_json()["error"]["code"] == "game_over"
    assert client.get(f"/api/v1/tables/{created['id']}").get_json()["hands"] == []
