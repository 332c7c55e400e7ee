"""The declared inputs of the actions besides settle: each game's check, hint, classify, trick and bidding read
a Schema (Game.action_input), one problem at a time, and their forms are generated from it."""
import pytest

from scoring.errors import InvalidInput, MalformedInput
from scoring.inputs import CardTextsField, Context, Schema, WholeNumberField
from scoring.registry import all_games

GAMES = {g.slug: g for g in all_games()}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_action_of_every_game_declares_its_input(slug):
    game = GAMES[slug]
    for action in game.actions():
        schema = game.action_input(action)
        assert isinstance(schema, Schema) and schema.fields, action
        assert schema.json_schema(Context(seats=game.seats[1]))["type"] == "object"


def test_a_form_shows_the_fields_in_form_order_and_leaves_out_what_no_form_shows():
    hint = GAMES["hongwu"].action_input("hint")
    assert [f.name for f in hint.form_fields()] == ["trump", "lead", "hand"]
    assert "limit" in [f.name for f in hint.fields]
    check = GAMES["paodekuai"].action_input("check")
    assert [f.name for f in check.form_fields()][:4] == ["previous", "previous_reading", "play", "hand"]
    assert {"next_cards_left", "first_play"} <= {f.name for f in check.form_fields()}
    assert "next_cards_left" not in {f.name for f in GAMES["shuangkou"].action_input("check").fields}


def test_the_first_problem_is_raised_alone_and_as_it_is():
    schema = Schema((WholeNumberField("start", None, lo=0, hi=3), WholeNumberField("limit", None, lo=1)),
                    first_problem_only=True)
    with pytest.raises(InvalidInput) as err:
        schema.read({"start": 7, "limit": "x"}, Context())
    assert err.value.field == "start" and err.value.code == "out_of_range"
    with pytest.raises(MalformedInput) as err:
        schema.read({"start": 1}, Context())
    assert err.value.code == "missing_field" and err.value.field == "limit"


def test_card_texts_are_sized_by_the_seats():
    plays = CardTextsField("plays", None, fewest=2)
    schema = Schema((plays,), first_problem_only=True)
    assert len(schema.read({"plays": ["♠A", "♠K", "♠Q"]}, Context(seats=3)).plays) == 3
    with pytest.raises(InvalidInput) as err:
        schema.read({"plays": ["♠A", "♠K", "♠Q", "♠J"]}, Context(seats=3))
    assert err.value.code == "wrong_count"
    assert plays.json_schema(Context(seats=6))["maxItems"] == 6


def test_the_trick_form_has_a_box_per_seat_of_the_game(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = app.test_client().get("/erqiwang/trick").get_data(as_text=True)
    assert [f'id="play{i}"' in html for i in range(5)] == [True] * 4 + [False]
