"""南昌二七王 (``rules/erqiwang.md``): order, bidding, settlement, and the trick API."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from .cards import BIG, LITTLE, SUITS, Card, Deck, Suit, parse_cards
from .errors import InvalidInput, MalformedInput, PaijuError
from .games import Game, settlement
from .i18n import Text, join, seat_name, t
from .payload import as_int, get_bool, get_int, get_list
from .rules import Option, Preset, RuleSet
from .trick import (THROW_COMPARE, BidRules, GameOrder, Level, ThrowRule, TrickSpec, bidding_action, check_deck,
                    parse_trump, run_bidding, trick_actions)

SEATS = 4
TOTAL = 200
DECK = Deck(copies=2)

RULESET = RuleSet(
    options=(
        Option("base", 1, tuple(range(1, 101)), t("底分", "Base"),
               t("每一底的分数（种子规则为1）；冲关奖分也按底分计", "points per stake unit (1 in the seed); the 冲关 "
                 "bonus is paid in this unit too")),
        Option("sides", "partners", ("partners", "solo"), t("分组", "Sides"),
               t("partners：庄家与对家一组对另外两家（解读）；solo：庄家一人对三家",
                 "partners: the 庄家 and the partner opposite against the other two (reading); solo: the 庄家 "
                 "alone against three"), reading=True),
        THROW_COMPARE,
    ),
    presets=(
        Preset("seed", t("南昌二七王（种子规则）", "Nanchang (seed)"),
               help=t("按叫分定底，检分加底，大光小光，冲关奖分", "stake by bid, 检分 steps, 大光/小光, 冲关 bonus")),
    ),
)


def deck_for(rules) -> Deck:
    return DECK


# --------------------------------------------------------------------------
# Order
# --------------------------------------------------------------------------

PLAIN_RANKS = (14, 13, 12, 11, 10, 9, 8, 6, 5, 4, 3)


def levels(trump: Suit):
    others = tuple(s for s in SUITS if s != trump)
    top = [
        Level(t("大王", "big joker"), (BIG,)),
        Level(t("小王", "little joker"), (LITTLE,)),
        Level(t("主7", "主7: the 7 of trump"), (Card(7, trump),)),
        Level(t("副7（并列）", "副7: the other 7s (tied)"), tuple(Card(7, s) for s in others)),
        Level(t("主2", "主2: the 2 of trump"), (Card(2, trump),)),
        Level(t("副2（并列）", "副2: the other 2s (tied)"), tuple(Card(2, s) for s in others)),
    ]
    label = t("主花色{s}", "trump suit {s}", s=trump.symbol)
    top += [Level(label, (Card(r, trump),)) for r in PLAIN_RANKS]
    plain = {s: [Level(t("{s}（副牌）", "{s} (plain)", s=s.symbol), (Card(r, s),)) for r in PLAIN_RANKS]
             for s in others}
    return top, plain


def spec_for(rules) -> TrickSpec:
    return TrickSpec("erqiwang", DECK, levels, throw=ThrowRule.TRUMP_ONLY, follow_shape=True,
                     throw_compare=rules.throw_compare)


_ORDER = GameOrder(RULESET, spec_for)
context = _ORDER.context
order_for = _ORDER.order_for
sort_key = _ORDER.sort_key


# --------------------------------------------------------------------------
# Bidding: downward from 80
# --------------------------------------------------------------------------

FIRST_BID, LOWEST_BID = 80, 5


def bid_rules(rules=None) -> BidRules:
    """The first bidder must bid 80; each later bid at least 5 lower, down to 5 (which wins at once)."""

    def judge(bid: int, current: int | None, who: Text) -> Text | None:
        if current is None and bid != FIRST_BID:
            return t("{who}叫{v}：第一个叫分必须从{f}起叫", "{who} bid {v}: the first bid must be {f}",
                     who=who, v=bid, f=FIRST_BID)
        if current is not None and not LOWEST_BID <= bid <= current - 5:
            return t("{who}叫{v}：须比当前的{c}至少低5分（最低{m}）",
                     "{who} bid {v}: a bid must be at least 5 below the current {c} (lowest {m})",
                     who=who, v=bid, c=current, m=LOWEST_BID)
        return None

    def pass_complaint(current: int | None, who: Text) -> Text | None:
        if current is None:
            return t("{who}：第一个叫分的人不可以不叫，必须叫{f}", "{who}: the first bidder may not pass and must bid {f}",
                     who=who, f=FIRST_BID)
        return None

    return BidRules(judge, pass_complaint, LOWEST_BID)


def validate_bidding(bids: Sequence[Any], start: int, rules=None) -> dict:
    """Bids and passes in turn from ``start`` → 庄家 and bid, or the first illegal entry."""
    return run_bidding(bids, start, bid_rules(rules))


bidding = bidding_action(bid_rules)


# --------------------------------------------------------------------------
# Settlement
# --------------------------------------------------------------------------

def stake_units(bid: int) -> int:
    if bid >= 65:
        return 1
    if bid >= 45:
        return 2
    return 4


def xiaoguang_line(bid: int) -> int:
    """40 when bid ≥ 65, else half the bid rounded up to a multiple of 5."""
    if bid >= 65:
        return 40
    return (bid + 5) // 10 * 5


COUNT_FIELDS = (("jokers", 4), ("trump7_pairs", 1), ("off7_pairs", 3), ("trump2_pairs", 1), ("off2_pairs", 3))


def counts_from_cards(cards: Sequence[Card], trump: Suit) -> dict[str, int]:
    cnt = Counter(cards)
    others = [s for s in SUITS if s != trump]
    return {
        "jokers": cnt[BIG] + cnt[LITTLE],
        "trump7_pairs": 1 if cnt[Card(7, trump)] >= 2 else 0,
        "off7_pairs": sum(1 for s in others if cnt[Card(7, s)] >= 2),
        "trump2_pairs": 1 if cnt[Card(2, trump)] >= 2 else 0,
        "off2_pairs": sum(1 for s in others if cnt[Card(2, s)] >= 2),
    }


def chongguan_value(c: Mapping[str, int], surrender: bool = False) -> tuple[int, Text]:
    """The 冲关 chain value and its explanation."""
    j = c["jokers"]
    if j < 3:
        return 0, t("{j}个王，不足3个王，没有冲关", "{j} jokers: fewer than 3, no 冲关", j=j)
    value = 1 if j == 3 else 3
    parts = [t("{j}王 {v}", "{j} jokers {v}", j=j, v=value)]
    if surrender:
        return value, t("投降只算王的部分：{v}", "surrender counts only the jokers part: {v}", v=value)
    if c["trump7_pairs"]:
        value += 1
        parts.append(t("正7对 +1", "trump-7 pair +1"))
        if c["off7_pairs"]:
            value += c["off7_pairs"]
            parts.append(t("负7对 +{n}", "off-7 pairs +{n}", n=c["off7_pairs"]))
            if c["trump2_pairs"]:
                value += 1
                parts.append(t("正2对 +1", "trump-2 pair +1"))
                if c["off2_pairs"]:
                    value += c["off2_pairs"]
                    parts.append(t("负2对 +{n}", "off-2 pairs +{n}", n=c["off2_pairs"]))
    return value, t("{parts} = {v}", "{parts} = {v}", parts=join(parts, " + ", " + "), v=value)


def _read_chongguan(payload: Mapping) -> list[tuple[int, dict[str, int]]]:
    entries = get_list(payload, "chongguan", default=[])
    out = []
    seen = set()
    all_cards: list[Card] = []
    for i, e in enumerate(entries):
        f = f"chongguan[{i}]"
        if not isinstance(e, Mapping):
            raise MalformedInput(t("「{f}」应为对象", "“{f}” must be an object", f=f), field=f, code="not_an_object")
        if e.get("seat") is None:
            raise MalformedInput(t("缺少「{f}.seat」", "“{f}.seat” is missing", f=f), field=f"{f}.seat",
                                 code="missing_field")
        seat = as_int(e.get("seat"), f"{f}.seat", 0, SEATS - 1)
        if seat in seen:
            raise InvalidInput(t("{s}的冲关填了两次", "{s} has two 冲关 entries", s=seat_name(seat)), field=f,
                               code="duplicate_seat")
        seen.add(seat)
        declared = {}
        for name, hi in COUNT_FIELDS:
            if e.get(name) is not None:
                declared[name] = as_int(e.get(name), f"{f}.{name}", 0, hi)
        if e.get("cards") is not None:
            trump_raw = e.get("trump") if e.get("trump") is not None else payload.get("trump")
            try:
                trump = parse_trump(trump_raw, f"{f}.trump")
            except PaijuError as exc:
                exc.field = f"{f}.trump"
                raise
            try:
                cards = parse_cards(e.get("cards"), bare=False)
            except PaijuError as exc:
                exc.field = f"{f}.cards"
                raise
            check_deck(DECK, cards, f"{f}.cards")
            all_cards += cards
            counts = counts_from_cards(cards, trump)
            for name, v in declared.items():
                if v > counts[name]:
                    raise InvalidInput(t("{f}：声明了{name} = {v}，但这些牌里只有{h}", "{f}: declares {name} = {v} "
                                         "but the cards hold only {h}", f=f, name=name, v=v, h=counts[name]),
                                       field=f"{f}.{name}", code="not_in_cards")
            counts.update(declared)
        else:
            if not declared:
                raise MalformedInput(t("「{f}」应给出 cards（加 trump）或各项数目 jokers、trump7_pairs …",
                                       "“{f}” needs cards (and trump) or the counts jokers, trump7_pairs, …", f=f),
                                     field=f, code="missing_field")
            counts = {name: declared.get(name, 0) for name, _ in COUNT_FIELDS}
        out.append((seat, counts))
    check_deck(DECK, all_cards, "chongguan")
    for name, hi in COUNT_FIELDS:
        total = sum(c[name] for _, c in out)
        if total > hi:
            raise InvalidInput(t("各家冲关的{name}合计{n}，两副牌最多只有{hi}", "the 冲关 entries hold {n} {name} in all; "
                                 "two decks hold at most {hi}", name=name, n=total, hi=hi), field="chongguan",
                               code="too_many_copies")
    return out


def settle(payload: Mapping, rules) -> dict:
    declarer = get_int(payload, "declarer", 0, SEATS - 1)
    bid = get_int(payload, "bid", 5, 80)
    if bid % 5:
        raise InvalidInput(t("「bid」为{v}，应为5的倍数", "“bid” is {v}; it must be a multiple of 5", v=bid),
                           field="bid", code="not_multiple_of_5")
    surrender = get_bool(payload, "surrender", False)
    if surrender and payload.get("defender_points") is None:
        points = None
    else:
        points = get_int(payload, "defender_points", 0, TOTAL)
        if points % 5:
            raise InvalidInput(t("「defender_points」为{v}，应为5的倍数", "“defender_points” is {v}; it must be a "
                                 "multiple of 5", v=points), field="defender_points", code="not_multiple_of_5")
    cg = _read_chongguan(payload)
    base = rules.base
    solo = rules.sides == "solo"
    if solo:
        declarers = [declarer]
    else:
        declarers = [declarer, (declarer + 2) % SEATS]
    defenders = [s for s in range(SEATS) if s not in declarers]
    stake = stake_units(bid) * base
    steps = [t("叫分{bid}：底 = {u} × 底分{b} = {s}", "bid {bid}: stake = {u} × base {b} = {s}",
               bid=bid, u=stake_units(bid), b=base, s=stake)]
    if surrender:
        mult = 1
        defenders_win = True
        steps.append(t("庄家投降：每个闲家得一底 {s}（不检分）", "the 庄家 surrenders: each 闲家 receives one stake {s} "
                       "(no 检分)", s=stake))
    elif points >= bid:
        defenders_win = True
        step = 40 if bid >= 45 else 20
        extra = (points - bid) // step
        mult = 1 + extra
        steps.append(t("闲家得{p}分 ≥ 叫分{bid}，闲家赢；检分：每超{st}分加一底，超出{o}分 → {m}倍底",
                       "the 闲家 have {p} ≥ the bid {bid}: the 闲家 win; 检分: one more stake per {st} over, "
                       "{o} over → stake × {m}", p=points, bid=bid, st=step, o=points - bid, m=mult))
    else:
        defenders_win = False
        line = xiaoguang_line(bid)
        if points == 0:
            mult = 4
            steps.append(t("闲家0分：大光，×4", "the 闲家 have 0: 大光, ×4"))
        elif points < line:
            mult = 2
            steps.append(t("闲家{p}分 < 小光线{l}：小光，×2", "the 闲家 have {p} < the 小光 line {l}: 小光, ×2",
                           p=points, l=line))
        else:
            mult = 1
            steps.append(t("闲家{p}分 < 叫分{bid}，庄家赢（到了小光线{l}，保小光）",
                           "the 闲家 have {p} < the bid {bid}: the 庄家 wins (the 小光 line {l} is reached)",
                           p=points, bid=bid, l=line))
    each = stake * mult
    deltas = [0] * SEATS
    sign = 1 if defenders_win else -1
    for s in defenders:
        deltas[s] += sign * each
    if solo:
        deltas[declarer] -= sign * each * len(defenders)
    else:
        for s in declarers:
            deltas[s] -= sign * each
    if solo:
        steps.append(t("每个闲家 {e:+d}，庄家 {d:+d}", "each 闲家 {e:+d}, the 庄家 {d:+d}",
                       e=sign * each, d=-sign * each * 3))
    else:
        steps.append(t("闲家每人 {e:+d}，庄家和对家每人 {d:+d}", "each 闲家 {e:+d}, the 庄家 and partner {d:+d} each",
                       e=sign * each, d=-sign * each))
    values = []
    for seat, counts in cg:
        value, why = chongguan_value(counts, surrender)
        values.append({"seat": seat, "value": value})
        if not value:
            steps.append(t("{s}冲关：{why}", "{s} 冲关: {why}", s=seat_name(seat), why=why))
            continue
        if solo:
            payers = [s for s in range(SEATS) if s != seat]
        else:
            mine = declarers if seat in declarers else defenders
            payers = [s for s in range(SEATS) if s not in mine]
        amount = value * base
        for p in payers:
            deltas[p] -= amount
        deltas[seat] += amount * len(payers)
        steps.append(t("{s}冲关：{why}；{payers}各付 {a}（× 底分{b}，不乘底和光）",
                       "{s} 冲关: {why}; {payers} pay {a} each (× base {b}, never × stake or 光)",
                       s=seat_name(seat), why=why, payers=join([seat_name(p) for p in payers], "、", ", "),
                       a=amount, b=base))
    steps.append(t("合计：{d}", "total: {d}", d=", ".join(f"{x:+d}" for x in deltas)))
    return settlement(deltas, steps, stake=stake, multiplier=mult,
                      winner="defenders" if defenders_win else "declarer", chongguan=values)


SUMMARY = t("南昌二七王：王、7、2为常主，叫分从80往下叫；算分（检分、大光小光、冲关）、判牌、提示。",
            "Nanchang Erqiwang: jokers, 7s and 2s are permanent trumps, bids go down from 80; settle (检分, "
            "大光/小光, 冲关), check plays, hints.")

ACTIONS = {**trick_actions(spec_for), "settle": settle, "bidding": bidding}

GAME = Game("erqiwang", "trick", RULESET, ACTIONS, SUMMARY, deck_for=deck_for)
