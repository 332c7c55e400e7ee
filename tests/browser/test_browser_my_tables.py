"""My tables (issue 26): each table this phone has seen shows its date, its number of hands and the leader, so
two evenings with the same players can be told apart on the home page."""
from __future__ import annotations

import datetime

import pytest

pytestmark = pytest.mark.browser


def test_my_tables_show_each_tables_date_hands_and_leader(page, live_server):
    made = []
    for winner in (1, 2):
        created = page.request.post(live_server + "/api/v1/tables",
                                    data={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).json()
        for _ in range(winner):
            page.request.post(f"{live_server}/api/v1/tables/{created['id']}/hands",
                              data={"rounds": [], "finish_order": [winner]},
                              headers={"X-Edit-Token": created["edit_token"]})
        page.goto(f"{live_server}/tables/{created['id']}")
        made.append(created["id"])
    page.goto(live_server + "/")
    items = page.locator("#my-tables li.my-table")
    assert items.count() == 2
    today = datetime.date.today().isoformat()
    newest, older = (items.nth(0).inner_text(), items.nth(1).inner_text())
    assert today in newest and "2局" in newest and "领先：丙 +300" in newest
    assert "1局" in older and "领先：乙 +150" in older
