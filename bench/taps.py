"""Taps and swipes for a typical hand of each game, entered as a player would on a table page.

Run from the repository root with the test extras installed::

    python -m bench.taps

It starts the app on a loopback port and drives Debian's Chromium at 360 × 780 with touch. Each hand is
played on a table's page as the evening goes: a new table's first hand where 开桌 leads (``/edit?new=1#entry``),
and a later hand where the save of the hand before it leads (``/edit#entry``: the totals, then the form for the
next hand); the next evening's rows start there too, with a tap on 同样的人和规则，开新的一晚 (under the totals)
and then its first hand, and the edit rows with a tap on the last hand's 修改 (beside 撤销, over the totals) and
then the hand entered again over what it held (跑得快 and Q783: what was wrong put right). A tap is a click or a
digit typed. A swipe is a scroll the player needs to reach a control before tapping it: a control whose middle is
off the screen, or under the save bar, costs one (opening a closed part of the form brings it into view by
itself; that costs nothing). Each line gives the game, the hand, the taps and swipes used and the budgets
(swipes: 0 for every hand); the last line is ``taps: all within budget`` or ``taps: N over budget``. Each counted
hand's result is checked too (a count for a hand that settled wrong would mean nothing).
"""
from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Page, sync_playwright

from bench import chromium
from bench.served import serve_in_thread

VIEWPORT = {"width": 360, "height": 780}
NAMES = ["阿明", "小红", "老王", "Jennifer"]

#: whether a tap at the middle of the element lands on it: on the screen, and not under the save bar
REACHABLE = """el => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width === 0 || y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
  const hit = document.elementFromPoint(x, y);
  return !!hit && (el.contains(hit) || hit.contains(el) && hit.tagName === 'LABEL');
}"""


@dataclass
class Finger:
    """A page that counts taps, and the swipes needed to bring each tapped control into reach."""

    page: Page
    taps: int = 0
    swipes: int = 0
    log: list[str] = field(default_factory=list)

    def reach(self, selector: str) -> None:
        target = self.page.locator(selector).first
        target.wait_for(state="attached")
        if not target.evaluate(REACHABLE):
            self.swipes += 1
            self.log.append(f"swipe to {selector}")
            target.evaluate("el => el.scrollIntoView({block: 'center'})")

    def tap(self, selector: str) -> None:
        self.reach(selector)
        self.page.locator(selector).first.click()
        self.taps += 1
        self.log.append(selector)

    def type(self, digits: str) -> None:
        self.page.keyboard.type(digits)
        self.taps += len(digits)
        self.log.append(repr(digits))


def radio(name: str, value: str) -> str:
    return f"label:has(> input[type=radio][name='{name}'][value='{value}'])"


def chip(field_id: str, value: int) -> str:
    return f"button[data-set-for='{field_id}'][data-value='{value}']"


def seat_tap(seat: int) -> str:
    return f"form.ledger-form .seat-tap[data-seat='{seat}']"


SAVE = "form.ledger-form .submit-bar button.primary"


def paodekuai(f: Finger) -> None:
    """Seat 0 goes out; the others hold 5, 13 and 10 cards."""
    f.tap(radio("winner", "0"))
    for left in ("5", "13", "10"):
        f.type(left)


def shuangkou_plain(f: Finger) -> None:
    """Seats 0 and 2 go out first and second: 双扣."""
    f.tap(seat_tap(0))
    f.tap(seat_tap(2))


def shuangkou_bomb(f: Finger) -> None:
    """The same, and seat 1 played a 7-line bomb."""
    shuangkou_plain(f)
    f.tap(radio("bombs-0-seat", "1"))
    f.tap(radio("bombs-0-lines", "7"))


def q783_rounds(*rounds: tuple[int, str], out: int) -> Callable[[Finger], None]:
    """Rounds of (winner, what won it), then the seat that went out first."""
    def play(f: Finger) -> None:
        for i, (winner, won_with) in enumerate(rounds):
            f.tap(radio(f"rounds-{i}-winner", str(winner)))
            f.tap(radio(f"rounds-{i}-won_with", won_with))
        f.tap(seat_tap(out))
    return play


def q783_fix(f: Finger) -> None:
    """The first round was won with 正Q783, not a plain play."""
    f.tap(radio("rounds-0-won_with", "zheng_q783"))


def paodekuai_fix(f: Finger) -> None:
    """Seat 3's cards left put right: a tap on its box (which selects what it holds), then the number."""
    f.tap("form.ledger-form input[data-seat='3'][data-max]")
    f.type("10")


def q783_first(f: Finger) -> None:
    """A table's first hand: every bank 100 (one chip), one round, who went out."""
    f.tap("button[data-set-all][data-value='100']")
    q783_rounds((1, "zheng_q783"), out=1)(f)


def hongwu(f: Finger) -> None:
    """庄家 seat 1 bids 100, takes 120 points and the last trick with 10 in the bottom, no red five."""
    f.tap(radio("declarer", "1"))
    f.tap(chip("bid", 100))
    f.tap(chip("declarer_points", 120))
    f.tap(chip("bottom_points", 10))
    f.tap("input[name=declarer_took_bottom]")


