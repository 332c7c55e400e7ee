"""Draw the PNG icons from static/icons/icon.svg with the test extras' Chromium (no image library needed).

    .venv/bin/python tools/make_icons.py
"""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
SIZES = (64, 192, 512)
CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<style>html,body{{margin:0;background:transparent}}"
                             f"svg{{width:{size}px;height:{size}px;display:block}}</style>{svg}")
            page.screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
