"""The table with no signal, in Chromium at 360 px, in zh and en: a table page seen once opens offline as
last seen and says since when; a hand saved there is listed as waiting to send beside the totals, its
banner is in view by the save button, and when the signal returns it is recorded once and shown."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser_pwa import fill_q783_hand, hand_numbers, wait_until, worker_in_control
from test_tables_browser import api

pytestmark = pytest.mark.browser

TEXTS = {
    "zh": {"note": "离线：显示的是 {time} 时的样子", "held": "待发送：{time} 保存在本机的一局"},
    "en": {"note": "Offline: as last seen at {time}", "held": "Waiting to send: the hand saved on this phone at {time}"},
}
KEPT = "paiju-tables"
OUTBOX_LENGTH = "JSON.parse(localStorage.getItem('paiju.outbox') || '[]').length"


def open_table_in(page, live_server, lang):
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(f"{live_server}/lang/{lang}?next=/")
    page.goto(created["edit_url"])
    page.locator("form.ledger-form").wait_for()
    return created["id"]


def kept_at(page) -> int:
    """When the service worker kept this table page (0: not kept)."""
    return page.evaluate(f"""caches.open('{KEPT}').then(cache => cache.match(location.href))
        .then(kept => kept ? Number(kept.headers.get('X-Paiju-Kept-At')) : 0)""")


def clock(page, ms: int) -> str:
    """HH:MM of a moment, in the phone's time zone."""
    return page.evaluate("""ms => { const d = new Date(ms), pad = n => String(n).padStart(2, '0');
                                    return pad(d.getHours()) + ':' + pad(d.getMinutes()); }""", ms)


def record_a_hand_online(page, last_out: str, number: int):
    fill_q783_hand(page, last_out)
    page.click("form.ledger-form button.primary")
    page.locator(f"#hand-{number}").wait_for()


def totals(page) -> list[str]:
    return page.locator(".totals td[data-total]").all_inner_texts()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_table_page_seen_once_opens_offline_as_last_seen_with_the_time_it_was_updated(page, context,
                                                                                         live_server, lang):
    open_table_in(page, live_server, lang)
    worker_in_control(page)
    record_a_hand_online(page, "2", 1)
    wait_until(page, f"caches.open('{KEPT}').then(c => c.match(location.href)).then(k => Boolean(k))")
    seen = totals(page)
    kept = kept_at(page)
    context.set_offline(True)
    page.reload()
    note = page.locator("[data-offline-note]")
    expect(note).to_have_text(TEXTS[lang]["note"].format(time=clock(page, kept)))
    expect(note).to_be_in_viewport()
    assert totals(page) == seen == ["-50", "-50", "+100"]
    assert page.locator("#live-hands .hand").count() == 1
    assert page.locator("html").get_attribute("lang") == ("en" if lang == "en" else "zh-CN")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_hand_saved_on_the_page_as_last_seen_waits_beside_the_totals_and_is_recorded_once(page, context,
                                                                                            live_server, lang):
    table_id = open_table_in(page, live_server, lang)
    worker_in_control(page)
    record_a_hand_online(page, "2", 1)
    wait_until(page, f"caches.open('{KEPT}').then(c => c.match(location.href)).then(k => Boolean(k))")
    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-note]")).to_be_visible()
    fill_q783_hand(page, "1")
    page.click("form.ledger-form button.primary")
    held = page.locator("[data-held-hands] li")
    expect(held).to_have_count(1)
    saved_at = page.evaluate("JSON.parse(localStorage.getItem('paiju.outbox'))[0].at")
    expect(held).to_have_text(TEXTS[lang]["held"].format(time=clock(page, saved_at)))
    expect(page.locator("[data-outbox-status]")).to_be_in_viewport()  # by the save button, where it was tapped
    # the held list sits right under the totals
    assert page.evaluate("""document.querySelector('#live').compareDocumentPosition(
        document.querySelector('[data-held-hands]')) & Node.DOCUMENT_POSITION_FOLLOWING""")
    assert hand_numbers(live_server, table_id) == [1]
    context.set_offline(False)
    page.locator("#hand-2").wait_for()
    wait_until(page, f"{OUTBOX_LENGTH} === 0")
    assert hand_numbers(live_server, table_id) == [1, 2]
    assert page.locator("#live-hands .hand").count() == 2
    assert totals(page) == ["-100", "+50", "+50"]
    expect(page.locator("[data-held-hands]")).to_be_hidden()
    expect(page.locator("[data-offline-note]")).to_be_hidden()


def test_a_second_hand_saved_offline_gets_its_own_key_and_both_are_recorded(page, context, live_server):
    """The page as last seen carries the idempotency key it was rendered with: a hand saved on it must not
    reuse the key of a hand held (or sent) before, or the ledger would take it for the same hand."""
    table_id = open_table_in(page, live_server, "zh")
    worker_in_control(page)
    record_a_hand_online(page, "2", 1)
    wait_until(page, f"caches.open('{KEPT}').then(c => c.match(location.href)).then(k => Boolean(k))")
    context.set_offline(True)
    page.reload()
    fill_q783_hand(page, "1")
    page.click("form.ledger-form button.primary")
    expect(page.locator("[data-held-hands] li")).to_have_count(1)
    page.reload()  # the same page as last seen, with the same key in its form
    expect(page.locator("[data-held-hands] li")).to_have_count(1)  # the held hand is still listed
    fill_q783_hand(page, "0")
    page.click("form.ledger-form button.primary")
    expect(page.locator("[data-held-hands] li")).to_have_count(2)
    keys = page.evaluate("""JSON.parse(localStorage.getItem('paiju.outbox'))
        .map(held => new URLSearchParams(held.body).get('idempotency_key'))""")
    assert len(set(keys)) == 2
    context.set_offline(False)
    page.locator("#hand-3").wait_for()
    assert hand_numbers(live_server, table_id) == [1, 2, 3]


def test_a_hand_posted_while_the_phone_only_believed_it_had_a_signal_comes_back_on_its_page_as_last_seen(
        page, context, live_server):
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', {get: () => true})")
    table_id = open_table_in(page, live_server, "en")
    worker_in_control(page)
    record_a_hand_online(page, "2", 1)
    wait_until(page, f"caches.open('{KEPT}').then(c => c.match(location.href)).then(k => Boolean(k))")
    context.set_offline(True)
    fill_q783_hand(page, "1")
    page.click("form.ledger-form button.primary")  # the form is posted; the worker cannot send it
    expect(page.locator("[data-offline-note]")).to_have_text(re.compile(r"^Offline: as last seen at \d\d:\d\d$"))
    expect(page.locator("[data-held-hands] li")).to_have_count(1)
    expect(page.locator("[data-outbox-status]")).to_be_in_viewport()
    assert page.locator("[data-offline-notice]").count() == 0
    context.set_offline(False)
    page.locator("#hand-2").wait_for()
    assert hand_numbers(live_server, table_id) == [1, 2]


def test_the_read_only_page_also_opens_offline_as_last_seen(page, context, live_server):
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(created["view_url"])
    worker_in_control(page)
    wait_until(page, f"caches.open('{KEPT}').then(c => c.match(location.href)).then(k => Boolean(k))")
    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-note]")).to_have_text(re.compile(r"^离线：显示的是 \d\d:\d\d 时的样子$"))
    assert page.locator(".totals td[data-total]").count() == 3
    assert page.locator("[data-offline-notice]").count() == 0
