"""The winner of a trick: the lead, unless beaten in its group or ruffed, in its shape.

A later play wins if it is in the led group with the lead's shape and a
strictly higher top, or a trump ruff of that shape strictly higher than every
earlier ruff; between equal plays the first played wins, and a play of another
shape never wins.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import Card
from ..i18n import Text, join, t
from .order import TRUMP, Context, ThrowCompare
from .units import Unit, lead_units, match


def strength_of(ctx: Context, matched: Sequence[Unit], throw: bool) -> int:
    """What a play of the lead's shape is compared by: its top unit; for a throw, its highest
    card (the common rules) or, under the house rule ``throw_compare: longest_unit``, its longest unit."""
    if throw and ctx.spec.throw_compare == ThrowCompare.HIGHEST_CARD:
        return max(u.top for u in matched)
    return matched[0].top


@dataclass
class _Leader:
    """The play winning the trick so far, and what the reason will say."""

    index: int
    top: int
    why: Text
    ruffed: bool = False
    tie: bool = False         # an equal play came later (the first played stays ahead)
    other_shape: bool = False  # a play of another shape was seen (it counts as smaller)

    def follows(self, i: int, top: int) -> None:
        """Play ``i`` is of the led group and shape."""
        if self.ruffed:
            return
        if top > self.top:
            self.index, self.top, self.tie = i, top, False
            self.why = t("同花色组、同牌型中最大", "highest of the same shape in the led group")
        elif top == self.top:
            self.tie = True

    def ruffs(self, i: int, top: int) -> None:
        """Play ``i`` is trump of the lead's shape, the lead being plain."""
        if not self.ruffed or top > self.top:
            self.why = t("用更大的主牌盖毙", "over-ruffs with higher trump") if self.ruffed \
                else t("用同牌型的主牌毙牌", "ruffs with trump of the same shape")
            self.index, self.top, self.ruffed, self.tie = i, top, True, False
        elif top == self.top:
            self.tie = True


def winner(ctx: Context, plays: Sequence[Sequence[Card]]) -> tuple[int, Text]:
    """The index of the winning play and why."""
    lead = plays[0]
    units = lead_units(ctx, lead)
    throw = len(units) > 1
    g = ctx.group(lead[0])
    leader = _Leader(0, strength_of(ctx, match(ctx, lead, units), throw),
                     t("首家的牌没有被同牌型更大的牌管上", "nobody beat the lead with a higher play of the same shape"))
    for i, p in enumerate(plays[1:], 1):
        gs = ctx.groups_of(p)
        if gs != [g] and gs != [TRUMP]:
            continue  # a discard, or cards of two groups
        matched = match(ctx, p, units)
        if matched is None:
            leader.other_shape = True
        elif gs == [g]:
            leader.follows(i, strength_of(ctx, matched, throw))
        else:
            leader.ruffs(i, strength_of(ctx, matched, throw))
    return leader.index, _reason(ctx, plays, leader)


def _reason(ctx: Context, plays: Sequence[Sequence[Card]], leader: _Leader) -> Text:
    notes = [leader.why]
    if leader.tie:
        notes.append(t("同级的牌先出者大", "between equal cards the first played wins"))
    if leader.other_shape:
        notes.append(t("牌型不同的出牌直接算小", "a play of a different shape counts as smaller"))
    return t("第{n}手「{cards}」赢：{why}", "play {n} “{cards}” wins: {why}",
             n=leader.index + 1, cards=ctx.fmt(plays[leader.index]), why=join(notes, "；", "; "))
