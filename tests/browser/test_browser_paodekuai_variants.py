"""A 跑得快 evening with house rules in a real browser at phone width (360 px): a table opened with
红桃10扎鸟 and bomb points, two hands recorded with the ♥10 holder and a bomb, the totals and a step."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_an_evening_with_zhaniao_and_bomb_points(page, live_server):
    page.goto(live_server + "/tables/new?game=paodekuai")
    for i, name in enumerate(("阿明", "小红", "老王", "Jen")):
        page.fill(f"#name_{i}", name)
    page.click("details.rules-box summary")
    page.select_option("#rules-zhaniao", "cards")
    page.fill("#rules-bomb_points", "10")
    page.click("#panel button[type=submit]")
    page.locator(".share").first.wait_for()
    # hand 1: 阿明 goes out; 老王 held ♥10 and played nothing (52 × 2); 小红 scored a bomb (10 from each)
    page.check("input[name=winner][value='0']")
    for seat, left in ((1, "5"), (2, "13"), (3, "10")):
        page.fill(f"#cards_left-{seat}", left)
    page.check("input[name=heart10][value='2']")
    page.check("input[name='bombs-0-seat'][value='1']")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["+129", "+25", "−114", "−40"]
    # hand 2: 小红 goes out holding ♥10, so every loser's payment is doubled
    page.check("input[name=winner][value='1']")
    for seat, left in ((0, "3"), (2, "4"), (3, "6")):
        page.fill(f"#cards_left-{seat}", left)
    page.check("input[name=heart10][value='1']")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-2").wait_for()
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["+123", "+51", "−122", "−52"]
    hand = page.locator("#hand-1")
    hand.locator("details.steps-box summary").click()
    steps = hand.locator(".steps li").all_inner_texts()
    assert any("红桃10扎鸟：×2" in s for s in steps), steps
    assert any("炸弹" in s and "30" in s for s in steps), steps
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
