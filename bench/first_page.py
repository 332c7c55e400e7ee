"""How long a fresh clone's ``make run`` takes to answer its first page (issue 40 item 5):
``python -m bench.first_page [--rev REV …] [--cache cold|warm|both]``.

For each revision (default: this checkout's HEAD): clone this repository into a temporary folder, check the
revision out, start ``PORT=<free port> make run`` there in its own process group, poll ``GET /`` until it answers
200, print the seconds, then stop the whole process group (flask, and the offline engine's fetch that ``make run``
starts beside it) and delete the clone. ``cold``: pip's cache is a new empty folder (PIP_CACHE_DIR); ``warm``: the
cache the cold run of the same revision filled (both: cold, then warm). Each line ``make``, pip or the app prints
is timed from the start, so the run says where its time went: creating the venv (until pip's first command is
echoed), each pip command's resolving and downloading (until it says it installs) and installing, the app's start
(from its banner to the first 200); ``--lines`` prints every line with its time.

Runs ``make run`` only in the throwaway clone, never in this checkout. Needs the network (or pip's configured
indexes) like a newcomer's first ``make run``. No assertion: figures to read.
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench.load import free_port

ROOT = Path(__file__).resolve().parent.parent
IGNORED_INDEX = re.compile(r"WARNING: Location 'file:.*' is ignored")
#: a fresh clone's first page should come well within this; past it the run is reported as never answering
GIVE_UP_S = 600


def timed_lines(stream, start: float, lines: list) -> None:
    for line in stream:
        lines.append((time.monotonic() - start, line.rstrip()))


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


def first_page(clone: Path, cache: Path) -> tuple[float | None, list]:
    """Seconds from ``make run`` to the first 200 of ``/`` (None: never), and the timed lines it printed (the
    first: the machine's load average as it starts, for a shared machine's figures)."""
    port = free_port()
    # as a newcomer's shell: no PYTHONPATH or venv of this checkout, pip checking for a newer pip as it does
    # unless told not to
    left_out = ("PYTHONPATH", "VIRTUAL_ENV", "MAKEFLAGS", "MAKELEVEL", "PIP_DISABLE_PIP_VERSION_CHECK")
    env = {k: v for k, v in os.environ.items() if k not in left_out}
    # PIP_VERBOSE=1 against the Makefile's --quiet: pip's ordinary lines (Collecting…, Installing collected
    # packages…), which time its steps
    env.update(PORT=str(port), PIP_CACHE_DIR=str(cache), PYTHONUNBUFFERED="1", PIP_VERBOSE="1")
    start = time.monotonic()
    proc = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    lines: list = [(0.0, "load average {:.1f} {:.1f} {:.1f}, {} cores".format(*os.getloadavg(), os.cpu_count()))]
    reader = threading.Thread(target=timed_lines, args=(proc.stdout, start, lines), daemon=True)
    reader.start()
    seconds = None
    try:
        while time.monotonic() - start < GIVE_UP_S and proc.poll() is None:
            if answers(port):
                seconds = time.monotonic() - start
                break
            time.sleep(0.1)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        reader.join(timeout=5)
    return seconds, lines


def clone_at(rev: str, folder: Path) -> Path:
    clone = folder / "paiju"
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", rev], check=True)
    return clone


def phases(seconds: float, lines: list) -> list[tuple[str, float]]:
    """Where the time went: from one line that starts a step to the next (the venv until pip's first command is
    echoed; within a pip command, resolving and downloading until it says it installs; the app from its banner)."""
    starts = [("creating the venv", 0.0)]
    for at, line in lines[1:]:
        if at > seconds:
            break
        if " -m pip install" in line:
            starts.append((f"pip install {line.split(' -m pip install ', 1)[1]}: resolve, download", at))
        elif line.startswith("Installing collected packages"):
            starts.append(("    install (unpack, byte-compile)", at))
        elif line.startswith("Paiju on "):
            starts.append(("app start, to its first page", at))
    ends = [at for _label, at in starts[1:]] + [seconds]
    return [(label, end - at) for (label, at), end in zip(starts, ends)]


def report(rev: str, kind: str, seconds: float | None, lines: list, every_line: bool) -> None:
    shown = f"{seconds:.1f} s" if seconds is not None else f"no answer within {GIVE_UP_S} s"
    print(f"{rev} {kind} pip cache: first page after {shown} ({lines[0][1]})")
    for label, took in phases(seconds, lines) if seconds is not None else []:
        print(f"    {took:6.1f} s  {label}")
    if every_line or seconds is None:
        ignored = 0
        for at, line in lines[1:]:
            if IGNORED_INDEX.match(line):  # one a package on a machine whose pip also reads local indexes
                ignored += 1
                continue
            if ignored:
                print(f"    {'':9}  ({ignored} warnings of pip's about an index folder it has no entry in)")
                ignored = 0
            print(f"    +{at:6.1f} s  {line[:150]}")
    sys.stdout.flush()


def measure(rev: str, kinds: list[str], every_line: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="paiju-first-page-") as tmp:
        cache = Path(tmp) / "pip-cache"
        cache.mkdir()
        for kind in kinds:
            with tempfile.TemporaryDirectory(prefix="clone-", dir=tmp) as where:
                clone = clone_at(rev, Path(where))
                if kind == "warm" and not any(cache.iterdir()):  # warm alone: fill the cache once first
                    first_page(clone_at(rev, Path(tempfile.mkdtemp(dir=tmp))), cache)
                seconds, lines = first_page(clone, cache)
                report(rev, kind, seconds, lines, every_line)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", action="append", help="a commit to clone (repeatable; default HEAD)")
    parser.add_argument("--cache", choices=("cold", "warm", "both"), default="both")
    parser.add_argument("--lines", action="store_true", help="print every line make printed, with its time")
    args = parser.parse_args(argv)
    kinds = ["cold", "warm"] if args.cache == "both" else [args.cache]
    for rev in args.rev or ["HEAD"]:
        short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                               capture_output=True, text=True).stdout.strip()
        measure(short, kinds, args.lines)


if __name__ == "__main__":
    main()
