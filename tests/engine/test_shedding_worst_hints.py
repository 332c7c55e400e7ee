"""The hints that cost the most are still exactly the exhaustive oracle's answer.

The worst hands of ``bench/hints.py``: 双扣 千变 hands rich in chains (as a lead at ``limit: 5000``,
against a 6-line bomb cut at the default limit and in full), 跑得快 48 five consecutive triples. The
oracle judges every distinct sub-multiset of the hand (a few seconds at most); the hint must list the
same plays in the oracle's smallest-first order, say ``truncated`` exactly when it cut the list, and
give the oracle's smallest play as ``smallest`` whatever the cut.
"""
from __future__ import annotations

import pytest

from scoring import paodekuai, shuangkou
from scoring.cards import parse_cards
from scoring.registry import get_game
from scoring.shedding import brute_force_multisets, preference

pytestmark = pytest.mark.slow  # the worst hints against the exhaustive oracle: left out of `make check`

J4 = " 大王 大王 小王 小王"
CHAINS = "5 5 5 5 5 5 5 5 6 6 6 6 6 7 7 7 7 7 8 8 8 8 8" + J4
RUNS = "6 6 6 7 7 7 7 8 8 8 8 8 8 9 9 9 9 9 10 10 10 10 10" + J4
QIANBIAN = {"preset": "qianbian"}
CASES = {
    "双扣 千变 chains as a lead, limit 5000": ("shuangkou", {"hand": RUNS, "rules": QIANBIAN, "limit": 5000}),
    "双扣 千变 chains against a 6-line bomb, cut at the default limit": (
        "shuangkou", {"hand": CHAINS, "previous": "2 2 2 2 2 2", "rules": QIANBIAN}),
    "双扣 千变 chains against a 6-line bomb, limit 5000": (
        "shuangkou", {"hand": CHAINS, "previous": "2 2 2 2 2 2", "rules": QIANBIAN, "limit": 5000}),
    "双扣 千变 chains as a lead, cut at 7": ("shuangkou", {"hand": CHAINS, "rules": QIANBIAN, "limit": 7}),
    "跑得快 48 five triples as a lead, limit 5000": (
        "paodekuai", {"hand": "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♦8",
                      "rules": {"preset": "paodekuai48"}, "limit": 5000}),
}


def oracle(slug, payload):
    module = {"shuangkou": shuangkou, "paodekuai": paodekuai}[slug]
    spec = module.spec_for(module.RULESET.resolve(payload["rules"]))
    hand = parse_cards(payload["hand"], bare=spec.bare)
    table = spec.readings(parse_cards(payload["previous"], bare=spec.bare))[0] if payload.get("previous") else None
    found = brute_force_multisets(spec, hand, table)
    order = sorted(found.values(), key=lambda cards: preference(spec, cards, table, None, hand))
    return spec, [spec.identity(cards) for cards in order]


@pytest.mark.parametrize("name", list(CASES))
def test_the_worst_hints_equal_the_oracle_in_order_cut_and_smallest(name):
    slug, payload = CASES[name]
    out = get_game(slug).run("hint", payload)
    spec, expected = oracle(slug, payload)
    got = [spec.identity(parse_cards(text, bare=spec.bare)) for text in out["plays"]]
    limit = payload.get("limit", 2000 if payload.get("previous") else 200)
    assert got == expected[:limit]
    assert out["truncated"] == (len(expected) > limit)
    assert spec.identity(parse_cards(out["smallest"], bare=spec.bare)) == expected[0]
