"""The Chromium the browser tests drive (bench/chromium.py): no page of the browser's own interface is made for
a new phone, and every feature Playwright turns off stays off (Chromium reads only the last
``--disable-features``, so bench/chromium.py repeats Playwright's list beside its own)."""
from __future__ import annotations

import re
from pathlib import Path

import playwright
import pytest

from bench import chromium

pytestmark = pytest.mark.browser


def features_playwright_turns_off() -> set[str]:
    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    block = bundle.read_text(encoding="utf-8").split("disabledFeatures = [", 1)[1].split("].filter(Boolean)", 1)[0]
    return set(re.findall(r'^\s*"([^"]+)"', block, re.MULTILINE))


def test_every_feature_playwright_turns_off_stays_off_in_the_tests_chromium():
    turned_off = features_playwright_turns_off()
    assert "HttpsUpgrades" in turned_off  # the list was read
    assert turned_off <= set(chromium.PLAYWRIGHT_OFF), turned_off - set(chromium.PLAYWRIGHT_OFF)
    assert sum(arg.startswith("--disable-features=") for arg in chromium.ARGS) == 1


def test_a_new_phone_gets_a_page_and_no_page_of_the_browsers_own_interface(browser):
    context = browser.new_context()
    context.new_page().goto("data:text/html,<p>hi")
    session = browser.new_browser_cdp_session()
    targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    context.close()
    assert [t["url"] for t in targets if t["type"] == "page"] == ["data:text/html,<p>hi"]
    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
