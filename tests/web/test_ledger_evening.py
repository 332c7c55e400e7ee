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


def first_out(seat: int) -> dict:
    return {"finish_order-0": str(seat)}


def hand_page(client, edit_path, number):
    return client.get(f"{edit_path}/hands/{number}").get_data(as_text=True)


# --- a hand's card: its time and its input in words ---------------------------

def test_each_hand_shows_when_it_was_recorded_and_edited_and_its_input_in_words(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **BANKS, **first_out(1))
    card = section(client.get(f"/tables/{table_id}").get_data(as_text=True), "hand-1")
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local-time>\d\d:\d\d UTC</time>', card)
    assert "改于" not in card[:card.index("</li>")]
    assert "分库：阿明 100，小红 100，老王 100，Jen 100" in card and "出完的顺序：小红" in card
    assert " = " not in card[:card.index("</li>")]
    html = hand_page(client, edit_path, 1)
    client.post(f"{edit_path}/hands/1", data={"csrf_token": csrf(html), "mode": "form", "version": "2",
                                              **BANKS, **first_out(2)})
    card = section(client.get(f"/tables/{table_id}").get_data(as_text=True), "hand-1")
    assert "改于" in card[:card.index("</li>")] and "出完的顺序：老王" in card


# --- undo, then redo ------------------------------------------------------------

def undo(client, edit_path, number, version):
    page = client.get(edit_path).get_data(as_text=True)
    return client.post(edit_path + "/undo", data={"csrf_token": csrf(page), "version": str(version),
                                                  "number": str(number)})


def redo(client, edit_path, number):
    page = client.get(edit_path).get_data(as_text=True)
    return client.post(edit_path + "/redo", data={"csrf_token": csrf(page), "number": str(number)})


def test_undo_takes_the_last_hand_at_once_and_offers_to_put_it_back(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **BANKS, **first_out(1))
    record(client, edit_path, **first_out(2))
    before = api_table(client, table_id)
    assert undo(client, edit_path, 2, before["version"]).headers["Location"].endswith("#entry")
    html = client.get(edit_path).get_data(as_text=True)
    assert "已撤销第2局" in html and "恢复第2局" in html and "出完的顺序：老王" in html
    assert [h["number"] for h in api_table(client, table_id)["hands"]] == [1]
    assert redo(client, edit_path, 2).status_code == 303
    after = api_table(client, table_id)
    assert [h["input"] for h in after["hands"]] == [h["input"] for h in before["hands"]]
    assert after["totals"] == before["totals"] and after["banks"] == before["banks"]
    assert "恢复第2局" not in client.get(edit_path).get_data(as_text=True)


def test_redo_is_idempotent_a_second_tap_records_nothing(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **BANKS, **first_out(1))
    undo(client, edit_path, 1, 2)
    page = client.get(edit_path).get_data(as_text=True)
    for _ in range(3):  # the same form sent three times (double tap, resend)
        client.post(edit_path + "/redo", data={"csrf_token": csrf(page), "number": "1"})
    table = api_table(client, table_id)
    assert [h["number"] for h in table["hands"]] == [1] and table["totals"] == [-50, 150, -50, -50]


def test_a_new_hand_after_an_undo_withdraws_the_redo(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **BANKS, **first_out(1))
    undo(client, edit_path, 1, 2)
    record(client, edit_path, **BANKS, **first_out(3))
    assert "恢复第1局" not in client.get(edit_path).get_data(as_text=True)
    redo(client, edit_path, 1)
    assert [h["input"]["finish_order"] for h in api_table(client, table_id)["hands"]] == [[3]]  # read back as integers (issue 38)


# --- an edit says which later hands it settled again ------------------------------

def q783_evening(client, finishes=(1, 2, 3), bank="120"):
    """A Q783 table whose hands carry their banks (120 each at the start: no 大局 ends in three hands)."""
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{f"banks-{i}": bank for i in range(4)}, **first_out(finishes[0]))
    for seat in finishes[1:]:
        record(client, edit_path, **first_out(seat))
    return table_id, edit_path


