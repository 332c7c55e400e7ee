"""The rules tab's contents list on a 360 px phone: a tapped entry brings its section into view, below the
sticky header, on the longest rules page (跑得快, ~10 screens)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "entry", "section"), [
    ("zh", "各地玩法（其他平台）", "#house-rules"),
    ("en", "Settlement", "#settlement"),
])
def test_tapping_a_contents_entry_shows_its_section_below_the_header(page, live_server, lang, entry, section):
    page.goto(f"{live_server}/lang/{lang}?next=/paodekuai/rules")
    heading = page.locator(section)
    expect(heading).not_to_be_in_viewport()
    page.locator("nav.rules-toc").get_by_role("link", name=entry, exact=True).tap()
    expect(heading).to_be_in_viewport()
    header_bottom = page.locator("header.top").bounding_box()["height"]
    assert page.evaluate(f"document.querySelector('{section}').getBoundingClientRect().top") >= header_bottom
    assert page.evaluate("window.scrollY") > 0
