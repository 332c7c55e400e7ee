"""A hand states who sat where, on the page (issue 38, item 1): the new-hand form carries the seating it was
filled against, and a form posted after the seats changed records nothing, says so in words (zh and en) and
keeps what was typed; a form sent again under a key already recorded says so (SQLite and PostgreSQL)."""
from __future__ import annotations

import html as markup
import re

import pytest
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_record_contract import HAND, PLAYERS, csrf, hand_count, open_table, read, swap_first_two
from werkzeug.datastructures import MultiDict

SEATED = re.compile(r'<input type="hidden" name="seated" value="([^"]*)"')
WORDS = {"zh": "座位变了：现在坐的是乙 · 甲 · 丙 · 丁，这一局没有记下",
         "en": "the seats have changed: now seated are 乙 · 甲 · 丙 · 丁; this hand was not recorded"}


def seated_in(page: str) -> list[str]:
    return [markup.unescape(name) for name in SEATED.findall(page)]


def hand_fields(token: str, seated: list[str]) -> MultiDict:
    return MultiDict([("csrf_token", token), *(("seated", name) for name in seated),
                      *((name, str(value)) for name, value in HAND.items())])


def test_the_new_hand_form_carries_the_seating_it_was_filled_against(lclient):  # noqa: F811
    table = open_table(lclient)
    lclient.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    assert seated_in(lclient.get(f"/tables/{table['id']}/edit").get_data(as_text=True)) == PLAYERS
    swap_first_two(lclient, table)
    assert seated_in(lclient.get(f"/tables/{table['id']}/edit").get_data(as_text=True)) == ["乙", "甲", "丙", "丁"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_form_filled_before_a_seat_swap_is_409_in_words_keeps_what_was_typed_and_records_nothing(
        lclient, lang):  # noqa: F811
    table = open_table(lclient)
    lclient.set_cookie("lang", lang)
    lclient.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    token = csrf(lclient, f"/tables/{table['id']}/edit")  # the form as filled, against 甲 乙 丙 丁
    swap_first_two(lclient, table)  # another phone swaps the first two seats meanwhile
    resp = lclient.post(f"/tables/{table['id']}/edit", data=hand_fields(token, PLAYERS))
    page = resp.get_data(as_text=True)
    assert resp.status_code == 409 and WORDS[lang] in markup.unescape(page)
    assert 'value="60"' in page and 'name="declarer_points"' in page  # what was typed stays
    assert seated_in(page) == ["乙", "甲", "丙", "丁"]  # saved again, it is checked against the seats now
    assert hand_count(lclient) == 0 and read(lclient, table["id"])["totals"] == [0, 0, 0, 0]
    # saved again as it now stands (the seating now), it is recorded, the seating not kept in its input
    again = lclient.post(f"/tables/{table['id']}/edit", data=hand_fields(token, seated_in(page)))
    assert again.status_code == 303 and hand_count(lclient) == 1
    assert "seated" not in read(lclient, table["id"])["hands"][0]["input"]


def test_a_form_sent_again_under_a_recorded_key_with_other_values_says_so_and_marks_it_already_recorded(
        lclient):  # noqa: F811
    """What a phone that held the hand reads (static/outbox.js): its key was recorded, so it lets the hand go."""
    table = open_table(lclient)
    lclient.get(f"/tables/{table['id']}/edit/{table['edit_token']}")
    token = csrf(lclient, f"/tables/{table['id']}/edit")
    fields = hand_fields(token, PLAYERS)
    fields["idempotency_key"] = "one-hand-one-key"
    assert lclient.post(f"/tables/{table['id']}/edit", data=fields).status_code == 303
    fields["declarer_points"] = "75"  # Back, changed, saved again under the same key
    resp = lclient.post(f"/tables/{table['id']}/edit", data=fields)
    assert resp.status_code == 422 and "data-already-recorded" in resp.get_data(as_text=True)
    assert hand_count(lclient) == 1
