"""Q783 banks are sums of score cards (5, 10, K …) less payments of 5s: only multiples of 5 are valid,
and the refusal says so with the nearest valid values — on the API, the settle form and the round tracker."""
from __future__ import annotations

import re


def _body(banks):
    return {"players": 4, "banks": banks, "rounds": [], "finish_order": [0]}


def test_a_bank_off_the_5s_is_refused_with_what_is_valid(api):
    status, out = api("q783/settle", _body([100, 33, 100, 100]), lang="en")
    assert status == 422 and out["error"]["code"] == "not_multiple_of_5" and out["error"]["field"] == "banks[1]"
    assert "only multiples of 5 are valid, such as 30 or 35" in out["error"]["message"]
    assert "seat 2" in out["error"]["message"]


def test_every_bank_off_the_5s_is_named_at_once(api):
    status, out = api("q783/settle", _body([101, 100, 7, 100]))
    assert status == 422 and [e["field"] for e in out["errors"]] == ["banks[0]", "banks[2]"]


def test_banks_in_5s_settle(api):
    status, out = api("q783/settle", _body([105, 95, 100, 100]))
    assert status == 200 and out["banks"] is not None


def test_settle_form_shows_the_multiple_of_5_message_on_the_bank(app):
    app.config["WTF_CSRF_ENABLED"] = False
    data = {"players": "4", "banks-0": "100", "banks-1": "33", "banks-2": "100", "banks-3": "100",
            "finish_order-0": "0"}
    html = re.sub(r"\s+", " ", app.test_client().post("/q783/settle", data=data).get_data(as_text=True))
    assert "只能是5的倍数，例如30或35" in html and 'value="33"' in html


def test_round_tracker_refuses_a_bank_off_the_5s(app):
    app.config["WTF_CSRF_ENABLED"] = False
    data = {"bank_0": "100", "bank_1": "100", "bank_2": "42", "bank_3": "100", "action": "start"}
    html = re.sub(r"\s+", " ", app.test_client().post("/q783/rounds", data=data).get_data(as_text=True))
    assert "只能是5的倍数，例如40或45" in html
