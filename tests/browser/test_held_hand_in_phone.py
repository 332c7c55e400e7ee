"""The table with no signal, in offline mode (issue 29 item 3), in Chromium at 360 px: a hand saved on a table
page with no signal is settled in the phone at once — its deltas by player, marked as not yet sent and worked
out on this phone, and the totals including it — and when the signal returns it is recorded once, with
exactly those deltas; Q783's banks carry from the last recorded hand and from one held hand to the next. A
ledger answer that differs from the phone's is shown, and stays shown until the player says it was seen.

One phone (one browser context) for the module, offline mode turned on once: Pyodide loads in seconds."""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect
from test_browser_axe import RUN_AXE, axe_source
from test_browser_pwa import fill_q783_hand, hand_numbers, wait_until, worker_in_control
from test_offline_engine_browser import (  # noqa: F401 - back_online: an autouse fixture for this module too
    ANSWER_WAIT_MS,
    back_online,
    phone_with_offline_mode,
    requests_sent_so_far,
)
from test_tables_browser import api

from scoring.i18n import render, signed
from scoring.registry import get_game

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

NAMES = ["甲", "乙", "丙"]
WORDS = {"zh": {"held": "待发送：", "phone": "算于本机：{deltas}", "totals": "含待发送的合计（算于本机）：{totals}"},
         "en": {"held": "Waiting to send: ", "phone": "Worked out on this phone: {deltas}",
                "totals": "Totals with the hands waiting to send (worked out on this phone): {totals}"}}
OUTBOX = "JSON.parse(localStorage.getItem('paiju.outbox') || '[]')"
IS_KEPT = "caches.open('paiju-tables').then(cache => cache.match(location.href)).then(kept => Boolean(kept))"


@pytest.fixture(scope="module")
def phone(browser, live_server):
    with phone_with_offline_mode(browser, live_server, bypass_csp=True) as page:  # axe-core is injected
        yield page


def axe_findings(page) -> list:
    page.add_script_tag(path=str(axe_source()))
    return page.evaluate(RUN_AXE)


def by_name(values) -> str:
    return " · ".join(f"{name} {signed(value)}" for name, value in zip(NAMES, values))


def table_with_a_hand(page, live_server, banks=(), rules=None, lang="zh") -> dict:
    """A Q783 table (with house ``rules``) whose first hand is recorded online (with ``banks``, the next one
    carries what they became), open to edit in ``lang``."""
    page.goto(f"{live_server}/lang/{lang}?next=/")
    created = api(live_server, "POST", "tables", {"game": "q783", "players": NAMES, **({"rules": rules} if rules else {})})
    page.goto(created["edit_url"])
    worker_in_control(page)
    for seat, bank in enumerate(banks):
        page.fill(f"[name='banks-{seat}']", str(bank))
    fill_q783_hand(page, "2")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    wait_until(page, IS_KEPT)  # the page as last seen, for a reload with no signal
    return created


def save_offline(page, last_out: str):
    fill_q783_hand(page, last_out)
    page.click("form.ledger-form button.primary")


def phone_deltas(page) -> list[list[int]]:
    return page.evaluate(f"{OUTBOX}.map(held => held.phone && held.phone.deltas)")


def recorded(live_server, table_id) -> dict:
    return api(live_server, "GET", f"tables/{table_id}")


def one_hand_held(page, live_server) -> dict:
    """A Q783 table with one hand recorded and one saved with no signal, settled in the phone."""
    created = table_with_a_hand(page, live_server)
    page.context.set_offline(True)
    save_offline(page, "1")
    expect(page.locator("[data-held-hands] li [data-held-phone]")).to_have_count(1, timeout=ANSWER_WAIT_MS)
    return created


