"""A failed save lands on the first marked field (issue 26): in view and focused, every error still listed."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

IN_VIEW = "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_failed_save_brings_the_first_marked_field_into_view_and_focus(page, live_server, lang):
    page.goto(f"{live_server}/lang/{lang}")
    page.goto(live_server + "/hongwu/settle")
    page.locator("input[name=bid]").fill("7")  # not a bid the rules allow; the other fields are left empty
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#panel form button[type=submit].primary").first.click()
    expect(page.locator("p.error").first).to_be_visible(timeout=10_000)
    assert page.locator("p.error").count() >= 2  # every problem listed at once
    focused = page.evaluate_handle("document.activeElement")
    assert page.evaluate("el => !!el.closest('.has-error') || el.classList.contains('has-error')", focused)
    assert page.evaluate(IN_VIEW, focused)
