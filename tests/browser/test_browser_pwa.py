"""The web app a phone keeps, in Chromium at 360 px: the service worker keeps the rules pages for reading
offline and shows the offline notice instead of the browser's error, a hand saved with no signal is
recorded once when the signal returns, the table page keeps the screen on, the dark theme follows the phone."""
from __future__ import annotations

import pytest
from page_waits import wait_until
from playwright.sync_api import expect
from test_tables_browser import api

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def hand_numbers(live_server, table_id):
    return [hand["number"] for hand in api(live_server, "GET", f"tables/{table_id}")["hands"]]


def worker_in_control(page):
    """Wait until the service worker is installed (with everything it keeps) and controls the page. Its
    claim on the open pages is done when it is activated; a page that was still loading then (the first
    one opened after a redirect) can miss it, and is controlled once loaded again."""
    wait_until(page, "navigator.serviceWorker.getRegistration()"
                     ".then(r => Boolean(r && r.active && r.active.state === 'activated'))")
    if not page.evaluate("navigator.serviceWorker.controller !== null"):
        page.reload()
    wait_until(page, "navigator.serviceWorker.controller !== null")


def open_q783_table(page, live_server, players=("甲", "乙", "丙")):
    created = api(live_server, "POST", "tables", {"game": "q783", "players": list(players)})
    page.goto(created["edit_url"])
    page.locator("form.ledger-form").wait_for()
    return created["id"]


def fill_q783_hand(page, last_out: str):
    page.select_option("#finish_order-0", last_out)


def test_the_service_worker_keeps_the_rules_pages_readable_offline(page, context, live_server):
    page.goto(live_server + "/")
    worker_in_control(page)
    context.set_offline(True)
    page.goto(live_server + "/shuangkou/rules")
    assert "双扣" in page.locator("h1").inner_text()
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    page.goto(live_server + "/q783/rules?lang=en")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("[data-offline-notice]").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_an_offline_rules_page_comes_in_the_language_the_player_chose(page, context, live_server):
    page.goto(live_server + "/lang/en?next=/")
    worker_in_control(page)
    context.set_offline(True)
    page.goto(live_server + "/hongwu/rules")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("[data-offline-notice]").count() == 0


def test_a_page_that_cannot_load_offline_shows_the_offline_notice_in_the_players_language(page, context,
                                                                                            live_server):
    page.goto(live_server + "/")
    worker_in_control(page)
    context.set_offline(True)
    page.goto(live_server + "/tables/new")
    assert page.locator("[data-offline-notice] h1").inner_text() == "没有网络"
    assert page.locator(".offline-rules a").count() == 5
    page.click(".offline-rules a[href='/paodekuai/rules']")  # and the rules it lists do open
    assert "跑得快" in page.locator("h1").inner_text()
    context.set_offline(False)
    page.goto(live_server + "/lang/en?next=/")
    context.set_offline(True)
    page.goto(live_server + "/paodekuai/check")
    assert page.locator("[data-offline-notice] h1").inner_text() == "You are offline"


def test_a_hand_saved_offline_is_recorded_once_when_the_signal_returns(page, context, live_server):
    table_id = open_q783_table(page, live_server)
    worker_in_control(page)
    context.set_offline(True)
    fill_q783_hand(page, "2")
    page.click("form.ledger-form button.primary")
    assert page.locator("[data-outbox-status]").inner_text().startswith("已保存在本机，联网后自动发送")
    assert hand_numbers(live_server, table_id) == []
    # the same hand held twice (two tabs, or an answer lost on the way back): still one hand
    page.evaluate("""() => { const box = JSON.parse(localStorage.getItem('paiju.outbox'));
                             box.push(Object.assign({}, box[0], {at: box[0].at + 1}));
                             localStorage.setItem('paiju.outbox', JSON.stringify(box)); }""")
    context.set_offline(False)
    page.locator("#hand-1").wait_for()
    wait_until(page, "JSON.parse(localStorage.getItem('paiju.outbox') || '[]').length === 0")
    assert hand_numbers(live_server, table_id) == [1]
    assert page.locator("#live-hands .hand").count() == 1
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−50", "−50", "+100"]