def sent_when_the_signal_returns(page, last_number: int):
    """The signal back: the held hands sent, and the page moved (location.replace) to the last one recorded, so
    that what the test does next does not race that move."""
    with page.expect_navigation():
        page.context.set_offline(False)
    page.locator(f"#hand-{last_number}").wait_for()
    wait_until(page, f"{OUTBOX}.length === 0", tries=2400)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hands_saved_offline_show_their_deltas_and_totals_at_once_and_are_recorded_once_with_them(
        phone, live_server, lang):
    page, words = phone, WORDS[lang]
    # the table's own penalty (30, not the preset's 50) and banks 80 each: after the first hand 50 · 50 · 140
    created = table_with_a_hand(page, live_server, banks=(80, 80, 80), rules={"penalty": 30}, lang=lang)
    before = recorded(live_server, created["id"])["totals"]
    assert before == [-30, -30, 60]
    page.context.set_offline(True)
    save_offline(page, "1")  # 乙 first out: 甲 and 丙 pay 30 each, 甲's bank down to 20
    save_offline(page, "1")  # the banks the held hand before leaves: 甲 pays only the 20 left
    held = page.locator("[data-held-hands] li")
    expect(held).to_have_count(2)
    expect(held.locator("[data-held-phone]")).to_have_count(2, timeout=ANSWER_WAIT_MS)  # the engine loads
    kept = phone_deltas(page)
    assert kept == [[-30, 60, -30], [-20, 50, -30]]
    for item, deltas in zip(held.all(), kept):
        expect(item).to_contain_text(words["held"])
        expect(item.locator("[data-held-phone]")).to_have_text(words["phone"].format(deltas=by_name(deltas)))
    with_held = [t + a + b for t, a, b in zip(before, *kept)]
    expect(page.locator("[data-held-totals]")).to_have_text(words["totals"].format(totals=by_name(with_held)))
    expect(page.locator("[data-held-totals]")).to_be_in_viewport()
    assert hand_numbers(live_server, created["id"]) == [1]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_findings(page) == []
    # reloaded with no signal: the page as last seen shows the same, from what the phone kept
    page.reload()
    expect(held.locator("[data-held-phone]")).to_have_count(2, timeout=ANSWER_WAIT_MS)
    expect(page.locator("[data-held-totals]")).to_have_text(words["totals"].format(totals=by_name(with_held)))
    # the signal returns: each hand recorded once, with the deltas the phone showed, and no disagreement
    sent_when_the_signal_returns(page, 3)
    table = recorded(live_server, created["id"])
    assert [hand["number"] for hand in table["hands"]] == [1, 2, 3]
    assert [hand["deltas"] for hand in table["hands"][1:]] == kept
    assert table["totals"] == with_held
    expect(page.locator("[data-held-disagree]")).to_be_hidden()
    expect(page.locator("[data-held-totals]")).to_be_hidden()


def test_a_ledger_answer_that_differs_from_the_phones_is_shown_until_seen(phone, live_server):
    page = phone
    created = one_hand_held(page, live_server)
    [right] = phone_deltas(page)
    wrong = [right[0] + 5, right[1] - 5, right[2]]
    page.evaluate("""wrong => { const items = JSON.parse(localStorage.getItem('paiju.outbox'));
        items[0].phone.deltas = wrong; localStorage.setItem('paiju.outbox', JSON.stringify(items)); }""", wrong)
    sent_when_the_signal_returns(page, 2)
    assert [hand["deltas"] for hand in recorded(live_server, created["id"])["hands"]][1:] == [right]
    banner = page.locator("[data-held-disagree]")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(f"第2局：服务器记下的是 {by_name(right)}，本机算的是 {by_name(wrong)}。")
    assert axe_findings(page) == []
    page.reload()  # never hidden: still there on the next visit
    expect(banner).to_be_visible()
    banner.locator("[data-held-disagree-seen]").click()
    expect(banner).to_be_hidden()
    page.reload()
    expect(banner).to_be_hidden()


def test_with_offline_mode_off_a_held_hand_is_listed_without_deltas(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        table_with_a_hand(page, live_server)
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        context.set_offline(True)
        save_offline(page, "1")
        expect(page.locator("[data-held-hands] li")).to_have_count(1)
        # a phone settle starts the engine, whose first request is its worker's script: none was sent
        assert [url for url in requests_sent_so_far(page, asked) if "/offline-engine/" in url] == []
        expect(page.locator("[data-held-phone]")).to_have_count(0)
        expect(page.locator("[data-held-totals]")).to_be_hidden()
        assert phone_deltas(page) == [None]
    finally:
        context.close()


def api_refusal(live_server, table_id, token, body) -> str:
    """The message the ledger's API answers a hand it refuses with."""
    req = urllib.request.Request(f"{live_server}/api/v1/tables/{table_id}/hands", method="POST",
                                 data=json.dumps(body).encode(), headers={"Content-Type": "application/json",
                                                                          "X-Edit-Token": token})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req)
    return json.loads(refused.value.read())["error"]["message"]


