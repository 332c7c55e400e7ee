"""The contract rows of issue 38 about serving (docs/api.md, "Conventions" and "What a table stores"): a chunked
body over the limit is a 413 as one whose Content-Length says so, ``TRUSTED_HOSTS`` matches a host name in any case
and with its final dot, and behind no proxy (no ``PROXY_FIX``) nobody's ``X-Forwarded-Proto`` is believed, not even
one sent from 127.0.0.1 to gunicorn."""
from __future__ import annotations

import http.client
import json

import pytest
from test_serving import make_serve
from werkzeug.test import EnvironBuilder, run_wsgi_app

from webapp import create_app

TABLE = {"game": "q783", "players": ["a", "b", "c"]}


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
                       **config})


def chunked(app, body: bytes):
    """(status, JSON answer) of a POST /api/v1/tables whose body has no length, as a server that ends a chunked
    body itself hands it over (``wsgi.input_terminated``)."""
    environ = EnvironBuilder(path="/api/v1/tables", method="POST", content_type="application/json",
                             data=body).get_environ()
    del environ["CONTENT_LENGTH"]
    environ.update({"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"})
    answer, status, _ = run_wsgi_app(app, environ, buffered=True)
    return int(status.split()[0]), json.loads(b"".join(answer))


def test_a_chunked_body_over_the_limit_is_a_413_too_large_as_with_content_length(tmp_path):
    app = make_app(tmp_path)
    big = json.dumps({**TABLE, "pad": "x" * (256 * 1024)}).encode()
    status, answer = chunked(app, big)
    assert status == 413 and answer["error"]["code"] == "too_large"
    assert app.test_client().post("/api/v1/tables", data=big, content_type="application/json").status_code == 413
    status, answer = chunked(app, json.dumps(TABLE).encode())  # a small one is read whole
    assert status == 201 and answer["id"]


def test_trusted_hosts_match_a_host_name_in_any_case_and_with_its_final_dot(tmp_path):
    client = make_app(tmp_path, TRUSTED_HOSTS=["Paiju.Example", ".Friends.Example."]).test_client()
    for host in ("paiju.example", "PAIJU.Example", "paiju.example.", "Paiju.Example.:8000", "a.friends.example.",
                 "A.FRIENDS.EXAMPLE"):
        resp = client.get("/api/v1/games", headers={"Host": host})
        assert resp.status_code == 200, host
    for host in ("evil.example", "paiju.example..", "paiju.example.evil"):
        assert client.get("/api/v1/games", headers={"Host": host}).status_code == 400, host
    made = client.post("/api/v1/tables", json=TABLE, headers={"Host": "PAIJU.EXAMPLE."}).get_json()
    assert made["view_url"].startswith("http://paiju.example/")


def _post(port: int, headers: dict, body: bytes):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/api/v1/tables", body=body, headers={"Content-Type": "application/json", **headers})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), json.loads(resp.read() or b"null")
    finally:
        conn.close()


@pytest.mark.slow  # a server process: left out of `make check`
def test_make_serve_without_proxy_fix_believes_no_forwarded_proto_and_refuses_a_long_chunked_body_with_413(
        tmp_path):
    with make_serve(tmp_path) as (port, _log):
        status, headers, made = _post(port, {"X-Forwarded-Proto": "https"}, json.dumps(TABLE).encode())
        assert status == 201 and made["view_url"].startswith("http://")
        assert "Strict-Transport-Security" not in headers

        def chunks():
            yield json.dumps({**TABLE, "pad": "x" * (300 * 1024)}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("POST", "/api/v1/tables", body=chunks(), encode_chunked=True,
                         headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
            resp = conn.getresponse()
            assert resp.status == 413 and json.loads(resp.read())["error"]["code"] == "too_large"
        finally:
            conn.close()
