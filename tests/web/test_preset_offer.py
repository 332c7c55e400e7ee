"""A 3-player 跑得快 table or hand under a 4-player preset: the refusal names the 48-card preset
and offers one tap that reloads the form with it, keeping what was typed."""
from __future__ import annotations

import re

import pytest


@pytest.fixture
def pages(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app.test_client()


def _errors(html):
    return re.findall(r'class="error[^"]*"[^>]*>([^<]*)', html)


THREE = {"winner": "0", "cards_left-0": "0", "cards_left-1": "5", "cards_left-2": "7", "names-0": "老王"}


def test_api_settle_with_three_seats_names_the_48_card_preset(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 7]})
    assert status == 422 and out["error"]["code"] == "wrong_length"
    fix = [e for e in out["errors"] if e["code"] == "preset_for_seats"]
    assert fix and "跑得快 48张" in fix[0]["message"] and fix[0]["field"] == "rules.preset"


def test_four_seats_under_the_52_card_preset_get_no_preset_advice(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 7, "x"]})
    assert status == 400 and not any(e["code"] == "preset_for_seats" for e in out.get("errors", [out["error"]]))


def test_settle_page_offers_the_48_card_preset_for_three_hands(pages):
    html = pages.post("/paodekuai/settle", data=THREE).get_data(as_text=True)
    assert any("3人玩请换成预设「跑得快 48张（3人×16张）」" in e for e in _errors(html))
    assert re.search(r'name="switch_preset" value="paodekuai48">换成预设「跑得快 48张', html)


def test_switching_preset_on_the_settle_page_keeps_what_was_typed(pages):
    html = pages.post("/paodekuai/settle", data={**THREE, "rules-preset": "paodekuai52",
                                                 "switch_preset": "paodekuai48"}).get_data(as_text=True)
    assert '<option value="paodekuai48" selected' in html
    assert len(re.findall(r'<span class="seat-no">', html)) == 3
    assert 'value="老王"' in html and 'name="cards_left-1" id="cards_left-1" value="5"' in html
    assert not _errors(html)  # reloaded, not settled


def test_new_table_refusal_names_the_preset_and_switching_keeps_the_names(pages):
    data = {"game": "paodekuai", "name_0": "甲", "name_1": "乙", "name_2": "丙"}
    html = pages.post("/tables/new?game=paodekuai", data=data).get_data(as_text=True)
    assert any("3人玩请换成预设「跑得快 48张（3人×16张）」" in e for e in _errors(html))
    assert 'name="switch_preset" value="paodekuai48"' in html
    html = pages.post("/tables/new?game=paodekuai", data={**data, "switch_preset": "paodekuai48"}).get_data(as_text=True)
    assert '<option value="paodekuai48" selected' in html and 'value="丙"' in html and not _errors(html)
    resp = pages.post("/tables/new?game=paodekuai", data={**data, "rules-preset": "paodekuai48"})
    assert resp.status_code == 302  # and now the table opens


def test_an_unknown_preset_to_switch_to_is_ignored(pages):
    resp = pages.post("/paodekuai/settle", data={**THREE, "switch_preset": "<nope>"})
    # no switch: the hand is settled as posted, and refused with the advice
    assert resp.status_code == 200 and any("3人玩请换成预设" in e for e in _errors(resp.get_data(as_text=True)))
