"""A quiet settle (what the ledger uses to settle later hands again after an edit) answers exactly what the
settle answers, without the steps; and the steps worked out later from the stored result are the settle's."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.errors import PaijuError
from scoring.i18n import to_json
from scoring.registry import all_games, get_game

EXAMPLES = [(game, payload) for game in all_games() for action, _title, payload in game.examples
            if action == "settle"]


def answers(game, payload):
    """(the settle's answer, the quiet settle's answer), or their errors as JSON."""
    rules = game.ruleset.resolve(payload.get("rules"))
    out = []
    for settle in (game.settle_payload, game.settle_quietly):
        try:
            out.append(to_json(settle(payload, rules)))
        except PaijuError as exc:
            out.append(("error", exc.code, exc.field, to_json(exc.message)))
    return out


@pytest.mark.parametrize("game, payload", EXAMPLES, ids=[f"{g.slug}-{i}" for i, (g, _) in enumerate(EXAMPLES)])
def test_a_quiet_settle_of_every_example_answers_the_settle_s_answer_without_its_steps(game, payload):
    loud, quiet = answers(game, payload)
    assert "steps" not in quiet and loud["steps"]
    assert quiet == {k: v for k, v in loud.items() if k != "steps"}


Q783 = get_game("q783")
BANK = st.integers(-4, 60).map(lambda n: 5 * n)
ROUND = st.fixed_dictionaries({"winner": st.integers(0, 5), "count": st.integers(0, 9)})


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(data=st.data(), players=st.integers(3, 6), teams=st.booleans(), banked=st.booleans(),
       rounds=st.lists(ROUND, max_size=4), order=st.lists(st.integers(0, 5), max_size=4, unique=True),
       rules=st.fixed_dictionaries({"negative_banks": st.booleans(), "winner": st.sampled_from(["first_out", "points"]),
                                    "scoring": st.just("cards")}))
def test_a_quiet_q783_hand_has_the_settle_s_deltas_banks_and_errors(data, players, teams, banked, rounds, order, rules):
    banks = data.draw(st.lists(BANK, min_size=players, max_size=players)) if banked else None
    payload = {"players": players, "teams": teams, "banks": banks, "rounds": rounds, "finish_order": order,
               "rules": rules}
    loud, quiet = answers(Q783, payload)
    if isinstance(loud, tuple):
        assert quiet == loud
    else:
        assert quiet == {k: v for k, v in loud.items() if k != "steps"}
    COUNTS["settled" if isinstance(loud, dict) else "refused"] += 1


COUNTS = {"settled": 0, "refused": 0}


def test_the_property_above_settled_hands_as_well_as_refusing_them():
    test_a_quiet_q783_hand_has_the_settle_s_deltas_banks_and_errors()
    # a tenth of the examples each at least
    assert COUNTS["settled"] >= examples(300) // 10 and COUNTS["refused"] >= examples(300) // 10, COUNTS


def test_the_steps_worked_out_again_from_a_stored_q783_result_are_the_settle_s_steps():
    rules = Q783.ruleset.resolve({"scoring": "cards"})
    data = {"rounds": [{"winner": 1, "count": 4}], "finish_order": [2]}
    loud = Q783.settle_payload({"players": 4, "banks": [100, 80, 60, 40], **data}, rules)
    stored = {**{k: v for k, v in loud.items() if k not in ("deltas", "steps")}, "banks_before": [100, 80, 60, 40]}
    assert to_json(Q783.steps_again(data, stored, rules, 4)) == to_json(loud["steps"])
