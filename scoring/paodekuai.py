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
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from .cards import ACE, BIG_JOKER, LITTLE_JOKER, Card, Deck, format_cards, parse_cards, rank_name
from .errors import InputErrors, InvalidInput
from .games import Game, settlement
from .i18n import Text, seat_name, t
from .inputs import IntField, PerSeatField, Schema, SeatField
from .rules import Option, Preset, RuleSet, switch
from .shedding import Reading, SheddingSpec, by_rank, distinct_readings, multisets, shedding_actions

# ==========================================================================
# House rules and presets
# ==========================================================================

ZSY, PDK52, PDK48 = "zhengshangyou108", "paodekuai52", "paodekuai48"


def _preset_info():
    return {
        PDK52: {"deck": Deck(1, jokers=False, name=t("一副牌去掉大小王（52张）", "one pack without jokers (52)")),
                "players": 4, "dealt": 13},
        PDK48: {"deck": Deck(1, jokers=False, removed=parse_cards("♥2 ♣2 ♦2 ♠A"),
                             name=t("52张去掉♥2 ♣2 ♦2 ♠A（48张）", "52 cards minus ♥2 ♣2 ♦2 ♠A (48)")),
                "players": 3, "dealt": 16},
        ZSY: {"deck": Deck(2, jokers=True, name=t("两副牌（108张）", "two packs (108)")), "players": 4, "dealt": 27},
    }


PRESETS = _preset_info()

