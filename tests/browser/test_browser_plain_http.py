"""A phone that opened Paiju over plain http from another address (issue 40), in Chromium at 360 px: the page
is no secure context, so no service worker, offline mode, wake lock or one-tap copy; every page says so in words
(home, a table, a game tab, in Chinese and English), the offline switch is off and says why, the wake lock switch
is unticked and says why. The name paiju.test is mapped to the test server's loopback address by the browser
itself (--host-resolver-rules): 127.0.0.1 or localhost would count as secure."""
from __future__ import annotations

import pytest
from test_tables_browser import api, no_sideways_scroll

from webapp.i18n import COOKIE
from webapp.pwa import runtime_version

pytestmark = pytest.mark.browser

HOST = "paiju.test"
WORDS = {
    "zh": {"http": "这台手机是用 http 打开的：离线、安装到桌面和屏幕常亮要用 https 地址",
              "what": "请打开牌局的 https 地址",
              "no-engine": "这台服务器没有装离线引擎"},
    "en": {"http": "This phone opened Paiju over http: working offline, installing to the home screen and "
                      "keeping the screen on need the https address",
              "what": "open Paiju's https address",
              "no-engine": "This server has no offline engine"},
}


@pytest.fixture(scope="module")
def lan_browser(launch_browser):
    browser = launch_browser(f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
    yield browser
    browser.close()


def on_the_lan(url: str) -> str:
    return url.replace("127.0.0.1", HOST, 1)


def says_what_http_lacks(page, words):
    note = page.locator("[data-insecure-note]")
    note.wait_for()
    assert words["http"] in note.inner_text() and words["what"] in note.inner_text()
    assert no_sideways_scroll(page)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_over_plain_http_says_what_needs_https_on_home_table_and_game_pages(
        lan_browser, phone_options, live_server, lang):
    words = WORDS[lang]
    context = lan_browser.new_context(**phone_options)
    context.add_cookies([{"name": COOKIE, "value": lang, "url": on_the_lan(live_server)}])  # the language chosen
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(on_the_lan(live_server) + "/")
    assert page.evaluate("window.isSecureContext") is False
    says_what_http_lacks(page, words)
    switch, status = page.locator("#offline-engine input"), page.locator("#offline-engine [data-status]")
    switch.wait_for()
    assert switch.is_disabled()
    assert (words["http"] if runtime_version() else words["no-engine"]) in status.inner_text()

    created = api(live_server, "POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(on_the_lan(created["edit_url"]))
    says_what_http_lacks(page, words)
    page.locator("[data-wake-lock-note]").wait_for()
    assert page.locator("[data-wake-lock-note]").inner_text() == words["http"]
    assert not page.locator("[data-wake-lock-switch]").is_checked()

    page.goto(on_the_lan(live_server) + "/paodekuai/settle")
    says_what_http_lacks(page, words)
    context.close()
