"""Following a 红五 table's next hand trick by trick at phone width (360 px): tap who won each trick and its
points, see the points still out and the hand decided, finish with the last trick and the bottom, and the table
records the hand once."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ("阿明", "小红", "老王", "Jennifer")


def open_table(page, live_server, game):
    page.goto(live_server + "/tables/new")
    page.click(f"a[href$='game={game}']")
    for i, name in enumerate(NAMES):
        page.fill(f"#name_{i}", name)
    page.click("#panel button[type=submit]")
    page.locator(".share").first.wait_for()
    return page.url.split("?")[0].split("#")[0]


def trick(page, winner: str, points: str):
    page.locator(".round-form .seat-button", has_text=winner).first.click()
    page.locator(".round-form input[name=points]").fill(points)
    page.click("button[value=round]")


#: what the page says, by language: the link to follow a hand, points still out, decided, the last trick's chip
WORDS = {
    "zh": ("跟踪这一手", "还有 {} 分在外", "已定", "庄家赢了最后一墩"),
    "en": ("Follow this hand", "{} still out", "Decided", "the declarer (庄家) won the last trick"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_hongwu_hand_followed_trick_by_trick_is_decided_early_and_recorded_once(page, live_server, lang):
    follow, out, decided, last_trick = WORDS[lang]
    page.goto(f"{live_server}/lang/{lang}")
    table_url = open_table(page, live_server, "hongwu")
    page.get_by_role("link", name=follow).click()
    page.locator("form label.seat-button", has_text="小红").first.click()  # the 庄家
    page.locator("input[name=bid]").fill("100")
    page.click("button[value=start]")
    steps = page.locator("ol.steps")
    expect(steps).to_contain_text(out.format(200), timeout=30_000)
    trick(page, "小红", "60")
    expect(steps).to_contain_text(out.format(140), timeout=30_000)
    trick(page, "老王", "20")
    expect(steps).to_contain_text(out.format(120), timeout=30_000)  # each trick answered before the next is entered
    expect(steps).not_to_contain_text(decided)
    trick(page, "小红", "100")
    expect(steps).to_contain_text(decided, timeout=30_000)  # 160 of 200 with the bid at 100: made, come what may
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator(".finish-form label.chip", has_text=last_trick).click()
    page.locator(".finish-form input[name=bottom]").fill("10")
    page.click("button[value=finish]")
    expect(page.locator("button[value=record]")).to_be_visible(timeout=30_000)
    page.click("button[value=record]")
    page.locator("#hand-1").wait_for()
    assert page.url.startswith(table_url)
    assert page.locator("#live-hands .hand").count() == 1
    totals = page.locator(".totals td[data-total]").all_inner_texts()
    assert totals[1].startswith("+") and sum(int(x.replace("\u2212", "-")) for x in totals) == 0
