"""Shared fixtures: the whole app in process, and a JSON API helper."""
from __future__ import annotations

import properties
import pytest
from databases import mark_migrated, migrated_sqlite_url

from bench import chromium

from webapp import create_app


def pytest_report_header(config):
    return properties.described()


def _group(item) -> str:
    """The worker group of a test (``make test`` runs ``--dist loadgroup``): its module's, so that a module's
    phone, page or server is made once."""
    return item.nodeid.split("::", 1)[0]


def _weight(item) -> int:
    """0 for a module that walks the whole API document or starts servers, 1 for a browser module, 2 for the
    rest: the longest groups are handed out first."""
    return 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 2


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the groups
def pytest_collection_modifyitems(session, config, items):
    first = {}
    for item in items:  # a group weighs what its heaviest test weighs
        item.add_marker(pytest.mark.xdist_group(_group(item)))
        first[_group(item)] = min(first.get(_group(item), 2), _weight(item))
    items.sort(key=lambda item: first[_group(item)])  # stable: each module's tests keep their order


@pytest.fixture(scope="session")
def shared_app(tmp_path_factory):
    """One app per test process for the modules marked ``shared_app``."""
    path = tmp_path_factory.mktemp("shared") / "shared.db"
    return mark_migrated(create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": migrated_sqlite_url(path)}))


@pytest.fixture
def app(request, tmp_path):
    """The whole app on its own SQLite file, a copy of the migrated schema. A module marked ``shared_app`` only
    asks the games' endpoints and pages (it writes no table and changes no setting): its tests share one app."""
    if request.node.get_closest_marker("shared_app"):
        return request.getfixturevalue("shared_app")
    return mark_migrated(create_app({"TESTING": True, "SECRET_KEY": "test",
                                     "DATABASE_URL": migrated_sqlite_url(tmp_path / "test.db")}))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def api(client):
    """``api(path, body)`` posts JSON to /api/v1/<path> and returns (status, json)."""

    def call(path: str, body=None, method: str = "POST", lang: str | None = None, headers=None):
        h = dict(headers or {})
        if lang:
            h["Accept-Language"] = lang
        resp = client.open(f"/api/v1/{path}", method=method, json=body, headers=h)
        return resp.status_code, resp.get_json(silent=True)

    return call


# ---------------------------------------------------------------------------
# Browser tests: the app served on a free loopback port, driven by Playwright
# in Debian's Chromium (browsers cannot be downloaded here).
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """Base URL of the whole app running in a background thread."""
    import threading

    from werkzeug.serving import make_server

    db = tmp_path_factory.mktemp("live") / "live.db"
    # every browser test shares this server and one client address: the per-client rate limits (tested on
    # their own in test_ledger_hardening.py) would otherwise refuse the suite's own tables
    # a table page asks for new hands every half second, not every 3 s: a test that follows a table waits for
    # the hand to appear, and need not wait the poll's interval out
    app = create_app({"SECRET_KEY": "live-test", "DATABASE_URL": f"sqlite:///{db}", "LIVE_POLL_SECONDS": 0.5,
                      "LEDGER_CREATE_LIMIT": "10000 per minute", "LEDGER_WRITE_LIMIT": "10000 per minute"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


# How long a browser test waits for the event it expects (a DOM change, an answer) before it fails. A wait ends
# as soon as the event comes, so a long bound costs nothing when the test passes; Playwright's own 5 s (and the
# 10 s tests used to set) failed tests on a CI machine shared with other work (a POST 10 s late under a load of 15).
BROWSER_WAIT_MS = 30_000


@pytest.fixture(scope="session")
def playwright_session():
    """One Playwright per test process (a second one cannot start beside it)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=BROWSER_WAIT_MS)

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def launch_browser(playwright_session):
    """``launch_browser(*extra_args)``: a Chromium of a module's own (its caller closes it)."""
    return lambda *extra_args: chromium.launch(playwright_session, *extra_args)


@pytest.fixture(scope="session")
def phone_options():
    """The options of a phone-sized browser context (360 px wide, Chinese), for ``new_context(**…)``."""
    return dict(PHONE)


@pytest.fixture(scope="session")
def browser(playwright_session):
    browser = chromium.launch(playwright_session)
    yield browser
    browser.close()


# A test's phone runs no service worker unless it asks (the ``service_worker`` mark): installing one fetches
# every static file and rules page, about a fifth of a short test's CPU, and only the offline and install
# tests need it.
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "locale": "zh-CN", "service_workers": "block"}


@pytest.fixture
def context(request, browser):
    """A fresh phone-sized browser context (360 px wide); its service worker runs in a module marked
    ``service_worker``."""
    runs_worker = request.node.get_closest_marker("service_worker") is not None
    ctx = browser.new_context(**{**PHONE, "service_workers": "allow" if runs_worker else "block"})
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    p = context.new_page()
    p.set_default_timeout(BROWSER_WAIT_MS)
    return p
