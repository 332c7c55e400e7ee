"""双扣's spec on the shedding core (``rules/shuangkou.md``): its pattern table and the rules that are its own.

Jokers are wild (house rule ``wild``: both / only 大王 / none) when played with at least one natural
card (the core's :mod:`~scoring.shedding.wild`: one rank, n of a kind and runs are the stock patterns
with their templates filled); alone they are themselves (single, pair of identical jokers, 三王,
天王). 双扣's own: its labels ("顺子：3 4 5 6 7", a bomb's lines), bombs by lines (三王, 天王, X线Y连环
and the ``same_lines`` house rule), the order of readings. :meth:`ShuangkouSpec.readings` gives every
distinct reading of a card set, largest first; a play beats the table when any of its readings
does. The game (options, settle) is ``scoring/shuangkou.py``.
"""
from __future__ import annotations

from collections import Counter

from .cards import BIG_JOKER, LITTLE_JOKER, Deck, format_cards
from .i18n import Text, t
from .rules import Choice
from .shedding import STANDARD, Reading, bombs, distinct_readings, probe, runs, spec_cache, stock, wild
from .shedding.stock import Template, template

JOKERS = (BIG_JOKER, LITTLE_JOKER)
MAX_PLAY = 27
MAX_COPIES = 8
MIN_LINES, MAX_LINES = 4, 11  # 4 of a kind … 8线3连环
MAX_KIND_OVER_EIGHT = 12  # wild_over_eight: 8 of a kind and 4 wild jokers (十二相)


class Wild(Choice):
    BOTH = "both"  # all four jokers
    BIG = "big"    # 大王 only (百变)
    NONE = "none"


class SameLines(Choice):
    FEWER_CARDS = "fewer_cards"    # equal lines: fewer cards win, then the rank
    FIRST_PLAYED = "first_played"  # equal lines never beat


DECK = Deck(2, jokers=True, name=t("两副牌（108张）", "two packs (108)"))


def deck_for(rules) -> Deck:
    return DECK


ORDER = STANDARD
power = ORDER.power  # 3 … K A 2 小王 大王 as 3 … 17
P_LITTLE, P_BIG = power(LITTLE_JOKER), power(BIG_JOKER)
POWERS = ORDER.table  # rank → power, a plain dict for the hint's inner loops


def wild_ranks(rules) -> tuple[int, ...]:
    return {Wild.BOTH: JOKERS, Wild.BIG: (BIG_JOKER,), Wild.NONE: ()}[rules.wild]


def most_of_a_kind(rules) -> int:
    """The most cards of an X-of-a-kind bomb: 8, or 12 with ``wild_over_eight`` (the wild jokers cap it)."""
    return MAX_KIND_OVER_EIGHT if rules.wild_over_eight else MAX_COPIES


def max_lines(rules) -> int:
    """The most lines a settle row may give: 11 (8线3连环), 12 with ``wild_over_eight`` (十二相)."""
    return MAX_KIND_OVER_EIGHT if rules.wild_over_eight else MAX_LINES


# ==========================================================================
# Readings: names and order; bombs by lines; chains
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
MIN_CHAIN, MAX_CHAIN = 3, 6  # ranks in a chain bomb
MAX_RUN = 12  # ranks in a straight or run (3 … A)


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


def _chain(window, top: int, groups, n: int) -> Template:
    """The template of a chain bomb of ``n`` cards on ``window`` with these groups: X+Y lines."""
    return template("chain", tuple(window), tuple(groups), _bomb_key(min(groups) + len(window), n, top), top)


# ==========================================================================
# Patterns
# ==========================================================================

class Labels(wild.Filled):
    """双扣's labels: "name：ranks" (a bomb's with its lines: "炸弹（5线）：…"), a bomb's ``lines``."""

    def label(self, shape, shown):
        if self.bomb:
            return t("{k}（{l}线）：{d}", "{k} ({l} lines): {d}", k=self.name(shape), l=shape.key[0], d=shown)
        return t("{k}：{d}", "{k}: {d}", k=self.name(shape), d=shown)

    def name(self, shape) -> Text:
        return self.names[shape.kind]

    def more(self, shape):
        return {"lines": shape.key[0]} if self.bomb else {}


