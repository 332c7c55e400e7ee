"""Taps for a typical hand of each game, entered as a player would through the real pages.

Run from the repository root with the test extras installed::

    python -m bench.taps

It starts the app on a loopback port, drives Debian's Chromium at 360 px, and
counts every tap of a finger: a click is one tap, a digit typed is one tap.
Each line gives the game, the hand, the taps used and the budget; the last
line is ``taps: all within budget`` or ``taps: N over budget``. Each hand's
result is checked too (a count for a hand that settled wrong would mean
nothing).
"""
from __future__ import annotations

import logging
import sys
import tempfile
import threading
from dataclasses import dataclass, field

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

from webapp import create_app

CHROMIUM = "/usr/bin/chromium"


@dataclass
class Finger:
    """A page that counts taps."""

    page: Page
    taps: int = 0
    log: list[str] = field(default_factory=list)

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1
        self.log.append(selector)

    def type(self, digits: str) -> None:
        self.page.keyboard.type(digits)
        self.taps += len(digits)
        self.log.append(repr(digits))

    def deltas(self) -> list[str]:
        result = self.page.locator("#result")
        result.wait_for()
        return result.locator("td.num").all_inner_texts()


def radio(name: str, value: str) -> str:
    return f"label:has(input[type=radio][name='{name}'][value='{value}'])"


def chip(field_id: str, value: int) -> str:
    return f"button[data-set-for='{field_id}'][data-value='{value}']"


SAVE = "button.primary"


def paodekuai(f: Finger) -> list[str]:
    """Seat 0 goes out; the others hold 5, 13 and 10 cards."""
    f.tap(radio("winner", "0"))
    for left in ("5", "13", "10"):
        f.type(left)
    f.tap(SAVE)
    return f.deltas()


def shuangkou_plain(f: Finger) -> list[str]:
    """Seats 0 and 2 go out first and second: 双扣."""
    f.tap(".seat-tap[data-seat='0']")
    f.tap(".seat-tap[data-seat='2']")
    f.tap(SAVE)
    return f.deltas()


def shuangkou_bomb(f: Finger) -> list[str]:
    """The same, and seat 1 played a 7-line bomb."""
    f.tap(".seat-tap[data-seat='0']")
    f.tap(".seat-tap[data-seat='2']")
    f.tap(radio("bombs-0-seat", "1"))
    f.tap(radio("bombs-0-lines", "7"))
    f.tap(SAVE)
    return f.deltas()


def q783_round(f: Finger) -> list[str]:
    """One round: seat 1 wins it with a 正Q783 (the hand is then finished, untimed, to check the sums)."""
    f.tap(radio("rounds-0-winner", "1"))
    f.tap(radio("rounds-0-won_with", "zheng_q783"))
    counted = f.taps
    f.page.click(".seat-tap[data-seat='1']")
    f.page.click(SAVE)
    out = f.deltas()
    f.taps = counted
    return out


def hongwu(f: Finger) -> list[str]:
    """庄家 seat 1 bids 100, takes 120 points and the last trick with 10 in the bottom, no red five."""
    f.tap(radio("declarer", "1"))
    f.tap(chip("bid", 100))
    f.tap(chip("declarer_points", 120))
    f.tap(chip("bottom_points", 10))
    f.tap("input[name=declarer_took_bottom]")
    f.tap(SAVE)
    return f.deltas()


def erqiwang(f: Finger, chongguan: bool = False) -> list[str]:
    """庄家 seat 0 bids 60, the 闲家 take 40; with 冲关: seat 1 holds three jokers."""
    f.tap(radio("declarer", "0"))
    f.tap(chip("bid", 60))
    f.tap(chip("defender_points", 40))
    if chongguan:
        f.tap(radio("chongguan-0-seat", "1"))
        f.tap(radio("chongguan-0-jokers", "3"))
    f.tap(SAVE)
    return f.deltas()


#: (game, hand, page, how, budget, the deltas the hand must give)
HANDS = [
    ("跑得快", "winner + three losers' cards left", "/paodekuai/settle", paodekuai, 9, ["+87", "-5", "-52", "-30"]),
    ("双扣", "finishing order, no bomb", "/shuangkou/settle", shuangkou_plain, 4, ["+3", "-3", "+3", "-3"]),
    ("双扣", "finishing order, one 7-line bomb", "/shuangkou/settle", shuangkou_bomb, 6,
     ["-3", "+15", "-3", "-9"]),
    ("Q783", "one round (winner + what won)", "/q783/settle", q783_round, 2, ["-90", "+270", "-90", "-90"]),
    ("红五", "庄家, bid, points, bottom, no red five", "/hongwu/settle", hongwu, 7, ["-2", "+6", "-2", "-2"]),
    ("二七王", "庄家, bid, 闲家 points", "/erqiwang/settle", erqiwang, 6, ["+2", "-2", "+2", "-2"]),
    ("二七王", "plus one 冲关", "/erqiwang/settle", lambda f: erqiwang(f, chongguan=True), 9,
     ["+1", "0", "+1", "-2"]),
]


def serve():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/taps.db"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def main() -> int:
    server, base = serve()
    over = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            for game, hand, url, how, budget, expected in HANDS:
                page = browser.new_page(viewport={"width": 360, "height": 740}, has_touch=True)
                page.goto(base + url)
                finger = Finger(page)
                got = how(finger)
                ok = got == expected
                over += finger.taps > budget or not ok
                mark = "ok" if finger.taps <= budget else "OVER"
                check = "" if ok else f"  (settled {got}, expected {expected})"
                print(f"{game}\t{hand}: {finger.taps} taps, budget {budget} {mark}{check}")
                page.close()
            browser.close()
    finally:
        server.shutdown()
    print("taps: all within budget" if not over else f"taps: {over} over budget")
    return 0 if not over else 1


if __name__ == "__main__":
    sys.exit(main())