def erqiwang(f: Finger, chongguan: bool = False) -> None:
    """庄家 seat 0 bids 60, the 闲家 take 40; with 冲关: seat 1 holds three jokers."""
    f.tap(radio("declarer", "0"))
    f.tap(chip("bid", 60))
    f.tap(chip("defender_points", 40))
    if chongguan:
        f.tap("details.rows-box > summary")
        f.tap(radio("chongguan-0-seat", "1"))
        f.tap(radio("chongguan-0-jokers", "3"))


@dataclass(frozen=True)
class Hand:
    """A hand to enter: its game, words, how it is entered (the save is tapped after), its budget of taps
    (the save included), the table's hand before it (through the API) and the deltas it must settle to."""

    game: str
    words: str
    slug: str
    how: Callable[[Finger], None]
    budget: int
    expected: list[str]
    before: dict = field(default_factory=dict)
    way: str = "next hand"  # or "next evening" (its first hand, from the table) or "edit" (the last, hand 1)


#: a 大局's first hand: banks of 125, one plain round won by seat 0, who goes out first; the banks carry on
Q783_START = {"banks": [125, 125, 125, 125], "rounds": [{"winner": 0, "won_with": "plain"}], "finish_order": [0]}
HANDS = [
    # a new table's first hand, on the page 开桌 leads to
    Hand("跑得快", "first hand", "paodekuai", paodekuai, 9, ["+87", "−5", "−52", "−30"]),
    Hand("双扣", "first hand, one 7-line bomb", "shuangkou", shuangkou_bomb, 6, ["−3", "+15", "−3", "−9"]),
    Hand("Q783", "first hand: banks, one round", "q783", q783_first, 5, ["−90", "+270", "−90", "−90"]),
    Hand("红五", "first hand", "hongwu", hongwu, 7, ["−2", "+6", "−2", "−2"]),
    Hand("二七王", "first hand", "erqiwang", erqiwang, 6, ["+2", "−2", "+2", "−2"]),
    # the next hand, where the save of the hand before it lands
    Hand("跑得快", "winner + three losers' cards left", "paodekuai", paodekuai, 9, ["+87", "−5", "−52", "−30"],
         {"winner": 0, "cards_left": [0, 1, 1, 1]}),
    Hand("双扣", "finishing order, no bomb", "shuangkou", shuangkou_plain, 4, ["+3", "−3", "+3", "−3"],
         {"finish_order": [0, 2]}),
    Hand("双扣", "finishing order, one 7-line bomb", "shuangkou", shuangkou_bomb, 6, ["−3", "+15", "−3", "−9"],
         {"finish_order": [0, 2]}),
    Hand("Q783", "one round (winner + what won)", "q783", q783_rounds((1, "zheng_q783"), out=1), 4,
         ["−90", "+230", "−70", "−70"], Q783_START),
    Hand("Q783", "three rounds", "q783", q783_rounds((1, "zheng_q783"), (2, "plain"), (0, "fu_q783"), out=2), 8,
         ["−35", "+45", "+60", "−70"], Q783_START),
    Hand("红五", "庄家, bid, points, bottom, no red five", "hongwu", hongwu, 7, ["−2", "+6", "−2", "−2"],
         {"declarer": 1, "bid": 100, "declarer_points": 120}),
    Hand("二七王", "庄家, bid, 闲家 points", "erqiwang", erqiwang, 6, ["+2", "−2", "+2", "−2"],
         {"declarer": 0, "bid": 60, "defender_points": 40}),
    Hand("二七王", "plus one 冲关", "erqiwang", lambda f: erqiwang(f, chongguan=True), 9, ["+1", "0", "+1", "−2"],
         {"declarer": 0, "bid": 60, "defender_points": 40}),
    # the next evening: 同样的人和规则，开新的一晚 tapped on the table, then its first hand (the tap is counted)
    Hand("跑得快", "next evening, then its first hand", "paodekuai", paodekuai, 10, ["+87", "−5", "−52", "−30"],
         {"winner": 0, "cards_left": [0, 1, 1, 1]}, "next evening"),
    Hand("双扣", "next evening, then its first hand", "shuangkou", shuangkou_plain, 5, ["+3", "−3", "+3", "−3"],
         {"finish_order": [0, 2]}, "next evening"),
    Hand("Q783", "next evening, then its first hand", "q783", q783_first, 6, ["−90", "+270", "−90", "−90"],
         Q783_START, "next evening"),
    Hand("红五", "next evening, then its first hand", "hongwu", hongwu, 8, ["−2", "+6", "−2", "−2"],
         {"declarer": 1, "bid": 100, "declarer_points": 120}, "next evening"),
    Hand("二七王", "next evening, then its first hand", "erqiwang", erqiwang, 7, ["+2", "−2", "+2", "−2"],
         {"declarer": 0, "bid": 60, "defender_points": 40}, "next evening"),
    # the last hand edited: 修改第1局 (beside 撤销) tapped on the table, the hand entered again over what it held
    # (跑得快 and Q783: what was wrong put right, the rest left as it was)
    Hand("跑得快", "edit hand 1 (Jennifer had 10 cards left, not 1)", "paodekuai", paodekuai_fix, 6,
         ["+87", "−5", "−52", "−30"], {"winner": 0, "cards_left": [0, 5, 13, 1]}, "edit"),
    Hand("双扣", "edit hand 1 (was 双扣, now one 7-line bomb)", "shuangkou", shuangkou_bomb, 7,
         ["−3", "+15", "−3", "−9"], {"finish_order": [0, 2]}, "edit"),
    Hand("Q783", "edit hand 1 (round 1 won with 正Q783, not a plain play)", "q783", q783_fix, 4,
         ["−90", "+270", "−90", "−90"], {"banks": [100, 100, 100, 100], "rounds": [{"winner": 1, "won_with": "plain"}],
                                         "finish_order": [1]}, "edit"),
    Hand("红五", "edit hand 1 (was 庄家 seat 0)", "hongwu", hongwu, 8, ["−2", "+6", "−2", "−2"],
         {"declarer": 0, "bid": 100, "declarer_points": 120}, "edit"),
    Hand("二七王", "edit hand 1 (was bid 80)", "erqiwang", erqiwang, 7, ["+2", "−2", "+2", "−2"],
         {"declarer": 0, "bid": 80, "defender_points": 40}, "edit"),
]
#: what a player taps on the table to start the next evening, and to edit hand 1
NEXT_EVENING = "form.new-evening button[type=submit]"
EDIT_FIRST = "#live a.edit-last"


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    req = urllib.request.Request(f"{base}/api/v1/{path}", method="POST", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", **({"X-Edit-Token": token} if token else {})})
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read())


