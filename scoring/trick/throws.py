"""Leads, and whether a throw (甩牌) stands against the other hands.

A lead of one unit is always legal. A throw is judged by the game's
:class:`~scoring.trick.order.ThrowRule`: under ``any_group`` (红五) it stands
if no other hand can beat any of its units; under ``trump_only`` (二七王) only
trumps may be thrown, and only while nobody else holds trump. When the other
hands are not all given, the verdict is ``None`` (undecided) unless the cards
nobody has shown cannot change it.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Sequence

from ..cards import Card
from ..i18n import Text, join, t
from .order import TRUMP, Context, FailedThrow, Group, ThrowRule
from .units import Unit, decompose, groups_text, shape_text, structures, unit_text

OTHER_HANDS = 3  # a throw is decided by the three other hands


class Verdict(NamedTuple):
    """A lead's verdict: legal (None: undecided), why, and the unit a failed throw must play instead."""

    legal: bool | None
    reason: Text
    forced: Unit | None = None


def check_lead(ctx: Context, hand: Sequence[Card], play: Sequence[Card],
               others: Sequence[Sequence[Card]] | None) -> Verdict:
    gs = ctx.groups_of(play)
    if len(gs) != 1:
        return Verdict(False, t("首家只能出同一花色组的牌，「{cards}」分属{groups}",
                        "a lead must come from one suit group; “{cards}” mixes {groups}",
                        cards=ctx.fmt(play), groups=groups_text(ctx, gs)))
    g = gs[0]
    units = decompose(ctx, play)
    if len(units) == 1:
        u = units[0]
        return Verdict(True, t("首家出{unit}，合乎规则", "a lead of a {kind}: legal", unit=unit_text(ctx, u),
                               kind=shape_text(u.width, u.length)))
    listing = join([unit_text(ctx, u) for u in units], "、", ", ")
    if ctx.spec.throw == ThrowRule.TRUMP_ONLY:
        return _check_trump_throw(ctx, g, hand, play, others, listing)
    return _check_throw(ctx, g, units, hand, others, listing)


def beater(ctx: Context, u: Unit, cards: Sequence[Card], g: Group) -> Unit | None:
    """The highest unit of ``u``'s shape in ``cards`` (group ``g``) that beats ``u``, if any."""
    counter = Counter(c for c in cards if ctx.group(c) == g)
    better = [x for x in structures(ctx, counter, u.width, u.length) if x.top > u.top]
    return max(better, key=lambda x: x.top) if better else None


def _unknown_cards(ctx: Context, known: Sequence[Card]) -> list[Card]:
    """The cards of the deck outside the known hands."""
    return list((Counter(ctx.deck.all_cards()) - Counter(known)).elements())


def _check_throw(ctx: Context, g: Group, units: Sequence[Unit], hand: Sequence[Card],
                 others: Sequence[Sequence[Card]] | None, listing: Text) -> Verdict:
    if others is None:
        return _throw_unknown(ctx, g, units, hand, listing, given=0)
    beaten = [(u, *hit) for u in units if (hit := _first_beater(ctx, u, others, g)) is not None]
    known = list(hand) + [c for o in others for c in o]
    if beaten:
        u, j, b = beaten[0]
        failed = t("甩牌失败：{unit}会被其他玩家 others[{j}] 的{beater}管上",
                   "the throw fails: {unit} is beaten by {beater} in the other hand others[{j}]",
                   unit=unit_text(ctx, u), j=j, beater=ctx.fmt(b.cards))
        unseen = [] if len(others) >= OTHER_HANDS else _unknown_cards(ctx, known)
        forced, instead = forced_unit(ctx, g, units, [x[0] for x in beaten], unseen)
        return Verdict(False, t("{failed}，{instead}", "{failed}; {instead}", failed=failed, instead=instead), forced)
    if len(others) >= OTHER_HANDS:
        return Verdict(True, t("甩牌成功：{units}，其他各家都管不上", "the throw stands: {units}; no other hand "
                               "can beat any unit", units=listing))
    return _throw_unknown(ctx, g, units, known, listing, given=len(others))


def _lowest_first(u: Unit) -> tuple[int, int]:
    """The order of the ``beaten`` rule: the lowest top card, then the fewest cards."""
    return (u.top, u.size)


def _unit_class(u: Unit) -> int:
    """同城游's order for a failed throw: singles, then pairs (triples with 3 decks), then tractors."""
    if u.length >= 2:
        return 2
    return 0 if u.width == 1 else 1


