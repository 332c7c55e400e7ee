"""双扣 (``rules/shuangkou.md``) on the shedding core.

Four players, partners opposite, two packs (108 cards), 27 each. Suits never
matter: bare ranks are accepted and plays are told apart by their ranks only.
Rank order 3 < … < A < 2 < 小王 < 大王.

Jokers are wild (house rule ``wild``: both / only 大王 / none) when played with
at least one natural card; alone they are themselves (single, pair of
identical jokers, 三王, 天王). :meth:`ShuangkouSpec.readings` gives every
distinct reading of a card set, largest first; a play beats the table when
any of its readings does.

Readings made here where the spec is silent:

* the table's play is read as its largest reading (``previous_reading``
  picks another);
* a joker stands for a card of the two packs: no rank has more than 8
  (X of a kind and every chain group are at most 8);
* chains with a 2 (``chain_with_two``) are ordered among themselves by their
  last rank around the wrap (KA2 < A23 < 234), all below the normal chains;
* with ``uneven_chain`` every group has 4–8 cards, and every possible
  smallest group X is a reading (the largest first);
* bombs in ``settle`` given as cards are read as their largest bomb reading;
  all the bombs of a hand together must fit in the two packs.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from .cards import ACE, BIG_JOKER, LITTLE_JOKER, Card, Deck, format_cards, parse_cards, rank_name
from .errors import InputErrors, InvalidInput, MalformedInput, PaijuError
from .games import Game, settlement
from .i18n import Text, join, seat_name, t
from .inputs import CardsField, IntField, RowsField, Schema, SeatField, SeatOrderField
from .rules import Choice, Option, Preset, RuleSet, switch
from .shedding import STANDARD, Pattern, Reading, SheddingSpec, distinct_readings, probe, shedding_actions, spec_cache

JOKERS = (BIG_JOKER, LITTLE_JOKER)
MAX_PLAY = 27
MAX_COPIES = 8
MIN_LINES, MAX_LINES = 4, 11  # 4 of a kind … 8线3连环
MAX_KIND_OVER_EIGHT = 12  # wild_over_eight: 8 of a kind and 4 wild jokers (十二相)

# ==========================================================================
# House rules
# ==========================================================================

class Wild(Choice):
    BOTH = "both"  # all four jokers
    BIG = "big"    # 大王 only (百变)
    NONE = "none"


class SameLines(Choice):
    FEWER_CARDS = "fewer_cards"    # equal lines: fewer cards win, then the rank
    FIRST_PLAYED = "first_played"  # equal lines never beat


class Contribution(Choice):
    SEED = "seed"          # +6 / +18 / +30
    ONE_THREE_FIVE = "1-3-5"
    DOUBLING = "doubling"  # 2^(lines−4) from each other player


class Pingkou(Choice):
    TABLE = "table"  # +1 −1 −1 +1
    DRAW = "draw"


RULESET = RuleSet(
    options=(
        Option("wild", Wild.BOTH, tuple(Wild), t("百搭（王当任意牌）", "Wild jokers"),
               t("「大小王都百搭」：四个王都可当任意牌；「只有大王百搭」（百变）：只有大王可以；「王不百搭」：王不当别的牌。王单独出时就是王本身。",
                 "“both jokers”: all four jokers stand for any card; “only the big joker” (百变): only 大王; “no wild jokers”: jokers are never wild. "
                 "Played alone, jokers are themselves."),
               value_labels={Wild.BOTH: t("大小王都百搭", "both jokers"), Wild.BIG: t("只有大王百搭", "only the big joker"),
                             Wild.NONE: t("王不百搭", "no wild jokers")}),
        Option("same_lines", SameLines.FEWER_CARDS, tuple(SameLines), t("线数相同的炸弹", "Bombs of equal lines"),
               t("「张数少的大」：线数相同时张数少的大，再比点数（原文正文）；「先出的大」：线数相同谁先出谁大，只有线数更多才能管",
                 "“fewer cards win”: with equal lines the bomb with fewer cards wins, then the higher rank (the source’s main "
                 "text); “the first played wins”: equal lines never beat, only more lines do"),
               value_labels={SameLines.FEWER_CARDS: t("张数少的大", "fewer cards win"),
                             SameLines.FIRST_PLAYED: t("先出的大", "the first played wins")}),
        switch("chain_with_two", t("连环炸弹可以带2", "Chain bombs may hold 2"),
               t("2 可以进连环炸弹并可绕圈（A23…）；带2的连环是同线数、同张数中最小的",
                 "2 may appear in chain bombs, wrapping (A23…); such a chain is the lowest of its lines and size")),
        switch("uneven_chain", t("连环各组张数可不同（千变）", "Uneven chain groups (千变)"),
               t("连环炸弹各组张数可以不同，以最少的一组为线数 X", "a chain's groups may differ in size; X is the smallest group")),
        Option("cap_lines", 8, tuple(range(8, 13)), t("翻倍封顶线数", "Doubling cap (lines)"),
               t("赢方最大的炸弹 5线×2、6线×4、7线×8，每多一线再翻倍，到这个线数为止（原文到8线×16）",
                 "the winners' largest bomb: 5 lines ×2, 6 ×4, 7 ×8, doubling for every further line up to this "
                 "cap (the source stops at 8 lines ×16)")),
        Option("contribution", Contribution.SEED, tuple(Contribution), t("贡献分", "Bomb contribution"),
               t("6线及以上的炸弹当即从其他每人收分：6线 +6/每人−2，7线 +18/−6，8线及以上 +30/−10（中国手机游戏新闻网）；"
                 "或 +3/−1、+9/−3、+15/−5（779游戏大厅千变双扣页的正文）；或每多一线翻倍，其他每人付 2^(线数−4)："
                 "6线4、7线8 … 12线256，不受封顶限制（温州双扣服务端 hangzhouanbang/qipai_wenzhoushuangkou 的贡献分表）",
                 "every bomb of 6 lines or more pays at once: 6 lines +6 / −2 from each other player, 7 lines +18/−6, "
                 "8 or more +30/−10 (中国手机游戏新闻网); or +3/−1, +9/−3, +15/−5 (the text of the 779 game hall's "
                 "千变双扣 page); or doubling with every line, each other player paying 2^(lines−4): 6 lines 4, "
                 "7 lines 8 … 12 lines 256, never capped (the contribution table of a Wenzhou 双扣 server, "
                 "hangzhouanbang/qipai_wenzhoushuangkou)"),
               value_labels={Contribution.SEED: t("6线+6、7线+18、8线+30（中国手机游戏新闻网）",
                                       "6 lines +6, 7 lines +18, 8+ lines +30 (中国手机游戏新闻网)"),
                             Contribution.ONE_THREE_FIVE: t("6线+3、7线+9、8线+15（779游戏大厅）", "6 lines +3, 7 lines +9, 8+ lines +15 (779 game hall)"),
                             Contribution.DOUBLING: t("每多一线翻倍（温州）", "doubling with every line (Wenzhou)")}),
        Option("pingkou", Pingkou.TABLE, tuple(Pingkou), t("平扣", "Pingkou (1st and 4th partners)"),
               t("「按表计分」：+1 −1 −1 +1；「算平局」：打和，贡献分之前都是0。平扣时先出完的一方仍按赢方算翻倍（解读）",
                 "“scored by the table”: +1 −1 −1 +1; “a draw”: a draw, all 0 before contributions. In 平扣 the team of the first "
                 "player out still counts as the winners for the multiplier (reading)"),
               reading=True,
               value_labels={Pingkou.TABLE: t("按表计分", "scored by the table"), Pingkou.DRAW: t("算平局", "a draw")}),
        Option("min_triple_run", 3, (3, 2), t("连三张最少几连", "Shortest triple run"),
               t("原文“三个或三个以上”；可改为2（555666）", "the source says three or more triples; 2 allows 555666")),
        switch("wild_over_eight", t("王补成九相以上", "Wild jokers past eight of a kind"),
               t("百搭王和1到8张同点数的牌一起出，补成九相、十相……最多十二相（8张加4个王，只有大王百搭时最多十相）；"
                 "线数 = 张数，炸弹线数可填到12（779游戏大厅千变双扣页：“44444444大王——九相4”“十二相：八张同点数的牌加四张王”；"
                 "温州双扣服务端也算到12线）",
                 "wild jokers played with 1 to 8 cards of one rank make nine, ten … up to twelve of a kind (8 cards and "
                 "4 jokers; ten when only 大王 is wild); lines = cards, and a bomb's lines may be entered up to 12 "
                 "(the 779 game hall's 千变双扣 page: “44444444大王 — nine of a kind”, “twelve: eight of a rank and "
                 "four jokers”; a Wenzhou 双扣 server counts up to 12 lines too)")),
    ),
    presets=(
        Preset("seed", t("中国手机游戏新闻网《双扣比赛》", "中国手机游戏新闻网 (双扣比赛 page)"),
               help=t("这篇规则的正文：四个王都百搭，连环炸弹不带2", "that page’s main text: all four jokers wild, no 2 in chains")),
        Preset("baibian", t("百变", "Baibian"), {"wild": Wild.BIG, "chain_with_two": True},
               help=t("只有大王百搭；连环炸弹可以带2", "only 大王 is wild; chains may hold 2")),
        Preset("qianbian", t("千变", "Qianbian"), {"wild": Wild.BOTH, "uneven_chain": True},
               help=t("四个王百搭；连环各组张数可不同", "all four jokers wild; chain groups may differ in size")),
    ),
)

DECK = Deck(2, jokers=True, name=t("两副牌（108张）", "two packs (108)"))


def deck_for(rules) -> Deck:
    return DECK


ORDER = STANDARD
power = ORDER.power  # 3 … K A 2 小王 大王 as 3 … 17
P_LITTLE, P_BIG = power(LITTLE_JOKER), power(BIG_JOKER)
POWERS = ORDER.table  # rank → power, a plain dict for the hint's inner loops


def wild_ranks(rules) -> tuple[int, ...]:
    return {"both": JOKERS, "big": (BIG_JOKER,), "none": ()}[rules.wild]


def most_of_a_kind(rules) -> int:
    """The most cards of an X-of-a-kind bomb: 8, or 12 with ``wild_over_eight`` (the wild jokers cap it)."""
    return MAX_KIND_OVER_EIGHT if rules.wild_over_eight else MAX_COPIES


def max_lines(rules) -> int:
    """The most lines a settle row may give: 11 (8线3连环), 12 with ``wild_over_eight`` (十二相)."""
    return MAX_KIND_OVER_EIGHT if rules.wild_over_eight else MAX_LINES


# ==========================================================================
# Readings
# ==========================================================================

KIND_NAMES = {
    "single": t("单张", "single"),
    "pair": t("对子", "pair"),
    "triple": t("三张", "triple"),
    "straight": t("顺子", "straight"),
    "pair_run": t("连对", "pair run"),
    "triple_run": t("连三张", "triple run"),
    "bomb": t("炸弹", "bomb"),
    "three_jokers": t("三王", "three jokers"),
    "four_jokers": t("天王", "four jokers"),
    "chain": t("连环炸弹", "chain bomb"),
}
_PRIORITY = {"single": 0, "pair": 1, "triple": 2, "straight": 3, "pair_run": 4, "triple_run": 5}
_SAME = {1: "single", 2: "pair", 3: "triple"}
MIN_CHAIN, MAX_CHAIN = 3, 6  # ranks in a chain bomb
MAX_RUN = 12  # ranks in a straight or run (3 … A)


def make_reading(kind: str, cards: Sequence[Card], key: tuple, shown: Sequence[int], wild_as: Sequence[int] = (),
                 lines: int | None = None, chain: tuple[int, int] | None = None, top: int | None = None) -> Reading:
    """One reading; ``shown`` are the ranks the cards stand for, ``wild_as`` what the jokers stand for."""
    n = len(cards)
    desc = ORDER.names(shown)
    if chain:
        name = t("{x}线{y}连环", "{x}-line {y}-chain", x=chain[0], y=chain[1])
    else:
        name = KIND_NAMES[kind]
    if lines is not None:
        label = t("{k}（{l}线）：{d}", "{k} ({l} lines): {d}", k=name, l=lines, d=desc)
    else:
        label = t("{k}：{d}", "{k}: {d}", k=name, d=desc)
    extra = {"top": rank_name(top) if top is not None else None, "as": desc}
    if wild_as:
        label = label + t("（王当 {w}）", " (jokers as {w})", w=ORDER.names(wild_as))
        extra["wild_as"] = [rank_name(r) for r in wild_as]
    if lines is not None:
        extra["lines"] = lines
    if chain:
        extra["chain"] = {"x": chain[0], "y": chain[1]}
    return Reading(kind, label, key, n, lines is not None, tuple(cards), extra)


def _bomb_key(lines: int, n: int, top: int, special: bool = False) -> tuple:
    """Bombs compare by lines, then 三王/天王 lowest of their lines, then fewer cards, then the top."""
    return (lines, 0 if special else 1, -n, top)


def lines_of(bomb: Reading) -> int:
    return bomb.key[0]


def _chain_windows(y: int, rules) -> list[tuple[list[int], int]]:
    """(ranks, top) of every chain of ``y`` consecutive ranks; chains with 2 wrap and rank lowest."""
    return _CHAIN_WINDOWS[(y, bool(rules.chain_with_two))]


def _make_chain_windows(y: int, with_two: bool) -> list[tuple[list[int], int]]:
    windows = ORDER.windows(y) + (ORDER.wrapping_windows(y) if with_two else [])
    return [(w, w[-1]) for w in windows]


_CHAIN_WINDOWS = {(y, w): _make_chain_windows(y, w) for y in range(MIN_CHAIN, MAX_CHAIN + 1) for w in (False, True)}


def _groups_for(window, nat, n, x) -> list[int]:
    """Group sizes for a reading with smallest group ``x``: the spare jokers go to the lowest groups."""
    groups = [max(nat.get(r, 0), x) for r in window]
    spare = n - sum(groups)
    # keep one group at exactly x; fill the others up to 8
    keep = next(i for i, r in enumerate(window) if nat.get(r, 0) <= x)
    for i in range(len(groups)):
        if i == keep:
            continue
        add = min(spare, MAX_COPIES - groups[i])
        groups[i] += add
        spare -= add
    return groups


def _chain_xs(window, nat, n, y, uneven: bool) -> list[int]:
    """Every X (smallest group) this window allows, largest first."""
    if not uneven:
        if n % y:
            return []
        x = n // y
        return [x] if 4 <= x <= MAX_COPIES and all(nat.get(r, 0) <= x for r in window) else []
    low = min(nat.get(r, 0) for r in window)
    return [x for x in range(MAX_COPIES, 3, -1)
            if low <= x and sum(max(nat.get(r, 0), x) for r in window) <= n <= x + MAX_COPIES * (y - 1)]


def _chain_reading(window, top, y, cards, nat, x, key) -> Reading:
    groups_ = _groups_for(window, nat, len(cards), x)
    shown = [r for r, g in zip(window, groups_) for _ in range(g)]
    fill = [r for r, g in zip(window, groups_) for _ in range(g - nat.get(r, 0))]
    return make_reading("chain", cards, key, shown, fill, lines=x + y, chain=(x, y), top=top)


# ==========================================================================
# The hand a hint draws from (the fast path: readings are built from templates)
# ==========================================================================

def _groups(hand: Sequence[Card]) -> tuple[dict[int, list[Card]], dict[int, int], dict]:
    """Cards by rank (canonical order, highest first), how many of each natural rank, and a memo for this hand."""
    groups: dict[int, list[Card]] = {}
    for c in sorted(hand, key=ORDER.sort_key):
        groups.setdefault(c.rank, []).append(c)
    return groups, {r: len(g) for r, g in groups.items() if r not in JOKERS}, {}


class _Draw:
    """One question of the hint (hand, table, size, need): the naturals, the wild jokers and their choices.

    A pattern describes a *template* (ranks and how many of each); the draw says
    which natural cards and jokers can fill it, and keeps only the templates whose
    reading beats the table (asked of the pattern's own ``beats``).
    """

    def __init__(self, spec: "ShuangkouSpec", prep, table: Reading | None, size: int, need: int | None):
        self.groups, self.have, self.memo = prep
        self.table, self.size = table, size
        wild = spec.wild
        self.big = self.groups.get(BIG_JOKER, []) if BIG_JOKER in wild else []
        self.little = self.groups.get(LITTLE_JOKER, []) if LITTLE_JOKER in wild else []
        self.budget = len(self.big) + len(self.little)
        needed = None if need is None else ORDER.rank_of_power(need)  # the lead's level, as a rank
        self.need_joker = needed if needed in JOKERS else None
        self.need_rank = None if needed in JOKERS else needed
        self._splits: dict[int, list] = {}
        self._kept: dict[tuple, bool] = {}

    def keeps(self, pattern: Pattern, kind: str, key: tuple) -> bool:
        """Does a play of this template beat the table (a lead: always)? Asked once a kind and key."""
        if self.table is None:
            return True
        kept = self._kept.get((kind, key))
        if kept is None:
            kept = self._kept[kind, key] = pattern.beats(probe(kind, key, self.size, pattern.bomb), self.table)
        return kept

    def splits(self, k: int) -> list[tuple[tuple[Card, ...], tuple[int, ...]]]:
        """Every way to choose ``k`` wild jokers (大王 first), honouring a needed joker: (jokers, their powers)."""
        if k not in self._splits:
            out = []
            for b in range(min(k, len(self.big)), -1, -1):
                n_little = k - b
                if n_little > len(self.little):
                    break
                if (self.need_joker == BIG_JOKER and b == 0) or (self.need_joker == LITTLE_JOKER and n_little == 0):
                    continue
                out.append((tuple(self.big[:b] + self.little[:n_little]), (P_BIG,) * b + (P_LITTLE,) * n_little))
            self._splits[k] = out
        return self._splits[k]

    def fills(self, window: Sequence[int], widths: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
        """(naturals used per rank, jokers needed) for a template, at least one natural card."""
        m, found, acc = len(window), [], [0] * len(window)

        def rec(i: int, deficit: int):
            if i == m:
                if deficit < self.size:
                    found.append((tuple(acc), deficit))
                return
            r, g = window[i], widths[i]
            most = min(self.have.get(r, 0), g)
            least = max(0, g - (self.budget - deficit))
            if r == self.need_rank:
                least = max(least, 1)
            for u in range(most, least - 1, -1):
                acc[i] = u
                rec(i + 1, deficit + g - u)
            acc[i] = 0

        rec(0, 0)
        del rec  # a nested function that calls itself is a reference cycle (it would wait for the GC): break it
        return found

    def naturals(self, window: Sequence[int], used: Sequence[int]) -> tuple[tuple[Card, ...], tuple[int, ...]]:
        """The natural cards of a template and their powers high to low (with the jokers' before them, a
        candidate's identity and smallest-play order: the search need not sort them again)."""
        cards = tuple([c for r, u in zip(window, used) if u for c in self.groups[r][:u]])
        powers: tuple[int, ...] = ()
        for p, u in sorted([(POWERS[r], u) for r, u in zip(window, used) if u], reverse=True):
            powers += (p,) * u
        return cards, powers

    def emit(self, pattern: Pattern, window, widths, kind: str, key: tuple, make):
        """Every candidate of one template; ``make(cards, fill)`` builds its reading when it is kept."""
        if self.need_rank is not None and self.need_rank not in window:
            return
        if not self.keeps(pattern, kind, key):
            return
        for used, k in self.fills(window, widths):
            splits = self.splits(k)
            if not splits:
                continue
            fill = [r for r, g, u in zip(window, widths, used) for _ in range(g - u)] if k else []
            nat_cards, nat_powers = self.naturals(window, used)
            for jokers, powers in splits:
                cards = nat_cards + jokers
                yield cards, (lambda cards=cards, fill=fill: make(cards, fill)), powers + nat_powers


# ==========================================================================
# Patterns
# ==========================================================================

class _Bomb(Pattern):
    """A bomb beats every plain play; bombs by lines, then (``fewer_cards``) fewer cards, then the top."""

    bomb = True

    def __init__(self, spec):
        super().__init__(spec)
        self.first_played = self.rules.same_lines is SameLines.FIRST_PLAYED  # equal lines never beat

    def beats(self, play, table):
        if not table.is_bomb:
            return True
        if self.first_played:
            return lines_of(play) > lines_of(table)
        return play.key > table.key


class JokersAlone(_Bomb):
    """Jokers played alone are themselves: a single, a pair of one joker, 三王 (6 lines), 天王 (7 lines)."""

    kinds = ("three_jokers", "four_jokers")

    def reads_size(self, n):
        return n <= 4

    def read(self, cards, counts):
        """The reading of jokers alone ([] when a natural card is played with them)."""
        if not all(c.rank in JOKERS for c in cards):
            return []
        n = len(cards)
        shown = sorted((c.rank for c in cards), reverse=True)
        if n == 1 or (n == 2 and len(counts) == 1):
            r = shown[0]
            return [make_reading(_SAME[n], cards, (power(r),), shown, top=r)]
        if n == 3:
            return [make_reading("three_jokers", cards, _bomb_key(6, 3, 0, True), shown, lines=6)]
        if n == 4:
            return [make_reading("four_jokers", cards, _bomb_key(7, 4, 0, True), shown, lines=7)]
        return []

    def candidates(self, draw, table, size, need):
        bigs, littles = draw.groups.get(BIG_JOKER, []), draw.groups.get(LITTLE_JOKER, [])
        if draw.need_rank is not None or size > 4 or len(bigs) + len(littles) < size:
            return
        for b in range(min(size, len(bigs)), -1, -1):
            if size - b > len(littles):
                continue
            cards = bigs[:b] + littles[:size - b]
            for r in self.read(tuple(cards), Counter(c.rank for c in cards)):
                if table is None or self.spec.beats(r, table):
                    yield cards, r
                    break



class SameRank(Pattern):
    """1 to 3 cards of one rank (jokers may fill in): single, pair, triple."""

    kinds = ("single", "pair", "triple")

    def reads_size(self, n):
        return n < 4

    def read(self, cards, counts):
        n = len(cards)
        if len(counts) == 1 and n < 4:
            r = next(iter(counts))
            yield make_reading(_SAME[n], cards, (power(r),), [r] * n, [r] * (n - counts[r]), top=r)

    def candidates(self, draw, table, size, need):
        if size >= 4:
            return
        for r in draw.have:
            key = (power(r),)
            yield from draw.emit(self, [r], [size], _SAME[size], key, lambda cards, fill, r=r, key=key: make_reading(
                _SAME[size], cards, key, [r] * size, fill, top=r))

    def describe(self) -> Text:
        return t("单张、对子、三张；顺子（5张以上，3到A）；连对（3对以上）；连三张（{m}个以上）；没有三带二；2和王不能按本身点数进连牌",
                 "single, pair, triple; straight (5+ from 3 to A); pair run (3+ pairs); triple run ({m}+); no kickers; "
                 "2 and jokers never join a run as themselves", m=self.rules.min_triple_run)


class KindBomb(_Bomb):
    """X cards of one rank, 4 ≤ X ≤ 8 (jokers may fill in): X lines; ``wild_over_eight``: up to 12 with jokers."""

    kinds = ("bomb",)

    def __init__(self, spec):
        super().__init__(spec)
        self.most = most_of_a_kind(self.rules)

    def reads_size(self, n):
        return 4 <= n <= self.most

    def read(self, cards, counts):
        n = len(cards)
        if len(counts) == 1 and 4 <= n <= self.most:
            r = next(iter(counts))
            yield make_reading("bomb", cards, _bomb_key(n, n, power(r)), [r] * n, [r] * (n - counts[r]), lines=n,
                               top=r)

    def candidates(self, draw, table, size, need):
        if not 4 <= size <= self.most:
            return
        for r in draw.have:
            key = _bomb_key(size, size, power(r))
            yield from draw.emit(self, [r], [size], "bomb", key, lambda cards, fill, r=r, key=key: make_reading(
                "bomb", cards, key, [r] * size, fill, lines=size, top=r))

    def describe(self) -> Text:
        text = t("炸弹：X张同点数（4–8张）= X线；三王 = 6线（6线里最小）；天王（四个王）= 7线（7线里最小）；"
                 "X线Y连环（Y个相连点数各X张，3≤Y≤6）= X+Y线，不能有2",
                 "bombs: X of a kind (4–8) = X lines; three jokers = 6 lines (lowest 6); four jokers = 7 lines "
                 "(lowest 7); X-line Y-chain (Y consecutive ranks of X cards, 3≤Y≤6) = X+Y lines, no 2")
        if self.most > MAX_COPIES:
            text = t("{t}；王补成九相以上：同点数的牌加百搭王最多{m}张 = {m}线", "{t}; wild jokers past eight: "
                     "a rank with wild jokers up to {m} cards = {m} lines", t=text, m=self.most)
        return text


class Run(Pattern):
    """``width`` cards of each of ``min_len`` … 12 consecutive ranks 3 … A (jokers may fill in)."""

    width, kind = 1, "straight"

    def __init__(self, spec):
        super().__init__(spec)
        self.shortest = self.min_len()

    @property
    def kinds(self):
        return (self.kind,)

    def min_len(self) -> int:
        return 5

    def reads_size(self, n):
        return n % self.width == 0 and self.shortest <= n // self.width <= MAX_RUN

    def read(self, cards, counts):
        n, width = len(cards), self.width
        if not all(3 <= r <= ACE for r in counts) or n % width or max(counts.values()) > width:
            return
        length = n // width
        if not self.shortest <= length <= MAX_RUN:
            return
        lo, hi = min(counts), max(counts)
        for start in range(max(3, hi - length + 1), min(lo, ACE - length + 1) + 1):
            window = range(start, start + length)
            fill = [r for r in window for _ in range(width - counts.get(r, 0))]
            top = start + length - 1
            yield make_reading(self.kind, cards, (top,), [r for r in window for _ in range(width)], fill, top=top)

    def candidates(self, draw, table, size, need):
        width = self.width
        length = size // width
        if size % width or not self.shortest <= length <= MAX_RUN:
            return
        for window in ORDER.windows(length):
            top = window[-1]
            yield from draw.emit(self, window, [width] * length, self.kind, (top,),
                                 lambda cards, fill, window=window, top=top: make_reading(
                                     self.kind, cards, (top,), [r for r in window for _ in range(width)], fill,
                                     top=top))


class PairRun(Run):
    width, kind = 2, "pair_run"

    def min_len(self) -> int:
        return 3


class TripleRun(Run):
    width, kind = 3, "triple_run"

    def min_len(self) -> int:
        return self.rules.min_triple_run


class ChainBomb(_Bomb):
    """X线Y连环: Y (3–6) consecutive ranks of X (4–8) cards each = X+Y lines; 千变: groups may differ."""

    kinds = ("chain",)

    def __init__(self, spec):
        super().__init__(spec)
        self.uneven_chain = self.rules.uneven_chain
        self.windows = {y: _chain_windows(y, self.rules) for y in range(MIN_CHAIN, MAX_CHAIN + 1)}

    def reads_size(self, n):
        return 4 * MIN_CHAIN <= n <= MAX_COPIES * MAX_CHAIN

    def read(self, cards, counts):
        n = len(cards)
        for y in range(MIN_CHAIN, MAX_CHAIN + 1):
            if n < 4 * y or n > MAX_COPIES * y or len(counts) > y:
                continue
            for window, top in self.windows[y]:
                if any(r not in window for r in counts):
                    continue
                for x in _chain_xs(window, counts, n, y, self.uneven_chain):
                    yield _chain_reading(window, top, y, cards, counts, x, _bomb_key(x + y, n, top))

    def candidates(self, draw, table, size, need):
        for y in range(MIN_CHAIN, MAX_CHAIN + 1):
            if size < 4 * y or size > MAX_COPIES * y:
                continue
            for window, top in self.windows[y]:
                if draw.need_rank is not None and draw.need_rank not in window:
                    continue
                if self.uneven_chain:
                    yield from self.uneven(draw, window, top, y)
                elif size % y == 0:
                    yield from self.even(draw, window, top, y, size // y)

    def even(self, draw, window, top, y, x):
        if not 4 <= x <= MAX_COPIES:
            return
        key = _bomb_key(x + y, draw.size, top)
        yield from draw.emit(self, window, [x] * y, "chain", key,
                             lambda cards, fill: make_reading("chain", cards, key,
                                                              [r for r in window for _ in range(x)], fill,
                                                              lines=x + y, chain=(x, y), top=top))

    def uneven(self, draw, window, top, y):
        """千变 chains: naturals per rank 0..8 (at least one card), the rest jokers; X = best smallest group."""
        size = draw.size
        for used, total, x, (nat_cards, nat_powers) in _uneven_naturals(draw, window):
            jokers = draw.splits(size - total)
            if not jokers:
                continue
            key = _bomb_key(x + y, size, top)
            if not draw.keeps(self, "chain", key):
                continue
            for jk, powers in jokers:
                cards = nat_cards + jk
                yield cards, (lambda cards=cards, used=used, x=x, key=key: _chain_reading(
                    window, top, y, cards, {r: u for r, u in zip(window, used) if u}, x, key)), powers + nat_powers


def _uneven_naturals(draw: _Draw, window: Sequence[int]) -> list[tuple]:
    """How many naturals of each rank of ``window`` a 千变 chain of ``draw.size`` cards may use: (used, their
    number, the chain's X (the largest smallest group they allow), their cards and powers).

    Worked out once a hand for every size (the hint asks size after size), each size's list in the
    order of one search (most naturals of the lowest rank first).
    """
    memo_key = ("uneven", tuple(window), draw.need_rank)
    by_size = draw.memo.get(memo_key)
    if by_size is None:
        by_size = draw.memo[memo_key] = _naturals_by_size(draw, window)
    return by_size.get(draw.size, [])


def _file_by_size(by_size: dict, draw: _Draw, window, used: tuple[int, ...], total: int, floor: int,
                  most: int) -> None:
    """File one choice of naturals (and its cards, made once) under every size from ``floor`` to ``most`` that
    allows an X: the largest smallest group (4 … 8) with every group filled to it fitting the size, none below
    the naturals' smallest."""
    sums = [sum(u if u > x else x for u in used) for x in range(MAX_COPIES, 3, -1)]  # grow with X
    low, spread = min(used), MAX_COPIES * (len(used) - 1)
    naturals = None
    for size in range(floor, most + 1):
        least = max(low, size - spread, 4)
        x = next((x for x, need in zip(range(MAX_COPIES, least - 1, -1), sums) if need <= size), None)
        if x is not None:
            naturals = naturals or draw.naturals(window, used)
            by_size.setdefault(size, []).append((used, total, x, naturals))


def _naturals_by_size(draw: _Draw, window: Sequence[int]) -> dict[int, list[tuple]]:
    """Every choice of naturals for a chain on ``window`` (with their number and X), under each size it fits: at
    least one natural, the groups short of 4 filled by the wild jokers (``floor`` … naturals + jokers cards)."""
    budget, need_rank = draw.budget, draw.need_rank
    caps = [min(draw.have.get(r, 0), MAX_COPIES) for r in window]
    m = len(window)
    most = MAX_COPIES * m
    acc = [0] * m
    by_size: dict[int, list[tuple]] = {}

    def rec(i, total, floor):
        # total: naturals so far; floor: the least cards the groups so far need (each group has 4 or more)
        if floor - total > budget or floor + 4 * (m - i) > most:
            return
        if i == m:
            if total:
                _file_by_size(by_size, draw, window, tuple(acc), total, floor, min(total + budget, most))
            return
        lo = 1 if window[i] == need_rank else 0
        for u in range(caps[i], lo - 1, -1):
            acc[i] = u
            rec(i + 1, total + u, floor + (u if u > 4 else 4))
        acc[i] = 0

    rec(0, 0, 0)
    del rec  # break the cycle of a nested function that calls itself
    return by_size


# ==========================================================================
# The spec
# ==========================================================================

class ShuangkouSpec(SheddingSpec):
    slug = "shuangkou"
    bare = True
    #: generation order (jokers alone first; then one rank, runs, chains)
    pattern_types = (JokersAlone, SameRank, KindBomb, Run, PairRun, TripleRun, ChainBomb)

    def __init__(self, rules):
        super().__init__(rules)
        self.wild = wild_ranks(rules)
        self.jokers_alone = self.patterns[0]
        self._last_prep: tuple = (None, None)

    def deck(self) -> Deck:
        return DECK

    def max_hand(self) -> int:
        return MAX_PLAY

    def no_pattern(self, cards) -> Text:
        text = format_cards(cards, self.sort_key())
        if len(cards) > MAX_PLAY:
            return t("「{c}」有{n}张：一手牌最多27张", "“{c}” has {n} cards: a play holds at most 27", c=text, n=len(cards))
        ranks = {c.rank for c in cards}
        if 2 in ranks and len(ranks) > 1 and not ranks <= set(JOKERS) | {2}:
            return t("「{c}」不成牌型：2 不能进顺子、连对、连三张或连环炸弹",
                     "“{c}” is no pattern: 2 never joins a straight, a pair or triple run, or a chain bomb", c=text)
        return t("「{c}」不成任何双扣牌型", "“{c}” is no pattern of 双扣", c=text)

    def readings(self, cards: Sequence[Card]) -> list[Reading]:
        """Every distinct reading, largest first: jokers alone are themselves, with naturals they are wild."""
        cards = tuple(cards)
        if not 0 < len(cards) <= MAX_PLAY:
            return []
        counts = Counter(c.rank for c in cards)
        if all(r in JOKERS for r in counts):
            return self.jokers_alone.read(cards, counts)
        nat = Counter({r: k for r, k in counts.items() if r not in self.wild})
        if any(r in JOKERS for r in nat) or any(k > MAX_COPIES for k in nat.values()):
            return []
        return self.sorted_readings([r for p in self.readers(len(cards)) for r in p.read(cards, nat)])

    def sorted_readings(self, readings):
        out = distinct_readings(readings)
        out.sort(key=lambda r: (r.is_bomb, r.key if r.is_bomb else (_PRIORITY[r.kind],) + r.key), reverse=True)
        return out

    def why_not(self, play, table):
        if not (play.is_bomb and table.is_bomb and lines_of(play) == lines_of(table)):
            return None
        if self.rules.same_lines is SameLines.FIRST_PLAYED:
            return t("线数一样，先出的大（地方玩法）：要更多线才管得上",
                     "equal lines: the first played wins (house rule); only more lines beat it")
        return t("线数一样（{l}线）：张数少的大，张数也一样比点数；三王、天王是同线数里最小的",
                 "equal lines ({l}): fewer cards win, then the higher rank; 三王 and 天王 are the lowest of "
                 "their lines", l=lines_of(play))

    # --- hints ---------------------------------------------------------------
    def sizes(self, hand, table):
        top = min(len(hand), MAX_PLAY)
        if table is None:
            return range(1, top + 1)
        kinds = range(3, most_of_a_kind(self.rules) + 1)  # 3: 三王; 4 … 8 (12) of a kind; 12 and more: chains
        return sorted({table.size, *kinds} | set(range(12, top + 1)))

    def release(self) -> None:
        super().release()
        self._last_prep = (None, None)  # its memo of chain naturals is a hand's worth of tuples

    def candidates(self, hand, table, size, need=None) -> Iterable:
        last_hand, prep = self._last_prep
        if last_hand is not hand or type(hand) is not tuple:  # a tuple cannot change behind our back
            prep = _groups(hand)
            self._last_prep = (hand, prep)
        draw = _Draw(self, prep, table, size, need)
        for pattern in self.patterns:
            if pattern.answers(table, size):
                yield from pattern.candidates(draw, table, size, need)

    def pattern_texts(self) -> list[Text]:
        lines = [p.describe() for p in self.patterns]
        return [text for text in lines if text is not None] + [
            t("王和别的牌一起出时可当任意一张牌；几种读法时取大的，首家可选",
              "jokers played with natural cards stand for any card; the largest reading counts, a leader may pick"),
            t("比大小：同牌型同张数比最大点；炸弹管一切非炸弹；炸弹之间线多的大，线数一样张数少的大，再比点数",
              "comparing: same pattern and size, higher top; a bomb beats every non-bomb; between bombs more lines "
              "win, then fewer cards, then the higher rank"),
        ]


spec_for = spec_cache(ShuangkouSpec)


def sort_key_for(rules=None):
    """Canonical card order (highest first) for pages: 大王 小王 2 A K … 3."""
    return ORDER.sort_key


# ==========================================================================
# Settlement
# ==========================================================================

OUTCOMES = {1: ("shuangkou", 3, t("双扣", "double (双扣)")),
            2: ("dankou", 2, t("单扣", "single (单扣)")),
            3: ("pingkou", 1, t("平扣", "level (平扣)"))}
#: what each other player pays for a bomb of 6, 7, 8 or more lines (the bomb's seat gets three times that)
CONTRIBUTION = {"seed": {6: 2, 7: 6, 8: 10}, "1-3-5": {6: 1, 7: 3, 8: 5}}
MIN_CONTRIBUTION_LINES = 6


def contribution_each(lines: int, rules) -> int:
    """What each other player pays to a bomb of ``lines`` (6 or more): by the table, or 2^(lines−4) (doubling)."""
    if rules.contribution is Contribution.DOUBLING:
        return 2 ** (lines - 4)  # never capped by cap_lines
    return CONTRIBUTION[rules.contribution][min(lines, 8)]


def multiplier_for(lines: int, cap: int) -> int:
    if lines < 5:
        return 1
    return 2 ** (min(lines, cap) - 4)


SETTLE_INPUT = Schema((
    SeatOrderField("finish_order", t("出完的顺序", "the finishing order"), min_len=2, entry="tap_order",
                   place_label=t("第{n}个出完的", "place {n}")),
    RowsField("bombs", t("炸弹", "bombs"), row_label=t("炸弹{n}", "bomb {n}"), max_rows=27, entry="bomb_chips",
              fields=(SeatField("seat", t("座位", "seat")),
                      CardsField("cards", t("牌", "cards"), required=False),
                      IntField("lines", t("线数", "lines"), required=False, lo=MIN_LINES,
                               hi=lambda ctx: max_lines(ctx.rules), entry="chips"))),
))


def _bomb_lines(row, rules, path: str, label: Text) -> tuple[int, Reading | None]:
    """A bomb row's lines (from its cards when given) and the cards' bomb reading; raises on a bad row."""
    if row.cards is None:
        if row.lines is None:
            raise MalformedInput(t("「{f}」要写牌或线数", "“{f}” needs its cards or its lines", f=label), field=path,
                                 code="missing_field")
        return row.lines, None
    bombs = [r for r in spec_for(rules).readings(row.cards) if r.is_bomb]
    shown = format_cards(row.cards, sort_key_for(rules))
    if not bombs:
        raise InvalidInput(t("「{c}」不是炸弹：{why}", "“{c}” is not a bomb: {why}", c=shown,
                             why=_not_bomb_reason(row.cards, rules)), field=f"{path}.cards", code="not_a_bomb")
    lines = bombs[0].extra["lines"]
    if row.lines is not None and row.lines != lines:
        raise InvalidInput(t("{f}：牌「{c}」是{k}线炸弹，填的线数却是{l}；请改成一致（或只填一项）",
                             "{f}: the cards “{c}” make a {k}-line bomb but the lines say {l}; make them agree "
                             "(or give only one)", f=label, c=shown, k=lines, l=row.lines),
                           field=f"{path}.lines", code="cards_lines_disagree")
    return lines, bombs[0]


def _bombs(values, rules) -> list[tuple[int, int, Reading | None]]:
    """(seat, lines, the bomb's reading when given as cards) for every bomb; every problem at once."""
    out, problems = [], []
    for i, row in enumerate(values.bombs):
        path, label = f"bombs[{i}]", t("炸弹{n}", "bomb {n}", n=i + 1)
        try:
            lines, reading = _bomb_lines(row, rules, path, label)
        except PaijuError as exc:
            problems.append(exc)
            continue
        out.append((row.seat, lines, reading))
    every = [c for row in values.bombs if row.cards for c in row.cards]
    if every and not problems:
        try:
            DECK.check(every, field="bombs")
        except PaijuError as exc:
            problems.append(exc)
    if problems:
        raise InputErrors(problems)
    return out


def _not_bomb_reason(cards, rules) -> Text:
    rs = spec_for(rules).readings(cards)
    if rs:
        return t("它是 {r}", "it reads as {r}", r=rs[0].label)
    return spec_for(rules).no_pattern(cards)


def settle(values, rules) -> dict:
    order = values.finish_order
    bombs = _bombs(values, rules)
    first = order[0]
    partner = (first + 2) % 4
    if partner in order:
        place = order.index(partner)
    elif len(order) == 3:
        place = 3
    else:
        raise InvalidInput(t("出完顺序 {o} 还定不了结果：{p}（{f}的对家）是第三还是第四个出完？请再写一个座位",
                             "the finishing order {o} does not decide the outcome yet: is {p} (partner of {f}) third "
                             "or fourth out? Give one more seat",
                             o=join([seat_name(s) for s in order], " → ", " → "), p=seat_name(partner),
                             f=seat_name(first)),
                           field="finish_order", code="undecided")
    outcome, base, name = OUTCOMES[place]
    winners = {first, partner}
    if outcome == "pingkou" and rules.pingkou is Pingkou.DRAW:
        base = 0
    deltas = [base if s in winners else -base for s in range(4)]
    steps = [t("{f}、{p}一方赢，{o}：{w}各 +{b}，另两家各 −{b}",
               "{f} and {p} win, {o}: each winner +{b}, each loser −{b}",
               f=seat_name(first), p=seat_name(partner), o=name, w=join([seat_name(s) for s in sorted(winners)], "、", " and "),
               b=base)]
    steps.extend(_over_eight_steps(bombs))
    mult, why = _multiplier(bombs, winners, rules)
    steps.append(why)
    deltas = [d * mult for d in deltas]
    steps.append(t("底分 × 倍数：{d}", "base × multiplier: {d}", d=_fmt(deltas)))
    steps.extend(_pay_contributions(deltas, bombs, rules))
    steps.append(t("合计：{d}", "total: {d}", d=_fmt(deltas)))
    return settlement(deltas, steps, outcome=outcome, outcome_name=name, multiplier=mult)


def _multiplier(bombs, winners, rules) -> tuple[int, Text]:
    """The winners' largest bomb sets the multiplier (up to ``cap_lines``), and the step that says so."""
    winning = [(s, lines) for s, lines, _reading in bombs if s in winners]
    if not winning:
        return 1, t("赢方没有炸弹 → ×1", "the winners played no bomb → ×1")
    seat, lines = max(winning, key=lambda b: b[1])
    mult = multiplier_for(lines, rules.cap_lines)
    capped = t("（封顶{c}线）", " (capped at {c} lines)", c=rules.cap_lines) if lines > rules.cap_lines else t("", "")
    return mult, t("翻倍：赢方最大的炸弹是{s}的{l}线 → ×{m}{c}", "multiplier: the winners' largest bomb is {s}’s "
                   "{l} lines → ×{m}{c}", s=seat_name(seat), l=lines, m=mult, c=capped)


def _pay_contributions(deltas: list[int], bombs, rules) -> list[Text]:
    """Every bomb of 6 lines or more: each other player pays its contribution to the bomb's seat."""
    steps = []
    doubling = rules.contribution is Contribution.DOUBLING
    for seat, lines, _reading in bombs:
        if lines < MIN_CONTRIBUTION_LINES:
            continue
        loss = contribution_each(lines, rules)
        for s in range(4):
            deltas[s] += 3 * loss if s == seat else -loss
        if doubling:
            steps.append(t("贡献分（每多一线翻倍）：{s}的{l}线炸弹，其他每人付 2^({l}−4) = {x} → +{g}",
                           "contribution (doubling with every line): {s}’s {l}-line bomb, each other player pays "
                           "2^({l}−4) = {x} → +{g}", s=seat_name(seat), l=lines, g=3 * loss, x=loss))
        else:
            steps.append(t("贡献分：{s}的{l}线炸弹 +{g}，其他每人 −{x}", "contribution: {s}’s {l}-line bomb +{g}, "
                           "each other player −{x}", s=seat_name(seat), l=lines, g=3 * loss, x=loss))
    return steps


def _over_eight_steps(bombs) -> list[Text]:
    """What ``wild_over_eight`` did: the bombs of more than eight of a kind it made."""
    return [t("王补成九相以上：{s}的{b}", "wild jokers past eight: {s}’s {b}", s=seat_name(seat), b=reading.label)
            for seat, lines, reading in bombs
            if reading is not None and reading.kind == "bomb" and lines > MAX_COPIES]


def _fmt(deltas) -> str:
    return "[" + ", ".join(f"{d:+d}".replace("-", "−") if d else "0" for d in deltas) + "]"


def pattern_texts(rules) -> list[Text]:
    """The patterns and bombs, for the rules page."""
    return spec_for(rules).pattern_texts()


ACTIONS = shedding_actions(spec_for)


class Shuangkou(Game):
    slug = "shuangkou"
    name = t("双扣", "Shuangkou")
    kind = "shedding"
    summary = t("对家搭档，先出完的一方赢；炸弹翻倍和贡献分", "partners opposite; the first team out wins; bombs double "
                "the score and pay contributions")
    ruleset = RULESET
    settle_input = SETTLE_INPUT
    bare_ranks = True
    deck_of = staticmethod(deck_for)
    action_table = ACTIONS
    settle_of = staticmethod(settle)


GAME = Shuangkou()
