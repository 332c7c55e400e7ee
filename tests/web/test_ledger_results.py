"""A hand's result is stored once, in no language, and rendered in the reader's language when shown
(issue 11), on SQLite and PostgreSQL: what a client receives is as before, an edit shows the new steps
at once, a write that rolls back leaves nothing behind, and hands stored before migration 0004 show
exactly as they did."""
from __future__ import annotations

import pytest
from sqlalchemy import select, text
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_tables_api import first_out, led  # noqa: F401 - the API helper's fixture

from webapp import ledger as m
from webapp.ledger.db import db, migrations_dir


def banked(seat):
    """A Q783 hand that starts a 大局 with banks of 125: the first out (``seat``) takes 50 from each."""
    return {"banks": [125] * 4, **first_out(seat)}


def stored_results(app, table_id):
    with app.app_context():
        return list(db.session.execute(select(m.LedgerHand.result).where(m.LedgerHand.table_id == table_id)
                                       .order_by(m.LedgerHand.number)).scalars())


def test_a_hand_s_steps_are_stored_once_and_each_reader_gets_them_in_their_language(ledger_app, led):
    tid, token = led.create()
    status, out = led.add(tid, token, banked(1))
    assert status == 201, out
    [stored] = stored_results(ledger_app, tid)
    assert "zh" not in stored and "en" not in stored
    assert stored["banks"] == [75, 275, 75, 75] and all("$zh" in step for step in stored["steps"])
    zh, en = led.table(tid, lang="zh")["hands"][0], led.table(tid, lang="en")["hands"][0]
    assert zh["steps"][0] == "开始时的分：甲 125，乙 125，丙 125，丁 125"  # seats by their players' names
    assert en["steps"][0] == "banks at the start: 甲 125, 乙 125, 丙 125, 丁 125"
    assert zh["banks"] == en["banks"] == [75, 275, 75, 75] and zh["banks_before"] == [125] * 4
    csv = ledger_app.test_client().get(f"/tables/{tid}/export.csv?lang=en").get_data(as_text=True)
    assert "banks at the start: 甲 125" in csv


def test_after_an_edit_every_reader_sees_the_new_steps_of_the_hands_settled_again(ledger_app, led):
    tid, token = led.create()
    led.add(tid, token, banked(0))
    led.add(tid, token, first_out(0))
    before = {lang: led.table(tid, lang=lang)["hands"][1]["steps"][0] for lang in ("zh", "en")}  # shown once
    version = led.table(tid)["version"]
    status, out = led.call("PUT", f"tables/{tid}/hands/1", {"version": version, "input": banked(2)}, token=token)
    assert status == 200 and out["resettled"] == [2], out
    after = {lang: led.table(tid, lang=lang)["hands"][1]["steps"][0] for lang in ("zh", "en")}
    assert after["en"] == "banks at the start: 甲 75, 乙 75, 丙 275, 丁 75" != before["en"]
    assert after["zh"] == "开始时的分：甲 75，乙 75，丙 275，丁 75" != before["zh"]


def test_hands_settled_again_after_an_edit_show_the_steps_a_fresh_record_of_the_same_hands_shows(ledger_app, led):
    later = [first_out(1), first_out(2), first_out(3)]  # each starts from the banks the hand before left
    edited, token = led.create()
    for data in (banked(0), *later):
        assert led.add(edited, token, data)[0] == 201
    status, out = led.call("PUT", f"tables/{edited}/hands/1", {"version": led.table(edited)["version"],
                                                                 "input": banked(2)}, token=token)
    assert status == 200 and out["resettled"] == [2, 3], out  # hand 3 empties a bank: hand 4 starts afresh
    assert [("steps" in result) for result in stored_results(ledger_app, edited)] == [True, False, False, True]
    fresh, token = led.create()
    for data in (banked(2), *later):
        assert led.add(fresh, token, data)[0] == 201
    for lang in ("zh", "en"):
        shown, expected = led.table(edited, lang=lang)["hands"], led.table(fresh, lang=lang)["hands"]
        assert [(h["deltas"], h["steps"]) for h in shown] == [(h["deltas"], h["steps"]) for h in expected]
        csv = ledger_app.test_client().get(f"/tables/{edited}/export.csv?lang={lang}").get_data(as_text=True)
        assert all(step in csv for hand in expected for step in hand["steps"])
    page = ledger_app.test_client().get(f"/tables/{edited}?lang=en").get_data(as_text=True)
    assert expected[3]["steps"][0] in page


