"""The API actions of a trick game: classify, check, trick and hint (the API contract, docs/api.md)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..answers import READING, answer, field
from ..cards import Card
from ..errors import InvalidInput, PaijuError
from ..i18n import Text, join, t
from ..inputs import CardTextsField, Context as InputContext, Schema, Values, WholeNumberField
from ..plays import MAX_LIMIT, collector_paused, default_limit
from ..results import Classified, Result
from .follow import check_follow
from .hints import legal_texts
from .inputs import TrickCardsField, TrumpField, check_deck, check_hand_size, require_in_hand
from .order import TRUMP, Context, TrickSpec, points_of
from .throws import check_lead
from .units import KIND_TEXT, decompose, groups_text, lead_units, shape_text, unit_text
from .winner import winner


SEATS = 4  # a trick game is four players
TRUMP_FIELD = TrumpField("trump", t("主牌花色", "Trump suit"))
LEAD = TrickCardsField("lead", t("首家出的牌（你首出则留空）", "The lead (leave empty if you lead)"), required=False)
PLAY = TrickCardsField("play", t("你要出的牌", "Your play"))


def never(rules: Any) -> bool:
    """A field no form shows (the API reads it)."""
    return False


#: what each action reads first, in the order it reads (its first problem is the answer); ``form_order``: the
#: order a form shows them in. The rest (LATER_INPUTS) is read once the hand's size is checked.
TRICK_INPUTS = {
    "classify": Schema((TRUMP_FIELD, TrickCardsField("cards", t("牌", "the cards"))), first_problem_only=True),
    "check": Schema((TRUMP_FIELD, PLAY, LEAD,
                     TrickCardsField("hand", t("你的手牌（出牌前）", "Your hand (before playing)"), required=False,
                                     required_with="lead", rows=2)),
                    first_problem_only=True, form_order=("trump", "lead", "hand", "play", "others")),
    "trick": Schema((TRUMP_FIELD,
                     CardTextsField("plays", t("各家出的牌", "The plays"), fewest=2,
                                    item_labels=(t("首家", "Lead"), t("第二家", "Second play"),
                                                 t("第三家", "Third play"), t("第四家", "Fourth play")))),
                    first_problem_only=True),
    "hint": Schema((TRUMP_FIELD, TrickCardsField("hand", t("你的手牌", "Your hand"), rows=2)),
                   first_problem_only=True, form_order=("trump", "lead", "hand")),
}
LIMIT = WholeNumberField("limit", t("列出几种出法", "how many plays to list"), required=False, lo=1, hi=MAX_LIMIT,
                         shown_when=never)
LATER_INPUTS = {
    "check": Schema((CardTextsField("others", t("其他三家的手牌（可选，每行一家，用于判断甩牌）",
                                                "The other three hands (optional, one per line, to decide a throw)"),
                                    required=False, most=lambda ctx: ctx.seats - 1, blank_items=True,
                                    entry="card_lines"),), first_problem_only=True),
    "hint": Schema((LEAD,), first_problem_only=True),
}


DECLARED = {"classify": TRICK_INPUTS["classify"], "trick": TRICK_INPUTS["trick"],
            "check": TRICK_INPUTS["check"] + LATER_INPUTS["check"],
            "hint": TRICK_INPUTS["hint"] + LATER_INPUTS["hint"] + Schema((LIMIT,))}


#: what a reading of a trick game carries: its suit group and whether it is trump; one unit's length and width
#: (2 for a pair), or a throw's units and their kinds
TRICK_READING = READING + answer(field("group", "text"), field("trump", "boolean"),
                                 field("length", "integer", required=False), field("width", "integer", required=False),
                                 field("units", "texts", required=False), field("unit_kinds", "texts", required=False))
#: what each action answers (bidding's is declared with the bidding)
ANSWERS = {
    "classify": answer(field("cards", "text"), field("valid", "boolean"), field("readings", "readings"),
                       field("reason", "text")),
    "check": answer(field("legal", "boolean", nullable=True), field("reason", "text"), field("play", "text"),
                    field("forced", "text", nullable=True)),
    "trick": answer(field("winner", "integer"), field("points", "integer"), field("reason", "text"),
                    field("plays", "texts")),
    "hint": answer(field("plays", "texts"), field("smallest", "text", nullable=True), field("truncated", "boolean")),
}


@dataclass(frozen=True)
class Verdict(Result):
    """``check``: whether the play is legal (None: it cannot be told), why, the play as written, and what a failed
    throw must play instead (None otherwise)."""

    legal: bool | None
    reason: Text
    play: str
    forced: str | None


@dataclass(frozen=True)
class Trick(Result):
    """``trick``: who wins the trick (an index into the plays), its points, why, and the plays as written."""

    winner: int
    points: int
    reason: Text
    plays: list


@dataclass(frozen=True)
class Hint(Result):
    """``hint``: the smallest legal plays, smallest first (cut at the limit: ``truncated``), and the smallest."""

    plays: list
    smallest: str | None
    truncated: bool


def read_input(action: str, payload: Mapping) -> Values:
    return TRICK_INPUTS[action].read(payload, InputContext(seats=SEATS))


def read_later(action: str, payload: Mapping) -> Values:
    return LATER_INPUTS[action].read(payload, InputContext(seats=SEATS))


def trick_actions(spec_for: Callable[[object], TrickSpec]) -> dict:
    """classify / check / trick / hint for a trick game, each ``(payload, rules) -> Result``."""

    def run(action: str, answer: Callable[[Context, Values, Mapping], Result]):
        def act(payload: Mapping, rules) -> Result:
            values = read_input(action, payload)
            return answer(Context(spec_for(rules), values.trump), values, payload)
        return act

    return {"classify": run("classify", classify_input), "check": run("check", check_play),
            "trick": run("trick", judge_trick), "hint": run("hint", hint)}


def trick_input(action: str) -> Schema | None:
    """What a trick action reads, all its stages (None: bidding's, declared with the bidding)."""
    return DECLARED.get(action)


def classify_input(ctx: Context, values: Values, payload: Mapping) -> Classified:
    check_deck(ctx.deck, values.cards, "cards")
    return classify_cards(ctx, values.cards)


def check_play(ctx: Context, values: Values, payload: Mapping) -> Verdict:
    """``check``: is a lead (with the other hands, if given) or a follow legal, and why; ``forced``: what a
    failed throw must play instead (None otherwise)."""
    play, lead, given = values.play, values.lead, values.hand
    hand = given or play  # a lead alone: the play is the hand
    check_hand_size(hand, ctx.spec.deal, "hand" if given else "play")
    others = read_later("check", payload).others
    all_cards = list(hand) + list(lead or ()) + [c for o in (others or []) for c in o]
    check_deck(ctx.deck, all_cards, "hand+lead+others" if lead or others else "hand")
    require_in_hand(hand, play)
    forced = None
    if lead is None:
        legal, reason, forced = check_lead(ctx, hand, play, others)
    else:
        lead_units(ctx, lead)
        legal, reason = check_follow(ctx, lead, hand, play)
    return Verdict(legal, reason, ctx.fmt(play), ctx.fmt(forced.cards) if forced is not None else None)


def judge_trick(ctx: Context, values: Values, payload: Mapping) -> Trick:
    """``trick``: who wins the trick and the points in it."""
    plays = values.plays
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
    return Trick(index, points_of(c for p in plays for c in p), reason, [ctx.fmt(p) for p in plays])


def hint(ctx: Context, values: Values, payload: Mapping) -> Hint:
    """``hint``: the smallest ``limit`` legal plays (smallest first) and what 托管 plays."""
    with collector_paused():  # switched back on once the plays worked out are freed
        return _hint(ctx, values, payload)


def _hint(ctx: Context, values: Values, payload: Mapping) -> Hint:
    hand = values.hand
    check_hand_size(hand, ctx.spec.deal)
    lead = read_later("hint", payload).lead
    check_deck(ctx.deck, list(hand) + list(lead or ()), "hand+lead" if lead else "hand")
    if lead is not None:
        lead_units(ctx, lead)
        if len(lead) > len(hand):
            raise InvalidInput(t("手里只有{m}张牌，跟不了{n}张的首家", "the hand holds {m} cards, too few to "
                                 "follow a lead of {n}", m=len(hand), n=len(lead)), field="hand",
                               code="hand_too_small")
    limit = LIMIT.read_alone(payload, InputContext()) or default_limit(lead is None)
    texts, truncated = legal_texts(ctx, hand, lead).take(limit)
    return Hint(texts, texts[0] if texts else None, truncated)


def classify_cards(ctx: Context, cards: Sequence[Card]) -> Classified:
    """``classify``: the reading of cards as one unit or a throw of one group."""
    gs = ctx.groups_of(cards)
    canon = ctx.fmt(cards)
    if len(gs) != 1:
        return Classified(canon, False, [], t("牌分属{groups}：一次出牌只能来自同一花色组",
                                              "the cards mix {groups}: a play comes from one suit group",
                                              groups=groups_text(ctx, gs)))
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
    return Classified(canon, True, [reading], reason)
