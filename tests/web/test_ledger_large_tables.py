"""A table grows past its seats when people are replaced during the evening (up to ``MAX_PEOPLE``): every page
and answer of such a table works, settling up included."""
from __future__ import annotations

import pytest

from webapp.ledger.seats import MAX_PEOPLE


@pytest.fixture
def client(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app.test_client()


def _table_with_everyone_replaced_in_turn(client) -> dict:
    created = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    tid, token = created["id"], created["edit_token"]
    client.get(f"/tables/{tid}/edit/{token}")  # the edit cookie
    people = 4
    while True:
        seat = people % 4
        for winner in (seat, (seat + 1) % 4)[: 1 + people % 2]:  # the first out collects the penalty from everyone
            hand = {"rounds": [], "finish_order": [winner]}
            answer = client.post(f"/api/v1/tables/{tid}/hands", json=hand, headers={"X-Edit-Token": token})
            assert answer.status_code == 201
        if people == MAX_PEOPLE:
            return created
        page = client.post(f"/tables/{tid}/edit/seats", data={"kind": "replace", "seat": str((seat + 1) % 4 + 1),  # seats as the form numbers them
                                                             "name": f"新{people}"})
        assert page.status_code == 303
        people += 1


def test_settling_up_a_table_of_the_most_people_it_holds_pays_every_total_exactly(client):
    tid = _table_with_everyone_replaced_in_turn(client)["id"]
    table = client.get(f"/api/v1/tables/{tid}").get_json()
    assert len(table["players"]) == MAX_PEOPLE
    answer = client.get(f"/api/v1/tables/{tid}/settle-up?per_point=0.5")
    assert answer.status_code == 200
    out = answer.get_json()
    moved = [0] * MAX_PEOPLE
    for tr in out["transfers"]:
        moved[tr["from"]] -= tr["points"]
        moved[tr["to"]] += tr["points"]
    assert moved == out["totals"] and sum(1 for x in out["totals"] if x) > 12
    page = client.get(f"/tables/{tid}/settle-up?per_point=0.5")
    assert page.status_code == 200 and "新15" in page.get_data(as_text=True)
