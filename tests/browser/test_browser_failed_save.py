"""A failed save lands on the first marked field (issue 26): in view and focused, every error still listed."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.taps import NAMES, SAVE, Finger, api, chip, new_phone, radio

pytestmark = pytest.mark.browser

IN_VIEW = "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_failed_save_brings_the_first_marked_field_into_view_and_focus(page, live_server, lang):
    page.goto(f"{live_server}/lang/{lang}")
    page.goto(live_server + "/hongwu/settle")
    page.locator("input[name=bid]").fill("7")  # not a bid the rules allow; the other fields are left empty
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#panel form button[type=submit].primary").first.click()
    expect(page.locator("p.error").first).to_be_visible(timeout=30_000)
    assert page.locator("p.error").count() >= 2  # every problem listed at once
    # the page's script moves the focus once the answer is in: wait for that, not for the clock
    expect(page.locator(":is(.has-error :focus, :focus.has-error)")).to_have_count(1)
    focused = page.evaluate_handle("document.activeElement")
    assert page.evaluate(IN_VIEW, focused)


@pytest.mark.parametrize("lang,scheme", [(lang, scheme) for lang in ("zh", "en") for scheme in ("light", "dark")])
def test_a_failed_save_of_a_tables_next_hand_brings_its_first_marked_field_into_view_and_focus(
        browser, live_server, lang, scheme):
    """A 二七王 table's hand saved from the save bar with no 庄家 and a 冲关 row without its jokers: the page
    comes back with the 庄家 row, far above the bar, in view and focused, and both errors listed."""
    context = new_phone(browser, lang, scheme)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server}/lang/{lang}")
    table = api(live_server, "tables", {"game": "erqiwang", "players": NAMES})
    page.goto(table["edit_url"].replace("http://localhost", live_server))
    finger = Finger(page)
    finger.tap("details.rows-box > summary")
    finger.tap(radio("chongguan-0-seat", "1"))
    finger.tap(chip("bid", 60))
    finger.reach(SAVE)
    page.locator(SAVE).click()
    expect(page.locator("p.error").first).to_be_attached()
    assert page.locator("p.error").count() >= 2  # every problem listed at once
    expect(page.locator("[name=declarer]:focus")).to_have_count(1)  # focused once the page's script ran
    focused = page.evaluate_handle("document.activeElement")
    assert page.evaluate(IN_VIEW, focused)
    assert page.locator("details.rows-box").evaluate("el => el.open")  # the 冲关 row keeps what was typed
    context.close()
