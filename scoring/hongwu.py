"""红五 三打一 (``docs/rules/hongwu.md``): order, bidding, settlement, and the trick API."""
from __future__ import annotations

from typing import Any, Sequence

from .answers import answer, field
from .cards import BIG, LITTLE, SUITS, Card, Deck, Suit
from .errors import InputErrors, InvalidInput, PaijuError
from .games import declarer_sides, settlement
from .results import Settlement
from .i18n import Text, seat_name, signed, t
from .inputs import IntField, RowsField, Schema, SeatField, SwitchField
from .live import DECLARER, DEFENDERS, LastTrick, LiveCounter
from .rules import Choice, Option, Preset, RuleSet, switch
from .trick import (THROW_COMPARE, Bidding, BidRules, FailedThrow, GameOrder, Level, ThrowRule, TrickSpec, run_bidding)
from .trick.game import TrickGame
from .trick.live import TrickFollow

SEATS = 4
HEART5 = Card(5, Suit.HEARTS)
RED_FIVE_SWING = 20  # card points per captured red five

class Bottom(Choice):
    LAST_TRICK = "last_trick"  # the declarer (庄家) scores the bottom only by winning the last trick
    ALWAYS = "always"


class Payout(Choice):
    """The presets: how the final card points are paid."""
    SEED = "seed"            # six tiers: ±3b, ±6b, ±9b
    TIERS_321 = "tiers_321"  # 同城游 1-2-3


RULESET = RuleSet(
    options=(
        Option("decks", 2, (2, 3), t("几副牌", "Decks"),
               t("两副牌（108张，每人25张，底牌8张）或三副牌（162张，每人39张，底牌6张）",
                 "two decks (108 cards, 25 each, 8 in the bottom) or three (162, 39 each, 6 in the bottom)")),
        Option("base", 2, tuple(range(1, 101)), t("基础分", "Base"),
               t("游戏积分表以基础分为单位（原文为2分）", "the game-point table is in units of the base "
                 "(2 in the source)")),
        Option("bottom", Bottom.LAST_TRICK, tuple(Bottom), t("底牌分", "Bottom points"),
               t("「赢最后一墩才得」：庄家赢了最后一墩才得底牌分（解读）；「庄家总是得」：庄家总是得底牌分",
                 "“only by winning the last trick”: the declarer (庄家) scores the bottom only by winning the last trick (reading); "
                 "“always the declarer's (庄家)”: the declarer (庄家) always scores it"), reading=True,
               value_labels={Bottom.LAST_TRICK: t("赢最后一墩才得", "only by winning the last trick"),
                             Bottom.ALWAYS: t("庄家总是得", "always the declarer's (庄家)")}),
        Option("red_five_points", 2, tuple(range(0, 101)), t("红五被抓罚分", "Captured red five"),
               t("每张被抓的红五，被抓方付给抓方的游戏积分（与基础分无关）",
                 "game points the owner's side pays the capturer per captured red five (independent of the base)")),
        THROW_COMPARE,
        Option("failed_throw", FailedThrow.default().value, tuple(f.value for f in FailedThrow),
               t("甩牌失败改出哪一手", "A failed throw plays"),
               t("「被管上的最小一手」：被管上的那几手里最小的一手（最大的牌最小，再看张数少）；「先单牌、再对子、再拖拉机（同城游）」：同城游的规则"
                 "“甩牌失败:按照单牌、对子、拖拉机的顺序选其较小的出”：有单牌出最小的单牌，"
                 "没有就出最小的对子（三副牌为三张），再没有就出最小的拖拉机，不管哪一手被管上",
                 "“the smallest beaten unit”: the smallest of the units that can be beaten (lowest top card, then fewest cards); "
                 "“singles, then pairs, then tractors (同城游)”: as 同城游 plays it, "
                 "the throw's lowest single if it has one, else its lowest pair "
                 "(triple with 3 decks), else its lowest tractor, whichever unit was beaten"),
               value_labels={FailedThrow.BEATEN.value: t("被管上的最小一手", "the smallest beaten unit"),
                             FailedThrow.SINGLE_FIRST.value: t("先单牌、再对子、再拖拉机（同城游）",
                                                               "singles, then pairs, then tractors (同城游)")}),
        switch("follow_shape", t("跟牌须跟牌型", "Follow the lead's shape"),
               t("对子跟对子、拖拉机跟拖拉机（解读：升级类游戏的通例，默认开启）",
                 "pairs must follow pairs and tractors tractors (reading: as in every 升级 relative; on by default)"),
               default=True, reading=True),
    ),
    presets=(
        Preset(Payout.SEED, t("游戏e家", "游戏e家 (platform)"),
               help=t("游戏e家平台的规则：按最终牌分分六档：±3b、±6b、±9b",
                      "the 游戏e家 platform’s rules: six tiers of the final card points: ±3b, ±6b, ±9b")),
        Preset(Payout.TIERS_321, t("同城游 1-2-3 倍", "同城游 1-2-3 tiers"),
               help=t("庄家够分即赢，闲家每家付1b，半空2b，全空3b；反之庄家不足一半付2b，0分付3b",
                      "the declarer (庄家) wins on reaching the bid: each defender (闲家) pays 1b, 2b at 半空, 3b at 全空; otherwise "
                      "each 闲家 receives 1b, 2b when the declarer (庄家) has under half the bid, 3b at 0")),
    ),
)


