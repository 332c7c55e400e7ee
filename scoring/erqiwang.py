"""南昌二七王 (``docs/rules/erqiwang.md``): order, bidding, settlement, and the trick API."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .answers import MULTIPLIER, answer, field
from .cards import BIG, LITTLE, SUITS, Card, Deck, Suit
from .errors import InputErrors, InvalidInput, MalformedInput, PaijuError
from .games import declarer_sides, settlement
from .results import Settlement
from .i18n import Text, join, seat_name, signed, t
from .inputs import CardsField, ChoiceField, IntField, Problems, RowsField, Schema, SeatField, SwitchField
from .live import DEFENDERS, LastTrick, LiveCounter
from .rules import Choice, Option, Preset, RuleSet
from .trick import (THROW_COMPARE, Bidding, BidRules, GameOrder, Level, ThrowRule, TrickSpec, check_deck, parse_trump,
                    run_bidding)
from .trick.game import TrickGame
from .trick.inputs import trump_pattern
from .trick.live import TrickFollow

SEATS = 4
DEAL = 25  # cards per player (the declarer (庄家) buries the 8 bottom cards before the first trick)
TOTAL = 200
DECK = Deck(copies=2)

class Sides(Choice):
    PARTNERS = "partners"  # the declarer (庄家) with the partner opposite
    SOLO = "solo"          # the declarer (庄家) alone against three


class BottomBonus(Choice):
    OFF = "off"
    ON = "on"  # 抠底: the bottom, multiplied by the last trick, to the defenders (闲家)


RULESET = RuleSet(
    options=(
        Option("base", 1, tuple(range(1, 101)), t("底分", "Base"),
               t("每一底的分数（原文为1）；冲关奖分也按底分计", "points per stake unit (1 in the source); the 冲关 "
                 "bonus is paid in this unit too")),
        Option("sides", Sides.PARTNERS, tuple(Sides), t("分组", "Sides"),
               t("「庄家与对家一组」：庄家与对家一组对另外两家（解读）；「庄家一人对三家」",
                 "“the declarer (庄家) with the partner opposite”: the declarer (庄家) and the partner opposite against the other two (reading); “the declarer (庄家) alone against three”: the declarer (庄家) "
                 "alone against three"), reading=True,
               value_labels={Sides.PARTNERS: t("庄家与对家一组", "the declarer (庄家) with the partner opposite"),
                             Sides.SOLO: t("庄家一人对三家", "the declarer (庄家) alone against three")}),
        THROW_COMPARE,
        Option("bottom_bonus", BottomBonus.OFF, tuple(BottomBonus), t("抠底（底牌分算给闲家）", "抠底 (the bottom to the defenders (闲家))"),
               t("「抠底：底牌分按最后一墩翻倍给闲家」：闲家用主牌赢最后一墩时，庄家埋的底牌分算给闲家：单张（或甩牌）赢 ×1，对子或拖拉机赢 ×2，"
                 "副牌赢不算；要填底牌分和最后一墩（飙分这种由二七王变来的打法这样算）。「不抠底」：闲家抓分就是全部，底牌分不算",
                 "“抠底: the bottom, multiplied by the last trick, to the defenders (闲家)”: when the defenders (闲家) win the last trick with trumps, the points the declarer (庄家) buried in the bottom go to "
                 "the defenders (闲家): ×1 for a single (or a throw), ×2 for a pair or a tractor, nothing for a plain-suit win; "
                 "give the bottom points and the last trick (as 飙分, a game grown from 二七王, counts it). “no 抠底”: the defenders' "
                 "(闲家) points are all they count, the bottom counts for nobody"),
               value_labels={BottomBonus.OFF: t("不抠底", "no 抠底"), BottomBonus.ON: t("抠底：底牌分按最后一墩翻倍给闲家",
                                                                  "抠底: the bottom, multiplied by the last trick, "
                                                                  "to the defenders (闲家)")}),
    ),
    presets=(
        Preset("seed", t("南昌二七王（棋牌桌游规则页）", "Nanchang 二七王 (board-game rules page)"),
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
                     throw_compare=rules.throw_compare, deal=DEAL)


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


def validate_bidding(bids: Sequence[Any], start: int, rules=None) -> Bidding:
    """Bids and passes in turn from ``start`` → 庄家 and bid, or the first illegal entry."""
    return run_bidding(bids, start, bid_rules(rules))




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


COUNT_LABELS = {"jokers": t("王", "jokers"), "trump7_pairs": t("正7对", "trump-7 pairs"),
                "off7_pairs": t("负7对", "off-7 pairs"), "trump2_pairs": t("正2对", "trump-2 pairs"),
                "off2_pairs": t("负2对", "off-2 pairs")}
TRUMP_CHOICES = tuple((s.symbol, s.text) for s in SUITS)

@dataclass(frozen=True)
class NamedChoice(ChoiceField):
    """A choice given by name: text naming no choice is a 422 (well formed, against the rules of the input);
    anything but text stays a 400. In words a choice is its label."""

    def read(self, raw, ctx, path, label, problems):
        mine = Problems()
        value = super().read(raw, ctx, path, label, mine)
        for problem in mine.items:
            problems.add(InvalidInput(problem.message, field=problem.field, code=problem.code)
                         if isinstance(raw, str) else problem)
        return value

    def value_words(self, value, ctx):
        return dict(self.choices).get(value, str(value))


BOTTOM_CARDS_POINTS = 80  # the most points 8 buried cards can hold
#: the defenders' (闲家) winning play on the last trick → how many times the bottom's points they score
LAST_TRICK_TIMES = {"none": 0, "single": 1, "throw": 1, "pair": 2, "tractor": 2}
LAST_TRICK_CHOICES = (
    ("none", t("庄家方赢了，或闲家用副牌赢", "the declarer's (庄家) side won it, or the defenders (闲家) with a plain suit")),
    ("single", t("闲家用主牌单张赢（×1）", "the defenders (闲家) with a trump single (×1)")),
    ("throw", t("闲家用主牌甩牌赢（×1）", "the defenders (闲家) with a trump throw (×1)")),
    ("pair", t("闲家用主牌对子赢（×2）", "the defenders (闲家) with a trump pair (×2)")),
    ("tractor", t("闲家用主牌拖拉机赢（×2）", "the defenders (闲家) with a trump tractor (×2)")),
)


def bottom_bonus_on(rules) -> bool:
    return rules.bottom_bonus is BottomBonus.ON


def row_trump_enough(rules) -> bool:
    """The hand's trump suit matters only to a 冲关 given by its cards, and a 冲关 row asks its own beside its
    cards: a form never asks it for the whole hand (the API still reads it, for every row without one)."""
    return False


SETTLE_INPUT = Schema((
    SeatField("declarer", t("庄家", "the declarer (庄家)")),
    IntField("bid", t("叫分", "the bid"), lo=5, hi=80, step=5, entry="stepper", chips=(80, 75, 70, 65, 60, 55, 50, 45, 40)),
    IntField("defender_points", t("闲家抓分", "the defenders' (闲家) points"), required=False, lo=0, hi=TOTAL, step=5,
             entry="stepper", chips=tuple(range(0, TOTAL + 1, 20))),
    IntField("bottom_points", t("底牌分", "the bottom points"), required=False, lo=0, hi=BOTTOM_CARDS_POINTS,
             step=5, entry="stepper", shown_when=bottom_bonus_on,
             help=t("抠底：庄家埋的8张底牌里的分", "抠底: the points in the 8 cards the declarer (庄家) buried")),
    NamedChoice("last_trick", t("最后一墩", "the last trick"), required=False, choices=LAST_TRICK_CHOICES,
                shown_when=bottom_bonus_on,
                help=t("抠底：闲家用主牌赢最后一墩时用的牌型", "抠底: the trump play the defenders (闲家) won the last trick with")),
    SwitchField("surrender", t("庄家投降", "the declarer (庄家) surrendered")),
    ChoiceField("trump", t("主牌花色", "the trump suit"), required=False, choices=TRUMP_CHOICES, parse=parse_trump,
                pattern=trump_pattern, shown_when=row_trump_enough),
    RowsField("chongguan", t("冲关", "冲关"), row_label=t("冲关{n}", "冲关 {n}"), max_rows=SEATS, entry="on_request",
              tucked=("cards", "trump"),
              fields=(SeatField("seat", t("座位", "seat")),
                      CardsField("cards", t("牌", "cards"), required=False),
                      ChoiceField("trump", t("主牌花色", "the trump suit"), required=False, choices=TRUMP_CHOICES,
                                  parse=parse_trump, pattern=trump_pattern),
                      *(IntField(name, COUNT_LABELS[name], required=False, lo=0, hi=hi, entry="chips")
                        for name, hi in COUNT_FIELDS)),
              needs_one_of=("cards", *(name for name, _ in COUNT_FIELDS))),
))


def _row_counts(i: int, row, trump) -> dict[str, int]:
    """A 冲关 row's counts: from its cards (declared counts may only lower them) or as declared."""
    f = f"chongguan[{i}]"
    declared = {name: row[name] for name, _ in COUNT_FIELDS if row[name] is not None}
    if row.cards is None:
        if not declared:
            raise MalformedInput(t("冲关{n}要给出牌（加主牌花色）或各项数目（王、正7对 …）",
                                   "冲关 {n} needs its cards (and the trump suit) or the counts (jokers, trump-7 "
                                   "pairs, …)", n=i + 1), field=f, code="missing_field")
        return {name: declared.get(name, 0) for name, _ in COUNT_FIELDS}
    trump = row.trump or trump
    if trump is None:
        raise InvalidInput(t("冲关{n}给了牌，还要说主牌花色", "冲关 {n} gives cards: say the trump suit too", n=i + 1),
                           field=f"{f}.trump", code="missing_field")  # 422: the schema cannot tie it to "trump"
    counts = counts_from_cards(row.cards, trump)
    for name, v in declared.items():
        if v > counts[name]:
            raise InvalidInput(t("冲关{n}：声明了{name} {v}，但这些牌里只有{h}", "冲关 {n}: declares {v} {name} but the "
                                 "cards hold only {h}", n=i + 1, name=COUNT_LABELS[name], v=v, h=counts[name]),
                               field=f"{f}.{name}", code="not_in_cards")
    counts.update(declared)
    return counts


