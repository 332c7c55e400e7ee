"""Units of a play: singles, pairs, triples and tractors, and the format of a lead.

A lead is read as its units (:func:`decompose`: widest first, longest tractors
first); a lead of more than one unit is a throw (甩牌). :func:`match` reads
another play in the shape of those units, for the trick winner.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Mapping, Sequence

from ..cards import Card
from ..errors import InvalidInput
from ..i18n import Text, join, t
from .order import Context, Group

KIND_TEXT = {
    "single": t("单张", "single"),
    "pair": t("对子", "pair"),
    "triple": t("三张", "triple"),
    "tractor": t("拖拉机", "tractor"),
    "throw": t("甩牌", "throw"),
}

#: a run: consecutive chaining levels high→low, each the list of its candidate cards
Run = list[list[Card]]


@dataclass(frozen=True)
class Unit:
    kind: str  # single | pair | triple | tractor
    width: int  # copies per level: 1, 2, 3
    length: int  # levels: 1, or ≥ 2 for a tractor
    cards: tuple[Card, ...]  # canonical order, highest first
    top: int  # the level (strength inside the group) of the highest part

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)

    @property
    def is_single(self) -> bool:
        return self.width == 1 and self.length == 1


def unit_kind(width: int, length: int) -> str:
    if length >= 2:
        return "tractor"
    return {1: "single", 2: "pair", 3: "triple"}[width]


def shape_text(width: int, length: int) -> Text:
    if length >= 2:
        if width == 3:
            return t("{n}连三张拖拉机", "tractor of {n} triples", n=length)
        return t("{n}连对拖拉机", "tractor of {n} pairs", n=length)
    return KIND_TEXT[unit_kind(width, 1)]


def unit_text(ctx: Context, u: Unit) -> Text:
    return t("{cards}（{kind}）", "{cards} ({kind})", cards=ctx.fmt(u.cards), kind=shape_text(u.width, u.length))


def groups_text(ctx: Context, groups: Sequence[Group]) -> Text:
    return join([ctx.group_name(g) for g in groups], "、", " and ")


def make_unit(ctx: Context, width: int, parts: Sequence[Card]) -> Unit:
    """The unit of ``width`` copies of each card in ``parts`` (one card per level)."""
    cards = sorted((c for c in parts for _ in range(width)), key=ctx.key)
    top = max(ctx.strength(c) for c in parts)
    return Unit(unit_kind(width, len(parts)), width, len(parts), tuple(cards), top)


def runs(ctx: Context, counter: Mapping[Card, int], width: int) -> list[Run]:
    """Maximal runs of consecutive chaining levels holding ≥ ``width`` copies, trump first, high first."""
    by_level: dict[tuple, list[Card]] = defaultdict(list)
    for c, n in counter.items():
        if n >= width and ctx.chain(c) is not None:
            by_level[(ctx.group(c), ctx.chain(c))].append(c)
    found: list[Run] = []
    seen: set[tuple] = set()
    for level in sorted(by_level, key=lambda k: (ctx.group_rank(k[0]), -k[1])):
        if level not in seen:
            seen.add(level)
            found.append(_run_from(ctx, counter, width, sorted(by_level[level], key=ctx.key), seen))
    return found


def _run_from(ctx: Context, counter: Mapping[Card, int], width: int, first: list[Card], seen: set) -> Run:
    """Follow the successor levels of ``first`` while they hold ``width`` copies (marking them seen)."""
    run = [first]
    while True:
        below = [c for c in ctx.successors(run[-1][0]) if counter.get(c, 0) >= width]
        if not below:
            return run
        seen.add((ctx.group(below[0]), ctx.chain(below[0])))
        run.append(sorted(below, key=ctx.key))


def structures(ctx: Context, counter: Mapping[Card, int], width: int, length: int) -> list[Unit]:
    """Every distinct unit of this shape inside ``counter`` (one group or several)."""
    if length == 1:
        return [make_unit(ctx, width, [c]) for c, n in counter.items() if n >= width]
    out: list[Unit] = []
    for run in runs(ctx, counter, width):
        for start in range(0, len(run) - length + 1):
            for choice in product(*run[start:start + length]):
                out.append(make_unit(ctx, width, choice))
    return out


def decompose(ctx: Context, cards: Sequence[Card]) -> list[Unit]:
    """The units of cards from one group: widest first, longest tractors first."""
    left = Counter(cards)
    units: list[Unit] = []
    for width in range(ctx.max_width, 1, -1):
        units += _take_tractors(ctx, left, width)
        for c in sorted(left, key=ctx.key):
            while left[c] >= width:
                units.append(make_unit(ctx, width, [c]))
                left[c] -= width
    for c in sorted(left, key=ctx.key):
        units += [make_unit(ctx, 1, [c])] * left[c]
    units.sort(key=lambda u: (-u.size, -u.width, -u.top))
    return units


def _take_tractors(ctx: Context, left: Counter, width: int) -> list[Unit]:
    """Take the longest (then highest) tractor of ``width`` out of ``left`` while there is one."""
    taken = []
    while True:
        long_runs = [r for r in runs(ctx, left, width) if len(r) >= 2]
        if not long_runs:
            return taken
        best = max(long_runs, key=lambda r: (len(r), max(ctx.strength(c) for c in r[0])))
        parts = [level[0] for level in best]
        taken.append(make_unit(ctx, width, parts))
        for c in parts:
            left[c] -= width


def lead_units(ctx: Context, lead: Sequence[Card]) -> list[Unit]:
    """The units of a lead (memoised on the context); a lead from two groups is an input error."""
    memo_key = ("lead_units", tuple(lead))
    units = ctx.cache.get(memo_key)
    if units is None:
        gs = ctx.groups_of(lead)
        if len(gs) != 1:
            raise InvalidInput(
                t("首家的牌「{cards}」分属{groups}，首家只能出同一花色组的牌",
                  "the lead “{cards}” mixes {groups}; a lead comes from one suit group",
                  cards=ctx.fmt(lead), groups=groups_text(ctx, gs)),
                field="lead", code="mixed_lead")
        units = ctx.cache[memo_key] = decompose(ctx, lead)
    return units


def match(ctx: Context, cards: Sequence[Card], units: Sequence[Unit]) -> list[Unit] | None:
    """Read ``cards`` in the shape of ``units`` (highest first); None if impossible."""
    if len(cards) != sum(u.size for u in units):
        return None
    left = Counter(cards)
    out = []
    for u in units:
        if u.is_single:
            candidates = [make_unit(ctx, 1, [c]) for c, n in left.items() if n > 0]
        else:
            candidates = structures(ctx, +left, u.width, u.length)
        if not candidates:
            return None
        best = max(candidates, key=lambda x: x.top)
        out.append(best)
        left.subtract(Counter(best.cards))
    return out