def deck_for(rules) -> Deck:
    return Deck(copies=rules.decks)


def total_points(rules) -> int:
    return 100 * rules.decks


def deal_size(rules) -> int:
    """The cards each player is dealt: 25 with two decks, 39 with three."""
    return 25 if rules.decks == 2 else 39


def bid_range(rules) -> tuple[int, int]:
    """2 decks: 60…200 (seed); 3 decks: 90…300 *(reading)*."""
    return (60, 200) if rules.decks == 2 else (90, 300)


def bid_chips(rules) -> tuple[int, ...]:
    """The bid's chips: every 10 from the lowest bid, then every 20, up to the highest (200, or 300)."""
    lo, hi = bid_range(rules)
    tens = tuple(range(lo, lo + 100, 10))
    twenties = tuple(range(-(-(lo + 100) // 20) * 20, hi + 1, 20))
    return tens + twenties + (() if twenties[-1:] == (hi,) else (hi,))


def bottom_cap(rules) -> int:
    return 80 if rules.decks == 2 else 60


#: the bottom's points offered as chips: every 5 to 30, then 40, 60 and 80, up to what the bottom can hold (ten
#: chips are two rows at 360 px: the hand still fits one screen; 50 and 70 are the stepper's)
BOTTOM_CHIPS = (0, 5, 10, 15, 20, 25, 30, 40, 60, 80)


def bottom_chips(rules) -> tuple[int, ...]:
    """The 底牌分 chips up to the most the bottom holds under ``rules`` (80 with 2 decks, 60 with 3)."""
    return tuple(c for c in BOTTOM_CHIPS if c <= bottom_cap(rules))


# --------------------------------------------------------------------------
# Order
# --------------------------------------------------------------------------

PLAIN_RANKS = (14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3)


def levels(trump: Suit):
    partner = trump.same_colour_partner
    top = [
        Level(t("红五（♥5）", "red five (♥5)"), (HEART5,), False),
        Level(t("大王（正司令）", "big joker (正司令)"), (BIG,), False),
        Level(t("小王（副司令）", "little joker (副司令)"), (LITTLE,), False),
        Level(t("正参谋（主花色的3）", "正参谋: the 3 of trump"), (Card(3, trump),), False),
        Level(t("副参谋（与主同色的另一门的3）", "副参谋: the 3 of the other suit of trump's colour"),
              (Card(3, partner),), False),
        Level(t("主2", "主2: the 2 of trump"), (Card(2, trump),), False),
        Level(t("副2（并列）", "副2: the other 2s (tied)"), tuple(Card(2, s) for s in SUITS if s != trump), False),
    ]
    label = t("主花色{s}", "trump suit {s}", s=trump.symbol)
    for r in PLAIN_RANKS:
        c = Card(r, trump)
        if r == 3 or c == HEART5:
            continue
        top.append(Level(label, (c,), True))
    plain = {}
    for s in SUITS:
        if s == trump:
            continue
        lv = []
        for r in PLAIN_RANKS:
            c = Card(r, s)
            if c == HEART5 or (r == 3 and s == partner):
                continue
            lv.append(Level(t("{s}（副牌）", "{s} (plain)", s=s.symbol), (c,), True))
        plain[s] = lv
    return top, plain


def spec_for(rules) -> TrickSpec:
    return TrickSpec("hongwu", deck_for(rules), levels, throw=ThrowRule.ANY_GROUP, follow_shape=rules.follow_shape,
                     throw_compare=rules.throw_compare, failed_throw=rules.failed_throw, deal=deal_size(rules))


_ORDER = GameOrder(RULESET, spec_for)
context = _ORDER.context
order_for = _ORDER.order_for
sort_key = _ORDER.sort_key


# --------------------------------------------------------------------------
# Bidding
# --------------------------------------------------------------------------

def bid_rules(rules) -> BidRules:
    """Up from 60 (90 with 3 decks), 5 to 15 above the current bid; the first bid at most 15 above the floor
    *(reading)*; the top bid wins at once; nobody bids → the first bidder at the floor."""
    lo, hi = bid_range(rules)

    def judge(bid: int, current: int | None, who: Text) -> Text | None:
        if current is None:
            if not lo <= bid <= lo + 15:
                return t("{who}叫{v}：第一个叫分须在{lo}到{top}之间（最低{lo}，至多高15分）",
                         "{who} bid {v}: the first bid must be from {lo} to {top} (lowest {lo}, at most 15 above it)",
                         who=who, v=bid, lo=lo, top=lo + 15)
        elif not current + 5 <= bid <= min(hi, current + 15):
            return t("{who}叫{v}：须比当前的{h}高5到15分（且不超过{hi}）",
                     "{who} bid {v}: a bid must be 5 to 15 above the current {h} (and at most {hi})",
                     who=who, v=bid, h=current, hi=hi)
        return None

    return BidRules(judge, lambda current, who: None, hi, (lo, t("最低分", "the lowest bid")))


def validate_bidding(bids: Sequence[Any], start: int, rules) -> Bidding:
    """Bids and passes in turn from ``start`` → 庄家 and bid, or the first illegal entry."""
    return run_bidding(bids, start, bid_rules(rules))




# --------------------------------------------------------------------------
# Settlement
# --------------------------------------------------------------------------

def seed_tier(final: int) -> tuple[int, Text]:
    """The 庄家's multiple of b (each 闲家 pays a third of it)."""
    if final <= -70:
        return -9, t("≤ −70", "≤ −70")
    if final <= -30:
        return -6, t("−70 < f ≤ −30", "−70 < f ≤ −30")
    if final <= 0:
        return -3, t("−30 < f ≤ 0（恰好0分也算输）", "−30 < f ≤ 0 (exactly 0 loses)")
    if final <= 30:
        return 3, t("0 < f ≤ 30", "0 < f ≤ 30")
    if final <= 70:
        return 6, t("30 < f ≤ 70", "30 < f ≤ 70")
    return 9, t("> 70", "> 70")


SETTLE_INPUT = Schema((
    SeatField("declarer", t("庄家", "the declarer (庄家)")),
    IntField("bid", t("叫分", "the bid"), lo=lambda ctx: bid_range(ctx.rules)[0],
             hi=lambda ctx: bid_range(ctx.rules)[1], step=5, entry="stepper",
             chips=lambda ctx: bid_chips(ctx.rules)),
    IntField("declarer_points", t("庄家抓分", "the declarer's (庄家) points"), lo=0,
             hi=lambda ctx: total_points(ctx.rules), step=5, entry="stepper",
             chips=lambda ctx: tuple(range(0, total_points(ctx.rules) + 1, 20))),
    IntField("bottom_points", t("底牌分", "the bottom points"), required=False, default=0, lo=0,
             hi=lambda ctx: bottom_cap(ctx.rules), step=5, entry="stepper",
             chips=lambda ctx: bottom_chips(ctx.rules)),
    SwitchField("declarer_took_bottom", t("庄家赢了最后一墩", "the declarer (庄家) won the last trick")),
    RowsField("red_fives", t("被抓的红五", "captured red fives"), row_label=t("红五{n}", "red five {n}"),
              max_rows=lambda ctx: ctx.rules.decks, entry="on_request",
              fields=(SeatField("owner", t("主人", "owner")), SeatField("captured_by", t("被谁抓", "capturer")))),
))


def _check_points(values, rules) -> list[PaijuError]:
    total = total_points(rules)
    problems = []
    if values.declarer_points + values.bottom_points > total:
        problems.append(InvalidInput(t("赢得的牌分{w}加底牌分{b}超过了全副牌的{total}分", "points won {w} plus bottom "
                                       "points {b} exceed the {total} points in the pack", w=values.declarer_points,
                                       b=values.bottom_points, total=total), field="bottom_points",
                                     code="too_many_points"))
    for i, f in enumerate(values.red_fives):
        if (f.owner == values.declarer) == (f.captured_by == values.declarer):
            problems.append(InvalidInput(t("红五{n}：主人{o}和抓到它的{c}是同一方，红五只能被对方抓",
                                           "red five {n}: the owner {o} and the capturer {c} are on the same side; "
                                           "a red five is captured only by the other side", n=i + 1,
                                           o=seat_name(f.owner), c=seat_name(f.captured_by)),
                                         field=f"red_fives[{i}]", code="same_side"))
    return problems


def _bottom_step(values, scored: bool) -> Text | None:
    bottom, took = values.bottom_points, values.declarer_took_bottom
    if scored:
        why = t("庄家赢了最后一墩" if took else "规则：总是计底", "the declarer (庄家) won the last trick" if took
                else "house rule: bottom always scored")
        return t("底牌分{b}计给庄家（{why}）", "bottom points {b} go to the declarer (庄家) ({why})", b=bottom, why=why)
    if bottom:
        return t("底牌分{b}不计（闲家赢了最后一墩）", "bottom points {b} not scored (the defenders (闲家) took the last trick)", b=bottom)
    return None


def _card_points(values, rules, steps: list) -> tuple[int, int]:
    """The 庄家's card points (with the bottom when scored and the red-five swing) and the card points won."""
    scored = rules.bottom is Bottom.ALWAYS or values.declarer_took_bottom
    bottom_scored = values.bottom_points if scored else 0
    lost5 = sum(1 for f in values.red_fives if f.owner == values.declarer)
    got5 = len(values.red_fives) - lost5
    swing = RED_FIVE_SWING * (got5 - lost5)
    points = values.declarer_points + bottom_scored + swing
    step = _bottom_step(values, scored)
    if step is not None:
        steps.append(step)
    if values.red_fives:
        steps.append(t("红五：庄家抓到{g}张（+{gp}），被抓{l}张（−{lp}）", "red fives: the declarer (庄家) captured {g} (+{gp}), "
                       "lost {l} (−{lp})", g=got5, gp=RED_FIVE_SWING * got5, l=lost5, lp=RED_FIVE_SWING * lost5))
    steps.append(t("庄家最终牌分 = {won} + {bot} − {bid} {sign} {sw} = {final}",
                   "the declarer's (庄家) final card points = {won} + {bot} − {bid} {sign} {sw} = {final}",
                   won=values.declarer_points, bot=bottom_scored, bid=values.bid, sign="+" if swing >= 0 else "−",
                   sw=abs(swing), final=signed(points - values.bid, plus=False)))
    return points, values.declarer_points + bottom_scored


def _pay_tiers(deltas: list[int], declarer: int, points: int, raw: int, bid: int, rules, steps: list) -> bool:
    """Pay the tier; returns whether the declarer (庄家) made it (was paid)."""
    b, defenders = rules.base, [s for s in range(SEATS) if s != declarer]
    if rules.preset is Payout.TIERS_321:
        mult, tier = _tiers_321(points, bid, raw, total_points(rules))
        steps.append(t("同城游档位：牌分{p}对叫分{bid}，{tier}", "同城游 tiers: points {p} against the bid {bid}: {tier}",
                       p=points, bid=bid, tier=tier))
        each, gain = mult * b, 3 * mult * b
        steps_text = t("每个闲家 {e}（{m} × 基础分{b}），庄家 {d}",
                       "each defender (闲家) {e} ({m} × base {b}), the declarer (庄家) {d}", e=signed(-each), m=signed(-mult),
                       b=b, d=signed(gain))
    else:
        mult, tier = seed_tier(points - bid)
        each, gain = mult * b // 3, mult * b
        steps_text = t("档位 {tier}：庄家 {m}b = {d}，每个闲家 {e}（b = {b}）",
                       "tier {tier}: the declarer (庄家) {m}b = {d}, each defender (闲家) {e} (b = {b})",
                       tier=tier, m=signed(mult), d=signed(gain), e=signed(-each), b=b)
    for s in defenders:
        deltas[s] -= each
    deltas[declarer] += gain
    steps.append(steps_text)
    return mult > 0


def _pay_red_fives(deltas: list[int], values, rules, steps: list) -> None:
    for f in values.red_fives:
        payer, payee = (values.declarer, f.captured_by) if f.owner == values.declarer else (f.owner, values.declarer)
        deltas[payer] -= rules.red_five_points
        deltas[payee] += rules.red_five_points
        steps.append(t("{o}的红五被{c}抓：{p}付{n}分给{q}", "{o}'s red five captured by {c}: {p} pays {n} to {q}",
                       o=seat_name(f.owner), c=seat_name(f.captured_by), p=seat_name(payer), q=seat_name(payee),
                       n=rules.red_five_points))


def settle(values, rules) -> Settlement:
    problems = _check_points(values, rules)
    if problems:
        raise InputErrors(problems)
    steps: list[Text] = []
    points, raw = _card_points(values, rules, steps)
    deltas = [0] * SEATS
    made = _pay_tiers(deltas, values.declarer, points, raw, values.bid, rules, steps)
    _pay_red_fives(deltas, values, rules, steps)
    steps.append(t("合计：{d}", "total: {d}", d=", ".join(signed(x) for x in deltas)))
    return settlement(deltas, steps, final=points - values.bid, points=points, made=made)


def _tiers_321(points: int, bid: int, raw: int, total: int) -> tuple[int, Text]:
    """Each 闲家's payment in units of b (negative: the defenders (闲家) receive).

    ``points`` (with red fives) decides the bid and the half lines; 全空 and "won 0" look at the card
    points actually won (``raw`` = tricks + bottom if scored) *(reading of "won all 200" / "won 0")*.
    """
    if points >= bid:
        if raw >= total:
            return 3, t("庄家全空（得满{t}分），闲家每家付3b", "全空 (the declarer (庄家) has all {t}): each defender (闲家) pays 3b", t=total)
        if 2 * points >= total + bid:
            return 2, t("庄家半空（≥ {h}），闲家每家付2b", "半空 (≥ {h}): each defender (闲家) pays 2b",
                        h=_half(total, bid))
        return 1, t("庄家够分，闲家每家付1b", "the declarer (庄家) made the bid: each defender (闲家) pays 1b")
    if raw <= 0:
        return -3, t("庄家0分，闲家每家得3b", "the declarer (庄家) has 0: each defender (闲家) receives 3b")
    if 2 * points < bid:
        return -2, t("庄家不足叫分一半，闲家每家得2b", "the declarer (庄家) has less than half the bid: each defender (闲家) receives 2b")
    return -1, t("庄家不够分，闲家每家得1b", "the declarer (庄家) missed the bid: each defender (闲家) receives 1b")


def _half(total: int, bid: int) -> str:
    v = (total + bid) / 2
    return str(int(v)) if v == int(v) else str(v)


SUMMARY = t("红五三打一：一个庄家对三个闲家，红五最大，永远打2；算分、判牌、提示。",
            "Red Five, the declarer (庄家) against three: ♥5 is the top trump, 2s always trump; settle hands, check plays, hints.")

def last_tricks(rules) -> tuple[LastTrick, ...]:
    """The bottom is the declarer's (庄家) when the declarer (庄家) wins the last trick, or always when the rules say so."""
    return (LastTrick(DECLARER, t("庄家赢了最后一墩", "the declarer (庄家) won the last trick"), DECLARER, 1,
                      {"declarer_took_bottom": True}),
            LastTrick(DEFENDERS, t("闲家赢了最后一墩", "the defenders (闲家) won the last trick"), DEFENDERS,
                      1 if rules.bottom is Bottom.ALWAYS else 0, {"declarer_took_bottom": False}))


#: what a hand followed trick by trick fills (the live page): the declarer (庄家) alone; a red five is captured by the side
#: that wins its trick
LIVE_COUNTER = LiveCounter(
    "declarer_points", DECLARER, total_points, lambda rules: None, lambda rules: "bottom_points", DECLARER,
    bottom_cap, last_tricks, red_fives="red_fives", red_five_max=lambda rules: rules.decks,
    red_five_swing=RED_FIVE_SWING)


#: worked examples for the rules page and the API document; each is a binding example of the rules
EXAMPLES = (
    ("settle", t("叫100，得120，底牌15归庄家 → 35", "bid 100, won 120, bottom 15 scored → 35"),
     {"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15,
      "declarer_took_bottom": True, "red_fives": []}),
    ("settle", t("2号位坐庄，叫80，庄家的红五被4号位抓 → 0（0分算输）",
                 "seat 2 declares, bid 80, the declarer's (庄家) red five captured by seat 4 → 0 (0 loses)"),
     {"declarer": 1, "bid": 80, "declarer_points": 90, "bottom_points": 10,
      "declarer_took_bottom": True, "red_fives": [{"owner": 1, "captured_by": 3}]}),
    ("settle", t("庄家抓到3号位的红五 → 5", "the declarer (庄家) captures seat 3's red five → 5"),
     {"declarer": 0, "bid": 100, "declarer_points": 75, "bottom_points": 10,
      "declarer_took_bottom": True, "red_fives": [{"owner": 2, "captured_by": 0}]}),
    ("trick", t("红桃做主：红五最大", "hearts trump: the red five is highest"),
     {"trump": "♥", "plays": ["大王", "♥5", "小王", "♠2"]}),
    ("trick", t("黑桃做主：毙牌要同牌型", "spades trump: a ruff must match the shape"),
     {"trump": "♠", "plays": ["♣K ♣K", "♠4 ♠6"]}),
    ("check", t("有对子必须跟对", "holding a pair, you must follow with it"),
     {"trump": "♠", "lead": "♣K ♣K", "play": "♣9 ♣4", "hand": "♣9 ♣9 ♣4 ♥A"}),
)
#: the settle answer beyond its deltas and steps: the declarer's final points are read under the deltas
SETTLE_ANSWER = answer(field("final", "integer", line=t("庄家最终牌分（减去叫分） {v}",
                                                       "the declarer's (庄家) final points (after the bid) {v}")),
                       field("points", "integer"), field("made", "boolean"))


class Hongwu(TrickGame):
    slug, name, summary = "hongwu", t("红五 三打一", "Hongwu (Red Five, three against one)"), SUMMARY
    examples, settle_answer = EXAMPLES, SETTLE_ANSWER
    ruleset, settle_input = RULESET, SETTLE_INPUT
    deck_of, order_of, settle_of = staticmethod(deck_for), staticmethod(order_for), staticmethod(settle)
    spec_of, bid_rules_of = staticmethod(spec_for), staticmethod(bid_rules)
    #: the hand followed trick by trick on the live page (scoring/trick/live.py), settled by this game
    live_hand = TrickFollow(LIVE_COUNTER, SETTLE_INPUT, SEATS, settle=lambda payload, rules: GAME.settle_payload(payload, rules))

    def sides(self, data, rules, seats):
        return declarer_sides(data, seats)  # 三打一: the 庄家 alone against three


GAME = Hongwu()
