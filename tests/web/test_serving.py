"""Production serving: hashed static files cached for a year, compression, the secret key written whole,
and `make serve` itself (gunicorn on a free loopback port) answering with the headers and gzip."""
from __future__ import annotations

import gzip
import http.client
import json
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import brotli
import pytest

import webapp
from webapp.serving import StaticDigests

pytestmark = pytest.mark.slow  # server processes: left out of `make check`

ROOT = Path(__file__).resolve().parents[2]
IMMUTABLE = "public, max-age=31536000, immutable"


def static_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


# -- static files ------------------------------------------------------------------------------------------


def test_pages_link_static_files_under_content_hashed_names_served_immutable_for_a_year(client):
    urls = static_urls(client.get("/paodekuai/settle").get_data(as_text=True))  # a game tab: htmx and the forms' scripts
    assert len(urls) >= 4 and any("htmx" in u for u in urls)
    for url in urls:
        assert re.search(r"\.[0-9a-f]{12}\.(css|js|svg|png)$", url), url
        resp = client.get(url)
        assert resp.status_code == 200 and resp.headers["Cache-Control"] == IMMUTABLE, url
        resp.close()


def test_a_static_file_under_its_plain_name_or_a_stale_hash_is_served_but_revalidated(client):
    plain = client.get("/static/app.css")
    stale = client.get("/static/app.000000000000.css")
    for resp in (plain, stale):
        assert resp.status_code == 200 and "immutable" not in resp.headers.get("Cache-Control", "")
        assert resp.get_data() == (ROOT / "static" / "app.css").read_bytes()
    assert client.get("/static/no-such.0123456789ab.css").status_code == 404


def test_the_hashed_name_changes_when_the_content_changes(tmp_path):
    (tmp_path / "a.css").write_text("p{}")
    digests = StaticDigests(str(tmp_path))
    first = digests.hashed_name("a.css")
    assert first != "a.css" and first == digests.hashed_name("a.css")
    (tmp_path / "a.css").write_text("p{color:red}")
    assert digests.hashed_name("a.css") not in (first, "a.css")
    assert digests.hashed_name("missing.css") == "missing.css"
    assert digests.hashed_name("../outside.css") == "../outside.css"


def test_a_compressed_page_still_varies_on_the_cookie_that_picks_its_language(client):
    vary = {v.strip() for v in client.get("/", headers={"Accept-Encoding": "gzip"}).headers["Vary"].split(",")}
    assert vary >= {"Cookie", "HX-Request", "Accept-Encoding"}


def test_pages_and_static_files_are_gzipped_for_a_client_that_asks(client):
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.headers["Vary"]
    assert "<!doctype html>" in gzip.decompress(page.get_data()).decode()
    htmx = next(u for u in static_urls(client.get("/paodekuai/settle").get_data(as_text=True)) if "htmx" in u)
    resp = client.get(htmx, headers={"Accept-Encoding": "gzip"})
    assert resp.headers["Content-Encoding"] == "gzip" and resp.headers["Cache-Control"] == IMMUTABLE
    assert gzip.decompress(resp.get_data()) == (ROOT / "static" / "vendor" / "htmx.min.js").read_bytes()


