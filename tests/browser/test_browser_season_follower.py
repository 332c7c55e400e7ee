"""One QR for the season (issue 41, item 1), on a phone (Chromium, 360 px): a follower that opened the circle's
link once (its QR at 开桌) sees each next evening's first hand without a reload: the read-only page's poll moves it
to the next evening as soon as the host opens it. One phone for the module."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser_evening_edges import looked_phone  # noqa: F401 - a phone in zh-light, then en-dark (a fixture)
from test_tables_browser import api

pytestmark = pytest.mark.browser

NAMES = ["阿明", "小红", "老王", "Jennifer"]


def hand(live_server, evening: dict, points: int) -> None:
    api(live_server, "POST", f"tables/{evening['id']}/hands", {"declarer": 0, "bid": 100, "declarer_points": points},
        token=evening["edit_token"])


def test_a_follower_of_the_circles_link_sees_each_next_evenings_first_hand_without_a_reload(looked_phone, live_server):  # noqa: F811
    follower = looked_phone
    evening = api(live_server, "POST", "tables", {"game": "hongwu", "players": NAMES})
    hand(live_server, evening, 120)
    circle = api(live_server, "GET", f"tables/{evening['id']}")["circle"]
    follower.goto(f"{live_server}/circles/{circle}/now")
    expect(follower).to_have_url(re.compile(rf"/tables/{evening['id']}$"))
    expect(follower.locator("#hand-1")).to_be_attached()
    loads = []
    follower.on("load", lambda page: loads.append(page.url))
    for points in (40, 110):  # two evenings more: the link follows every later one
        evening = api(live_server, "POST", f"tables/{evening['id']}/next-evening", {}, token=evening["edit_token"])
        hand(live_server, evening, points)
        expect(follower).to_have_url(re.compile(rf"/tables/{evening['id']}$"))
        expect(follower.locator("#hand-1")).to_be_attached()
        expect(follower.locator("#live .totals")).to_be_visible()
    assert len(loads) == 2  # one move per evening, by the page itself