def test_two_hands_saved_offline_are_both_recorded(page, context, live_server):
    table_id = open_q783_table(page, live_server)
    context.set_offline(True)
    fill_q783_hand(page, "2")
    page.click("form.ledger-form button.primary")
    fill_q783_hand(page, "1")
    page.click("form.ledger-form button.primary")
    assert "2" in page.locator("[data-outbox-status]").inner_text()
    context.set_offline(False)
    page.locator("#hand-2").wait_for()
    assert hand_numbers(live_server, table_id) == [1, 2]
    # the page may still be drawn again once its outbox is empty: the totals are read once it settled
    wait_until(page, "JSON.parse(localStorage.getItem('paiju.outbox') || '[]').length === 0")
    expect(page.locator(".totals td[data-total]")).to_have_text(["−100", "+50", "+50"])


def test_a_hand_held_on_this_phone_is_sent_from_a_page_without_the_hand_queue(page, context, live_server):
    """A game tab loads the queue (static/outbox.js, and storage.js it needs) only when this phone holds a hand, and
    then sends it; holding none, it loads neither."""
    page.goto(live_server + "/q783/rules")
    assert page.locator("script[data-outbox]").count() == 0 and page.evaluate("window.PaijuStorage") is None
    table_id = open_q783_table(page, live_server)
    context.set_offline(True)
    fill_q783_hand(page, "2")
    page.click("form.ledger-form button.primary")
    page.locator("[data-outbox-status]").wait_for()
    page.goto("about:blank")  # the table page would send it itself
    context.set_offline(False)
    page.goto(live_server + "/q783/rules")
    wait_until(page, "JSON.parse(localStorage.getItem('paiju.outbox') || '[]').length === 0")
    assert hand_numbers(live_server, table_id) == [1]
    assert page.locator("script[data-outbox]").count() == 1
    page.reload()  # nothing held any more: nothing of the queue
    assert page.locator("script[data-outbox]").count() == 0


def test_the_table_page_keeps_the_screen_on_unless_switched_off(page, live_server):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_q783_table(page, live_server)
    # the switch's script (static/outbox.js) is one the page loads once it is idle: each step waits for it to
    # have run, else a tap could come before it listens, or a reload be read before it set the switch
    page.evaluate("() => PaijuLater()")
    switch = page.locator("[data-wake-lock-switch]")
    assert switch.is_visible() and switch.is_checked()
    switch.uncheck()
    page.reload()
    page.evaluate("() => PaijuLater()")
    assert not page.locator("[data-wake-lock-switch]").is_checked()  # remembered on this phone
    page.locator("[data-wake-lock-switch]").check()
    page.reload()
    page.evaluate("() => PaijuLater()")
    assert page.locator("[data-wake-lock-switch]").is_checked()
    fill_q783_hand(page, "2")  # a refused wake lock breaks nothing: the page still records a hand
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert errors == []


def computed(page, selector, prop):
    return page.locator(selector).first.evaluate(f"e => getComputedStyle(e).{prop}")


def test_the_dark_theme_follows_the_phone_and_keeps_card_faces_readable(page, live_server):
    page.goto(live_server + "/shuangkou/check")
    page.locator(".picker-toggle").first.click()
    light = computed(page, "body", "backgroundColor")
    page.emulate_media(color_scheme="dark")
    assert light == "rgb(251, 250, 247)"
    assert computed(page, "body", "backgroundColor") == "rgb(18, 18, 18)"
    assert computed(page, "body", "color") == "rgb(236, 235, 232)"
    # on the dark card faces red suits stay red and black suits turn light
    assert computed(page, ".picker .suit.red", "color") == "rgb(255, 122, 112)"
    assert computed(page, ".picker .suit:not(.red):not(.on)", "color") == "rgb(242, 242, 242)"
    assert computed(page, ".picker button", "backgroundColor") == "rgb(42, 42, 42)"


def test_a_hand_sent_while_the_phone_only_believed_it_had_a_signal_is_held_and_recorded_once(page, context,
                                                                                            live_server):
    """navigator.onLine says online while nothing gets through: the page posts the form, the service worker
    cannot send it and, with no copy of the table page kept on this phone, shows the offline notice, which
    holds the hand until the signal returns."""
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', {get: () => true})")
    table_id = open_q783_table(page, live_server)
    worker_in_control(page)
    # a table page this phone has not kept (a kept one is shown instead: test_browser_offline_table.py)
    wait_until(page, "caches.open('paiju-tables').then(cache => cache.match(location.href)).then(Boolean)")
    page.evaluate("caches.delete('paiju-tables')")
    context.set_offline(True)
    fill_q783_hand(page, "2")
    page.click("form.ledger-form button.primary")
    notice = page.locator("[data-offline-notice]")
    assert notice.locator("h1").inner_text() == "没有网络"
    assert notice.locator("[data-outbox-status]").inner_text().startswith("已保存在本机，联网后自动发送")
    assert hand_numbers(live_server, table_id) == []
    context.set_offline(False)
    page.locator("#hand-1").wait_for()
    assert hand_numbers(live_server, table_id) == [1]
    assert page.locator("#live-hands .hand").count() == 1


