"""Hints and 托管: every legal play of a position, smallest first, as a :class:`LegalPlays`.

A leader may lead any single unit (single, pair, triple, tractor) of one group;
throws are never hinted. A follower's plays are built from what the lead asks
for, so the work follows the number of legal answers, and come smallest first
(the common rules' order, :meth:`Context.play_key`) without sorting the whole
list, so a hint stops once it has what it shows and knows whether more exist.
Plays are sorted tuples of card numbers (:func:`~.space.space_of`) keyed by
:meth:`~.space.CardSpace.key`; :func:`legal_plays` gives them as cards,
:func:`legal_texts` as the texts a hint shows.

* short in the led group: all of its cards, then any others (:class:`~.fills.Fills`);
* a lead of singles, or ``follow_shape`` off: any cards of the led group;
* otherwise every legal answer holds one of the :func:`~.follow.follow_demands`
  (tractors chosen here as a *base*, triples and pairs counted by the fills);
  the streams of all bases are merged in order. When the lead has one unit
  that is not a single, holding its demand is legal: the play cannot match
  that unit better than the hand does, so it matches it exactly.
* a throw with two or more units that are not singles is read as
  :func:`check_follow` reads it (:meth:`~.space.CardSpace.score`), since the
  greedy reading may rank a play above its demand on a later unit. Only the
  cards a play holds two or three times (its *multi part*) count in that
  reading, so each multi part that can hold a demand is read once, and a legal
  one becomes a base filled with single cards (a few fills sorted at once by
  their own keys, more by a search); when the hand allows more than
  :data:`MOST_PARTS` of them, the demands' streams are read play by play instead.
"""
from __future__ import annotations

import heapq
from collections import Counter
from functools import partial
from itertools import combinations, count
from math import comb
from operator import itemgetter
from typing import Callable, Iterable, Iterator, Sequence

from ..cards import Card
from ..plays import LegalPlays
from .fills import Fills
from .follow import Demand, check_follow, follow_demands, in_group, required_score, shape_binds
from .order import Context
from .space import CardSpace, Key, space_of
from .units import Unit, decompose, lead_units, runs, structures

Play = tuple[Card, ...]


def legal_plays(ctx: Context, hand: Sequence[Card], lead: Sequence[Card] | None) -> LegalPlays[Play]:
    """Every distinct legal play from ``hand`` (canonical order inside a play), smallest first."""
    hand = tuple(hand)
    if not lead:
        return LegalPlays(lambda: iter(lead_plays(ctx, hand)), lambda play: _is_unit_lead(ctx, hand, play))
    lead = tuple(lead)
    return LegalPlays(lambda: map(space_of(ctx).play, _follow_numbers(ctx, lead, hand)),
                      lambda play: _holds(hand, play) and check_follow(ctx, lead, hand, play)[0])


def legal_texts(ctx: Context, hand: Sequence[Card], lead: Sequence[Card] | None) -> LegalPlays[str]:
    """The legal plays as a hint shows them, their canonical texts, smallest first."""
    hand = tuple(hand)
    if not lead:
        return LegalPlays(lambda: map(ctx.fmt, lead_plays(ctx, hand)))
    lead = tuple(lead)
    return LegalPlays(lambda: map(space_of(ctx).text_of, _follow_numbers(ctx, lead, hand)))


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


def _follow_numbers(ctx: Context, lead: Play, hand: Play) -> Iterator[Numbers]:
    """The legal answers to ``lead`` (card numbers, :func:`~.space.space_of`), smallest first, built from
    what the lead asks for (module doc)."""
    n = len(lead)
    g = ctx.group(lead[0])
    hand_g = in_group(ctx, hand, g)
    space = space_of(ctx)
    if len(hand_g) < n:  # short in the led group: all of it, then anything
        rest = space.counts(c for c in hand if ctx.group(c) != g)
        return Fills(space, space.numbers(hand_g), rest, n - len(hand_g)).plays()
    units = lead_units(ctx, lead)
    if not shape_binds(ctx, units):
        return Fills(space, (), space.counts(hand_g), n).plays()
    return map(itemgetter(3), _shaped_follow_keys(ctx, space, units, lead, hand_g))


