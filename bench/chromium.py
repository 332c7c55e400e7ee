"""Debian's Chromium as every browser test and bench launches it: headless, and without the pages of the
browser's own interface, which a test never sees.

Chromium 156 draws each new window's address-bar popup as a web page of its own (``chrome://omnibox-popup``), in
a renderer of its own, and preloads it. Headless, no one ever opens it, yet every new page of a test paid for it:
the 38 tests of tests/browser/test_browser_one_screen.py took 65–73 s and about 90 s of Chromium's CPU with it,
47 s and 50 s without it, on the 2-core machine (``python -m bench.chromium`` prints a phone's share)."""
from __future__ import annotations

import os
import sys
import threading
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


def _descendants_cpu() -> dict[int, float]:
    """The CPU seconds of each live process descended from this one (the Playwright driver, Chromium's)."""
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

    return {pid: cpu for pid, (_, cpu) in parents.items() if descends(pid)}


class ChildrenCpu:
    """The CPU spent by this process's descendants while it is open, closed processes included: a renderer
    lives only as long as its page, so ``/proc`` is read every 50 ms and each process's last figure kept."""

    def __enter__(self):
        self.seen, self.before, self.done = {}, _descendants_cpu(), threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()
        return self

    def _watch(self):
        while not self.done.wait(0.05):
            self.seen.update(_descendants_cpu())

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        self.seen.update(_descendants_cpu())
        self.seconds = sum(cpu - self.before.get(pid, 0.0) for pid, cpu in self.seen.items())


#: the pages a bench phone opens, one after the other (a browser test opens two to five)
NAVIGATIONS = 3


def main(argv=None) -> int:
    """The CPU Chromium spends on a new phone (its context and page, three small pages opened in turn), with and
    without the interface pages turned off."""
    from playwright.sync_api import sync_playwright

    count = int((argv or sys.argv[1:] or ["10"])[0])
    plain = ("--disable-features=" + ",".join(PLAYWRIGHT_OFF),)
    for label, args in (("interface pages on", plain), ("interface pages off (as the tests run)", ())):
        with sync_playwright() as pw:
            browser = launch(pw, *args)
            started = time.perf_counter()
            with ChildrenCpu() as cpu:
                for _ in range(count):
                    context = browser.new_context()
                    page = context.new_page()
                    for n in range(NAVIGATIONS):
                        page.goto(f"data:text/html,<p>page {n}")
                    context.close()
            spent, wall = cpu.seconds, time.perf_counter() - started
            browser.close()
        print(f"{label}: {count} phones, Chromium CPU {spent:.2f} s ({spent / count * 1000:.0f} ms a phone), "
              f"wall {wall:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