def test_a_held_hand_the_ledger_refuses_stays_in_the_phone_on_its_table_page_with_the_reason(page, context,
                                                                                             live_server):
    """Issue 38: a refusal never drops a held hand; it is kept, marked, and the reason said beside it."""
    table_id = open_q783_table(page, live_server)
    context.set_offline(True)
    page.click("form.ledger-form button.primary")  # nobody went out: not a hand the ledger can settle
    assert page.locator("[data-outbox-status]").inner_text().startswith("已保存在本机")
    context.set_offline(False)
    refused = page.locator("[data-held-hands] li[data-held-refused] .error")
    refused.wait_for()
    assert refused.inner_text().startswith("没有记下，还留在本机：")
    assert page.locator("form.ledger-form").count() == 1
    assert page.evaluate("JSON.parse(localStorage.getItem('paiju.outbox') || '[]')[0].refused.status") == 422
    assert hand_numbers(live_server, table_id) == []


FAKE_WAKE_LOCK = """
window.wakeCalls = [];
const fake = {request(type) {
  window.wakeCalls.push(type);
  if (window.refuseWakeLock) return Promise.reject(new DOMException('refused', 'NotAllowedError'));
  const lock = {released: false, release() { lock.released = true; window.wakeCalls.push('release');
                                             return Promise.resolve(); }};
  window.lastLock = lock;
  return Promise.resolve(lock);
}};
Object.defineProperty(Navigator.prototype, 'wakeLock', {get: () => fake});
"""


def test_the_wake_lock_is_taken_on_opening_let_go_when_switched_off_and_taken_again_when_the_page_returns(
        page, live_server):
    page.add_init_script(FAKE_WAKE_LOCK)
    open_q783_table(page, live_server)
    wait_until(page, "window.wakeCalls.length === 1")
    assert page.evaluate("window.wakeCalls") == ["screen"]
    page.locator("[data-wake-lock-switch]").uncheck()
    wait_until(page, "window.wakeCalls.includes('release')")
    page.locator("[data-wake-lock-switch]").check()
    wait_until(page, "window.wakeCalls.length === 3")
    # the browser lets go of the lock while the page is hidden; coming back takes it again
    page.evaluate("window.lastLock.released = true; document.dispatchEvent(new Event('visibilitychange'))")
    wait_until(page, "window.wakeCalls.length === 4")
    assert page.evaluate("window.wakeCalls") == ["screen", "release", "screen", "screen"]
    assert page.locator("[data-wake-lock-note]").is_hidden()


def test_a_refused_wake_lock_says_so_and_unticks_the_switch_until_asked_again(page, live_server):
    page.add_init_script(FAKE_WAKE_LOCK + "window.refuseWakeLock = true;")
    open_q783_table(page, live_server)
    page.locator("[data-wake-lock-note]").wait_for()
    assert page.locator("[data-wake-lock-note]").inner_text() == "这个浏览器没有允许屏幕常亮"
    assert not page.locator("[data-wake-lock-switch]").is_checked()
    assert page.evaluate("localStorage.getItem('paiju.wakeLock')") is None  # refused, not switched off here


def test_a_settle_form_sent_before_htmx_has_loaded_waits_for_it_and_is_answered_in_place(page, live_server):
    """Issue 42 (first visit ≤ 30 KB): htmx is not part of a page's load (static/pwa.js loads it once the page is
    idle); a form sent before then is held and sent by htmx once it has run, the page staying where it is."""
    held = []  # htmx's file is held back until the form was sent: the page cannot have run it before
    page.route("**/vendor/htmx*", lambda route: held.append(route))
    page.goto(live_server + "/shuangkou/settle", wait_until="domcontentloaded")
    assert page.evaluate("window.htmx") is None
    page.evaluate("window.stayed = true; document.querySelector('#panel form').requestSubmit()")
    for _ in range(600):  # a poll: the route's handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for htmx"
    assert page.evaluate("window.htmx") is None
    held[0].continue_()
    wait_until(page, "window.htmx && document.querySelector('#panel .error, #panel #result')")
    assert page.evaluate("window.stayed") is True  # answered in place, not by a new page
    assert page.locator("script[type='paiju/later']").count() == 0
