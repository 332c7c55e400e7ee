"""Debian's Chromium as every browser test and bench launches it: headless, and without the pages of the
browser's own interface, which a test never sees.

Chromium 156 draws each new window's address-bar popup as a web page of its own (``chrome://omnibox-popup``), in
a renderer of its own, and preloads it. Headless, no one ever opens it, yet every new page of a test paid for it:
ten contexts cost 12.6 s of CPU with it and 5.1 s without it on the 2-core machine (``python -m bench.chromium``
prints the figure). The browser suite opens several hundred pages."""
from __future__ import annotations

import os
import sys
import time

CHROMIUM = "/usr/bin/chromium"

#: the features Playwright turns off (playwright-core's ``chromiumSwitches.ts``): Chromium keeps only the last
#: ``--disable-features`` it is given, so ours repeats them (tests/test_browser_launch.py checks the list
#: against the installed Playwright's)
PLAYWRIGHT_OFF = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints",
    "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
#: the browser interface's own pages, made and preloaded for every new window
INTERFACE_PAGES_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup", "PreloadTopChromeWebUI")

ARGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync",
        "--disable-features=" + ",".join(PLAYWRIGHT_OFF + INTERFACE_PAGES_OFF))


def launch(pw, *extra_args: str):
    """Debian's Chromium, headless; ``extra_args`` such as ``--host-resolver-rules=…`` for a browser of a
    test's own."""
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*ARGS, *extra_args])


def _cpu_seconds_of_children() -> float:
    """The CPU time of every process descended from this one (the Playwright driver, Chromium's processes)."""
    parents = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(pid)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))

    def descends(pid: int) -> bool:
        while pid in parents and pid > 1:
            pid = parents[pid][0]
            if pid == os.getpid():
                return True
        return False

    return sum(cpu for pid, (_, cpu) in parents.items() if descends(pid))


def main(argv=None) -> int:
    """The CPU Chromium spends on a new phone (context, page, one small page loaded), with and without the
    interface pages turned off."""
    from playwright.sync_api import sync_playwright

    count = int((argv or sys.argv[1:] or ["10"])[0])
    plain = ("--disable-features=" + ",".join(PLAYWRIGHT_OFF),)
    for label, args in (("interface pages on", plain), ("interface pages off (as the tests run)", ())):
        with sync_playwright() as pw:
            browser = launch(pw, *args)
            before, started = _cpu_seconds_of_children(), time.perf_counter()
            for _ in range(count):
                context = browser.new_context()
                context.new_page().goto("data:text/html,<p>hi")
                context.close()
            spent, wall = _cpu_seconds_of_children() - before, time.perf_counter() - started
            browser.close()
        print(f"{label}: {count} phones, Chromium CPU {spent:.2f} s ({spent / count * 1000:.0f} ms a phone), "
              f"wall {wall:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
