"""The end of the evening in a real browser at phone width (360 px): the 结账 page, a new evening with the
same players, the tables this phone opened listed on the home page, and the share panel's copy buttons."""
from __future__ import annotations

import pytest
from test_tables_browser import api, no_sideways_scroll

from scoring.i18n import signed

pytestmark = pytest.mark.browser

NAMES = ["阿明", "小红", "老王", "Jennifer"]


def local(url: str, live_server: str) -> str:
    return url.replace("http://localhost", live_server)


def hongwu_evening(live_server):
    """A 红五 table after two hands: 阿明 made 100 with 120 + 15, then 小红 failed 80 with 40."""
    created = api(live_server, "POST", "tables", {"game": "hongwu", "players": NAMES})
    for hand in ({"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15,
                  "declarer_took_bottom": True, "red_fives": []},
                 {"declarer": 1, "bid": 80, "declarer_points": 40, "bottom_points": 0,
                  "declarer_took_bottom": False, "red_fives": []}):
        api(live_server, "POST", f"tables/{created['id']}/hands", hand, token=created["edit_token"])
    return created


def test_the_settle_up_page_shows_who_pays_whom_and_the_money_for_a_tapped_chip(page, live_server):
    created = hongwu_evening(live_server)
    page.goto(local(created["view_url"], live_server))
    page.click("a.settle-up-link")
    page.click(".per-point-chips a:text('1分=0.5元')")
    page.wait_for_url("**/settle-up?per_point=0.5")
    expected = api(live_server, "GET", f"tables/{created['id']}/settle-up?per_point=0.5")
    rows = page.locator("li.transfer")
    assert rows.count() == len(expected["transfers"]) > 0
    first = expected["transfers"][0]
    assert rows.first.locator(".payer").inner_text() == NAMES[first["from"]]
    assert rows.first.locator(".payee").inner_text() == NAMES[first["to"]]
    assert f"{first['amount']}元" in rows.first.locator(".amount").inner_text()
    assert page.locator(".bars svg.bar").count() == 4  # the totals as bars, their numbers beside them
    assert page.locator(".bars [data-total]").all_inner_texts()[0].startswith(signed(expected['totals'][0]))
    assert page.input_value("#settle-up-link").endswith("/settle-up?per_point=0.5")  # the link to share
    assert page.locator(".player-stats [data-seat='0'] dd.declared").inner_text() == "1/0"
    assert no_sideways_scroll(page)


def test_a_bad_money_per_point_keeps_what_was_typed_and_says_what_is_valid(page, live_server):
    created = hongwu_evening(live_server)
    page.goto(live_server + f"/tables/{created['id']}/settle-up")
    page.fill("#per_point", "0.555")
    page.click("form.per-point button[type=submit]")
    page.locator("#per_point-error").wait_for()
    assert page.input_value("#per_point") == "0.555"
    assert "最多两位小数" in page.locator("#per_point-error").inner_text()
    assert page.locator("li.transfer").count() > 0  # the points still show
    assert no_sideways_scroll(page)


def test_a_new_evening_opens_a_fresh_table_with_the_same_players_for_editing(page, live_server):
    created = hongwu_evening(live_server)
    page.goto(local(created["edit_url"], live_server))
    page.click("form.new-evening button")
    page.wait_for_url("**/edit?new=1#entry")
    new_id = page.url.split("/tables/")[1].split("/")[0]
    assert new_id != created["id"]
    assert page.locator(".players").inner_text() == " · ".join(NAMES)
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["0", "0", "0", "0"]
    assert page.locator("form.ledger-form").count() == 1  # this phone can record the new evening's hands
    assert no_sideways_scroll(page)
    page.click(".evening-row a[rel=prev]")  # the evening before (it stays there), and from it the one after
    page.wait_for_url(f"**/tables/{created['id']}?stay=1")
    page.click(".evening-row a[rel=next]")
    page.wait_for_url(f"**/tables/{new_id}")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_money_button_on_settle_up_fits_on_one_line_at_360_px(page, context, live_server, lang):
    created = hongwu_evening(live_server)
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    page.goto(live_server + f"/tables/{created['id']}/settle-up")
    lines = page.locator("form.per-point button[type=submit]").evaluate(
        "b => { const r = document.createRange(); r.selectNodeContents(b);"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }")
    assert lines == 1
    assert no_sideways_scroll(page)


