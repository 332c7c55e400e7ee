"""Offline mode (issue 29) measured in Chromium on this machine (360 px, Debian's /usr/bin/chromium).

Run from the repository root with the test extras installed and the runtime fetched (``make pyodide``)::

    python -m bench offline        (or python -m bench.offline [repeat])

It starts the app on a loopback port, turns offline mode on from the home page and prints:

* the bytes on the wire when offline mode is turned on (the bodies the server sent from the tap on: the runtime,
  precompressed, scoring/, the page glue, the worker and the kept pages), the bytes the page kept, and the time
  from the tap to ready (download and the engine tried once);
* the time to the first offline answer, cold: a game tab opened with no network, a settle entered at once, from
  the tab's navigation to the answer in the page (``repeat`` tabs, median and each);
* the time to an offline answer, warm: the same tab, the engine loaded, from the tap to the answer shown and by the
  page's own counter (the engine's answer to its drawing; median of ``repeat``);
* the time to an offline answer after a tab switch: a tap on another game tab and back (no page load, the engine
  stays), then the settle sent: tap → answer (median of ``repeat``);
each of issue 42's rows against its goal (``bench/goals.py``; returned as rows of the run's summary).
* the memory the page holds: the page's JavaScript heap (CDP Performance.getMetrics JSHeapUsedSize), and the
  engine worker's WebAssembly memory (Python's heap) and JavaScript heap; and the resident memory of all
  of Chromium's processes before and after.

No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench import chromium, goals
from bench.served import serve_in_thread

VIEWPORT = {"width": 360, "height": 740}
#: the settle of the bench: 双扣's first worked example (its form: finish order and one bomb row)
SLUG = "shuangkou"
PAIRS = [["finish_order-0", "0"], ["finish_order-1", "2"], ["bombs-0-seat", "0"], ["bombs-0-lines", "6"]]

FILL_AND_SEND = """(pairs) => { const form = document.querySelector('#panel form');
  for (const [name, value] of pairs) {
    const box = [...form.querySelectorAll(`[name="${name}"]`)].find(b => b.type !== 'radio' || b.value === value);
    if (box.type === 'radio') box.checked = true; else box.value = value;
    box.dispatchEvent(new Event('input', {bubbles: true}));
  }
  document.querySelector('#result')?.remove();
  form.querySelector('button.primary').click(); }"""


#: issue 42's goals
GOAL_WIRE_MB = goals.OFFLINE_WIRE.at_most
GOAL_READY_S = goals.OFFLINE_READY.at_most
GOAL_FIRST_MS = goals.OFFLINE_FIRST.at_most
GOAL_SWITCH_MS = goals.OFFLINE_SWITCH.at_most
GOAL_LATER_MS = goals.OFFLINE_LATER.at_most


class Wire:
    """The bytes of the answers' bodies the server sent (as sent: a precompressed file counts compressed)."""

    def __init__(self, app):
        self.app, self.sent = app, 0

    def __call__(self, environ, start_response):
        body = self.app(environ, start_response)
        try:
            for chunk in body:
                self.sent += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()


def against(value: float, goal: float, unit: str) -> str:
    return f"goal ≤ {goal:g} {unit}: {'met' if value <= goal else 'MISSED'}"


def serve():
    server, base = serve_in_thread({"SECRET_KEY": "bench"}, Wire)
    server.wire = server.app.wsgi_app
    return server, base


