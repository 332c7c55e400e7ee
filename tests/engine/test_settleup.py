"""Settling up (docs/api.md, "Settling up"): the fewest transfers, each seat paying or receiving exactly its total."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_fewest
from properties import examples

from scoring.errors import MalformedInput
from scoring.settleup import parse_per_point, settle_up


def moved_by(transfers, seats: int) -> list[int]:
    """What the transfers move for each seat (every transfer moves something)."""
    moved = [0] * seats
    for tr in transfers:
        assert tr["points"] > 0
        moved[tr["from"]] -= tr["points"]
        moved[tr["to"]] += tr["points"]
    return moved


def test_every_seat_pays_or_receives_exactly_its_total_in_the_fewest_transfers():
    out = settle_up([30, -10, -20, 10, -10, 0], Decimal("0.5"))
    moved = [0] * 6
    for tr in out["transfers"]:
        moved[tr["from"]] -= tr["points"]
        moved[tr["to"]] += tr["points"]
    assert moved == [30, -10, -20, 10, -10, 0]
    assert len(out["transfers"]) == 3  # {0: −10, −20} and {3: −10}
    assert all(tr["amount"] == f"{tr['points'] * 0.5:.2f}" for tr in out["transfers"])
    assert out["per_point"] == "0.50"


def test_two_pairs_that_cancel_take_two_transfers_not_three():
    assert len(settle_up([5, -5, 7, -7])["transfers"]) == 2


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(-200, 200), min_size=2, max_size=5))
def test_the_number_of_transfers_is_the_exact_minimum(values):
    totals = values + [-sum(values)]
    out = settle_up(totals)
    assert moved_by(out["transfers"], len(totals)) == totals
    assert len(out["transfers"]) == brute_force_fewest(totals)


@pytest.mark.parametrize("raw", ["0", "-1", "1.234", "abc", "²", "1e3", "NaN", "Infinity", "1,5", " ", "0.00"])
def test_money_per_point_is_a_number_above_zero_with_at_most_two_decimals(raw):
    with pytest.raises(MalformedInput) as caught:
        parse_per_point(raw)
    assert caught.value.field == "per_point"


def test_money_per_point_defaults_to_one_and_reads_two_decimals():
    assert parse_per_point(None) == Decimal(1) and parse_per_point("0.5") == Decimal("0.5")


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(-60, 60).map(lambda x: 5 * x), min_size=12, max_size=15))
def test_every_table_the_ledger_holds_settles_each_seat_exactly_in_fewer_transfers_than_balances(values):
    totals = values + [-sum(values)]  # 13 to 16 people: a table whose seats were replaced during the evening
    out = settle_up(totals)
    assert moved_by(out["transfers"], len(totals)) == totals
    assert len(out["transfers"]) <= max(0, sum(1 for x in totals if x) - 1)


def test_a_large_evening_still_pairs_off_balances_that_cancel():
    totals = [10, -10, 20, -20, 30, -30, 40, -40, 50, -50, 60, -60, 70, -70, 5, -5]
    assert len(settle_up(totals)["transfers"]) == 8
