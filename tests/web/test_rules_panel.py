"""The 规则 panel of the table page (issue 38 item 5): on the edit link only, the new-table page's rule boxes filled
with the table's rules, CSRF-checked; rules saved there apply from the next hand on, and each hand in the list
shows its rules where they differ from the evening's first hand's. On SQLite and PostgreSQL."""
from __future__ import annotations

import html
import json
import re

from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_rules_during_the_evening import TEN_BOMB_POINTS, change_rules, open_table, read, record

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def editing(client, tid, token) -> str:
    """Open the edit link (its cookie kept); the edit page's CSRF token."""
    client.get(f"/tables/{tid}/edit/{token}")
    match = CSRF.search(client.get(f"/tables/{tid}/edit").get_data(as_text=True))
    assert match
    return match.group(1)


def post_rules(client, tid, csrf, rules: dict, version=None):
    form = {"version": str(read(client, tid)["version"] if version is None else version), **rules}
    if csrf:
        form["csrf_token"] = csrf
    return client.post(f"/tables/{tid}/edit/rules", data=form)


def test_the_rules_panel_is_on_the_edit_page_only_with_the_new_table_pages_rule_boxes_filled_as_the_table_plays(
        lclient):  # noqa: F811
    tid, token = open_table(lclient)
    assert change_rules(lclient, tid, token, {"stake": 2})[0] == 200
    editing(lclient, tid, token)
    page = lclient.get(f"/tables/{tid}/edit").get_data(as_text=True)
    panel = page[page.index('id="rules"'):]
    panel = panel[:panel.index("</details>")]
    assert "<summary>规则</summary>" in panel and f'action="/tables/{tid}/edit/rules"' in panel
    assert 'name="csrf_token"' in panel and 'name="version"' in panel
    new_table = lclient.get("/tables/new?game=paodekuai").get_data(as_text=True)
    boxes = re.compile(r'name="(rules-[a-z_0-9]+)"')
    assert set(boxes.findall(panel)) == set(boxes.findall(new_table)) and "rules-bomb_points" in panel
    assert re.search(r'name="rules-stake"[^>]*value="2"', panel)
    assert "data-refresh" not in panel  # a change of a box never posts the form by itself
    assert 'id="rules"' not in lclient.get(f"/tables/{tid}").get_data(as_text=True)


def test_rules_saved_from_the_panel_apply_from_the_next_hand_and_the_hand_list_shows_the_rules_that_differ(
        lclient):  # noqa: F811
    tid, token = open_table(lclient)
    record(lclient, tid, token)
    csrf = editing(lclient, tid, token)
    resp = post_rules(lclient, tid, csrf, {"rules-preset": "paodekuai52", "rules-bomb_points": "10"})
    assert resp.status_code == 303
    assert "规则已更新：从第2局起按新规则算" in lclient.get(resp.headers["Location"]).get_data(as_text=True)
    assert record(lclient, tid, token)["hand"]["deltas"] == TEN_BOMB_POINTS
    page = lclient.get(f"/tables/{tid}").get_data(as_text=True)
    first, second = page[page.index('id="hand-1"'):], page[page.index('id="hand-2"'):page.index('id="hand-1"')]
    assert "本局规则：炸弹分 10" in second and "本局规则" not in first[:first.index("</li>")]
    english = lclient.get(f"/tables/{tid}?lang=en").get_data(as_text=True)
    assert "This hand&#39;s rules: Bomb points 10" in english


def test_the_rules_panel_without_its_csrf_token_changes_nothing(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    editing(lclient, tid, token)
    assert post_rules(lclient, tid, None, {"rules-bomb_points": "10"}).status_code == 400
    assert read(lclient, tid)["rules"]["bomb_points"] == 0


def test_the_rules_panel_sent_from_a_stale_page_says_so_keeps_the_rules_as_posted_and_changes_nothing(
        lclient):  # noqa: F811
    tid, token = open_table(lclient)
    csrf = editing(lclient, tid, token)
    old = read(lclient, tid)["version"]
    record(lclient, tid, token)
    resp = post_rules(lclient, tid, csrf, {"rules-bomb_points": "10"}, version=old)
    page = resp.get_data(as_text=True)
    assert resp.status_code == 409 and "刚被别人改过" in page
    panel = page[page.index('id="rules"'):]
    assert panel.startswith('id="rules" open') and re.search(r'name="rules-bomb_points"[^>]*value="10"', panel)
    assert read(lclient, tid)["rules"]["bomb_points"] == 0


def test_a_past_hands_edit_page_offers_the_boxes_of_its_own_rules_not_the_tables_now(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    record(lclient, tid, token)
    assert change_rules(lclient, tid, token, {"bomb_points": 10})[0] == 200
    record(lclient, tid, token)
    editing(lclient, tid, token)
    first = lclient.get(f"/tables/{tid}/edit/hands/1").get_data(as_text=True)
    second = lclient.get(f"/tables/{tid}/edit/hands/2").get_data(as_text=True)
    assert 'name="bombs-' not in first and 'name="bombs-' in second  # 炸弹 counts only under 炸弹分 above 0


def test_the_share_picture_lists_the_rules_that_changed_and_from_which_hand(lclient):  # noqa: F811
    tid, token = open_table(lclient)
    record(lclient, tid, token)
    assert change_rules(lclient, tid, token, {"bomb_points": 10})[0] == 200
    record(lclient, tid, token)
    page = lclient.get(f"/tables/{tid}/settle-up").get_data(as_text=True)
    picture = json.loads(html.unescape(re.search(r"data-picture='([^']*)'", page).group(1)))
    assert picture["changes"] == ["第2局起：炸弹分 10"]
    assert "第2局起：炸弹分 10" in page  # the share text the page copies
