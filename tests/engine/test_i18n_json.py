"""A value holding bilingual texts is stored once, as plain JSON in no language, and rendered when shown
(scoring.i18n.to_json / from_json / render_json: the ledger stores every hand's result this way)."""
from __future__ import annotations

import json

import pytest

from scoring.i18n import LANGS, from_json, join, render, render_json, seat_name, seats_name, t, to_json
from scoring.registry import get_game


def nested():
    return {"steps": [t("开始时的分：{b}", "banks at the start: {b}", b=join([seat_name(0), "125"], " ", " ")),
                      seats_name([0, 2]) + t("赢", " win"), "plain"],
            "banks": [125, 0], "game_over": False, "rows": [{"who": seat_name(3), "n": 2}], "none": None}


def test_a_stored_value_reads_back_as_the_same_texts_and_renders_as_the_engine_s_in_each_language():
    value = nested()
    stored = json.loads(json.dumps(to_json(value)))  # what the database gives back
    assert from_json(stored) == value
    for lang in LANGS:
        assert render_json(stored, lang) == render(value, lang)
    assert render_json(stored, "en")["steps"][:2] == ["banks at the start: seat 1 125", "seats 1 & 3 win"]


def test_a_settlement_stored_in_no_language_renders_as_each_language_s_rendering():
    result = get_game("q783").run("settle", {"players": 4, "banks": [125] * 4, "rounds": [], "finish_order": [1]})
    stored = json.loads(json.dumps(to_json(result)))
    assert stored["banks"] == result["banks"] and stored["deltas"] == result["deltas"]  # numbers stay numbers
    assert all("$zh" in step for step in stored["steps"])  # each text once, not once per language
    for lang in LANGS:
        assert render_json(stored, lang) == render(result, lang)


def test_a_mapping_that_would_read_back_as_a_text_is_refused():
    with pytest.raises(ValueError):
        to_json({"steps": [{"$zh": "a"}]})


def test_a_text_shown_in_one_language_then_the_other_is_written_afresh_in_each():
    label = t("{k}（{d}）", "{k} ({d})", k=t("连对", "pair run"), d="8 8 9 9")
    reason = t("{r} 管得上桌上的 {tb}", "{r} beats the table’s {tb}", r=label, tb=label)
    for _ in range(2):  # a label is often shown several times in one answer, and the next may be in English
        assert reason.render("zh") == "连对（8 8 9 9） 管得上桌上的 连对（8 8 9 9）"
        assert label.render("zh") == "连对（8 8 9 9）"
        assert reason.render("en") == "pair run (8 8 9 9) beats the table’s pair run (8 8 9 9)"
        assert label.render("en") == "pair run (8 8 9 9)"
