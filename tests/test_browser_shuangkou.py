"""双扣 in a real browser at phone width: a settlement with bombs, and a wild-joker check."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_shuangkou_settlement_with_bombs_entered_as_cards_and_as_lines(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    page.select_option("#place_0", "0")
    page.select_option("#place_1", "2")
    page.select_option("#bomb_seat_0", "0")
    picker = page.locator(".picker[data-for=bomb_cards_0]")
    picker.get_by_role("button", name="选牌").click()
    for _ in range(6):
        picker.locator("button.rank[data-rank='7']").click()
    assert page.input_value("#bomb_cards_0").split() == ["7"] * 6
    page.select_option("#bomb_seat_1", "1")
    page.fill("#bomb_lines_1", "7")
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert result.locator("td.num").all_inner_texts() == ["+12", "+4", "+4", "-20"]
    assert "shuangkou" in result.inner_text()


def test_shuangkou_a_bomb_that_is_none_is_refused_with_its_cards_kept(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    page.select_option("#place_0", "0")
    page.select_option("#place_1", "2")
    page.select_option("#bomb_seat_0", "0")
    page.fill("#bomb_cards_0", "7 7 8 8")
    page.click("button[type=submit].primary")
    error = page.locator(".error").first
    error.wait_for()
    assert "7" in error.inner_text()
    assert page.input_value("#bomb_cards_0") == "7 7 8 8"


def test_shuangkou_check_reads_a_joker_as_the_card_that_beats(page, live_server):
    page.goto(live_server + "/shuangkou/check")
    page.fill("#previous", "3 4 5 6 7 8")
    page.fill("#play", "4 5 6 7 8 大王")
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert "可以出" in result.locator(".verdict").inner_text()