def _shaped_follow_keys(ctx: Context, space: CardSpace, units: Sequence[Unit], lead: Play,
                        hand_g: Sequence[Card]) -> Iterator[Key]:
    """The keys of the answers that match the lead's shape as far as the hand allows, smallest first."""
    n = len(lead)
    pool = space.counts(hand_g)
    want = required_score(ctx, lead, hand_g, units)
    if sum(1 for u in units if not u.is_single) > 1:  # the greedy reading decides (module doc)
        parts = _multi_parts(pool, n, follow_demands(units, want), MOST_CHOICES)
        if parts is not None and len(parts) <= MOST_PARTS:
            return _by_multi_part(space, pool, n, units, want, parts)
    entries = [(_floor(space, base), partial(Fills, space, base, pool - Counter(base), n - len(base), d.triples,
                                              d.pairs))
               for d, base in _bases(ctx, space, Counter(hand_g), follow_demands(units, want))]
    merged = _distinct(_lazy_merge(entries))
    if sum(1 for u in units if not u.is_single) > 1:
        merged = filter(_multi_part_test(space, units, want), merged)
    return merged


def _multi_part_test(space: CardSpace, units: Sequence[Unit], want) -> Callable[[Key], bool]:
    """Is a play legal, by the greedy reading of its multi part (memoised: many plays share one)?"""
    memo: dict[Numbers, bool] = {}

    def legal(key: Key) -> bool:
        numbers = key[3]
        part = tuple(i for j, i in enumerate(numbers) if (j and numbers[j - 1] == i)
                     or (j + 1 < len(numbers) and numbers[j + 1] == i))
        found = memo.get(part)
        if found is None:
            found = memo[part] = space.score(part, units) >= want
        return found
    return legal


#: the most multi parts (cards a play holds twice or more) a throw's answers are sorted by, one by one,
#: with at most MOST_CHOICES choices of cards held twice or three times kept on the way to them
MOST_PARTS = 6000
MOST_CHOICES = 30000

Opener = Callable[[], Iterable[Key]]
Numbers = tuple[int, ...]


def _by_multi_part(space: CardSpace, pool: Counter, n: int, units: Sequence[Unit], want,
                   parts: list[Numbers]) -> Iterator[Key]:
    """The answers to a throw, by their multi part: the cards a play holds two or three times decide its
    reading (no unit takes a card held once), so each legal multi part is a base, filled with single
    copies of other cards."""
    singles = sorted(pool)

    def opener(part: Numbers) -> Opener:
        def fills() -> Iterable[Key]:
            if space.score(part, units) < want:
                return ()
            k = n - len(part)
            if k == 0:
                return (space.group_key(part),)
            held = set(part)
            free = [i for i in singles if i not in held]
            if comb(len(free), k) <= FEW_FILLS:
                return _few_fills(space, part, free, k)
            return Fills(space, part, dict.fromkeys(free, 1), k)
        return fills

    return _lazy_merge([(_floor(space, part), opener(part)) for part in parts])


#: a multi part with at most this many fills has them made at once and sorted (cheaper than a search)
FEW_FILLS = 64


def _few_fills(space: CardSpace, part: Numbers, free: list[int], k: int) -> Iterator[Key]:
    """The keys of ``part`` (one group) with each choice of ``k`` of the ``free`` cards, smallest first.

    Adding the same cards to two fills keeps their order, part by part of the key (the highest card
    aside: the part's may stand above both), so the fills are sorted by their own small keys and only
    the plays taken are keyed whole."""
    value, point = space.value, space.point
    top = value[part[0]] if part else -1
    fills = sorted([(max(top, value[fill[0]]) if fill else top, sum(map(point.__getitem__, fill)),
                     tuple(map(value.__getitem__, fill)), fill) for fill in combinations(free, k)])
    key = space.group_key
    return (key(tuple(sorted(part + fill[3]))) for fill in fills)


def _floor(space: CardSpace, base: Numbers) -> tuple[int, int]:
    """The least start of the key of a play holding ``base`` (cards of one group, sorted): its highest
    card's value, and then its point cards (no fewer than the base's, unless a higher card comes too)."""
    return (space.value[base[0]] if base else -1, sum(map(space.point.__getitem__, base)))


