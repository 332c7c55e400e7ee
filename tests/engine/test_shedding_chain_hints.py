"""双扣 hints on chain-sized hands with wild jokers against the exhaustive oracle, in the smallest-play order.

The oracle tests of the smallest play (``test_smallest_play_properties.py``) deal hands of at most ten cards,
too few for a chain bomb (twelve or more); ``test_shuangkou.py`` compares chain-sized hands with the oracle as
sets. Here the hint's whole list, its order, its ``smallest`` and ``truncated`` are compared with the oracle's
plays sorted by :func:`~scoring.shedding.preference` (read from scratch), on hands of three or four consecutive
ranks and wild jokers: the plays the hint's generators fill with jokers (runs, 千变's uneven chains) and the
plain plays that read as bombs too.
"""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import shuangkou as sk
from scoring.cards import BIG_JOKER, LITTLE_JOKER, Card, parse_cards
from scoring.registry import get_game
from scoring.shedding import brute_force_multisets, preference
from scoring.shedding.ranking import bomb_kinds

RULES = [{}, {"preset": "baibian"}, {"preset": "qianbian"}]
TABLES = [None, None, None, "3 3 3 3 3", "大王 大王 小王 小王", "7 7", "4 4 5 5 6 6"]  # leads most often


@st.composite
def chain_hand(draw) -> list[Card]:
    """Three or four consecutive ranks (2 … A wrapping: chains with a 2 too), three to five of each, and one or
    two of each joker (the plays the jokers fill, and plain plays that are bombs too, need them)."""
    start = draw(st.sampled_from([2, 3, 6, 11, 12]))
    ranks = [((start - 2 + i) % 13) + 2 for i in range(draw(st.integers(3, 4)))]
    cards = [Card(rank) for rank in ranks for _ in range(draw(st.integers(3, 5)))]
    return cards + [Card(LITTLE_JOKER)] * draw(st.integers(1, 2)) + [Card(BIG_JOKER)] * draw(st.integers(1, 2))


def fits(hand: list[Card], previous: str | None) -> bool:
    """Do the hand and the table's play fit in the two packs (eight of a rank, two of each joker)?"""
    counts = Counter(c.rank for c in hand + list(parse_cards(previous or "", bare=True, allow_empty=True)))
    return all(n <= (2 if rank in (BIG_JOKER, LITTLE_JOKER) else 8) for rank, n in counts.items())


def spec_of(rules: dict):
    return sk.spec_for(sk.RULESET.resolve(rules))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_hand(), st.sampled_from(TABLES), st.sampled_from(RULES))
def test_a_chain_sized_hint_lists_the_oracles_plays_smallest_first(hand, previous, rules):
    assume(fits(hand, previous))
    spec = spec_of(rules)
    table = spec.readings(parse_cards(previous, bare=True))[0] if previous else None
    found = brute_force_multisets(spec, hand, table)
    expected = [spec.identity(cards) for cards in sorted(found.values(),
                                                        key=lambda cards: preference(spec, cards, table, None, hand))]
    out = get_game("shuangkou").run("hint", {"hand": " ".join(map(str, hand)), "previous": previous,
                                             "rules": rules, "limit": 5000})
    assert [spec.identity(parse_cards(text, bare=True)) for text in out["plays"]] == expected
    assert out["truncated"] is False
    assert (spec.identity(parse_cards(out["smallest"], bare=True)) if out["smallest"] else None) == (
        expected[0] if expected else None)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chain_hand(), st.sampled_from(RULES))
def test_shuangkou_reads_every_bomb_before_any_plain_reading(hand, rules):
    """``bombs_read_first``: the hint ranks a plain play that may also be a bomb by its bomb readings alone."""
    spec = spec_of(rules)
    assert spec.bombs_read_first
    bombs = bomb_kinds(spec)
    for cards in brute_force_multisets(spec, hand, None).values():
        ranked = [r.is_bomb or r.kind in bombs for r in spec.readings(cards)]
        assert ranked == sorted(ranked, reverse=True), cards
