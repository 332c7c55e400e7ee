"""A table knows its players' names, so its hands' steps call each seat by name, never "N号位" / "seat N"
(issue 26 item 3): on the table page, the hand's edit and delete pages, the CSV, and the table's API answer,
in zh and en; a renamed player's new name shows at once; a game's own settle page, which knows no names,
keeps the seat numbers."""
from __future__ import annotations

import re

import pytest
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

PLAYERS = ["阿明", "Bea", "小红", "Dan"]
HAND = {"winner": 0, "cards_left": [0, 5, 3, 2]}  # 跑得快: every step names a seat
SEAT_WORDS = re.compile(r"[0-9]+号位|[Ss]eats? [0-9]")
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


@pytest.fixture
def table(lclient):  # noqa: F811
    out = lclient.post("/api/v1/tables", json={"game": "paodekuai", "players": PLAYERS}).get_json()
    resp = lclient.post(f"/api/v1/tables/{out['id']}/hands", json=HAND, headers={"X-Edit-Token": out["edit_token"]})
    assert resp.status_code == 201
    lclient.get(f"/tables/{out['id']}/edit/{out['edit_token']}")
    return out


def steps_of(html: str) -> str:
    found = re.findall(r'<ol class="steps[^"]*">(.*?)</ol>', html, re.S)
    assert found, "the page shows no steps"
    return " ".join(found)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_hand_s_steps_call_the_seats_by_their_players_names_on_every_page_and_export(lclient, table, lang):  # noqa: F811
    lclient.set_cookie("lang", lang)
    tid = table["id"]
    api_steps = " ".join(lclient.get(f"/api/v1/tables/{tid}").get_json()["hands"][0]["steps"])
    assert "阿明" in api_steps and "Dan" in api_steps and not SEAT_WORDS.search(api_steps)
    for path in (f"/tables/{tid}", f"/tables/{tid}/edit", f"/tables/{tid}/edit/hands/1",
                 f"/tables/{tid}/edit/hands/1/delete"):
        shown = steps_of(lclient.get(path).get_data(as_text=True))
        assert "小红" in shown and not SEAT_WORDS.search(shown), path
    csv = lclient.get(f"/tables/{tid}/export.csv").get_data(as_text=True)
    assert "Bea" in csv.splitlines()[1] and not SEAT_WORDS.search(csv.splitlines()[1])


def test_a_renamed_player_s_new_name_shows_in_the_steps_already_shown(lclient, table):  # noqa: F811
    tid = table["id"]
    assert "Bea" in " ".join(lclient.get(f"/api/v1/tables/{tid}").get_json()["hands"][0]["steps"])
    page = lclient.get(f"/tables/{tid}/edit").get_data(as_text=True)
    resp = lclient.post(f"/tables/{tid}/edit/seats", data={"csrf_token": CSRF.search(page).group(1), "kind": "rename",
                                                         "seat": "2", "name": "Beatrix"})
    assert resp.status_code in (200, 303)
    steps = " ".join(lclient.get(f"/api/v1/tables/{tid}").get_json()["hands"][0]["steps"])
    assert "Beatrix" in steps and "Bea：" not in steps


def test_a_settlement_without_a_table_keeps_the_seat_numbers(lclient):  # noqa: F811
    answer = lclient.post("/api/v1/paodekuai/settle", json=HAND).get_json()
    assert any("2号位" in step for step in answer["steps"])
