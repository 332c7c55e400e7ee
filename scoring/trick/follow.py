"""Following a lead: the obligations of the common rules, and a reason naming the one broken.

For a lead of N cards from group G: play N cards; play only G cards while you
hold N of them, else all of them and anything else; inside G match the lead's
shape unit by unit as far as the hand allows (:func:`obligation_score`).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, NamedTuple, Sequence

from ..cards import Card
from ..i18n import Text, t
from .order import Context, Group
from .space import UnitScore, space_of
from .units import Unit, lead_units, match, shape_text


def in_group(ctx: Context, cards: Sequence[Card], g: Group) -> list[Card]:
    return [c for c in cards if ctx.group(c) == g]


def obligation_score(ctx: Context, cards: Sequence[Card], units: Sequence[Unit]) -> list[UnitScore]:
    """What cards of the led group manage to match of the lead's shape, unit by unit (the greedy reading
    of :meth:`~.space.CardSpace.score`: the lowest tractor, else the lowest sets, then pairs for triples)."""
    space = space_of(ctx)
    return space.score(space.numbers(cards), units)


def required_score(ctx: Context, lead: Sequence[Card], hand_g: Sequence[Card], units: Sequence[Unit]
                   ) -> list[UnitScore]:
    """What the hand's cards of the led group must match of the lead's shape (memoised; the reading does
    not depend on the order the cards come in)."""
    memo_key = ("follow", tuple(lead), tuple(hand_g))
    want = ctx.cache.get(memo_key)
    if want is None:
        want = ctx.cache[memo_key] = obligation_score(ctx, hand_g, units)
    return want


def check_follow(ctx: Context, lead: Sequence[Card], hand: Sequence[Card], play: Sequence[Card]
                 ) -> tuple[bool, Text]:
    """Is ``play`` (out of ``hand``) a legal answer to ``lead``?"""
    n = len(lead)
    units = lead_units(ctx, lead)
    g = ctx.group(lead[0])
    gname = ctx.group_name(g)
    if len(play) != n:
        return False, t("首家出了{n}张，必须出{n}张，你出了{m}张",
                        "the lead has {n} cards, so you must play {n}, not {m}", n=n, m=len(play))
    hand_g = _held_in_group(ctx, hand, g)
    play_g = in_group(ctx, play, g)
    if len(hand_g) < n:
        return _short_follow(ctx, units, gname, hand_g, play_g, play)
    if len(play_g) < n:
        return False, t("你还有{k}张{g}牌，必须跟{g}，只能出{g}牌",
                        "you still hold {k} {g} cards: you must follow {g} and play only {g} cards",
                        k=len(hand_g), g=gname)
    if not shape_binds(ctx, units):
        return True, t("跟出{g}牌，合乎规则", "follows {g}: legal", g=gname)
    return _shape_follow(ctx, lead, units, gname, hand_g, play_g)


def _held_in_group(ctx: Context, hand: Sequence[Card], g: Group) -> tuple[Card, ...]:
    """The hand's cards of group ``g`` (memoised: a brute-force search checks thousands of plays of one hand)."""
    memo_key = ("in group", g, tuple(hand))
    cards = ctx.cache.get(memo_key)
    if cards is None:
        cards = ctx.cache[memo_key] = tuple(in_group(ctx, hand, g))
    return cards


def shape_binds(ctx: Context, units: Sequence[Unit]) -> bool:
    """Does the lead's shape oblige a follower (not for a lead of singles, nor with ``follow_shape`` off)?"""
    return ctx.spec.follow_shape and not (len(units) == 1 and units[0].width == 1)


def shape_test(ctx: Context, lead: Sequence[Card], hand_g: Sequence[Card]
               ) -> Callable[[Sequence[Card]], bool] | None:
    """For a hand holding at least as many cards of the led group as the lead (``hand_g``): the test a
    play of that many of them must pass, as :func:`check_follow` decides it; None when any such play is legal."""
    units = lead_units(ctx, lead)
    if not shape_binds(ctx, units):
        return None
    want = required_score(ctx, lead, hand_g, units)
    return lambda play_g: obligation_score(ctx, play_g, units) >= want


def _short_follow(ctx: Context, units: Sequence[Unit], gname: Text, hand_g: Sequence[Card],
                  play_g: Sequence[Card], play: Sequence[Card]) -> tuple[bool, Text]:
    """The hand holds fewer cards of the led group than the lead: all of them, then anything."""
    if len(play_g) < len(hand_g):
        left = Counter(hand_g) - Counter(play_g)
        return False, t("你的{g}牌不足{n}张，必须全部跟出（还有{cards}没出）",
                        "you hold fewer than {n} {g} cards, so all of them must be played "
                        "(still held: {cards})", g=gname, n=len(play), cards=ctx.fmt(left.elements()))
    if hand_g:
        return True, t("{g}牌已全部跟出，其余可任意垫", "all your {g} cards are played; the rest may be anything",
                       g=gname)
    if all(ctx.is_trump(c) for c in play) and match(ctx, play, units):
        return True, t("{g}已无，用主牌毙牌", "void in {g}: a trump ruff", g=gname)
    return True, t("{g}已无，可以出任意牌（垫牌或毙牌）", "void in {g}: any cards may be played "
                   "(discard or ruff)", g=gname)