RULESET = RuleSet(
    options=(
        Option("penalty", "seed", ("seed", "per_card"),
               t("输家付分", "What losers pay"),
               t("seed：剩牌数 × 倍数（一张没出 ×4；出了不到四分之一 ×3；不到一半 ×2；其余 ×1）。"
                 "“发牌数”理解为每人发到的张数，只出1张也算“不到四分之一”（解读）。"
                 "per_card：每张剩牌1分，只剩1张（报单）不付，一张没出（全关）加倍。",
                 "seed: cards left × multiplier (nothing played ×4; under a quarter of the deal played ×3; "
                 "under half ×2; otherwise ×1). “Total cards” is read as the cards dealt to each player, and "
                 "playing exactly 1 card counts as under a quarter (reading). per_card: 1 per card left, a "
                 "loser left with 1 card pays nothing, one who played nothing pays double."),
               reading=True,
               value_labels={"seed": t("剩牌数 × 倍数", "cards left × multiplier"), "per_card": t("每张1分，报单不付，全关加倍", "1 per card, last card free, shut out double")}),
        Option("stake", 1, tuple(range(1, 101)), t("底分", "Stake"),
               t("每张剩牌乘以底分（1–100）", "every card left is multiplied by the stake (1–100)")),
        switch("must_beat", t("有出必出（能管必管）", "Must beat if able"),
               t("能管上桌上的牌时不许不出", "a player who can beat the table may not pass")),
        switch("aaa_top", t("AAA 是最大的炸弹", "AAA is the highest bomb"),
               t("跑得快中三个A是炸弹；默认按张数比是最小的炸弹（原文字面），开启后是最大的炸弹",
                 "in 跑得快 three aces are a bomb; by default the lowest bomb (fewest cards, seed literal), "
                 "with this rule the highest")),
        switch("bomb_kickers", t("炸弹可带牌（争上游）", "Bombs may carry kickers (争上游)"),
               t("争上游：炸弹可以带两张单牌或两对；压炸弹时所带张数必须相同",
                 "争上游: a bomb may carry two singles or two pairs; a bomb with kickers is beaten only by a "
                 "bomb carrying as many kicker cards")),
    ),
    presets=(
        Preset(PDK52, t("跑得快 52张（4人×13张）", "Paodekuai, 52 cards (4 × 13)"),
               help=t("一副牌去掉大小王，3最小，2最大，2不进顺子", "one pack without jokers, 3 lowest, 2 highest, "
                      "2 never in a run")),
        Preset(PDK48, t("跑得快 48张（3人×16张）", "Paodekuai, 48 cards (3 × 16)"),
               help=t("去掉♥2 ♣2 ♦2 ♠A（解读：原文只说“48张”，这是常见的16张玩法）",
                      "without ♥2 ♣2 ♦2 ♠A (reading: the seed only says “48 cards”; this is the common "
                      "16-card game)"),
               reading=True),
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
    "bomb": t("炸弹", "bomb"),
}
# Order of several readings of one card set (largest first).
_PRIORITY = {k: i for i, k in enumerate(["single", "pair", "triple", "triple_single", "triple_two", "triple_pair",
                                          "four_two", "straight", "pair_run", "triple_run_singles",
                                          "triple_run_pairs", "airplane", "triple_run", "straight_flush", "bomb"])}


_POWER = {**{r: r for r in range(3, ACE + 1)}, 2: 15, LITTLE_JOKER: 16, BIG_JOKER: 17}


def power(rank: int) -> int:
    """3 … K A 2 小王 大王 as 3 … 17."""
    return _POWER[rank]


def _name(rank: int) -> str:
    return rank_name(rank)


def run_top(ranks: Sequence[int], low_ok: bool) -> int | None:
    """Top position of consecutive distinct ``ranks`` (A high, or A-2 low joining 3), else None."""
    if any(r > ACE for r in ranks):
        return None
    rs = sorted(ranks)
    if 2 not in rs:
        return rs[-1] if rs[-1] - rs[0] + 1 == len(rs) else None
    if not low_ok:
        return None
    pos = sorted(1 if r == ACE else r for r in rs)
    if pos[-1] - pos[0] + 1 == len(pos) and 3 in pos:
        return pos[-1]
    return None


def _run_names(ranks: Sequence[int], top: int) -> list[str]:
    low = top < len(set(ranks)) + 2  # A counts as 1
    return [_name(r) for r in sorted(set(ranks), key=lambda r: (1 if (r == ACE and low) else r))]


def _spaced(names, times=1) -> str:
    return " ".join(x for x in names for _ in range(times))


class PaodekuaiSpec(SheddingSpec):
    slug = "paodekuai"
    bare = False

    def deck(self, rules) -> Deck:
        return deck_for(rules)

    def order(self, card: Card, rules) -> int:
        return _POWER[card.rank]

    def max_hand(self, rules) -> int:
        return PRESETS[rules.preset]["dealt"]

    def sort_key(self, rules):
        return _sort_key

    def identity(self, cards, rules):
        ranks = tuple(sorted(c.rank for c in cards))
        if rules.preset == ZSY and self._flush_suit(cards) is not None and run_top(ranks, True) and len(ranks) >= 5 \
                and len(set(ranks)) == len(ranks):
            return ranks, cards[0].suit
        return ranks

    @staticmethod
    def _flush_suit(cards):
        suits = {c.suit for c in cards}
        if len(suits) == 1 and None not in suits:
            return next(iter(suits))
        return None

    # --- readings -------------------------------------------------------
    def readings(self, cards: Sequence[Card], rules) -> list[Reading]:
        cards = tuple(cards)
        zsy = rules.preset == ZSY
        n = len(cards)
        cnt = Counter(c.rank for c in cards)
        out: list[Reading] = []

        def add(kind, key, label_desc, bomb=False, **extra):
            label = t("{k}（{d}）", "{k} ({d})", k=KIND_NAMES[kind], d=label_desc)
            out.append(Reading(kind, label, key, n, bomb, cards, extra))

        jokers = cnt[BIG_JOKER] + cnt[LITTLE_JOKER]
        naturals = {r: k for r, k in cnt.items() if r not in (BIG_JOKER, LITTLE_JOKER)}

        # bombs ---------------------------------------------------------
        def bomb_key(part_cnt: Counter) -> tuple | None:
            size = sum(part_cnt.values())
            if zsy:
                if part_cnt == Counter({BIG_JOKER: 2, LITTLE_JOKER: 2}):
                    return (1, 0, 0)
                if len(part_cnt) == 1 and size >= 4:
                    r = next(iter(part_cnt))
                    return (0, size, power(r))
                return None
            if len(part_cnt) == 1:
                r = next(iter(part_cnt))
                if size == 4:
                    return (0, 4, power(r))
                if size == 3 and r == ACE:
                    return (1, 0, 0) if rules.aaa_top else (0, 3, power(r))
            return None

        def bomb_desc(part_cnt: Counter) -> str:
            if len(part_cnt) == 2:
                return "大王 大王 小王 小王"
            r, k = next(iter(part_cnt.items()))
            return " ".join([_name(r)] * k)

        key = bomb_key(cnt)
        if key is not None:
            add("bomb", key, bomb_desc(cnt), True, top=_name(max(cnt, key=power)), kickers=0)
        if zsy and rules.bomb_kickers:
            parts = [Counter({r: k}) for r, k in naturals.items() if k >= 4]
            if cnt[BIG_JOKER] == 2 and cnt[LITTLE_JOKER] == 2:
                parts.append(Counter({BIG_JOKER: 2, LITTLE_JOKER: 2}))
            for part in parts:
                rest = cnt - part
                m = sum(rest.values())
                if any(r in rest for r in part):
                    continue
                if m == 2 or (m == 4 and len(rest) == 2 and all(k == 2 for k in rest.values())):
                    add("bomb", bomb_key(part), bomb_desc(part) + " + " + " ".join(
                        _name(r) for r in sorted(rest.elements(), key=power, reverse=True)), True,
                        top=_name(max(part, key=power)), kickers=m)

        # same-rank sets --------------------------------------------------
        if len(cnt) == 1 and not out:
            r = next(iter(cnt))
            kind = {1: "single", 2: "pair", 3: "triple"}.get(n)
            if kind:
                add(kind, (power(r),), " ".join([_name(r)] * n), top=_name(r))

        # triple with attachments ---------------------------------------
        triples = [r for r, k in naturals.items() if k == 3]
        if n in (4, 5):
            for r in triples:
                rest = cnt - Counter({r: 3})
                m = sum(rest.values())
                if m == 1:
                    add("triple_single", (power(r),), _spaced([_name(r)], 3) + " + " + _name(next(iter(rest))), top=_name(r))
                elif m == 2:
                    if zsy:
                        if len(rest) == 1:
                            add("triple_pair", (power(r),), _spaced([_name(r)], 3) + " + " + _spaced([_name(next(iter(rest)))], 2),
                                top=_name(r))
                    elif not any(x in (BIG_JOKER, LITTLE_JOKER) for x in rest):
                        add("triple_two", (power(r),), _spaced([_name(r)], 3) + " + " + _spaced(
                            _name(x) for x in sorted(rest.elements(), key=power, reverse=True)), top=_name(r))
        if not zsy:
            fours = [r for r, k in naturals.items() if k == 4]
            if n == 6 and len(fours) == 1:
                r = fours[0]
                rest = cnt - Counter({r: 4})
                add("four_two", (power(r),), _spaced([_name(r)], 4) + " + " + _spaced(
                    _name(x) for x in sorted(rest.elements(), key=power, reverse=True)), top=_name(r))

        # runs ------------------------------------------------------------
        if not jokers and len(cnt) >= 2:
            counts = set(cnt.values())
            if len(counts) == 1:
                k = counts.pop()
                top = run_top(list(cnt), zsy)
                if top is not None:
                    names = _run_names(list(cnt), top)
                    topname = _name(top)
                    if k == 1 and n >= 5:
                        suit = self._flush_suit(cards)
                        if zsy and suit is not None:
                            add("straight_flush", (top,), suit.symbol + " " + _spaced(names), top=topname, suit=suit.symbol)
                        else:
                            add("straight", (top,), _spaced(names), top=topname)
                    elif k == 2 and n >= 4:
                        add("pair_run", (top,), _spaced(names, 2), top=topname)
                    elif k == 3 and n >= 6:
                        add("triple_run", (top,), _spaced(names, 3), top=topname)
        self._triple_runs_with(cards, cnt, zsy, add)

        out = distinct_readings(out)
        out.sort(key=lambda r: (r.is_bomb, _PRIORITY[r.kind], r.key), reverse=True)
        return out

    def _triple_runs_with(self, cards, cnt, zsy, add):
        n = len(cards)
        tri = sorted(r for r, k in cnt.items() if k == 3 and r <= ACE)
        if len(tri) < 2:
            return
        for kk in range(2, len(tri) + 1):
            per = (4, 5) if zsy else (5,)
            for step in per:
                if n != kk * step:
                    continue
                for window in _windows(tri, kk, zsy):
                    top = run_top(window, zsy)
                    if top is None:
                        continue
                    rest = cnt - Counter({r: 3 for r in window})
                    if any(r in rest for r in window):
                        continue
                    desc = _spaced(_run_names(window, top), 3) + " + " + _spaced(
                        _name(x) for x in sorted(rest.elements(), key=power, reverse=True))
                    topname = _name(top)
                    if zsy:
                        if step == 4:
                            add("triple_run_singles", (top,), desc, top=topname)
                        elif all(v % 2 == 0 for v in rest.values()) and all(
                                v == 2 for r, v in rest.items() if r in (BIG_JOKER, LITTLE_JOKER)):
                            add("triple_run_pairs", (top,), desc, top=topname)
                    elif kk in (2, 3) and not any(r in (BIG_JOKER, LITTLE_JOKER) for r in rest):
                        add("airplane", (top,), desc, top=topname)

    # --- comparing --------------------------------------------------------
    def beats(self, play: Reading, table: Reading, rules) -> bool:
        if play.is_bomb:
            if not table.is_bomb:
                return True
            if play.extra.get("kickers", 0) != table.extra.get("kickers", 0):
                return False
            return play.key > table.key
        if table.is_bomb or play.size != table.size:
            return False
        if play.kind == table.kind:
            return play.key > table.key
        return play.kind == "straight_flush" and table.kind == "straight"

    def why_not(self, play: Reading, table: Reading, rules) -> Text | None:
        if play.is_bomb and table.is_bomb and play.extra.get("kickers", 0) != table.extra.get("kickers", 0):
            return t("炸弹带牌张数不同（桌上带{a}张，这手带{b}张），管不上",
                     "the bombs carry different numbers of kicker cards (table {a}, this play {b}): no beat",
                     a=table.extra.get("kickers", 0), b=play.extra.get("kickers", 0))
        if table.kind == "straight_flush" and play.kind == "straight" and play.size == table.size:
            return t("普通顺子管不上同花顺", "a plain straight never beats a straight flush")
        return None

    # --- hints ------------------------------------------------------------
    def sizes(self, hand, table, rules):
        if table is None:
            return range(1, len(hand) + 1)
        bomb_sizes = {3, 4} if rules.preset != ZSY else set(range(4, 13))
        return sorted(bomb_sizes | {table.size})

    _last = (None, None)  # (hand object, its groups): the core asks for many sizes of one hand

    def candidates(self, hand, table, rules, size, need=None) -> Iterable[Sequence[Card]]:
        zsy = rules.preset == ZSY
        last_hand, groups = self._last
        if last_hand is not hand or type(hand) is not tuple:  # a tuple cannot change behind our back
            groups = by_rank(hand, _sort_key)
            self._last = (hand, groups)
        bombs_only = table is not None and (table.is_bomb or size != table.size)
        kind = None if table is None or bombs_only else table.kind

        def want(*kinds):
            return kind is None and not bombs_only or kind in kinds

        have = {r: len(g) for r, g in groups.items()}
        naturals = sorted((r for r in have if r not in (BIG_JOKER, LITTLE_JOKER)), key=power)

        def take(choice):
            out = []
            for r, k in choice:
                out.extend(groups[r][:k])
            return out

        # bombs
        if zsy:
            if size == 4 and have.get(BIG_JOKER, 0) == 2 and have.get(LITTLE_JOKER, 0) == 2:
                yield take([(BIG_JOKER, 2), (LITTLE_JOKER, 2)])
            for r in naturals:
                if have[r] >= size >= 4:
                    yield take([(r, size)])
            if rules.bomb_kickers:
                parts = [[(r, k)] for r in naturals for k in range(4, have[r] + 1)]
                if have.get(BIG_JOKER, 0) == 2 and have.get(LITTLE_JOKER, 0) == 2:
                    parts.append([(BIG_JOKER, 2), (LITTLE_JOKER, 2)])
                for part in parts:
                    m = size - sum(k for _, k in part)
                    used = {r for r, _ in part}
                    avail = [(r, have[r]) for r in sorted(have, key=power) if r not in used]
                    if m == 2:
                        for ch in multisets(avail, 2):
                            yield take(part + list(ch))
                    elif m == 4:
                        pairs = [r for r, k in avail if k >= 2]
                        for i, a in enumerate(pairs):
                            for b in pairs[i + 1:]:
                                yield take(part + [(a, 2), (b, 2)])
        else:
            for r in naturals:
                if have[r] == 4 and size == 4:
                    yield take([(r, 4)])
                if r == ACE and have[r] >= 3 and size == 3:
                    yield take([(r, 3)])
        if bombs_only:
            return

        every = sorted(have, key=power)
        if size == 1 and want("single"):
            for r in every:
                yield take([(r, 1)])
        if size == 2 and want("pair"):
            for r in every:
                if have[r] >= 2:
                    yield take([(r, 2)])
        if size == 3 and want("triple"):
            for r in naturals:
                if have[r] >= 3 and (zsy or r != ACE):
                    yield take([(r, 3)])
        attached = {4: (3, "triple_single"), 5: (3, "triple_pair" if zsy else "triple_two"),
                    6: (None if zsy else 4, "four_two")}.get(size)
        if attached and attached[0] and want(attached[1]):
            base = attached[0]
            for r in naturals:
                if have[r] < base:
                    continue
                avail = [(q, have[q]) for q in every if q != r]
                if zsy and size == 5:
                    for q, k in avail:
                        if k >= 2:
                            yield take([(r, 3), (q, 2)])
                else:
                    for ch in multisets(avail, size - base):
                        yield take([(r, base)] + list(ch))
        # runs
        for width, min_len in ((1, 5), (2, 2), (3, 2)):
            if size % width or size // width < min_len:
                continue
            length = size // width
            kinds = {1: ("straight", "straight_flush"), 2: ("pair_run",), 3: ("triple_run",)}[width]
            if not want(*kinds):
                continue
            for window in _all_windows(length, zsy):
                if all(have.get(r, 0) >= width for r in window):
                    if width == 1 and zsy:
                        yield from self._straights(groups, window)
                    else:
                        yield take([(r, width) for r in window])
        # triple runs with attachments
        for step in ((4, 5) if zsy else (5,)):
            if size % step:
                continue
            k = size // step
            if k < 2 or (not zsy and k > 3):
                continue
            kinds = ("triple_run_singles",) if step == 4 else (("triple_run_pairs",) if zsy else ("airplane",))
            if not want(*kinds):
                continue
            for window in _all_windows(k, zsy):
                if not all(have.get(r, 0) >= 3 for r in window):
                    continue
                avail = [(q, have[q]) for q in every if q not in window]
                if not zsy:
                    avail = [(q, c) for q, c in avail if q not in (BIG_JOKER, LITTLE_JOKER)]
                if step == 4 or not zsy:
                    for ch in multisets(avail, size - 3 * k):
                        yield take([(r, 3) for r in window] + list(ch))
                else:
                    pairs = [(q, c // 2) for q, c in avail if c >= 2]
                    for ch in multisets(pairs, k):
                        yield take([(r, 3) for r in window] + [(q, 2 * m) for q, m in ch])

    @staticmethod
    def _straights(groups, window):
        """争上游 straights: one non-flush representative and every flush the hand holds."""
        picks = [groups[r] for r in window]
        first = [g[0] for g in picks]
        if len({c.suit for c in first}) > 1:
            yield first
        else:
            for i, g in enumerate(picks):
                other = next((c for c in g if c.suit != first[0].suit), None)
                if other is not None:
                    yield first[:i] + [other] + first[i + 1:]
                    break
        suits = set.intersection(*({c.suit for c in g} for g in picks))
        for s in suits:
            yield [next(c for c in g if c.suit == s) for g in picks]

    def no_pattern(self, cards, rules) -> Text:
        text = format_cards(cards, self.sort_key(rules))
        ranks = [c.rank for c in cards]
        if len(cards) >= 5 and len(set(ranks)) == len(ranks) and 2 in ranks and not any(
                c.is_joker for c in cards) and run_top(ranks, rules.preset == ZSY) is None:
            if rules.preset == ZSY:
                return t("「{c}」不成牌型：2在顺子里只能当小牌（A2345、23456），顺子不能绕圈（QKA23 不行）",
                         "“{c}” is no pattern: in a run 2 is only low (A2345, 23456) and runs never wrap "
                         "(QKA23 is none)", c=text)
            return t("「{c}」不成牌型：跑得快的顺子里不能有2", "“{c}” is no pattern: 2 is never part of a straight here",
                     c=text)
        return super().no_pattern(cards, rules)


def _windows(tri: Sequence[int], k: int, low_ok: bool):
    """Windows of ``k`` ranks out of ``tri`` that could be consecutive."""
    for window in _all_windows(k, low_ok):
        if all(r in tri for r in window):
            yield window


def _all_windows(length: int, low_ok: bool):
    """Every run of ``length`` consecutive ranks: 3… up to A, and A-2-3… / 2-3… when low runs are allowed."""
    out = []
    for start in range(3, ACE - length + 2):
        out.append(list(range(start, start + length)))
    if low_ok:
        if length >= 2 and 2 + length - 1 >= 3:
            out.append([2] + list(range(3, 2 + length)))
        if length >= 3:
            out.append([ACE, 2] + list(range(3, 1 + length)))
    return out


def _sort_key(card: Card) -> tuple:
    return (-_POWER[card.rank], card._suit_index if card.suit is not None else 9)


SPEC = PaodekuaiSpec()


def sort_key_for(rules):
    return SPEC.sort_key(rules)


def pattern_texts(rules) -> list[Text]:
    """The patterns of a preset, for the rules page."""
    if rules.preset == ZSY:
        return [
            t("单张、对子（大王大王、小王小王是对子，大王小王不是）、三张", "single, pair (大王大王 and 小王小王 are pairs, 大王小王 is not), triple"),
            t("三张带一张单牌或一对", "a triple with one single or one pair"),
            t("连对：两对或以上相连（3344）", "pair run: 2 or more consecutive pairs (3344)"),
            t("连三同张：两个或以上相连的三张，每个三张可带一张单牌或一对，要么都带单，要么都带对（解读）",
              "triple run: 2 or more consecutive triples; each may carry a single or a pair, all singles or all "
              "pairs (reading)"),
            t("顺子：5张或以上相连，A可大可小，2只能当小牌（A2345、23456 最小）；不能绕圈，王不进顺子；连对、连三同张同理（解读）",
              "straight: 5 or more consecutive ranks; A high or low, 2 only low (A2345 and 23456 are the lowest); "
              "no wrap, no jokers; the same for pair and triple runs (reading)"),
            t("同花顺：同花色的顺子，管任何同样张数的普通顺子；不是炸弹（解读）",
              "straight flush: beats any plain straight of the same length; not a bomb (reading)"),
            t("炸弹：4张或以上同点数，张数多的大，张数相同比点数；天王炸弹（大王大王小王小王）最大",
              "bomb: 4 or more of a rank; more cards beat fewer, then rank; 大王大王小王小王 is the highest"),
        ]
    return [
        t("单张、对子、三张", "single, pair, triple"),
        t("三带一；三带二（两张单牌或一对）", "triple with one; triple with two (two singles or a pair)"),
        t("顺子：5张或以上相连，3到A，2不能进顺子", "straight: 5 or more consecutive from 3 up to A; never a 2"),
        t("连对：两对或以上相连；三顺：两个或以上相连的三张；都不能有2",
          "pair run: 2 or more consecutive pairs; triple run: 2 or more consecutive triples; no 2"),
        t("飞机带翅膀：2或3个相连的三张，每个带两张", "airplane: 2 or 3 consecutive triples, each with two cards"),
        t("四带二：四张加两张单牌或一对，不是炸弹", "four with two: four of a rank plus two singles or a pair; not a bomb"),
        t("炸弹：四张同点数，或三个A（默认是最小的炸弹，见 aaa_top）",
          "bomb: four of a rank, or three aces (the lowest bomb unless aaa_top)"),
    ]


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


SETTLE_INPUT = Schema((
    SeatField("winner", t("先出完的人", "who went out first")),
    PerSeatField("cards_left", t("剩余张数", "cards left"),
                 item=IntField("cards_left", t("剩余张数", "cards left"), lo=0, hi=_dealt), entry="cards_left",
                 zero_at="winner"),
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


def settle(values, rules) -> dict:
    dealt = PRESETS[rules.preset]["dealt"]
    winner, left = values.winner, values.cards_left
    _check_cards_left(winner, left, dealt)
    stake = rules.stake
    deltas = [0] * len(left)
    steps: list[Text] = []
    for i, n in enumerate(left):
        if i == winner:
            continue
        if rules.penalty == "seed":
            mult, why = multiplier(n, dealt)
            pay = n * mult * stake
            steps.append(t("{s}：剩{n}张，{why} ×{m} ×底分{st} = −{p}",
                           "{s}: {n} left, {why} ×{m} × stake {st} = −{p}",
                           s=seat_name(i), n=n, why=why, m=mult, st=stake, p=pay))
        else:
            if n == 1:
                pay = 0
                steps.append(t("{s}：只剩1张（报单），不付 = 0", "{s}: 1 card left (last card called), pays nothing = 0",
                               s=seat_name(i)))
            elif n == dealt:
                pay = n * 2 * stake
                steps.append(t("{s}：剩{n}张，一张没出（全关）×2 ×底分{st} = −{p}",
                               "{s}: {n} left, played nothing (shut out) ×2 × stake {st} = −{p}",
                               s=seat_name(i), n=n, st=stake, p=pay))
            else:
                pay = n * stake
                steps.append(t("{s}：剩{n}张 ×底分{st} = −{p}", "{s}: {n} left × stake {st} = −{p}",
                               s=seat_name(i), n=n, st=stake, p=pay))
        deltas[i] -= pay
        deltas[winner] += pay
    steps.append(t("{s}先出完，收 {p}", "{s} went out first and collects {p}", s=seat_name(winner), p=deltas[winner]))
    return settlement(deltas, steps, dealt=dealt)


ACTIONS = shedding_actions(SPEC)


class Paodekuai(Game):
    slug = "paodekuai"
    name = t("跑得快 / 争上游", "Paodekuai / Zhengshangyou")
    kind = "shedding"
    summary = t("先出完手牌的人赢，输家按剩牌数付分", "first to play out all cards wins; losers pay by the cards they hold")
    ruleset = RULESET
    settle_input = SETTLE_INPUT
    deck_of = staticmethod(deck_for)
    action_table = ACTIONS
    settle_of = staticmethod(settle)

    def seat_range(self, rules=None):
        players = PRESETS[self.ruleset.resolve(rules).preset]["players"]
        return (players, players)


GAME = Paodekuai()
