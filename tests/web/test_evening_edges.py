"""The evening's edges (issue 41, item 2 and the words of item 4), as the pages' HTML shows them: every way back
leads the phone that holds a table's edit token to the editable table at the next hand's form (``/edit#entry``);
a new table opens on its first hand with the QR folded into one small "让大家加入" button; undo's box goes with
the next change; a page that refuses to edit offers the read-only table; the LAN hint is for the host's own
computer only; a table links to its game's rules."""
from __future__ import annotations

import html
import json
import re

import pytest

from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_ledger_evening import BANKS, first_out, hand_page, undo
from test_tables_pages import api_table, csrf, open_table, record


@pytest.fixture
def client(lclient):  # noqa: F811
    return lclient


def entry_of(html: str) -> str:
    """A new table's entry (totals, then its first hand's form) as the page shows it, up to the evening's links."""
    start = html.index('id="entry"')
    return html[start:html.index('class="evening-links"', start)]


def test_a_new_table_opens_on_its_first_hand_with_the_qr_folded_into_one_join_button(client):
    page = client.get("/tables/new?game=q783").get_data(as_text=True)
    names = {f"name_{i}": n for i, n in enumerate(["甲", "乙", "丙"])}
    resp = client.post("/tables/new?game=q783", data={"csrf_token": csrf(page), "game": "q783", **names})
    assert resp.headers["Location"].endswith("/edit?new=1#entry")
    html = client.get(resp.headers["Location"].split("#")[0]).get_data(as_text=True)
    entry = entry_of(html)
    join = re.search(r'<details class="share join">\s*<summary>让大家加入</summary>(.*?)</details>', entry, re.S)
    assert join and "<svg" in join.group(1) and "开好了" in join.group(1)  # the QR and the banner, folded
    assert entry.index("让大家加入") < entry.index('id="live"') < entry.index('id="new-hand"')
    assert html.count("让大家加入") == 1 and html.count("开好了") == 1
    assert not re.search(r"<details[^>]*\bopen\b", html[:html.index('id="entry"')])  # nothing open over it


def test_once_the_table_has_a_hand_the_join_button_sits_above_the_entry(client):
    _, edit_path = open_table(client)
    record(client, edit_path, **BANKS, **first_out(1))
    html = client.get(edit_path).get_data(as_text=True)
    assert html.count("让大家加入") == 1 and html.index("让大家加入") < html.index('id="entry"')
    assert "开好了" not in html


def test_settle_up_and_a_new_evening_sit_under_the_totals_once_the_table_has_a_hand(client):
    table_id, edit_path = open_table(client)
    html = client.get(edit_path).get_data(as_text=True)  # an empty table: under its first hand
    assert html.index('id="new-hand"') < html.index('class="evening-links"')
    record(client, edit_path, **BANKS, **first_out(1))
    html = client.get(edit_path).get_data(as_text=True)  # where a save lands: between the totals and the form
    assert html.count('class="evening-links"') == 1
    assert html.index('id="live"') < html.index('class="evening-links"') < html.index('id="new-hand"')
    links = html[html.index('class="evening-links"'):html.index('id="new-hand"')]
    assert "结账：谁付给谁" in links and "同样的人和规则，开新的一晚" in links
    viewer = client.application.test_client().get(f"/tables/{table_id}").get_data(as_text=True)
    assert viewer.count('class="evening-links"') == 1 and "结账：谁付给谁" in viewer and "new-evening" not in viewer


def test_settle_up_leads_back_to_the_editable_table_on_the_phone_that_holds_its_edit_token(client, app):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **BANKS, **first_out(1))
    back = re.search(r'<a class="btn" href="([^"]+)">回到牌桌</a>', client.get(f"/tables/{table_id}/settle-up")
                     .get_data(as_text=True)).group(1)
    assert back == f"/tables/{table_id}/edit#entry"
    stranger = client.application.test_client()  # a player with the read-only link only
    back = re.search(r'<a class="btn" href="([^"]+)">回到牌桌</a>', stranger.get(f"/tables/{table_id}/settle-up")
                     .get_data(as_text=True)).group(1)
    assert back == f"/tables/{table_id}?stay=1"  # this evening, should a next one be opened