def _chongguan(values) -> list[tuple[int, dict[str, int]]]:
    out, problems, seen = [], [], set()
    for i, row in enumerate(values.chongguan):
        if row.seat in seen:
            problems.append(InvalidInput(t("{s}的冲关填了两次", "{s} has two 冲关 entries", s=seat_name(row.seat)),
                                         field=f"chongguan[{i}].seat", code="duplicate_seat"))
            continue
        seen.add(row.seat)
        try:
            out.append((row.seat, _row_counts(i, row, values.trump)))
        except PaijuError as exc:
            problems.append(exc)
    if problems:
        raise InputErrors(problems)
    check_deck(DECK, [c for row in values.chongguan if row.cards for c in row.cards], "chongguan")
    for name, hi in COUNT_FIELDS:
        total = sum(c[name] for _, c in out)
        if total > hi:
            raise InvalidInput(t("各家冲关的{name}合计{n}，两副牌最多只有{hi}", "the 冲关 entries hold {n} {name} in all; "
                                 "two decks hold at most {hi}", name=COUNT_LABELS[name], n=total, hi=hi),
                               field="chongguan", code="too_many_copies")
    return out


def _outcome(bid: int, points: int | None, surrender: bool, stake: int) -> tuple[bool, int, Text]:
    """(the defenders (闲家) win, the multiple of the stake, the step that says why)."""
    if surrender:
        return True, 1, t("庄家投降：每个闲家得一底 {s}（不检分）", "the declarer (庄家) surrenders: each defender (闲家) receives one stake {s} "
                          "(no 检分)", s=stake)
    if points >= bid:
        step = 40 if bid >= 45 else 20
        mult = 1 + (points - bid) // step
        return True, mult, t("闲家得{p}分 ≥ 叫分{bid}，闲家赢；检分：每超{st}分加一底，超出{o}分 → {m}倍底",
                             "the defenders (闲家) have {p} ≥ the bid {bid}: the defenders (闲家) win; 检分: one more stake per {st} over, "
                             "{o} over → stake × {m}", p=points, bid=bid, st=step, o=points - bid, m=mult)
    line = xiaoguang_line(bid)
    if points == 0:
        return False, 4, t("闲家0分：大光，×4", "the defenders (闲家) have 0: 大光, ×4")
    if points < line:
        return False, 2, t("闲家{p}分 < 小光线{l}：小光，×2", "the defenders (闲家) have {p} < the 小光 line {l}: 小光, ×2",
                           p=points, l=line)
    return False, 1, t("闲家{p}分 < 叫分{bid}，庄家赢（到了小光线{l}，保小光）",
                       "the defenders (闲家) have {p} < the bid {bid}: the declarer (庄家) wins (the 小光 line {l} is reached)",
                       p=points, bid=bid, l=line)