def _shape_follow(ctx: Context, lead: Sequence[Card], units: Sequence[Unit], gname: Text,
                  hand_g: Sequence[Card], play_g: Sequence[Card]) -> tuple[bool, Text]:
    want = required_score(ctx, lead, hand_g, units)
    got = obligation_score(ctx, play_g, units)
    if got >= want:
        return True, t("跟出{g}牌，牌型也跟得上", "follows {g} and matches the lead's shape as far as "
                       "the hand allows", g=gname)
    for u, w, h in zip(units, want, got):
        if h < w:
            return False, shape_reason(u, w, gname, throw=len(units) > 1)
    return False, t("牌型没有按要求跟出", "the shape of the lead is not followed")  # pragma: no cover


def shape_reason(u: Unit, want: UnitScore, gname: Text, throw: bool) -> Text:
    """Why a play breaks the shape obligation of unit ``u`` (``want``: what the hand could match)."""
    prefix = t("首家甩牌中有{unit}：", "the throw contains a {unit}: ", unit=shape_text(u.width, u.length)) \
        if throw else t("", "")
    return prefix + _shape_duty(u, want, gname)


def _shape_duty(u: Unit, want: UnitScore, gname: Text) -> Text:
    full, n_w, n_2 = want
    pair = t("你有{g}对子，必须跟对", "you hold a {g} pair and must follow with a pair", g=gname)
    if u.length == 1:
        if u.width == 3 and full:
            return t("你有{g}三张，必须跟三张", "you hold a {g} triple and must follow with a triple", g=gname)
        return pair
    if full:
        return t("你有{g}拖拉机，必须跟拖拉机", "you hold a {g} tractor and must follow with a tractor", g=gname)
    if u.width == 3 and n_w:
        return t("你有{n}个{g}三张，必须跟出", "you hold {n} {g} triples and must play them", n=n_w, g=gname)
    if u.width == 3:
        return t("你有{n}个{g}对子，必须跟对", "you hold {n} {g} pairs and must follow with them", n=n_2, g=gname)
    if n_w == 1:
        return pair
    return t("你有{n}个{g}对子，必须跟{n}对", "you hold {n} {g} pairs and must follow with {n} pairs", n=n_w, g=gname)


class Demand(NamedTuple):
    """What a play holds at least, apart from singles: tractors of these shapes (width, length), and
    ``triples`` triples and ``pairs`` pairs besides, all apart."""

    tractors: tuple[tuple[int, int], ...] = ()
    triples: int = 0
    pairs: int = 0

    def __add__(self, other: "Demand") -> "Demand":  # type: ignore[override]
        return Demand(self.tractors + other.tractors, self.triples + other.triples, self.pairs + other.pairs)


def _sets(width: int, n: int, pairs: int = 0) -> Demand:
    """``n`` sets of ``width`` identical cards and ``pairs`` pairs."""
    return Demand((), n, pairs) if width == 3 else Demand((), 0, n + pairs)


def unit_demand(u: Unit, score: UnitScore) -> Demand:
    """What a play whose unit ``u`` scores ``score`` (:func:`obligation_score`) holds for it."""
    full, n_w, n_2 = score
    if u.is_single:
        return Demand()
    if u.length >= 2 and full:
        return Demand(((u.width, u.length),))
    return _sets(u.width, n_w, n_2)


def better_demands(u: Unit, score: UnitScore) -> list[Demand]:
    """What a play whose unit ``u`` scores more than ``score`` holds for it: one of these."""
    full, n_w, n_2 = score
    if u.is_single or full:
        return []
    if u.length == 1:  # a pair or triple not matched (0, 0, 0), or a triple matched by a pair (0, 0, 1)
        return [_sets(u.width, 1)] if n_2 else [Demand((), 0, 1)]
    out = [Demand(((u.width, u.length),))]
    if n_w < u.length:
        out.append(_sets(u.width, n_w + 1))
    if u.width == 3 and n_w + n_2 < u.length:
        out.append(_sets(u.width, n_w, n_2 + 1))
    return out


def follow_demands(units: Sequence[Unit], want: Sequence[UnitScore]) -> list[Demand]:
    """What every legal answer holds at least one of, for a hand whose led-group cards score ``want``.

    A play is legal when its scores, unit by unit, are ``want`` or lexicographically more. Its first
    unit cannot score more than the hand (it holds fewer cards); a later unit can, when the greedy
    matching of the hand used up cards the play keeps. So: the play matches ``want`` on every unit, or
    on the units before some later unit ``j`` and more than ``want`` on ``j`` (anything after it).
    """
    exact = [unit_demand(u, w) for u, w in zip(units, want)]
    out = [sum(exact, Demand())]
    for j in range(1, len(units)):
        before = sum(exact[:j], Demand())
        out += [before + more for more in better_demands(units[j], want[j])]
    return out