def test_the_home_page_lists_the_tables_this_phone_opened_and_only_this_phone(page, context, browser,
                                                                                  live_server):
    watched = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    owned = api(live_server, "POST", "tables", {"game": "paodekuai", "players": NAMES})
    page.goto(local(watched["view_url"], live_server))
    page.goto(local(owned["edit_url"], live_server))
    page.goto(live_server + "/")
    listed = page.locator("#my-tables li.my-table")
    listed.first.wait_for()
    assert listed.count() == 2
    mine = page.locator(f"#my-tables li[data-table-id='{owned['id']}'] a")
    assert mine.get_attribute("href") == f"/tables/{owned['id']}/edit/{owned['edit_token']}"
    assert "可记账" in mine.inner_text() and "Jennifer" in mine.inner_text()
    seen = page.locator(f"#my-tables li[data-table-id='{watched['id']}'] a")
    assert seen.get_attribute("href") == f"/tables/{watched['id']}"
    assert "只读" in seen.inner_text()
    assert no_sideways_scroll(page)
    page.locator(f"#my-tables li[data-table-id='{watched['id']}'] button.remove").click()
    assert listed.count() == 1
    page.reload()
    assert page.locator("#my-tables li.my-table").count() == 1  # removed for good, on this phone
    other = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    try:
        phone = other.new_page()
        phone.goto(live_server + "/")
        assert phone.locator("#my-tables").is_hidden()  # another phone lists nothing
    finally:
        other.close()


def test_the_edit_link_stays_listed_after_the_table_is_opened_read_only(page, live_server):
    owned = api(live_server, "POST", "tables", {"game": "paodekuai", "players": NAMES})
    page.goto(local(owned["edit_url"], live_server))
    page.goto(local(owned["view_url"], live_server))
    page.goto(live_server + "/")
    link = page.locator(f"#my-tables li[data-table-id='{owned['id']}'] a")
    assert link.get_attribute("href") == f"/tables/{owned['id']}/edit/{owned['edit_token']}"


def test_the_share_panel_copies_the_read_only_link_in_one_tap(page, context, live_server):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(local(created["edit_url"], live_server))
    panel = page.locator("details.share.join")  # 让大家加入: the read-only link and its QR
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    panel.locator("button.copy").click()
    page.locator("details.share .copied.ok").first.wait_for()
    assert panel.locator(".copied").inner_text() == "已复制"
    assert page.evaluate("navigator.clipboard.readText()") == panel.locator("a.view-link").get_attribute("href")
    assert panel.locator(".qr svg").count() == 1
    owner = page.locator("details.owner-box")
    owner.locator("summary").click()
    owner.locator("button.copy").click()
    owner.locator(".copied.ok").wait_for()
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/edit/{created['edit_token']}")


def test_without_a_clipboard_the_copy_button_selects_the_link_to_copy_by_hand(page, live_server):
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(local(created["view_url"], live_server))
    page.locator("details.share summary").click()
    page.locator("details.share button.copy").click()
    page.locator("details.share .copied.fallback").wait_for()
    assert "长按复制" in page.locator("details.share .copied").inner_text()
    selected = page.evaluate("[document.activeElement.id, document.activeElement.selectionStart,"
                             " document.activeElement.selectionEnd, document.activeElement.value.length]")
    assert selected[0] == "view-link-text" and selected[1] == 0 and selected[2] == selected[3] > 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_copy_text_button_on_settle_up_copies_the_api_s_share_text(page, context, live_server, lang):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    created = hongwu_evening(live_server)
    page.goto(live_server + f"/tables/{created['id']}/settle-up?per_point=0.5")
    page.click(".share-text button.copy")
    page.locator(".share-text .copied.ok").wait_for()
    expected = api(live_server, "GET", f"tables/{created['id']}/settle-up?per_point=0.5", lang=lang)["share_text"]
    assert page.evaluate("navigator.clipboard.readText()") == expected
    assert all(name in expected for name in NAMES)
    assert no_sideways_scroll(page)


def test_the_new_table_form_offers_the_names_this_phone_has_used_as_chips(page, browser, live_server):
    page.goto(live_server + "/tables/new?game=hongwu")
    assert page.locator(".usual-players").is_hidden()  # a phone that has opened no table offers nothing
    for i, name in enumerate(NAMES):
        page.fill(f"input[name=name_{i}]", name)
    page.click("form button[type=submit].primary")
    page.wait_for_url("**/edit**")
    page.goto(live_server + "/tables/new?game=hongwu")
    chips = page.locator(".usual-players button[data-name]")
    assert chips.all_inner_texts() == NAMES
    chips.nth(3).click()
    chips.nth(0).click()
    assert [page.input_value(f"input[name=name_{i}]") for i in range(2)] == ["Jennifer", "阿明"]
    assert chips.nth(3).get_attribute("aria-pressed") == "true"
    chips.nth(3).click()  # tapped again: taken out
    assert page.input_value("input[name=name_0]") == ""
    box = chips.nth(0).bounding_box()
    assert box["height"] >= 44 and no_sideways_scroll(page)
    other = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")  # another phone knows none of them
    stranger = other.new_page()
    stranger.goto(live_server + "/tables/new?game=hongwu")
    assert stranger.locator(".usual-players").is_hidden()
    other.close()
