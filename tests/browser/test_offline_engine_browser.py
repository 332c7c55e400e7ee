"""Offline mode (issue 29) in Chromium at 360 px: with the switch on and the network off, a game's tabs answer
in the page with the engine the server runs (Pyodide in a worker): a refused input gives the API's error
messages, the answer is in the page's language, a tab opens with no signal, a post that fails for want of
network is answered in the page, an engine that cannot load says so. With the switch off the pages load nothing
from /offline-engine/. (Each binding example's answer: test_offline_binding_examples_browser.py.)

One phone (one browser context) for the module: turning offline mode on loads Pyodide once and keeps a snapshot of
its memory with the engine imported; each page opened after puts it back (issue 42), and a tab opened by its link
keeps the page and its engine (``go_to``)."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest
from offline_forms import examples, form_pairs, phone_messages
from offline_helpers import (
    ANSWER_WAIT_MS,
    FILL,
    MARK_EN,
    READY,
    answer_offline,
    shown_deltas,
    texts,
    turn_on_offline_mode,
    wait_until,
)

from scoring.registry import get_game

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def api_reply(base, slug, action, payload, lang="zh"):
    req = urllib.request.Request(f"{base}/api/v1/{slug}/{action}", method="POST", data=json.dumps(payload).encode(),
                                 headers={"Content-Type": "application/json", "Accept-Language": lang})
    try:
        with urllib.request.urlopen(req) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def requests_sent_so_far(page, asked: list) -> list:
    """``asked`` (what ``page.on("request")`` records) once it holds every request the page sent before this
    call: a request the page sends now is recorded after them, so waiting for it proves they are all in."""
    marker = "/api/v1/games?requests-sent-so-far"
    with page.expect_request(lambda request: request.url.endswith(marker)):
        page.evaluate(f"fetch({json.dumps(marker)}).catch(() => null)")
    return list(asked)


@contextmanager
def phone_with_offline_mode(browser, live_server, **options):
    """A 360 px phone with offline mode turned on (the engine downloaded and tried once); ``options``: more of
    the browser context's (``bypass_csp`` where axe-core is injected)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="zh-CN", **options)
    page = context.new_page()
    page.set_default_timeout(ANSWER_WAIT_MS)
    status = turn_on_offline_mode(page, live_server)
    assert status.startswith(READY), status
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="module")
def phone(browser, live_server):
    with phone_with_offline_mode(browser, live_server) as page:
        yield page


@pytest.fixture(autouse=True)
def back_online(request):
    """The module's phone is online again after each test, whatever the test left it: one failure does not fail
    the tests after it."""
    yield
    if "phone" in request.fixturenames:
        request.getfixturevalue("phone").context.set_offline(False)


#: settle examples of the rules pages; every one of them (and every check, hint and trick) is answered by the
#: phone's page glue in CPython (tests/web/test_offline_engine.py) and one of each game × tab × way the page draws
#: it in this browser (test_offline_binding_examples_browser.py): these few show what only a page can
SETTLE = examples({"settle"})


REFUSED = [("paodekuai", "settle", {"winner": 0, "cards_left": [0, 99, "x", 3]}),
           ("q783", "check", {"previous": "♠4", "play": "♠X"})]


@pytest.mark.parametrize(("slug", "action", "payload"), REFUSED, ids=[s for s, _a, _p in REFUSED])
def test_a_refused_input_offline_gives_the_pages_error_messages(phone, live_server, slug, action, payload):
    """The messages name the form's fields in its words, as the server's page does (tests/web/test_offline_engine.py
    shows they are the page's, for every binding example)."""
    status, _body = api_reply(live_server, slug, action, payload)
    assert status in (400, 422)
    result = answer_offline(phone, phone.context, live_server, slug, action, payload)
    assert texts(result.locator("ul.errors li")) == phone_messages(slug, action, payload)


def test_the_answer_is_written_in_the_pages_language(phone, live_server):
    slug, action, payload = SETTLE[0]
    phone.context.set_offline(False)
    phone.goto(f"{live_server}/lang/en?next=/{slug}/{action}")
    try:
        result = answer_offline(phone, phone.context, live_server, slug, action, payload, mark=MARK_EN)
        assert texts(result.locator("ol.steps li")) == api_reply(live_server, slug, action, payload, "en")[1]["steps"]
    finally:
        phone.context.set_offline(False)
        phone.goto(f"{live_server}/lang/zh?next=/")


def test_a_game_tab_opens_with_no_network_and_answers(phone, live_server):
    """The tab itself was kept when offline mode was turned on: it opens from the phone with no signal."""
    slug, action, payload = SETTLE[-1]
    phone.context.set_offline(False)
    phone.goto(live_server + "/")
    phone.context.set_offline(True)
    phone.goto(f"{live_server}/{slug}/settle")
    assert phone.locator("[data-offline-notice]").count() == 0
    assert phone.locator("#panel form").count() == 1
    try:
        phone.evaluate(FILL, [list(p) for p in form_pairs(get_game(slug), action, payload)])
        phone.locator("#panel form button.primary").click()
        phone.locator("#result[data-offline]").wait_for()
        shown = shown_deltas(phone)
    finally:
        phone.context.set_offline(False)
    assert shown == api_reply(live_server, slug, action, payload)[1]["deltas"]


