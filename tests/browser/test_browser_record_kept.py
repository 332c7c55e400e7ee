"""A record that money is settled on, on the page (issue 38, items 1–3), in Chromium at 360 px: a form restored
by Back or reload after a save records nothing more, in two games; a form filled before a seat swap made on
another phone is refused in words with what was typed kept; a held hand the ledger refuses (403, 409) stays in
the phone, marked, said in words, with what can be done, and is recorded to nobody until the player chooses."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser_pwa import hand_numbers, wait_until
from test_tables_browser import api

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

NAMES = ["甲", "乙", "丙", "丁"]
OUTBOX = "JSON.parse(localStorage.getItem('paiju.outbox') || '[]')"
# a hand of each game as a player fills it: Q783 (who went out first), 双扣 (the finishing order)
GAMES = {
    "q783": (NAMES[:3], lambda page: page.select_option("#finish_order-0", "2")),
    "shuangkou": (NAMES, lambda page: [page.select_option(f"#finish_order-{i}", value=str(seat))
                                       for i, seat in enumerate((2, 0, 1, 3))]),
}


def open_table(page, live_server, game, players, lang="zh") -> dict:
    created = api(live_server, "POST", "tables", {"game": game, "players": players})
    page.goto(f"{live_server}/lang/{lang}?next=/")
    page.goto(created["edit_url"])
    page.locator("form.ledger-form").wait_for()
    return created


def save(page, number: int):
    page.click("form.ledger-form button.primary")
    page.locator(f"#hand-{number}").wait_for()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_back_or_reload_after_a_save_then_saving_again_still_leaves_one_hand(page, live_server, game):
    players, fill = GAMES[game]
    created = open_table(page, live_server, game, players)
    fill(page)
    save(page, 1)
    assert hand_numbers(live_server, created["id"]) == [1]
    page.go_back()  # the form as it was filled, restored by the browser
    page.locator("form.ledger-form").wait_for()
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert hand_numbers(live_server, created["id"]) == [1]
    page.reload()  # the page after the save, reloaded: nothing is posted again
    page.locator("#hand-1").wait_for()
    assert hand_numbers(live_server, created["id"]) == [1]


def swap_first_two_on_another_phone(browser, edit_url: str):
    """Another phone at the table (its own browser) swaps seats 1 and 2 on its edit page."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True)
    try:
        other = ctx.new_page()
        other.goto(edit_url)
        other.click("#seats summary")
        swap = other.locator("form.seat-change.swap")
        swap.locator("select[name='seat']").select_option("1")
        swap.locator("select[name='other']").select_option("2")
        swap.locator("button[type=submit]").click()
        expect(other.locator("p.players")).to_have_text("乙 · 甲 · 丙")
    finally:
        ctx.close()