def test_editing_an_earlier_q783_hand_says_which_later_hands_changed(client):
    table_id, edit_path = q783_evening(client)
    html = hand_page(client, edit_path, 1)
    resp = client.post(f"{edit_path}/hands/1", data={"csrf_token": csrf(html), "mode": "form", "version": "4",
                                                     **{f"banks-{i}": "120" for i in range(4)}, **first_out(0)})
    assert resp.headers["Location"].endswith("#entry")
    notice = client.get(edit_path).get_data(as_text=True)
    assert "第1局已修改；后面随之重算的：第2、3局" in notice
    assert "第1局已修改" not in client.get(edit_path).get_data(as_text=True)  # said once


def test_the_api_edit_answer_names_the_hands_settled_again(client):
    table_id, edit_path = q783_evening(client)
    token = client.get_cookie("paiju_edit", path=f"/tables/{table_id}").value
    body = {"version": 4, "input": {"banks": [120] * 4, "rounds": [], "finish_order": [0]}}
    out = client.put(f"/api/v1/tables/{table_id}/hands/1", json=body, headers={"X-Edit-Token": token}).get_json()
    assert out["resettled"] == [2, 3]


# --- two phones: a stale edit merges, a real conflict shows both versions ------------

def test_a_real_conflict_shows_both_versions_and_keeps_the_typed_edit(client):
    table_id, edit_path = q783_evening(client, (1,))
    mine = hand_page(client, edit_path, 1)  # phone A opens hand 1 at version 2
    theirs = hand_page(client, edit_path, 1)  # phone B too, and saves first
    client.post(f"{edit_path}/hands/1", data={"csrf_token": csrf(theirs), "mode": "form", "version": "2",
                                              **BANKS, **first_out(2)})
    resp = client.post(f"{edit_path}/hands/1", data={"csrf_token": csrf(mine), "mode": "form", "version": "2",
                                                     **BANKS, **first_out(3)})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 409 and "被别人改过了" in html
    assert "出完的顺序：老王" in section(html, "main") if 'id="main"' in html else "出完的顺序：老王" in html
    assert "出完的顺序：Jen" in html  # mine, in words
    assert 'class="btn keep-theirs"' in html and 'class="btn primary keep-mine"' in html
    assert 'name="finish_order-0"' in html and re.search(r'<option[^>]*value="3"[^>]*selected', html)  # still typed
    assert api_table(client, table_id)["hands"][0]["input"]["finish_order"] == [2]
    keep = re.search(r'<input type="hidden" name="version" value="(\d+)">\s*<input type="hidden" name="raw" '
                     r'value="([^"]*)">', html)
    raw = keep.group(2).replace("&#34;", '"').replace("&quot;", '"').replace("&#39;", "'")
    resp = client.post(f"{edit_path}/hands/1", data={"csrf_token": csrf(html), "mode": "json",
                                                     "version": keep.group(1), "raw": raw})
    assert resp.status_code == 303
    assert api_table(client, table_id)["hands"][0]["input"]["finish_order"] == [3]


def test_the_api_keeps_the_contracts_whole_table_version_check(client):
    table_id, edit_path = q783_evening(client, (1, 2))
    token = client.get_cookie("paiju_edit", path=f"/tables/{table_id}").value
    body = {"version": 2, "input": {"banks": [100] * 4, "rounds": [], "finish_order": [0]}}
    resp = client.put(f"/api/v1/tables/{table_id}/hands/1", json=body, headers={"X-Edit-Token": token})
    assert resp.status_code == 409 and resp.get_json()["error"]["code"] == "stale_version"


# --- the live poll sends what changed ---------------------------------------------

def test_a_poll_after_one_new_hand_sends_that_hand_only(client):
    table_id, edit_path = q783_evening(client, (1, 2, 3, 1, 2))
    table = api_table(client, table_id)
    record(client, edit_path, **first_out(3))
    resp = client.get(f"/tables/{table_id}/live?v={table['version']}&n=5")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and 'id="hand-6"' in html
    assert 'hx-swap-oob="afterbegin:#hands-list"' in html
    assert not re.search(r'id="hand-[1-5]"', html)
    assert 'data-total="0">' in html and "live?v=%d&amp;n=6" % (table["version"] + 1) in html


