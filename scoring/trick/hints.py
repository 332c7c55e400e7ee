"""Hints and 托管: every legal play of a position, smallest first, as a :class:`LegalPlays`.

A leader may lead any single unit (single, pair, triple, tractor) of one group;
throws are never hinted. A follower's candidates are generated lowest first by
their highest card (:func:`_combos`), filtered by the rules of
:func:`check_follow`, and released one "highest card" at a time, each batch sorted by the smallness of
the common rules (:meth:`Context.play_key`): so the plays come smallest first
and a hint stops generating once it has what it shows.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

from ..cards import Card
from ..plays import LegalPlays
from .follow import check_follow, in_group, required_score, shape_test
from .order import Context
from .units import decompose, lead_units, runs, structures

Play = tuple[Card, ...]


def legal_plays(ctx: Context, hand: Sequence[Card], lead: Sequence[Card] | None) -> LegalPlays[Play]:
    """Every distinct legal play from ``hand`` (canonical order inside a play), smallest first."""
    hand = tuple(hand)
    if not lead:
        return LegalPlays(lambda: iter(lead_plays(ctx, hand)), lambda play: _is_unit_lead(ctx, hand, play))
    lead = tuple(lead)
    return LegalPlays(lambda: _follow_plays(ctx, lead, hand),
                      lambda play: _holds(hand, play) and check_follow(ctx, lead, hand, play)[0])


def smallest(ctx: Context, hand: Sequence[Card], lead: Sequence[Card] | None) -> Play | None:
    """What 托管 plays: the smallest legal play."""
    return legal_plays(ctx, hand, lead).smallest()


def _holds(hand: Sequence[Card], play: Sequence[Card]) -> bool:
    return not Counter(play) - Counter(hand)


def _is_unit_lead(ctx: Context, hand: Sequence[Card], play: Sequence[Card]) -> bool:
    return (bool(play) and _holds(hand, play) and len(ctx.groups_of(play)) == 1
            and len(decompose(ctx, play)) == 1)


def lead_plays(ctx: Context, hand: Sequence[Card]) -> list[Play]:
    """Every single-unit lead from ``hand``, smallest first."""
    counter = Counter(hand)
    out: set[Play] = set()
    for width in range(1, ctx.max_width + 1):
        out.update(u.cards for u in structures(ctx, counter, width, 1))
        if width >= 2:
            for run in runs(ctx, counter, width):
                for length in range(2, len(run) + 1):
                    out.update(u.cards for u in structures(ctx, counter, width, length))
    return sorted(out, key=ctx.play_key)


def _follow_plays(ctx: Context, lead: Play, hand: Play) -> Iterator[Play]:
    """The legal answers to ``lead``, smallest first.

    Candidates come lowest first by their highest card, the first part of
    :meth:`Context.play_key`; so the legal ones are gathered while that card
    stays the same and released sorted when it rises.
    """
    hand_g = in_group(ctx, hand, ctx.group(lead[0]))
    # short in the led group, every candidate is legal; else the candidates are len(lead) cards of it
    legal = shape_test(ctx, lead, hand_g) if len(hand_g) >= len(lead) else None
    batch: list[tuple[tuple, Play]] = []  # (play_key, play) of the legal plays with the same highest card
    for candidate in follow_candidates(ctx, lead, hand):
        if legal is not None and not legal(candidate):
            continue
        play = tuple(sorted(candidate, key=ctx.key))
        key = ctx.play_key(play)
        if batch and key[0] != batch[0][0][0]:
            yield from _sorted_plays(batch)
            batch = []
        batch.append((key, play))
    yield from _sorted_plays(batch)


def _sorted_plays(batch: list[tuple[tuple, Play]]) -> list[Play]:
    return [play for _, play in sorted(batch)]


def follow_candidates(ctx: Context, lead: Sequence[Card], hand: Sequence[Card]) -> Iterator[Play]:
    """Sub-multisets of ``hand`` that satisfy the group rule (shape is checked after), lowest
    first by their highest card."""
    n = len(lead)
    g = ctx.group(lead[0])
    hand_g = in_group(ctx, hand, g)
    if len(hand_g) < n:
        rest = [c for c in hand if ctx.group(c) != g]
        base = tuple(hand_g)
        for extra in _combos(rest, n - len(hand_g), ctx):
            yield base + extra
        return
    yield from _combos(hand_g, n, ctx, _pairs_needed(ctx, lead, hand_g))


def _pairs_needed(ctx: Context, lead: Sequence[Card], hand_g: Sequence[Card]) -> int:
    """How many distinct cards a legal answer must hold at least twice (pairs, triples, tractor parts)."""
    if not ctx.spec.follow_shape:
        return 0
    units = lead_units(ctx, lead)
    want = required_score(ctx, lead, hand_g, units)
    return sum(w[1] + w[2] for u, w in zip(units, want) if not u.is_single)


def _combos(cards: Sequence[Card], k: int, ctx: Context, min_groups: int = 0) -> Iterator[Play]:
    """Distinct sub-multisets of size k, lowest first by their highest card (``gstrength``).

    ``min_groups`` prunes the search to sub-multisets holding at least that many
    distinct cards twice or more (a necessary condition when the lead's shape
    obliges the follower to play that many pairs).
    """
    distinct = sorted(set(cards), key=lambda c: (ctx.gstrength(c), ctx.key(c)))
    counts = Counter(cards)
    caps = [counts[c] for c in distinct]
    prefix = [0]  # cards among distinct[:i]
    pair_prefix = [0]  # distinct cards held twice or more among distinct[:i]
    for cap in caps:
        prefix.append(prefix[-1] + cap)
        pair_prefix.append(pair_prefix[-1] + (1 if cap >= 2 else 0))

    def below(i: int, need: int, groups: int) -> Iterator[list[Card]]:
        # choose ``need`` cards from distinct[0..i], holding ≥ ``groups`` groups of two or more
        if need == 0:
            if groups <= 0:
                yield []
            return
        if i < 0 or prefix[i + 1] < need:
            return
        if groups > 0 and (pair_prefix[i + 1] < groups or need < 2 * groups):
            return
        for take in range(min(caps[i], need), -1, -1):
            for rest in below(i - 1, need - take, groups - (1 if take >= 2 else 0)):
                yield rest + [distinct[i]] * take

    if k == 0:
        yield ()
        return
    for m in range(len(distinct)):  # by the highest card used: distinct[m], at least one copy
        for take in range(1, min(caps[m], k) + 1):
            for rest in below(m - 1, k - take, min_groups - (1 if take >= 2 else 0)):
                yield tuple(rest + [distinct[m]] * take)
