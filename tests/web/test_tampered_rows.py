"""Stored rows never answer 500 (issue 38, item 6): every stored column kind is changed in turn behind the app's
back — text that is not JSON, JSON of the wrong type, values out of range, points that do not add up to 0 or
are fewer than the players, seats and seating outside the players, lengths past the app's bounds — and a
process that never saw the table (tests/web/tampered_probe.py, a subprocess) probes every route of it, API and
page: none answers a 5xx, and a table whose rows fail the check answers the API's 409 ``table_unreadable``.

Runs on SQLite and PostgreSQL; a value PostgreSQL's column types refuse to store is not a case there."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from test_ledger_db import ledger_app  # noqa: F401 - the fixture

from webapp.ledger.db import db

PROBE = Path(__file__).with_name("tampered_probe.py")
PLAYERS = ["甲", "乙", "丙", "丁"]
H2 = "table_id = :tid AND number = 2"
T = "id = :tid"
LONG_NAME = json.dumps(["甲" * 5000, "乙", "丙", "丁"])

#: what a table's rows may hold that this version must refuse as a whole: (case, SQL on the tampered table)
UNREADABLE = {
    "game unknown": f"UPDATE ledger_tables SET game = 'mahjong' WHERE {T}",
    "game with a line break": f"UPDATE ledger_tables SET game = 'q783\nX: y' WHERE {T}",
    "players not JSON": f"UPDATE ledger_tables SET players = 'not json' WHERE {T}",
    "players null": f"UPDATE ledger_tables SET players = 'null' WHERE {T}",
    "players empty": f"UPDATE ledger_tables SET players = '[]' WHERE {T}",
    "players not names": f"UPDATE ledger_tables SET players = '[1, null]' WHERE {T}",
    "players fewer than the deltas": f"""UPDATE ledger_tables SET players = '["甲", "乙"]' WHERE {T}""",
    "players an object": f"""UPDATE ledger_tables SET players = '{{"a": 1}}' WHERE {T}""",
    "players a name too long": f"UPDATE ledger_tables SET players = '{LONG_NAME}' WHERE {T}",
    "rules not JSON": f"UPDATE ledger_tables SET rules = 'not json' WHERE {T}",
    "rules a list": f"UPDATE ledger_tables SET rules = '[1]' WHERE {T}",
    "rules unknown option": f"""UPDATE ledger_tables SET rules = '{{"no_such_option": 3}}' WHERE {T}""",
    "seated not JSON": f"UPDATE ledger_tables SET seated = 'not json' WHERE {T}",
    "seated outside the players": f"UPDATE ledger_tables SET seated = '[0, 1, 2, 9]' WHERE {T}",
    "seated twice the same": f"UPDATE ledger_tables SET seated = '[0, 0, 1, 2]' WHERE {T}",
    "seated fewer than the seats": f"UPDATE ledger_tables SET seated = '[0]' WHERE {T}",
    "seated a string": f"""UPDATE ledger_tables SET seated = '"0123"' WHERE {T}""",
    "undone not JSON": f"UPDATE ledger_tables SET undone = 'not json' WHERE {T}",
    "undone a list": f"UPDATE ledger_tables SET undone = '[1]' WHERE {T}",
    "undone input not an object": f"""UPDATE ledger_tables SET undone = '{{"number": 4, "input": 5}}' WHERE {T}""",
    "undone number a string": f"""UPDATE ledger_tables SET undone = '{{"number": "x", "input": {{}}}}' WHERE {T}""",
    "table version text": f"UPDATE ledger_tables SET version = 'x' WHERE {T}",
    "table version null": f"UPDATE ledger_tables SET version = NULL WHERE {T}",
    "reset version text": f"UPDATE ledger_tables SET reset_version = 'x' WHERE {T}",
    "input not JSON": f"UPDATE ledger_hands SET input = 'not json' WHERE {H2}",
    "input null": f"UPDATE ledger_hands SET input = 'null' WHERE {H2}",
    "input a list": f"UPDATE ledger_hands SET input = '[1, 2]' WHERE {H2}",
    "deltas not JSON": f"UPDATE ledger_hands SET deltas = 'not json' WHERE {H2}",
    "deltas null": f"UPDATE ledger_hands SET deltas = 'null' WHERE {H2}",
    "deltas strings": f"""UPDATE ledger_hands SET deltas = '["a", "b", "c", "d"]' WHERE {H2}""",
    "deltas not adding up to 0": f"UPDATE ledger_hands SET deltas = '[1, 1, 1, 1]' WHERE {H2}",
    "deltas fewer than the players": f"UPDATE ledger_hands SET deltas = '[3, -3]' WHERE {H2}",
    "deltas more than the players": f"UPDATE ledger_hands SET deltas = '[1, -1, 0, 0, 0]' WHERE {H2}",
    "deltas fractions": f"UPDATE ledger_hands SET deltas = '[1.5, -1.5, 0, 0]' WHERE {H2}",
    "deltas booleans": f"UPDATE ledger_hands SET deltas = '[true, false, 0, 0]' WHERE {H2}",
    "deltas huge": f"UPDATE ledger_hands SET deltas = '[1e300, -1e300, 0, 0]' WHERE {H2}",
    "deltas past 64 bits": f"""UPDATE ledger_hands SET deltas =
        '[99999999999999999999999, -99999999999999999999999, 0, 0]' WHERE {H2}""",
    "seats not JSON": f"UPDATE ledger_hands SET seats = 'not json' WHERE {H2}",
    "seats outside the players": f"UPDATE ledger_hands SET seats = '[0, 1, 2, 9]' WHERE {H2}",
    "seats twice the same": f"UPDATE ledger_hands SET seats = '[0, 0, 1, 2]' WHERE {H2}",
    "seats fewer than the game's": f"UPDATE ledger_hands SET seats = '[0, 1]' WHERE {H2}",
    "seats a string": f"""UPDATE ledger_hands SET seats = '"0123"' WHERE {H2}""",
    "hand created_at unparseable": f"UPDATE ledger_hands SET created_at = 'not a time' WHERE {H2}",
    "hand updated_at null": f"UPDATE ledger_hands SET updated_at = NULL WHERE {H2}",
    "hand number null": f"UPDATE ledger_hands SET number = NULL WHERE {H2}",
    "hand number text": f"UPDATE ledger_hands SET number = 'x' WHERE {H2}",
    "hand rules not JSON": f"UPDATE ledger_hands SET rules = 'not json' WHERE {H2}",
    "hand rules a list": f"UPDATE ledger_hands SET rules = '[1]' WHERE {H2}",
    "hand rules unknown option": f"""UPDATE ledger_hands SET rules = '{{"no_such_option": 3}}' WHERE {H2}""",
}

#: values a reader can do without (the hand reads without them, or they are rebuilt): no 5xx, any 2xx-4xx
HARMLESS = {
    "kept totals too many": f"UPDATE ledger_tables SET kept_totals = '[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]' WHERE {T}",
    "kept totals strings": f"""UPDATE ledger_tables SET kept_totals = '["a", "b", "c", "d"]' WHERE {T}""",
    "kept totals not JSON": f"UPDATE ledger_tables SET kept_totals = 'not json' WHERE {T}",
    "table updated_at null": f"UPDATE ledger_tables SET updated_at = NULL WHERE {T}",
    "table created_at unparseable": f"UPDATE ledger_tables SET created_at = 'not a time' WHERE {T}",
    "input seat outside": f"""UPDATE ledger_hands SET input = '{{"rounds": [], "finish_order": [9]}}' WHERE {H2}""",
    "input rounds a string": f"""UPDATE ledger_hands SET input = '{{"rounds": "x", "finish_order": [1]}}' WHERE {H2}""",
    "players twice the same": f"""UPDATE ledger_tables SET players = '["甲", "甲", "丙", "丁"]' WHERE {T}""",
    "result not JSON": f"UPDATE ledger_hands SET result = 'not json' WHERE {H2}",
    "result steps a number": f"""UPDATE ledger_hands SET result = '{{"steps": 5}}' WHERE {H2}""",
    "result steps not texts": f"""UPDATE ledger_hands SET result = '{{"steps": [1, [2], {{"x": 3}}]}}' WHERE {H2}""",
    "result carried value a string": f"""UPDATE ledger_hands SET result = '{{"banks_before": "x"}}' WHERE {H2}""",
    "result made a string": f"""UPDATE ledger_hands SET result = '{{"made": "x"}}' WHERE {H2}""",
    "hand rules JSON null": f"UPDATE ledger_hands SET rules = 'null' WHERE {H2}",
    "ends_series text": f"UPDATE ledger_hands SET ends_series = 'x' WHERE {H2}",
    "ends_series null": f"UPDATE ledger_hands SET ends_series = NULL WHERE {H2}",
    "edited_at unparseable": f"UPDATE ledger_hands SET edited_at = 'not a time' WHERE {H2}",
    "input_version text": f"UPDATE ledger_hands SET input_version = 'x' WHERE {H2}",
    "changed_version null": f"UPDATE ledger_hands SET changed_version = NULL WHERE {H2}",
    "circle null": f"UPDATE ledger_tables SET circle = NULL WHERE {T}",
    "circle another's": f"UPDATE ledger_tables SET circle = 'AAAAAAAAAAAAAAAAAAAAAA' WHERE {T}",
    "previous itself": f"UPDATE ledger_tables SET previous_id = id WHERE {T}",
    "previous not an id": f"UPDATE ledger_tables SET previous_id = 'not an id!' WHERE {T}",
    "previous loop": "UPDATE ledger_tables SET previous_id = :tid WHERE id = :prev",
    "token hash empty": f"UPDATE ledger_tables SET token_hash = '' WHERE {T}",
    "idempotency answer not JSON": "UPDATE ledger_idempotency SET answer = 'not json' WHERE table_id = :tid",
    "idempotency answer a list": "UPDATE ledger_idempotency SET answer = '[1]' WHERE table_id = :tid",
    "idempotency status text": "UPDATE ledger_idempotency SET status = 'x' WHERE table_id = :tid",
    "idempotency status 999": "UPDATE ledger_idempotency SET status = 999 WHERE table_id = :tid",
    "idempotency created_at unparseable":
        "UPDATE ledger_idempotency SET created_at = 'not a time' WHERE table_id = :tid",
    "alias a loop": "INSERT INTO ledger_circle_aliases (circle, name, same_as, created_at) "
                    "VALUES (:circle, '乙', '甲', '2024-01-01 00:00:00')",
    "alias to nobody": "UPDATE ledger_circle_aliases SET same_as = '无人' WHERE circle = :circle",
    "alias a number": "UPDATE ledger_circle_aliases SET same_as = 5 WHERE circle = :circle",
    "alias created_at unparseable": "UPDATE ledger_circle_aliases SET created_at = 'x' WHERE circle = :circle",
}

#: the routes of a table's API that read it, and so answer 409 when it cannot be read
API_READS = {("GET", "/api/v1/tables/T"), ("GET", "/api/v1/tables/T/settle-up"), ("POST", "/api/v1/tables/T/hands"),
             ("PUT", "/api/v1/tables/T/hands/1"), ("DELETE", "/api/v1/tables/T/hands/3"),
             ("POST", "/api/v1/tables/T/next-evening"), ("POST", "/api/v1/tables/T/token"),
             ("PUT", "/api/v1/tables/T/rules")}


def _circle(client) -> dict:
    """Two evenings of 4 players: the second (the one tampered with) has 3 hands, one kept under an
    Idempotency-Key, and its circle an alias."""
    first = client.post("/api/v1/tables", json={"game": "q783", "players": PLAYERS}).get_json()
    headers = {"X-Edit-Token": first["edit_token"]}
    client.post(f"/api/v1/tables/{first['id']}/hands", json={"rounds": [], "finish_order": [0]}, headers=headers)
    second = client.post(f"/api/v1/tables/{first['id']}/next-evening", json={}, headers=headers).get_json()
    tid, headers = second["id"], {"X-Edit-Token": second["edit_token"]}
    for seat in (0, 1, 2):
        keyed = {**headers, "Idempotency-Key": "kept-key"} if seat == 0 else headers
        answer = client.post(f"/api/v1/tables/{tid}/hands", json={"rounds": [], "finish_order": [seat]}, headers=keyed)
        assert answer.status_code == 201, answer.get_json()
    read = client.get(f"/api/v1/tables/{tid}").get_json()
    alias = client.post(f"/api/v1/circles/{read['circle']}/aliases", json={"name": "丁", "same_as": "丙"},
                        headers=headers)
    assert alias.status_code == 200, alias.get_json()
    return {"tid": tid, "token": second["edit_token"], "previous": first["id"], "circle": read["circle"],
            "version": read["version"]}


def _tamper(app, sql: str, case: dict) -> bool:
    """Change the rows as another program would; False when the database's column types refuse the value."""
    with app.app_context():
        try:
            db.session.execute(text(sql), {"tid": case["tid"], "prev": case["previous"], "circle": case["circle"]})
            db.session.commit()
        except DBAPIError:
            db.session.rollback()
            return False
    return True


def _probe(app, cases: list[dict], tmp_path: Path) -> list[dict]:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    url = app.config["DATABASE_URL"]
    proc = subprocess.run([sys.executable, str(PROBE), url, str(path)], capture_output=True, text=True, check=False,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@pytest.mark.slow  # a server process of its own
def test_no_route_of_a_table_whose_rows_were_changed_behind_its_back_answers_a_5xx_in_a_new_process(
        ledger_app, tmp_path):  # noqa: F811 - the fixture
    client = ledger_app.test_client()
    cases = []
    for name, sql in {**UNREADABLE, **HARMLESS}.items():
        case = {"name": name, **_circle(client)}
        if _tamper(ledger_app, sql, case):
            cases.append(case)
    answers = _probe(ledger_app, cases, tmp_path)
    assert len(answers) > 30 * len(cases)
    failed = [a for a in answers if a["status"] >= 500]
    assert not failed, "\n".join(json.dumps(a, ensure_ascii=False) for a in failed)
    refused = {a["case"] for a in answers if (a["method"], a["path"]) in API_READS
               and (a["status"], a["code"]) != (409, "table_unreadable")}
    assert not refused & set(UNREADABLE), sorted(refused & set(UNREADABLE))

