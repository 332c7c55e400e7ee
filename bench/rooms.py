"""The rooms a request walks (``python -m bench.rooms``), issue 39 items 5 and 6: counts, not timings.

* a settle post (``POST /erqiwang/settle``, a 二七王 hand, settled): under cProfile, the project's modules and
  functions it passes through (``webapp/`` and ``scoring/``), how many times it enters ``webapp/schema_forms.py``
  (calls of its functions from the project's other modules; apart, those from templates and libraries), how many
  times the posted form is read (``offline_page.Posted`` made, WTForms fields read back as pairs), and how many times the house rules are resolved
  (``Ruleset.resolve``);
* following a table's next hand (``/tables/<id>/edit/rounds``, a Q783 table with one hand): the SQL statements
  and the reads of the table's last hand (``queries.last_hand``) of the page (GET) and of "record" (POST).

No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import cProfile
import json
import pstats
import re
import tempfile
from html import unescape
from pathlib import Path

from sqlalchemy import event

from webapp import create_app

ROOT = Path(__file__).resolve().parent.parent
SETTLE = {"declarer": "0", "bid": "80", "defender_points": "50", "bottom_points": "10", "last_trick": "none"}


def _ours(filename: str) -> str | None:
    path = Path(filename)
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    return str(rel) if rel.parts[0] in ("webapp", "scoring") else None


def settle_rooms(app) -> dict:
    client = app.test_client()
    client.post("/erqiwang/settle", data=SETTLE)  # warm: classes and caches made once per process
    prof = cProfile.Profile()
    prof.enable()
    resp = client.post("/erqiwang/settle", data=SETTLE)
    prof.disable()
    assert resp.status_code == 200
    stats = pstats.Stats(prof).stats
    modules, functions, entered, from_pages, resolved = set(), set(), 0, 0, 0
    readings = {"posted form read (offline_page.Posted made)": 0, "WTForms read back as pairs (form_pairs)": 0}
    for (filename, _, name), (_, calls, _, _, callers) in stats.items():
        mod = _ours(filename)
        if mod is None:
            continue
        modules.add(mod)
        functions.add((mod, name))
        if mod == "webapp/schema_forms.py":
            entered += sum(c[1] for caller, c in callers.items() if _ours(caller[0]) not in (None, mod))
            from_pages += sum(c[1] for caller, c in callers.items() if _ours(caller[0]) is None)
        if mod == "scoring/rules.py" and name == "resolve":
            resolved += calls
        if mod == "webapp/offline_page.py" and name == "__init__":
            readings["posted form read (offline_page.Posted made)"] += calls
        if mod == "webapp/schema_forms.py" and name == "form_pairs":  # the outer calls: a form read back as pairs
            readings["WTForms read back as pairs (form_pairs)"] += sum(c[1] for caller, c in callers.items()
                                                                       if caller[2] != "form_pairs")
    webapp = {m for m in modules if m.startswith("webapp/")}
    return {"modules": len(modules), "webapp modules": sorted(webapp), "functions": len(functions),
            "webapp functions": len({f for f in functions if f[0].startswith("webapp/")}),
            "schema_forms entered": entered,
            "schema_forms entered from templates and libraries": from_pages, "rules resolved": resolved, **readings}


def _state(resp) -> str:
    found = re.search(r'<input id="state" name="state" type="hidden" value="([^"]*)"', resp.get_data(as_text=True))
    return unescape(found.group(1)) if found else ""


class Counted:
    def __init__(self, app):
        from webapp.ledger import queries
        self.statements, self.last = 0, 0
        with app.app_context():
            from webapp.ledger.db import db
            event.listen(db.engine, "before_cursor_execute", self._statement)
        original = queries.last_hand

        def counted(table_id):
            self.last += 1
            return original(table_id)
        self.patch = (queries, original, counted)

    def _statement(self, *args):
        self.statements += 1

    def __enter__(self):
        import sys
        _, _, counted = self.patch
        self.saved = {}
        for name, mod in list(sys.modules.items()):
            if name.startswith("webapp") and getattr(mod, "last_hand", None) is self.patch[1]:
                self.saved[mod] = mod.last_hand
                mod.last_hand = counted
        self.statements = self.last = 0
        return self

    def __exit__(self, *exc):
        for mod, original in self.saved.items():
            mod.last_hand = original


def follow_reads(app) -> dict:
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    created = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    client.get(f"/tables/{created['id']}/edit/{created['edit_token']}")
    client.post(f"/api/v1/tables/{created['id']}/hands", json={"banks": [125] * 4, "rounds": [], "finish_order": [1]},
                headers={"X-Edit-Token": created["edit_token"]})
    url = f"/tables/{created['id']}/edit/rounds"
    out = {}
    counter = Counted(app)
    with counter:
        page = client.get(url)
    out["page (GET)"] = {"statements": counter.statements, "last_hand": counter.last}
    state = _state(client.post(url, data={"state": _state(page), "action": "round", "winner": "0",
                                          "won_with": "fu_q783"}))
    state = _state(client.post(url, data={"state": state, "action": "finish", "place_0": "2"}))
    with counter:
        resp = client.post(url, data={"state": state, "action": "record"})
    assert resp.status_code == 303, resp.status_code
    out["record (POST)"] = {"statements": counter.statements, "last_hand": counter.last}
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                          "DATABASE_URL": f"sqlite:///{tmp}/rooms.db"})
        with app.app_context():
            from webapp.ledger.db import ensure_schema
            ensure_schema()
        print(json.dumps({"settle post": settle_rooms(app), "follow the next hand": follow_reads(app)},
                         ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