def chromium_rss_mb() -> float:
    """Resident memory of every Chromium process this run started (descendants of this one), in MB."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, stack = 0, list(children.get(os.getpid(), []))
    while stack:
        current = stack.pop()
        stack.extend(children.get(current, []))
        try:
            is_chromium = Path(f"/proc/{current}/cmdline").read_bytes().split(b"\0")[0].endswith(b"chromium")
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        if is_chromium:
            total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total / 1024


def wait(page, expression: str, seconds: float = 300):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if page.evaluate(expression):
            return
        page.wait_for_timeout(50)
    raise TimeoutError(expression)


def turn_on(page, base, wire: Wire) -> tuple[int, float, str]:
    page.goto(base + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait(page, "navigator.serviceWorker.controller !== null")
    page.wait_for_load_state("networkidle")  # the service worker's own install fetches are not the switch's
    wire.sent = 0
    started = time.perf_counter()
    page.check("#offline-engine input[type=checkbox]")
    wait(page, "!document.querySelector('#offline-engine input').disabled")
    seconds = time.perf_counter() - started
    status = page.inner_text("#offline-engine [data-status]")
    # the worker keeps scoring/ compiled and the snapshot of Python's memory after saying ready: the pages after use it
    wait(page, "caches.open('paiju-engine').then(c => c.keys()).then(keys => keys.some(k => k.url.includes('&snapshot=')))")
    print(f"offline: the snapshot of Python's memory kept {time.perf_counter() - started:.1f} s after the tap")
    return int(page.get_attribute("#offline-engine", "data-downloaded") or 0), seconds, status


def answer_ms(page) -> float:
    page.locator("#result[data-offline]").wait_for(timeout=300_000)
    return float(page.get_attribute("#result[data-offline]", "data-ms"))


def cold_answer(context, base) -> float:
    """A tab opened with no network, the settle sent at once: ms from the navigation to the answer shown."""
    page = context.new_page()
    page.goto(f"{base}/{SLUG}/settle")
    page.evaluate(FILL_AND_SEND, PAIRS)
    page.locator("#result[data-offline]").wait_for(timeout=300_000)
    ms = page.evaluate("performance.now()")
    page.close()
    return ms


def switched_answer(page, base) -> float:
    """On a tab whose engine has answered, with no network: ms from the tap on another tab's link (boosted: no page
    load) and back to the settle tab, to the settle's answer shown."""
    page.click(".game-tabs a.tab:not(.on)")
    wait(page, "!document.querySelector('.game-tabs a.tab.on[href$=\"/settle\"]') && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    started = page.evaluate("performance.now()")
    page.click(f".game-tabs a.tab[href$='/{SLUG}/settle']")
    wait(page, "!!document.querySelector('.game-tabs a.tab.on[href$=\"/settle\"]') && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
               " && !!document.querySelector('#panel form[hx-post$=\"/settle\"] button.primary')")
    page.evaluate(FILL_AND_SEND, PAIRS)
    page.locator("#result[data-offline]").wait_for(timeout=300_000)
    return page.evaluate("performance.now()") - started


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    measure(int(args[0]) if args and args[0].isdigit() else 5)
    return 0


def measure(repeat: int) -> list[goals.Row]:
    """Print every figure; return issue 42's offline rows for the run's summary."""
    server, base = serve()
    try:
        with sync_playwright() as pw:
            browser = chromium.launch(pw, "--enable-precise-memory-info")
            rows = report(browser, base, repeat, server.wire)
            browser.close()
    finally:
        server.shutdown()
    return rows


def warm_answers(page, repeat: int) -> tuple[list[float], list[float]]:
    """On a tab whose engine has answered: ms from the tap on send to the answer shown, and the page's own count
    (the engine's answer to its drawing), ``repeat`` times each."""
    taps, counted = [], []
    for _ in range(repeat):
        started = page.evaluate("performance.now()")
        page.evaluate(FILL_AND_SEND, PAIRS)
        counted.append(answer_ms(page))
        taps.append(page.evaluate("performance.now()") - started)
    return taps, counted


def report(browser, base, repeat: int, wire: Wire) -> list[goals.Row]:
    context = browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(300_000)
    rss_before = chromium_rss_mb()
    before = wire.sent
    got, seconds, status = turn_on(page, base, wire)
    sent = wire.sent - before
    manifest = json.loads(page.evaluate("localStorage.getItem('paiju-offline-engine')"))["manifest"]
    print(f"offline: turned on: {sent:,} bytes on the wire ({sent / 1e6:.2f} MB; {against(sent / 1e6, GOAL_WIRE_MB, 'MB')}), "
          f"{got:,} bytes unpacked ({got / 1048576:.1f} MB; engine files {manifest['bytes']:,}, the rest the "
          f"{len(manifest['pages'])} kept pages)")
    print(f"offline: ready {seconds:.1f} s after the tap (download and one trial load; {against(seconds, GOAL_READY_S, 's')})")
    print(f"offline: the switch says: {status}")
    page.close()
    context.set_offline(True)
    colds = [cold_answer(context, base) for _ in range(repeat)]
    print(f"offline: first answer of a visit (tab opened with no network, settle sent at once; navigation → answer): "
          f"median {statistics.median(colds):.0f} ms ({against(statistics.median(colds), GOAL_FIRST_MS, 'ms')}); "
          f"each: {', '.join(f'{c:.0f}' for c in colds)}")
    page = context.new_page()
    page.goto(f"{base}/{SLUG}/settle")
    page.evaluate(FILL_AND_SEND, PAIRS)
    answer_ms(page)
    taps, warms = warm_answers(page, repeat)
    tap = statistics.median(taps)
    print(f"offline: answer, warm (engine loaded; tap → answer): median {tap:.0f} ms "
          f"({against(tap, GOAL_LATER_MS, 'ms')}: keep); each: {', '.join(f'{w:.0f}' for w in taps)}; the page's own count (send → answer): median "
          f"{statistics.median(warms):.0f} ms; each: {', '.join(f'{w:.0f}' for w in warms)}")
    switches = [switched_answer(page, base) for _ in range(repeat)]
    print(f"offline: answer after a tab switch (another tab, then back to settle, send; tap → answer): median "
          f"{statistics.median(switches):.0f} ms ({against(statistics.median(switches), GOAL_SWITCH_MS, 'ms')}); "
          f"each: {', '.join(f'{w:.0f}' for w in switches)}")
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    worker = page.evaluate("PaijuOfflineEngine.memory()")
    print(f"offline: memory: the page's JS heap {metrics['JSHeapUsedSize'] / 1048576:.1f} MB "
          f"(of {metrics['JSHeapTotalSize'] / 1048576:.1f}); the engine worker's WebAssembly memory "
          f"{worker['wasm'] / 1048576:.1f} MB, its JS heap "
          + (f"{worker['js'] / 1048576:.1f} MB" if worker.get("js") else "not reported"))
    steps = worker.get("timings") or {}
    if steps:
        compiled = "compiled once before and kept" if steps.get("compiledKept") else "compiled on import"
        if steps.get("snapshot"):
            print(f"offline: in the worker of that tab: Python's memory put back from the snapshot kept (the engine "
                  f"imported) at {steps['runtime']:.0f} ms, glue ready at {steps['engine']:.0f} ms "
                  f"(from the worker's start)")
        else:
            print(f"offline: in the worker of that tab: Pyodide started at {steps['runtime']:.0f} ms, scoring/ unpacked "
                  f"and imported ({compiled}) at {steps['engine']:.0f} ms (from the worker's start)")
    print(f"offline: Chromium's processes, resident: {rss_before:.0f} MB before turning offline mode on, "
          f"{chromium_rss_mb():.0f} MB with the engine loaded in one tab")
    context.close()
    return [goals.OFFLINE_WIRE.row(sent / 1e6), goals.OFFLINE_READY.row(seconds),
            goals.OFFLINE_SWITCH.row(statistics.median(switches), f"median of {repeat}"),
            goals.OFFLINE_FIRST.row(statistics.median(colds), f"median of {repeat}"),
            goals.OFFLINE_LATER.row(tap, f"median of {repeat}; the page's count {statistics.median(warms):.0f} ms")]


if __name__ == "__main__":
    sys.exit(main())