def test_a_poll_after_more_new_hands_than_the_page_shows_sends_the_list_again_with_the_link_to_older_ones(
        client, monkeypatch):
    from webapp.ledger import views
    monkeypatch.setattr(views, "PAGE_HANDS", 5)
    table = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    token = {"X-Edit-Token": table["edit_token"]}
    for _ in range(2):
        client.post(f"/api/v1/tables/{table['id']}/hands", json={"rounds": [], "finish_order": [0]}, headers=token)
    seen = api_table(client, table["id"])["version"]
    for _ in range(7):
        client.post(f"/api/v1/tables/{table['id']}/hands", json={"rounds": [], "finish_order": [0]}, headers=token)
    html = client.get(f"/tables/{table['id']}/live?v={seen}&n=2").get_data(as_text=True)
    assert 'id="live-hands" class="live-hands" hx-swap-oob="true"' in html  # the list drawn again, not added to
    assert re.findall(r'id="hand-(\d+)"', html) == ["9", "8", "7", "6", "5"]
    assert "?before=5" in html  # hands 3 and 4, a link away


def test_a_poll_after_an_edit_or_an_undo_sends_the_hands_again(client):
    table_id, edit_path = q783_evening(client, (1, 2, 3))
    html = hand_page(client, edit_path, 2)
    client.post(f"{edit_path}/hands/2", data={"csrf_token": csrf(html), "mode": "form", "version": "4",
                                              **first_out(0)})
    resp = client.get(f"/tables/{table_id}/live?v=4&n=3").get_data(as_text=True)
    assert 'id="live-hands" class="live-hands" hx-swap-oob="true"' in resp and 'id="hand-1"' in resp
    undo(client, edit_path, 3, 5)
    resp = client.get(f"/tables/{table_id}/live?v=5&n=3").get_data(as_text=True)
    assert 'id="live-hands" class="live-hands" hx-swap-oob="true"' in resp and 'id="hand-3"' not in resp


# --- the kept totals --------------------------------------------------------------

def test_the_kept_totals_always_equal_the_sum_of_the_stored_deltas(client, ledger_app):  # noqa: F811
    from webapp import ledger as m
    from webapp.ledger.db import db
    table_id, edit_path = q783_evening(client, (1, 2, 3))
    html = hand_page(client, edit_path, 1)
    client.post(f"{edit_path}/hands/1", data={"csrf_token": csrf(html), "mode": "form", "version": "4",
                                              **{f"banks-{i}": "120" for i in range(4)}, **first_out(0)})
    undo(client, edit_path, 3, 5)
    redo(client, edit_path, 3)
    page = client.get(f"{edit_path}/hands/2/delete").get_data(as_text=True)
    client.post(f"{edit_path}/hands/2/delete", data={"csrf_token": csrf(page), "version": "7"})
    table = api_table(client, table_id)
    summed = [sum(h["deltas"][seat] for h in table["hands"]) for seat in range(4)]
    assert table["totals"] == summed and len(table["hands"]) == 2
    with ledger_app.app_context():
        kept = db.session.get(m.LedgerTable, table_id).kept_totals
        assert kept == summed
        db.session.get(m.LedgerTable, table_id).kept_totals = None  # as a table from before 0003
        db.session.commit()
    record(client, edit_path, **first_out(1))
    table = api_table(client, table_id)
    with ledger_app.app_context():
        assert db.session.get(m.LedgerTable, table_id).kept_totals == table["totals"] == [
            sum(h["deltas"][seat] for h in table["hands"]) for seat in range(4)]


# --- players and seats during the evening -------------------------------------------

def change(client, edit_path, **fields):
    page = client.get(edit_path).get_data(as_text=True)
    return client.post(edit_path + "/seats", data={"csrf_token": csrf(page), **fields})


def summed(table):
    return [sum(h["deltas"][p] for h in table["hands"]) for p in range(len(table["players"]))]


def test_renaming_a_player_renames_every_hand_and_keeps_the_totals(client):
    table_id, edit_path = q783_evening(client, (1, 2))
    before = api_table(client, table_id)
    assert change(client, edit_path, kind="rename", seat="2", name="  小 红 ").status_code == 303
    after = api_table(client, table_id)
    assert after["players"] == ["阿明", "小 红", "老王", "Jen"] and after["totals"] == before["totals"]
    html = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "出完的顺序：小 红" in html and "小红" not in html
    resp = change(client, edit_path, kind="rename", seat="1", name="老王")
    assert resp.status_code == 422 and "重复" in resp.get_data(as_text=True)


