"""A circle's season (牌友圈) in a real browser at phone width (360 px): opened from a table page, its
standings are the evenings added up by name and its chart draws a line per player."""
from __future__ import annotations

import pytest
from test_tables_browser import api, no_sideways_scroll

from scoring.i18n import signed

pytestmark = pytest.mark.browser

NAMES = ["阿明", "小红", "老王", "Jennifer"]


def hongwu(declarer, points):
    return {"declarer": declarer, "bid": 100, "declarer_points": points}


def three_evenings(live_server) -> list[dict]:
    created = api(live_server, "POST", "tables", {"game": "hongwu", "players": NAMES})
    evenings = [created]
    for hands in ([hongwu(0, 120), hongwu(1, 40)], [hongwu(2, 130)], [hongwu(3, 20), hongwu(0, 110)]):
        table = evenings[-1]
        for hand in hands:
            api(live_server, "POST", f"tables/{table['id']}/hands", hand, token=table["edit_token"])
        if len(evenings) < 3:
            evenings.append(api(live_server, "POST", f"tables/{table['id']}/next-evening", {},
                                token=table["edit_token"]))
    return evenings


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_circle_page_opened_from_a_table_shows_the_summed_standings_and_the_chart(page, context, live_server, lang):
    evenings = three_evenings(live_server)
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    page.goto(live_server + f"/tables/{evenings[1]['id']}?stay=1")
    page.click(".evening-row a.circle-link")
    page.wait_for_url("**/circles/**")
    summed = dict.fromkeys(NAMES, 0)
    for evening in evenings:
        table = api(live_server, "GET", f"tables/{evening['id']}")
        for name, total in zip(table["players"], table["totals"]):
            summed[name] += total
    rows = page.locator("tr.standing")
    assert rows.count() == 4
    shown = {rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td.total").inner_text() for i in range(4)}
    assert shown == {name: signed(v) for name, v in summed.items()}
    chart = page.locator("svg.ledger-chart")
    assert chart.is_visible() and chart.locator("polyline").count() == 4
    assert page.locator("ul.running li").count() == 4  # the chart's numbers as text
    assert no_sideways_scroll(page)