class ByLines(Labels):
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


class JokersAlone(ByLines):
    """Jokers played alone are themselves: a single, a pair of one joker, 三王 (6 lines), 天王 (7 lines)."""

    kinds = ("three_jokers", "four_jokers")

    def reads_size(self, n):
        return n <= 4

    def read(self, cards, counts):
        """The reading of jokers alone ([] when a natural card is played with them)."""
        if not all(c.rank in JOKERS for c in cards):
            return []
        n = len(cards)
        if n == 1 or (n == 2 and len(counts) == 1):
            r = cards[0].rank
            same = template(stock.SAME_KINDS[n], (r,), (n,), (power(r),), r)
            return [self.spec.pattern("single").filled(same, cards, ())]  # labelled as a plain play
        if n in (3, 4):
            kind, lines = ("three_jokers", 6) if n == 3 else ("four_jokers", 7)
            window = tuple(sorted(counts, reverse=True))
            shape = template(kind, window, tuple(counts[r] for r in window), _bomb_key(lines, n, 0, True), None)
            return [self.filled(shape, cards, ())]
        return []

    def candidates(self, hand, table, size, need):
        bigs, littles = hand.groups.get(BIG_JOKER, []), hand.groups.get(LITTLE_JOKER, [])
        if hand.need_rank is not None or size > 4 or len(bigs) + len(littles) < size:
            return
        for b in range(min(size, len(bigs)), -1, -1):
            if size - b > len(littles):
                continue
            cards = bigs[:b] + littles[:size - b]
            for r in self.read(tuple(cards), Counter(c.rank for c in cards)):
                if table is None or self.spec.beats(r, table):
                    yield cards, r
                    break


class SameRank(Labels, stock.SameRank):
    """1 to 3 cards of one rank (jokers may fill in): single, pair, triple."""

    def describe(self) -> Text:
        return t("单张、对子、三张；顺子（5张以上，3到A）；连对（3对以上）；连三张（{m}个以上）；没有三带二；2和王不能按本身点数进连牌",
                 "single, pair, triple; straight (5+ from 3 to A); pair run (3+ pairs); triple run ({m}+); no kickers; "
                 "2 and jokers never join a run as themselves", m=self.rules.min_triple_run)


class KindBomb(ByLines, bombs.Bomb):
    """X cards of one rank, 4 ≤ X ≤ 8 (jokers may fill in): X lines; ``wild_over_eight``: up to 12 with jokers."""

    def __init__(self, spec):
        super().__init__(spec)
        self.most = most_of_a_kind(self.rules)

    def rank_key(self, rank, n):
        return _bomb_key(n, n, power(rank))

    def describe(self) -> Text:
        text = t("炸弹：X张同点数（4–8张）= X线；三王 = 6线（6线里最小）；天王（四个王）= 7线（7线里最小）；"
                 "X线Y连环（Y个相连点数各X张，3≤Y≤6）= X+Y线，不能有2",
                 "bombs: X of a kind (4–8) = X lines; three jokers = 6 lines (lowest 6); four jokers = 7 lines "
                 "(lowest 7); X-line Y-chain (Y consecutive ranks of X cards, 3≤Y≤6) = X+Y lines, no 2")
        if self.most > MAX_COPIES:
            text = t("{t}；王补成九相以上：同点数的牌加百搭王最多{m}张 = {m}线", "{t}; wild jokers past eight: "
                     "a rank with wild jokers up to {m} cards = {m} lines", t=text, m=self.most)
        return text


class Run(Labels, runs.Run):
    """``width`` cards of each of ``min_len`` … 12 consecutive ranks 3 … A (jokers may fill in)."""

    max_len = MAX_RUN


class PairRun(Run):
    width, min_len, kind = 2, 3, "pair_run"


class TripleRun(Run):
    width, kind = 3, "triple_run"

    def __init__(self, spec):
        super().__init__(spec)
        self.min_len = self.rules.min_triple_run


