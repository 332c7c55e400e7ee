"""跑得快 in a real browser at phone width: settle, check with the card picker,
bad input keeps what the player typed, and the language switch."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_settling_a_hand_shows_every_seats_points_and_the_steps(page, live_server):
    page.goto(live_server + "/paodekuai/settle")
    page.fill("input[name=names-0]", "老王")
    page.check("input[name=winner][value='0']")
    for seat, left in ((1, "5"), (2, "13"), (3, "10")):
        page.fill(f"#cards_left-{seat}", left)
    page.click("button[type=submit].primary")
    result = page.locator("#result")
    result.wait_for()
    assert result.locator("td.num").all_inner_texts() == ["+87", "−5", "−52", "−30"]
    assert "老王" in result.inner_text()
    steps = result.locator(".steps li").all_inner_texts()
    assert any("×4" in s or "× 4" in s for s in steps), steps


def test_checking_a_play_built_with_the_card_picker(page, live_server):
    page.goto(live_server + "/paodekuai/check")
    page.fill("#previous", "♠8 ♥8 ♣8 ♠4 ♥4")
    picker = page.locator(".picker[data-for=play]")
    picker.get_by_role("button", name="选牌").click()
    for suit in ("♠", "♥", "♣", "♦"):
        picker.locator(f"button.suit[data-suit='{suit}']").click()
        picker.locator("button.rank[data-rank='3']").click()
    assert page.input_value("#play") == "♠3 ♥3 ♣3 ♦3"
    page.click("button[type=submit].primary")
    page.locator("#result").wait_for()
    assert "可以出" in page.locator("#result .verdict").inner_text()
    assert "炸弹" in page.locator("#result").inner_text()


def test_a_bad_card_gets_a_message_quoting_it_and_the_text_is_kept(page, live_server):
    page.goto(live_server + "/paodekuai/check")
    page.fill("#play", "♠A ♠X")
    page.click("button[type=submit].primary")
    error = page.locator(".cards-field.has-error .error")
    error.wait_for()
    assert "♠X" in error.inner_text()
    assert page.input_value("#play") == "♠A ♠X"


def test_a_bad_settlement_keeps_the_form_and_says_what_is_wrong_in_english(page, live_server):
    page.goto(live_server + "/lang/en?next=/paodekuai/settle")
    page.check("input[name=winner][value='1']")
    page.fill("#cards_left-0", "14")
    page.fill("#cards_left-2", "3")
    page.fill("#cards_left-3", "3")
    page.click("button[type=submit].primary")
    error = page.locator(".error").first
    error.wait_for()
    assert "14" in error.inner_text() and "13" in error.inner_text()
    assert page.input_value("#cards_left-0") == "14"
    assert page.is_checked("input[name=winner][value='1']")


def test_switching_the_preset_changes_the_seats_and_the_picker_deck(page, live_server):
    page.goto(live_server + "/paodekuai/settle")
    assert page.locator(".seat-row").count() == 4
    page.locator("details.rules-box summary").click()
    page.select_option("#rules-preset", "paodekuai48")
    expect(page.locator(".seat-row")).to_have_count(3, timeout=30_000)
    assert page.locator(".seat-row").count() == 3
