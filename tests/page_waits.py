"""Waiting in a browser page for something to become true, for the browser tests (tests/browser/, and the
HTTPS test in tests/web/)."""
from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError


def wait_until(page, expression: str, tries: int = 200):
    """Poll a JavaScript expression from the test side (page.evaluate is not subject to the page's CSP,
    which forbids the eval that Playwright's string wait_for_function may need)."""
    for _ in range(tries):
        try:
            if page.evaluate(expression):
                return
        except PlaywrightError as exc:  # the page navigated meanwhile (a held hand sent, the page reloaded)
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {expression}")
