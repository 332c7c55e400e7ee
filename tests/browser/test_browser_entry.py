"""Entry for a thumb (issue "The evening at the table"): a typical hand of each game takes no more taps than
its budget, counted as bench/taps.py counts them (a click or a digit is one tap), and settles right."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.taps import HANDS, play

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("hand", HANDS, ids=[f"{h.game}-{h.words}" for h in HANDS])
def test_a_typical_hand_takes_no_more_taps_than_its_budget(page, live_server, hand):
    played = play(page, live_server, hand)
    assert played.deltas == hand.expected
    assert played.taps <= hand.budget, played.log


def test_tapping_players_in_the_order_they_went_out_fills_the_places(page, live_server):
    page.goto(live_server + "/shuangkou/settle")
    for seat in ("2", "0", "2", "3"):  # a second tap on a player already placed changes nothing
        page.click(f".seat-tap[data-seat='{seat}']")
    assert [page.input_value(f"#finish_order-{i}") for i in range(4)] == ["2", "0", "3", ""]
    page.click(".tap-clear")
    assert page.input_value("#finish_order-0") == ""


def test_a_chip_fills_its_box_and_the_stepper_moves_it_by_five(page, live_server):
    page.goto(live_server + "/hongwu/settle")
    page.click("button[data-set-for='bid'][data-value='100']")
    page.click("button[data-step-for='bid'][data-step='5']")
    assert page.input_value("#bid") == "105"
    page.click("button[data-step-for='bid'][data-step='-5']")
    assert page.input_value("#bid") == "100"


def test_what_is_typed_while_a_rules_refresh_is_on_its_way_is_kept_in_the_new_form(page, live_server):
    page.goto(live_server + "/tables/new?game=paodekuai")
    page.click("details.rules-box summary")
    held = []
    page.route("**/tables/new*", lambda route: held.append(route) if route.request.method == "POST"
               else route.continue_())
    page.select_option("#rules-zhaniao", "cards")  # a select: the form is sent to be redrawn
    for _ in range(100):  # a poll: the route's handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the refresh was not sent"
    page.fill("#rules-bomb_points", "10")
    page.fill("#name_0", "阿明")
    page.evaluate("document.getElementById('panel').dataset.before = 'yes'")
    held[0].continue_()
    page.wait_for_selector("#panel:not([data-before])", state="attached")  # the redrawn panel is in
    expect(page.locator("#rules-zhaniao")).to_have_value("cards")
    expect(page.locator("#rules-bomb_points")).to_have_value("10")
    expect(page.locator("#name_0")).to_have_value("阿明")