def test_a_seat_swap_counts_from_the_next_hand_and_every_bank_and_total_follows_its_player(client):
    table_id, edit_path = q783_evening(client, (1,))  # banks 70, 270, 70, 70
    assert change(client, edit_path, kind="swap", seat="2", other="3").status_code == 303
    html = client.get(edit_path).get_data(as_text=True)
    assert "阿明 · 老王 · 小红 · Jen" in html
    assert re.search(r'id="banks-1"[^>]*value="70"', html) and re.search(r'id="banks-2"[^>]*value="270"', html)
    record(client, edit_path, **first_out(2))  # seat 3 now: 小红 goes out first
    table = api_table(client, table_id)
    assert table["hands"][1]["seats"] == [0, 2, 1, 3] and "seats" not in table["hands"][0]
    assert table["hands"][1]["deltas"] == [-50, 150, -50, -50]  # per player, as the totals
    assert table["totals"] == summed(table) == [-100, 300, -100, -100]
    assert table["banks"] == [20, 20, 420, 20]  # in seat order: 阿明, 老王, 小红, Jen
    card = section(client.get(edit_path).get_data(as_text=True), "hand-2")
    assert "出完的顺序：小红" in card[:card.index("</li>")]


def test_a_player_joins_and_another_leaves_where_the_game_allows_and_totals_stay_right(client):
    table_id, edit_path = q783_evening(client, (1,))
    assert change(client, edit_path, kind="join", name="Max").status_code == 303
    html = client.get(edit_path).get_data(as_text=True)
    assert 'id="banks-4" value=""' in html and "carried-banks" not in html  # five seats; banks typed afresh
    record(client, edit_path, **{f"banks-{i}": "80" for i in range(5)}, **first_out(4))
    assert change(client, edit_path, kind="leave", seat="1").status_code == 303
    record(client, edit_path, **{f"banks-{i}": "100" for i in range(4)}, **first_out(0))
    table = api_table(client, table_id)
    assert table["players"] == ["阿明", "小红", "老王", "Jen", "Max"]
    assert [h.get("seats") for h in table["hands"]] == [None, [0, 1, 2, 3, 4], [1, 2, 3, 4]]
    assert table["totals"] == summed(table)
    assert table["totals"][0] == -50 - 50  # 阿明 left after two hands and keeps what he had
    assert table["hands"][2]["deltas"][0] == 0 and table["hands"][2]["deltas"][1] == 150
    html = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "小红 · 老王 · Jen · Max" in html


def test_a_fixed_seat_game_takes_a_replacement_but_not_a_fifth_player(client):
    table_id, edit_path = open_table(client, game="shuangkou")
    resp = change(client, edit_path, kind="join", name="Max")
    assert resp.status_code == 422 and "换人" in resp.get_data(as_text=True)
    assert 'class="seat-change join"' not in client.get(edit_path).get_data(as_text=True)
    assert change(client, edit_path, kind="replace", seat="4", name="Max").status_code == 303
    assert "阿明 · 小红 · 老王 · Max" in client.get(edit_path).get_data(as_text=True)
    assert api_table(client, table_id)["totals"] == [0, 0, 0, 0, 0]


def test_the_qr_code_of_the_circles_link_is_made_once_for_the_page_and_the_file(client, monkeypatch):
    import segno

    from webapp.ledger import exports as tables
    made = []
    real = segno.make
    monkeypatch.setattr(tables.segno, "make", lambda *a, **k: made.append(a[0]) or real(*a, **k))
    table_id, edit_path = open_table(client)
    for _ in range(3):
        assert "<svg" in client.get(f"/tables/{table_id}").get_data(as_text=True)
        assert client.get(f"/tables/{table_id}/qr.svg").status_code == 200
    circle = api_table(client, table_id)["circle"]
    assert made == [f"http://localhost/circles/{circle}/now"] * 2  # once for the page, once for the file


