"""What only a page shows of issue 41's words and looks, on a phone (Chromium, 360 px, touch) in zh and en, light
and dark where colours matter: a number never breaks over two lines (Q783's totals once 分库 shows, "+20/5" read
as +20), nor a name a character a line; a rules page's default column holds its words whole; a button writes in
the page's font; this phone's table keeps its line beside the remove button; changing a rule on the new-table
page leaves the console free of CSP errors; the group-chat text's last line opens this evening, even once a
next one is open; a player's dot on the circle page is the colour of their seat on the table page; the last
hand's 修改 sits beside 撤销 on the totals' heading row, in reach."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_tables_browser import api

from bench.taps import REACHABLE, new_phone

pytestmark = pytest.mark.browser

LANGS = ("zh", "en")
SCHEMES = ("light", "dark")
NAMES = ["阿明", "小红", "Jennifer", "老王"]

#: the lines an element's contents take: its boxes (a range's client rects) that start below the line before
LINES = """el => { const r = document.createRange(); r.selectNodeContents(el);
  const boxes = Array.from(r.getClientRects()).filter(b => b.width > 0).sort((a, b) => a.top - b.top);
  let lines = 0, bottom = -Infinity;
  for (const b of boxes) { if (b.top >= bottom - 1) { lines += 1; bottom = b.bottom; } else bottom = Math.max(bottom, b.bottom); }
  return lines; }"""


@pytest.fixture
def phone(browser, live_server, request):
    """A phone in the language and scheme the test's ``lang`` and ``scheme`` parameters name (zh, light else)."""
    params = getattr(request.node, "callspec", None)
    lang = params.params.get("lang", "zh") if params else "zh"
    scheme = params.params.get("scheme", "light") if params else "light"
    context = new_phone(browser, lang, scheme)
    context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def q783_with_banks(live_server) -> dict:
    """A Q783 table of four whose first hand leaves every bank standing (the 大局 goes on): 5, 50, 50 and 395."""
    made = api(live_server, "POST", "tables", {"game": "q783", "players": NAMES})
    api(live_server, "POST", f"tables/{made['id']}/hands", {"banks": [55, 100, 100, 245], "rounds": [],
                                                            "finish_order": [3]}, token=made["edit_token"])
    return made


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_q783_totals_with_banks_keep_every_number_and_name_on_one_line(phone, live_server, lang, scheme):
    made = q783_with_banks(live_server)
    phone.goto(f"{live_server}/tables/{made['id']}/edit/{made['edit_token']}")
    expect(phone.locator("#entry .totals td.bank")).to_have_count(4)
    cells = phone.locator("#entry .totals td.num, #entry .totals td:first-child, #hand-1 .hand-scores .num, "
                          "#hand-1 .hand-scores .run")
    assert cells.count() >= 4 * 4
    broken = [(cell.inner_text(), cell.evaluate(LINES)) for cell in cells.all() if cell.evaluate(LINES) != 1]
    assert not broken, broken
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", ["paodekuai", "q783"])
def test_a_rules_pages_default_column_keeps_each_word_whole(phone, live_server, lang, slug):
    phone.goto(f"{live_server}/{slug}/rules")
    defaults = phone.locator("table.options-table td.default")
    assert defaults.count() >= 9
    for cell in defaults.all():
        words = cell.inner_text().split()
        widest = max(cell.evaluate("(el, w) => { const c = document.createElement('canvas').getContext('2d');"
                                   " c.font = getComputedStyle(el).font; return c.measureText(w).width; }", w)
                     for w in words)
        assert cell.evaluate("el => el.clientWidth") >= widest, (cell.inner_text(), widest)  # 不扎鸟, not 不/扎/鸟


@pytest.mark.parametrize("lang", LANGS)
def test_buttons_write_in_the_pages_font_and_this_phones_table_keeps_its_line_beside_remove(phone, live_server, lang):
    made = q783_with_banks(live_server)
    phone.goto(f"{live_server}/tables/{made['id']}/edit/{made['edit_token']}")
    body = phone.evaluate("getComputedStyle(document.body).fontFamily")
    fonts = phone.locator("button").evaluate_all("bs => bs.map(b => getComputedStyle(b).fontFamily)")
    assert fonts and set(fonts) == {body}
    phone.goto(f"{live_server}/")
    entry = phone.locator("#my-tables li").first
    expect(entry).to_be_visible()
    link = entry.locator(".my-table-link")
    em = link.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert link.evaluate("el => el.getBoundingClientRect().width") >= 12 * em - 1  # not squeezed by 从列表移除
    assert entry.locator("button.remove").evaluate(LINES) == 1


CSP_WATCH = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
             "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", ["paodekuai", "hongwu"])
