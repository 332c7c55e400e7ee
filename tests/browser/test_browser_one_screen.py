"""The next hand on one screen (issue 26): after a save on a table page the page lands on the totals, and the
form for the next hand is there with them: every control a typical hand uses, and the save, is reached
without a swipe on a phone (Chromium, 360 × 780, touch), in zh and in en, in light and in dark; a Q783 hand of three
rounds and a 二七王 hand with 冲关 among them; and the next evening (issue 41), started from that page with a tap on
同样的人和规则，开新的一晚, its first hand entered without a swipe, and the last hand edited from there (修改 beside
撤销) without a swipe. Swipes are counted as bench/taps.py counts them."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.taps import (HANDS, NAMES, REACHABLE, SAVE, Finger, api, erqiwang, hongwu, new_phone, paodekuai, play,
                        q783_rounds, radio, shuangkou_bomb)

pytestmark = pytest.mark.browser

THREE_ROUNDS = q783_rounds((1, "plain"), (2, "fu_q783"), (0, "plain"), out=2)


def q783_opening(f: Finger) -> None:
    """A 大局's first hand: every bank 100 (one chip), one plain round; the banks carry on."""
    f.tap("button[data-set-all][data-value='100']")
    q783_rounds((1, "plain"), out=1)(f)


#: (game, the hand saved first through the page, the next hand: entered where that save lands)
EVENINGS = [
    ("paodekuai", paodekuai, paodekuai),
    ("shuangkou", shuangkou_bomb, shuangkou_bomb),
    ("q783", q783_opening, THREE_ROUNDS),
    ("hongwu", hongwu, hongwu),
    ("erqiwang", lambda f: erqiwang(f, chongguan=True), lambda f: erqiwang(f, chongguan=True)),
]


#: each language and each colour scheme once: where a control lands depends on the words' lengths, not on the
#: colours (both schemes of both languages pass axe-core in test_browser_axe.py)
PHONES = [("zh", "light"), ("en", "dark")]


@pytest.fixture(params=PHONES, ids=lambda param: "-".join(param))
def phone(request, browser, live_server):
    lang, scheme = request.param
    context = new_phone(browser, lang, scheme)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server}/lang/{lang}")
    yield page
    context.close()


def open_table(page, live_server, slug: str) -> str:
    table = api(live_server, "tables", {"game": slug, "players": NAMES})
    page.goto(table["edit_url"].replace("http://localhost", live_server))
    return table["id"]


def save(page, number: int) -> None:
    page.locator(SAVE).click()
    expect(page.locator(f"#hand-{number}")).to_be_attached()


@pytest.mark.parametrize("slug,first,then", EVENINGS, ids=[e[0] for e in EVENINGS])
def test_after_a_save_the_next_hand_and_its_save_are_reached_without_a_swipe(phone, live_server, slug, first, then):
    open_table(phone, live_server, slug)
    first(Finger(phone))
    save(phone, 1)
    assert phone.evaluate("location.hash") == "#entry"  # the page lands on the totals
    assert phone.locator("#entry .totals").evaluate(REACHABLE)
    finger = Finger(phone)
    then(finger)
    finger.reach(SAVE)
    assert finger.swipes == 0, finger.log
    save(phone, 2)  # and the hand entered was one the table takes


#: bench/taps.py's next-evening rows: a table with a hand, its page where a save lands, 开新的一晚 tapped there
NEXT_EVENINGS = [hand for hand in HANDS if hand.way == "next evening"]


@pytest.mark.parametrize("hand", NEXT_EVENINGS, ids=[hand.slug for hand in NEXT_EVENINGS])
def test_the_next_evening_and_its_first_hand_are_reached_from_the_table_without_a_swipe(phone, live_server, hand):
    got = play(phone, live_server, hand)  # 开新的一晚 tapped where a save lands, then the new evening's first hand
    assert got.swipes == 0, got.log
    assert got.deltas == hand.expected  # saved on the new evening as its first hand


#: bench/taps.py's edit rows, one a game: 修改第1局 tapped where a save lands, the hand put right, saved
EDITS = [hand for hand in HANDS if hand.way == "edit"]


@pytest.mark.parametrize("hand", EDITS, ids=[hand.slug for hand in EDITS])
def test_the_last_hand_is_edited_from_the_table_without_a_swipe(phone, live_server, hand):
    got = play(phone, live_server, hand)
    assert got.swipes == 0, got.log
    assert got.deltas == hand.expected  # the hand as put right, not as it was


def test_a_q783_round_is_one_short_row_once_the_next_round_begins(phone, live_server):
    open_table(phone, live_server, "q783")
    THREE_ROUNDS(Finger(phone))
    rows = phone.locator("fieldset[data-rows=rounds] .row-entry")
    chip = phone.locator(radio("rounds-0-winner", "1")).bounding_box()["height"]
    for i in (0, 1):  # a round the players have moved on from: its winner and what won, one line
        assert rows.nth(i).locator(".chip:visible").count() == 2
        assert rows.nth(i).bounding_box()["height"] < 1.5 * chip
    assert rows.nth(3).locator(".chip:visible").count() == len(NAMES)  # the next round: its winner first


def test_what_won_a_q783_round_offers_the_common_plays_first_and_the_rest_one_tap_away(phone, live_server):
    open_table(phone, live_server, "q783")
    phone.locator(radio("rounds-0-winner", "2")).click()
    row = phone.locator(".row-entry[data-row='0']")
    shown = row.locator("input[name='rounds-0-won_with']:visible")
    assert [shown.nth(i).get_attribute("value") for i in range(shown.count())] == ["plain", "fu_q783", "zheng_q783"]
    row.locator(".row-more > summary").click()
    phone.locator(radio("rounds-0-won_with", "bomb5")).click()
    expect(phone.locator("input[name='rounds-0-won_with'][value='bomb5']")).to_be_checked()
    expect(row.locator("input[name='rounds-0-cards']")).to_be_visible()  # the cards, for a play to be read


def test_chongguan_stays_closed_until_a_player_opens_it(phone, live_server):
    open_table(phone, live_server, "erqiwang")
    box = phone.locator("details.rows-box")
    assert not box.evaluate("d => d.open")
    assert not phone.locator(radio("chongguan-0-seat", "1")).is_visible()
    box.locator(":scope > summary").click()
    expect(phone.locator(radio("chongguan-0-seat", "1"))).to_be_visible()


def test_one_chip_fills_every_bank_and_the_next_hand_carries_them_folded(phone, live_server):
    open_table(phone, live_server, "q783")
    q783_opening(Finger(phone))
    assert [phone.input_value(f"#banks-{i}") for i in range(4)] == ["100"] * 4
    save(phone, 1)
    folded = phone.locator("details.carried-box")
    assert not folded.evaluate("d => d.open")
    assert [phone.input_value(f"#banks-{i}") for i in range(4)] == ["45", "265", "45", "45"]
