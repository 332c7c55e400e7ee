"""Stats that count (issue 26): 坐庄 made/failed on 结账, from hands recorded at a 红五 or 二七王 table, on SQLite and
PostgreSQL."""
from __future__ import annotations

import re

import pytest

from test_ledger_db import ledger_app  # noqa: F401 - fixture

HANDS = {
    "hongwu": [({"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15, "declarer_took_bottom": True},
                "made"),
               ({"declarer": 0, "bid": 150, "declarer_points": 60, "bottom_points": 0, "declarer_took_bottom": False},
                "failed"),
               ({"declarer": 2, "bid": 80, "declarer_points": 120, "bottom_points": 10, "declarer_took_bottom": True},
                "made")],
    "erqiwang": [({"declarer": 1, "bid": 60, "defender_points": 40}, "made"),
                 ({"declarer": 1, "bid": 50, "defender_points": 90}, "failed"),
                 ({"declarer": 3, "bid": 70, "defender_points": 30}, "made")],
}


def _made_failed(page: str) -> list[str]:
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    return re.findall(r"坐庄 成/败 (\d+/\d+)", text)


@pytest.mark.parametrize("game", list(HANDS))
def test_declarer_made_and_failed_are_counted_from_recorded_hands(ledger_app, game):
    client = ledger_app.test_client()
    created = client.post("/api/v1/tables", json={"game": game, "players": ["甲", "乙", "丙", "丁"]}).get_json()
    tid, token = created["id"], created["edit_token"]
    expected = {}
    for hand, outcome in HANDS[game]:
        answer = client.post(f"/api/v1/tables/{tid}/hands", json=hand, headers={"X-Edit-Token": token})
        assert answer.status_code == 201 and answer.get_json()["hand"]["made"] is (outcome == "made")
        made, failed = expected.get(hand["declarer"], (0, 0))
        expected[hand["declarer"]] = (made + (outcome == "made"), failed + (outcome == "failed"))
    counts = _made_failed(client.get(f"/tables/{tid}/settle-up").get_data(as_text=True))
    assert counts == [f"{expected.get(seat, (0, 0))[0]}/{expected.get(seat, (0, 0))[1]}" for seat in range(4)]


@pytest.mark.parametrize("game,hand,declarer", [
    ("hongwu", {"declarer": "2", "bid": "100", "declarer_points": "120", "bottom_points": "15",
                "declarer_took_bottom": "y"}, 2),
    ("erqiwang", {"declarer": "1", "bid": "60", "defender_points": "40"}, 1)])
def test_a_hand_saved_from_the_table_page_counts_for_its_declarer(ledger_app, game, hand, declarer):
    ledger_app.config["WTF_CSRF_ENABLED"] = False
    client = ledger_app.test_client()
    created = client.post("/api/v1/tables", json={"game": game, "players": ["甲", "老王", "丙", "丁"]}).get_json()
    client.get(f"/tables/{created['id']}/edit/{created['edit_token']}")
    assert client.post(f"/tables/{created['id']}/edit", data=hand).status_code == 303
    counts = _made_failed(client.get(f"/tables/{created['id']}/settle-up").get_data(as_text=True))
    assert counts[declarer] == "1/0" and counts.count("0/0") == 3
