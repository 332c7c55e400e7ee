"""Nothing a player can't read (issue 26): every page type, light and dark, in Chinese and English, at 360 px,
passes axe-core with no serious or critical finding, and shows no code name, key or repr once its scripts ran.

axe-core comes from the npm package, fetched into the git-ignored .cache/ by .ci/ensure-axe.sh (`make test`
runs it); the test injects it into each page itself (the app never serves it). Without it the test fails:
an accessibility check that quietly does not run is no check."""
from __future__ import annotations

from pathlib import Path

import pytest
from readable_words import unreadable
from test_tables_browser import api

from scoring.registry import all_games

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
SCHEMES = ("light", "dark")
LANGS = ("zh", "en")

# every tab of every game, the ledger's pages around a table with hands, and the pages around them
GAME_PAGES = [f"/{game.slug}/{tab}" for game in all_games() for tab in game.tabs]
TABLE_PAGES = {
    "new table": "/tables/new",
    "table (edit)": "/tables/{id}/edit",
    "table (read-only)": "/tables/{id}",
    "live rounds of a table": "/tables/{id}/edit/rounds",
    "settle-up": "/tables/{id}/settle-up?per_point=1",
    "the next evening (links back to the evening before)": "/tables/{next}",
    "a circle's season": "/circles/{circle}",
    "edit a hand": "/tables/{id}/edit/hands/1",
    "delete a hand": "/tables/{id}/edit/hands/1/delete",
    "delete the table": "/tables/{id}/edit/delete",
    "my tables (home)": "/",
    "a table that is not there": "/tables/no-such-table",
    "a page that is not there": "/no-such-page",
    "offline notice": "/offline",
}
EMPTY_TABLES = [f"/tables/{{{game.slug}}}/edit" for game in all_games()]

RUN_AXE = """async (rules) => {
  const only = rules ? {runOnly: {type: "rule", values: rules}} : {};
  const found = await axe.run(document, {resultTypes: ["violations"], ...only});
  return found.violations.filter(v => ["serious", "critical"].includes(v.impact)).map(v => ({
    rule: v.id, impact: v.impact, help: v.help,
    where: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n").slice(1, 3).join(" "))
  }));
}"""


def axe_source() -> Path:
    assert AXE.is_file(), (f"axe-core is missing ({AXE}): run `bash .ci/ensure-axe.sh` (make test does); "
                           "the accessibility test does not run without it")
    return AXE


@pytest.fixture(scope="module")
def tables(live_server):
    """Where the pages are: a Q783 table with two hands (its id for "{id}"), the evening after it ("{next}", in
    one circle: "{circle}") and an empty table of each game."""
    made = {}
    for game in all_games():
        players = ["阿明", "小红", "老王", "Jennifer"] if game.slug != "q783" else ["阿明", "小红", "老王"]
        made[game.slug] = api(live_server, "POST", "tables", {"game": game.slug, "players": players})
    q783 = made["q783"]
    for last_out in (2, 1):
        api(live_server, "POST", f"tables/{q783['id']}/hands", {"rounds": [], "finish_order": [last_out]},
            token=q783["edit_token"])
    made["next"] = api(live_server, "POST", f"tables/{q783['id']}/next-evening", {}, token=q783["edit_token"])
    return made


@pytest.fixture(scope="module", params=LANGS)
def phone(request, browser, live_server, tables):
    """A 360 px phone in Chinese or English, holding the edit links of the tables (each page is checked in
    light and in dark: :func:`axe_in_both_schemes`), one per language for the module: the tests only read
    pages. The page's CSP forbids inline scripts: the test's own context lets the test inject axe-core."""
    lang = request.param
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                              has_touch=True, locale="zh-CN" if lang == "zh" else "en-US",
                              bypass_csp=True, service_workers="block")
    ctx.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    for made in tables.values():
        page.goto(made["edit_url"])  # keeps the edit token in the table's cookie (and lists it on home)
    yield page
    ctx.close()


#: the words a page shows once its scripts ran, and those a screen reader speaks; not code (an example's API
#: request, the raw-data box), which the page labels as such
SHOWN_WORDS = """() => {
  const skip = "code, pre, textarea, script, style, template, noscript";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el && !el.closest(skip) && el.getClientRects().length) out.push(node.textContent);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
    for (const name of ["aria-label", "title", "placeholder", "alt"])
      if (el.getAttribute(name)) out.push(el.getAttribute(name));
  return out.join(" ");
}"""