def test_the_read_only_page_offers_the_editing_page_to_a_phone_that_holds_the_edit_token(client):
    table_id, _ = open_table(client)
    owner = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert f'href="/tables/{table_id}/edit#entry">这台手机可以记账' in owner
    player = client.application.test_client().get(f"/tables/{table_id}").get_data(as_text=True)
    assert "这台手机可以记账" not in player and "只读：新记的局会自动出现" in player


def test_every_way_back_from_a_hand_lands_on_the_next_hands_form(client):
    table_id, edit_path = open_table(client)
    for seat in (1, 2):
        record(client, edit_path, **BANKS, **first_out(seat))
    html = hand_page(client, edit_path, 1)
    assert f'href="{edit_path}#entry">← 回到牌桌' in html
    assert '<div class="submit-bar"><button type="submit" class="btn primary big">保存修改' in html
    page = client.get(f"{edit_path}/hands/2/delete").get_data(as_text=True)
    assert f'href="{edit_path}#entry">取消' in page
    gone = client.post(f"{edit_path}/hands/2/delete", data={"csrf_token": csrf(page), "version": "3"})
    assert gone.status_code == 303 and gone.headers["Location"].endswith("/edit#entry")


@pytest.mark.parametrize("change", ["edit", "rules", "seats", "delete"])
def test_the_undo_box_goes_once_the_next_change_is_made(client, change):
    table_id, edit_path = open_table(client)
    for seat in (1, 2, 3):
        record(client, edit_path, **BANKS, **first_out(seat))
    undo(client, edit_path, 3, api_table(client, table_id)["version"])
    page = client.get(edit_path).get_data(as_text=True)
    assert "已撤销第3局" in page
    version = str(api_table(client, table_id)["version"])
    if change == "edit":
        form = {"csrf_token": csrf(page), "mode": "form", "version": version, **BANKS, **first_out(2)}
        assert client.post(f"{edit_path}/hands/1", data=form).status_code == 303
    elif change == "rules":
        form = {"csrf_token": csrf(page), "version": version, "rules-penalty": "30"}
        assert client.post(f"{edit_path}/rules", data=form).status_code == 303
    elif change == "seats":
        form = {"csrf_token": csrf(page), "kind": "rename", "seat": "1", "name": "阿明哥"}
        assert client.post(f"{edit_path}/seats", data=form).status_code == 303
    else:
        assert client.post(f"{edit_path}/hands/1/delete", data={"csrf_token": csrf(page), "version": version}
                           ).status_code == 303
    page = client.get(edit_path).get_data(as_text=True)
    assert "已撤销第3局" not in page and "恢复第3局" not in page


def test_the_no_permission_page_offers_the_read_only_table(client):
    table_id, _ = open_table(client)
    stranger = client.application.test_client()
    for path in (f"/tables/{table_id}/edit", f"/tables/{table_id}/edit/hands/1"):
        resp = stranger.get(path)
        html = resp.get_data(as_text=True)
        assert resp.status_code == 403 and f'href="/tables/{table_id}">看这一桌（只读）</a>' in html, path
    stranger.get("/lang/en")
    assert "See this table (read-only)" in stranger.get(f"/tables/{table_id}/edit").get_data(as_text=True)


