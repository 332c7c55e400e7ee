"""Instructions per request of each load endpoint, counted by valgrind (``python -m bench.instructions``).

The load run's throughput ratios move by ±0.05 from one run to the next on a shared 2-core machine;
an instruction count does not: the same code, input and environment give the same count whatever else
the machine is doing. Each endpoint is counted in a process of its own (the app built, every endpoint
answered 20 times, then ``N`` requests of that endpoint through the WSGI app, garbage collector off),
less a process that answers none: what ``N`` requests added, divided by ``N``. Prints, per endpoint,
instructions per request and the bare route's count over it (in-process, as ``--in-process`` of
``bench.load``, not through gunicorn). Needs valgrind; takes a few minutes (two processes at a time).

Options: ``--requests N`` (default 200), ``--only NAME,…`` (endpoints whose name contains one).
No assertion: figures to compare before and after a change.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def counted(name: str, requests: int, folder: str) -> int:
    """The instructions a process answering ``requests`` requests of endpoint ``name`` runs (0: start-up only)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "SECRET_KEY": "bench-instructions", "PYTHONPATH": str(ROOT),
           "DATABASE_URL": f"sqlite:///{folder}/{abs(hash(name))}-{requests}.db"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
               "bench.instructions", "--answer", name, str(requests)]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return int(COLLECTED.search(run.stderr).group(1))


def answer(name: str, requests: int) -> None:
    """In the counted process: build the app, answer every endpoint, then ``requests`` of ``name``."""
    import gc

    from .load import BARE, ENDPOINTS, served_app, wsgi_environ

    app = served_app()
    gc.collect()
    gc.freeze()  # as gunicorn.conf.py does after start-up
    gc.disable()  # a collection falls where it falls: off, the count is the same each run

    def once(endpoint) -> None:
        body = app(wsgi_environ(endpoint), lambda status, headers, exc_info=None: None)
        for _chunk in body:
            pass
        body.close()

    everything = [BARE, *ENDPOINTS]
    for endpoint in everything:
        for _ in range(20):
            once(endpoint)
    for endpoint in everything:
        if endpoint.name == name:
            for _ in range(requests):
                once(endpoint)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--only", default="", help="comma-separated words; endpoints whose name contains one")
    parser.add_argument("--answer", nargs=2, help=argparse.SUPPRESS)  # the counted process
    args = parser.parse_args(argv)
    if args.answer:
        answer(args.answer[0], int(args.answer[1]))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("bench.instructions needs valgrind (Debian: apt-get install valgrind)")
    from .load import BARE, ENDPOINTS

    words = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    endpoints = [BARE] + [e for e in ENDPOINTS if not words or any(w in e.name.lower() for w in words)]
    with tempfile.TemporaryDirectory(prefix="paiju-instructions-") as folder, ThreadPoolExecutor(2) as pool:
        start_up = pool.submit(counted, BARE.name, 0, folder)
        totals = {e.name: pool.submit(counted, e.name, args.requests, folder) for e in endpoints}
        base = start_up.result()
        per_request = {name: (total.result() - base) / args.requests for name, total in totals.items()}
    bare = per_request[BARE.name]
    print(f"instructions per request (valgrind, in process, {args.requests} requests each, less start-up):")
    for name, count in per_request.items():
        print(f"  {name:<20} {count / 1e3:9.0f} k  {bare / count:4.2f}×bare")


if __name__ == "__main__":
    main()
