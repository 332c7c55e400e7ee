"""Ask once what is the same all evening (issue 41, item 3): Q783's 组队 is asked on a table's first hand and
then folded with its value, one tap from a change (``Game.kept_fields``); 二七王's 底牌分 is asked only under
抠底, and its hand-level 主牌花色 never by a form (a 冲关 row asks its own beside its cards)."""
from __future__ import annotations

import re

from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_tables_pages import api_table, csrf, open_table

BANKS = {"banks-0": "200", "banks-1": "200", "banks-2": "200", "banks-3": "200"}


def hand_form(html: str) -> str:
    return re.search(r'<section class="panel hand-form".*?</section>', html, re.S).group(0)


def kept_box(form: str) -> str | None:
    found = re.search(r'<details class="kept-box".*?</details>', form, re.S)
    return found.group(0) if found else None


def post_hand(client, edit_path, first=False, **fields):
    page = client.get(edit_path).get_data(as_text=True)
    order = {"finish_order-0": "0", "finish_order-1": "2"}  # a side out in teams, the first out alone
    resp = client.post(edit_path, data={"csrf_token": csrf(page), **order, **(BANKS if first else {}), **fields})
    errors = re.findall(r'class="error[^>]*>([^<]+)', resp.get_data(as_text=True))
    assert resp.status_code in (302, 303), (resp.status_code, errors)


def test_q783_teams_are_asked_on_the_first_hand_then_folded_with_their_value_until_changed(lclient):  # noqa: F811
    table_id, edit_path = open_table(lclient)
    first = hand_form(lclient.get(edit_path).get_data(as_text=True))
    assert kept_box(first) is None and 'name="teams"' in first
    post_hand(lclient, edit_path, first=True, teams="y")
    folded = kept_box(hand_form(lclient.get(edit_path).get_data(as_text=True)))
    assert folded is not None and "：是" in folded and "同上一局" in folded
    assert re.search(r'name="teams"[^>]*value="y" checked', folded)  # posted again as it is unless changed
    post_hand(lclient, edit_path, teams="y")
    post_hand(lclient, edit_path)  # unticked: the teams are off from this hand on
    assert [h["input"].get("teams") for h in api_table(lclient, table_id)["hands"]] == [True, True, False]
    lclient.set_cookie("lang", "en")
    changed = kept_box(hand_form(lclient.get(edit_path).get_data(as_text=True)))
    assert ": no" in changed and "as the last hand; open to change" in changed


def test_erqiwang_asks_the_bottom_points_only_under_the_bottom_bonus_and_the_hands_trump_never(lclient):  # noqa: F811
    _, plain_path = open_table(lclient, game="erqiwang")
    plain = hand_form(lclient.get(plain_path).get_data(as_text=True))
    assert 'name="bottom_points"' not in plain and 'name="last_trick"' not in plain
    assert 'name="trump"' not in plain and 'name="chongguan-0-trump"' in plain  # the row's own, by its cards
    _, bonus_path = open_table(lclient, game="erqiwang", bottom_bonus="on")
    bonus = hand_form(lclient.get(bonus_path).get_data(as_text=True))
    assert 'name="bottom_points"' in bonus and 'name="last_trick"' in bonus and 'name="trump"' not in bonus
