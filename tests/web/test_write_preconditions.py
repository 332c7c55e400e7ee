"""What a write must carry: an edit names the version it changes (428 without it), and a 405 names the methods
the address does accept (``Allow``)."""
from __future__ import annotations

import pytest

PLAYERS = ["甲", "乙", "丙", "丁"]


def _table_with_a_hand(client):
    created = client.post("/api/v1/tables", json={"game": "q783", "players": PLAYERS}).get_json()
    headers = {"X-Edit-Token": created["edit_token"]}
    assert client.post(f"/api/v1/tables/{created['id']}/hands", json={"rounds": [], "finish_order": [0]},
                       headers=headers).status_code == 201
    return created["id"], headers


@pytest.mark.parametrize("lang,words", [("zh", "缺少「version」"), ("en", "“version” is missing")])
def test_an_edit_without_the_version_it_changes_is_refused_with_428_and_changes_nothing(client, lang, words):
    tid, headers = _table_with_a_hand(client)
    answer = client.put(f"/api/v1/tables/{tid}/hands/1", json={"input": {"rounds": [], "finish_order": [1]}},
                        headers={**headers, "Accept-Language": lang})
    assert answer.status_code == 428
    error = answer.get_json()["error"]
    assert error["code"] == "version_required" and error["field"] == "version" and words in error["message"]
    assert client.get(f"/api/v1/tables/{tid}").get_json()["hands"][0]["input"]["finish_order"] == [0]


def test_an_edit_with_its_version_is_saved(client):
    tid, headers = _table_with_a_hand(client)
    version = client.get(f"/api/v1/tables/{tid}").get_json()["version"]
    answer = client.put(f"/api/v1/tables/{tid}/hands/1", headers=headers,
                        json={"version": version, "input": {"rounds": [], "finish_order": [1]}})
    assert answer.status_code == 200


@pytest.mark.parametrize("method", ["TRACE", "PATCH", "PUT", "DELETE"])
@pytest.mark.parametrize("path,allowed", [("/api/v1/games", {"GET", "HEAD", "OPTIONS"}),
                                          ("/api/v1/tables", {"POST", "OPTIONS"}),
                                          ("/", {"GET", "HEAD", "OPTIONS"})])
def test_a_method_the_address_does_not_take_is_405_with_the_methods_it_does(client, method, path, allowed):
    answer = client.open(path, method=method)
    assert answer.status_code == 405
    assert {m.strip() for m in answer.headers["Allow"].split(",")} == allowed


def test_a_table_address_never_reads_as_a_game_action(client):
    created = client.post("/api/v1/tables", json={"game": "q783", "players": PLAYERS}).get_json()
    answer = client.post(f"/api/v1/tables/{created['id']}", json={})
    assert answer.status_code == 405
    assert {m.strip() for m in answer.headers["Allow"].split(",")} == {"GET", "HEAD", "OPTIONS", "DELETE"}
