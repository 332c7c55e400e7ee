"""A first visit (issue 42, item 5): the bytes a new phone downloads for a page, measured in Chromium (360 px).

Run from the repository root with the test extras installed::

    python -m bench first_visit        (or python -m bench.first_visit)

It starts the app on a loopback port and opens, each in a fresh browser context (nothing cached, no service
worker yet), the home page, a game's settle page and a table's edit page (through its edit link, as a phone
opens it). The server counts every answer's body as it was sent (compressed, as served: what crossed the
wire), and tells the page's own requests from the service worker's by the request (``Sec-Fetch-Dest:
serviceworker`` for the worker's script, the worker's address as the referrer for its fetches). For each page
it prints:

* what the page needs: the bytes and requests of the page's own answers that started before its ``load``
  event, against issue 42's goal of 30 KB (a file the page fetched twice is named);
* what the page fetched after its ``load`` (what it needs only once a player acts: htmx, the hand queue, loaded
  by static/pwa.js when the page is idle), file by file;
* what the service worker fetched before the page's ``load``, and after it, until the network is quiet
  (goal: nothing before; what the worker keeps for offline use is fetched once the page is idle).

Each page's bytes, and the worker's requests before the pages' loads, are rows of the run's summary
(``bench/goals.py``). No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import json
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass

from playwright.sync_api import sync_playwright

from bench import chromium, goals
from bench.served import serve_in_thread

VIEWPORT = {"width": 360, "height": 740}
GOAL_KB = goals.FIRST_HOME.at_most  # every page's
QUIET_S = 1.5  # the network is quiet when the server has answered nothing for this long
NAMES = ["阿明", "小红", "老王", "Jennifer"]


@dataclass
class Sent:
    path: str
    bytes: int
    started_ms: float  # epoch ms, as the browser's performance.timeOrigin counts
    by_worker: bool


class Wire:
    """Every answer's body as the server sent it, with who asked (the page or its service worker)."""

    def __init__(self, app):
        self.app, self.sent, self.last = app, [], time.monotonic()

    def __call__(self, environ, start_response):
        started = time.time() * 1000
        by_worker = (environ.get("HTTP_SEC_FETCH_DEST") == "serviceworker"
                     or environ.get("HTTP_REFERER", "").endswith("/sw.js"))
        path = environ.get("PATH_INFO", "") + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else "")
        body, size = self.app(environ, start_response), 0
        try:
            for chunk in body:
                size += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()
            self.sent.append(Sent(path, size, started, by_worker))
            self.last = time.monotonic()


def serve():
    server, base = serve_in_thread({"SECRET_KEY": "bench"}, Wire)
    return server, base, server.app.wsgi_app


def new_table(base: str) -> str:
    """A 双扣 table with one hand: its edit link (the address a phone opens it by)."""
    def post(path: str, body: dict, token: str | None = None) -> dict:
        req = urllib.request.Request(f"{base}/api/v1/{path}", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"X-Edit-Token": token} if token else {})})
        with urllib.request.urlopen(req) as resp:
            return json.loads(resp.read())
    table = post("tables", {"game": "shuangkou", "players": NAMES})
    post(f"tables/{table['id']}/hands", {"finish_order": [0, 2]}, token=table["edit_token"])
    return table["edit_url"].replace("http://localhost", base)


def quiet(wire: Wire, seconds: float = 30) -> None:
    """Until the server has answered nothing for QUIET_S (the worker's fetches, if any, are done)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and time.monotonic() - wire.last < QUIET_S:
        time.sleep(0.1)


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def visit(browser, wire: Wire, name: str, url: str) -> tuple[int, int, int]:
    """One first visit: print the page's bytes and the worker's; return the page's bytes and requests until
    loaded, and the worker's requests before then."""
    context = browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, locale="zh-CN")
    page = context.new_page()
    wire.sent.clear()
    page.goto(url, wait_until="load")
    loaded = page.evaluate("performance.timeOrigin + performance.getEntriesByType('navigation')[0].loadEventEnd")
    page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false")
    quiet(wire)
    sent = list(wire.sent)
    context.close()
    own = [s for s in sent if not s.by_worker and s.started_ms <= loaded]
    later = [s for s in sent if not s.by_worker and s.started_ms > loaded]
    early = [s for s in sent if s.by_worker and s.started_ms <= loaded]
    idle = [s for s in sent if s.by_worker and s.started_ms > loaded]
    total = sum(s.bytes for s in own)
    twice = sorted(path for path, n in Counter(s.path for s in own).items() if n > 1)
    ok = total <= GOAL_KB * 1024
    print(f"first visit: {name}: the page {kb(total)} in {len(own)} requests until loaded "
          f"(goal ≤ {GOAL_KB} KB: {'met' if ok else 'MISSED'}){'; twice: ' + ', '.join(twice) if twice else ''}")
    print(f"  files: {', '.join(f'{short(s.path)} {s.bytes:,}' for s in own)}")
    if later:
        print(f"  the page after its load: {kb(sum(s.bytes for s in later))} in {len(later)} requests "
              f"({', '.join(f'{short(s.path)} {s.bytes:,}' for s in later)})")
    print(f"  the service worker: {kb(sum(s.bytes for s in early))} in {len(early)} requests before the page's load "
          f"(goal: none: {'met' if not early else 'MISSED'}), {kb(sum(s.bytes for s in idle))} in {len(idle)} after")
    return total, len(own), len(early)


def short(path: str) -> str:
    """A static file's name without its digest, a page's address without its id or token."""
    if not path.startswith("/static/"):
        return "/tables/…" + path.split("?")[0].split("/", 3)[3][:5] if path.startswith("/tables/") else path
    parts = path.rsplit("/", 1)[-1].split(".")
    return ".".join(parts[:-2] + parts[-1:]) if len(parts) > 2 else parts[0]


def main(argv=None) -> int:
    measure()
    return 0


def measure() -> list[goals.Row]:
    """Print each page's first visit; return issue 42's rows: each page's bytes, the worker's early requests."""
    server, base, wire = serve()
    try:
        pages = [(goals.FIRST_HOME, "home", base + "/"),
                 (goals.FIRST_SETTLE, "settle (双扣)", base + "/shuangkou/settle"),
                 (goals.FIRST_TABLE, "table's edit page (双扣, one hand)", new_table(base))]
        with sync_playwright() as pw:
            browser = chromium.launch(pw)
            seen = [(goal, *visit(browser, wire, name, url)) for goal, name, url in pages]
            browser.close()
    finally:
        server.shutdown()
    rows = [goal.row(size / 1024, f"{requests} requests") for goal, size, requests, _ in seen]
    rows.append(goals.FIRST_WORKER.row(sum(early for *_, early in seen), f"over the {len(seen)} pages"))
    over = sum(not row.met for row in rows)
    print("first visit: every page within its goal" if not over else f"first visit: {over} of {len(rows)} goals missed")
    return rows


if __name__ == "__main__":
    sys.exit(main())