def test_the_hint_to_serve_the_wifi_shows_only_on_the_hosts_own_computer(client):
    made = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙"]}).get_json()
    table_id, edit_path, here = made["id"], f"/tables/{made['id']}/edit", "http://127.0.0.1:5000"
    client.get(f"{edit_path}/{made['edit_token']}", base_url=here)  # the host's computer opens its edit link
    assert "HOST=0.0.0.0 make run" in client.get(edit_path, base_url=here).get_data(as_text=True)
    for page, remote in ((f"/tables/{table_id}", "127.0.0.1"), (edit_path, "192.168.1.30")):
        resp = client.get(page, base_url=here, environ_base={"REMOTE_ADDR": remote})
        html = resp.get_data(as_text=True)
        assert resp.status_code == 200 and "HOST=0.0.0.0" not in html and "别的手机打不开" not in html, (page, remote)
    lan = "http://192.168.1.20:5000"  # the page opened at the computer's address on the Wi-Fi: a link phones open
    client.get(f"{edit_path}/{made['edit_token']}", base_url=lan)
    html = client.get(edit_path, base_url=lan).get_data(as_text=True)
    assert "别的手机打不开" not in html and f"{lan}/tables/{table_id}" in html


@pytest.mark.parametrize("lang,words", [("zh", "Q783的玩法规则"), ("en", "How Q783 is played: the rules")])
def test_a_table_links_to_its_games_rules(client, lang, words):
    table_id, edit_path = open_table(client)
    client.get(f"/lang/{lang}")
    for path in (edit_path, f"/tables/{table_id}"):
        assert f'<a href="/q783/rules">{words}</a>' in client.get(path).get_data(as_text=True), path


def test_home_leads_with_the_table_before_the_five_games(client):
    html = client.get("/").get_data(as_text=True)
    assert html.index("开一桌记账") < html.index('id="my-tables"') < html.index('class="game-card"')
    assert html.index('id="my-tables"') < html.index('class="lead"')


# --- words a player reads (issue 41, item 4) ------------------------------------------

def api_table_with(client, game: str, hands: list[dict], players=("阿明", "小红", "老王", "Jennifer")) -> dict:
    """A table opened through the API with ``hands``, its edit link opened on this client (the edit cookie)."""
    made = client.post("/api/v1/tables", json={"game": game, "players": list(players)}).get_json()
    for hand in hands:
        assert client.post(f"/api/v1/tables/{made['id']}/hands", json=hand,
                           headers={"X-Edit-Token": made["edit_token"]}).status_code == 201
    client.get(f"/tables/{made['id']}/edit/{made['edit_token']}")
    return made


def test_shuangkou_steps_give_each_players_points_by_name_not_a_list(client):
    made = api_table_with(client, "shuangkou", [{"finish_order": [0, 2], "bombs": [{"seat": 1, "lines": 7}]}])
    card = client.get(f"/tables/{made['id']}").get_data(as_text=True)
    assert "合计：阿明 −3，小红 +15，老王 −3，Jennifer −9" in card
    assert not re.search(r"\[[+−-]?\d+,", card) and "炸弹：小红 线数 7" in card


def test_a_bombs_row_names_who_played_it_without_a_label_before_the_name(client):
    made = api_table_with(client, "paodekuai", [{"winner": 0, "cards_left": [0, 3, 4, 5], "bombs": [{"seat": 2}]}])
    card = client.get(f"/tables/{made['id']}").get_data(as_text=True)
    assert "炸弹：老王" in card and "谁打的" not in card[card.index('id="hand-1"'):]


def test_english_says_round_over_declarer_made_failed_and_one_transfer_in_english(client):
    made = api_table_with(client, "hongwu", [{"declarer": 0, "bid": 100, "declarer_points": 120}], ["甲", "乙", "丙", "丁"])
    client.get("/lang/en")
    settle = client.get(f"/tables/{made['id']}/settle-up").get_data(as_text=True)
    assert "As declarer (庄家): made/failed" in settle and "庄家 made" not in settle
    assert re.search(r"\d transfers?: the fewest possible", settle) and "transfer(s)" not in settle
    q783 = api_table_with(client, "q783", [{"banks": [20, 20, 20], "rounds": [{"winner": 0, "won_with": "plain"}],
                                            "finish_order": [0]}], ["甲", "乙", "丙"])
    page = client.get(f"/tables/{q783['id']}").get_data(as_text=True)
    assert "Round (大局) over" in page and "Round 1 (大局)" in page and "大局 over" not in page