def test_a_tab_opened_by_its_link_with_no_network_answers_with_the_engine_the_last_tab_started(phone, live_server):
    """The tabs switch without a page load (the page and its engine's worker stay; Back goes to the tab before),
    and with no signal the tab comes from what offline mode kept. A page's engine starts from the snapshot of
    Python's memory kept when offline mode was turned on."""
    slug, action, payload = SETTLE[-1]
    phone.context.set_offline(False)
    phone.goto(f"{live_server}/{slug}/check")
    phone.evaluate("PaijuOfflineEngine.start(PaijuOfflineEngine.stored().manifest).then(() => true)")
    phone.context.set_offline(True)
    phone.evaluate("window.sameDocument = true")
    asked = []
    phone.on("request", lambda request: asked.append(request.url))
    try:
        phone.locator(f'.game-tabs a.tab[href="/{slug}/settle"]').click()
        wait_until(phone, f"location.pathname === '/{slug}/settle' && !!document.querySelector('#panel form') && "
                          "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        assert phone.locator("[data-offline-notice]").count() == 0
        phone.evaluate(FILL, [list(p) for p in form_pairs(get_game(slug), action, payload)])
        phone.locator("#panel form button.primary").click()
        phone.locator("#result[data-offline]").wait_for()
        shown = shown_deltas(phone)
        assert phone.evaluate("window.sameDocument === true")
        switched = requests_sent_so_far(phone, asked)
        # and that engine was put back from the memory snapshot kept when offline mode was turned on
        assert phone.evaluate("PaijuOfflineEngine.memory()")["timings"]["snapshot"] is True
        phone.go_back()
        wait_until(phone, f"location.pathname === '/{slug}/check' && !!document.querySelector('#panel form')")
    finally:
        phone.context.set_offline(False)
    assert shown == api_reply(live_server, slug, action, payload)[1]["deltas"]
    assert not [url for url in switched if "/offline-engine/" in url]  # no second engine loaded


def test_a_post_that_fails_for_want_of_network_is_answered_in_the_page(phone, live_server):
    """The phone believes it is online (navigator.onLine) but the post never reaches the server."""
    slug, action, payload = SETTLE[0]
    phone.context.set_offline(False)
    phone.goto(f"{live_server}/{slug}/{action}")
    phone.route(f"**/{slug}/{action}", lambda route: route.abort("internetdisconnected")
                if route.request.method == "POST" else route.continue_())
    try:
        phone.evaluate(FILL, [list(p) for p in form_pairs(get_game(slug), action, payload)])
        phone.locator("#panel form button.primary").click()
        phone.locator("#result[data-offline]").wait_for()
        shown = shown_deltas(phone)
    finally:
        phone.unroute(f"**/{slug}/{action}")
    assert shown == api_reply(live_server, slug, action, payload)[1]["deltas"]


def test_an_engine_that_cannot_load_says_so_in_words(phone, live_server):
    """What a phone out of memory meets: the engine's load fails, the tab says the offline engine did not load."""
    slug, action, payload = SETTLE[0]
    phone.context.set_offline(False)
    phone.goto(live_server + "/")
    # the pages kept again in this language, if a test before showed them in another (the home page does that at
    # once, after the test's goto: the tab opened below would else be the other language's, or the file deleted
    # below fetched again)
    wait_until(phone, "JSON.parse(localStorage.getItem('paiju-offline-engine')).pagesLang"
                      " === document.documentElement.lang")
    wasm = phone.evaluate("JSON.parse(localStorage.getItem('paiju-offline-engine')).manifest.runtime") + "pyodide.asm.wasm"
    assert phone.evaluate(f"caches.open('paiju-engine').then(c => c.delete({json.dumps(wasm)}))")
    phone.context.set_offline(True)
    try:
        phone.goto(f"{live_server}/{slug}/{action}")
        phone.evaluate(FILL, [list(p) for p in form_pairs(get_game(slug), action, payload)])
        phone.locator("#panel form button.primary").click()
        phone.locator("#result.bad").wait_for()
        assert "没能加载" in phone.locator("#result").inner_text()
    finally:
        phone.context.set_offline(False)


def test_turning_offline_mode_off_deletes_what_it_kept(phone, live_server):
    phone.context.set_offline(False)
    phone.goto(live_server + "/")
    assert phone.evaluate("caches.has('paiju-engine')")
    kept = phone.evaluate("caches.open('paiju-engine').then(c => c.keys()).then(ks => ks.map(k => k.url))")
    # scoring/ compiled, kept beside the engine: by the runtime on the server where it was (issue 42), else once
    # in the phone
    compiled = "engine-pyc.zip?v=" if "compiled" in json.loads(
        phone.evaluate("localStorage.getItem('paiju-offline-engine')"))["manifest"] else "&pyc="
    assert any(compiled in url for url in kept)
    phone.uncheck("#offline-engine input[type=checkbox]")
    wait_until(phone, "!document.querySelector('#offline-engine input').disabled")
    assert not phone.evaluate("caches.has('paiju-engine')")
    assert phone.evaluate("localStorage.getItem('paiju-offline-engine')") is None


def test_with_offline_mode_off_the_pages_load_nothing_of_the_engine(page, live_server):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(live_server + "/shuangkou/settle")
    page.goto(live_server + "/hongwu/check")
    assert [url for url in requests_sent_so_far(page, asked) if "/offline-engine/" in url] == []
    assert not page.evaluate("caches.has('paiju-engine')")
    assert page.locator("#offline-engine input[type=checkbox]").count() == 0  # the switch is on the home page only


def test_without_webassembly_the_switch_says_offline_mode_is_unavailable(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="zh-CN")
    context.add_init_script("delete globalThis.WebAssembly")
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        toggle = page.locator("#offline-engine input[type=checkbox]")
        assert toggle.is_disabled()
        assert "用不了" in page.inner_text("#offline-engine [data-status]")
    finally:
        context.close()
