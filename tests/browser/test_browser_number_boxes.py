"""Tapping a number box selects what is in it (issue 26): typing replaces the number, so a "5" tapped and
typed over with "6" is 6, not 65."""
from __future__ import annotations

import pytest
from test_browser_pwa import wait_until

pytestmark = pytest.mark.browser


def test_tapping_a_number_box_and_typing_replaces_its_number(page, live_server):
    page.goto(live_server + "/hongwu/settle")
    box = page.locator('input[name="bid"]')
    box.fill("150")
    page.locator("h1").first.click()  # away, then back with a tap
    box.tap()
    wait_until(page, "document.activeElement && document.activeElement.name === 'bid' && "
                           "document.activeElement.selectionStart === 0 && "
                           "document.activeElement.selectionEnd === document.activeElement.value.length")
    page.keyboard.type("60")
    assert box.input_value() == "60"
