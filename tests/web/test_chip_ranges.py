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
