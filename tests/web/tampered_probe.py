"""Run in a process of its own by tests/web/test_tampered_rows.py: a fresh app on a database whose rows were
changed behind its back probes every route of each tampered table and prints what each answered, one JSON
object a line: ``{"case", "method", "path", "status", "code"}`` (``code``: the API error's code, if any).

    python tests/web/tampered_probe.py DATABASE_URL CASES.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flask import got_request_exception

from webapp import create_app

HAND = {"rounds": [], "finish_order": [1]}


def routes(case: dict) -> list[tuple[str, str, dict | None, dict | None, dict | None]]:
    """(method, path, form data, JSON body, headers) of every route that reads the tampered table ``tid``, reads
    first, then writes, the destructive ones last."""
    tid, prev, circle, token = case["tid"], case["previous"], case["circle"], case["token"]
    t, api, edit = f"/tables/{tid}", f"/api/v1/tables/{tid}", {"X-Edit-Token": token}
    keyed = {**edit, "Idempotency-Key": "kept-key"}
    return [
        ("GET", f"{t}/edit/{token}", None, None, None), ("GET", t, None, None, None),
        ("GET", f"{t}/edit", None, None, None), ("GET", f"{t}/live?v=1", None, None, None),
        ("GET", f"{t}/edit/live?v=1", None, None, None), ("GET", f"{t}/settle-up", None, None, None),
        ("GET", f"{t}/settle-up?per_point=2", None, None, None), ("GET", f"{t}/qr.svg", None, None, None),
        ("GET", f"{t}/export.csv", None, None, None), ("GET", f"{t}/edit/hands/1", None, None, None),
        ("GET", f"{t}/edit/hands/2", None, None, None), ("GET", f"{t}/edit/hands/2/delete", None, None, None),
        ("GET", f"{t}/edit/delete", None, None, None), ("GET", f"{t}/edit/rounds", None, None, None),
        ("GET", f"/tables/{prev}", None, None, None), ("GET", f"/api/v1/tables/{prev}", None, None, None),
        ("GET", f"/circles/{circle}", None, None, None), ("GET", f"/circles/{circle}/export.csv", None, None, None),
        ("GET", f"/api/v1/circles/{circle}", None, None, None),
        ("GET", api, None, None, None), ("GET", f"{api}/settle-up", None, None, None),
        ("GET", f"{api}/settle-up?per_point=0.5", None, None, None),
        ("POST", f"{api}/hands", None, HAND, keyed), ("POST", f"{api}/hands", None, HAND, edit),
        ("PUT", f"{api}/hands/1", None, {"version": case["version"], "input": HAND}, edit),
        ("PUT", f"{api}/hands/2", None, {"version": case["version"], "input": HAND}, edit),
        ("DELETE", f"{api}/hands/3", None, None, edit),
        ("PUT", f"{api}/rules", None, {"version": case["version"], "rules": {"preset": None}}, edit),
        ("POST", f"/api/v1/circles/{circle}/aliases", None, {"name": "甲", "same_as": "乙"}, edit),
        ("POST", f"{t}/edit", {"finish_order-0": "1"}, None, None),
        ("POST", f"{t}/edit/hands/1", {"finish_order-0": "2", "version": str(case["version"])}, None, None),
        ("POST", f"{t}/edit/undo", {"version": str(case["version"])}, None, None),
        ("POST", f"{t}/edit/redo", {}, None, None),
        ("POST", f"{t}/edit/rules", {"version": str(case["version"]), "rules-preset": ""}, None, None),
        ("POST", f"{t}/edit/seats", {"kind": "rename", "seat": "1", "name": "新"}, None, None),
        ("POST", f"{t}/edit/seats", {"kind": "swap", "seat": "1", "other": "2"}, None, None),
        ("POST", f"{t}/edit/circle-aliases", {"name": "甲", "same_as": "乙"}, None, None),
        ("POST", f"{t}/edit/hands/2/delete", {}, None, None),
        ("POST", f"{api}/next-evening", None, {}, edit), ("POST", f"{t}/edit/new-evening", {}, None, None),
        ("POST", f"{api}/token", None, None, edit), ("DELETE", api, None, None, {"X-Edit-Token": "wrong"}),
    ]


def main(url: str, cases_file: str) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False,
                      "LEDGER_CREATE_LIMIT": "10000 per minute", "LEDGER_WRITE_LIMIT": "10000 per minute"})
    app.config["PROPAGATE_EXCEPTIONS"] = False  # an uncaught error is the 500 a user would see
    raised: list[str] = []

    def note(sender, exception, **extra):
        import traceback
        frame = traceback.extract_tb(exception.__traceback__)[-1]
        raised.append(f"{type(exception).__name__}: {str(exception)[:120]} at {Path(frame.filename).name}:{frame.lineno}")
    got_request_exception.connect(note, app, weak=False)
    for case in json.loads(Path(cases_file).read_text()):
        client = app.test_client()
        for method, path, data, body, headers in routes(case):
            raised.clear()
            answer = client.open(path, method=method, data=data, json=body, headers=headers)
            code = None
            if answer.is_json:
                error = (answer.get_json(silent=True) or {}).get("error") if isinstance(answer.get_json(silent=True), dict) else None
                code = error.get("code") if isinstance(error, dict) else None
            print(json.dumps({"case": case["name"], "method": method, "path": path.replace(case["tid"], "T"),
                              "status": answer.status_code, "code": code,
                              "raised": raised[-1] if answer.status_code >= 500 and raised else None},
                             ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
