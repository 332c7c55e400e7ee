"""Throughput and latency under load, against a bare Flask route in the same server (``python -m bench.load``).

Starts gunicorn with the project's ``gunicorn.conf.py`` (2 workers, bound to a free loopback port, the
ledger's SQLite in a temporary directory) serving the app with one extra bare Flask route, ``/bare``,
dispatched in front of it. Then, for 1, 8 and 32 clients, each endpoint is driven for a fixed time by
a loopback-only load generator written here (a process per client, raw sockets: one request at a time per
client, a new connection whenever the server closes one, as it does with ``keepalive = 0``). Prints, per
endpoint: requests/s, the ratio to the bare route at the same number of clients, p50/p99/p99.9
latency and how many requests they were taken over, the CPU gunicorn's processes spent per request
(from /proc: steadier than requests/s when other work shares the cores) with the bare route's as a
ratio, and any answer that was not a 200.

Options: ``--seconds S`` per endpoint (default 3, in ``--rounds`` interleaved slices, default 6),
``--clients 1,8,32``, ``--only NAME,…``; ``--in-process`` instead calls the WSGI app directly (no server)
and prints each endpoint's CPU per request and its ratio to the bare route's: the app's own share of the
work, steadier than a load run on a shared machine; and p50/p99/p99.9/worst wall time of requests in a row,
with the garbage collector on, where no server queue or load generator adds to the tail.
The machine's cores are shared with the server: the figures are noisy; compare ratios within one run.
A p99.9 is set by the slowest thousandth of the requests: at one client a 10 s run puts it on its five
slowest, which one hiccup of the machine moves; ``--seconds 60`` or more gives a steadier one.
No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import multiprocessing
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE_PATH = "/bare"


def served_app():
    """The WSGI app gunicorn serves: Paiju, with ``/bare`` answered by a bare Flask app before any of
    Paiju's own machinery runs (same server, same workers, same settings)."""
    from flask import Flask, request

    from webapp import create_app

    paiju = create_app()
    bare = Flask("bare")

    @bare.get(BARE_PATH)
    def hello():
        return {"ok": True}

    @bare.post(BARE_PATH)
    def echo():  # what a POST with a JSON body costs by itself: parse it, answer it back
        return {"echo": request.get_json()}

    paiju_wsgi = paiju.wsgi_app

    def dispatch(environ, start_response):
        target = bare if environ.get("PATH_INFO") == BARE_PATH else paiju_wsgi
        return target(environ, start_response)

    paiju.wsgi_app = dispatch
    return paiju


# -- what is requested ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    body: dict | None = None

    def request_bytes(self, port: int) -> bytes:
        data = json.dumps(self.body, ensure_ascii=False).encode() if self.body is not None else b""
        head = [f"{self.method} {self.path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: */*"]
        if self.body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        return ("\r\n".join(head) + "\r\n\r\n").encode() + data


P52 = {"preset": "paodekuai52"}
BARE = Endpoint("bare Flask route", "GET", BARE_PATH)
ENDPOINTS = [
    # the bare app answering the settle request's body back: how much of settle's cost is being a POST
    Endpoint("bare POST (echo)", "POST", BARE_PATH, {"winner": 0, "cards_left": [0, 5, 13, 10], "rules": P52}),
    Endpoint("POST settle (API)", "POST", "/api/v1/paodekuai/settle",
             {"winner": 0, "cards_left": [0, 5, 13, 10], "rules": P52}),
    Endpoint("POST check (API)", "POST", "/api/v1/paodekuai/check",
             {"play": "♠8 ♥8 ♣9 ♦9", "previous": "♠6 ♥6 ♣7 ♦7", "rules": P52}),
    # a 13-card hand answering a pair: a typical hint
    Endpoint("POST hint (API)", "POST", "/api/v1/paodekuai/hint",
             {"hand": "♠3 ♥4 ♣5 ♦5 ♠7 ♥8 ♣9 ♦9 ♠J ♥J ♣K ♦K ♠2", "previous": "♠6 ♥6", "rules": P52}),
    Endpoint("GET /api/v1/games", "GET", "/api/v1/games"),
    Endpoint("GET settle page", "GET", "/paodekuai/settle"),
]


