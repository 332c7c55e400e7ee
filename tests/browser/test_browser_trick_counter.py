"""Following a 红五 / 二七王 hand live at phone width (360 px): the trick-by-trick points counter adds up the
tricks, the red fives, the last trick and the bottom, and its end fills the settle form — on the game's settle
page and on a ledger table — so that the settlement is the one the same hand typed by hand gets."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def counter(page):
    box = page.locator("details.trick-counter")
    if not box.evaluate("d => d.open"):
        box.locator("summary").click()
    return box


def trick(box, winner, chips=(), cards=(), fives=(), last=False):
    """One trick as a player taps it: who won, the points (chips set, cards add), whose red fives fell."""
    box.locator(f"[data-tc-winner='{winner}']").click()
    for v in chips:
        box.locator(f"[data-tc-set='{v}']").click()
    for card in cards:
        box.locator(".tc-card", has_text=card).first.click() if card != "5" else box.locator(".tc-card.red").click()
    for owner in fives:
        box.locator(f"[data-tc-five='{owner}']").click()
    box.locator("[data-tc-act=last]" if last else "[data-tc-act=trick]").click()


def deltas(page):
    result = page.locator("#result")
    result.wait_for()
    return result.locator("td.num").all_inner_texts()


def follow_hongwu_example_4(page):
    """红五 example 4: 庄家 seat 1, bid 80, won 90, bottom 10 scored, the 庄家's red five captured by seat 3."""
    page.check("input[name=declarer][value='1']")
    page.fill("#bid", "80")
    box = counter(page)
    trick(box, 1, chips=(30,))
    trick(box, 3, cards=("5", "10"), fives=(1,))
    trick(box, 1, chips=(40,), cards=("10", "K"))
    expect(box.locator("[data-tc=declarer]")).to_have_text("90", timeout=10_000)
    expect(box.locator("[data-tc=defenders]")).to_have_text("15", timeout=10_000)
    trick(box, 1, last=True)
    box.locator("[data-tc-bottom-set='10']").click()
    expect(box.locator("[data-tc=declarer]")).to_have_text("100")  # the 庄家 won the last trick: the bottom counts
    # 90 + 10 − 20 (the red five lost) = 80: exactly the bid loses, as the settlement will say
    expect(box.locator("[data-tc=goal]")).to_have_text("庄家还差 5 分才够叫分 80", timeout=10_000)
    box.locator("[data-tc-act=fill]").click()
    return box


#: the same hand typed into the settle form: what the counter must fill
EXAMPLE_4_TYPED = {"boxes": {"#declarer_points": "90", "#bottom_points": "10"},
                   "ticked": ("input[name=declarer_took_bottom]", "input[name='red_fives-0-owner'][value='1']",
                              "input[name='red_fives-0-captured_by'][value='3']")}


def test_hongwu_counter_fills_the_settle_form_and_settles_as_typed_by_hand(page, live_server):
    page.goto(live_server + "/hongwu/settle")
    follow_hongwu_example_4(page)
    for box, value in EXAMPLE_4_TYPED["boxes"].items():
        assert page.input_value(box) == value, box
    for ticked in EXAMPLE_4_TYPED["ticked"]:
        assert page.is_checked(ticked), ticked
    assert no_sideways_scroll(page)
    page.click("button[type=submit].primary")
    followed = deltas(page)
    assert followed == ["+2", "-8", "+2", "+4"]
    # the settle page came back (htmx swapped the form): the hand followed is still there, trick by trick
    expect(page.locator("details.trick-counter .tc-log li")).to_have_count(4, timeout=10_000)

    typed = page.context.new_page()
    typed.goto(live_server + "/hongwu/settle")
    for ticked in ("input[name=declarer][value='1']", *EXAMPLE_4_TYPED["ticked"]):
        typed.check(ticked)
    for box, value in {"#bid": "80", **EXAMPLE_4_TYPED["boxes"]}.items():
        typed.fill(box, value)
    typed.click("button[type=submit].primary")
    assert deltas(typed) == followed


def test_hongwu_red_five_won_back_by_its_own_side_is_not_captured(page, live_server):
    page.goto(live_server + "/hongwu/settle")
    page.check("input[name=declarer][value='0']")
    box = counter(page)
    trick(box, 2, chips=(10,), fives=(3,))  # seat 3's red five in a trick seat 2 (also a 闲家) won
    trick(box, 0, chips=(5,), fives=(1,))   # seat 1's red five taken by the 庄家
    box.locator("[data-tc-act=fill]").click()
    assert page.input_value("#declarer_points") == "5"
    assert page.is_checked("input[name='red_fives-0-owner'][value='1']")
    assert page.is_checked("input[name='red_fives-0-captured_by'][value='0']")
    assert page.locator("input[name='red_fives-1-owner']:checked").count() == 0
    box.locator("[data-tc-act=undo]").click()  # undo puts the trick back to be corrected
    expect(box.locator("[data-tc=points]")).to_have_text("5", timeout=10_000)
    expect(box.locator("[data-tc-winner='0']")).to_have_attribute("aria-pressed", "true")


