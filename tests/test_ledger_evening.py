"""The evening at the table (issue 10 items 2, 4, 7): where a save lands, hands in words with their time,
undo with redo, edits that say what they re-settled, merged stale edits and real conflicts, players and
seats changing during the evening."""
from __future__ import annotations

import re

import pytest

from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_tables_pages import api_table, csrf, open_table, record

BANKS = {f"banks-{i}": "100" for i in range(4)}


@pytest.fixture
def client(lclient):  # noqa: F811
    return lclient


def section(html: str, element_id: str) -> str:
    """The markup from the element with ``element_id`` to the end of the page."""
    start = html.index(f'id="{element_id}"')
    return html[start:]


def test_a_saved_hand_leads_to_the_form_for_the_next_hand_with_the_new_totals_above_it(client):
    table_id, edit_path = open_table(client)
    resp = record(client, edit_path, **BANKS, **{"finish_order-0": "1"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/edit#entry")
    html = client.get(edit_path).get_data(as_text=True)
    entry = section(html, "entry")
    entry = entry[:entry.index('id="live-hands"')]
    assert 'data-total="1">+150<' in entry  # the new totals
    assert 'class="ledger-form' in entry and 'value="250"' in entry  # the next hand's form, carried banks
    assert html.index('id="entry"') < html.index('id="hand-1"')


def test_players_never_see_a_version_counter(client):
    table_id, edit_path = open_table(client)
    for _ in range(3):
        record(client, edit_path, **BANKS, **{"finish_order-0": "1"})
    for path in (edit_path, f"/tables/{table_id}", f"/tables/{table_id}/live?v=0"):
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"第\d+版", html), path
    assert api_table(client, table_id)["version"] == 4  # kept for the ETag and stale checks
