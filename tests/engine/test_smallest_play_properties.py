"""Properties of the smallest legal play (rules/common.md, "Smallest legal play") over random hands, against the
brute-force oracle of every legal play: never a bomb while a plain play is legal, no legal play of its kind with
a lower deciding rank, among bombs the weakest, kickers out of a pair, triple or bomb only when no loose card
serves; and the hint's whole list is in that order."""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring import paodekuai as pdk
from scoring import q783
from scoring import shuangkou as sk
from scoring.cards import SUITS, Card, parse_cards
from scoring.registry import get_game
from scoring.shedding import brute_force_multisets, legal_readings, preference
from scoring.shedding.ranking import bomb_kinds

GAMES = {
    "paodekuai": (pdk, [{}, {"preset": "zhengshangyou108"}, {"preset": "zhengshangyou108", "bomb_kickers": True}]),
    "shuangkou": (sk, [{}, {"preset": "qianbian"}]),
    "q783": (q783, [{}]),
}


def spec_of(game: str, rules: dict):
    module = GAMES[game][0]
    return module.spec_for(module.RULESET.resolve(rules))


@st.composite
def position(draw):
    """A game, its rules, a hand of few ranks (so triples and bombs come often; no Q783 score card) and a table
    (None: a lead)."""
    game = draw(st.sampled_from(sorted(GAMES)))
    rules = draw(st.sampled_from(GAMES[game][1]))
    spec = spec_of(game, rules)
    ranks = draw(st.lists(st.sampled_from([3, 4, 6, 7, 8, 9, 12, 14, 2]), min_size=3, max_size=4, unique=True))
    deck = [Card(r, s) for r in ranks for s in SUITS]
    if game == "shuangkou":
        deck += [Card(r) for r in ranks] + list(parse_cards("大王 小王"))
    hand = draw(st.lists(st.sampled_from(deck), min_size=4, max_size=10, unique=True))
    table = None
    if draw(st.booleans()):
        rest = [c for c in deck if c not in hand]
        plays = [c for c in _plays_of(spec, rest)]
        table = draw(st.sampled_from(plays)) if plays else None
    return game, rules, spec, tuple(hand), table


def _plays_of(spec, cards):
    """A few legal leads of ``cards``: each rank's single, pair, triple and four, and a triple with one or two
    cards of another rank (三带一, 三带二)."""
    by_rank: dict = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    out = []
    for group in by_rank.values():
        out += [tuple(group[:n]) for n in range(1, len(group) + 1)]
    triples = [g[:3] for g in by_rank.values() if len(g) >= 3]
    for triple in triples:
        for other in by_rank.values():
            if other[0].rank != triple[0].rank:
                out += [tuple(triple + other[:1]), tuple(triple + other[:2])]
    return [p for p in out if spec.readings(p)]


def largest(spec, cards, table):
    return legal_readings(spec, cards, table)[0]


def is_bomb(spec, reading) -> bool:
    return reading.is_bomb or reading.kind in bomb_kinds(spec)


def broken_kickers(cards, hand) -> set:
    """The kicker ranks of a play (the ranks beside its triples or fours) that the hand holds more of."""
    counts, have = Counter(c.rank for c in cards), Counter(c.rank for c in hand)
    most = max(counts.values())
    if most < 3 or any(2 < n < most for n in counts.values()):
        return set()
    return {r for r, n in counts.items() if n < most and n < have[r]}


def smallest_of(game, rules, hand, table):
    out = get_game(game).run("hint", {"hand": " ".join(map(str, hand)), "rules": rules, "limit": 5000,
                                      "previous": " ".join(map(str, table)) if table else None})
    return out


@st.composite
def triple_to_beat(draw):
    """跑得快: a 三带一 or 三带二 on the table and a hand holding a higher triple, pairs and loose cards."""
    low, high = sorted(draw(st.lists(st.sampled_from(range(3, 14)), min_size=2, max_size=2, unique=True)))
    others = [r for r in (3, 4, 6, 7, 8, 11, 12, 14) if r not in (low, high)]
    kickers = draw(st.lists(st.sampled_from(others), min_size=1, max_size=2, unique=True))
    table = [Card(low, s) for s in SUITS[:3]] + [Card(r, SUITS[3]) for r in kickers]
    rest = [Card(r, s) for r in others for s in SUITS if Card(r, s) not in table]
    hand = [Card(high, s) for s in SUITS[:3]] + draw(st.lists(st.sampled_from(rest), min_size=1, max_size=6,
                                                            unique=True))
    return "paodekuai", {}, spec_of("paodekuai", {}), tuple(hand), tuple(table)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(position(), triple_to_beat()))
def test_the_smallest_play_is_the_smallest_of_the_oracles_legal_plays(pos):
    game, rules, spec, hand, table_cards = pos
    table = spec.readings(table_cards)[0] if table_cards else None
    every = list(brute_force_multisets(spec, hand, table).values())
    out = smallest_of(game, rules, hand, table_cards)
    if not every:
        assert out["smallest"] is None
        return
    small = parse_cards(out["smallest"], bare=spec.bare)
    reading = largest(spec, small, table)
    readings = {cards: largest(spec, cards, table) for cards in every}
    if any(not is_bomb(spec, r) for r in readings.values()):
        assert not is_bomb(spec, reading), out["smallest"]  # never a bomb while a plain play is legal
    if is_bomb(spec, reading):  # the weakest bomb: it beats no other legal bomb
        assert not any(spec.beats(reading, r) for r in readings.values() if is_bomb(spec, r))
        return
    same_kind = [(cards, r) for cards, r in readings.items() if r.kind == reading.kind and not is_bomb(spec, r)]
    assert all(r.key[0] >= reading.key[0] for _, r in same_kind), out["smallest"]
    if broken_kickers(small, hand):  # a kicker out of a group only when every play of its rank and size does so
        rivals = [cards for cards, r in same_kind if r.key[0] == reading.key[0] and len(cards) == len(small)]
        assert all(broken_kickers(cards, hand) for cards in rivals), out["smallest"]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position())
def test_the_hint_lists_the_oracles_plays_in_the_smallest_play_order(pos):
    game, rules, spec, hand, table_cards = pos
    table = spec.readings(table_cards)[0] if table_cards else None
    out = smallest_of(game, rules, hand, table_cards)
    keys = [preference(spec, parse_cards(p, bare=spec.bare), table, None, hand) for p in out["plays"]]
    assert None not in keys and keys == sorted(keys)
    expected = {spec.identity(c) for c in brute_force_multisets(spec, hand, table).values()}
    assert {spec.identity(parse_cards(p, bare=spec.bare)) for p in out["plays"]} == expected


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position())
def test_the_hint_writes_every_play_as_classify_writes_it(pos):
    game, rules, spec, hand, table_cards = pos
    out = smallest_of(game, rules, hand, table_cards)
    for text in out["plays"]:
        assert get_game(game).run("classify", {"cards": text, "rules": rules})["cards"] == text
