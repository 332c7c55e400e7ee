"""The ledger as issue 5 describes it: open a 双扣 table, record three hands with
the settle form, see totals and the chart; a second phone (its own browser
context) opens the read-only link, watches a new hand appear, and cannot edit."""
from __future__ import annotations


import pytest

pytestmark = pytest.mark.browser


def record(page, places, bomb=None):
    for i, seat in enumerate(places):
        page.select_option(f"#finish_order-{i}", value=str(seat))
    if bomb:
        page.check(f"input[name='bombs-0-seat'][value='{str(bomb[0])}']")
        page.check(f"input[name='bombs-0-lines'][value='{str(bomb[1])}']")
    page.click("form.ledger-form button.primary")


def test_shuangkou_evening_totals_chart_and_a_read_only_phone(page, browser, live_server):
    page.goto(live_server + "/tables/new")
    page.click("a[href$='game=shuangkou']")
    for i, name in enumerate(("阿明", "小红", "老王", "Jen")):
        page.fill(f"#name_{i}", name)
    page.click("#panel button[type=submit]")
    page.locator(".share").first.wait_for()
    view_url = page.locator("a.view-link").get_attribute("href")
    if view_url.startswith("/"):
        view_url = live_server + view_url

    record(page, [0, 2])                      # 双扣 for 0 & 2: +3 each
    page.locator("#hand-1").wait_for()
    record(page, [1, 3], bomb=(1, 5))         # 双扣 for 1 & 3 with a 5-line bomb: ×2
    page.locator("#hand-2").wait_for()
    record(page, [0, 1, 2])                   # 单扣 for 0 & 2: +2 each
    page.locator("#hand-3").wait_for()
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−1", "+1", "−1", "+1"]
    assert page.locator("svg.ledger-chart polyline").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, service_workers="block")
    try:
        viewer = phone.new_page()
        viewer.set_default_timeout(30_000)
        viewer.goto(view_url)  # the circle's link: it opens this evening
        view_url = viewer.url
        assert viewer.locator(".totals td[data-total]").all_inner_texts() == ["−1", "+1", "−1", "+1"]
        assert viewer.locator("form").count() == 0          # nothing to change from here
        record(page, [3, 1])                                 # a new hand on the scorer's phone
        page.locator("#hand-4").wait_for()
        viewer.locator("#hand-4").wait_for()                 # appears on the viewer without reloading
        assert viewer.locator(".totals td[data-total]").all_inner_texts() == ["−4", "+4", "−4", "+4"]

        table_id = view_url.rstrip("/").split("/")[-1]
        status = viewer.evaluate("""async (id) => (await fetch('/api/v1/tables/' + id + '/hands',
            {method: 'POST', headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({finish_order: [0, 2], bombs: []})})).status""", table_id)
        assert status == 403                                 # no edit token: refused
        answer = viewer.goto(view_url + "/edit/not-the-token")
        assert answer.status in (403, 404)
        viewer.goto(view_url)
        assert viewer.locator("#live-hands .hand").count() == 4
    finally:
        phone.close()
