"""Slow clients against the production server (``python -m bench.slowloris``): does anyone else get answered?

Starts `make serve`'s command (gunicorn with ``gunicorn.conf.py``, 2 workers, a free loopback port, the
ledger's SQLite in a temporary directory), or takes a server already listening with ``--port``. Opens
``--connections`` connections to it (default 1,000), each sending a request a little at a time: its headers
one short line every ``--interval`` seconds (``--mode headers``), or its headers whole and then a declared
1,000-byte JSON body one byte at a time (``--mode body``). A connection the server closes (its read timeout)
is opened again, as an attacker would. Meanwhile another client asks for ``GET /api/v1/games`` and posts a
settle request, one after the other, each with a 10 s timeout. Prints, per mode: how many slow connections
were held open (at the end, and the fewest seen), how many the server closed, how many ordinary requests
were answered out of how many asked, and their p50 and worst latency.

Loopback only; every loop is bounded by ``--seconds`` and by the number of connections. No assertion:
figures to read (tests/test_slow_clients.py asserts that ordinary requests are answered).
"""
from __future__ import annotations

import argparse
import http.client
import json
import resource
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field

from bench.load import free_port, start_server, stop_server

SETTLE = json.dumps({"winner": 0, "cards_left": [0, 5, 13, 10]}).encode()
BODY_LENGTH = 1000


def slow_start(mode: str, port: int) -> bytes:
    """What a slow connection sends at once: a request's first line, or its whole head before its body."""
    if mode == "headers":
        return f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
    return (f"POST /api/v1/paodekuai/settle HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {BODY_LENGTH}\r\n\r\n").encode()


def slow_piece(mode: str) -> bytes:
    """What a slow connection sends at each tick: one more header line, or one more byte of its body."""
    return b"X-Trickle: 1\r\n" if mode == "headers" else b" "


@dataclass
class SlowClients:
    """``count`` connections trickling requests; one the server closes is opened again."""
    port: int
    mode: str
    count: int
    socks: list = field(default_factory=list)
    closed_by_server: int = 0
    fewest_held: int | None = None

    def open_one(self) -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
            sock.sendall(slow_start(self.mode, self.port))
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    def fill(self, deadline: float) -> None:
        while len(self.socks) < self.count and time.monotonic() < deadline:
            sock = self.open_one()
            if sock is not None:
                self.socks.append(sock)

    def tick(self) -> None:
        """Send each connection its next piece; count and replace those the server has closed."""
        piece, alive = slow_piece(self.mode), []
        for sock in self.socks:
            if self.server_closed(sock):
                sock.close()
                self.closed_by_server += 1
                continue
            try:
                sock.send(piece)
                alive.append(sock)
            except OSError:
                sock.close()
                self.closed_by_server += 1
        self.socks = alive

    def count_held(self) -> None:
        held = len(self.socks)
        self.fewest_held = held if self.fewest_held is None else min(self.fewest_held, held)

    @staticmethod
    def server_closed(sock: socket.socket) -> bool:
        try:
            sock.recv(4096)  # an answer (408) or the end of the stream: either way the server is done with it
        except BlockingIOError:
            return False
        except OSError:
            pass
        return True

    def close(self) -> None:
        for sock in self.socks:
            sock.close()
        self.socks = []


def ordinary_requests(port: int, deadline: float, latencies: list[float], failures: list[str]) -> None:
    """One client asking, one request after the other, until the deadline."""
    asks = [("GET", "/api/v1/games", None), ("POST", "/api/v1/paodekuai/settle", SETTLE)]
    n = 0
    while time.monotonic() < deadline:
        method, path, body = asks[n % len(asks)]
        n += 1
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
            resp = conn.getresponse()
            resp.read()
            if resp.status == 200:
                latencies.append(time.perf_counter() - start)
            else:
                failures.append(str(resp.status))
        except OSError as exc:
            failures.append(type(exc).__name__)
        finally:
            conn.close()
        time.sleep(0.05)


def attack(port: int, mode: str, connections: int, seconds: float, interval: float) -> dict:
    slow = SlowClients(port, mode, connections)
    opened_at = time.monotonic()
    slow.fill(opened_at + 30)
    opening = time.monotonic() - opened_at
    latencies: list[float] = []
    failures: list[str] = []
    deadline = time.monotonic() + seconds
    asker = threading.Thread(target=ordinary_requests, args=(port, deadline, latencies, failures), daemon=True)
    asker.start()
    try:
        while time.monotonic() < deadline:
            time.sleep(min(interval, max(0.0, deadline - time.monotonic())))
            slow.tick()
            slow.fill(min(deadline, time.monotonic() + interval))
            slow.count_held()
        asker.join(15)
        held_at_end = len(slow.socks)
    finally:
        slow.close()
    latencies.sort()
    return {"mode": mode, "opened": connections, "opening_s": opening, "held_at_end": held_at_end,
            "fewest_held": slow.fewest_held or 0, "closed_by_server": slow.closed_by_server,
            "answered": len(latencies), "asked": len(latencies) + len(failures), "failures": failures,
            "p50_ms": latencies[len(latencies) // 2] * 1000 if latencies else None,
            "worst_ms": latencies[-1] * 1000 if latencies else None}


def report(figures: dict) -> str:
    p50 = f"{figures['p50_ms']:.1f}" if figures["p50_ms"] is not None else "-"
    worst = f"{figures['worst_ms']:.1f}" if figures["worst_ms"] is not None else "-"
    failed = f"; not answered: {', '.join(sorted(set(figures['failures'])))}" if figures["failures"] else ""
    return (f"  trickling {figures['mode']:<7}: {figures['opened']} slow connections opened in "
            f"{figures['opening_s']:.1f} s; held {figures['held_at_end']} at the end (fewest {figures['fewest_held']}), "
            f"{figures['closed_by_server']} closed by the server and reopened; ordinary requests answered "
            f"{figures['answered']}/{figures['asked']}, p50 {p50} ms, worst {worst} ms{failed}")


def wait_until_answering(port: int, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/v1/games")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer")


def raise_open_file_limit(connections: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.slowloris", description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long each mode runs")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between a slow client's pieces")
    parser.add_argument("--mode", choices=["headers", "body", "both"], default="both")
    parser.add_argument("--port", type=int, help="a server already listening on 127.0.0.1 (else one is started)")
    args = parser.parse_args(argv)
    if not 0 < args.connections <= 5000 or not 0 < args.seconds <= 600:
        raise SystemExit("--connections 1..5000 and --seconds up to 600")
    raise_open_file_limit(args.connections)
    modes = ["headers", "body"] if args.mode == "both" else [args.mode]
    with tempfile.TemporaryDirectory(prefix="paiju-slow-") as folder:
        port, proc = args.port, None
        if port is None:
            port = free_port()
            proc = start_server(port, folder, "webapp:create_app()")
        try:
            wait_until_answering(port)
            print(f"127.0.0.1:{port}, {'the server given' if proc is None else 'gunicorn.conf.py, 2 workers'}; "
                  f"{args.seconds:g} s per mode, a piece every {args.interval:g} s per slow connection")
            for mode in modes:
                print(report(attack(port, mode, args.connections, args.seconds, args.interval)), flush=True)
        finally:
            if proc is not None:
                stop_server(proc)


if __name__ == "__main__":
    main()