def _sides(declarer: int, solo: bool) -> tuple[list[int], list[int]]:
    declarers = [declarer] if solo else [declarer, (declarer + 2) % SEATS]
    return declarers, [s for s in range(SEATS) if s not in declarers]


def _pay_stakes(deltas: list[int], declarers, defenders, sign: int, each: int, solo: bool) -> Text:
    for s in defenders:
        deltas[s] += sign * each
    for s in declarers:
        deltas[s] -= sign * each * (len(defenders) if solo else 1)
    if solo:
        return t("每个闲家 {e}，庄家 {d}", "each defender (闲家) {e}, the declarer (庄家) {d}", e=signed(sign * each),
                 d=signed(-sign * each * 3))
    return t("闲家每人 {e}，庄家和对家每人 {d}", "each defender (闲家) {e}, the declarer (庄家) and partner {d} each",
             e=signed(sign * each), d=signed(-sign * each))


def _pay_chongguan(deltas: list[int], cg, declarers, defenders, rules, surrender: bool, steps: list) -> list[dict]:
    values = []
    for seat, counts in cg:
        value, why = chongguan_value(counts, surrender)
        values.append({"seat": seat, "value": value})
        if not value:
            steps.append(t("{s}冲关：{why}", "{s} 冲关: {why}", s=seat_name(seat), why=why))
            continue
        mine = [seat] if rules.sides is Sides.SOLO else (declarers if seat in declarers else defenders)
        payers = [s for s in range(SEATS) if s not in mine]
        amount = value * rules.base
        for p in payers:
            deltas[p] -= amount
        deltas[seat] += amount * len(payers)
        steps.append(t("{s}冲关：{why}；{payers}各付 {a}（× 底分{b}，不乘底和光）",
                       "{s} 冲关: {why}; {payers} pay {a} each (× base {b}, never × stake or 光)",
                       s=seat_name(seat), why=why, payers=join([seat_name(p) for p in payers], "、", ", "),
                       a=amount, b=rules.base))
    return values


