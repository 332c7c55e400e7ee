"""The API actions of a trick game: classify, check, trick and hint (the API contract, docs/api.md)."""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from ..cards import Card
from ..errors import InvalidInput, PaijuError
from ..i18n import join, t
from ..inputs import get_int
from ..plays import MAX_LIMIT, collector_paused, default_limit
from .follow import check_follow
from .hints import legal_texts
from .inputs import check_deck, check_hand_size, parse_trump, read_card_list, read_cards, require_in_hand
from .order import TRUMP, Context, TrickSpec, points_of
from .throws import check_lead
from .units import KIND_TEXT, decompose, groups_text, lead_units, shape_text, unit_text
from .winner import winner


def trick_actions(spec_for: Callable[[object], TrickSpec]) -> dict:
    """classify / check / trick / hint for a trick game, each ``(payload, rules) -> dict``."""

    def context(payload: Mapping, rules) -> Context:
        return Context(spec_for(rules), parse_trump(payload.get("trump")))

    def classify(payload: Mapping, rules) -> dict:
        ctx = context(payload, rules)
        cards = read_cards(payload, "cards")
        check_deck(ctx.deck, cards, "cards")
        return classify_cards(ctx, cards)

    return {"classify": classify,
            "check": lambda payload, rules: check_play(context(payload, rules), payload),
            "trick": lambda payload, rules: judge_trick(context(payload, rules), payload),
            "hint": lambda payload, rules: hint(context(payload, rules), payload)}


def check_play(ctx: Context, payload: Mapping) -> dict:
    """``check``: is a lead (with the other hands, if given) or a follow legal, and why; ``forced``: what a
    failed throw must play instead (None otherwise)."""
    play = read_cards(payload, "play")
    lead = read_cards(payload, "lead", required=False)
    given = read_cards(payload, "hand", required=lead is not None)
    hand = given or play  # a lead alone: the play is the hand
    check_hand_size(hand, ctx.spec.deal, "hand" if given else "play")
    others = None
    if payload.get("others") is not None:
        others = read_card_list(payload, "others", 0, 3, allow_empty=True)
    all_cards = list(hand) + list(lead or ()) + [c for o in (others or []) for c in o]
    check_deck(ctx.deck, all_cards, "hand+lead+others" if lead or others else "hand")
    require_in_hand(hand, play)
    forced = None
    if lead is None:
        legal, reason, forced = check_lead(ctx, hand, play, others)
    else:
        lead_units(ctx, lead)
        legal, reason = check_follow(ctx, lead, hand, play)
    return {"legal": legal, "reason": reason, "play": ctx.fmt(play),
            "forced": ctx.fmt(forced.cards) if forced is not None else None}


def judge_trick(ctx: Context, payload: Mapping) -> dict:
    """``trick``: who wins the trick and the points in it."""
    plays = read_card_list(payload, "plays", 2, 4)
    check_deck(ctx.deck, [c for p in plays for c in p], "plays")
    n = len(plays[0])
    for i, p in enumerate(plays[1:], 1):
        if len(p) != n:
            raise InvalidInput(t("第{i}手出了{m}张，但首家出了{n}张：每家出牌张数相同",
                                 "play {i} has {m} cards but the lead has {n}: every play has as many cards",
                                 i=i + 1, m=len(p), n=n), field=f"plays[{i}]", code="wrong_count")
    try:
        lead_units(ctx, plays[0])
    except PaijuError as exc:
        raise exc.replaced(field="plays[0]")
    index, reason = winner(ctx, plays)
    return {"winner": index, "points": points_of(c for p in plays for c in p), "reason": reason,
            "plays": [ctx.fmt(p) for p in plays]}


def hint(ctx: Context, payload: Mapping) -> dict:
    """``hint``: the smallest ``limit`` legal plays (smallest first) and what 托管 plays."""
    with collector_paused():  # switched back on once the plays worked out are freed
        return _hint(ctx, payload)


def _hint(ctx: Context, payload: Mapping) -> dict:
    hand = read_cards(payload, "hand")
    check_hand_size(hand, ctx.spec.deal)
    lead = read_cards(payload, "lead", required=False)
    check_deck(ctx.deck, list(hand) + list(lead or ()), "hand+lead" if lead else "hand")
    if lead is not None:
        lead_units(ctx, lead)
        if len(lead) > len(hand):
            raise InvalidInput(t("手里只有{m}张牌，跟不了{n}张的首家", "the hand holds {m} cards, too few to "
                                 "follow a lead of {n}", m=len(hand), n=len(lead)), field="hand",
                               code="hand_too_small")
    limit = get_int(payload, "limit", 1, MAX_LIMIT, default=default_limit(lead is None))
    texts, truncated = legal_texts(ctx, hand, lead).take(limit)
    return {"plays": texts, "smallest": texts[0] if texts else None, "truncated": truncated}


def classify_cards(ctx: Context, cards: Sequence[Card]) -> dict:
    """``classify``: the reading of cards as one unit or a throw of one group."""
    gs = ctx.groups_of(cards)
    canon = ctx.fmt(cards)
    if len(gs) != 1:
        return {"cards": canon, "valid": False, "readings": [],
                "reason": t("牌分属{groups}：一次出牌只能来自同一花色组", "the cards mix {groups}: a play comes from "
                            "one suit group", groups=groups_text(ctx, gs))}
    g = gs[0]
    units = decompose(ctx, cards)
    gname = ctx.group_name(g)
    if len(units) == 1:
        u = units[0]
        reading = {"kind": u.kind, "label": shape_text(u.width, u.length), "group": gname,
                   "trump": g == TRUMP, "cards": ctx.fmt(u.cards), "length": u.length, "width": u.width}
        reason = t("{g}{kind}", "a {g} {kind}", g=gname, kind=shape_text(u.width, u.length))
    else:
        reading = {"kind": "throw", "label": KIND_TEXT["throw"], "group": gname, "trump": g == TRUMP,
                   "cards": canon, "units": [ctx.fmt(u.cards) for u in units],
                   "unit_kinds": [u.kind for u in units]}
        reason = t("{g}甩牌，共{n}手：{units}", "a {g} throw of {n} units: {units}", g=gname, n=len(units),
                   units=join([unit_text(ctx, u) for u in units], "、", ", "))
    return {"cards": canon, "valid": True, "readings": [reading], "reason": reason}
