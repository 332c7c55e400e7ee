"""跑得快 reads bare ranks ("7 7 8") wherever suits cannot matter; a suit is asked for only where it can:
a straight flush (争上游 108), or ♠3 at the first play under 首出必带黑桃3. The message says so and shows how."""
from __future__ import annotations

import re

import pytest

ZSY = {"preset": "zhengshangyou108"}


@pytest.mark.parametrize("preset", ["paodekuai52", "paodekuai48", "paodekuai45"])
def test_check_reads_bare_ranks_in_one_pack_presets(api, preset):
    status, out = api("paodekuai/check", {"previous": "3 4 5 6 7", "play": "4 5 6 7 8", "rules": {"preset": preset}})
    assert status == 200 and out["legal"] is True, out


def test_hint_reads_a_bare_hand(api):
    status, out = api("paodekuai/hint", {"previous": "7 7", "hand": "9 9 3 4 5 K"})
    assert status == 200 and out["smallest"] == "9 9"


def test_bare_ranks_still_count_against_the_pack(api):
    status, out = api("paodekuai/check", {"play": "2 2", "rules": {"preset": "paodekuai48"}}, lang="en")
    assert status == 422 and out["error"]["code"] == "too_many_copies"


def test_zhengshangyou_asks_for_suits_where_a_straight_flush_could_form(api):
    status, out = api("paodekuai/check", {"previous": "3 4 5 6 7", "play": "4 5 6 7 8", "rules": ZSY}, lang="en")
    assert status == 422 and out["error"]["code"] == "suit_required" and out["error"]["field"] == "play"
    assert "straight flush" in out["error"]["message"] and "♥3 ♥4 ♥5 ♥6 ♥7" in out["error"]["message"]
    status, out = api("paodekuai/check", {"previous": "♠3 ♥4 ♠5 ♠6 ♠7", "play": "A 2 3 4 5", "rules": ZSY})
    assert status == 422 and "同花顺" in out["error"]["message"] and out["error"]["field"] == "play"


def test_zhengshangyou_takes_bare_ranks_that_cannot_make_a_straight(api):
    status, out = api("paodekuai/check", {"previous": "7 7", "play": "9 9", "rules": ZSY})
    assert status == 200 and out["legal"] is True
    status, out = api("paodekuai/check", {"previous": "♠3 ♥4 ♠5 ♠6 ♠7", "play": "♥4 ♥5 ♣6 ♥7 ♥8", "rules": ZSY})
    assert status == 200 and out["legal"] is True


def test_spade_three_first_asks_for_the_suit_of_a_bare_three_at_the_first_play(api):
    rules = {"spade3_first": True}
    status, out = api("paodekuai/check", {"play": "3 3", "first_play": True, "rules": rules}, lang="en")
    assert status == 422 and out["error"]["code"] == "suit_required" and "♠3" in out["error"]["message"]
    status, out = api("paodekuai/check", {"play": "♠3 3", "first_play": True, "rules": rules})
    assert status == 200 and out["legal"] is True
    status, out = api("paodekuai/check", {"play": "3 3", "rules": rules})  # not the first play: suits do not matter
    assert status == 200 and out["legal"] is True


def test_settle_bomb_cards_may_be_bare(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 7, 8], "rules": {"bomb_points": 10},
                                           "bombs": [{"seat": 1, "cards": "9 9 9 9"}]})
    assert status == 200 and sum(out["deltas"]) == 0


def test_check_page_shows_the_suit_message_with_its_example(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = app.test_client().post("/paodekuai/check", data={"previous": "3 4 5 6 7", "play": "4 5 6 7 8",
                                                            "rules-preset": "zhengshangyou108"}).get_data(as_text=True)
    assert "争上游有同花顺：能连成顺子的牌要写花色，例如「♥3 ♥4 ♥5 ♥6 ♥7」" in re.sub(r"\s+", " ", html)
    assert 'value="4 5 6 7 8"' in html  # what was typed stays
