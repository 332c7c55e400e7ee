"""``Game.answer`` (what the API and the phone call for an action) refuses a request body that is not an object
(malformed: 400) and an action the game does not have (not found: 404), in words, for every game."""
from __future__ import annotations

import pytest

from scoring.errors import MalformedInput, UnknownAction
from scoring.registry import all_games

GAMES = list(all_games())


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
@pytest.mark.parametrize("body", [[], "cards", None], ids=["list", "text", "null"])
def test_a_request_body_that_is_not_an_object_is_malformed(game, body):
    with pytest.raises(MalformedInput) as refused:
        game.answer("classify", body)
    assert refused.value.message.render("en") == "the request body must be a JSON object"


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_an_action_the_game_does_not_have_is_not_found_and_named(game):
    with pytest.raises(UnknownAction) as refused:
        game.answer("shuffle", {})
    assert refused.value.code == "not_found"
    assert "“shuffle”" in refused.value.message.render("en")
