"""Slow clients cannot stop `make serve`, and its start with TRUSTED_HOSTS set works and warms up.

`make serve`'s workers read each request whole before a thread runs the app (webapp/buffering_worker.py):
a few hundred connections trickling their headers or bodies wait in the worker's main loop while ordinary
requests are answered. The figures (how many held, how fast the others were answered) come from
``python -m bench.slowloris``; these tests assert only that the answers come."""
from __future__ import annotations

import gc
import http.client
import runpy
import socket
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_serving import make_serve

from webapp import create_app
from webapp.buffering_worker import chunked_body_end, request_is_whole
from webapp.ledger.db import db
from webapp.render import warm_up

pytestmark = pytest.mark.slow  # server processes: left out of `make check`

ROOT = Path(__file__).resolve().parents[2]
HOST_WARNING = "neither TRUSTED_HOSTS nor SERVER_NAME is set"


# -- when a request is whole ---------------------------------------------------------------------------------------


def test_a_request_is_whole_when_its_head_has_ended_and_its_announced_body_has_come():
    head = b"POST /api HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"
    assert not request_is_whole(b"GET / HTTP/1.1\r\nHost: a\r\n")
    assert request_is_whole(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    assert not request_is_whole(head + b"{}")
    assert request_is_whole(head + b'{"a"}')
    assert request_is_whole(head.replace(b"Content-Length", b"content-LENGTH") + b'{"a"}')


def test_what_would_wait_forever_or_is_refused_unread_goes_to_the_parser_at_once():
    huge = b"POST /api HTTP/1.1\r\nHost: a\r\nContent-Length: 999999999\r\n\r\n"
    expects = b"POST /api HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
    assert request_is_whole(huge) and request_is_whole(expects)
    assert request_is_whole(b"GET / HTTP/1.1\r\nX: " + b"a" * 70_000)  # a head that never ends


def test_a_chunked_body_is_whole_after_its_last_chunk_and_trailers():
    head = b"POST /api HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
    assert not request_is_whole(head + b"5\r\nhel")
    assert not request_is_whole(head + b"5\r\nhello\r\n0\r\n")
    assert request_is_whole(head + b"5\r\nhello\r\n0\r\n\r\n")
    assert chunked_body_end(b"3;ext=1\r\nabc\r\n0\r\nTrailer: x\r\n\r\n", 1000)
    assert not chunked_body_end(b"3\r\nabc\r\n0\r\nTrailer: x\r\n", 1000)
    assert chunked_body_end(b"zz\r\n", 1000)  # malformed: the parser refuses it
    assert chunked_body_end(b"ffff\r\n" + b"a" * 2000, 1000)  # over the limit: handed over


# -- warm-up and the start-up warning, in process --------------------------------------------------------------------


@pytest.mark.parametrize("hosts", [["example.org"], [".example.org", "other.example"]])
def test_warm_up_asks_a_trusted_host_and_keeps_the_pages(tmp_path, hosts):
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'w.db'}", "TRUSTED_HOSTS": hosts})
    warm_up(app)
    kept = app.extensions["paiju_pages"].get(("pages.settle", "/paodekuai/settle?", "en", True, False))
    assert kept and "Settle" in "".join(kept)
    assert ("games", "zh") in app.extensions["paiju_static_json"]


def test_warm_up_compiles_the_templates_of_pages_that_need_a_table(tmp_path):
    """A worker forked after warm_up compiles nothing on its first table, settle-up or circle page (issue 38 item
    7: within 0.2 s of CPU as a fresh process first reads it)."""
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'w.db'}"})
    warm_up(app)
    compiled = {name for _loader, name in app.jinja_env.cache.keys()}
    assert {"tables/table.html", "tables/_hand.html", "tables/settle_up.html", "circles/circle.html"} <= compiled


def test_warm_up_asks_the_server_name_when_one_is_set(tmp_path):
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'w.db'}",
                      "SERVER_NAME": "paiju.example:8443", "TRUSTED_HOSTS": ["paiju.example"]})
    warm_up(app)
    assert app.extensions["paiju_pages"].get(("pages.settle", "/paodekuai/settle?", "zh", True, False))


@pytest.mark.parametrize("config, warns", [({}, True), ({"TRUSTED_HOSTS": ["example.org"]}, False),
                                           ({"SERVER_NAME": "example.org"}, False)])
def test_the_production_start_warns_when_any_host_is_believed(tmp_path, capsys, config, warns):
    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'g.db'}", **config})
    try:
        settings["when_ready"](SimpleNamespace(app=SimpleNamespace(wsgi=lambda: app)))
    finally:
        gc.unfreeze()
        with app.app_context():
            db.engine.dispose()
    err = capsys.readouterr().err
    assert (HOST_WARNING in err) is warns and err.count("\n") == int(warns)


# -- make serve ------------------------------------------------------------------------------------------------------


def _ask(port: int, method: str, path: str, host: str, body: bytes | None = None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)  # "answered within a few seconds"
    try:
        conn.request(method, path, body=body, headers={"Host": host, "Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


SETTLE = b'{"winner": 0, "cards_left": [0, 5, 13, 10]}'


def _trickling(port: int, count: int) -> list[socket.socket]:
    """``count`` connections, half sending headers a line at a time, half a declared body a byte at a time."""
    heads = (b"GET / HTTP/1.1\r\nHost: example.org\r\nAccept: text/ht",
             (b"POST /api/v1/paodekuai/settle HTTP/1.1\r\nHost: example.org\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{"))
    socks = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(heads[n % 2])
        socks.append(sock)
    return socks


@pytest.fixture(scope="module")
def trusting_example_org(tmp_path_factory):
    with make_serve(tmp_path_factory.mktemp("trusting"), TRUSTED_HOSTS="example.org") as served:
        yield served


def test_make_serve_starts_with_trusted_hosts_set_and_answers_only_for_them(trusting_example_org):
    port, log = trusting_example_org
    assert _ask(port, "GET", "/paodekuai/settle", "example.org") == 200
    assert _ask(port, "GET", "/api/v1/games", "attacker.example") == 400
    assert "Traceback" not in log.read_text() and HOST_WARNING not in log.read_text()


def test_make_serve_answers_while_hundreds_of_connections_trickle_their_headers_or_bodies(trusting_example_org):
    port, _log = trusting_example_org
    slow = _trickling(port, 300)
    try:
        for round_ in range(3):
            for sock in slow:  # each sends a little more, and none is ever whole
                sock.sendall(b"m" if round_ else b"l")
            assert _ask(port, "GET", "/api/v1/games", "example.org") == 200
            assert _ask(port, "POST", "/api/v1/paodekuai/settle", "example.org", SETTLE) == 200
            assert _ask(port, "GET", "/paodekuai/settle", "example.org") == 200
    finally:
        for sock in slow:
            sock.close()


def test_make_serve_warns_without_trusted_hosts_and_times_out_half_sent_requests(tmp_path):
    with make_serve(tmp_path, HEADER_TIMEOUT="1", BODY_TIMEOUT="1") as (port, log):
        assert _ask(port, "GET", "/api/v1/games", "127.0.0.1") == 200
        assert log.read_text().count(HOST_WARNING) == 1
        for sock in _trickling(port, 2):
            with sock:
                answer = sock.recv(4096)  # within the socket's 10 s timeout, or it raises
                assert answer.startswith(b"HTTP/1.1 408 ") and sock.recv(4096) == b""
