"""Offline mode ready in seconds (issue 42): the switch's trial load is the download (the engine starts at the tap
and the service worker keeps each of its files as it comes to it), and the switch says ready only when offline use
works: not before every page it keeps is kept, and a game tab opened with no network at that very moment answers;
every file of the engine came over the network once."""
from __future__ import annotations

import json

import pytest
from offline_forms import examples, form_pairs
from offline_helpers import ANSWER_WAIT_MS, FILL, MARK, READY, SNAPSHOT_KEPT, shown_deltas, wait_until
from test_offline_engine_browser import api_reply

from scoring.registry import get_game

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def test_the_switch_says_ready_only_once_its_pages_are_kept_and_a_tab_opened_at_once_with_no_network_answers(page, live_server):
    slug, action, payload = examples({"settle"})[0]
    page.set_default_timeout(ANSWER_WAIT_MS)
    from_network = []  # what the service worker asked the network for (the page's and the engine's fetches pass it)
    page.context.on("request", lambda r: from_network.append(r.url) if r.service_worker is not None else None)
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    held = []  # the tab's copy, held back until the engine has loaded and kept its snapshot: no ready before it
    page.context.route(f"{live_server}/{slug}/{action}", lambda route: held.append(route))
    page.check("#offline-engine input[type=checkbox]")
    wait_until(page, SNAPSHOT_KEPT)
    assert held and page.evaluate("document.querySelector('#offline-engine input').disabled")
    for route in held:
        route.continue_()
    page.context.unroute(f"{live_server}/{slug}/{action}")
    wait_until(page, "!document.querySelector('#offline-engine input').disabled")
    assert page.inner_text("#offline-engine [data-status]").startswith(READY)
    manifest = json.loads(page.evaluate("localStorage.getItem('paiju-offline-engine')"))["manifest"]
    page.context.set_offline(True)  # at once: the worker may still be keeping what it compiled
    try:
        page.goto(f"{live_server}/{slug}/{action}")
        assert page.locator("[data-offline-notice]").count() == 0
        page.evaluate(FILL, [list(p) for p in form_pairs(get_game(slug), action, payload)])
        page.locator("#panel form button.primary").click()
        result = page.locator("#result[data-offline]")
        result.wait_for()
        assert result.locator(".offline-mark").inner_text() == MARK
        shown = shown_deltas(page)
    finally:
        page.context.set_offline(False)
    assert shown == api_reply(live_server, slug, action, payload)[1]["deltas"]
    fetched = [url.removeprefix(live_server) for url in from_network if "/offline-engine/" in url]
    assert sorted(f for f in fetched if "manifest.json" not in f) == sorted(manifest["files"])