# -- the load generator -------------------------------------------------------------------------------------------


class Client:
    """One client: a request, its whole answer, the next request, until the deadline."""

    def __init__(self, port: int, request: bytes, deadline: float):
        self.port, self.request, self.deadline = port, request, deadline
        self.latencies: list[int] = []  # ns
        self.bad: dict[int, int] = {}
        self.sock: socket.socket | None = None
        self.buffer = b""

    def run(self) -> None:
        while time.perf_counter() < self.deadline:
            start = time.perf_counter_ns()
            try:
                status = self.exchange()
            except OSError:
                self.close()
                status = 0
            self.latencies.append(time.perf_counter_ns() - start)
            if status != 200:
                self.bad[status] = self.bad.get(status, 0) + 1
        self.close()

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def exchange(self) -> int:
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(self.request)
        head = self.read_until(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        headers = dict(line.split(b":", 1) for line in lines[1:] if b":" in line)
        headers = {k.strip().lower(): v.strip().lower() for k, v in headers.items()}
        self.read_exactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection") == b"close":
            self.close()
        return status

    def read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            self.fill()
        head, self.buffer = self.buffer.split(marker, 1)
        return head

    def read_exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.fill()
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed mid-answer")
        self.buffer += chunk


@dataclass
class Result:
    requests: int
    seconds: float
    latencies: list[int]
    bad: dict[int, int]
    server_cpu: float = 0.0  # seconds of CPU the server's processes spent meanwhile

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def cpu_ms(self) -> float:
        """The server's CPU per request, in ms: steadier than requests/s when other work shares the cores."""
        return self.server_cpu / max(self.requests, 1) * 1000

    def percentile(self, q: float) -> float:
        return percentile(self.latencies, q)


def percentile(ordered: list[int], q: float) -> float:
    """The q-th quantile, in ms, of latencies in ns sorted ascending (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1e6


def server_cpu(master: int) -> float:
    """CPU seconds (user + system) of gunicorn's master, its live workers and the workers it has reaped."""
    ticks = os.sysconf("SC_CLK_TCK")

    def fields(pid: int) -> list[str]:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # a worker that just exited: the master's reaped total has it soon
            return ["0"] * 20

    own = fields(master)
    total = sum(int(own[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    total += sum(int(f[11]) + int(f[12]) for f in map(fields, map(int, children)))
    return total / ticks


def worker_memory(master: int) -> str:
    """Each worker's resident memory, and the part of it no other process shares (MB, /proc smaps_rollup)."""
    out = []
    for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        sizes = {}
        for row in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
            name, value = row.split(":", 1)
            sizes[name] = int(value.split()[0]) / 1024
        private = sizes.get("Private_Clean", 0) + sizes.get("Private_Dirty", 0)
        out.append(f"RSS {sizes.get('Rss', 0):.0f} MB, PSS {sizes.get('Pss', 0):.0f} MB, private {private:.0f} MB")
    return "; ".join(out)


def drive(port: int, endpoint: Endpoint, clients: int, seconds: float, master: int | None = None) -> Result:
    """``clients`` clients on ``endpoint`` for ``seconds``, each in a process of its own (forked): a client's
    latency is then the server's and the machine's, never time spent waiting for its own threads' lock."""
    request = endpoint.request_bytes(port)
    forks = multiprocessing.get_context("fork")
    go = forks.Event()
    pipes, procs = [], []
    for _ in range(clients):
        mine, theirs = forks.Pipe(duplex=False)
        proc = forks.Process(target=_client, args=(port, request, seconds, go, theirs), daemon=True)
        proc.start()
        theirs.close()
        pipes.append(mine)
        procs.append(proc)
    cpu_before = server_cpu(master) if master else 0.0
    start = time.perf_counter()
    go.set()
    answers = [pipe.recv() for pipe in pipes]
    elapsed = time.perf_counter() - start
    cpu = server_cpu(master) - cpu_before if master else 0.0
    for proc in procs:
        proc.join(60)
    latencies = sorted(ns for lats, _bad in answers for ns in lats)
    bad: dict[int, int] = {}
    for _lats, client_bad in answers:
        for status, n in client_bad.items():
            bad[status] = bad.get(status, 0) + n
    return Result(len(latencies), elapsed, latencies, bad, cpu)


def _client(port: int, request: bytes, seconds: float, go, pipe) -> None:
    """One client process: wait for the start, drive for ``seconds``, send back what it saw."""
    go.wait()
    client = Client(port, request, time.perf_counter() + seconds)
    try:
        client.run()
    finally:
        pipe.send((client.latencies, client.bad))
        pipe.close()


# -- the server ----------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, folder: str, app: str = "bench.load:served_app()") -> subprocess.Popen:
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2", "SECRET_KEY": "bench-load",
           "DATABASE_URL": f"sqlite:///{folder}/load.db", "PYTHONPATH": str(ROOT)}
    log = open(Path(folder) / "gunicorn.log", "w")
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                             "--no-control-socket", app],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_until_answering(port: int, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            if drive(port, BARE, 1, 0.05).requests and not drive(port, BARE, 1, 0.05).bad:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(30)


# -- the run ---------------------------------------------------------------------------------------------------------


def line(name: str, result: Result, bare: Result) -> str:
    bad = f"  non-200: {result.bad}" if result.bad else ""
    return (f"  {name:<20} {result.rate:7.0f} req/s {result.rate / bare.rate:5.2f}×bare  "
            f"p50 {result.percentile(0.5):6.2f}  p99 {result.percentile(0.99):6.2f}  "
            f"p99.9 {result.percentile(0.999):6.2f} ms of {len(result.latencies):6d}  "
            f"server CPU {result.cpu_ms:5.2f} ms/req "
            f"({bare.cpu_ms / result.cpu_ms:4.2f}×bare){bad}")


def warm_up(port: int, endpoints: list[Endpoint]) -> None:
    """Every worker has answered every endpoint (first-use costs such as migrations are not measured)."""
    for endpoint in [BARE, *endpoints]:
        result = drive(port, endpoint, 4, 0.5)
        if result.bad:
            raise SystemExit(f"{endpoint.name}: answered {result.bad}")


def measure(port: int, master: int, endpoints: list[Endpoint], clients: int, seconds: float,
            rounds: int) -> dict[str, Result]:
    """Each endpoint and the bare route in turn, ``rounds`` short slices each, interleaved: a change in what
    else the machine is doing falls on all of them alike."""
    totals: dict[str, Result] = {}
    for _ in range(rounds):
        for endpoint in [BARE, *endpoints]:
            part = drive(port, endpoint, clients, seconds / rounds, master)
            total = totals.setdefault(endpoint.name, Result(0, 0.0, [], {}))
            total.requests += part.requests
            total.seconds += part.seconds
            total.server_cpu += part.server_cpu
            total.latencies += part.latencies
            for status, n in part.bad.items():
                total.bad[status] = total.bad.get(status, 0) + n
    for total in totals.values():
        total.latencies.sort()
    return totals


def run(seconds: float, client_counts: list[int], endpoints: list[Endpoint], rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="paiju-load-") as folder:
        port = free_port()
        proc = start_server(port, folder)
        try:
            wait_until_answering(port, proc)
            warm_up(port, endpoints)
            print(f"gunicorn, 2 workers (gunicorn.conf.py), 127.0.0.1:{port}; {seconds:g} s per endpoint in {rounds} "
                  f"interleaved slices; latency in ms; {os.cpu_count()} cores shared with the load generator (noisy); "
                  f"'server CPU' is what gunicorn's processes spent per request, and bare's over it")
            for clients in client_counts:
                results = measure(port, proc.pid, endpoints, clients, seconds, rounds)
                bare = results[BARE.name]
                print(f"{clients} client{'s' if clients > 1 else ''}:")
                for name, result in results.items():
                    print(line(name, result, bare))
                sys.stdout.flush()
            print(f"workers: {worker_memory(proc.pid)}")
        finally:
            stop_server(proc)


# -- in process: the app's own CPU, without a server ----------------------------------------------------------------


def wsgi_environ(endpoint: Endpoint) -> dict:
    """The WSGI environ of ``endpoint``'s request, as gunicorn would hand it to the app."""
    import io

    data = json.dumps(endpoint.body, ensure_ascii=False).encode() if endpoint.body is not None else b""
    environ = {"REQUEST_METHOD": endpoint.method, "PATH_INFO": endpoint.path, "QUERY_STRING": "",
               "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
               "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000", "HTTP_ACCEPT": "*/*",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr,
               "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False}
    if endpoint.body is not None:
        environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(data)))
    return environ


def in_process(endpoints: list[Endpoint], requests: int = 300, rounds: int = 7) -> None:
    """Each endpoint's CPU per request through the WSGI app itself (no server, no sockets, one thread): the
    app's own share of the work, steadier than a load run. The best of ``rounds`` interleaved batches."""
    import gc

    with tempfile.TemporaryDirectory(prefix="paiju-load-") as folder:
        os.environ.setdefault("SECRET_KEY", "bench-load")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/load.db"
        app = served_app()
        gc.collect()
        gc.freeze()  # as gunicorn.conf.py does after start-up

        def one(endpoint: Endpoint) -> None:
            answer = app(wsgi_environ(endpoint), lambda status, headers, exc_info=None: None)
            for _chunk in answer:
                pass
            getattr(answer, "close", lambda: None)()

        walls: dict[str, list[int]] = {}

        def batch(endpoint: Endpoint, wall: list[int]) -> float:
            """CPU per request (µs) of ``requests`` requests in a row, each one's wall time (ns) put in ``wall``."""
            start = time.process_time()
            for _ in range(requests):
                began = time.perf_counter_ns()
                one(endpoint)
                wall.append(time.perf_counter_ns() - began)
            return (time.process_time() - start) / requests * 1e6

        everything = [BARE, *endpoints]
        for endpoint in everything:
            batch(endpoint, [])  # first-use costs (kept pages, caches) out of the way
        best = {e.name: batch(e, walls.setdefault(e.name, [])) for e in everything}
        for _ in range(rounds - 1):
            for endpoint in everything:
                best[endpoint.name] = min(best[endpoint.name], batch(endpoint, walls[endpoint.name]))
    bare = best[BARE.name]
    print(f"in process (the WSGI app called directly, one thread, garbage collector on): CPU per request, best of "
          f"{rounds} interleaved batches of {requests}, and the wall time of those {rounds * requests} requests, "
          f"where a collector's pause would show in p99.9 and the worst:")
    for endpoint in everything:
        cpu, wall = best[endpoint.name], sorted(walls[endpoint.name])
        print(f"  {endpoint.name:<20} {cpu:7.1f} µs  {bare / cpu:4.2f}×bare   p50 {percentile(wall, 0.5):5.2f}  "
              f"p99 {percentile(wall, 0.99):5.2f}  p99.9 {percentile(wall, 0.999):5.2f}  worst {wall[-1] / 1e6:5.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=6, help="interleaved slices per endpoint")
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--only", default="", help="comma-separated words; endpoints whose name contains one")
    parser.add_argument("--in-process", action="store_true",
                        help="only the app's own CPU per request, calling it directly (no server)")
    args = parser.parse_args(argv)
    words = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    endpoints = [e for e in ENDPOINTS if not words or any(w in e.name.lower() for w in words)]
    if args.in_process:
        in_process(endpoints)
    else:
        run(args.seconds, [int(c) for c in args.clients.split(",")], endpoints, args.rounds)


if __name__ == "__main__":
    main()
