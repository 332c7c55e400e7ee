"""跑得快 / 争上游 (``rules/paodekuai.md``) on the shedding core.

Three presets of one game: ``paodekuai52`` (default, 4 × 13, no jokers),
``paodekuai48`` (3 × 16, ♥2 ♣2 ♦2 ♠A removed) and ``zhengshangyou108``
(2 decks with jokers, 4 × 27). Ranks low → high: 3 … K A 2 (小王 大王).

Readings made here where the spec is silent (also shown on the rules page):

* an attachment (3带1, 3带2, 4带2, wings, kickers) is never of the rank it is
  attached to (333+3 is a bomb, not 3带1); 三带二's two cards may be any two
  other cards in 跑得快, a pair in 争上游;
* 争上游 runs may start low with A-2 only when they reach 3 (A2345, 2233,
  AA2233); AA22 alone is no run;
* 争上游 bomb kickers: two singles (2 cards) or two pairs of different ranks
  (4 cards); bombs compare only with bombs carrying as many kicker cards;
* ``bomb_kickers`` concerns 争上游 only (跑得快 has 4带2, which is no bomb).

House rules of other tables (``rules/variants.md`` 1–8), where that text leaves room:

* an option that cannot apply to a preset (``zhaniao``, ``full_kickers`` with two packs) is refused only
  when set away from its default; ``baoben: false`` under ``penalty: seed`` changes nothing and a step
  says so;
* a settle lists at most ``dealt`` bombs (one player's deal; the form grows row by row); a bomb row's cards need not be
  told apart from the other rows' (the calculator only counts entries);
* 飞机带少牌 (``full_kickers``, last play only): two or more consecutive triples (3 … A, no upper bound,
  as a bare 3顺) with 1 … 2t − 1 wing cards of other ranks, no joker; it answers a full airplane of as
  many triples;
* ``baodan_max`` and ``spade3_first`` apply to 争上游 too (the sources name no preset).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from .cards import ACE, BIG_JOKER, LITTLE_JOKER, Deck, format_cards, parse_cards
from .errors import InputErrors, InvalidInput
from .games import Game, settlement
from .i18n import Text, seat_name, t
from .inputs import CardsField, IntField, PerSeatField, RowsField, Schema, SeatField
from .rules import Choice, Option, Preset, RuleSet, switch
from .shedding import (STANDARD, Pattern, Reading, SheddingSpec, distinct_readings, labelled, multisets,
                       shedding_actions, spec_cache)
from .shedding.counts import attachments, merged

# ==========================================================================
# House rules and presets
# ==========================================================================

class Deal(Choice):
    """The presets: which pack, for how many players."""
    PDK52 = "paodekuai52"
    PDK48 = "paodekuai48"
    PDK45 = "paodekuai45"
    ZSY = "zhengshangyou108"


class Penalty(Choice):
    SEED = "seed"          # cards left × multiplier
    PER_CARD = "per_card"  # 1 per card, last card free, shut out double


class Zhaniao(Choice):
    OFF = "off"
    CARDS = "cards"  # the ♥10 holder's card payments doubled
    ALL = "all"      # bomb payments too


ZSY, PDK52, PDK48, PDK45 = Deal.ZSY, Deal.PDK52, Deal.PDK48, Deal.PDK45
ONE_DECK = (PDK52, PDK48, PDK45)
#: where the house rules of rules/variants.md come from (named on the rules page and in each option's help)
M2_CLIENT = "QuiQiJingFeng/M2_CLIENT GameRuleLayer.csd"
XIUXIU = "xiuxiu RunFastRoom"
KUBEGAMES = "kubegames/kubegames-games 960204"


def _preset_info():
    return {
        PDK52: {"deck": Deck(1, jokers=False, name=t("一副牌去掉大小王（52张）", "one pack without jokers (52)")),
                "players": 4, "dealt": 13},
        PDK48: {"deck": Deck(1, jokers=False, removed=parse_cards("♥2 ♣2 ♦2 ♠A"),
                             name=t("52张去掉♥2 ♣2 ♦2 ♠A（48张）", "52 cards minus ♥2 ♣2 ♦2 ♠A (48)")),
                "players": 3, "dealt": 16},
        PDK45: {"deck": Deck(1, jokers=False, removed=parse_cards("♥A ♣A ♦A ♥2 ♣2 ♦2 ♦K"),
                             name=t("52张去掉♥A ♣A ♦A、♥2 ♣2 ♦2和♦K（45张）",
                                    "52 cards minus ♥A ♣A ♦A, ♥2 ♣2 ♦2 and ♦K (45)")),
                "players": 3, "dealt": 15},
        ZSY: {"deck": Deck(2, jokers=True, name=t("两副牌（108张）", "two packs (108)")), "players": 4, "dealt": 27},
    }


PRESETS = _preset_info()

RULESET = RuleSet(
    options=(
        Option("penalty", Penalty.SEED, tuple(Penalty),
               t("输家付分", "What losers pay"),
               t("「剩牌数 × 倍数」（一张没出 ×4；出了不到四分之一 ×3；不到一半 ×2；其余 ×1）。"
                 "“发牌数”理解为每人发到的张数，只出1张也算“不到四分之一”（解读）。"
                 "「每张1分，报单不付，全关加倍」：每张剩牌1分，只剩1张（报单）不付，一张没出（全关）加倍。",
                 "“cards left × multiplier” (nothing played ×4; under a quarter of the deal played ×3; "
                 "under half ×2; otherwise ×1). “Total cards” is read as the cards dealt to each player, and "
                 "playing exactly 1 card counts as under a quarter (reading). “1 per card, last card free, shut out double”: 1 per card left, a "
                 "loser left with 1 card pays nothing, one who played nothing pays double."),
               reading=True,
               value_labels={Penalty.SEED: t("剩牌数 × 倍数", "cards left × multiplier"),
                             Penalty.PER_CARD: t("每张1分，报单不付，全关加倍", "1 per card, last card free, shut out double")}),
        Option("stake", 1, tuple(range(1, 101)), t("底分", "Stake"),
               t("每张剩牌乘以底分（1–100）", "every card left is multiplied by the stake (1–100)")),
        switch("must_beat", t("有出必出（能管必管）", "Must beat if able"),
               t("能管上桌上的牌时不许不出", "a player who can beat the table may not pass")),
        switch("aaa_top", t("AAA 是最大的炸弹", "AAA is the highest bomb"),
               t("跑得快中三个A是炸弹；默认按张数比是最小的炸弹（原文字面），开启后是最大的炸弹",
                 "in 跑得快 three aces are a bomb; by default the lowest bomb (fewest cards, as the source says), "
                 "with this rule the highest")),
        switch("bomb_kickers", t("炸弹可带牌（争上游）", "Bombs may carry kickers (争上游)"),
               t("争上游：炸弹可以带两张单牌或两对；压炸弹时所带张数必须相同",
                 "争上游: a bomb may carry two singles or two pairs; a bomb with kickers is beaten only by a "
                 "bomb carrying as many kicker cards")),
        Option("bomb_points", 0, tuple(range(0, 101)), t("炸弹分", "Bomb points"),
               t(f"每个记下的炸弹当场收分：其他每人付 炸弹分 × 底分（0–100，0 = 炸弹不计分）。"
                 f"来源：{M2_CLIENT}（“1个炸10分”）、{XIUXIU}、{KUBEGAMES}、567ppt.com（5分）",
                 f"every bomb entered scores on the spot: each other player pays bomb points × stake "
                 f"(0–100, 0 = bombs score nothing). From {M2_CLIENT} (“a bomb is 10”), {XIUXIU}, "
                 f"{KUBEGAMES}, 567ppt.com (5)")),
        Option("zhaniao", Zhaniao.OFF, tuple(Zhaniao), t("红桃10扎鸟", "♥10 bird (扎鸟)"),
               t(f"拿到红桃10的人和别人之间的付分翻倍。「扎鸟只翻牌分」：只翻牌分（{M2_CLIENT}：“炸弹则不翻倍”）；"
                 f"「扎鸟连炸弹分一起翻」：炸弹分也翻倍（{XIUXIU}）。只用于一副牌的预设",
                 f"every payment between the ♥10 holder and another player is doubled. “bird doubles card payments”: card payments "
                 f"only ({M2_CLIENT}: “bombs are not doubled”); “bird doubles card and bomb payments”: bomb payments too ({XIUXIU}). "
                 f"One-deck presets only"),
               value_labels={Zhaniao.OFF: t("不扎鸟", "no bird"),
                             Zhaniao.CARDS: t("扎鸟只翻牌分", "bird doubles card payments"),
                             Zhaniao.ALL: t("扎鸟连炸弹分一起翻", "bird doubles card and bomb payments")},
               only_presets=ONE_DECK),
        switch("baopei", t("报单放走包赔", "Let-go pays all (包赔)"),
               t(f"下家报单时没出最大的单张或能管不管、放走赢家的人，替所有输家付牌分（炸弹分不包）。"
                 f"来源：{M2_CLIENT}（“报单放走包赔”）、{XIUXIU}、{KUBEGAMES}、hackmd.io",
                 f"the loser who let the winner go out (on one card, it did not play its largest single or "
                 f"passed while able to beat) pays every loser's card payment; bombs are not covered. "
                 f"From {M2_CLIENT}, {XIUXIU}, {KUBEGAMES}, hackmd.io")),
        switch("baoben", t("报单保本", "Last card pays nothing (报单保本)"),
               t(f"输家按「每张1分」付时，只剩1张的输家不付（默认，{M2_CLIENT}“报单不出不进”、{XIUXIU}）；"
                 f"关闭后也按1张付（hackmd.io、{KUBEGAMES}）",
                 f"when losers pay 1 per card, a loser left with one card pays nothing (default; {M2_CLIENT}, "
                 f"{XIUXIU}); when off, it pays for that card like any other (hackmd.io, {KUBEGAMES})"), default=True),
        switch("baodan_max", t("报单必出最大", "Next on one card: single must be your largest"),
               t(f"下家只剩1张（报单）时，出单张必须出手里最大的点数。来源：{XIUXIU} checkTake、"
                 f"juexinw.com、{KUBEGAMES}",
                 f"when the next player holds one card (报单), a single must be of the highest rank you hold. "
                 f"From {XIUXIU} checkTake, juexinw.com, {KUBEGAMES}")),
        switch("spade3_first", t("首出必带黑桃3", "First play must hold ♠3"),
               t(f"一局的第一手必须包含♠3。来源：{M2_CLIENT}（“黑桃3必出”）、{XIUXIU}、wangSir66/ChessTableQX",
                 f"the first play of a hand must contain ♠3. From {M2_CLIENT}, {XIUXIU}, "
                 f"wangSir66/ChessTableQX")),
        switch("full_kickers", t("牌够只能三带二", "Triples carry two while you can"),
               t(f"三张、三带一、三顺和带少牌的飞机只能作为最后一手（出完手牌）；最后一手可以管同样三张数的三带二或飞机。"
                 f"只用于一副牌的预设。来源：{M2_CLIENT}、{KUBEGAMES}、{XIUXIU}（threeTake）",
                 f"a bare triple, 3带1, a bare triple run or a short-winged airplane only as your last play "
                 f"(the whole hand); such a last play beats a 3带2 or airplane of as many triples with a lower "
                 f"top. One-deck presets only. From {M2_CLIENT}, {KUBEGAMES}, {XIUXIU} (threeTake)"),
               only_presets=ONE_DECK),
    ),
    presets=(
        Preset(PDK52, t("跑得快 52张（4人×13张）", "Paodekuai, 52 cards (4 × 13)"),
               help=t("一副牌去掉大小王，3最小，2最大，2不进顺子", "one pack without jokers, 3 lowest, 2 highest, "
                      "2 never in a run")),
        Preset(PDK48, t("跑得快 48张（3人×16张）", "Paodekuai, 48 cards (3 × 16)"),
               help=t("去掉♥2 ♣2 ♦2 ♠A（解读：原文只说“48张”，这是常见的16张玩法）",
                      "without ♥2 ♣2 ♦2 ♠A (reading: the source only says “48 cards”; this is the common "
                      "16-card game)"),
               reading=True),
        Preset(PDK45, t("跑得快 十五张（3人×15张）", "Paodekuai, 15 cards (3 × 15)"),
               help=t(f"一副牌去掉大小王和♥A ♣A ♦A、♥2 ♣2 ♦2和♦K，只剩♠A、♠2和三张K。"
                      f"来源：{M2_CLIENT}（“十五张玩法”）、{XIUXIU} removeCard",
                      f"one pack without jokers, ♥A ♣A ♦A, ♥2 ♣2 ♦2 and ♦K: one ace "
                      f"(♠A), one 2 (♠2) and three kings. From {M2_CLIENT} (“15-card game”), {XIUXIU} "
                      f"removeCard")),
        Preset(ZSY, t("争上游 108张（4人×27张）", "Zhengshangyou, 108 cards (4 × 27)"),
               help=t("两副牌带大小王，有同花顺、连三同张带牌、天王炸弹",
                      "two packs with jokers: straight flushes, triple runs with attachments, the four-joker "
                      "bomb")),
    ),
)


def deck_for(rules) -> Deck:
    return PRESETS[rules.preset]["deck"]


# ==========================================================================
# Patterns
# ==========================================================================

KIND_NAMES = {
    "single": t("单张", "single"),
    "pair": t("对子", "pair"),
    "triple": t("三张", "triple"),
    "triple_single": t("三带一", "triple with a single"),
    "triple_pair": t("三带一对", "triple with a pair"),
    "triple_two": t("三带二", "triple with two"),
    "four_two": t("四带二", "four with two"),
    "straight": t("顺子", "straight"),
    "straight_flush": t("同花顺", "straight flush"),
    "pair_run": t("连对", "pair run"),
    "triple_run": t("连三张", "triple run"),
    "triple_run_singles": t("连三张带单", "triple run with singles"),
    "triple_run_pairs": t("连三张带对", "triple run with pairs"),
    "airplane": t("飞机带翅膀", "airplane with wings"),
    "airplane_short": t("飞机带少牌", "airplane with short wings"),
    "bomb": t("炸弹", "bomb"),
}
# Order of several readings of one card set (largest first).
_PRIORITY = {k: i for i, k in enumerate(["single", "pair", "triple", "triple_single", "triple_two", "triple_pair",
                                          "four_two", "straight", "pair_run", "triple_run_singles",
                                          "triple_run_pairs", "airplane_short", "airplane", "triple_run",
                                          "straight_flush", "bomb"])}
JOKERS = (BIG_JOKER, LITTLE_JOKER)
FOUR_JOKERS = Counter({BIG_JOKER: 2, LITTLE_JOKER: 2})
ORDER = STANDARD
power = ORDER.power  # 3 … K A 2 小王 大王 as 3 … 17
_SAME = {1: "single", 2: "pair", 3: "triple"}


def _high_first(ranks: Iterable[int]) -> str:
    """The ranks of an attachment, highest first: "K 5"."""
    return ORDER.names(sorted(ranks, key=power, reverse=True))


def _flush_suit(cards):
    suits = {c.suit for c in cards}
    if len(suits) == 1 and None not in suits:
        return next(iter(suits))
    return None


# --- leads by construction (``Pattern.leads``): shapes ((power, n), …) from the rank counts -----------------------

P_ACE, P_TWO, P_LITTLE, P_BIG = power(ACE), power(2), power(LITTLE_JOKER), power(BIG_JOKER)
JOKER_POWERS = frozenset(power(r) for r in JOKERS)
FOUR_JOKER_SHAPE = ((P_BIG, 2), (P_LITTLE, 2))
LONGEST_RUN = 13  # A 2 3 … K / 2 3 … A, the longest low run


def _natural(p: int) -> bool:
    return p not in JOKER_POWERS


def _up_to(counts, level, least: int):
    """The natural powers held ``least`` times or more, up to ``level`` (a body's top never passes it)."""
    for p in counts.powers:
        if level is not None and p > level:
            return
        if counts.count[p] >= least and p not in JOKER_POWERS:
            yield p


def _runs(counts, tops, width: int, shortest: int, longest: int, low: bool):
    """Every run of ``width`` cards a rank, ``shortest`` … ``longest`` ranks, topped by a power of ``tops``
    (highest card first; with ``low`` the runs holding a 2: 2 3 4 …, A 2 3 …, where 2 is the highest power)."""
    have = counts.count
    for top in tops:
        if top <= P_ACE:
            shape, p = [], top
            while p >= 3 and have.get(p, 0) >= width and len(shape) < longest:
                shape.append((p, width))
                p -= 1
                if len(shape) >= shortest:
                    yield tuple(shape)
        elif top == P_TWO and low and have.get(P_TWO, 0) >= width:
            yield from _low_runs(have, width, shortest, longest)


def _low_runs(have, width: int, shortest: int, longest: int):
    """2 3 … k and A 2 3 … k (A counted as 1); A 2 3 … K is 2 3 … A, found once."""
    ace = have.get(P_ACE, 0) >= width
    rest: tuple = ()
    for k in range(3, P_ACE + 1):
        if have.get(k, 0) < width:
            return
        rest = ((k, width),) + rest
        if shortest <= k - 1 <= longest:
            yield ((P_TWO, width),) + rest
        if ace and k <= 12 and shortest <= k <= longest:
            yield ((P_TWO, width), (P_ACE, width)) + rest


def _written(shape) -> list[int]:
    """The ranks of a run's shape in the order the run is written, lowest first (2 3 … and A 2 3 … when low)."""
    powers = sorted(p for p, _ in shape)
    if powers[-1] == P_TWO:
        rest = powers[:-1]
        powers = [P_ACE, P_TWO] + rest[:-1] if rest[-1] == P_ACE and 13 not in rest else [P_TWO] + rest
    return [ORDER.rank_of_power(p) for p in powers]


class _Pattern(Pattern):
    """A pattern of 跑得快 / 争上游: its readings are labelled "kind (cards)"; ``text`` is its rules-page line."""

    text: Text | None = None

    def make(self, kind: str, cards, key: tuple, detail: str, **extra) -> Reading:
        return self.reading(kind, cards, key, labelled(KIND_NAMES[kind], detail), **extra)

    def describe(self) -> Text | None:
        return self.text


# --- bombs -------------------------------------------------------------------

def _bomb_detail(part: Counter) -> str:
    if len(part) == 2:
        return "大王 大王 小王 小王"
    rank, n = next(iter(part.items()))
    return ORDER.names([rank], n)


class Bomb(_Pattern):
    """跑得快 bombs: four of a kind, or three aces (the lowest bomb, or the highest under ``aaa_top``)."""

    kinds = ("bomb",)
    bomb = True
    text = t("炸弹：四张同点数，或三个A（默认是最小的炸弹，见 aaa_top）",
             "bomb: four of a kind, or three aces (the lowest bomb unless aaa_top)")

    def key(self, part: Counter) -> tuple | None:
        """(tier, cards, rank) of a bomb made of exactly ``part``, or None."""
        if len(part) != 1:
            return None
        rank, n = next(iter(part.items()))
        if n == 4:
            return (0, 4, power(rank))
        if n == 3 and rank == ACE:
            return (1, 0, 0) if self.rules.aaa_top else (0, 3, power(rank))
        return None

    def reads_size(self, n):
        return n in (3, 4)

    def read(self, cards, counts):
        key = self.key(counts)
        if key is not None:
            yield self.make("bomb", cards, key, _bomb_detail(counts), top=ORDER.name(max(counts, key=power)),
                            kickers=0)

    def candidates(self, hand, table, size, need):
        for r in hand.naturals:
            if hand.have[r] == 4 and size == 4:
                yield hand.take([(r, 4)])
            if r == ACE and hand.have[r] >= 3 and size == 3:
                yield hand.take([(r, 3)])

    def leads(self, counts, level):
        for p in counts.at(level):
            n = counts.count[p]
            if n == 4:
                yield 4, ((p, 4),), None
            if p == P_ACE and n >= 3:
                yield 3, ((p, 3),), None

    def beats(self, play, table):
        """A bomb beats every plain play; a bomb only with as many kicker cards and a higher key."""
        if not table.is_bomb:
            return True
        return play.extra.get("kickers", 0) == table.extra.get("kickers", 0) and play.key > table.key


class ZsyBomb(Bomb):
    """争上游 bombs: 4 or more of a rank (more cards beat fewer), 天王 highest; kickers under ``bomb_kickers``."""

    text = t("炸弹：4张或以上同点数，张数多的大，张数相同比点数；天王炸弹（大王大王小王小王）最大",
             "bomb: 4 or more of a rank; more cards beat fewer, then rank; 大王大王小王小王 is the highest")

    def key(self, part: Counter) -> tuple | None:
        if part == FOUR_JOKERS:
            return (1, 0, 0)
        if len(part) == 1:
            rank, n = next(iter(part.items()))
            if n >= 4:
                return (0, n, power(rank))
        return None

    def reads_size(self, n):
        return n >= 4

    def __init__(self, spec):
        super().__init__(spec)
        self.kickers = self.rules.bomb_kickers

    def read(self, cards, counts):
        if len(counts) == 1 or counts == FOUR_JOKERS:
            yield from super().read(cards, counts)
        elif self.kickers and len(cards) >= 6:  # a bomb of 4 or more and its 2 or 4 kickers
            yield from self.read_with_kickers(cards, counts)

    def read_with_kickers(self, cards, counts):
        """A bomb carrying two singles (2 cards) or two pairs of different ranks (4 cards)."""
        parts = [Counter({r: k}) for r, k in counts.items() if r not in JOKERS and k >= 4]
        if counts[BIG_JOKER] == 2 and counts[LITTLE_JOKER] == 2:
            parts.append(FOUR_JOKERS)
        for part in parts:
            rest = counts - part
            m = sum(rest.values())
            if any(r in rest for r in part):
                continue
            if m == 2 or (m == 4 and len(rest) == 2 and all(k == 2 for k in rest.values())):
                yield self.make("bomb", cards, self.key(part), _bomb_detail(part) + " + " + _high_first(rest.elements()),
                                top=ORDER.name(max(part, key=power)), kickers=m)

    def candidates(self, hand, table, size, need):
        four_jokers = hand.count(BIG_JOKER) == 2 and hand.count(LITTLE_JOKER) == 2
        if size == 4 and four_jokers:
            yield hand.take([(BIG_JOKER, 2), (LITTLE_JOKER, 2)])
        for r in hand.naturals:
            if hand.have[r] >= size >= 4:
                yield hand.take([(r, size)])
        if self.kickers:
            parts = [[(r, k)] for r in hand.naturals for k in range(4, hand.have[r] + 1)]
            if four_jokers:
                parts.append([(BIG_JOKER, 2), (LITTLE_JOKER, 2)])
            for part in parts:
                yield from self.with_kickers(hand, part, size - sum(k for _, k in part))

    def leads(self, counts, level):
        for p in counts.at(level):
            if p not in JOKER_POWERS:
                for n in range(4, counts.count[p] + 1):
                    yield n, ((p, n),), None
        four = counts.count.get(P_BIG) == 2 and counts.count.get(P_LITTLE) == 2
        if four and level in (None, P_BIG):
            yield 4, FOUR_JOKER_SHAPE, None
        if self.kickers:
            yield from self.kicked(counts, level, four and level in (None, P_BIG))

    @staticmethod
    def kicked(counts, level, four: bool):
        """Bombs with two singles or two pairs of different ranks, topped by ``level``."""
        bodies = [((p, n),) for p in _up_to(counts, level, 4) for n in range(4, counts.count[p] + 1)]
        if four:
            bodies.append(FOUR_JOKER_SHAPE)
        for body in bodies:
            top, size, exclude = body[0][0], sum(n for _, n in body), {p for p, _ in body}
            for att in attachments(counts.units(level, exclude), 2, level, top):
                yield size + 2, merged(body, att), None
            for att in attachments(counts.units(level, exclude, width=2, most=1), 2, level, top):
                yield size + 4, merged(body, att, 2), None

    @staticmethod
    def with_kickers(hand, part, m: int):
        avail = hand.available(exclude={r for r, _ in part})
        if m == 2:
            for choice in multisets(avail, 2):
                yield hand.take(part + list(choice))
        elif m == 4:
            pairs = [r for r, k in avail if k >= 2]
            for i, a in enumerate(pairs):
                for b in pairs[i + 1:]:
                    yield hand.take(part + [(a, 2), (b, 2)])


# --- one rank, and a triple or four with attachments --------------------------

class SameRank(_Pattern):
    kinds = ("single", "pair", "triple")
    text = t("单张、对子、三张", "single, pair, triple")

    def reads_size(self, n):
        return n <= 3

    def read(self, cards, counts):
        n = len(cards)
        if len(counts) != 1 or n > 3:
            return
        r = next(iter(counts))
        if n == 3 and self.spec.triple_is_bomb(r):
            return
        yield self.make(_SAME[n], cards, (power(r),), ORDER.names([r], n), top=ORDER.name(r))

    def candidates(self, hand, table, size, need):
        if size == 1:
            for r in hand.ranks:
                yield hand.take([(r, 1)])
        elif size == 2:
            for r in hand.ranks:
                if hand.have[r] >= 2:
                    yield hand.take([(r, 2)])
        elif size == 3:
            for r in hand.naturals:
                if hand.have[r] >= 3 and not self.spec.triple_is_bomb(r):
                    yield hand.take([(r, 3)])

    def leads(self, counts, level):
        for p in counts.at(level):
            n = counts.count[p]
            yield 1, ((p, 1),), None
            if n >= 2:
                yield 2, ((p, 2),), None
            if n >= 3 and p not in JOKER_POWERS and not self.spec.triple_is_bomb(counts.rank[p]):
                yield 3, ((p, 3),), None


class ZsySameRank(SameRank):
    text = t("单张、对子（大王大王、小王小王是对子，大王小王不是）、三张",
             "single, pair (大王大王 and 小王小王 are pairs, 大王小王 is not), triple")


class TripleWith(_Pattern):
    """三带一 and 三带二 (two cards of any other ranks, no joker)."""

    kinds = ("triple_single", "triple_two")
    text = t("三带一；三带二（两张单牌或一对）", "triple with one; triple with two (two singles or a pair)")

    def reads_size(self, n):
        return n in (4, 5)

    def read(self, cards, counts):
        if len(cards) not in (4, 5):
            return
        for r in [r for r, k in counts.items() if r not in JOKERS and k == 3]:
            rest = counts - Counter({r: 3})
            head = ORDER.names([r], 3) + " + "
            if len(cards) == 4:
                yield self.make("triple_single", cards, (power(r),), head + ORDER.name(next(iter(rest))),
                                top=ORDER.name(r))
            elif self.two_ok(rest):
                yield self.make(self.kinds[1], cards, (power(r),), head + _high_first(rest.elements()),
                                top=ORDER.name(r))

    @staticmethod
    def two_ok(rest: Counter) -> bool:
        return not any(x in JOKERS for x in rest)

    def candidates(self, hand, table, size, need):
        if size not in (4, 5):
            return
        for r in hand.naturals:
            if hand.have[r] >= 3:
                yield from self.attach(hand, r, hand.available(exclude=(r,)), size - 3)

    @staticmethod
    def attach(hand, rank, avail, m):
        for choice in multisets(avail, m):
            yield hand.take([(rank, 3)] + list(choice))

    def leads(self, counts, level):
        for p in _up_to(counts, level, 3):
            body = ((p, 3),)
            for att in attachments(counts.units(level, (p,)), 1, level, p):
                yield 4, merged(body, att), None
            yield from self.with_two(counts, level, body, p)

    @staticmethod
    def with_two(counts, level, body, p):
        """三带二: two cards of other ranks, no joker."""
        for att in attachments(counts.units(level, (p,), keep=_natural), 2, level, p):
            yield 5, merged(body, att), None


class ZsyTripleWith(TripleWith):
    """争上游: a triple carries one single or one pair."""

    kinds = ("triple_single", "triple_pair")
    text = t("三张带一张单牌或一对", "a triple with one single or one pair")

    @staticmethod
    def two_ok(rest: Counter) -> bool:
        return len(rest) == 1

    @staticmethod
    def attach(hand, rank, avail, m):
        if m == 1:
            yield from TripleWith.attach(hand, rank, avail, m)
            return
        for q, k in avail:
            if k >= 2:
                yield hand.take([(rank, 3), (q, 2)])

    @staticmethod
    def with_two(counts, level, body, p):
        """One pair of another rank (a pair of one joker too)."""
        for att in attachments(counts.units(level, (p,), width=2), 1, level, p):
            yield 5, merged(body, att, 2), None


class FourWithTwo(_Pattern):
    kinds = ("four_two",)
    text = t("四带二：四张加两张单牌或一对，不是炸弹", "four with two: four of a rank plus two singles or a pair; not a bomb")

    def reads_size(self, n):
        return n == 6

    def read(self, cards, counts):
        fours = [r for r, k in counts.items() if r not in JOKERS and k == 4]
        if len(cards) == 6 and len(fours) == 1:
            r = fours[0]
            yield self.make("four_two", cards, (power(r),),
                            ORDER.names([r], 4) + " + " + _high_first((counts - Counter({r: 4})).elements()),
                            top=ORDER.name(r))

    def candidates(self, hand, table, size, need):
        if size != 6:
            return
        for r in hand.naturals:
            if hand.have[r] >= 4:
                for choice in multisets(hand.available(exclude=(r,)), 2):
                    yield hand.take([(r, 4)] + list(choice))

    def leads(self, counts, level):
        for p in _up_to(counts, level, 4):
            for att in attachments(counts.units(level, (p,)), 2, level, p):
                yield 6, merged(((p, 4),), att), None


# --- runs ------------------------------------------------------------------------

class Run(_Pattern):
    """``width`` cards of each of at least ``min_len`` consecutive ranks; no joker."""

    width, min_len, kind = 1, 5, "straight"

    @property
    def kinds(self):
        return (self.kind,)

    def reads_size(self, n):
        return n % self.width == 0 and n >= self.width * self.min_len

    def shaped(self, counts: Counter, n: int) -> bool:
        """Exactly ``width`` cards of each of two ranks or more (consecutive or not)."""
        return len(counts) >= 2 and n == self.width * len(counts) and max(counts.values()) == self.width

    def read(self, cards, counts):
        if not self.shaped(counts, len(cards)) or not self.reads(cards):
            return
        top = ORDER.run_top(list(counts), self.spec.low_runs)  # None for jokers, a 2 out of place or a gap
        if top is not None:
            yield self.make(self.kind, cards, (top,), self.detail(cards, counts, top), **self.extra(cards, top))

    def reads(self, cards) -> bool:
        return True

    def detail(self, cards, counts, top) -> str:
        return ORDER.run_text(counts, top, self.width)

    def extra(self, cards, top) -> dict:
        return {"top": ORDER.name(top)}

    def candidates(self, hand, table, size, need):
        if size % self.width or size // self.width < self.min_len:
            return
        width, have = self.width, hand.have
        for window in ORDER.windows(size // width, self.spec.low_runs):
            if all(have.get(r, 0) >= width for r in window):
                yield from self.pick(hand, window)

    def pick(self, hand, window):
        yield hand.take([(r, self.width) for r in window])

    def leads(self, counts, level):
        width = self.width
        for shape in _runs(counts, counts.at(level), width, self.min_len, LONGEST_RUN, self.spec.low_runs):
            yield width * len(shape), shape, None


class Straight(Run):
    text = t("顺子：5张或以上相连，3到A，2不能进顺子", "straight: 5 or more consecutive from 3 up to A; never a 2")


class PairRun(Run):
    width, min_len, kind = 2, 2, "pair_run"
    text = t("连对：两对或以上相连；三顺：两个或以上相连的三张；都不能有2",
             "pair run: 2 or more consecutive pairs; triple run: 2 or more consecutive triples; no 2")


class TripleRun(Run):
    width, min_len, kind = 3, 2, "triple_run"


class ZsyStraight(Straight):
    """争上游 straights: a flush reads as a straight flush, so this one is of two suits or more."""

    text = t("顺子：5张或以上相连，A可大可小，2只能当小牌（A2345、23456 最小）；不能绕圈，王不进顺子；连对、连三同张同理（解读）",
             "straight: 5 or more consecutive ranks; A high or low, 2 only low (A2345 and 23456 are the lowest); "
             "no wrap, no jokers; the same for pair and triple runs (reading)")

    def reads(self, cards) -> bool:
        return self.spec.flush_suit(cards) is None

    def pick(self, hand, window):
        return self.choose([hand.groups[r] for r in window])

    def leads(self, counts, level):
        """Every choice of suits :meth:`choose` makes: the search keeps the first of one identity the turn allows."""
        for shape in _runs(counts, counts.at(level), 1, self.min_len, LONGEST_RUN, True):
            for cards in self.choose([counts.groups[power(r)] for r in _written(shape)]):
                yield len(shape), shape, tuple(cards)

    @staticmethod
    def choose(picks):
        """Straights of two suits or more: the first card of each rank, or, when those are of one suit, each
        way of swapping one of them (the search keeps the first the rules allow: 首出必带黑桃3 wants ♠3 in it)."""
        first = [g[0] for g in picks]
        if len({c.suit for c in first}) > 1:
            yield first
            return
        for i, g in enumerate(picks):
            other = next((c for c in g if c.suit != first[0].suit), None)
            if other is not None:
                yield first[:i] + [other] + first[i + 1:]


class StraightFlush(ZsyStraight):
    """A straight of one suit: beats any plain straight of as many cards; not a bomb."""

    kind = "straight_flush"
    text = t("同花顺：同花色的顺子，管任何同样张数的普通顺子；不是炸弹（解读）",
             "straight flush: beats any plain straight of the same length; not a bomb (reading)")

    def reads(self, cards) -> bool:
        return self.spec.flush_suit(cards) is not None

    def detail(self, cards, counts, top) -> str:
        return self.spec.flush_suit(cards).symbol + " " + super().detail(cards, counts, top)

    def extra(self, cards, top) -> dict:
        return {"top": ORDER.name(top), "suit": self.spec.flush_suit(cards).symbol}

    @staticmethod
    def choose(picks):
        """Every flush the hand holds on this window."""
        for s in set.intersection(*({c.suit for c in g} for g in picks)):
            yield [next(c for c in g if c.suit == s) for g in picks]

    def answers(self, table, size):
        return table is None or (not table.is_bomb and size == table.size
                                 and table.kind in ("straight", "straight_flush"))

    def beats(self, play, table):
        return super().beats(play, table) or (table.kind == "straight" and play.size == table.size)


class ZsyPairRun(PairRun):
    text = t("连对：两对或以上相连（3344）", "pair run: 2 or more consecutive pairs (3344)")


# --- triple runs with attachments ------------------------------------------------

class TripleRunWith(_Pattern):
    """Consecutive triples each carrying ``step - 3`` cards (飞机带翅膀: 2 or 3 triples, two cards each)."""

    kinds = ("airplane",)
    step = 5
    max_triples: int | None = 3
    text = t("飞机带翅膀：2或3个相连的三张，每个带两张", "airplane: 2 or 3 consecutive triples, each with two cards")

    def triples(self, n: int) -> int | None:
        """How many triples ``n`` cards of this pattern hold, or None."""
        k, left = divmod(n, self.step)
        if left or k < 2 or (self.max_triples is not None and k > self.max_triples):
            return None
        return k

    def reads_size(self, n):
        return self.triples(n) is not None

    def read(self, cards, counts):
        k = self.triples(len(cards))
        tri = [r for r, c in counts.items() if c == 3 and r <= ACE]
        if k > len(tri):
            return
        for window in ORDER.windows(k, self.spec.low_runs):
            if not all(r in tri for r in window):
                continue
            top = ORDER.run_top(window, self.spec.low_runs)
            rest = counts - Counter({r: 3 for r in window})
            if top is None or any(r in rest for r in window) or not self.wings_ok(rest):
                continue
            detail = ORDER.run_text(window, top, 3) + " + " + _high_first(rest.elements())
            yield self.make(self.kinds[0], cards, (top,), detail, top=ORDER.name(top))

    @staticmethod
    def wings_ok(rest: Counter) -> bool:
        return not any(r in JOKERS for r in rest)

    def candidates(self, hand, table, size, need):
        k = self.triples(size)
        if k is None:
            return
        have = hand.have
        for window in ORDER.windows(k, self.spec.low_runs):
            if all(have.get(r, 0) >= 3 for r in window):
                body = [(r, 3) for r in window]
                for wings in self.wings(hand.available(exclude=window), k, size - 3 * k):
                    yield hand.take(body + wings)

    @staticmethod
    def wings(avail, k: int, m: int):
        for choice in multisets([(q, c) for q, c in avail if q not in JOKERS], m):
            yield list(choice)

    def leads(self, counts, level):
        tops = counts.powers if level is None else [p for p in counts.powers if p <= level]
        for body in _runs(counts, tops, 3, 2, self.max_triples or LONGEST_RUN, self.spec.low_runs):
            yield from self.winged(counts, level, body, {p for p, _ in body})

    @staticmethod
    def winged(counts, level, body, exclude):
        """The airplane's wings: two cards a triple, of other ranks, no joker."""
        k = len(body)
        for att in attachments(counts.units(level, exclude, keep=_natural), 2 * k, level, body[0][0]):
            yield 5 * k, merged(body, att), None


class TripleRunSingles(TripleRunWith):
    kinds = ("triple_run_singles",)
    step = 4
    max_triples = None
    text = t("连三同张：两个或以上相连的三张，每个三张可带一张单牌或一对，要么都带单，要么都带对（解读）",
             "triple run: 2 or more consecutive triples; each may carry a single or a pair, all singles or all "
             "pairs (reading)")

    @staticmethod
    def wings_ok(rest: Counter) -> bool:
        return True

    @staticmethod
    def wings(avail, k: int, m: int):
        for choice in multisets(avail, m):
            yield list(choice)

    @staticmethod
    def winged(counts, level, body, exclude):
        """One card a triple, of other ranks (jokers too)."""
        k = len(body)
        for att in attachments(counts.units(level, exclude), k, level, body[0][0]):
            yield 4 * k, merged(body, att), None


class TripleRunPairs(TripleRunSingles):
    kinds = ("triple_run_pairs",)
    step = 5
    text = None  # on the line of TripleRunSingles

    @staticmethod
    def wings_ok(rest: Counter) -> bool:
        return all(v % 2 == 0 for v in rest.values()) and all(v == 2 for r, v in rest.items() if r in JOKERS)

    @staticmethod
    def wings(avail, k: int, m: int):
        for choice in multisets([(q, c // 2) for q, c in avail if c >= 2], k):
            yield [(q, 2 * n) for q, n in choice]

    @staticmethod
    def winged(counts, level, body, exclude):
        """One pair a triple, of other ranks (a pair of one joker too; four of a rank are two pairs)."""
        k = len(body)
        for att in attachments(counts.units(level, exclude, width=2), k, level, body[0][0]):
            yield 5 * k, merged(body, att, 2), None


class ShortWingedPlane(_Pattern):
    """牌够只能三带二's last play: *t* ≥ 2 consecutive triples carrying 1 … 2*t* − 1 wing cards (带少牌)."""

    kinds = ("airplane_short",)

    @staticmethod
    def shapes(n: int):
        """(triples, wing cards) of the short-winged planes of ``n`` cards."""
        return [(k, n - 3 * k) for k in range(2, n // 3 + 1) if 1 <= n - 3 * k <= 2 * k - 1]

    def reads_size(self, n):
        return bool(self.shapes(n))

    def read(self, cards, counts):
        tri = {r for r, c in counts.items() if c == 3 and r <= ACE}
        for k, _wings in self.shapes(len(cards)):
            for window in ORDER.windows(k, False):
                rest = counts - Counter({r: 3 for r in window})
                if not tri.issuperset(window) or any(r in rest for r in window) or any(r in JOKERS for r in rest):
                    continue
                top = window[-1]
                detail = ORDER.run_text(window, top, 3) + " + " + _high_first(rest.elements())
                yield self.make("airplane_short", cards, (top,), detail, top=ORDER.name(top), triples=k)

    def candidates(self, hand, table, size, need):
        for k, wings in self.shapes(size):
            for window in ORDER.windows(k, False):
                if all(hand.have.get(r, 0) >= 3 for r in window):
                    avail = [(q, c) for q, c in hand.available(exclude=window) if q not in JOKERS]
                    for choice in multisets(avail, wings):
                        yield hand.take([(r, 3) for r in window] + list(choice))

    def leads(self, counts, level):
        tops = counts.powers if level is None else [p for p in counts.powers if p <= level]
        for body in _runs(counts, tops, 3, 2, LONGEST_RUN, False):
            k, exclude = len(body), {p for p, _ in body}
            avail = counts.units(level, exclude, keep=_natural)
            for wings in range(1, 2 * k):
                for att in attachments(avail, wings, level, body[0][0]):
                    yield 3 * k + wings, merged(body, att), None


#: 牌够只能三带二: the kinds a player may show only as its last play, and the full kind each answers
SHORT_TRIPLES = {"triple": "triple_two", "triple_single": "triple_two", "triple_run": "airplane",
                 "airplane_short": "airplane"}
SPADE_THREE = parse_cards("♠3")[0]


def _switched_on(value) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in {"true", "on", "y", "yes", "1"})


def _bare_in_a_run(cards, length: int = 5) -> bool:
    """Whether a bare rank sits in some run of ``length`` ranks these cards hold (A also low: A2345)."""
    steps = {1 if c.rank == ACE and low else c.rank for c in cards if not c.is_joker for low in (False, True)}
    bare = {1 if c.rank == ACE and low else c.rank for c in cards if c.is_bare for low in (False, True)}
    return any(all(r in steps for r in range(lo, lo + length)) and bare & set(range(lo, lo + length))
               for lo in range(1, 15 - length + 1))


def triples_in(reading: Reading) -> int:
    """How many triples a triple-based reading holds (the count a short last play must match)."""
    if reading.kind in ("triple", "triple_single", "triple_two"):
        return 1
    if reading.kind == "airplane_short":
        return reading.extra["triples"]
    return reading.size // (3 if reading.kind == "triple_run" else 5)


# --- the variants ------------------------------------------------------------------

class PaodekuaiSpec(SheddingSpec):
    """跑得快 (52 and 48 cards); :class:`ZhengshangyouSpec` is its 争上游 variant."""

    slug = "paodekuai"
    bare = True  # ranks alone ("7 7 8") where suits cannot matter; see suits_needed
    presets: tuple[str, ...] = (PDK52, PDK48, PDK45)
    low_runs = False  # may a run start A-2-3 / 2-3?
    bomb_sizes = frozenset({3, 4})
    pattern_types = (Bomb, SameRank, TripleWith, FourWithTwo, Straight, PairRun, TripleRun, TripleRunWith)
    page_order = (SameRank, TripleWith, Straight, PairRun, TripleRunWith, FourWithTwo, Bomb)
    turn_inputs = ("next_cards_left", "first_play")

    def suits_needed(self, cards, payload):
        """首出必带黑桃3: at the first play of a hand, a bare 3 may or may not be ♠3."""
        if self.rules.get("spade3_first") and _switched_on(payload.get("first_play")) \
                and SPADE_THREE not in cards and any(c.is_bare and c.rank == 3 for c in cards):
            return t("首出必带黑桃3：第一手里的3要写花色，例如「♠3 ♠4 ♥4」",
                     "the first play must hold ♠3: give the suit of each 3, such as “♠3 ♠4 ♥4”")
        return None

    def __init__(self, rules):
        self.full_kickers = bool(rules.get("full_kickers"))
        if self.full_kickers:  # the short-winged last plane exists only under this rule
            self.pattern_types = type(self).pattern_types + (ShortWingedPlane,)
        super().__init__(rules)

    def deck(self) -> Deck:
        return deck_for(self.rules)

    # --- house rules of the turn (rules/variants.md 6–8) ---------------------------
    def restricts(self, turn) -> bool:
        return self.full_kickers or bool(self.rules.get("baodan_max") and turn.next_cards_left == 1) or bool(
            self.rules.get("spade3_first") and turn.first_play)

    def forbids(self, play: Reading, turn) -> Text | None:
        if self.rules.get("spade3_first") and turn.first_play and SPADE_THREE not in play.cards:
            return t("首出必带黑桃3：这一局的第一手必须有♠3", "the first play of the hand must contain ♠3")
        if self.rules.get("baodan_max") and turn.next_cards_left == 1 and play.size == 1:
            return self.not_largest_single(play, turn.hand)
        if self.full_kickers and play.kind in SHORT_TRIPLES:
            return self.not_last_play(play, turn.hand)
        return None

    def forbids_cards(self, cards, turn) -> bool | None:
        """:meth:`forbids` for every reading of ``cards`` at once when the cards alone decide it (the hint
        then reads none of them): True forbidden, False allowed, None when it depends on the reading."""
        if self.rules.get("spade3_first") and turn.first_play and SPADE_THREE not in cards:
            return True
        if len(cards) == 1 or (self.full_kickers and len(cards) != len(turn.hand)):
            return None  # 报单必出最大 asks a single's rank; 牌够只能三带二 a play's kind (unless it is the whole hand)
        return False

    def not_largest_single(self, play: Reading, hand) -> Text | None:
        """报单必出最大: with the next player on one card a single must be of the highest rank held."""
        if hand is None:
            raise InvalidInput(t("报单必出最大：下家报单时判断单张需要填写手牌",
                                 "next player on one card: checking a single needs the hand"),
                               field="hand", code="hand_required")
        top = max(hand, key=self.order)
        if self.order(play.cards[0]) < self.order(top):
            return t("下家报单，单张必须出手里最大的（{r}）", "the next player is on one card: a single must be your "
                     "largest ({r})", r=ORDER.name(top.rank))
        return None

    @staticmethod
    def not_last_play(play: Reading, hand) -> Text | None:
        """牌够只能三带二: a short triple only as the whole remaining hand."""
        if hand is not None and Counter(hand) == Counter(play.cards):
            return None
        why = t("（没填手牌，看不出是不是最后一手）", " (no hand given: cannot tell it is the last play)") if hand is None \
            else t("", "")
        return t("牌够只能三带二：{r} 只能作为最后一手出完{w}", "triples carry two while you can: {r} only as your "
                 "last play{w}", r=play.label, w=why)

    def beats(self, play: Reading, table: Reading) -> bool:
        """Under 牌够只能三带二 a short last play also beats the full pattern of as many triples with a lower top."""
        if super().beats(play, table):
            return True
        return (self.full_kickers and not table.is_bomb and SHORT_TRIPLES.get(play.kind) == table.kind
                and triples_in(play) == triples_in(table) and play.key > table.key)

    def candidates(self, hand, table, size, need=None):
        if self.full_kickers and table is not None and size == len(hand):  # a last play may answer a full one
            groups = self.grouped(hand)
            for pattern in self.patterns:
                yield from pattern.candidates(groups, table, size, need)
            return
        yield from super().candidates(hand, table, size, need)

    def max_hand(self) -> int:
        return PRESETS[self.rules.preset]["dealt"]

    def triple_is_bomb(self, rank: int) -> bool:
        return rank == ACE

    def sorted_readings(self, readings):
        out = distinct_readings(readings)
        out.sort(key=lambda r: (r.is_bomb, _PRIORITY[r.kind], r.key), reverse=True)
        return out

    def why_not(self, play: Reading, table: Reading) -> Text | None:
        if play.is_bomb and table.is_bomb and play.extra.get("kickers", 0) != table.extra.get("kickers", 0):
            return t("炸弹带牌张数不同（桌上带{a}张，这手带{b}张），管不上",
                     "the bombs carry different numbers of kicker cards (table {a}, this play {b}): no beat",
                     a=table.extra.get("kickers", 0), b=play.extra.get("kickers", 0))
        if table.kind == "straight_flush" and play.kind == "straight" and play.size == table.size:
            return t("普通顺子管不上同花顺", "a plain straight never beats a straight flush")
        return None

    def sizes(self, hand, table):
        if table is None:
            return range(1, len(hand) + 1)
        last = {len(hand)} if self.full_kickers else set()  # the whole hand, as a short last play
        return sorted(self.bomb_sizes | {table.size} | last)

    def no_pattern(self, cards) -> Text:
        ranks = [c.rank for c in cards]
        if len(cards) >= 5 and len(set(ranks)) == len(ranks) and 2 in ranks and not any(
                c.is_joker for c in cards) and ORDER.run_top(ranks, self.low_runs) is None:
            return self.two_in_a_run(format_cards(cards, self.sort_key()))
        return super().no_pattern(cards)

    @staticmethod
    def two_in_a_run(text: str) -> Text:
        return t("「{c}」不成牌型：跑得快的顺子里不能有2", "“{c}” is no pattern: 2 is never part of a straight here",
                 c=text)

    def pattern_texts(self) -> list[Text]:
        """The rules page's lines, one per pattern in :attr:`page_order`."""
        by_type = {type(p): p for p in self.patterns}
        return [by_type[kind].describe() for kind in self.page_order]


class ZhengshangyouSpec(PaodekuaiSpec):
    """争上游: two packs with jokers; straight flushes, low runs, triple runs with attachments, bigger bombs."""

    presets = (ZSY,)
    low_runs = True
    bomb_sizes = frozenset(range(4, 13))
    pattern_types = (ZsyBomb, ZsySameRank, ZsyTripleWith, ZsyStraight, StraightFlush, ZsyPairRun, TripleRun,
                     TripleRunSingles, TripleRunPairs)
    page_order = (ZsySameRank, ZsyTripleWith, ZsyPairRun, TripleRunSingles, ZsyStraight, StraightFlush, ZsyBomb)

    def __init__(self, rules):
        super().__init__(rules)
        self._last_flush: tuple = (None, None)

    def triple_is_bomb(self, rank: int) -> bool:
        return False

    def suits_needed(self, cards, payload):
        """争上游 has straight flushes: bare ranks that could join a run of five need their suits."""
        if _bare_in_a_run(cards):
            return t("争上游有同花顺：能连成顺子的牌要写花色，例如「♥3 ♥4 ♥5 ♥6 ♥7」",
                     "争上游 has straight flushes: cards that could make a straight need their suits, "
                     "such as “♥3 ♥4 ♥5 ♥6 ♥7”")
        return super().suits_needed(cards, payload)

    def flush_suit(self, cards):
        """The suit of a card set of one suit, else None (kept for the last set: its straight patterns ask in turn)."""
        last, suit = self._last_flush
        if last is not cards or type(cards) is not tuple:
            suit = _flush_suit(cards)
            self._last_flush = (cards, suit)
        return suit

    def identity(self, cards):
        ranks = tuple(sorted(c.rank for c in cards))
        if len(ranks) >= 5 and len(set(ranks)) == len(ranks) and _flush_suit(cards) is not None \
                and ORDER.run_top(ranks, True):
            return ranks, cards[0].suit
        return ranks

    @staticmethod
    def two_in_a_run(text: str) -> Text:
        return t("「{c}」不成牌型：2在顺子里只能当小牌（A2345、23456），顺子不能绕圈（QKA23 不行）",
                 "“{c}” is no pattern: in a run 2 is only low (A2345, 23456) and runs never wrap "
                 "(QKA23 is none)", c=text)


VARIANTS = {preset: variant for variant in (PaodekuaiSpec, ZhengshangyouSpec) for preset in variant.presets}


def find_variant(preset: str) -> type[PaodekuaiSpec]:
    """The spec class of a preset (python-chess style: variants are subclasses found by name)."""
    return VARIANTS[preset]


spec_for = spec_cache(lambda rules: find_variant(rules.preset)(rules))


def sort_key_for(rules):
    return spec_for(rules).sort_key()


def pattern_texts(rules) -> list[Text]:
    """The patterns of a preset, for the rules page."""
    return spec_for(rules).pattern_texts()


# ==========================================================================
# Settlement
# ==========================================================================

def multiplier(left: int, dealt: int) -> tuple[int, Text]:
    played = dealt - left
    if played == 0:
        return 4, t("一张没出", "played nothing")
    if played * 4 < dealt:
        return 3, t("出了{p}张，不到四分之一", "played {p}, under a quarter", p=played)
    if played * 2 < dealt:
        return 2, t("出了{p}张，不到一半", "played {p}, under half", p=played)
    return 1, t("出了{p}张，过半", "played {p}, half or more", p=played)


def _dealt(ctx) -> int:
    return PRESETS[ctx.rules.preset]["dealt"]


def _bomb_row(row, ctx, path: str, label: Text) -> InvalidInput | None:
    """A bomb entered with its cards: the cards must be a bomb under the table's preset and options."""
    cards = row.get("cards")
    if not cards or any(r.is_bomb for r in spec_for(ctx.rules).readings(cards)):
        return None
    return InvalidInput(t("{f}：「{c}」在这些规则下不是炸弹", "{f}: “{c}” is not a bomb under these rules",
                          f=label, c=format_cards(cards)), field=f"{path}.cards", code="not_a_bomb")


SETTLE_INPUT = Schema((
    SeatField("winner", t("先出完的人", "who went out first")),
    PerSeatField("cards_left", t("剩余张数", "cards left"), short=t("张数", "left"),
                 item=IntField("cards_left", t("剩余张数", "cards left"), lo=0, hi=_dealt), entry="cards_left",
                 zero_at="winner"),
    RowsField("bombs", t("炸弹", "bombs"), row_label=t("炸弹{n}", "bomb {n}"), max_rows=_dealt,
              fields=(SeatField("seat", t("谁打的", "whose bomb")),
                      CardsField("cards", t("牌", "cards"), required=False)),
              check_row=_bomb_row, help=t("计分的炸弹，每个一行", "the bombs that score, one row each"),
              shown_when=lambda rules: rules.bomb_points > 0),
    SeatField("heart10", t("红桃10在谁手里", "who was dealt ♥10"), required=False,
              shown_when=lambda rules: rules.zhaniao is not Zhaniao.OFF),
    SeatField("let_go", t("谁放走了赢家", "who let the winner go"), required=False,
              help=t("报单放走包赔：没人放走就留空", "包赔: leave empty when nobody let the winner go"),
              shown_when=lambda rules: rules.baopei),
))


def _check_cards_left(winner: int, left: Sequence[int], dealt: int) -> None:
    """Only the winner has 0 cards left; everyone else 1 … the deal."""
    label = SETTLE_INPUT.field("cards_left").label
    problems = []
    for i, n in enumerate(left):
        if i == winner and n != 0:
            problems.append(InvalidInput(t("赢家{s}应剩0张，填的是{n}张", "the winner, {s}, must have 0 cards left, not {n}",
                                           s=seat_name(winner), n=n), field=f"cards_left[{i}]",
                                         code="winner_has_cards"))
        elif i != winner and not 1 <= n <= dealt:
            problems.append(InvalidInput(t("{s}的{f}为{n}：只有赢家剩0张，其他人剩1到{d}张",
                                           "{f} of {s} is {n}: only the winner has 0, every other player 1 to {d}",
                                           s=seat_name(i), f=label, n=n, d=dealt), field=f"cards_left[{i}]",
                                         code="out_of_range"))
    if problems:  # the winner's own box first: it is the one most likely mistyped
        raise InputErrors(sorted(problems, key=lambda e: e.code != "winner_has_cards"))


def _check_house_inputs(values, rules) -> None:
    """The seats the house rules need: ♥10's holder under 扎鸟, a loser as who let the winner go."""
    problems = []
    if rules.zhaniao is not Zhaniao.OFF and values.heart10 is None:
        problems.append(InvalidInput(t("红桃10扎鸟：请填「{f}」", "♥10 bird (扎鸟): give “{f}”",
                                       f=SETTLE_INPUT.field("heart10").label), field="heart10",
                                     code="heart10_required"))
    if rules.baopei and values.let_go is not None and values.let_go == values.winner:
        problems.append(InvalidInput(t("「{f}」是{s}，可{s}是赢家：放走赢家的只能是输家",
                                       "“{f}” is {s}, the winner: only a loser can let the winner go",
                                       f=SETTLE_INPUT.field("let_go").label, s=seat_name(values.let_go)),
                                     field="let_go", code="let_go_is_winner"))
    if problems:
        raise InputErrors(problems)


def card_payment(seat: int, left: int, dealt: int, rules) -> tuple[int, Text]:
    """What one loser pays for the cards it holds (before 扎鸟 and 包赔), and the step saying why."""
    stake = rules.stake
    if rules.penalty is Penalty.SEED:
        mult, why = multiplier(left, dealt)
        pay = left * mult * stake
        return pay, t("{s}：剩{n}张，{why} ×{m} ×底分{st} = −{p}", "{s}: {n} left, {why} ×{m} × stake {st} = −{p}",
                      s=seat_name(seat), n=left, why=why, m=mult, st=stake, p=pay)
    if left == 1 and rules.baoben:
        return 0, t("{s}：只剩1张（报单），不付 = 0", "{s}: 1 card left (last card called), pays nothing = 0",
                    s=seat_name(seat))
    if left == dealt:
        pay = left * 2 * stake
        return pay, t("{s}：剩{n}张，一张没出（全关）×2 ×底分{st} = −{p}",
                      "{s}: {n} left, played nothing (shut out) ×2 × stake {st} = −{p}",
                      s=seat_name(seat), n=left, st=stake, p=pay)
    pay = left * stake
    return pay, t("{s}：剩{n}张 ×底分{st} = −{p}", "{s}: {n} left × stake {st} = −{p}",
                  s=seat_name(seat), n=left, st=stake, p=pay)


def _bird_doubles(seat: int, winner: int, holder: int | None) -> bool:
    """扎鸟: a payment to or from the ♥10 holder is doubled."""
    return holder is not None and holder in (seat, winner)


def card_payments(values, rules, dealt: int, steps: list[Text]) -> dict[int, int]:
    """Steps 1–2 of the pipeline: each loser's card payment, doubled by 扎鸟 where the ♥10 holder is in it."""
    holder = values.heart10 if rules.zhaniao is not Zhaniao.OFF else None
    if values.heart10 is not None and holder is None:
        steps.append(t("扎鸟未开：不用红桃10在谁手里", "扎鸟 off: who held ♥10 is not used"))
    if not rules.baoben and rules.penalty is Penalty.SEED:
        penalty = RULESET.option("penalty")
        steps.append(t("「{b}」只用于「{p}」；按「{s}」，只剩1张也照付",
                       "“{b}” applies to “{p}” only; under “{s}” a 1-card loser pays 1 × multiplier anyway",
                       b=RULESET.option("baoben").label, p=penalty.value_label("per_card"),
                       s=penalty.value_label("seed")))
    pays = {}
    for i, n in enumerate(values.cards_left):
        if i == values.winner:
            continue
        pays[i], step = card_payment(i, n, dealt, rules)
        steps.append(step)
        if _bird_doubles(i, values.winner, holder):
            pays[i] *= 2
            steps.append(t("{s}：红桃10扎鸟：×2 = −{p}", "{s}: ♥10 bird (扎鸟): ×2 = −{p}", s=seat_name(i), p=pays[i]))
    return pays


def pay_cards(values, rules, pays: dict[int, int], deltas: list[int], steps: list[Text]) -> None:
    """Step 3: the card payments go to the winner, all from ``let_go`` under 包赔."""
    winner, let_go = values.winner, values.let_go
    if let_go is not None and not rules.baopei:
        steps.append(t("包赔未开：不用「放走的人」", "包赔 off: let_go not used"))
        let_go = None
    if let_go is not None:
        total = sum(pays.values())
        steps.append(t("报单放走包赔：{s}替所有输家付 {p}", "let-go pays all (包赔): {s} pays every loser's {p}",
                       s=seat_name(let_go), p=total))
        pays = {let_go: total}
    for i, pay in pays.items():
        deltas[i] -= pay
        deltas[values.winner] += pay
    steps.append(t("{s}先出完，收 {p}", "{s} went out first and collects {p}", s=seat_name(winner),
                   p=sum(pays.values())))


def pay_bombs(values, rules, deltas: list[int], steps: list[Text]) -> None:
    """Step 4: each bomb entered is paid by every other seat (×2 to or from ♥10's holder under 扎鸟 all)."""
    if not values.bombs:
        return
    points = rules.bomb_points * rules.stake
    if not points:
        steps.append(t("炸弹分为0：记下的炸弹不计分", "bomb points 0: the bombs entered score nothing"))
        return
    holder = values.heart10 if rules.zhaniao is Zhaniao.ALL else None
    for bomb in values.bombs:
        got = 0
        for payer in range(len(deltas)):
            if payer == bomb.seat:
                continue
            pay = points * (2 if _bird_doubles(payer, bomb.seat, holder) else 1)
            deltas[payer] -= pay
            got += pay
        deltas[bomb.seat] += got
        steps.append(t("{s}的炸弹：其他每人付 炸弹分{b} ×底分{st}{x}，共收 {p}",
                       "{s}'s bomb: every other player pays bomb points {b} × stake {st}{x}, {p} in all",
                       s=seat_name(bomb.seat), b=rules.bomb_points, st=rules.stake, p=got,
                       x=t("（红桃10扎鸟：与红桃10有关的 ×2）", " (♥10 bird: ×2 to or from the holder)")
                       if holder is not None else t("", "")))


def settle(values, rules) -> dict:
    dealt = PRESETS[rules.preset]["dealt"]
    _check_cards_left(values.winner, values.cards_left, dealt)
    _check_house_inputs(values, rules)
    deltas = [0] * len(values.cards_left)
    steps: list[Text] = []
    pays = card_payments(values, rules, dealt, steps)
    pay_cards(values, rules, pays, deltas, steps)
    pay_bombs(values, rules, deltas, steps)
    return settlement(deltas, steps, dealt=dealt)


ACTIONS = shedding_actions(spec_for)


class Paodekuai(Game):
    slug = "paodekuai"
    name = t("跑得快 / 争上游", "Paodekuai / Zhengshangyou")
    kind = "shedding"
    summary = t("先出完手牌的人赢，输家按剩牌数付分", "first to play out all cards wins; losers pay by the cards they hold")
    ruleset = RULESET
    settle_input = SETTLE_INPUT
    bare_ranks = True  # settle cards (bombs) are same-rank: suits never matter there
    deck_of = staticmethod(deck_for)
    action_table = ACTIONS
    settle_of = staticmethod(settle)
    turn_inputs = PaodekuaiSpec.turn_inputs

    def seat_range(self, rules=None):
        players = PRESETS[self.ruleset.resolve(rules).preset]["players"]
        return (players, players)

    def preset_for_seats(self, seats, rules=None):
        """The first preset for that many players (3: the 48-card game) when these rules have another count."""
        if self.seat_range(rules)[0] == seats:
            return None
        return next((p for p in self.ruleset.presets if PRESETS[p.name]["players"] == seats), None)


GAME = Paodekuai()
