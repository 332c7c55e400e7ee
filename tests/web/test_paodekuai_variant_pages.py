"""跑得快 house rules on the pages: the check and hint tabs take the turn inputs (报单必出最大, 首出必带黑桃3)
in both languages; other shedding games have no such boxes."""
from __future__ import annotations

import re

import pytest


def _text(resp):
    return re.sub(r"\s+", " ", resp.get_data(as_text=True))


@pytest.fixture
def pages(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app.test_client()


@pytest.mark.parametrize("tab", ["check", "hint"])
@pytest.mark.parametrize("lang,words", [("zh", ["下家剩几张", "报单必出最大", "首出必带黑桃3"]),
                                        ("en", ["cards the next player holds", "a single must be your largest", "first play of the hand", "must hold ♠3"])])
def test_check_and_hint_pages_offer_the_turn_inputs_in_both_languages(pages, tab, lang, words):
    pages.get(f"/lang/{lang}")
    html = _text(pages.get(f"/paodekuai/{tab}"))
    assert 'name="next_cards_left"' in html and 'name="first_play"' in html
    assert all(w in html for w in words)


def test_other_shedding_games_have_no_turn_inputs(pages):
    html = _text(pages.get("/shuangkou/check"))
    assert 'name="next_cards_left"' not in html and 'name="first_play"' not in html


def test_check_page_next_on_one_card_refuses_a_small_single(pages):
    data = {"play": "♠9", "hand": "♠9 ♥K ♣4", "next_cards_left": "1", "rules-preset": "paodekuai48",
            "rules-baodan_max": "on"}
    html = _text(pages.post("/paodekuai/check", data=data))
    assert "不能出" in html and "单张必须出手里最大的（K）" in html


def test_hint_page_first_play_lists_only_spade_three(pages):
    data = {"hand": "♠3 ♥4 ♣4", "first_play": "y", "rules-preset": "paodekuai48", "rules-spade3_first": "on"}
    html = _text(pages.post("/paodekuai/hint", data=data))
    assert "共 1 种" in html and '<li class="cards">♠3</li>' in html


def test_check_page_puts_a_bad_card_count_on_its_box(pages):
    data = {"play": "♠9", "hand": "♠9 ♥K", "next_cards_left": "0", "rules-preset": "paodekuai48",
            "rules-baodan_max": "on"}
    html = _text(pages.post("/paodekuai/check", data=data))
    assert re.search(r'has-error[^>]*>\s*<label for="next_cards_left"', html)


HAND = {"winner": "0", "cards_left-0": "", "cards_left-1": "5", "cards_left-2": "13", "cards_left-3": "10"}


@pytest.mark.parametrize("rules,shown", [
    ({}, set()),
    ({"rules-zhaniao": "cards"}, {'name="heart10"'}),
    ({"rules-baopei": "on"}, {'name="let_go"'}),
    ({"rules-bomb_points": "10"}, {'name="bombs-0-seat"'}),
])
def test_settle_form_shows_each_house_rule_field_only_when_its_option_asks(pages, rules, shown):
    html = _text(pages.post("/paodekuai/settle", data={**HAND, **rules}))
    fields = {'name="heart10"', 'name="let_go"', 'name="bombs-0-seat"'}
    assert {f for f in fields if f in html} == shown


def test_settle_page_steps_say_what_zhaniao_did(pages):
    html = _text(pages.post("/paodekuai/settle", data={**HAND, "heart10": "2", "rules-zhaniao": "cards"}))
    assert "3号位：红桃10扎鸟：×2 = −104" in html and "+139" in html


def test_hint_page_says_why_a_first_play_without_spade_three_is_empty(pages):
    data = {"hand": "♥4 ♣4 ♦9", "first_play": "y", "rules-preset": "paodekuai48", "rules-spade3_first": "on"}
    html = _text(pages.post("/paodekuai/hint", data=data))
    assert "按这些规则这一手没有能出的牌" in html
