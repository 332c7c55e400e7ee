"""Browser tests: real pages in Chromium at phone width (360 px)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_home_fits_a_360px_phone_without_sideways_scrolling(page, live_server):
    page.goto(live_server + "/")
    assert page.locator("h1").first.is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


def test_language_switch_changes_the_page_and_is_remembered(page, live_server):
    page.goto(live_server + "/")
    assert "五种地方牌戏" in page.locator("h1").inner_text()
    page.click("a[data-lang=en]")
    assert "five regional card games" in page.locator("h1").inner_text()
    page.goto(live_server + "/q783/rules")
    assert page.locator("a.tab.on").inner_text() == "Rules"
    page.click("a[data-lang=zh]")
    assert page.locator("a.tab.on").inner_text() == "规则"


def test_card_picker_and_text_field_stay_in_sync_both_ways(page, live_server):
    page.goto(live_server + "/q783/check")
    field = page.locator("#play")
    picker = page.locator(".picker[data-for=play]")
    picker.get_by_role("button", name="选牌").click()
    picker.locator("button.suit[data-suit='♥']").click()
    picker.locator("button.rank[data-rank=Q]").click()
    picker.locator("button.rank[data-rank='7']").click()
    assert field.input_value() == "♥Q ♥7"
    field.fill("sq h7 d8")
    assert picker.locator(".chip").all_inner_texts() == ["♠Q", "♥7", "♦8"]
    picker.locator(".chip", has_text="♥7").click()
    assert field.input_value() == "♠Q ♦8"


def test_every_settle_page_fits_a_phone(page, live_server):
    for slug in ("paodekuai", "shuangkou", "q783", "hongwu", "erqiwang"):
        page.goto(f"{live_server}/{slug}/settle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, slug


def test_q783_round_tracker_updates_banks_each_round_and_undoes(page, live_server):
    page.goto(live_server + "/q783/rounds")
    for i in range(4):
        page.fill(f"#bank_{i}", "100")
    page.click("button[value=start]")
    banks = page.locator("td.bank")
    page.locator(".seat-button:has(input[value='0'])").click()
    picker = page.locator(".picker[data-for=cards]")
    picker.get_by_role("button", name="选牌").click()
    picker.locator("button.suit[data-suit='♠']").click()
    picker.locator("button.rank[data-rank=Q]").click()
    page.click("button[value=round]")
    expect(page.locator("td.bank").first).to_have_text("115", timeout=30_000)
    assert banks.all_inner_texts() == ["115", "95", "95", "95"]
    page.locator(".seat-button:has(input[value='2'])").click()
    page.fill("#cards", "♥Q ♥7 ♥8 ♥3")
    page.click("button[value=round]")
    expect(page.locator("td.bank").first).to_have_text("75", timeout=30_000)
    assert banks.all_inner_texts() == ["75", "55", "215", "55"]
    page.click("button[value=undo]")
    expect(page.locator("td.bank").first).to_have_text("115", timeout=30_000)
    page.locator(".seat-button:has(input[value='1'])").click()
    page.fill("#cards", "♠5 ♥5")
    page.click("button[value=round]")
    error = page.locator(".error").first
    error.wait_for()
    assert "分牌" in error.inner_text()
    assert page.locator("#cards").input_value() == "♠5 ♥5"
    assert banks.all_inner_texts() == ["115", "95", "95", "95"]


def test_every_rules_page_fits_a_phone(page, live_server):
    for slug in ("paodekuai", "shuangkou", "q783", "hongwu", "erqiwang"):
        for lang in ("zh", "en"):
            page.goto(f"{live_server}/lang/{lang}?next=/{slug}/rules")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, (slug, lang)


def test_form_controls_are_large_enough_to_tap(page, live_server):
    """Phones first: every input, select and button on the forms is at least 40 px tall."""
    for url in ("/q783/check", "/hongwu/settle", "/shuangkou/settle", "/paodekuai/hint", "/q783/rounds",
                "/tables/new?game=hongwu"):
        page.goto(live_server + url)
        for summary in page.locator("details summary").all():
            if summary.is_visible():  # a row's "more" shows once the row's seat is given
                summary.click()
        small = page.evaluate("""() => [...document.querySelectorAll(
                'main input:not([type=hidden]):not([type=radio]):not([type=checkbox]), main select, main button')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 40)
            .map(e => (e.name || e.id || e.textContent).trim())""")
        assert small == [], (url, small)
