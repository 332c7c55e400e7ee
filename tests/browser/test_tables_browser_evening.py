"""The evening at the table in Chromium at 360 px: a save lands on the next hand's form with the totals in
view, hands read in words with their time, undo offers redo, an edit says which later hands changed, two
phones editing one table, players and seats changing."""
from __future__ import annotations

import pytest

from test_tables_browser import api, no_sideways_scroll, open_q783_table

pytestmark = pytest.mark.browser


def in_view(page, selector: str) -> bool:
    """Whether the element's top edge is on the screen."""
    return page.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
                                     return r.top >= 0 && r.top < window.innerHeight; }""", selector)


def test_after_saving_the_next_hands_form_is_at_the_top_with_the_new_totals_in_view(page, live_server):
    open_q783_table(page, live_server)
    for i in range(4):
        page.fill(f"#banks-{i}", "100")
    page.select_option("#finish_order-0", "1")
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert page.url.endswith("#entry")
    assert in_view(page, ".totals") and in_view(page, "form.ledger-form")
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−50", "+150", "−50", "−50"]
    assert page.evaluate("window.scrollY") > 0  # the share panels above scrolled away
    assert "版" not in page.locator("#live").inner_text()
    assert no_sideways_scroll(page)


def record_first_out(page, seat: str, number: int):
    page.select_option("#finish_order-0", seat)
    page.click("form.ledger-form button.primary")
    page.locator(f"#hand-{number}").wait_for()


def open_with_banks(page, live_server, bank="120"):
    url = open_q783_table(page, live_server)
    for i in range(4):
        page.fill(f"#banks-{i}", bank)
    record_first_out(page, "1", 1)
    return url


def test_a_hands_card_reads_its_input_in_words_with_the_time_on_this_phones_clock(page, live_server):
    open_with_banks(page, live_server)
    card = page.locator("#hand-1")
    assert "出完的顺序：小红" in card.locator(".hand-words").inner_text()
    shown = card.locator("time").inner_text()
    expected = page.evaluate("""() => new Date(document.querySelector('#hand-1 time').getAttribute('datetime'))
                                 .toLocaleString(document.documentElement.lang, {hour: '2-digit', minute: '2-digit'})""")
    assert shown == expected and "UTC" not in shown
    assert no_sideways_scroll(page)


def test_undo_is_immediate_and_one_tap_on_redo_puts_the_hand_back(page, live_server):
    open_with_banks(page, live_server)
    record_first_out(page, "2", 2)
    totals = page.locator(".totals td[data-total]").all_inner_texts()
    page.click("form.undo button")
    page.locator("#hand-2").wait_for(state="detached")
    assert page.locator("form.redo").inner_text().startswith("已撤销第2局")
    page.click("form.redo button")
    page.locator("#hand-2").wait_for()
    assert page.locator("form.redo").count() == 0
    assert page.locator(".totals td[data-total]").all_inner_texts() == totals
    assert page.locator("#live-hands .hand").count() == 2
    assert no_sideways_scroll(page)


def test_editing_an_earlier_q783_hand_says_which_later_hands_changed(page, live_server):
    open_with_banks(page, live_server)
    record_first_out(page, "2", 2)
    record_first_out(page, "3", 3)
    page.click("#hand-1 .hand-actions a:not(.danger)")
    page.select_option("#finish_order-0", "0")
    page.click("form.ledger-form button.primary")
    page.locator("#entry .notice:not([hidden])").wait_for()
    assert page.locator("#entry .notice:not([hidden])").inner_text() == "第1局已修改；后面随之重算的：第2、3局"
    assert in_view(page, "#entry .notice:not([hidden])")


def phone(browser):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                              has_touch=True, locale="zh-CN", service_workers="block")
    p = ctx.new_page()
    p.set_default_timeout(30_000)
    return ctx, p


def both_save(page, other, edit_url, mine, theirs, then):
    """Both phones open a hand's edit ((hand, first out)); the other phone saves first, then this one, which
    waits for ``then``."""
    page.goto(f"{edit_url}/hands/{mine[0]}")
    other.goto(f"{edit_url}/hands/{theirs[0]}")
    other.select_option("#finish_order-0", theirs[1])
    other.click("form.ledger-form button.primary")
    other.locator("#entry").wait_for()
    page.select_option("#finish_order-0", mine[1])
    page.click("form.ledger-form button.primary")
    page.locator(then).wait_for()


def test_two_phones_a_stale_edit_of_another_hand_merges_and_a_real_conflict_keeps_the_chosen_version(
        page, browser, live_server):
    edit_url = open_with_banks(page, live_server)
    record_first_out(page, "2", 2)
    cookie = next(c for c in page.context.cookies() if c["name"] == "paiju_edit")
    ctx, other = phone(browser)
    try:
        ctx.add_cookies([cookie])
        # both phones open an edit; phone B saves hand 2 first: phone A's edit of hand 1 still saves (merge)
        both_save(page, other, edit_url, mine=(1, "0"), theirs=(2, "3"), then="#entry .notice:not([hidden])")
        assert "出完的顺序：阿明" in page.locator("#hand-1 .hand-words").inner_text()
        assert "出完的顺序：Jennifer" in page.locator("#hand-2 .hand-words").inner_text()
        # now both open hand 2; B saves first, A's save is a real conflict: both versions, A keeps hers
        both_save(page, other, edit_url, mine=(2, "2"), theirs=(2, "1"), then=".conflict")
        assert "出完的顺序：小红" in page.locator(".conflict .theirs").inner_text()
        assert "出完的顺序：老王" in page.locator(".conflict .mine").inner_text()
        assert page.input_value("#finish_order-0") == "2"  # the typed edit is still in the form
        assert no_sideways_scroll(page)
        page.click(".conflict .keep-mine")
        page.locator("#entry .notice:not([hidden])").wait_for()
        assert "出完的顺序：老王" in page.locator("#hand-2 .hand-words").inner_text()
        other.goto(edit_url)
        assert "出完的顺序：老王" in other.locator("#hand-2 .hand-words").inner_text()
    finally:
        ctx.close()


def test_players_and_seats_change_during_the_evening_from_the_phone(page, live_server):
    open_with_banks(page, live_server)
    page.click("#seats summary")
    assert no_sideways_scroll(page)
    page.select_option("form.rename select[name=seat]", "4")
    page.fill("form.rename input[name=name]", "Jenny")
    page.click("form.rename button")
    page.locator("#entry .notice:not([hidden])").wait_for()
    assert "出完的顺序：小红" in page.locator("#hand-1 .hand-words").inner_text()
    page.click("#seats summary")
    page.select_option("form.swap select[name=seat]", "1")
    page.select_option("form.swap select[name=other]", "2")
    page.click("form.swap button")
    page.locator("#entry .notice:not([hidden])").wait_for()
    assert page.locator("#entry .notice:not([hidden])").inner_text() == "座位已更新：小红 · 阿明 · 老王 · Jenny"
    assert page.input_value("#banks-0") == "270"  # 小红's bank went with her to seat 1
    record_first_out(page, "1", 2)  # seat 2 is 阿明 now
    assert "出完的顺序：阿明" in page.locator("#hand-2 .hand-words").inner_text()
    # totals by player (阿明, 小红, 老王, Jenny): each followed the player across the swap
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["+100", "+100", "−100", "−100"]
    page.click("#seats summary")
    page.fill("form.join input[name=name]", "十六个字的名字十六个字的名字十六个")
    page.click("form.join button")
    page.locator("#entry .notice:not([hidden])").wait_for()
    assert page.locator("#banks-4").count() == 1
    assert no_sideways_scroll(page)


def test_a_read_only_phone_gets_a_new_hand_on_top_of_the_ones_it_shows(page, live_server):
    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    token = created["edit_token"]
    api(live_server, "POST", f"tables/{created['id']}/hands", {"rounds": [], "finish_order": [2]}, token=token)
    page.goto(created["view_url"].replace("http://localhost", live_server))
    page.locator("#hand-1").wait_for()
    page.evaluate("window.stillTheSamePage = true")
    api(live_server, "POST", f"tables/{created['id']}/hands", {"rounds": [], "finish_order": [1]}, token=token)
    page.locator("#hand-2").wait_for()  # htmx polls (every half second here); the poll sends hand 2 only
    assert page.evaluate("window.stillTheSamePage === true")
    assert page.locator("#hands-list > li").evaluate_all("els => els.map(e => e.id)") == ["hand-2", "hand-1"]
    assert page.locator("#hand-count").inner_text() == "(2)"
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["−100", "+50", "+50"]
    assert page.locator("svg.ledger-chart polyline").count() == 3