def test_a_hashed_static_file_goes_to_a_client_that_takes_brotli_compressed_at_brotlis_best(client):
    htmx = next(u for u in static_urls(client.get("/paodekuai/settle").get_data(as_text=True)) if "htmx" in u)
    source = (ROOT / "static" / "vendor" / "htmx.min.js").read_bytes()
    resp = client.get(htmx, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert resp.headers["Content-Encoding"] == "br" and resp.headers["Cache-Control"] == IMMUTABLE
    assert "Accept-Encoding" in resp.headers["Vary"] and resp.get_etag()[0].endswith(":br")
    assert brotli.decompress(resp.get_data()) == source
    assert len(resp.get_data()) == len(brotli.compress(source, quality=11))
    icon = next(u for u in static_urls(client.get("/").get_data(as_text=True)) if u.endswith(".png"))
    assert "Content-Encoding" not in client.get(icon, headers={"Accept-Encoding": "br"}).headers  # already packed


def test_an_answer_below_the_compression_threshold_goes_as_it_is_and_a_long_one_is_gzipped(client):
    small = client.post("/api/v1/paodekuai/settle", json={"winner": 0, "cards_left": [0, 5, 13, 10]},
                        headers={"Accept-Encoding": "gzip"})
    assert small.status_code == 200 and len(small.get_data()) < client.application.config["COMPRESS_MIN_SIZE"]
    assert "Content-Encoding" not in small.headers and "Accept-Encoding" not in small.headers.get("Vary", "")
    hand = "♠3 ♥3 ♣4 ♦4 ♠5 ♥5 ♣6 ♦6 ♠7 ♥7 ♣8 ♦8 ♠9"
    long = client.post("/api/v1/paodekuai/hint", json={"hand": hand}, headers={"Accept-Encoding": "gzip"})
    assert long.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in long.headers["Vary"]
    assert json.loads(gzip.decompress(long.get_data()))["plays"]


# -- the instance secret key ------------------------------------------------------------------------------------


def _start_app_at_once(folder, barrier, keys):
    barrier.wait()
    keys.put(webapp._instance_secret(SimpleNamespace(instance_path=folder)))


def test_processes_starting_at_once_never_read_an_empty_secret_key_and_all_share_one(tmp_path):
    fork = multiprocessing.get_context("fork")
    for attempt in range(8):
        folder = str(tmp_path / f"instance{attempt}")
        barrier, keys = fork.Barrier(6), fork.Queue()
        procs = [fork.Process(target=_start_app_at_once, args=(folder, barrier, keys)) for _ in range(6)]
        for p in procs:
            p.start()
        got = [keys.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(60)
        assert len(set(got)) == 1 and len(got[0]) == 64, got
        assert Path(folder, "secret_key").read_text() == got[0]
        assert os.listdir(folder) == ["secret_key"]  # no temporary file left behind
        assert Path(folder, "secret_key").stat().st_mode & 0o077 == 0


def test_threads_starting_at_once_never_read_an_empty_secret_key(tmp_path):
    for attempt in range(20):
        instance = SimpleNamespace(instance_path=str(tmp_path / f"instance{attempt}"))
        barrier, keys = threading.Barrier(8), []

        def start():
            barrier.wait()
            keys.append(webapp._instance_secret(instance))

        threads = [threading.Thread(target=start) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(keys) == 8 and len(set(keys)) == 1 and len(keys[0]) == 64


def test_an_empty_secret_key_left_by_a_crash_is_replaced(tmp_path):
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "secret_key").write_text("")
    key = webapp._instance_secret(SimpleNamespace(instance_path=str(tmp_path / "instance")))
    assert len(key) == 64 and (tmp_path / "instance" / "secret_key").read_text() == key


# -- make serve --------------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_listening(port: int, proc, log: Path, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"make serve exited with {proc.returncode}: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("make serve did not listen")


#: port → process group of each server :func:`make_serve` is running
SERVERS: dict[int, int] = {}


@contextmanager
def make_serve(folder: Path, **env):
    """`make serve` on a free loopback port, its output in ``folder/serve.log`` (``-o`` so make does not
    reinstall the virtualenv), the ledger's SQLite in ``folder``; yields (port, log)."""
    port, log = _free_port(), folder / "serve.log"
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "2", "THREADS": "4",
           "SECRET_KEY": "serve-test", "DATABASE_URL": f"sqlite:///{folder / 'serve.db'}", **env}
    with open(log, "w") as out:
        proc = subprocess.Popen(["make", "--no-print-directory", "-o", ".venv/.installed", "serve"], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    SERVERS[port] = proc.pid  # its process group: a test may kill -9 it
    try:
        _wait_until_listening(port, proc, log)
        yield port, log
    finally:
        SERVERS.pop(port, None)
        _stop(proc)


def _stop(proc) -> None:
    """Stop a server's process group (already gone when a test killed it)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    except ProcessLookupError:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with make_serve(tmp_path_factory.mktemp("serve")) as (port, _log):
        yield port


def _get(port: int, path: str, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def test_make_serve_answers_a_page_with_the_security_headers_and_gzip(served):
    status, headers, body = _get(served, "/", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    html = gzip.decompress(body).decode()
    status, headers, _ = _get(served, static_urls(html)[0], {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Cache-Control"] == IMMUTABLE and headers["Content-Encoding"] == "gzip"


def test_make_serve_answers_the_api_with_the_security_headers(served):
    status, headers, body = _get(served, "/api/v1/games", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and b"q783" in gzip.decompress(body)
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


HALF_SENT = (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/ht",  # headers cut short
             b"POST /api/v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 1000\r\n\r\n{\"game\":")  # the body cut short


def test_make_serve_still_answers_while_clients_hold_half_sent_requests(served):
    stalled = []
    try:
        for half in HALF_SENT * 2:  # two per worker: each holds a thread, not a worker
            s = socket.create_connection(("127.0.0.1", served), timeout=30)
            s.sendall(half)
            stalled.append(s)
        for _ in range(4):
            status, _, _ = _get(served, "/api/v1/games")
            assert status == 200
    finally:
        for s in stalled:
            s.close()
