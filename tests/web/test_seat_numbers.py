"""Seats are numbered from 1 in everything a player reads; the API's seat values stay 0-based."""
from __future__ import annotations

import re

import pytest

from scoring.registry import SLUGS


def _text(resp):
    return re.sub(r"\s+", " ", resp.get_data(as_text=True))


def test_steps_call_seat_value_0_seat_1_while_deltas_stay_indexed_from_0(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 13, 10]}, lang="en")
    assert status == 200 and out["deltas"][0] == 87
    assert "seat 1 went out first and collects 87" in out["steps"]
    assert not any("seat 0" in s for s in out["steps"])
    status, zh = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 13, 10]})
    assert "1号位先出完，收 87" in zh["steps"] and not any("0号位" in s for s in zh["steps"])


def test_an_unknown_seat_value_is_explained_in_values_and_in_seat_numbers(api):
    status, out = api("paodekuai/settle", {"winner": 4, "cards_left": [0, 5, 13, 10]}, lang="en")
    assert status == 422 and out["error"]["code"] == "unknown_seat"
    assert "seat values are 0 to 3 (0 is seat 1, 3 is seat 4)" in out["error"]["message"]


def test_a_per_seat_error_names_the_seat_from_1(api):
    status, out = api("q783/settle", {"players": 4, "banks": [100, -5, 100, 100], "rounds": [],
                                      "finish_order": [0]}, lang="en")
    assert status == 422 and "seat 2" in out["error"]["message"], out


@pytest.mark.parametrize("slug", SLUGS)
def test_settle_form_numbers_its_seat_rows_from_1(client, slug):
    html = _text(client.get(f"/{slug}/settle"))
    seat_nos = re.findall(r'<span class="seat-no">(\d+)</span>', html)
    assert seat_nos and seat_nos[0] == "1" and "0" not in seat_nos
    assert 'aria-label="0号位名字"' not in html and 'aria-label="1号位名字"' in html


@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_never_says_seat_0(client, slug):
    html = _text(client.get(f"/{slug}/rules"))
    assert "0号位" not in html.replace("10号位", "")
    assert not re.search(r"\b0号", html)


@pytest.mark.parametrize("slug", SLUGS)
def test_english_rules_page_never_says_seat_0(client, slug):
    client.get("/lang/en")
    html = _text(client.get(f"/{slug}/rules"))
    assert not re.search(r"\b[Ss]eats? 0\b", html)


def test_settle_result_table_numbers_seats_from_1(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = _text(app.test_client().post("/paodekuai/settle", data={
        "winner": "0", "cards_left-0": "0", "cards_left-1": "5", "cards_left-2": "13", "cards_left-3": "10"}))
    rows = re.findall(r'<tr><td>(\d+)[^<]*</td> ?<td class="num', html)
    assert rows == ["1", "2", "3", "4"], rows
