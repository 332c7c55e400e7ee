"""The smallest legal play of the shedding games (rules/common.md, "Smallest legal play"): its binding examples
through the HTTP API, how a play is written, and why the hint says that play."""
from __future__ import annotations

import pytest

ZSY = {"preset": "zhengshangyou108"}


def hint(api, game, hand, previous=None, lang="en", **extra):
    status, out = api(f"{game}/hint", {"hand": hand, "previous": previous, **extra}, lang=lang)
    assert status == 200, out
    return out


# --- the binding examples of common.md -------------------------------------------------------------------

@pytest.mark.parametrize(("game", "table", "hand", "smallest"), [
    ("paodekuai", "♠5", "♠3 ♥3 ♣3 ♦3 ♠9 ♥K", "♠9"),
    ("shuangkou", "9", "3 3 3 3 J", "J"),
    ("shuangkou", "8 8", "3 3 3 3 J J", "J J"),
    ("paodekuai", "♠K", "♠9 ♥9 ♣9 ♦9 ♠3 ♥4", "♠9 ♥9 ♣9 ♦9"),  # only the bomb beats a K
])
def test_binding_examples_of_the_smallest_play(api, game, table, hand, smallest):
    assert hint(api, game, hand, table)["smallest"] == smallest


def test_leading_with_a_3_the_smallest_play_is_the_single_3_not_33(api):
    out = hint(api, "paodekuai", "♠3 ♥3 ♠8 ♥8 ♣8")
    assert out["smallest"] == "♠3" and out["plays"][:2] == ["♠3", "♠3 ♥3"]


def test_a_play_is_written_deciding_group_first_then_the_kickers(api):
    out = hint(api, "paodekuai", "♠10 ♥10 ♣10 ♠3 ♠J", "♠9 ♥9 ♣9 ♦4 ♠5", rules={"preset": "paodekuai52"})
    assert out["plays"] == ["♠10 ♥10 ♣10 ♠3 ♠J"]  # not "♠J ♠10 ♥10 ♣10 ♠3"


# --- the order -------------------------------------------------------------------------------------------

def test_no_bomb_while_a_plain_play_beats_even_a_higher_one(api):
    out = hint(api, "paodekuai", "♠3 ♥3 ♣3 ♦3 ♠A", "♠5")
    assert out["plays"] == ["♠A", "♠3 ♥3 ♣3 ♦3"]


def test_the_lowest_deciding_rank_the_triple_of_a_triple_with_one(api):
    # 三带一 ranks by its triple: 444 + K before 555 + 4, though 555 + 4 holds no K
    out = hint(api, "paodekuai", "♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠K", "♠3 ♥3 ♣3 ♦6")
    assert out["smallest"] == "♠4 ♥4 ♣4 ♠K"  # and the loose K before a 5 out of the triple 555
    assert out["plays"].index("♠4 ♥4 ♣4 ♠K") < out["plays"].index("♠5 ♥5 ♣5 ♠4")


def test_a_kicker_is_a_loose_card_before_one_out_of_a_pair(api):
    out = hint(api, "paodekuai", "♠10 ♥10 ♣10 ♠3 ♥3 ♠J", "♠9 ♥9 ♣9 ♦4")
    assert out["smallest"] == "♠10 ♥10 ♣10 ♠J"  # the loose J, not a 3 out of the pair 3 3


def test_a_kicker_out_of_a_triple_only_when_no_loose_card_serves(api):
    out = hint(api, "paodekuai", "♠10 ♥10 ♣10 ♠4 ♥4 ♣4 ♠Q", "♠9 ♥9 ♣9 ♦3")
    assert out["plays"][:2] == ["♠10 ♥10 ♣10 ♠Q", "♠10 ♥10 ♣10 ♠4"]


def test_the_weakest_bomb_when_only_bombs_beat(api):
    out = hint(api, "paodekuai", "♠9 ♥9 ♣9 ♦9 ♠6 ♥6 ♣6 ♦6", "♠2", rules={"preset": "paodekuai52"})
    assert out["plays"] == ["♠6 ♥6 ♣6 ♦6", "♠9 ♥9 ♣9 ♦9"]


def test_the_top_of_a_run_decides_a_low_run_counts_its_ace_as_1(api):
    out = hint(api, "paodekuai", "♠A ♥2 ♣3 ♦4 ♠5 ♥6 ♣7", "♣3 ♦4 ♥5 ♠6 ♥7", rules=ZSY)
    assert out["plays"] == []  # a run beats a run of as many cards with a higher top
    out = hint(api, "paodekuai", "♠A ♥2 ♣3 ♦4 ♠5 ♥6 ♣7 ♦8")
    five = [p for p in out["plays"] if len(p.split()) == 5]
    assert five[0] == "♣3 ♦4 ♠5 ♥6 ♣7"


def test_shuangkou_plain_plays_before_every_bomb_when_leading(api):
    out = hint(api, "shuangkou", "3 3 3 3 9 9")
    assert out["plays"][-1] == "3 3 3 3" and out["smallest"] == "3"


def test_q783_plays_a_pair_before_spending_its_q783(api):
    out = hint(api, "q783", "♥Q ♥7 ♥8 ♥3 ♠9 ♥9", "♠6 ♥6")
    assert out["smallest"] == "♠9 ♥9" and out["plays"][-1] == "♥Q ♥7 ♥8 ♥3"


# --- the reason ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "words"), [("zh", "最小：不用炸弹也能管上"),
                                             ("en", "smallest: beats the table without a bomb")])
def test_the_hint_says_a_plain_play_beats_without_the_bomb(api, lang, words):
    out = hint(api, "paodekuai", "♠3 ♥3 ♣3 ♦3 ♠9 ♥K", "♠5", lang=lang)
    assert words in out["reason"] and "♠9" in out["reason"]


def test_the_hint_says_only_a_bomb_beats(api):
    out = hint(api, "paodekuai", "♠9 ♥9 ♣9 ♦9 ♠3 ♥4", "♠K")
    assert "only a bomb beats the table" in out["reason"]


def test_the_hint_says_the_lowest_beats_when_no_bomb_is_held(api):
    out = hint(api, "paodekuai", "♠7 ♥9 ♠K", "♠5")
    assert "the lowest that beats the table" in out["reason"] and "bomb" not in out["reason"]


def test_the_hint_page_shows_the_reason(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    client.get("/lang/en")
    page = client.post("/paodekuai/hint", data={"hand": "♠3 ♥3 ♣3 ♦3 ♠9 ♥K", "previous": "♠5"})
    assert page.status_code == 200 and "beats the table without a bomb" in page.get_data(as_text=True)
