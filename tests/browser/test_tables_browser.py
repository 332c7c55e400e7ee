"""The table ledger in a real browser at phone width (360 px): open a table,
record hands with the game's settle form, a read-only phone sees new hands
without reloading, undo and delete with confirmation."""
from __future__ import annotations

import json
import urllib.request

import pytest

pytestmark = pytest.mark.browser


def api(base, method, path, body=None, token=None, lang=None):
    req = urllib.request.Request(base + "/api/v1/" + path, method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json", **({"X-Edit-Token": token} if token else {}),
                                          **({"Accept-Language": lang} if lang else {})})
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read() or b"null")


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def open_q783_table(page, live_server, names=("阿明", "小红", "老王", "Jennifer")):
    page.goto(live_server + "/tables/new")
    page.click("a[href$='game=q783']")
    for i, name in enumerate(names):
        page.fill(f"#name_{i}", name)
    page.click("#panel button[type=submit]")
    page.locator(".share").first.wait_for()
    return page.url.split("?")[0].split("#")[0]


def test_opening_a_table_and_recording_hands_with_the_settle_form(page, live_server):
    edit_url = open_q783_table(page, live_server)
    assert edit_url.endswith("/edit")  # the edit token lives in the table's cookie, not in the address
    assert page.locator(".share .qr svg").count() == 1  # the QR code is shown to the creator at once
    assert no_sideways_scroll(page)
    for i in range(4):
        page.fill(f"#banks-{i}", "100")
    page.select_option("#finish_order-0", value="1")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−50", "+150", "−50", "−50"]
    assert page.input_value("#banks-1") == "250"  # the next hand starts from the carried banks
    page.check("input[name='rounds-0-winner'][value='0']")
    page.click(".row-entry[data-row='0'] .row-more > summary")  # the cards: one tap away
    page.fill("#rounds-0-cards", "♠Q ♥7 ♥8 ♣3")
    page.select_option("#finish_order-0", value="2")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-2").wait_for()
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−40", "+80", "+60", "−100"]
    assert page.locator("svg.ledger-chart polyline").count() == 4
    assert no_sideways_scroll(page)


def test_a_read_only_phone_sees_a_new_hand_without_reloading(page, context, live_server):
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(created["view_url"].replace("http://localhost", live_server))
    assert page.locator("form").count() == 0
    page.evaluate("window.stillTheSamePage = true")
    api(live_server, "POST", f"tables/{created['id']}/hands", {"rounds": [], "finish_order": [2]},
        token=created["edit_token"])
    page.locator("#hand-1").wait_for()  # htmx polls (every half second here)
    assert page.evaluate("window.stillTheSamePage === true")
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−50", "−50", "+100"]
    assert page.locator("#live-hands .hand").count() == 1
    assert no_sideways_scroll(page)


def test_undo_and_delete_with_confirmation(page, live_server):
    edit_url = open_q783_table(page, live_server)
    for seat in ("1", "2", "3"):
        page.select_option("#finish_order-0", value=seat)
        page.click("form.ledger-form button.primary")
        page.locator(f"#hand-{int(seat)}").wait_for()
    page.click("form.undo button")
    page.locator("#hand-3").wait_for(state="detached")
    page.click("#hand-1 a.danger")
    assert "/hands/1/delete" in page.url
    assert page.locator("#hand-2").count() == 0  # the confirmation page shows only that hand
    page.click("form.confirm button[type=submit]")
    page.locator("#hand-2").wait_for()
    assert page.locator("#live-hands .hand").count() == 1
    assert page.url.startswith(edit_url)
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−50", "−50", "+150", "−50"]


def test_the_edit_link_opens_the_edit_page_at_an_address_without_its_token(page, live_server):
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(created["edit_url"].replace("http://localhost", live_server))
    page.locator("form.ledger-form").wait_for()
    assert created["edit_token"] not in page.url and page.url.endswith(f"/tables/{created['id']}/edit")
    cookie = next(c for c in page.context.cookies() if c["name"] == "paiju_edit")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == f"/tables/{created['id']}"
    assert page.evaluate("document.cookie").find(created["edit_token"]) == -1