def test_an_evening_with_no_hand_is_not_counted_in_its_circle(client):
    first = api_table_with(client, "hongwu", [{"declarer": 0, "bid": 100, "declarer_points": 120}], ["甲", "乙", "丙", "丁"])
    nxt = client.post(f"/api/v1/tables/{first['id']}/next-evening", json={},
                      headers={"X-Edit-Token": first["edit_token"]}).get_json()
    circle = client.get(f"/api/v1/tables/{nxt['id']}").get_json()["circle"]
    season = client.get(f"/api/v1/circles/{circle}").get_json()
    assert [e["table"] for e in season["evenings"]] == [first["id"]]
    assert {s["evenings"] for s in season["standings"]} == {1}
    assert "共1晚，1局" in client.get(f"/circles/{circle}").get_data(as_text=True)


# --- chips covering what a table's rules allow (issue 41, item 3) ----------------------------

@pytest.mark.parametrize("decks,last", [(2, ["60", "80"]), (3, ["40", "60"])])
def test_a_hongwu_tables_bottom_chips_reach_the_most_its_bottom_holds(client, decks, last):
    made = client.post("/api/v1/tables", json={"game": "hongwu", "players": ["甲", "乙", "丙", "丁"],
                                              "rules": {"decks": decks}}).get_json()
    html = client.get(f"/tables/{made['id']}/edit/{made['edit_token']}", follow_redirects=True).get_data(as_text=True)
    shown = re.findall(r'data-set-for="bottom_points" data-value="(\d+)"', html)
    assert shown[:3] == ["0", "5", "10"] and shown[-2:] == last  # 80 with 2 decks (8 cards), 60 with 3


# --- the share picture and the group-chat text (issue 41, item 4) ----------------------------------

def settle_page(client, table_id: str, lang: str = "zh") -> str:
    return client.get(f"/tables/{table_id}/settle-up?lang={lang}").get_data(as_text=True)


def picture_of(page: str) -> dict:
    return json.loads(html.unescape(re.search(r"data-picture='([^']*)'", page).group(1)))


@pytest.mark.parametrize("lang,rules", [("zh", "本桌规则：跑得快 52张（4人×13张），炸弹分 10"),
                                        ("en", "House rules: Paodekuai, 52 cards (4 × 13), Bomb points 10")])
def test_the_share_picture_names_the_preset_and_only_the_rules_the_table_set_apart(client, lang, rules):
    made = client.post("/api/v1/tables", json={"game": "paodekuai", "players": ["甲", "乙", "丙", "丁"],
                                              "rules": {"bomb_points": 10}}).get_json()
    client.get(f"/tables/{made['id']}/edit/{made['edit_token']}")
    picture = picture_of(settle_page(client, made["id"], lang))
    assert picture["rules"] == rules and "*" not in picture["rules"]


def test_the_share_picture_of_a_table_at_its_presets_rules_names_the_preset_alone(client):
    made = api_table_with(client, "hongwu", [{"declarer": 0, "bid": 100, "declarer_points": 120}], ["甲", "乙", "丙", "丁"])
    assert picture_of(settle_page(client, made["id"]))["rules"] == "本桌规则：游戏e家"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_group_chat_text_and_the_pictures_qr_link_to_this_evening_even_once_a_next_one_is_open(client, lang):
    made = api_table_with(client, "hongwu", [{"declarer": 0, "bid": 100, "declarer_points": 120}], ["甲", "乙", "丙", "丁"])
    page = settle_page(client, made["id"], lang)
    text = html.unescape(re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S).group(1))
    link = f"http://localhost/tables/{made['id']}?stay=1"
    assert text.splitlines()[-1] == link and picture_of(page)["link"] == link
    client.post(f"/api/v1/tables/{made['id']}/next-evening", json={}, headers={"X-Edit-Token": made["edit_token"]})
    shown = client.application.test_client().get(link.removeprefix("http://localhost"))
    assert shown.status_code == 200 and f'/tables/{made["id"]}/settle-up' in shown.get_data(as_text=True)


