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
from scoring.results import Settlement
from scoring import series
from scoring.series import settle_quietly as settle_in_chain

EXAMPLES = [(game, payload) for game in all_games() for action, _title, payload in game.examples
            if action == "settle"]


def answers(game, payload, *more):
    """(the settle's answer, the quiet settle's answer, and ``more`` settles' answers), or their errors as JSON."""
    rules = game.ruleset.resolve(payload.get("rules"))
    out = []
    for settle in (game.settle_payload, game.settle_quietly, *more):
        try:
            answer = settle(payload, rules)
            out.append(to_json(answer.to_json() if isinstance(answer, Settlement) else answer))
        except PaijuError as exc:
            every = [(e.code, e.field, to_json(e.message)) for e in getattr(exc, "errors", None) or ()]
            out.append(("error", exc.code, exc.field, to_json(exc.message), every))
    return out


def in_chain(game):
    """The quiet settle a chain settled again uses (its input read once per process: :mod:`scoring.series`)."""
    return lambda payload, rules: settle_in_chain(game, payload, rules)


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
    loud = Q783.settle_payload({"players": 4, "banks": [100, 80, 60, 40], **data}, rules).to_json()
    stored = {**{k: v for k, v in loud.items() if k not in ("deltas", "steps")}, "banks_before": [100, 80, 60, 40]}
    assert to_json(Q783.steps_again(data, stored, rules, 4)) == to_json(loud["steps"])


CARDS = st.sampled_from(["♠9 ♥9", "♥Q ♠7 ♥8 ♥3", "♠J ♥J ♣J", "♠4 ♥4 ♣4 ♦4", "♠Q", "♠5", "♦6 ♦6", "大王", "9 9 9"])
CARD_ROUND = st.one_of(ROUND, st.fixed_dictionaries({"winner": st.integers(0, 5), "cards": CARDS}),
                       st.fixed_dictionaries({"winner": st.integers(0, 5), "cards": CARDS, "count": st.integers(1, 6)}))
CHAIN = {"settled": 0, "refused": 0, "shortcut refused": 0}


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(data=st.data(), players=st.integers(3, 6), teams=st.booleans(), banked=st.booleans(),
       rounds=st.lists(CARD_ROUND, max_size=4), order=st.lists(st.integers(0, 5), max_size=4, unique=True),
       rules=st.fixed_dictionaries({"negative_banks": st.booleans(), "winner": st.sampled_from(["first_out", "points"]),
                                    "scoring": st.sampled_from(["cards", "pattern"]), "decks": st.sampled_from([1, 2])}))
def test_a_q783_hand_settled_again_in_a_chain_answers_the_quiet_settle_from_any_banks(data, players, teams, banked,
                                                                                    rounds, order, rules):
    """The chain's shortcut (the hand read once, each settle from other banks only running the numbers) answers
    what the quiet settle answers, errors too, from the first banks (the hand read) and from later ones (read
    before): the same hand is settled from three sets of banks."""
    for _ in range(3):
        banks = data.draw(st.lists(BANK, min_size=players, max_size=players)) if banked else None
        payload = {"players": players, "teams": teams, "banks": banks, "rounds": rounds, "finish_order": order,
                   "rules": rules}
        _loud, quiet, chained = answers(Q783, payload, in_chain(Q783))
        assert chained == quiet
        CHAIN["settled" if isinstance(quiet, dict) else "refused"] += 1


def test_the_chain_property_above_settled_hands_as_well_as_refusing_them():
    test_a_q783_hand_settled_again_in_a_chain_answers_the_quiet_settle_from_any_banks()
    assert CHAIN["settled"] >= examples(300) // 10 and CHAIN["refused"] >= examples(300) // 10, CHAIN


@pytest.mark.parametrize("negative_banks", [True, False])
def test_a_hand_settled_again_in_a_chain_is_read_once_not_once_per_settle(monkeypatch, negative_banks):
    """The point of the chain's shortcut: a hand's input is read on its first settle only; later settles from other
    banks read nothing again (the long edit of issue 42 read every hand's input at every edit)."""
    rules = Q783.ruleset.resolve({"negative_banks": negative_banks})
    data = {"players": 4, "rounds": [{"winner": 1, "cards": "♠9 ♥9"}, {"winner": 2, "cards": "♠J ♥J ♣J"}],
            "finish_order": [3]}
    reads = []
    series._read_once.cache_clear()  # a hand read by another test is not read here at all
    real = type(Q783).read_settle
    monkeypatch.setattr(type(Q783), "read_settle", lambda self, *a: reads.append(1) or real(self, *a))
    answers_ = [settle_in_chain(Q783, {**data, "banks": [100 + 5 * k, 100, 100 - 5 * k, 100]}, rules) for k in range(4)]
    assert len(reads) == 1
    assert answers_ == [Q783.settle_quietly({**data, "banks": [100 + 5 * k, 100, 100 - 5 * k, 100]}, rules)
                        for k in range(4)]


MOVED = {"moved": 0, "settled in full": 0, "refused": 0}


