"""kill -9 of a real server mid-stream loses no acknowledged hand and doubles
none (issue 9), on SQLite and PostgreSQL.

The app runs under gunicorn (2 workers; ``flask run`` where gunicorn is missing) in its own process group on a free
loopback port. A client streams hands, each with its own Idempotency-Key and
retried with that key until acknowledged; after some acknowledgements the
whole server is killed with SIGKILL and started again. At the end the table
holds exactly the acknowledged hands: lost 0, duplicated 0.
"""
from __future__ import annotations

import http.client
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from test_ledger_db import DATABASES, ROOT, fresh_postgres_database

pytestmark = pytest.mark.slow  # server processes: left out of `make check`

HANDS = 40
KILL_AFTER = 12
DEADLINE = 180  # seconds for the whole stream, restart included
REQUEST_TIMEOUT = 5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn serving the worktree's app, killable as a whole (its own process group)."""

    def __init__(self, url: str, port: int, tmp_path):
        self.port, self.proc = port, None
        self.env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "durability", "PYTHONPATH": str(ROOT),
                    "LEDGER_WRITE_LIMIT": "100000 per minute", "LEDGER_CREATE_LIMIT": "100000 per minute"}
        self.log = open(tmp_path / f"server-{port}.log", "ab")

    def command(self) -> list[str]:
        if importlib.util.find_spec("gunicorn"):
            return [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{self.port}",
                    "--timeout", "30", "webapp:create_app()"]
        return [sys.executable, "-m", "flask", "--app", "webapp", "run", "--port", str(self.port), "--with-threads"]

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log,
                                     start_new_session=True)
        until = time.monotonic() + 60
        while time.monotonic() < until:
            try:
                call("GET", f"{self.base}/api/v1/games")
                return
            except OSError:
                time.sleep(0.2)
        raise AssertionError("the server did not start: see " + self.log.name)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill9(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.log.close()


def call(method: str, url: str, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def stream(server: Server, tid: str, token: str, acked: dict, killed: threading.Event) -> None:
    """Send HANDS hands, each retried with its own key until the server acknowledges it."""
    until = time.monotonic() + DEADLINE
    for i in range(HANDS):
        key = f"hand-{i}"
        while True:
            assert time.monotonic() < until, f"not done in {DEADLINE} s: {len(acked)} acknowledged"
            try:
                status, body = call("POST", f"{server.base}/api/v1/tables/{tid}/hands",
                                    {"rounds": [], "finish_order": [i % 4]},
                                    {"X-Edit-Token": token, "Idempotency-Key": key})
            except (OSError, http.client.HTTPException):  # refused, reset, timed out, or the answer cut off by
                # the kill (IncompleteRead: not acknowledged): the server is down; try again with the same key
                time.sleep(0.05)
                continue
            if status == 201:
                acked[key] = body["hand"]["number"]
                break
            assert status in (502, 503), (status, body)
            time.sleep(0.05)
        if len(acked) == KILL_AFTER:
            killed.set()


@pytest.mark.parametrize("kind", DATABASES)
def test_kill_9_mid_stream_loses_no_acknowledged_hand_and_doubles_none(kind, tmp_path):
    url, drop = (f"sqlite:///{tmp_path / 'durable.db'}", None) if kind == "sqlite" else fresh_postgres_database()
    server = Server(url, free_port(), tmp_path)
    try:
        server.start()
        status, table = call("POST", f"{server.base}/api/v1/tables",
                             {"game": "q783", "players": ["甲", "乙", "丙", "丁"]})
        assert status == 201, table
        acked: dict = {}
        killed = threading.Event()
        client = threading.Thread(target=stream, args=(server, table["id"], table["edit_token"], acked, killed))
        errors: list = []
        client.run = _catching(client.run, errors)
        client.start()
        assert killed.wait(DEADLINE), "the stream never reached the kill"
        server.kill9()  # mid-stream: the client is sending its next hand
        server.start()
        client.join(DEADLINE)
        assert not client.is_alive() and not errors, errors
        status, stored = call("GET", f"{server.base}/api/v1/tables/{table['id']}")
        numbers = [hand["number"] for hand in stored["hands"]]
        lost = set(acked.values()) - set(numbers)
        duplicated = len(numbers) - len(set(acked.values()))
        assert (len(acked), lost, duplicated) == (HANDS, set(), 0)
        assert sorted(acked.values()) == numbers == list(range(1, HANDS + 1))
    finally:
        server.stop()
        if drop:
            drop()


def _catching(run, errors):
    def wrapped():
        try:
            run()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
    return wrapped