class ChainBomb(ByLines):
    """X线Y连环: Y (3–6) consecutive ranks of X (4–8) cards each = X+Y lines; 千变: groups may differ."""

    kinds = ("chain",)

    def __init__(self, spec):
        super().__init__(spec)
        self.uneven_chain = self.rules.uneven_chain
        self.windows = {y: _chain_windows(y, self.rules) for y in range(MIN_CHAIN, MAX_CHAIN + 1)}

    def reads_size(self, n):
        return 4 * MIN_CHAIN <= n <= MAX_COPIES * MAX_CHAIN

    def name(self, shape):
        return t("{x}线{y}连环", "{x}-line {y}-chain", x=min(shape.widths), y=len(shape.window))

    def more(self, shape):
        return {"lines": shape.key[0], "chain": {"x": min(shape.widths), "y": len(shape.window)}}

    def fitting(self, counts, n):
        for y in range(MIN_CHAIN, MAX_CHAIN + 1):
            if n < 4 * y or n > MAX_COPIES * y or len(counts) > y:
                continue
            for window, top in self.windows[y]:
                if any(r not in window for r in counts):
                    continue
                for x in _chain_xs(window, counts, n, y, self.uneven_chain):
                    yield _chain(window, top, _groups_for(window, counts, n, x), n)

    def templates(self, hand, size, rank=None):
        """The even chains of ``size`` cards (千变's uneven ones: :meth:`uneven`)."""
        return self.once((size, rank), lambda: list(self.even_chains(size, rank)))

    def even_chains(self, size, rank):
        for y in range(MIN_CHAIN, MAX_CHAIN + 1):
            x, left = divmod(size, y)
            if not left and 4 <= x <= MAX_COPIES:
                for window, top in self.windows[y]:
                    if rank is None or rank in window:
                        yield _chain(window, top, [x] * y, size)

    def candidates(self, hand, table, size, need):
        if not self.uneven_chain:
            yield from super().candidates(hand, table, size, need)
            return
        for y in range(MIN_CHAIN, MAX_CHAIN + 1):
            if size < 4 * y or size > MAX_COPIES * y:
                continue
            for window, top in self.windows[y]:
                if hand.need_rank is None or hand.need_rank in window:
                    yield from self.uneven(hand, window, top, y)

    def uneven(self, hand, window, top, y):
        """千变 chains: naturals per rank 0..8 (at least one card), the rest jokers; X = best smallest group."""
        size, splits, heads = hand.size, hand.splits, {}  # heads: X → the probe of its chains (None: none kept)
        for used, total, x, (nat_cards, nat_powers) in wild.uneven_naturals(hand, window, 4, MAX_COPIES):
            jokers = splits(size - total)
            if not jokers:
                continue
            if x in heads:
                head = heads[x]
            else:
                key = _bomb_key(x + y, size, top)
                head = heads[x] = probe("chain", key, size, True) if hand.keeps(self, "chain", key) else None
            if head is None:
                continue
            for jk, powers in jokers:
                cards = nat_cards + jk
                yield cards, (lambda cards=cards, used=used, x=x: self.uneven_reading(
                    window, top, cards, used, x)), powers + nat_powers, head

    def uneven_reading(self, window, top, cards, used, x) -> Reading:
        naturals = {r: u for r, u in zip(window, used) if u}
        shape = _chain(window, top, _groups_for(window, naturals, len(cards), x), len(cards))
        return self.filled(shape, cards, self.fill(shape, naturals))


# ==========================================================================
# The spec
# ==========================================================================

class ShuangkouSpec(wild.WildSpec):
    slug = "shuangkou"
    bare = True
    kind_names = KIND_NAMES
    #: generation order (jokers alone first; then one rank, runs, chains)
    pattern_types = (JokersAlone, SameRank, KindBomb, Run, PairRun, TripleRun, ChainBomb)
    bombs_read_first = True  # sorted_readings: bombs first

    def wild_ranks(self):
        return wild_ranks(self.rules)

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
