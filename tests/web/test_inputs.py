"""The declared settle inputs (scoring/inputs.py): one declaration gives the checks, the labels and the words."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.errors import InputErrors
from scoring.i18n import render
from scoring.inputs import Values, strict_int
from scoring.registry import all_games, get_game
from scoring.rules import Rules

pytestmark = pytest.mark.shared_app


def read(slug, payload, rules=None):
    game = get_game(slug)
    resolved = game.ruleset.resolve(rules or {})
    return game.settle_input.read(payload, game.input_context(resolved))


def problems(slug, payload, rules=None):
    with pytest.raises(InputErrors) as caught:
        read(slug, payload, rules)
    return caught.value.errors


def test_every_problem_of_a_request_is_reported_at_once_with_its_path():
    errors = problems("hongwu", {"declarer": 9, "bid": 63, "declarer_points": "x", "red_fives": [{"owner": 1}]})
    assert [e.field for e in errors] == ["declarer", "bid", "declarer_points", "red_fives[0].captured_by"]


def test_messages_name_fields_by_their_labels_in_both_languages():
    (error,) = problems("hongwu", {"declarer": 0, "bid": 63, "declarer_points": 80})
    assert render(error.message, "zh") == "「叫分」为63：只能是5的倍数，例如60或65"
    assert render(error.message, "en") == "“the bid” is 63: only multiples of 5 are valid, such as 60 or 65"


def test_a_field_inside_a_row_is_named_by_its_row():
    (error,) = problems("shuangkou", {"finish_order": [0, 2], "bombs": [{"seat": 1, "lines": 12}]})
    assert error.field == "bombs[0].lines"
    assert render(error.message, "zh").startswith("「炸弹1线数」") and "bomb 1" in render(error.message, "en")


@pytest.mark.parametrize("raw,value", [(5, 5), ("5", 5), (" -3 ", -3), ("+7", 7), ("²", None), ("--1", None),
                                       ("١٢", None), (5.0, 5), (5.5, None), (1e300, None), (True, None), ("1e3", None), ("", None)])
def test_numbers_are_a_json_integer_with_no_fraction_or_ascii_digits_with_one_sign(raw, value):
    assert strict_int(raw) == value


def test_a_lone_surrogate_or_control_character_in_cards_is_refused_without_being_echoed():
    for bad in ("♠7\ud800", "♠7\x00", "♠7\x1b"):
        (error,) = problems("shuangkou", {"finish_order": [0, 2], "bombs": [{"seat": 1, "cards": bad}]})
        assert error.code == "bad_character" and error.field == "bombs[0].cards"
        text = render(error.message, "en")
        text.encode("utf-8")  # renderable: nothing raw
        assert "\\x" in text or "\\u" in text


def test_a_control_character_that_is_white_space_separates_cards_in_every_card_field():
    """As the card reader and the document's card pattern take it (U+001C, U+0085 …)."""
    values = read("shuangkou", {"finish_order": [0, 2], "bombs": [{"seat": 1, "cards": "♠7\x1c♥7\x85♣7\x0b♦7"}]})
    assert len(values.bombs[0].cards) == 4


def test_shuangkou_bomb_cards_and_lines_that_disagree_are_an_error_quoting_both(api):
    status, out = api("shuangkou/settle", {"finish_order": [0, 2], "bombs": [{"seat": 0, "cards": "7 7 7 7 7",
                                                                               "lines": 7}]}, lang="en")
    assert status == 422 and out["error"]["code"] == "cards_lines_disagree"
    assert out["error"]["field"] == "bombs[0].lines"
    assert "7 7 7 7 7" in out["error"]["message"] and "5-line" in out["error"]["message"] and "7" in out["error"]["message"]


def test_the_api_lists_every_problem_under_errors(api):
    status, out = api("erqiwang/settle", {"declarer": 7, "bid": 81, "defender_points": 3}, lang="en")
    assert status == 422
    assert [e["field"] for e in out["errors"]] == ["declarer", "bid", "defender_points"]
    assert out["error"] == out["errors"][0]