def test_changing_a_rule_on_the_new_table_page_leaves_the_console_free_of_csp_errors(phone, live_server, lang, slug):
    phone.add_init_script(CSP_WATCH)
    errors = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.goto(f"{live_server}/tables/new?game={slug}")
    phone.fill("#name_0", NAMES[0])
    for nth in (0, 1):  # the preset, then a rule: each re-renders the form (an htmx swap)
        phone.locator("details.rules-box > summary").click() if not phone.locator("details.rules-box[open]").count() \
            else None
        select = phone.locator("#panel select[data-refresh]").nth(nth)
        chosen = select.locator("option").nth(1).get_attribute("value")
        select.evaluate("el => el.dataset.beforeSwap = '1'")  # gone once the swap replaced the form
        with phone.expect_response(lambda r: r.request.method == "POST" and "/tables/new" in r.url):
            select.select_option(index=1)
        expect(phone.locator("#panel select[data-before-swap]")).to_have_count(0)
        expect(phone.locator("#panel select[data-refresh]").nth(nth)).to_have_value(chosen)
    expect(phone.locator("#name_0")).to_have_value(NAMES[0])  # the swap happened and kept what was typed
    assert phone.evaluate("window.__csp") == [] and not [e for e in errors if "Content Security Policy" in e], errors


@pytest.mark.parametrize("lang", LANGS)
def test_the_group_chat_texts_last_line_opens_this_evening_even_once_a_next_one_is_open(phone, live_server, lang):
    made = api(live_server, "POST", "tables", {"game": "hongwu", "players": NAMES})
    api(live_server, "POST", f"tables/{made['id']}/hands", {"declarer": 0, "bid": 100, "declarer_points": 120},
        token=made["edit_token"])
    api(live_server, "POST", f"tables/{made['id']}/next-evening", {}, token=made["edit_token"])
    phone.goto(f"{live_server}/tables/{made['id']}/settle-up")
    link = phone.locator("#share-text").input_value().splitlines()[-1]
    assert link == f"{live_server}/tables/{made['id']}?stay=1"
    phone.goto(link)
    assert phone.url == link  # not moved on to the next evening
    expect(phone.locator("#hand-1")).to_be_attached()  # this evening's hand: the next evening has none
    assert phone.url == link


DOT_FILLS = "els => els.map(e => getComputedStyle(e.querySelector('circle')).fill)"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_players_dot_on_the_circle_page_is_the_colour_of_their_seat_on_the_table_page(phone, live_server, scheme):
    made = api(live_server, "POST", "tables", {"game": "hongwu", "players": NAMES})
    api(live_server, "POST", f"tables/{made['id']}/hands", {"declarer": 3, "bid": 100, "declarer_points": 150},
        token=made["edit_token"])  # 老王, the last seat, leads the standings
    phone.goto(f"{live_server}/tables/{made['id']}")
    seats = dict(zip(NAMES, phone.locator("#live .totals td:first-child svg.swatch").evaluate_all(DOT_FILLS)))
    assert len(set(seats.values())) == 4
    phone.goto(f"{live_server}/circles/{api(live_server, 'GET', 'tables/' + made['id'])['circle']}")
    rows = phone.locator("table.standings th.who")
    names = [n.strip() for n in rows.all_inner_texts()]
    assert names[0] == "老王"
    assert dict(zip(names, rows.locator("svg.swatch").evaluate_all(DOT_FILLS))) == seats


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_hands_edit_and_undo_share_the_totals_heading_row_in_reach(phone, live_server, lang):
    made = api(live_server, "POST", "tables", {"game": "hongwu", "players": NAMES})
    for _ in range(12):  # a two-digit hand number: the longest the row holds of an evening
        api(live_server, "POST", f"tables/{made['id']}/hands", {"declarer": 1, "bid": 100, "declarer_points": 120},
            token=made["edit_token"])
    phone.goto(f"{live_server}/tables/{made['id']}/edit/{made['edit_token']}")
    phone.goto(f"{live_server}/tables/{made['id']}/edit#entry")
    heading, edit, undo = (phone.locator(s).evaluate("el => el.getBoundingClientRect().toJSON()")
                           for s in ("#live > h2", "#live a.edit-last", "#live .undo button"))
    assert edit["top"] < heading["bottom"] and undo["top"] < heading["bottom"]  # one row, not two
    assert abs(edit["top"] - undo["top"]) < 2 and edit["right"] <= undo["left"]
    assert phone.locator("#live a.edit-last").evaluate(REACHABLE)
    phone.locator("#live a.edit-last").click()
    phone.wait_for_url(f"**/tables/{made['id']}/edit/hands/12")
