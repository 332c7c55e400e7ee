"""A hand posted to a table resolves the table's house rules once a request (issue 39 item 6): the readability
check of the stored rules on the read and under the write's lock, the form and the settlement share one
resolution (SQLite and PostgreSQL)."""
from __future__ import annotations

import pytest
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_tables_pages import csrf, open_table

from scoring.rules import RuleSet

HAND = {"banks-0": "100", "banks-1": "100", "banks-2": "100", "banks-3": "100", "finish_order-0": "1"}


@pytest.fixture
def resolved(monkeypatch):
    """The calls of ``RuleSet.resolve`` since the counter was last emptied."""
    calls = []
    real = RuleSet.resolve

    def counted(self, rules=None):
        calls.append(rules)
        return real(self, rules)

    monkeypatch.setattr(RuleSet, "resolve", counted)
    return calls


def test_a_hand_posted_with_the_table_page_s_form_resolves_the_table_s_rules_once(lclient, resolved):  # noqa: F811
    _table_id, edit_path = open_table(lclient)
    page = lclient.get(edit_path).get_data(as_text=True)
    resolved.clear()
    resp = lclient.post(edit_path, data={"csrf_token": csrf(page), **HAND})
    assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    assert len(resolved) == 1, resolved


def test_a_hand_posted_to_the_api_resolves_the_table_s_rules_once(lclient, resolved):  # noqa: F811
    made = lclient.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    resolved.clear()
    resp = lclient.post(f"/api/v1/tables/{made['id']}/hands", json={"rounds": [], "finish_order": [1]},
                        headers={"X-Edit-Token": made["edit_token"]})
    assert resp.status_code == 201, resp.get_json()
    assert len(resolved) == 1, resolved
