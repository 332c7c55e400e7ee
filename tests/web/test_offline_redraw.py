"""Offline, a house rule that redraws the settle form (issue 39 item 4): the server redraws the form for the rules
chosen (other seats, other fields); the phone cannot, so it says in words that redrawing needs the signal, and it
never answers a form drawn for other rules (跑得快's 48-card preset chosen on the 4-seat form: the API refuses four
seats' cards for a 3-player game, and the phone must not answer three deltas). The form says what it was drawn for
(its hidden ``drawn``); the phone's glue (webapp/offline_page.py) compares it with the form these rules draw."""
from __future__ import annotations

import re

import pytest

from scoring.i18n import render
from webapp.offline_page import REDRAW, answer

pytestmark = pytest.mark.shared_app

FOUR_SEATS = [("winner", "0"), *((f"cards_left-{i}", str(i)) for i in range(4)),
              *((f"names-{i}", "") for i in range(4))]
PDK48 = ("rules-preset", "paodekuai48")


def drawn(client, redrawn_for: dict | None = None) -> tuple[str, str]:
    """The settle tab's form as the server draws it (for the rules ``redrawn_for``): its hidden ``drawn`` field."""
    page = client.get("/paodekuai/settle").get_data(as_text=True)
    if redrawn_for:
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        page = client.post("/paodekuai/settle", data={**redrawn_for, "action": "refresh", "csrf_token": token},
                           headers={"HX-Request": "true"}).get_data(as_text=True)
    return ("drawn", re.search(r'name="drawn" value="([^"]*)"', page).group(1))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_48_card_preset_on_the_4_seat_form_is_not_answered_but_said_to_need_the_signal(client, api, lang):
    form = [drawn(client), PDK48, *FOUR_SEATS]
    phone = answer("paodekuai", "settle", form, lang)
    assert "result" not in phone
    assert phone["error"]["code"] == "needs_signal"
    assert phone["error"]["message"] == render(REDRAW, lang)
    texts = repr(phone["view"])
    assert ("重画要联网" if lang == "zh" else "needs a signal") in texts
    status, refused = api("paodekuai/settle", {"rules": {"preset": "paodekuai48"}, "winner": 0,
                                               "cards_left": [0, 1, 2, 3]})
    assert status == 422, refused


def test_asking_the_server_to_redraw_for_other_seats_says_it_needs_the_signal(client):
    refresh = answer("paodekuai", "settle", [drawn(client), PDK48, ("action", "refresh"), *FOUR_SEATS], "zh")
    switch = answer("paodekuai", "settle", [drawn(client), ("switch_preset", "paodekuai48"), *FOUR_SEATS], "zh")
    assert refresh["error"]["code"] == switch["error"]["code"] == "needs_signal"


def test_a_redraw_that_changes_nothing_leaves_the_form_as_it_is(client):
    same = answer("paodekuai", "settle", [drawn(client), ("rules-stake", "2"), ("action", "refresh"), *FOUR_SEATS],
                  "zh")
    assert same == {"view": None}


def test_a_rule_that_shows_another_field_needs_the_signal_too(client):
    bird = answer("paodekuai", "settle", [drawn(client), ("rules-zhaniao", "cards"), *FOUR_SEATS], "en")
    assert bird["error"]["code"] == "needs_signal"


def test_a_row_added_offline_needs_the_signal(client):
    rows = answer("paodekuai", "settle", [drawn(client), ("action", "add:bombs"), *FOUR_SEATS], "zh")
    assert rows["error"]["code"] == "needs_signal"


def test_a_form_drawn_for_the_rules_posted_is_answered_as_the_api_answers(client, api):
    form = [drawn(client, dict([PDK48])), PDK48, *FOUR_SEATS[:4], *FOUR_SEATS[5:8]]
    assert form[0][1].startswith("3:")  # the server redrew it for 3 seats
    phone = answer("paodekuai", "settle", form, "zh")
    status, api_answer = api("paodekuai/settle", {"rules": {"preset": "paodekuai48"}, "winner": 0,
                                                  "cards_left": [0, 1, 2]})
    assert status == 200
    assert phone["result"]["deltas"] == api_answer["deltas"]
