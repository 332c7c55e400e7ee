"""The 结账 page and "new evening with the same players and rules", through the test client."""
from __future__ import annotations

import re

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def open_table(client, game="hongwu", players=("阿明", "小红", "老王", "Jennifer"), rules=None):
    body = {"game": game, "players": list(players), **({"rules": rules} if rules else {})}
    out = client.post("/api/v1/tables", json=body).get_json()
    return out


def add(client, out, hand):
    resp = client.post(f"/api/v1/tables/{out['id']}/hands", json=hand, headers={"X-Edit-Token": out["edit_token"]})
    assert resp.status_code == 201, resp.get_json()


def owner_page(client, out) -> str:
    """Open the edit link (it sets the table's cookie) and return the edit page."""
    return client.get(f"/tables/{out['id']}/edit/{out['edit_token']}", follow_redirects=True).get_data(as_text=True)


HAND = {"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15, "declarer_took_bottom": True,
        "red_fives": []}


def settle_up_after_one_hand(client, query: str):
    """A 红五 table after one hand, and its settle-up page with this query: (the table, status, html)."""
    out = open_table(client)
    add(client, out, HAND)
    resp = client.get(f"/tables/{out['id']}/settle-up{query}")
    return out, resp.status_code, resp.get_data(as_text=True)


def test_the_settle_up_page_lists_who_pays_whom_with_the_money(client):
    out, status, html = settle_up_after_one_hand(client, "?per_point=0.5")
    assert status == 200
    api = client.get(f"/api/v1/tables/{out['id']}/settle-up?per_point=0.5").get_json()
    assert html.count('class="transfer"') == len(api["transfers"]) > 0
    for tr in api["transfers"]:
        assert f"{tr['amount']}元" in html
    assert 'value="http://localhost/tables/%s/settle-up?per_point=0.5"' % out["id"] in html  # the link to share
    assert 'aria-current="true">1分=0.5元' in html  # the chip of the chosen value


def test_a_bad_money_per_point_keeps_what_was_typed_and_says_what_is_valid(client):
    out, status, html = settle_up_after_one_hand(client, "?per_point=1.234")
    assert status == 400
    assert 'value="1.234"' in html
    assert "最多两位小数" in html
    assert "元</strong>" not in html  # no money is shown for a value that was refused; the points still are
    assert 'class="transfer"' in html
    en = client.get(f"/tables/{out['id']}/settle-up?per_point=abc&lang=en")
    assert en.status_code == 400 and "at most two decimals" in en.get_data(as_text=True)


def test_the_settle_up_page_of_an_unknown_table_is_a_404_page(client):
    resp = client.get("/tables/nothing-here/settle-up")
    assert resp.status_code == 404
    assert "没有这张牌桌" in resp.get_data(as_text=True)


def test_the_settle_up_page_shows_the_zhuangjia_record_for_a_game_with_a_zhuangjia(client):
    out = open_table(client)
    add(client, out, HAND)
    add(client, out, {**HAND, "declarer_points": 40, "bottom_points": 0, "declarer_took_bottom": False})
    html = client.get(f"/tables/{out['id']}/settle-up").get_data(as_text=True)
    assert "坐庄 成/败" in html
    assert re.search(r'<li data-seat="0">\s*<h3>阿明</h3>\s*<dl>\s*<div><dt>赢的局</dt><dd class="won">1/2</dd></div>\s*'
                     r'<div><dt>坐庄 成/败</dt><dd class="declared">1/1</dd>', html)
    pdk = open_table(client, "paodekuai")
    assert "坐庄" not in client.get(f"/tables/{pdk['id']}/settle-up").get_data(as_text=True)


def test_the_read_only_page_links_to_settle_up_but_offers_no_new_evening(client):
    out = open_table(client)
    html = client.get(f"/tables/{out['id']}").get_data(as_text=True)
    assert f'href="/tables/{out["id"]}/settle-up"' in html
    assert "new-evening" not in html


def test_a_new_evening_copies_game_players_and_rules_and_opens_its_edit_page(client):
    out = open_table(client, rules={"preset": "tiers_321", "base": 3})
    add(client, out, HAND)
    page = owner_page(client, out)
    assert "new-evening" in page
    resp = client.post(f"/tables/{out['id']}/edit/new-evening", data={"csrf_token": CSRF.search(page).group(1)})
    assert resp.status_code == 303
    new_id = re.match(r".*/tables/([^/]+)/edit\?new=1#entry$", resp.headers["Location"]).group(1)
    assert new_id != out["id"]
    assert f"Path=/tables/{new_id};" in resp.headers["Set-Cookie"]
    fresh = client.get(f"/api/v1/tables/{new_id}").get_json()
    old = client.get(f"/api/v1/tables/{out['id']}").get_json()
    assert (fresh["game"], fresh["players"], fresh["rules"]) == (old["game"], old["players"], old["rules"])
    assert fresh["hands"] == [] and fresh["totals"] == [0, 0, 0, 0]
    edit = client.get(f"/tables/{new_id}/edit")  # the cookie came with the redirect
    assert edit.status_code == 200 and "记一局" in edit.get_data(as_text=True)


def test_a_new_evening_needs_the_edit_cookie_and_the_forms_token(client, app):
    out = open_table(client)
    stranger = app.test_client()
    token = CSRF.search(stranger.get("/tables/new?game=hongwu").get_data(as_text=True)).group(1)
    assert stranger.post(f"/tables/{out['id']}/edit/new-evening", data={"csrf_token": token}).status_code == 403
    owner_page(client, out)
    assert client.post(f"/tables/{out['id']}/edit/new-evening", data={}).status_code == 400
