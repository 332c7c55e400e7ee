"""A ``Host`` that is not a valid host name (and port) is a 400 everywhere (docs/api.md, Errors): no page or
answer is built with links to it."""
from __future__ import annotations

import pytest

from webapp.security import valid_host

BAD_HOSTS = ["a b", "localhost:99999", "x@evil", "localhost:0", "localhost:abc", ":5000", "[]", "localhost:", "a\tb"]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_an_invalid_host_creates_no_table_and_answers_400_in_the_contract_shape(client, host):
    answer = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]},
                         headers={"Host": host})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_request"


@pytest.mark.parametrize("host", BAD_HOSTS)
@pytest.mark.parametrize("path", ["/", "/paodekuai/settle", "/static/app.css", "/api/v1/games"])
def test_an_invalid_host_is_refused_on_every_kind_of_route(client, host, path):
    assert client.get(path, headers={"Host": host}).status_code == 400


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1:8000", "[::1]", "[::1]:5000",
                                  "paiju.example", "xn--fiqs8s.example:443"])
def test_ordinary_hosts_are_served(client, host):
    assert valid_host(host)
    assert client.get("/", headers={"Host": host}).status_code == 200