# --- 抠底 is 二七王's word for the defenders taking the bottom; 红五's bottom is the declarer's ----------

def test_hongwus_bottom_is_the_declarers_last_trick_never_called_kou_di_as_erqiwang_calls_the_defenders(client):
    made = api_table_with(client, "hongwu", [{"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15,
                                              "declarer_took_bottom": True}], ["甲", "乙", "丙", "丁"])
    page = client.get(f"/tables/{made['id']}/edit").get_data(as_text=True)
    new = client.get("/tables/new?game=hongwu").get_data(as_text=True)
    assert "庄家赢了最后一墩" in page and "底牌分15计给庄家（庄家赢了最后一墩）" in page
    assert "抠底" not in page + new and "最后一轮" not in page + new and "赢最后一墩才得" in new
    erqiwang = client.post("/api/v1/tables", json={"game": "erqiwang", "players": ["甲", "乙", "丙", "丁"],
                                                  "rules": {"bottom_bonus": "on"}}).get_json()
    form = client.get(f"/tables/{erqiwang['id']}/edit/{erqiwang['edit_token']}", follow_redirects=True)
    assert "抠底：底牌分按最后一墩翻倍给闲家" in form.get_data(as_text=True)  # the defenders' 抠底, at 二七王 only


# --- one colour per player (issue 41, circle row) ------------------------------------------------

def test_a_player_wears_on_the_circle_page_the_colour_the_table_page_gives_their_seat(client):
    # 老王 (seat 2) leads the standings: the circle's first place must not take seat 0's colour
    first = api_table_with(client, "hongwu", [{"declarer": 2, "bid": 100, "declarer_points": 150}], ["甲", "乙", "老王", "丁"])
    table = client.get(f"/tables/{first['id']}").get_data(as_text=True)
    dot = r'<circle cx="1" cy="1" r="1" fill="(#[0-9a-f]{6})"/></svg>'
    seat_colours = dict(zip(["甲", "乙", "老王", "丁"], re.findall(r'<td><svg class="swatch"[^>]*>' + dot, table)))
    assert len(set(seat_colours.values())) == 4
    circle = client.get(f"/api/v1/tables/{first['id']}").get_json()["circle"]
    page = client.get(f"/circles/{circle}").get_data(as_text=True)
    standings = re.findall(r'<th scope="row" class="who"><svg class="swatch"[^>]*>' + dot + r"([^<]+)</th>", page)
    lines = re.findall(r'<li><svg class="swatch"[^>]*>' + dot + r"\s*<strong>([^<]+)</strong>", page)
    assert standings[0][1] == "老王" and len(standings) == len(lines) == 4
    assert {name: colour for colour, name in standings} == {name: colour for colour, name in lines} == seat_colours
    chart = re.search(r'<polyline[^>]*stroke="(#[0-9a-f]{6})"[^>]*data-seat="0"', page).group(1)
    assert chart == seat_colours["甲"]  # the chart's first line is the first seat's, as on the table's chart


def test_the_last_hand_is_one_tap_from_its_edit_beside_undo_over_the_totals(client):
    table_id, edit_path = open_table(client)
    for seat in (1, 2):
        record(client, edit_path, **BANKS, **first_out(seat))
    live = client.get(edit_path).get_data(as_text=True)
    live = live[live.index('id="live"'):live.index('id="new-hand"')]  # the totals' box (its undo row on their top)
    assert re.search(rf'<a class="btn edit-last" href="{edit_path}/hands/2">修改第2局</a>\s*'
                     r'<button type="submit" class="btn">撤销上一局（第2局）</button>', live)
    reader = client.application.test_client().get(f"/tables/{table_id}").get_data(as_text=True)
    assert "edit-last" not in reader  # only where the table can be edited