@dataclass
class Played:
    taps: int
    swipes: int
    deltas: list[str]
    log: list[str]


def _save(page: Page, number: int) -> list[str]:
    page.locator(SAVE).click()
    scores = page.locator(f"#hand-{number} .hand-scores .num")
    scores.first.wait_for()
    return scores.all_inner_texts()


def play(page: Page, base: str, hand: Hand) -> Played:
    """The hand entered on a table's page where a save lands (the hand before it recorded), counted."""
    table = api(base, "tables", {"game": hand.slug, "players": NAMES})
    number = 1
    if hand.before:
        api(base, f"tables/{table['id']}/hands", hand.before, token=table["edit_token"])
        number = 2
    page.goto(table["edit_url"].replace("http://localhost", base))  # keeps the edit token on this phone
    # where a save leads; a new table's first hand: where 开桌 leads
    page.goto(f"{base}/tables/{table['id']}/edit{'' if hand.before else '?new=1'}#entry")
    finger = Finger(page)
    if hand.way == "next evening":
        finger.tap(NEXT_EVENING)
        page.wait_for_url(lambda url: f"/tables/{table['id']}/" not in url and "/edit" in url)
        number = 1
    elif hand.way == "edit":
        finger.tap(EDIT_FIRST)
        page.wait_for_url(f"**/tables/{table['id']}/edit/hands/1")
        number = 1
    hand.how(finger)
    finger.reach(SAVE)
    finger.taps += 1
    return Played(finger.taps, finger.swipes, _save(page, number), finger.log)


def serve():
    return serve_in_thread({"TESTING": True, "LEDGER_CREATE_LIMIT": "10000 per minute",
                            "LEDGER_WRITE_LIMIT": "10000 per minute"})


def new_phone(browser, lang: str = "zh", scheme: str = "light", service_workers: str = "block"):
    """A phone's browser context: 360 × 780, touch, the page language and the light or dark scheme chosen.
    Its service worker is blocked unless asked for: installing it fetches every static file and rules page
    (about a fifth of a short test's CPU), and only the offline and install tests need it."""
    context = browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2,
                                  locale="zh-CN" if lang == "zh" else "en-GB", color_scheme=scheme,
                                  service_workers=service_workers)
    return context


def main() -> int:
    server, base = serve()
    over = 0
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p)
            for hand in HANDS:
                context = new_phone(browser)
                page = context.new_page()
                page.set_default_timeout(15_000)
                got = play(page, base, hand)
                ok = got.deltas == hand.expected
                bad = got.taps > hand.budget or got.swipes > 0 or not ok
                over += bad
                check = "" if ok else f"  (settled {got.deltas}, expected {hand.expected})"
                check += f"  {got.log}" if got.swipes else ""
                print(f"{hand.game}\t{hand.words}: {got.taps} taps (budget {hand.budget}), {got.swipes} swipes "
                      f"(budget 0) {'OVER' if bad else 'ok'}{check}")
                context.close()
            browser.close()
    finally:
        server.shutdown()
    print("taps: all within budget" if not over else f"taps: {over} over budget")
    return 0 if not over else 1


if __name__ == "__main__":
    sys.exit(main())