def test_a_stored_result_without_steps_that_the_ledger_did_not_settle_quietly_shows_none_made_up(ledger_app, led):
    tid, token = led.create()
    for data in (banked(0), first_out(1)):
        assert led.add(tid, token, data)[0] == 201
    with ledger_app.app_context():  # written by another program: no steps, and nothing it started from
        db.session.execute(text("UPDATE ledger_hands SET result = :r WHERE table_id = :t AND number = 2"),
                           {"r": '{"banks": [1, 2, 3, 4]}', "t": tid})
        db.session.commit()
    hand = led.table(tid, lang="en")["hands"][1]
    assert hand["steps"] == [] and hand["deltas"] == [-50, 150, -50, -50]


def test_a_write_that_rolls_back_after_showing_its_hand_leaves_no_rendering_behind(ledger_app, led):
    tid, token = led.create()

    def show_then_fail(answer):
        [hand] = m.load_table(tid).hands
        hand.shown("en")
        raise RuntimeError("the answer could not be sent")

    with ledger_app.test_request_context():
        with pytest.raises(RuntimeError):
            m.record_hand(tid, token, lambda: banked(0), respond=show_then_fail)
    status, _ = led.add(tid, token, banked(3))  # the same hand number, at the same table version
    assert status == 201
    assert led.table(tid, lang="en")["hands"][0]["banks"] == [75, 75, 75, 275]
    assert led.table(tid, lang="en")["hands"][0]["steps"][1] == "丁 went out first: 丁 wins"


OLD = {"zh": {"steps": ["开始时的分：1号位 100，2号位 100，3号位 100", "罚分：其他每人付50"],
              "banks": [200, 50, 50], "banks_before": [100, 100, 100], "game_over": False},
       "en": {"steps": ["banks at the start: seat 1 100, seat 2 100, seat 3 100", "penalty: each other player pays 50"],
              "banks": [200, 50, 50], "banks_before": [100, 100, 100], "game_over": False}}


def stored_before_0004(app):
    """A table with one hand as it was stored before migration 0004 (its result once per language)."""
    import json

    from flask_migrate import upgrade
    upgrade(directory=migrations_dir(), revision="0003")
    now = "2026-12-01 12:00:00"
    db.session.execute(text("INSERT INTO ledger_tables (id, token_hash, game, players, rules, version, created_at, "
                            "updated_at) VALUES ('t1', 'x', 'q783', :p, '{}', 2, :n, :n)"),
                       {"n": now, "p": json.dumps(["甲", "乙", "丙"])})
    db.session.execute(text("INSERT INTO ledger_hands (table_id, number, input, deltas, result, created_at, "
                            "updated_at) VALUES ('t1', 1, :i, :d, :r, :n, :n)"),
                       {"n": now, "i": json.dumps(first_out(0)), "d": "[100, -50, -50]",
                        "r": json.dumps(OLD, ensure_ascii=False)})
    db.session.commit()


@pytest.mark.empty_database
def test_migration_0004_keeps_how_a_stored_hand_shows_in_each_language_and_downgrading_restores_it(ledger_app, led):
    from flask_migrate import downgrade, upgrade
    with ledger_app.app_context():
        stored_before_0004(ledger_app)
        upgrade(directory=migrations_dir())
        [stored] = stored_results(ledger_app, "t1")
        assert set(stored) == {"steps", "banks", "banks_before", "game_over"} and stored["banks"] == [200, 50, 50]
        db.session.remove()
    for lang in ("zh", "en"):
        read = led.table("t1", lang=lang)
        hand = read["hands"][0]
        assert hand["steps"] == OLD[lang]["steps"] and hand["banks_before"] == [100, 100, 100]
        assert not hand["game_over"] and read["banks"] == [200, 50, 50]  # the next hand starts from them
    with ledger_app.app_context():
        downgrade(directory=migrations_dir(), revision="0003")
        assert stored_results(ledger_app, "t1") == [OLD]
        db.session.remove()


def test_results_settled_again_are_written_whatever_a_json_column_holds(ledger_app, led):
    """The one-statement write of hands settled again (PostgreSQL's json_to_recordset) cannot take a NUL that a
    json column can: such rows are written the row-by-row way, and read back as they were."""
    from webapp.ledger.settling import _write_results
    tid, token = led.create()
    for seat in (1, 2):
        assert led.add(tid, token, banked(seat))[0] == 201
    odd = {"banks": [1, 2, 3, 4], "note": "a\x00b", "名": "汉字"}
    with ledger_app.app_context():
        table = db.session.get(m.LedgerTable, tid)
        hand_ids = db.session.execute(select(m.LedgerHand.id).where(m.LedgerHand.table_id == tid)
                                      .order_by(m.LedgerHand.number)).scalars().all()
        _write_results(table, [{"hand_id": hand_ids[1], "deltas": [5, -5, 0, 0], "result": odd, "seats": None,
                                "ends_series": True}])
        db.session.commit()
    row = led.table(tid)["hands"][1]
    assert row["deltas"] == [5, -5, 0, 0]
    assert stored_results(ledger_app, tid)[1] == odd
