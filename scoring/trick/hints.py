"""Hints and 托管: every legal play of a position, smallest first, as a :class:`LegalPlays`.

A leader may lead any single unit (single, pair, triple, tractor) of one group;
throws are never hinted. A follower's plays are built from what the lead asks
for, so the work follows the number of legal answers, and come smallest first
(the common rules' order, :meth:`Context.play_key`) without sorting the whole
list, so a hint stops once it has what it shows and knows whether more exist:

* short in the led group: all of its cards, then any others (:class:`~.fills.Fills`);
* a lead of singles, or ``follow_shape`` off: any cards of the led group;
* otherwise every legal answer holds one of the :func:`~.follow.follow_demands`
  (tractors chosen here as a *base*, triples and pairs counted by the fills);
  the streams of all bases are merged in order. When the lead has one unit
  that is not a single, holding its demand is legal: the play cannot match
  that unit better than the hand does, so it matches it exactly. With two or
  more, each play is read as :func:`check_follow` reads it
  (:meth:`~.space.CardSpace.score`): the greedy reading may rank a play above
  its demand on a later unit.
"""
from __future__ import annotations

import heapq
from collections import Counter
from operator import itemgetter
from typing import Iterable, Iterator, Sequence

from ..cards import Card
from ..plays import LegalPlays
from .fills import Fills
from .follow import Demand, check_follow, follow_demands, in_group, required_score, shape_binds
from .order import Context
from .space import CardSpace, Keyed
from .units import Unit, decompose, lead_units, runs, structures

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
    """The legal answers to ``lead``, smallest first, built from what the lead asks for (module doc)."""
    n = len(lead)
    g = ctx.group(lead[0])
    hand_g = in_group(ctx, hand, g)
    space = CardSpace(ctx, hand)
    if len(hand_g) < n:  # short in the led group: all of it, then anything
        rest = Counter(c for c in hand if ctx.group(c) != g)
        return _plays(Fills(space, hand_g, rest, n - len(hand_g)))
    units = lead_units(ctx, lead)
    pool = Counter(hand_g)
    if not shape_binds(ctx, units):
        return _plays(Fills(space, (), pool, n))
    want = required_score(ctx, lead, hand_g, units)
    if sum(1 for u in units if not u.is_single) > 1:  # the greedy reading decides (module doc)
        parts = _multi_parts(pool, n, MOST_PARTS)
        if parts is not None:
            return _plays(_by_multi_part(space, pool, n, units, want, parts))
    streams = [Fills(space, base, pool - Counter(base), n - len(base), d.triples, d.pairs)
               for d, base in _bases(ctx, pool, follow_demands(units, want))]
    merged = _distinct(heapq.merge(*streams, key=itemgetter(0)))
    if sum(1 for u in units if not u.is_single) > 1:
        merged = (kp for kp in merged if space.score(kp[0][3], units) >= want)
    return _plays(merged)


#: the most multi parts (cards a play holds twice or more) a throw's answers are sorted by, one by one
MOST_PARTS = 2000


def _by_multi_part(space: CardSpace, pool: Counter, n: int, units: Sequence[Unit], want, parts
                   ) -> Iterator[Keyed]:
    """The answers to a throw, by their multi part: the cards a play holds two or three times decide its
    reading (no unit takes a card held once), so each legal multi part is a base, filled with single
    copies of other cards."""
    streams = []
    for part in parts:
        singles = {c: 1 for c in pool if c not in part}
        size = sum(part.values())
        if n - size <= len(singles) and space.score(space.numbers(list(part.elements())), units) >= want:
            streams.append(Fills(space, list(part.elements()), singles, n - size))
    return heapq.merge(*streams, key=itemgetter(0))


def _multi_parts(pool: Counter, n: int, most: int) -> list[Counter] | None:
    """Every choice of cards held twice or three times in a play of ``n`` out of ``pool`` (None: more
    than ``most``)."""
    doubled = [(c, k) for c, k in pool.items() if k >= 2]
    ways = [1] + [0] * n  # ways[s]: choices of s cards so far
    for _, k in doubled:
        ways = [ways[s] + (ways[s - 2] if s >= 2 else 0) + (ways[s - 3] if k >= 3 and s >= 3 else 0)
                for s in range(n + 1)]
    if sum(ways) > most:
        return None
    parts = [Counter()]
    for c, k in doubled:
        parts = [p + Counter({c: m}) if m else p for p in parts for m in ((0, 2) if k == 2 else (0, 2, 3))
                 if m == 0 or sum(p.values()) + m <= n]
    return parts


def _plays(keyed: Iterable[Keyed]) -> Iterator[Play]:
    return (play for _, play in keyed)


def _distinct(keyed: Iterable[Keyed]) -> Iterator[Keyed]:
    """The plays of a merged stream, each once (equal plays have equal keys, so they come together)."""
    last = None
    for kp in keyed:
        if kp[0] != last:
            last = kp[0]
            yield kp


def _bases(ctx: Context, pool: Counter, demands: Sequence[Demand]) -> list[tuple[Demand, Play]]:
    """Each demand with each distinct choice of its tractors out of ``pool`` (the base of its plays)."""
    out: dict[tuple[Demand, Play], None] = {}
    for d in dict.fromkeys(demands):
        for base in _tractor_choices(ctx, pool, d.tractors):
            out[(d, tuple(sorted(base, key=ctx.key)))] = None
    return list(out)


def _tractor_choices(ctx: Context, pool: Counter, shapes: Sequence[tuple[int, int]]) -> Iterator[list[Card]]:
    """Every way of taking tractors of these shapes out of ``pool``, apart from each other."""
    if not shapes:
        yield []
        return
    (width, length), rest = shapes[0], shapes[1:]
    for u in structures(ctx, pool, width, length):
        for more in _tractor_choices(ctx, pool - Counter(u.cards), rest):
            yield list(u.cards) + more
