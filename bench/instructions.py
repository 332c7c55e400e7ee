"""Instructions per request of each load endpoint, counted by valgrind (``python -m bench.instructions``).

The load run's throughput ratios move by ±0.05 from one run to the next on a shared 2-core machine;
an instruction count does not: the same code, input and environment give the same count whatever else
the machine is doing. Each endpoint is counted in a process of its own (the app built, every endpoint
answered 20 times, then ``N`` requests of that endpoint through the WSGI app, garbage collector off),
less a process that answers none: what ``N`` requests added, divided by ``N``. Prints, per endpoint,
instructions per request and the bare route's count over it (in-process, as ``--in-process`` of
``bench.load``, not through gunicorn). Needs valgrind; takes a few minutes (two processes at a time).

Then the same for the ledger: instructions per hand recorded at the end of a Q783 table of 1 and of 500
hands (``--ledger 1,500``; the issue's "recording hand 500 within 1.3× of hand 1", without the CPU
medians' noise), each a process building the table and recording 20 more, less one only building it.

Options: ``--requests N`` (default 200), ``--only NAME,…`` (endpoints whose name contains one),
``--ledger SIZES`` (empty: no ledger count).
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
LEDGER_RECORDS = 20  # hands recorded, per table length, by --ledger


def counted(name: str, requests: int, folder: str, mode: str = "--answer") -> int:
    """The instructions a process answering ``requests`` requests of endpoint ``name`` runs (0: start-up only);
    with ``mode="--record"``, ``name`` is a table length and the requests record hands at its end."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "SECRET_KEY": "bench-instructions", "PYTHONPATH": str(ROOT),
           "DATABASE_URL": f"sqlite:///{folder}/{abs(hash(name))}{mode}-{requests}.db"}
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
               "bench.instructions", mode, name, str(requests)]
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


def record(size: int, requests: int) -> None:
    """In the counted process: a Q783 table of ``size`` hands (as ``bench.ledger`` builds it), then
    ``requests`` more hands recorded at its end."""
    import gc

    from webapp import create_app

    from .ledger import LIMITS, Table

    app = create_app({"SECRET_KEY": "bench-instructions", "DATABASE_URL": os.environ["DATABASE_URL"],
                      "LEDGER_MAX_HANDS": size + requests + 1, **LIMITS})
    table = Table(app.test_client(), size)
    gc.collect()
    gc.freeze()
    gc.disable()
    for _ in range(requests):
        table.record()


def per_record(sizes: list[int], requests: int, folder: str, pool) -> dict[int, float]:
    """Instructions per recorded hand at the end of a table of each length: (a process that builds the table
    and records ``requests`` more − one that only builds it) / ``requests``."""
    runs = {size: (pool.submit(counted, str(size), requests, folder, "--record"),
                   pool.submit(counted, str(size), 0, folder, "--record")) for size in sizes}
    return {size: (more.result() - only.result()) / requests for size, (more, only) in runs.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--only", default="", help="comma-separated words; endpoints whose name contains one")
    parser.add_argument("--ledger", default="1,500", help="table lengths at which to count a ledger record "
                        "(comma-separated; empty: none)")
    parser.add_argument("--answer", nargs=2, help=argparse.SUPPRESS)  # the counted process
    parser.add_argument("--record", nargs=2, help=argparse.SUPPRESS)  # the counted process, for --ledger
    args = parser.parse_args(argv)
    if args.answer:
        answer(args.answer[0], int(args.answer[1]))
        return
    if args.record:
        record(int(args.record[0]), int(args.record[1]))
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
        sizes = [int(n) for n in args.ledger.split(",") if n.strip()]
        records = per_record(sizes, LEDGER_RECORDS, folder, pool) if sizes else {}
    bare = per_request[BARE.name]
    print(f"instructions per request (valgrind, in process, {args.requests} requests each, less start-up):")
    for name, count in per_request.items():
        print(f"  {name:<20} {count / 1e3:9.0f} k  {bare / count:4.2f}×bare")
    if records:
        first = records[min(records)]
        print(f"instructions per ledger record (SQLite, {LEDGER_RECORDS} hands recorded at the end of a Q783 table, "
              f"less building the table), and over the shortest table's:")
        for size, count in records.items():
            print(f"  table of {size:>4} hands  {count / 1e3:9.0f} k  {count / first:4.2f}×")


if __name__ == "__main__":
    main()