def SMALL_BANKS(players, teams):
    """Banks of -20 to 60, teammates' equal but now and then (then refused)."""
    small = st.integers(-4, 12).map(lambda n: 5 * n)
    equal = st.tuples(small, small).map(lambda two: [two[s % 2] for s in range(players)])
    any_ = st.lists(small, min_size=players, max_size=players)
    return st.one_of(equal, equal, equal, any_) if teams else any_


# 300 examples in every profile (about 3 s): a drawn hand is one the first settle takes one time in six, and the
# test below asks each outcome of the move to be met
@settings(max_examples=max(300, examples(300)), deadline=None, derandomize=True)
@given(data=st.data(), players=st.integers(3, 6), teams=st.booleans(),
       rounds=st.lists(CARD_ROUND, max_size=4), order=st.lists(st.integers(0, 5), max_size=4, unique=True),
       rules=st.fixed_dictionaries({"negative_banks": st.booleans(), "winner": st.sampled_from(["first_out", "points"]),
                                    "scoring": st.sampled_from(["cards", "pattern"]), "decks": st.sampled_from([1, 2])}))
def test_a_q783_hand_moved_to_other_banks_answers_the_quiet_settle_from_them_or_nothing(data, players, teams, rounds,
                                                                                      order, rules):
    """The long edit's shortcut (:meth:`Game.quiet_moved`): a hand settled from some banks, told by what it gave
    (its deltas, the banks it ended with), answers from other banks exactly what the quiet settle from them
    answers — or nothing (the ledger then settles it in full); under ``negative_banks`` it always answers where
    the quiet settle does, and never where the quiet settle refuses."""
    rules = Q783.ruleset.resolve(rules)
    # seats folded into the table's: a hand the first settle refuses for a seat tells nothing about moving it
    rounds = [{**played, "winner": played["winner"] % players} for played in rounds]
    order = list(dict.fromkeys(seat % players for seat in order))
    hand = {"players": players, "teams": teams, "rounds": rounds, "finish_order": order}
    first_banks = data.draw(SMALL_BANKS(players, teams and players in (4, 6)))
    banks = data.draw(st.one_of(SMALL_BANKS(players, teams and players in (4, 6)),
                                st.lists(BANK, min_size=players, max_size=players)))  # up to 300: more than the pack
    try:
        first = Q783.settle_quietly({**hand, "banks": first_banks}, rules)
    except PaijuError:
        return
    try:
        quiet = to_json(Q783.settle_quietly({**hand, "banks": banks}, rules))
    except PaijuError:
        quiet = None
    moved = Q783.quiet_moved(hand, {"banks": first_banks}, {"banks": first["banks"]}, first["deltas"],
                             {"banks": banks}, rules)
    if moved is not None:
        assert to_json(moved) == quiet
    else:
        assert quiet is None or not rules.negative_banks
    MOVED["moved" if moved is not None else "settled in full" if quiet is not None else "refused"] += 1


def test_the_moved_property_above_moved_hands_settled_others_in_full_and_met_refusals():
    test_a_q783_hand_moved_to_other_banks_answers_the_quiet_settle_from_them_or_nothing()
    assert min(MOVED.values()) >= 6, MOVED


def _changed(key, seat, value):
    def change(numbers):
        numbers = {k: list(v) for k, v in numbers.items()}
        if seat is None:
            numbers[key] = value
        else:
            numbers[key][seat] = value
        return numbers
    return change


@pytest.mark.parametrize("change", [
    _changed("deltas", 0, 45),          # deltas changed by hand (and no longer zero-sum)
    _changed("ended", 1, 80),           # a bank after changed by hand
    _changed("started", 2, 95),         # a bank before changed by hand
    _changed("deltas", None, [5, -5]),  # a seat short
    _changed("ended", 3, True),         # not a number
    _changed("started", None, None),    # no banks before
    lambda n: {"started": n["started"], "ended": [n["ended"][0] + 5, *n["ended"][1:]],  # agreeing, but not zero-sum
               "deltas": [n["deltas"][0] + 5, *n["deltas"][1:]]},
], ids=["deltas", "ended", "started", "short", "not a number", "no banks", "not zero-sum"])
def test_a_hand_whose_stored_numbers_do_not_agree_is_not_moved_but_settled_in_full(change):
    rules = Q783.ruleset.resolve({"negative_banks": True, "scoring": "cards"})
    hand = {"players": 4, "rounds": [{"winner": 0, "count": 2}], "finish_order": [1]}
    first = Q783.settle_quietly({**hand, "banks": [100] * 4}, rules)
    stored = {"started": [100] * 4, "ended": first["banks"], "deltas": first["deltas"]}

    def moved(numbers):
        return Q783.quiet_moved(hand, {"banks": numbers["started"]}, {"banks": numbers["ended"]}, numbers["deltas"],
                                {"banks": [90, 110, 100, 100]}, rules)
    assert moved(stored) == Q783.settle_quietly({**hand, "banks": [90, 110, 100, 100]}, rules)
    assert moved(change(stored)) is None
