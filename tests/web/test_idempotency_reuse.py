"""An idempotency key answers a retry of the same request once; sent again with another request it is refused
(422 ``idempotency_key_reused``, draft-ietf-httpapi-idempotency-key-header), on the API and on the form, and
nothing more is recorded."""
from __future__ import annotations

import re

import pytest

PLAYERS = ["甲", "乙", "丙", "丁"]


@pytest.fixture
def table(client):
    created = client.post("/api/v1/tables", json={"game": "q783", "players": PLAYERS}).get_json()
    return created["id"], {"X-Edit-Token": created["edit_token"], "Idempotency-Key": "hand-1"}


def _hands(client, tid):
    return client.get(f"/api/v1/tables/{tid}").get_json()["hands"]


def test_the_same_key_with_the_same_body_answers_the_first_hand_again(client, table):
    tid, headers = table
    first = client.post(f"/api/v1/tables/{tid}/hands", json={"rounds": [], "finish_order": [0]}, headers=headers)
    again = client.post(f"/api/v1/tables/{tid}/hands", json={"finish_order": [0], "rounds": []}, headers=headers)
    assert first.status_code == again.status_code == 201 and first.get_json() == again.get_json()
    assert len(_hands(client, tid)) == 1


@pytest.mark.parametrize("lang,words", [("zh", "已经用来记过另一手牌"), ("en", "already used to record a different hand")])
def test_the_same_key_with_another_body_is_422_and_records_nothing(client, table, lang, words):
    tid, headers = table
    assert client.post(f"/api/v1/tables/{tid}/hands", json={"rounds": [], "finish_order": [0]},
                       headers=headers).status_code == 201
    reused = client.post(f"/api/v1/tables/{tid}/hands", json={"rounds": [], "finish_order": [2]},
                         headers={**headers, "Accept-Language": lang})
    assert reused.status_code == 422
    error = reused.get_json()["error"]
    assert error["code"] == "idempotency_key_reused" and error["field"] == "Idempotency-Key"
    assert words in error["message"]
    assert [h["input"]["finish_order"] for h in _hands(client, tid)] == [[0]]


def test_a_form_saved_then_changed_and_saved_with_its_old_key_says_so_and_keeps_what_was_typed(app, client, table):
    app.config["WTF_CSRF_ENABLED"] = False
    tid, headers = table
    token = headers["X-Edit-Token"]
    client.get(f"/tables/{tid}/edit/{token}")  # the edit cookie
    page = client.get(f"/tables/{tid}/edit").get_data(as_text=True)
    key = re.search(r'name="idempotency_key"[^>]*value="([^"]+)"', page) or re.search(
        r'value="([^"]+)"[^>]*name="idempotency_key"', page)
    assert key, "the form carries an idempotency key"
    form = {"idempotency_key": key.group(1), "finish_order-0": "1"}
    assert client.post(f"/tables/{tid}/edit", data=form).status_code == 303
    assert client.post(f"/tables/{tid}/edit", data=form).status_code == 303  # a double tap: recorded once
    changed = client.post(f"/tables/{tid}/edit", data={**form, "finish_order-0": "3"})
    assert changed.status_code == 422
    text = changed.get_data(as_text=True)
    assert "已经用来记过另一手牌" in text
    assert len(_hands(client, tid)) == 1
    new_key = re.search(r'name="idempotency_key"[^>]*value="([^"]+)"', text) or re.search(
        r'value="([^"]+)"[^>]*name="idempotency_key"', text)
    assert new_key and new_key.group(1) != key.group(1)  # saving again records the changed hand