def _bottom_problems(values) -> list[PaijuError]:
    """抠底's own checks: the last trick is required, the bottom too unless it scores nothing, and the
    闲家's points with the bottom fit in the 200 of the pack."""
    if values.last_trick is None:
        return [InvalidInput(t("抠底（bottom_bonus: on）要填「最后一墩」", "抠底 (bottom_bonus: on) needs “the last "
                               "trick”"), field="last_trick", code="required_by_rule")]
    bottom = values.bottom_points
    if bottom is None:
        if LAST_TRICK_TIMES[values.last_trick] == 0:
            return []
        return [InvalidInput(t("抠底（bottom_bonus: on）要填「底牌分」", "抠底 (bottom_bonus: on) needs “the bottom "
                               "points”"), field="bottom_points", code="required_by_rule")]
    if values.defender_points is not None and values.defender_points + bottom > TOTAL:
        return [InvalidInput(t("闲家抓分{p}加底牌分{b}超过了两副牌的{total}分", "the defenders' (闲家) points {p} plus the bottom "
                               "points {b} exceed the {total} points of the two decks", p=values.defender_points,
                               b=bottom, total=TOTAL), field="bottom_points", code="too_many_points")]
    return []


def _defender_total(values, rules) -> tuple[int | None, Text | None]:
    """The 闲家's points with the bottom (抠底), and the step that says what 抠底 did (None: nothing to say)."""
    points = values.defender_points
    given = values.bottom_points is not None or values.last_trick is not None
    if not bottom_bonus_on(rules):
        return points, (t("抠底未开（bottom_bonus: off）：底牌分、最后一墩不计", "抠底 off (bottom_bonus: off): the "
                          "bottom points and the last trick are not used") if given else None)
    if values.surrender:
        return points, t("庄家投降：不抠底", "the declarer (庄家) surrenders: no 抠底")
    times, bottom = LAST_TRICK_TIMES[values.last_trick], values.bottom_points or 0
    shape = dict(LAST_TRICK_CHOICES)[values.last_trick]
    if not times:
        return points, t("抠底：最后一墩{s}，底牌分不给闲家；闲家合计 {p}", "抠底: last trick: {s}, so the bottom "
                         "does not go to the defenders (闲家); the defenders (闲家) have {p}", s=shape, p=points)
    total = points + bottom * times
    return total, t("抠底：最后一墩{s}，底牌分{b} × {m} = {x}；闲家合计 {p} + {x} = {total}",
                    "抠底: last trick: {s}, bottom points {b} × {m} = {x}; the defenders (闲家) have {p} + {x} = {total}",
                    s=shape, b=bottom, m=times, x=bottom * times, p=points, total=total)


