"""The words a form uses for the field an engine message names (``result_view.action_label``: the page and the
phone name a refused box by its label, not by its engine path), and the answer box of an action the page draws
no table for (its reason, as a sentence)."""
from __future__ import annotations

import pytest

from scoring.i18n import render
from scoring.registry import get_game
from scoring.result_view import action_label, result_view

HONGWU = get_game("hongwu")


@pytest.mark.parametrize("action, path, en, zh", [
    ("trick", "plays[1]", "Second play", "第二家"),            # one box a seat: plays[1] is the box play1
    ("check", "cards", "Your play", "你要出的牌"),             # a lone play's cards are the box play
    ("check", "hand", "Your hand (before playing)", "你的手牌"),  # a field is its own box (the zh words cut at （)
], ids=["plays[1]", "cards", "hand"])
def test_an_engine_path_is_named_by_the_label_of_its_box(action, path, en, zh):
    assert action_label(HONGWU, action, path, "en") == en
    assert action_label(HONGWU, action, path, "zh") == zh


def test_an_item_of_a_box_holding_a_list_is_named_by_the_box_and_its_place_from_one():
    assert action_label(HONGWU, "check", "others[2]", "zh") == "其他三家的手牌第3项"
    assert action_label(HONGWU, "check", "others[2]", "en").endswith(", item 3")


def test_a_rules_path_names_the_rule_and_an_unknown_rule_or_box_names_nothing():
    assert action_label(HONGWU, "check", "rules.decks", "en") == "decks"
    assert action_label(HONGWU, "check", "rules.preset", "en") == "preset"
    assert action_label(HONGWU, "check", "rules.no_such_rule", "en") is None
    assert action_label(HONGWU, "trick", "plays[9]", "en") is None      # hongwu has four seats
    assert action_label(HONGWU, "check", "Not A Path!", "en") is None


def test_an_answer_the_page_draws_no_table_for_is_shown_as_its_reason():
    game = get_game("paodekuai")
    result = render(game.run("classify", {"cards": "3 3 3 4"}), "en")
    view = result_view(game, "classify", result, "en")
    assert view["cls"] == "result"
    assert [(child["cls"], child["text"]) for child in view["children"]] == [("reason", result["reason"])]
    assert "triple with a single" in result["reason"]