def test_a_held_hand_the_engine_refuses_shows_the_apis_message_in_the_forms_words_and_counts_in_no_total(
        phone, live_server):
    page = phone
    created = table_with_a_hand(page, live_server)
    page.context.set_offline(True)
    save_offline(page, "1")
    page.click("form.ledger-form button.primary")  # nobody out: not a hand the ledger takes
    held = page.locator("[data-held-hands] li [data-held-phone]")
    expect(held).to_have_count(2, timeout=ANSWER_WAIT_MS)
    message = api_refusal(live_server, created["id"], created["edit_token"], {"finish_order": []})
    label = render(get_game("q783").settle_input.field("finish_order").label, "zh")  # the field as the form names it
    expect(held.nth(1)).to_have_text(f"本机算不出这一局：{message.replace('「finish_order」', f'「{label}」')}")
    expect(held.nth(1)).to_have_class(re.compile(r"\berror\b"))
    [good, refused] = phone_deltas(page)
    assert refused is None
    totals = [t + d for t, d in zip(recorded(live_server, created["id"])["totals"], good)]
    expect(page.locator("[data-held-totals]")).to_have_text(f"含待发送的合计（算于本机）：{by_name(totals)}")
    page.context.set_offline(False)
    wait_until(page, f"{OUTBOX}.length === 1 && Boolean({OUTBOX}[0].refused)", tries=2400)
    assert hand_numbers(live_server, created["id"]) == [1, 2]
    # the ledger refuses it too, said by the hand the phone keeps (issue 38: never dropped), which the player
    # discards
    kept = page.locator("[data-held-hands] li[data-held-refused]")
    expect(kept.locator(".error[role=alert]")).to_contain_text(message.split("：")[-1])
    kept.locator("[data-held-discard]").click()
    wait_until(page, f"{OUTBOX}.length === 0")
    assert hand_numbers(live_server, created["id"]) == [1, 2]


def test_a_held_hand_the_ledger_took_already_is_compared_with_the_hand_it_became_not_the_tables_last(
        phone, live_server):
    """The post went through but its answer was lost (the phone held the hand), and another phone recorded
    a hand since: the resend records nothing, and the phone's deltas are compared with hand 2, not hand 3."""
    page = phone
    created = one_hand_held(page, live_server)
    [held] = page.evaluate(OUTBOX)
    through = page.request.post(held["action"], data=held["body"], max_redirects=0,
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert through.status == 303
    api(live_server, "POST", f"tables/{created['id']}/hands", {"finish_order": [0]}, token=created["edit_token"])
    table = recorded(live_server, created["id"])
    assert [hand["deltas"] for hand in table["hands"][1:]] == [held["phone"]["deltas"], [100, -50, -50]]
    sent_when_the_signal_returns(page, 3)
    assert hand_numbers(live_server, created["id"]) == [1, 2, 3]
    page.reload()
    expect(page.locator("#hand-3")).to_be_visible()
    expect(page.locator("[data-held-disagree]")).to_be_hidden()


def test_a_hand_the_phone_could_not_work_out_but_the_ledger_recorded_is_shown_as_a_difference(phone, live_server):
    page = phone
    created = one_hand_held(page, live_server)
    # as a phone whose engine refused it would have kept it (the same engine refuses nothing the ledger takes)
    page.evaluate("""() => { const items = JSON.parse(localStorage.getItem('paiju.outbox'));
        items[0].phone = {error: '本机的引擎出错'}; localStorage.setItem('paiju.outbox', JSON.stringify(items)); }""")
    sent_when_the_signal_returns(page, 2)
    [server] = [hand["deltas"] for hand in recorded(live_server, created["id"])["hands"]][1:]
    banner = page.locator("[data-held-disagree]")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(f"第2局：服务器记下的是 {by_name(server)}，本机却算不出这一局（本机的引擎出错）。")
    banner.locator("[data-held-disagree-seen]").click()
    expect(banner).to_be_hidden()
