"""Chips cover the whole range a field allows (issue 26): a 红五 bid of 200 (300 with three decks) is a tap."""
from __future__ import annotations

import re

import pytest

from scoring.hongwu import RULESET, bid_chips

pytestmark = pytest.mark.shared_app


@pytest.mark.parametrize("decks,lowest,highest", [(2, 60, 200), (3, 90, 300)])
def test_the_bid_chips_run_from_the_lowest_to_the_highest_bid_the_rules_allow(decks, lowest, highest):
    chips = bid_chips(RULESET.resolve({"decks": decks}))
    assert chips[0] == lowest and chips[-1] == highest and list(chips) == sorted(set(chips))
    assert all(c % 10 == 0 for c in chips) and len(chips) <= 16  # one tap each, in a few rows at 360 px


def test_the_settle_page_offers_a_200_bid_as_a_chip(client):
    html = client.get("/hongwu/settle").get_data(as_text=True)
    bid_field = html[html.find('name="bid"'):html.find('name="declarer_points"')]
    chips = [int(v) for v in re.findall(r'<button[^>]*value="(\d+)"[^>]*>', bid_field)]
    assert 200 in chips and 60 in chips


@pytest.mark.parametrize("decks,highest", [(2, 80), (3, 60)])
def test_hongwu_bottom_chips_reach_the_most_the_bottom_holds(decks, highest):
    """底牌分 ≤ 80 with 2 decks (8 cards), ≤ 60 with 3 (rules/hongwu.md): a chip for the most, none past it (a
    table's page: tests/web/test_evening_edges.py)."""
    from scoring.hongwu import bottom_chips
    chips = bottom_chips(RULESET.resolve({"decks": decks}))
    assert chips[0] == 0 and chips[-1] == highest and list(chips) == sorted(set(chips))


def test_erqiwang_bid_chips_include_every_step_of_five_from_80_to_40(client):
    """二七王 bids go down by 5 from 80 (rules/erqiwang.md): 55 and 45 are a tap like the others."""
    html = client.get("/erqiwang/settle").get_data(as_text=True)
    bid_field = html[html.find('name="bid"'):html.find('name="defender_points"')]
    chips = [int(v) for v in re.findall(r'<button[^>]*value="(\d+)"[^>]*>', bid_field)]
    assert chips == list(range(80, 35, -5))