#: axe-core's rules that read colours: all that can find something in dark that light did not (the page's
#: structure, names and roles are the same in both schemes)
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def axe_in_both_schemes(page) -> list:
    """axe-core's serious and critical findings on the page as it is, every rule in light and the colour rules
    in dark (the page is not loaded again: the colour scheme it is shown in changes)."""
    page.add_script_tag(path=str(axe_source()))
    found = []
    for scheme, rules in zip(SCHEMES, (None, COLOUR_RULES)):
        page.emulate_media(color_scheme=scheme)
        found += [{**finding, "impact": f"{finding['impact']} ({scheme})"}
                  for finding in page.evaluate(RUN_AXE, rules)]
    page.emulate_media(color_scheme="light")
    return found


def serious_findings(page, url: str) -> list:
    """axe-core's serious and critical findings on the page at ``url`` in light and dark, and any word on it a
    player can't read."""
    page.emulate_media(color_scheme="light")
    page.goto(url)
    page.wait_for_load_state("load")
    lang = "en" if page.evaluate("document.documentElement.lang").startswith("en") else "zh"
    words = unreadable(page.evaluate(SHOWN_WORDS), lang, names_known=False)
    return axe_in_both_schemes(page) + [{"impact": "unreadable", "rule": "words", "help": ", ".join(words),
                                         "where": url} for _ in words[:1]]


def address(live_server, path: str, tables) -> str:
    circle = api(live_server, "GET", f"tables/{tables['q783']['id']}")["circle"]
    ids = {name: made["id"] for name, made in tables.items()}
    return live_server + path.format(id=ids["q783"], circle=circle, **ids)


def assert_clean(page, live_server, tables, paths):
    findings = {path: found for path in paths if (found := serious_findings(page, address(live_server, path, tables)))}
    assert findings == {}, "\n".join(f"{path}: {f['impact']} {f['rule']} ({f['help']}) at {f['where']}"
                                     for path, found in findings.items() for f in found)


def test_axe_core_is_there_for_the_accessibility_tests():
    assert axe_source().stat().st_size > 100_000


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_every_tab_of_a_game_has_no_serious_accessibility_finding(phone, live_server, tables, slug):
    assert_clean(phone, live_server, tables, [path for path in GAME_PAGES if path.startswith(f"/{slug}/")])


def test_the_home_page_and_the_ledger_pages_have_no_serious_accessibility_finding(phone, live_server, tables):
    assert_clean(phone, live_server, tables, list(TABLE_PAGES.values()))


def test_the_home_page_lists_my_tables_when_axe_checks_it(phone, live_server, tables):
    """The my-tables list is only drawn for a phone that opened tables: the page axe checked shows it."""
    assert serious_findings(phone, live_server + "/") == []
    assert phone.locator("#my-tables li").count() == len(tables)


def test_the_table_page_of_every_game_has_no_serious_accessibility_finding(phone, live_server, tables):
    assert_clean(phone, live_server, tables, EMPTY_TABLES)


def findings_here(page) -> list:
    return axe_in_both_schemes(page)


def test_a_result_an_error_and_a_started_round_tracker_have_no_serious_accessibility_finding(phone, live_server,
                                                                                            tables):
    found = {}
    phone.goto(live_server + "/q783/check")
    phone.fill("#play", "♠Q ♥7 ♥8 ♣3")
    phone.locator("#panel form button[type=submit].primary").first.click()
    phone.locator(".result").first.wait_for()
    found["a checked play"] = findings_here(phone)
    phone.goto(live_server + "/hongwu/settle")
    phone.locator("input[name=bid]").fill("7")
    phone.locator("#panel form button[type=submit].primary").first.click()
    phone.locator("p.error").first.wait_for()
    found["a settle form with errors"] = findings_here(phone)
    phone.goto(live_server + "/q783/rounds")
    for i in range(4):
        phone.fill(f"#bank_{i}", "100")
    phone.click("button[value=start]")
    phone.locator(".seat-button").first.wait_for()
    found["a started round tracker"] = findings_here(phone)
    assert {what: f for what, f in found.items() if f} == {}