def erqiwang_with_bottom_bonus(page, live_server, declarer, bid):
    """The 二七王 settle page under 抠底 (the counter is drawn again for the new rules), 庄家 and bid chosen."""
    page.goto(live_server + "/erqiwang/settle")
    page.locator("details.rules-box summary").first.click()
    page.select_option("#rules-bottom_bonus", "on")
    page.locator("details.trick-counter[data-trick-counter*='last_trick']").wait_for()
    page.check(f"input[name=declarer][value='{declarer}']")
    page.fill("#bid", str(bid))
    return counter(page)


def test_erqiwang_counter_with_the_bottom_doubled_by_a_pair_on_the_last_trick(page, live_server):
    """二七王 bottom_bonus example: bid 80, 闲家 50, bottom 20 won back with a trump pair → 90 → [−1, 1, −1, 1]."""
    box = erqiwang_with_bottom_bonus(page, live_server, declarer=0, bid=80)
    trick(box, 2, chips=(40,))           # the partner: the 庄家's side
    trick(box, 1, chips=(30,))
    trick(box, 3, chips=(20,))
    expect(box.locator("[data-tc=defenders]")).to_have_text("50", timeout=10_000)
    expect(box.locator("[data-tc=declarer]")).to_have_text("40", timeout=10_000)
    trick(box, 1, chips=(0,), last=True)
    box.locator("[data-tc-bottom-set='20']").click()
    box.locator("[data-tc-outcome=pair]").click()
    expect(box.locator("[data-tc=defenders]")).to_have_text("90")  # 50 + 20 × 2, the engine's multiplier
    expect(box.locator("[data-tc=goal]")).to_have_text("闲家已够叫分 80", timeout=10_000)
    box.locator("[data-tc-act=fill]").click()
    assert page.input_value("#defender_points") == "50"
    assert page.input_value("#bottom_points") == "20"
    assert page.is_checked("input[name=last_trick][value=pair]")
    assert no_sideways_scroll(page)
    page.click("button[type=submit].primary")
    assert deltas(page) == ["-1", "+1", "-1", "+1"]


def test_erqiwang_last_trick_won_by_the_declarers_side_gives_no_bottom(page, live_server):
    box = erqiwang_with_bottom_bonus(page, live_server, declarer=1, bid=80)
    trick(box, 0, chips=(40,))
    trick(box, 3, chips=(15,), last=True)  # seat 3 sits opposite the 庄家 (seat 1): the 庄家's side
    box.locator("[data-tc-bottom-set='25']").click()
    assert box.locator("[data-tc-outcome]").count() == 1  # only "none" fits
    expect(box.locator("[data-tc=defenders]")).to_have_text("40", timeout=10_000)
    box.locator("[data-tc-act=fill]").click()
    assert page.input_value("#defender_points") == "40"
    assert page.is_checked("input[name=last_trick][value=none]")
    page.click("button[type=submit].primary")
    assert deltas(page) == ["-1", "+1", "-1", "+1"]  # 40 < 80 but on the 小光 line 40: the 庄家 wins one stake


def test_erqiwang_counter_counts_the_partners_tricks_for_the_declarers_side(page, live_server):
    """Seed example: bid 60, the 闲家 100 → [−4, 4, −4, 4]; without 抠底 the last trick is like any other."""
    page.goto(live_server + "/erqiwang/settle")
    page.check("input[name=declarer][value='0']")
    page.fill("#bid", "60")
    box = counter(page)
    expect(box.locator("[data-tc-act=last]")).to_be_hidden()
    trick(box, 1, chips=(40,))
    trick(box, 2, chips=(25,))  # the partner opposite the 庄家
    trick(box, 3, chips=(30,), cards=("10",))
    trick(box, 0, chips=(30,), cards=("5",))
    trick(box, 1, chips=(20,))
    expect(box.locator("[data-tc=defenders]")).to_have_text("100", timeout=10_000)
    expect(box.locator("[data-tc=declarer]")).to_have_text("60", timeout=10_000)
    box.locator("[data-tc-act=fill]").click()
    assert page.input_value("#defender_points") == "100"
    page.click("button[type=submit].primary")
    assert deltas(page) == ["-4", "+4", "-4", "+4"]


def test_hongwu_counter_on_a_ledger_table_records_the_hand(page, live_server):
    page.goto(live_server + "/tables/new")
    page.click("a[href$='game=hongwu']")
    for i, name in enumerate(("甲", "乙", "丙", "丁")):
        page.fill(f"#name_{i}", name)
    page.click("#panel button[type=submit]")
    page.locator(".share").first.wait_for()
    follow_hongwu_example_4(page)
    assert page.input_value("#declarer_points") == "90"
    page.click("form.ledger-form button.primary")
    page.locator("#hand-1").wait_for()
    assert page.locator(".totals td[data-total]").all_inner_texts() == ["+2", "-8", "+2", "+4"]
    box = page.locator("details.trick-counter")
    assert box.locator(".tc-log li").count() == 0  # the next hand's counter starts empty
    assert no_sideways_scroll(page)
