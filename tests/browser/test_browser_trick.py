"""红五 and 二七王 in a real browser at phone width: check a follow, who wins a
trick, settle a hand (with 冲关 and red fives)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_hongwu_check_names_the_broken_follow_obligation(page, live_server):
    page.goto(live_server + "/hongwu/check")
    page.select_option("#trump", "♠")
    page.fill("#lead", "♣K ♣K")
    page.fill("#hand", "♣9 ♣9 ♣4 ♥A ♥3")
    picker = page.locator(".picker[data-for=play]")
    picker.get_by_role("button", name="选牌").click()
    picker.locator("button.suit[data-suit='♣']").click()
    picker.locator("button.rank[data-rank='9']").click()
    picker.locator("button.rank[data-rank='4']").click()
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert "不能出" in result.inner_text()
    assert "对" in result.locator(".reason").inner_text()
    page.fill("#play", "♣9 ♣9")
    page.click("button[type=submit].primary")
    expect(page.locator("#result .verdict")).to_contain_text("可以出", timeout=30_000)


def test_hongwu_trick_red_five_beats_the_big_joker(page, live_server):
    page.goto(live_server + "/hongwu/trick")
    page.select_option("#trump", "♥")
    for i, play in enumerate(["大王", "♥5", "小王", "♠2"]):
        page.fill(f"#play{i}", play)
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert "第 2 个" in result.inner_text()
    assert "5" in result.locator("strong").inner_text()


def test_hongwu_settle_with_a_captured_red_five(page, live_server):
    page.goto(live_server + "/hongwu/settle")
    page.check("input[name=declarer][value='1']")
    page.fill("#bid", "80")
    page.fill("#declarer_points", "90")
    page.fill("#bottom_points", "10")
    page.check("input[name=declarer_took_bottom]")
    page.click("details.rows-box > summary")  # captured red fives: closed until opened
    page.check("input[name='red_fives-0-owner'][value='1']")
    page.check("input[name='red_fives-0-captured_by'][value='3']")
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert result.locator("td.num").all_inner_texts() == ["+2", "−8", "+2", "+4"]


def test_erqiwang_settle_with_chongguan_in_english(page, live_server):
    page.goto(live_server + "/lang/en?next=/erqiwang/settle")
    page.check("input[name=declarer][value='0']")
    page.fill("#bid", "80")
    page.fill("#defender_points", "50")
    page.click("details.rows-box > summary")  # 冲关: closed until opened
    page.check("input[name='chongguan-0-seat'][value='1']")
    page.click(".row-entry[data-row='0'] .row-more > summary")  # the cards: one tap away
    page.fill("#chongguan-0-cards", "大王 大王 小王 ♠7 ♠7")
    page.check("input[name='chongguan-0-trump'][value='♠']")  # the row's own trump suit, beside its cards
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert result.locator("td.num").all_inner_texts() == ["−1", "+3", "−1", "−1"]
    assert "Steps" in result.inner_text()


def test_erqiwang_bad_bid_is_explained_and_kept(page, live_server):
    page.goto(live_server + "/erqiwang/settle")
    page.check("input[name=declarer][value='0']")
    page.fill("#bid", "85")
    page.fill("#defender_points", "50")
    page.click("button[type=submit].primary")
    error = page.locator(".error").first
    error.wait_for()
    assert "85" in error.inner_text()
    assert page.input_value("#bid") == "85"