def test_the_chart_marks_each_hand_with_a_dot_per_seat_up_to_40_hands_and_not_past_them(client):
    from webapp.ledger.exports import CHART_DOTS

    out = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()

    def chart_after(hands):
        body = {"banks": [100] * 4, "rounds": [], "finish_order": [hands % 4]}
        resp = client.post(f"/api/v1/tables/{out['id']}/hands", json=body, headers={"X-Edit-Token": out["edit_token"]})
        assert resp.status_code == 201
        html = client.get(f"/tables/{out['id']}").get_data(as_text=True)
        return re.search(r'<svg class="ledger-chart".*?</svg>', html, re.S).group(0)

    for hands in range(1, CHART_DOTS):
        chart_after(hands)
    dotted = chart_after(CHART_DOTS)
    assert dotted.count("<marker ") == 4 and dotted.count('<circle r="2.5"') == 4
    for seat in range(4):
        polyline = re.search(rf'<polyline[^>]*data-seat="{seat}"[^>]*>', dotted).group(0)
        assert f'marker-mid="url(#ledger-dot-{seat})"' in polyline and f'marker-end="url(#ledger-dot-{seat})"' in polyline
        assert f'id="ledger-dot-{seat}"' in dotted
    plain = chart_after(CHART_DOTS + 1)
    assert "<marker" not in plain and "marker-mid" not in plain and plain.count("<polyline") == 4


# 39 + 1: the longest table whose chart marks each hand with a dot; 150: long past the page's and the chart's caps.
# 12 KB: the new hand's steps call each seat by its player's name (six names of 16 characters, some 1 KB more than
# "N号位" would be)
@pytest.mark.parametrize("hands", [39, 150])
def test_a_poll_after_one_new_hand_stays_under_12_kb_with_six_long_names_and_many_hands(client, hands):
    names = [f"十六个字的名字十六个字的名字{i:02d}" for i in range(6)]
    out = client.post("/api/v1/tables", json={"game": "q783", "players": names}).get_json()
    headers = {"X-Edit-Token": out["edit_token"]}

    def add(i):
        body = {"banks": [80] * 6, "rounds": [{"winner": i % 6, "won_with": "plain"}], "finish_order": [i % 6]}
        resp = client.post(f"/api/v1/tables/{out['id']}/hands", json=body, headers=headers)
        assert resp.status_code == 201
        return resp.get_json()["version"]

    for i in range(hands):
        version = add(i)
    add(3)
    resp = client.get(f"/tables/{out['id']}/live?v={version}&n={hands}")
    assert resp.status_code == 200 and f'id="hand-{hands + 1}"' in resp.get_data(as_text=True)
    assert len(resp.data) < 12 * 1024


def q783_by_api(client, finishes):
    """A Q783 table made and played through the API (banks 120 each, carried): its id, token and edit page."""
    made = client.post("/api/v1/tables", json={"game": "q783", "players": ["阿明", "小红", "老王", "Jen"]}).get_json()
    headers = {"X-Edit-Token": made["edit_token"]}
    for i, seat in enumerate(finishes):
        hand = {"rounds": [], "finish_order": [seat], **({"banks": [120] * 4} if i == 0 else {})}
        assert client.post(f"/api/v1/tables/{made['id']}/hands", json=hand, headers=headers).status_code == 201
    client.get(made["edit_url"])  # the edit page's cookie
    return made["id"], headers, f"/tables/{made['id']}/edit"


def edit_by_api(client, table_id, headers, number, hand):
    body = {"version": api_table(client, table_id)["version"], "input": hand}
    return client.put(f"/api/v1/tables/{table_id}/hands/{number}", json=body, headers=headers)


def test_editing_early_q783_hands_after_a_player_joined_settles_the_later_ones_as_if_recorded_so(client):
    table_id, headers, edit_path = q783_by_api(client, (1, 2, 3))
    assert change(client, edit_path, kind="join", name="Max").status_code == 303
    first = {"banks": [120] * 4, "rounds": [], "finish_order": [0]}
    assert edit_by_api(client, table_id, headers, 1, first).status_code == 200
    assert edit_by_api(client, table_id, headers, 1, first).status_code == 200  # once refused: "5 players"
    assert edit_by_api(client, table_id, headers, 2, {"rounds": [], "finish_order": [3]}).status_code == 200
    expected = api_table(client, q783_by_api(client, (0, 3, 3))[0])
    table = api_table(client, table_id)
    assert [h["deltas"][:4] for h in table["hands"]] == [h["deltas"] for h in expected["hands"]]
    assert [h["steps"] for h in table["hands"]] == [h["steps"] for h in expected["hands"]]
    assert table["totals"] == summed(table) and table["totals"][:4] == expected["totals"]
