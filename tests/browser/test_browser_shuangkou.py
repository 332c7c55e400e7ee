"""双扣 in a real browser at phone width: a settlement with bombs, and a wild-joker check."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_shuangkou_settlement_with_bombs_entered_as_cards_and_as_lines(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    page.select_option("#finish_order-0", label="1")  # seats read from 1: value 0 is "1"
    page.select_option("#finish_order-1", label="3")
    page.check("input[name='bombs-0-seat'][value='0']")
    page.click(".rows-bombs .row-entry[data-row='0'] .row-more > summary")  # the cards: one tap away
    picker = page.locator(".picker[data-for=bombs-0-cards]")
    picker.get_by_role("button", name="选牌").click()
    for _ in range(6):
        picker.locator("button.rank[data-rank='7']").click()
    assert page.input_value("#bombs-0-cards").split() == ["7"] * 6
    page.check("input[name='bombs-1-seat'][value='1']")
    page.check("input[name='bombs-1-lines'][value='7']")
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert result.locator("td.num").all_inner_texts() == ["+12", "+4", "+4", "−20"]
    assert "结果：双扣" in result.inner_text() and "shuangkou" not in result.inner_text()  # words, not the code


def test_shuangkou_a_bomb_that_is_none_is_refused_with_its_cards_kept(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    page.select_option("#finish_order-0", label="1")  # seats read from 1: value 0 is "1"
    page.select_option("#finish_order-1", label="3")
    page.check("input[name='bombs-0-seat'][value='0']")
    page.click(".rows-bombs .row-entry[data-row='0'] .row-more > summary")  # the cards: one tap away
    page.fill("#bombs-0-cards", "7 7 8 8")
    page.click("button[type=submit].primary")
    error = page.locator(".error").first
    error.wait_for()
    assert "7" in error.inner_text()
    assert page.input_value("#bombs-0-cards") == "7 7 8 8"


def test_shuangkou_check_reads_a_joker_as_the_card_that_beats(page, live_server):
    page.goto(live_server + "/shuangkou/check")
    page.fill("#previous", "3 4 5 6 7 8")
    page.fill("#play", "4 5 6 7 8 大王")
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert "可以出" in result.locator(".verdict").inner_text()


def test_a_new_bomb_row_appears_by_itself_once_the_last_one_is_used(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    assert page.locator(".rows-bombs .row-entry").count() == 1
    page.check("input[name='bombs-0-seat'][value='1']")
    assert page.locator(".rows-bombs .row-entry").count() == 2
    page.check("input[name='bombs-1-seat'][value='2']")  # a row's seat first: then its lines show
    page.check("input[name='bombs-1-lines'][value='6']")
    assert page.locator(".rows-bombs .row-entry").count() == 3
    assert page.locator(".rows-bombs .row-entry").nth(2).inner_text().startswith("炸弹3")