SWAPPED = {"zh": "座位变了：现在坐的是乙 · 甲 · 丙，这一局没有记下",
           "en": "the seats have changed: now seated are 乙 · 甲 · 丙; this hand was not recorded"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_form_filled_before_a_seat_swap_on_another_phone_is_refused_in_words_with_what_was_typed_kept(
        page, browser, live_server, lang):
    created = open_table(page, live_server, "q783", NAMES[:3], lang)
    page.select_option("#finish_order-0", "2")  # 丙 out first, typed while 丙 sat in seat 3
    swap_first_two_on_another_phone(browser, created["edit_url"])
    page.click("form.ledger-form button.primary")
    refusal = page.locator("#entry .error[role=alert]")
    expect(refusal).to_contain_text(SWAPPED[lang])
    expect(page.locator("#finish_order-0")).to_have_value("2")  # what was typed stays, beside the words
    expect(refusal).to_be_in_viewport()
    assert hand_numbers(live_server, created["id"]) == []
    assert api(live_server, "GET", f"tables/{created['id']}")["totals"] == [0, 0, 0]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# --- a held hand refused ---------------------------------------------------------------------------------------

REFUSED = {"zh": {"kept": "没有记下，还留在本机：", "403": "只有持编辑链接的人才能修改这张牌桌",
                  "send": "按现在的座位（乙 · 甲 · 丙）发到这一晚", "discard": "不要这一局（从本机删掉）"},
           "en": {"kept": "Not recorded, still kept on this phone: ", "403": "only the holder of the edit link can change",
                  "send": "Send it to this evening as seated now (乙 · 甲 · 丙)",
                  "discard": "Discard this hand (delete it from this phone)"}}


def hold_a_hand(page, live_server, lang) -> dict:
    """A Q783 table open to edit, a hand (seat 1, 甲, out first) saved on it with no signal, held in the phone."""
    created = open_table(page, live_server, "q783", NAMES[:3], lang)
    page.context.set_offline(True)
    page.select_option("#finish_order-0", "0")
    page.click("form.ledger-form button.primary")
    expect(page.locator("[data-held-hands] li")).to_have_count(1)
    return created


def refused_and_kept(page, words: list[str]):
    """The signal returns, the ledger refuses the held hand: it stays in the phone, marked, said in words."""
    page.context.set_offline(False)
    item = page.locator("[data-held-hands] li[data-held-refused]")
    for said in words:
        expect(item).to_contain_text(said)
    expect(item.locator("[data-held-send-now]")).to_be_visible()
    expect(item.locator("[data-held-discard]")).to_be_visible()
    assert page.evaluate(f"{OUTBOX}.length") == 1
    return item


def all_hands(live_server, *table_ids) -> list:
    return [api(live_server, "GET", f"tables/{t}")["hands"] for t in table_ids]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_held_hand_refused_with_403_stays_in_the_phone_marked_in_words_until_discarded(page, live_server, lang):
    created = hold_a_hand(page, live_server, lang)
    other = api(live_server, "POST", "tables", {"game": "q783", "players": NAMES[:3]})
    api(live_server, "POST", f"tables/{created['id']}/token", {}, created["edit_token"])  # the link changed
    item = refused_and_kept(page, [REFUSED[lang]["kept"], REFUSED[lang]["403"]])
    assert page.evaluate(f"{OUTBOX}[0].refused.status") == 403
    expect(item).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert all_hands(live_server, created["id"], other["id"]) == [[], []]  # recorded to nobody
    # the player discards it, explicitly: only then does the phone let it go
    item.locator("[data-held-discard]").click()
    expect(page.locator("[data-held-hands]")).to_be_hidden()
    assert page.evaluate(f"{OUTBOX}.length") == 0
    assert all_hands(live_server, created["id"], other["id"]) == [[], []]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_held_hand_refused_with_409_seats_changed_stays_marked_and_is_sent_as_seated_now_only_when_asked(
        page, browser, live_server, lang):
    created = hold_a_hand(page, live_server, lang)
    swap_first_two_on_another_phone(browser, created["edit_url"])
    item = refused_and_kept(page, [REFUSED[lang]["kept"], SWAPPED[lang]])
    assert page.evaluate(f"{OUTBOX}[0].refused.status") == 409
    expect(item.locator("[data-held-send-now]")).to_have_text(REFUSED[lang]["send"])
    expect(item.locator("[data-held-discard]")).to_have_text(REFUSED[lang]["discard"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert all_hands(live_server, created["id"]) == [[]]  # recorded to nobody: not to 乙, in seat 1 now
    page.reload()  # kept and marked across a reload, never sent again on its own
    expect(page.locator("[data-held-hands] li[data-held-refused]")).to_contain_text(SWAPPED[lang])
    assert all_hands(live_server, created["id"]) == [[]]
    # the player chooses to send it as the evening is now: recorded once, for whoever sits where now
    page.click("[data-held-send-now]")
    page.locator("#hand-1").wait_for()
    wait_until(page, f"{OUTBOX}.length === 0")
    [[hand]] = all_hands(live_server, created["id"])
    assert api(live_server, "GET", f"tables/{created['id']}")["totals"] == [-50, 100, -50]  # seat 1 is 乙's now
    assert hand["number"] == 1