def test_rows_have_no_fixed_cap_below_what_the_game_allows():
    rounds = [{"winner": i % 4, "count": 1} for i in range(40)]
    values = read("q783", {"rounds": rounds, "finish_order": [0]}, {"scoring": "cards"})
    assert len(values.rounds) == 40
    bombs = [{"seat": i % 4, "lines": 4} for i in range(20)]
    assert len(read("shuangkou", {"finish_order": [0, 2], "bombs": bombs}).bombs) == 20


def test_a_hand_in_words_names_the_players_and_says_each_field():
    game = get_game("hongwu")
    rules = game.ruleset.resolve({})
    words = game.input_words({"declarer": 1, "bid": 100, "declarer_points": 120, "red_fives": [
        {"owner": 0, "captured_by": 1}]}, rules, ("阿明", "老王", "小红", "Jen"))
    assert [render(w, "zh") for w in words] == ["庄家 老王", "叫分 100", "庄家抓分 120", "被抓的红五：阿明 被谁抓 老王"]


@settings(max_examples=examples(60), deadline=None)
@given(payload=st.dictionaries(st.sampled_from(["declarer", "bid", "winner", "cards_left", "finish_order", "bombs",
                                                "rounds", "banks", "chongguan", "red_fives", "players", "teams"]),
                               st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                                            lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c,
                                                                                                 max_size=4),
                                            max_leaves=12)))
def test_any_json_shape_is_read_or_refused_with_input_errors_never_a_crash(payload):
    for game in all_games():
        rules = game.ruleset.resolve({})
        try:
            game.settle_input.read(payload, game.input_context(rules))
        except InputErrors as exc:
            assert all(e.field is None or isinstance(e.field, str) for e in exc.errors)


def test_a_choice_is_said_in_words_in_a_hands_words_and_a_bad_choice_lists_the_values_with_their_words():
    game = get_game("q783")
    rounds = next(f for f in game.settle_input.fields if f.name == "rounds")
    won_with = next(f for f in rounds.fields if f.name == "won_with")
    assert render(won_with.value_words("plain", None), "zh") == "普通牌"
    assert render(won_with.value_words("plain", None), "en") == "a plain play"
    with pytest.raises(InputErrors) as caught:
        game.run("settle", {"players": 4, "rounds": [{"winner": 0, "won_with": "nonsense"}],
                            "finish_order": [0, 1, 2, 3], "rules": {"scoring": "pattern"}})
    message = render(caught.value.errors[0].message, "zh")
    assert "plain（普通牌）" in message and "nonsense" in message


def test_read_input_and_resolved_rules_answer_as_attributes_what_they_hold_as_items_and_keep_their_own_methods():
    values = Values()
    values["winner"], values["items"] = 2, "a field named like a dict method"
    assert values.winner == values["winner"] == 2
    assert values["items"] == "a field named like a dict method" and list(values.items())[0] == ("winner", 2)
    with pytest.raises(AttributeError):
        values.let_go  # noqa: B018 - a field that was not read is no attribute
    rules = Rules("paodekuai52", {"stake": 3, "key": "a setting named like a method", "preset": "not this"})
    assert rules.stake == rules["stake"] == 3 and rules.preset == rules["preset"] == "paodekuai52"
    assert rules["key"] == "a setting named like a method" and rules.key == (("key", "a setting named like a method"),
                                                                             ("preset", "paodekuai52"), ("stake", 3))
    with pytest.raises(AttributeError):
        rules.no_such_setting  # noqa: B018


@pytest.mark.parametrize("change", [lambda v: v.update(winner=5), lambda v: v.pop("winner"), lambda v: v.popitem(),
                                    lambda v: v.setdefault("winner", 5), lambda v: v.clear(),
                                    lambda v: v.__delitem__("winner"), lambda v: v.__ior__({"winner": 5})])
def test_read_input_is_not_changed_once_read_so_its_attributes_and_items_always_agree(change):
    values = Values()
    values["winner"] = 2
    with pytest.raises(TypeError):
        change(values)
    assert values.winner == values["winner"] == 2 and dict(values) == {"winner": 2}
