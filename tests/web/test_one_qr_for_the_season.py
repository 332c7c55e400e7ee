"""One QR for the season (issue 41, item 1): the QR at 开桌 and the table's QR file encode the circle's link
(``/circles/<circle>/now``), which opens the evening being played; a read-only page of an evening that has a next
one moves on to it (``?stay=1``, as the links to an earlier evening ask, keeps it), and its poll moves a page that
is open (``HX-Redirect``, and a live 下一晚 link)."""
from __future__ import annotations

import re

from test_circles import circle_of, next_evening, open_table
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures


def three_evenings(client):
    first = open_table(client, "hongwu")
    second = next_evening(client, first)
    return [first, second, next_evening(client, second)]


def test_the_circles_link_opens_the_evening_being_played(lclient):  # noqa: F811
    evenings = three_evenings(lclient)
    resp = lclient.get(f"/circles/{circle_of(lclient, evenings[0])}/now")
    assert resp.status_code == 302 and resp.headers["Location"] == f"/tables/{evenings[2]['id']}"
    assert "no-store" in resp.headers["Cache-Control"]
    assert lclient.get("/circles/nosuchcircle00/now").status_code == 404


def test_the_qr_at_the_new_table_and_on_the_read_only_page_encode_the_circles_link(lclient):  # noqa: F811
    first = open_table(lclient, "hongwu")
    season = f"http://localhost/circles/{circle_of(lclient, first)}/now"
    lclient.get(f"/tables/{first['id']}/edit/{first['edit_token']}")
    editing = lclient.get(f"/tables/{first['id']}/edit?new=1").get_data(as_text=True)
    join = re.search(r'<details class="share join">.*?</details>', editing, re.DOTALL).group(0)
    assert f'href="{season}" class="view-link"' in join and "扫一次就行" in join and "<svg" in join
    lclient.set_cookie("lang", "en")
    viewing = lclient.get(f"/tables/{first['id']}").get_data(as_text=True)
    assert season in viewing
    assert "every later evening follows by itself" not in viewing  # the note is the host's, at 开桌


def test_a_read_only_page_of_an_evening_with_a_next_one_moves_to_the_latest_unless_asked_to_stay(lclient):  # noqa: F811
    first, second, third = three_evenings(lclient)
    resp = lclient.get(f"/tables/{first['id']}")
    assert resp.status_code == 302 and resp.headers["Location"] == f"/tables/{second['id']}"
    assert lclient.get(f"/tables/{first['id']}", follow_redirects=True).request.path == f"/tables/{third['id']}"
    stayed = lclient.get(f"/tables/{first['id']}?stay=1")
    assert stayed.status_code == 200 and f"/tables/{first['id']}/live?" in stayed.get_data(as_text=True)
    assert "stay=1" in re.search(r'hx-get="([^"]+)"', stayed.get_data(as_text=True)).group(1)
    later = lclient.get(f"/tables/{third['id']}").get_data(as_text=True)
    assert f'href="/tables/{second["id"]}?stay=1">← 上一晚' in later


def test_the_poll_of_a_read_only_page_moves_it_to_the_next_evening_once_it_is_opened(lclient):  # noqa: F811
    first = open_table(lclient, "hongwu")
    page = lclient.get(f"/tables/{first['id']}").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert lclient.get(poll).status_code == 204
    second = next_evening(lclient, first)
    resp = lclient.get(poll)
    assert resp.status_code == 200 and resp.headers["HX-Redirect"] == f"/tables/{second['id']}"
    assert f'href="/tables/{second["id"]}">下一晚开始了 →' in resp.get_data(as_text=True)
    assert "HX-Redirect" not in lclient.get(poll + "&stay=1").headers


def test_the_circle_page_leads_to_the_evening_being_played(lclient):  # noqa: F811
    first = open_table(lclient, "hongwu")
    circle = circle_of(lclient, first)
    lclient.set_cookie("lang", "en")
    page = lclient.get(f"/circles/{circle}").get_data(as_text=True)
    assert f'href="/circles/{circle}/now">See the evening being played' in page
