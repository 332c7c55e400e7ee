"""Following a Q783 table's next hand in the round tracker at phone width (360 px): it starts from the
table's carried banks, and finishing the hand there records it once as the table's next hand."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_tables_browser import open_q783_table  # the ledger's own way of opening a table in the browser

pytestmark = pytest.mark.browser

NAMES = ("阿明", "小红", "老王", "Jennifer")


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_hand_followed_from_a_q783_table_is_recorded_once_with_the_carried_banks(page, live_server):
    table_url = open_q783_table(page, live_server, NAMES)
    for i in range(4):
        page.fill(f"#banks-{i}", "100")
    page.select_option("#finish_order-0", "1")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()

    page.get_by_role("link", name="跟踪这一手").click()
    banks = page.locator("td.bank")
    expect(banks.first).to_have_text("50", timeout=30_000)
    assert banks.all_inner_texts() == ["50", "250", "50", "50"]  # the banks the table carries
    assert no_sideways_scroll(page)
    page.locator(".seat-button", has_text="阿明").click()
    # winner + what won, two taps: the round is recorded (a click, not check(): the form is gone at once)
    page.locator(".won-with label", has_text="副Q783").click()
    expect(banks.first).to_have_text("110", timeout=30_000)
    assert banks.all_inner_texts() == ["110", "230", "30", "30"]
    page.locator(".finish-form summary").click()
    page.locator(".finish-form .seat-tap", has_text="老王").click()  # tap who went out first
    assert page.input_value("#place_0") == "2"
    page.click("button[value=finish]")
    expect(banks.first).to_have_text("60", timeout=30_000)
    assert banks.all_inner_texts() == ["60", "180", "160", "0"]
    # a double tap: the same form sent twice (the first send in the background) records the hand once
    page.evaluate("""() => { const form = document.querySelector('form.record-form'), body = new FormData(form);
                             body.set('action', 'record');
                             return fetch(form.getAttribute('action'), {method: 'POST', body, redirect: 'manual'}).then(r => r.type); }""")
    page.click("button[value=record]")

    page.locator("#hand-2").wait_for()
    assert page.url.startswith(table_url)
    assert page.locator("#live-hands .hand").count() == 2
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−40", "+80", "+60", "−100"]
    page.go_back()  # the tracker again: the recorded hand is not offered a second time
    expect(page.locator("button[value=record]")).to_have_count(0, timeout=30_000)


def test_a_six_seat_table_that_grew_to_seven_people_follows_and_records_a_hand_of_the_seated_six(page, live_server):
    names = ("阿明", "小红", "丙", "老王", "Jennifer", "小李")
    open_q783_table(page, live_server, names)
    page.click("#seats summary")
    replace = page.locator("form.seat-change.replace")
    replace.locator("select[name=seat]").select_option("3")  # 丙 leaves seat 3 …
    replace.locator("input[name=name]").fill("庚")          # … and 庚 sits down: seven people, six seats
    replace.locator("button").click()
    page.get_by_role("link", name="跟踪这一手").click()
    expect(page.locator(".tracker-table")).to_contain_text("阿明 · 小红 · 庚 · 老王 · Jennifer · 小李", timeout=30_000)
    for i in range(6):
        page.fill(f"[name=bank_{i}]", "80")
    page.click("button[value=start]")
    banks = page.locator("td.bank")
    expect(banks).to_have_count(6, timeout=30_000)
    assert no_sideways_scroll(page)
    page.locator(".seat-button", has_text="阿明").click()
    page.locator(".won-with label", has_text="副Q783").click()
    expect(banks.first).to_have_text("180", timeout=30_000)  # 副Q783: 20 from each of the five others
    page.locator(".finish-form summary").click()
    page.locator(".finish-form .seat-tap", has_text="庚").click()
    page.click("button[value=finish]")
    page.click("button[value=record]")
    page.locator("#hand-1").wait_for()
    totals = page.locator(".totals td[data-total]").all_inner_texts()
    assert len(totals) == 7 and totals[2] == "0" and totals[6] != "0"  # 丙 sat out the hand; 庚 played it
    assert sum(int(x.replace("\u2212", "-")) for x in totals) == 0
