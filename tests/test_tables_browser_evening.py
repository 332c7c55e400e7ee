"""The evening at the table in Chromium at 360 px: a save lands on the next hand's form with the totals in
view, hands read in words with their time, undo offers redo, an edit says which later hands changed, two
phones editing one table, players and seats changing."""
from __future__ import annotations

import pytest

from test_tables_browser import api, no_sideways_scroll, open_q783_table

pytestmark = pytest.mark.browser


def in_view(page, selector: str) -> bool:
    """Whether the element's top edge is on the screen."""
    return page.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
                                     return r.top >= 0 && r.top < window.innerHeight; }""", selector)


def test_after_saving_the_next_hands_form_is_at_the_top_with_the_new_totals_in_view(page, live_server):
    open_q783_table(page, live_server)
    for i in range(4):
        page.fill(f"#banks-{i}", "100")
    page.select_option("#finish_order-0", "1")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert page.url.endswith("#entry")
    assert in_view(page, ".totals") and in_view(page, "form.ledger-form")
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["-50", "+150", "-50", "-50"]
    assert page.evaluate("window.scrollY") > 0  # the share panels above scrolled away
    assert "版" not in page.locator("#live").inner_text()
    assert no_sideways_scroll(page)