def forced_unit(ctx: Context, g: Group, units: Sequence[Unit], beaten: Sequence[Unit],
                unseen: Sequence[Card]) -> tuple[Unit | None, Text]:
    """The unit a failed throw must play instead (None: it depends on hands not given), and the words.

    ``single_first``: the throw's lowest single, else its lowest pair, else its lowest tractor, whichever
    unit was beaten. ``beaten``: the beaten unit with the lowest top card (then the fewest cards); with
    some hands not given (``unseen`` cards) it is known only when no lower unit could be beaten by them.
    """
    if ctx.spec.failed_throw == FailedThrow.SINGLE_FIRST:
        forced = min(units, key=lambda u: (_unit_class(u), u.top, u.size))
        return forced, t("按同城游的规则（先单牌、再对子、再拖拉机，选其较小的）应改出{f}",
                         "by 同城游's rule (singles, then pairs, then tractors, the smaller first) play {f} instead",
                         f=ctx.fmt(forced.cards))
    forced = min(beaten, key=_lowest_first)
    lower = [u for u in units if _lowest_first(u) < _lowest_first(forced) and u not in beaten]
    if unseen and any(beater(ctx, u, unseen, g) is not None for u in lower):
        return None, t("改出哪一手要看还没给出的几家：{lower}也可能被管上",
                       "which unit to play instead depends on the hands not given: {lower} may be beaten too",
                       lower=join([unit_text(ctx, u) for u in lower], "、", ", "))
    return forced, t("应改出{f}", "play {f} instead", f=ctx.fmt(forced.cards))


def _first_beater(ctx: Context, u: Unit, others: Sequence[Sequence[Card]], g: Group) -> tuple[int, Unit] | None:
    """The first other hand that beats ``u`` (its index) and its beating unit, or None."""
    for j, other in enumerate(others):
        b = beater(ctx, u, other, g)
        if b is not None:
            return j, b
    return None


def _throw_unknown(ctx: Context, g: Group, units: Sequence[Unit], known: Sequence[Card], listing: Text,
                   given: int) -> Verdict:
    """A throw judged without (all) the other hands: it stands only if no card we have not seen
    can beat any unit; otherwise the verdict is undecided and says which units to check."""
    rest = _unknown_cards(ctx, known)
    risky = [u for u in units if beater(ctx, u, rest, g) is not None]
    if not risky:
        return Verdict(True, t("甩牌成功：{units}，其余的牌中没有能管上任何一手的{g}牌",
                               "the throw stands: {units}; no card outside the known hands can beat any unit in {g}",
                               units=listing, g=ctx.group_name(g)))
    missing = t("其他三家", "the other hands") if given == 0 else \
        t("还没给出的{n}家", "the {n} hands not given", n=OTHER_HANDS - given)
    return Verdict(None, t("甩牌{units}能否成立取决于{missing}：要看他们能否管上{risky}；请在 others 中给出全部三家",
                           "whether the throw {units} stands depends on {missing}: check whether anyone can "
                           "beat {risky}; give all three hands in “others” to decide",
                           units=listing, missing=missing, risky=join([unit_text(ctx, u) for u in risky], "、", ", ")))


def _check_trump_throw(ctx: Context, g: Group, hand: Sequence[Card], play: Sequence[Card],
                       others: Sequence[Sequence[Card]] | None, listing: Text) -> Verdict:
    if g != TRUMP:
        return Verdict(False, t("只能甩主牌：「{cards}」是{g}牌，首家只能出单张、对子或拖拉机",
                                "only trumps may be thrown: “{cards}” is {g}; lead a single, pair or tractor",
                                cards=ctx.fmt(play), g=ctx.group_name(g)))
    others = others or ()  # not given: as good as none given
    holder = _first_trump_holder(ctx, others)
    if holder is not None:
        j, trumps = holder
        return Verdict(False, t("甩主牌只能在别人都没有主牌时：其他玩家 others[{j}] 还有主牌{cards}",
                                "trumps may be thrown only when nobody else holds trump: the other hand "
                                "others[{j}] still holds {cards}", j=j, cards=ctx.fmt(trumps)))
    if len(others) >= OTHER_HANDS:
        return Verdict(True, t("甩主牌成功：其他各家都没有主牌", "the trump throw stands: no other hand holds trump"))
    known = list(hand) + [c for o in others for c in o]
    if not any(ctx.is_trump(c) for c in _unknown_cards(ctx, known)):
        return Verdict(True, t("甩主牌成功：其余的主牌都在已知的手牌里，别人没有主牌",
                               "the trump throw stands: every other trump is in the known hands, nobody else holds "
                               "one"))
    return Verdict(None, t("甩主牌{units}只在其他三家都没有主牌时成立；请填写 others 来确定",
                           "the trump throw {units} stands only if none of the other three hands holds trump; "
                           "give “others” to decide", units=listing))


def _first_trump_holder(ctx: Context, others: Sequence[Sequence[Card]]) -> tuple[int, list[Card]] | None:
    """The first other hand holding trump (its index) and its trumps, or None."""
    for j, other in enumerate(others):
        trumps = [c for c in other if ctx.is_trump(c)]
        if trumps:
            return j, trumps
    return None
