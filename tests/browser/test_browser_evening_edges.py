"""The host never leaves the editing page by accident (issue 41, item 2), on a phone (Chromium, 360 × 780, touch):
a table opened from the new-table page lands on its first hand, which is entered and saved without a swipe (the
QR folded into one "让大家加入" button over it); 结账 → 回到牌桌 lands on the editable table at the next hand's
form; a past hand's edit page has its form and its save in view. Swipes are counted as bench/taps.py counts
them. One phone for the module: its tables' edit cookies are what the ways back look for."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_tables_browser import api

from bench.taps import (
    NAMES,
    REACHABLE,
    SAVE,
    Finger,
    erqiwang,
    hongwu,
    new_phone,
    paodekuai,
    q783_first,
    shuangkou_bomb,
)

pytestmark = pytest.mark.browser

#: each game's first hand as a player enters it: a 大局's banks first at Q783, 冲关 among 二七王's
FIRST_HANDS = [("paodekuai", paodekuai), ("shuangkou", shuangkou_bomb), ("q783", q783_first), ("hongwu", hongwu),
               ("erqiwang", lambda f: erqiwang(f, chongguan=True))]


@pytest.fixture(scope="module")
def phone(browser):
    context = new_phone(browser, "zh", "light")
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def open_from_the_new_table_page(page, live_server, slug: str) -> str:
    """The new-table page as the host fills it (the players' names, the rules as they are); the table's id."""
    page.goto(f"{live_server}/tables/new?game={slug}")
    for i, name in enumerate(NAMES):
        page.fill(f"#name_{i}", name)
    page.click("#panel button[type=submit]")
    page.wait_for_url("**/edit?new=1#entry")
    return page.url.split("/tables/")[1].split("/")[0]


def save(page, number: int) -> None:
    page.locator(SAVE).click()
    expect(page.locator(f"#hand-{number}")).to_be_attached()


@pytest.fixture(scope="module", params=[("zh", "light"), ("en", "dark")], ids=lambda p: "-".join(p))
def looked_phone(request, browser, live_server):
    """A phone in Chinese and light, or in English and dark (the words' lengths and the colours differ)."""
    context = new_phone(browser, *request.param)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server}/lang/{request.param[0]}")  # the language a player picks (kept in a cookie)
    page.html_lang = "zh-CN" if request.param[0] == "zh" else "en"
    yield page
    context.close()


@pytest.mark.parametrize("slug,first", FIRST_HANDS, ids=[slug for slug, _ in FIRST_HANDS])
def test_a_new_tables_first_hand_is_entered_and_saved_without_a_swipe(looked_phone, live_server, slug, first):
    phone = looked_phone
    open_from_the_new_table_page(phone, live_server, slug)
    assert phone.locator("html").get_attribute("lang") == phone.html_lang  # the words the phone's language gives
    join = phone.locator("details.share.join")
    assert join.locator("summary").evaluate(REACHABLE)  # 让大家加入: one small button, folded
    assert not join.evaluate("d => d.open") and not phone.locator(".join .qr svg").is_visible()
    finger = Finger(phone)
    first(finger)
    finger.reach(SAVE)
    assert finger.swipes == 0, finger.log
    save(phone, 1)
    assert phone.locator("#entry .totals").evaluate(REACHABLE)


def test_the_join_button_unfolds_the_qr_of_the_circles_link(phone, live_server):
    table_id = open_from_the_new_table_page(phone, live_server, "paodekuai")
    phone.locator("details.share.join > summary").click()
    expect(phone.locator(".join .qr svg")).to_be_visible()
    circle = api(live_server, "GET", f"tables/{table_id}")["circle"]
    assert phone.locator(".join a.view-link").get_attribute("href").endswith(f"/circles/{circle}/now")


BACK_TO_THE_TABLE = {"zh-CN": "回到牌桌", "en": "back to the table"}


def test_settle_up_and_back_lands_on_the_editable_table_at_the_next_hand(looked_phone, live_server):
    phone = looked_phone
    table_id = open_from_the_new_table_page(phone, live_server, "hongwu")
    hongwu(Finger(phone))
    save(phone, 1)
    phone.click("a.settle-up-link")
    phone.wait_for_url(f"**/tables/{table_id}/settle-up")
    phone.get_by_role("link", name=BACK_TO_THE_TABLE[phone.html_lang]).click()
    phone.wait_for_url(f"**/tables/{table_id}/edit#entry")
    assert phone.locator("#entry .totals").evaluate(REACHABLE)
    finger = Finger(phone)
    hongwu(finger)
    finger.reach(SAVE)
    assert finger.swipes == 0, finger.log
    save(phone, 2)


def test_a_past_hands_edit_page_opens_with_its_form_and_save_in_view(looked_phone, live_server):
    phone = looked_phone
    table_id = open_from_the_new_table_page(phone, live_server, "erqiwang")
    for number in (1, 2):
        erqiwang(Finger(phone))
        save(phone, number)
    phone.locator("#hand-1 .hand-actions a").first.click()
    phone.wait_for_url(f"**/tables/{table_id}/edit/hands/1")
    finger = Finger(phone)
    erqiwang(finger)
    finger.reach("form.ledger-form .submit-bar button.primary")
    assert finger.swipes == 0, finger.log
    phone.locator("form.ledger-form .submit-bar button.primary").click()
    phone.wait_for_url(f"**/tables/{table_id}/edit#entry")


def test_home_shows_the_new_table_button_and_this_phones_tables_without_a_swipe(phone, live_server):
    open_from_the_new_table_page(phone, live_server, "shuangkou")  # a table this phone keeps
    phone.goto(f"{live_server}/")
    expect(phone.locator("#my-tables li").first).to_be_visible()
    assert phone.get_by_role("link", name="开一桌记账").evaluate(REACHABLE)
    assert phone.locator("#my-tables li").first.evaluate(REACHABLE)
