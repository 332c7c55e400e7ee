"""The cores answer typed values (``scoring/results.py``), whose fields are their declared answer's
(``scoring/answers.py``) and whose ``to_json()`` is the API's answer (issue 39 item 1)."""
from __future__ import annotations

import pytest
from binding_examples import EXAMPLES

from scoring.errors import PaijuError
from scoring.registry import get_game
from scoring.results import Result, Settlement

ANSWERED = [e for e in EXAMPLES if e.expected.get("status", 200) == 200]


def answered(example):
    """The example's typed answer: an example the API answers 200 is never refused."""
    try:
        return get_game(example.slug).answer(example.action, example.payload)
    except PaijuError as refused:
        pytest.fail(f"an example answered 200 by the API was refused: {refused}")


@pytest.mark.parametrize("example", [e for e in ANSWERED if e.action == "settle"],
                         ids=lambda e: f"{e.slug}-{e.action}")
def test_a_settle_answers_a_settlement_whose_extra_fields_are_its_game_s_declared_settle_answer(example):
    game = get_game(example.slug)
    result = answered(example)
    assert isinstance(result, Settlement)
    assert set(result.extra) <= {f.name for f in game.settle_answer.fields}
    assert {f.name for f in game.settle_answer.fields if f.required} <= set(result.extra)
    assert result.to_json() == game.run(example.action, example.payload)


@pytest.mark.parametrize("example", ANSWERED, ids=lambda e: f"{e.slug}-{e.action}")
def test_every_action_answers_a_typed_result_of_its_declared_fields_and_its_json_is_the_api_s_answer(example):
    game = get_game(example.slug)
    result = answered(example)
    assert isinstance(result, Result)
    declared = game.answer_of(example.action).fields
    written = result.to_json()
    assert {f.name for f in declared if f.required} <= set(written) <= {f.name for f in declared}
    if type(result) is not Settlement:  # a game's settle fields are its own (Settlement.extra)
        assert set(type(result).names()) == {f.name for f in declared}
    assert written == game.run(example.action, example.payload)
