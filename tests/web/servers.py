"""Helpers for the tests that start real servers: a throwaway Redis (``PAIJU_TEST_REDIS_URL``, else started
with ``.ci/redis.sh``; never skipped) and plain HTTP calls through a fresh connection each time."""
from __future__ import annotations

import atexit
import http.client
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_SCRIPT = ROOT / ".ci" / "redis.sh"
_REDIS: dict = {}


def redis_server_url() -> str:
    """The Redis URL, starting a throwaway server once per test run if none is given; fails loudly."""
    if "url" in _REDIS:
        return _REDIS["url"]
    url = os.environ.get("PAIJU_TEST_REDIS_URL")
    try:
        if not url:
            dir_file = tempfile.NamedTemporaryFile(prefix="paiju-redis-dir-", delete=False).name
            proc = subprocess.run(["bash", str(REDIS_SCRIPT)], capture_output=True, text=True, timeout=600,
                                  env={**os.environ, "PAIJU_REDIS_DIR_FILE": dir_file,
                                       "PAIJU_REDIS_WATCH_PID": str(os.getpid())})
            if proc.returncode != 0 or not proc.stdout.strip():
                raise RuntimeError(f"{REDIS_SCRIPT} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
            url = proc.stdout.strip().splitlines()[-1]
            redis_dir = Path(dir_file).read_text().strip()
            os.unlink(dir_file)
            atexit.register(subprocess.run, ["bash", str(REDIS_SCRIPT), "stop", redis_dir], capture_output=True)
        import redis
        redis.Redis.from_url(url, socket_timeout=5).ping()
    except Exception as exc:  # noqa: BLE001 - any failure must fail the tests loudly
        message = ("Redis is required for the several-servers tests and none could be reached or started "
                   f"(set PAIJU_TEST_REDIS_URL or make `bash .ci/redis.sh` work): {exc}")
        print(message, file=sys.stderr)
        pytest.fail(message, pytrace=False)
    _REDIS["url"] = url
    return url


def call(port: int, method: str, path: str, body=None, headers=None, timeout: float = 30):
    """(status, JSON answer or None, headers) of one request on a connection of its own."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={**({"Content-Type": "application/json"} if data else {}),
                                                       **(headers or {})})
        resp = conn.getresponse()
        raw = resp.read()
        answer = json.loads(raw) if raw and resp.getheader("Content-Type", "").startswith("application/json") else None
        return resp.status, answer, dict(resp.getheaders())
    finally:
        conn.close()


def create_tables(ports: list[int], count: int) -> list[int]:
    """``count`` table creations, taking turns over ``ports``: their statuses."""
    body = {"game": "q783", "players": ["甲", "乙", "丙", "丁"]}
    return [call(ports[i % len(ports)], "POST", "/api/v1/tables", body)[0] for i in range(count)]
