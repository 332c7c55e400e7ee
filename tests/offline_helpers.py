"""A phone in offline mode (issue 29), for the browser tests that drive it (tests/browser/, and the HTTPS test in
tests/web/): turning the 离线也能算 switch on and waiting for the engine, opening a game's tab set to an input's
house rules, entering the input with no signal and reading the answer the phone shows."""
from __future__ import annotations

import page_waits
from offline_forms import form_pairs

from scoring.registry import get_game

READY = "已开启"
MARK, MARK_EN = "算于本机（离线）", "Worked out on this phone (offline)"
#: how long an offline answer may take to come (a cold Pyodide start on a busy two-core machine)
ANSWER_WAIT_MS = 120_000


def wait_until(page, expression: str, tries: int = 2400):
    page_waits.wait_until(page, expression, tries)


#: true once the engine's worker has kept the snapshot of Python's memory (static/offline-engine-worker.js)
SNAPSHOT_KEPT = ("caches.open('paiju-engine').then(c => c.keys())"
                 ".then(keys => keys.some(k => k.url.includes('&snapshot=')))")


def turn_on_offline_mode(page, base):
    """The switch on the home page at ``base`` turned on, once the service worker controls the page; the words
    the switch shows when the engine has loaded (and its memory snapshot is kept) or failed to."""
    page.goto(base + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    page.check("#offline-engine input[type=checkbox]")
    wait_until(page, "!document.querySelector('#offline-engine input').disabled")
    status = page.inner_text("#offline-engine [data-status]")
    if status.startswith(READY):  # the worker keeps the snapshot of Python's memory just after: each page uses it
        wait_until(page, SNAPSHOT_KEPT)
    return status


CLEAR = """() => { const form = document.querySelector('#panel form');
  for (const box of form.querySelectorAll('input, select, textarea')) {
    if (box.type === 'hidden' || box.matches('select[data-refresh]')) continue;  // not a player's to type
    if (box.type === 'radio') box.checked = box.value === '';
    else if (box.type === 'checkbox') box.checked = false;
    else if (box.tagName === 'SELECT') box.selectedIndex = 0;
    else box.value = '';
  } }"""

#: the house rules (their selects and number boxes) and the selects the server redraws the form for (Q783's
#: number of players): set, then one redraw, which shows the fields those rules use (bomb_points > 0: the bombs)
SET_REDRAWN = """(pairs) => { const form = document.querySelector('#panel form');
  const given = Object.fromEntries(pairs);
  for (const box of form.querySelectorAll('select[data-refresh], input[name^="rules-"]')) {
    if (box.name in given) box.value = given[box.name];
    else if (box.name.startsWith('rules-')) box.value = '';
  }
  window.oldPanel = document.querySelector('#panel');
  form.querySelector('[name="rules-preset"]').dispatchEvent(new Event('change', {bubbles: true})); }"""

FILL = """(pairs) => { const form = document.querySelector('#panel form');
  for (const [name, value] of pairs) {
    const boxes = [...form.querySelectorAll(`[name="${name}"]`)];
    if (boxes.length && boxes[0].matches('select[data-refresh]')) continue;
    const box = boxes.find(b => b.type !== 'radio' || b.value === value);
    if (!box) throw new Error(`no box for ${name}=${value}`);
    if (box.type === 'radio' || box.type === 'checkbox') box.checked = true; else box.value = value;
    box.dispatchEvent(new Event('input', {bubbles: true}));
    box.dispatchEvent(new Event('change', {bubbles: true}));
  } }"""


def go_to(page, url):
    """The page at ``url``: by its link where it is one of the open game's tabs (no page load: the engine the tab
    started stays, issue 42), else opened."""
    path = "/" + url.split("/", 3)[3]
    link = page.locator(f'.game-tabs a.tab[href="{path}"]')
    if link.count():
        link.click()
        wait_until(page, f"!!document.querySelector('.game-tabs a.tab.on[href=\"{path}\"]') && "
                         "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")  # the new page's forms work
    else:
        page.goto(url)


def open_tab(page, context, base, slug, tab, pairs):
    """The tab, online, its form empty and set to the house rules (and seats) of these pairs: the server
    redraws it for them."""
    context.set_offline(False)
    url = f"{base}/{slug}/{tab}"
    if page.url != url:
        go_to(page, url)
    page.evaluate(CLEAR)
    page.evaluate(SET_REDRAWN, [list(p) for p in pairs])
    wait_until(page, "document.querySelector('#panel') !== window.oldPanel && !document.querySelector('.htmx-request')")


def answer_offline(page, context, base, slug, action, payload, mark=MARK):
    """Enter ``payload`` in the ``action`` tab's form with the network off; the result box the page shows."""
    pairs = form_pairs(get_game(slug), action, payload)
    if "rules-preset" not in dict(pairs):
        pairs.insert(0, ("rules-preset", get_game(slug).ruleset.default_preset))
    open_tab(page, context, base, slug, action, pairs)
    context.set_offline(True)
    page.evaluate(FILL, [list(p) for p in pairs])
    page.locator("#panel form button.primary").click()
    result = page.locator("#result[data-offline]")
    result.wait_for(timeout=ANSWER_WAIT_MS)
    assert result.locator(".offline-mark").inner_text() == mark
    return result


def texts(locator):
    return [t.strip() for t in locator.all_inner_texts()]


def shown_deltas(page) -> list[int]:
    """The deltas of the offline answer the page shows, by seat."""
    shown = texts(page.locator("#result[data-offline] table.deltas tbody td:nth-child(2)"))
    return [int(t.replace("−", "-")) for t in shown]