def settle(values, rules) -> Settlement:
    bid, surrender, points = values.bid, values.surrender, values.defender_points
    if points is None and not surrender:
        # 422: needed unless the declarer surrendered, a rule of the game the schema does not state
        raise InputErrors([InvalidInput(t("缺少「闲家抓分」", "“the defenders' (闲家) points” is missing"),
                                        field="defender_points", code="missing_field")])
    if bottom_bonus_on(rules) and not surrender and (problems := _bottom_problems(values)):
        raise InputErrors(problems)
    points, bottom_step = _defender_total(values, rules)
    cg = _chongguan(values)
    solo = rules.sides is Sides.SOLO
    declarers, defenders = _sides(values.declarer, solo)
    stake = stake_units(bid) * rules.base
    steps = [t("叫分{bid}：底 = {u} × 底分{b} = {s}", "bid {bid}: stake = {u} × base {b} = {s}",
               bid=bid, u=stake_units(bid), b=rules.base, s=stake)]
    if bottom_step is not None:
        steps.append(bottom_step)
    defenders_win, mult, why = _outcome(bid, points, surrender, stake)
    steps.append(why)
    deltas = [0] * SEATS
    steps.append(_pay_stakes(deltas, declarers, defenders, 1 if defenders_win else -1, stake * mult, solo))
    paid = _pay_chongguan(deltas, cg, declarers, defenders, rules, surrender, steps)
    steps.append(t("合计：{d}", "total: {d}", d=", ".join(signed(x) for x in deltas)))
    return settlement(deltas, steps, stake=stake, multiplier=mult,
                      winner="defenders" if defenders_win else "declarer", chongguan=paid, defender_total=points,
                      made=not defenders_win)


