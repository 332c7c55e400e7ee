"""House-rule variants in a real browser at phone width (docs/rules/variants.md): a 双扣 hand with a
nine-line wild bomb (wild_over_eight), and a failed 红五 throw showing what must be played instead."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def choose_house_rule(page, option: str, value: str) -> None:
    page.locator("details.rules-box summary").click()
    with page.expect_response(lambda r: r.request.method == "POST"):  # the form is drawn again for the rule
        page.select_option(f"#rules-{option}", value)
    page.wait_for_load_state("networkidle")


def submitted_result(page):
    """Submit the form and wait for its result; the page must still fit the phone's width."""
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    return result


def test_wild_over_eight_settles_a_nine_line_wild_bomb(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    choose_house_rule(page, "wild_over_eight", "on")
    for box, seat in (("#finish_order-0", "1"), ("#finish_order-1", "3")):  # seat values 0 and 2, read from 1
        page.select_option(box, label=seat)
    page.check("input[name='bombs-0-seat'][value='0']")
    page.click(".rows-bombs .row-entry[data-row='0'] .row-more > summary")  # the cards: one tap away
    page.fill("#bombs-0-cards", "4 4 4 4 4 4 4 4 大王")
    result = submitted_result(page)
    # 9 lines: ×16 under the default cap (8 lines), and the 8-line-and-more contribution +30/−10
    assert result.locator("td.num").all_inner_texts() == ["+78", "−58", "+38", "−58"]
    text = result.inner_text()
    assert "王补成九相以上" in text and "9线" in text and "封顶8线" in text


def test_failed_throw_check_page_shows_what_must_be_played_instead(page, live_server):
    page.goto(live_server + "/lang/en?next=/hongwu/check")
    page.select_option("#trump", "♠")
    for box, cards in (("#hand", "♦A ♦Q ♦Q ♣9"), ("#play", "♦A ♦Q ♦Q"), ("#others", "♦K ♦K ♣4\n♣5\n♣6")):
        page.fill(box, cards)
    choose_house_rule(page, "failed_throw", "single_first")
    result = submitted_result(page)
    assert "✗" in result.locator(".verdict").inner_text()
    forced = result.locator(".forced")
    assert "play instead" in forced.inner_text() and forced.locator(".cards").inner_text() == "♦A"