def _lazy_merge(entries: list[tuple[tuple[int, int], Opener]]) -> Iterator[Key]:
    """Merge streams of plays in key order, opening a stream only once the plays reach its floor (no play
    of it can come earlier), so that a hint cut at its limit opens only the streams it needs."""
    entries.sort(key=itemgetter(0))
    heap: list = []
    order = count()  # breaks ties between equal keys without comparing streams
    i = 0
    while True:
        # a floor (top, points) is below every key that starts with it, so a stream opens on a tie
        while i < len(entries) and (not heap or entries[i][0] <= heap[0][0]):
            _push(heap, order, iter(entries[i][1]()))
            i += 1
        if not heap:
            return
        key, tie, stream = heap[0]
        yield key
        following = next(stream, None)
        if following is None:
            heapq.heappop(heap)
        else:
            heapq.heapreplace(heap, (following, tie, stream))


def _push(heap: list, order, stream: Iterator[Key]) -> None:
    first = next(stream, None)
    if first is not None:
        heapq.heappush(heap, (first, next(order), stream))


def _multi_parts(pool: Counter, n: int, demands: Sequence[Demand], most: int) -> list[Numbers] | None:
    """Every choice of cards held twice or three times in a play of ``n`` out of ``pool`` that leaves room
    for the play's single cards and holds enough doubled and tripled cards for one of the demands (a legal
    play's part holds one of them whole); sorted numbers. None: more than ``most`` choices on the way.

    The choices grow card by card, each kept only while the cards still to come could complete a demand."""
    doubled = sorted((c, k) for c, k in pool.items() if k >= 2)
    needs = [(sum(length for _, length in d.tractors) + d.triples + d.pairs,
              sum(length for width, length in d.tractors if width == 3) + d.triples) for d in demands]
    parts: list[tuple[Numbers, int, int]] = [((), 0, 0)]  # (part, cards held twice or more, three times)
    for j, (c, k) in enumerate(doubled):
        parts += [(p + (c,) * m, two + 1, three + (m == 3)) for p, two, three in parts
                  for m in ((2,) if k == 2 else (2, 3)) if len(p) + m <= n]
        later = doubled[j + 1:]
        parts = _completable(parts, n, needs, len(later), sum(1 for _, k in later if k >= 3))
        if len(parts) > most:
            return None
    room = n - len(pool)  # a part of p cards, d of them distinct, leaves len(pool) - d cards for n - p singles
    return [p for p, two, three in parts if len(p) - two >= room
            and any(two >= need_2 and three >= need_3 for need_2, need_3 in needs)]


def _completable(parts: list[tuple[Numbers, int, int]], n: int, needs: list[tuple[int, int]], later: int,
                 later_3: int) -> list[tuple[Numbers, int, int]]:
    """The choices that ``later`` more doubled cards (``later_3`` of them held three times in the hand) could
    complete to one of the needs (cards held twice or more, three times) within ``n`` cards."""
    memo: dict[tuple[int, int, int], bool] = {}  # many choices share their counts
    out = []
    for state in parts:
        counts = (len(state[0]), state[1], state[2])
        ok = memo.get(counts)
        if ok is None:
            ok = memo[counts] = any(_reaches(*counts, need_2, need_3, n, later, later_3) for need_2, need_3 in needs)
        if ok:
            out.append(state)
    return out


def _reaches(size: int, two: int, three: int, need_2: int, need_3: int, n: int, later: int, later_3: int) -> bool:
    add_3 = max(0, need_3 - three)
    add_2 = max(0, need_2 - two - add_3)
    return add_3 <= later_3 and add_3 + add_2 <= later and size + 3 * add_3 + 2 * add_2 <= n


def _distinct(keys: Iterable[Key]) -> Iterator[Key]:
    """The plays of a merged stream, each once (equal plays have equal keys, so they come together)."""
    last = None
    for key in keys:
        if key != last:
            last = key
            yield key


def _bases(ctx: Context, space: CardSpace, pool: Counter, demands: Sequence[Demand]) -> list[tuple[Demand, Numbers]]:
    """Each demand with each distinct choice of its tractors out of ``pool`` (the base of its plays)."""
    out: dict[tuple[Demand, Numbers], None] = {}
    for d in dict.fromkeys(demands):
        for base in _tractor_choices(ctx, pool, d.tractors):
            out[(d, space.numbers(base))] = None
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