SUMMARY = t("南昌二七王：王、7、2为常主，叫分从80往下叫；算分（检分、大光小光、冲关）、判牌、提示。",
            "Nanchang Erqiwang: jokers, 7s and 2s are permanent trumps, bids go down from 80; settle (检分, "
            "大光/小光, 冲关), check plays, hints.")

def last_tricks(rules) -> tuple[LastTrick, ...]:
    """Where the bottom scores, the defenders (闲家) score it × the times their winning play on the last trick gives."""
    return tuple(LastTrick(value, words, DEFENDERS if LAST_TRICK_TIMES[value] else "either", LAST_TRICK_TIMES[value],
                           {"last_trick": value}) for value, words in LAST_TRICK_CHOICES)


#: what a hand followed trick by trick fills (the live page): the declarer (庄家) with the partner opposite, or alone (solo)
LIVE_COUNTER = LiveCounter(
    "defender_points", DEFENDERS, lambda rules: TOTAL, lambda rules: None if rules.sides is Sides.SOLO else 2,
    lambda rules: "bottom_points" if bottom_bonus_on(rules) else None, DEFENDERS,
    lambda rules: BOTTOM_CARDS_POINTS, last_tricks)


#: worked examples for the rules page and the API document; each is a binding example of the rules
EXAMPLES = (
    ("settle", t("叫60，闲家100分：检分一次", "bid 60, the defenders (闲家) took 100: one extra stake"),
     {"declarer": 0, "bid": 60, "defender_points": 100}),
    ("settle", t("叫55，闲家25分：小光（线是30）", "bid 55, the defenders (闲家) took 25: 小光 (line 30)"),
     {"declarer": 0, "bid": 55, "defender_points": 25}),
    ("settle", t("叫60，闲家0分：大光", "bid 60, the defenders (闲家) took 0: 大光"),
     {"declarer": 0, "bid": 60, "defender_points": 0}),
    ("settle", t("冲关：2号位报了3王 + 正7对", "冲关: seat 2 declared 3 jokers + a pair of trump 7s"),
     {"declarer": 0, "bid": 80, "defender_points": 50,
      "chongguan": [{"seat": 1, "jokers": 3, "trump7_pairs": 1, "off7_pairs": 0,
                     "trump2_pairs": 0, "off2_pairs": 0}]}),
    ("trick", t("黑桃做主：大王 > 主7 > 副7", "spades trump: 大王 > trump 7 > other 7s"),
     {"trump": "♠", "plays": ["♥7", "♠7", "大王", "♦7"]}),
    ("trick", t("黑桃做主：主牌对子毙对子", "spades trump: a trump pair ruffs a pair"),
     {"trump": "♠", "plays": ["♥A ♥A", "♠3 ♠3"]}),
)
#: the settle answer beyond its deltas and steps: the multiplier and the stake are read under the deltas
SETTLE_ANSWER = answer(field("multiplier", "integer", line=MULTIPLIER),
                       field("stake", "integer", line=t("一底 {v}", "stake {v}")),
                       field("winner", "choice", values=("defenders", "declarer")), field("chongguan", "seat_values"),
                       field("defender_total", "integer"), field("made", "boolean"))


class Erqiwang(TrickGame):
    slug, name, summary = "erqiwang", t("南昌二七王", "Nanchang Erqiwang (2-7-jokers)"), SUMMARY
    examples, settle_answer = EXAMPLES, SETTLE_ANSWER
    ruleset, settle_input = RULESET, SETTLE_INPUT
    deck_of, order_of, settle_of = staticmethod(deck_for), staticmethod(order_for), staticmethod(settle)
    spec_of, bid_rules_of = staticmethod(spec_for), staticmethod(bid_rules)
    #: the hand followed trick by trick on the live page (scoring/trick/live.py), settled by this game
    live_hand = TrickFollow(LIVE_COUNTER, SETTLE_INPUT, SEATS, settle=lambda payload, rules: GAME.settle_payload(payload, rules))

    def sides(self, data, rules, seats):
        return declarer_sides(data, seats, partner=rules.sides is not Sides.SOLO)


GAME = Erqiwang()
