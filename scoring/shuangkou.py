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
from .rules import Option, Preset, RuleSet, switch
from .shedding import Reading, SheddingSpec, distinct_readings, shedding_actions

JOKERS = (BIG_JOKER, LITTLE_JOKER)
MAX_PLAY = 27
MAX_COPIES = 8
MIN_LINES, MAX_LINES = 4, 11  # 4 of a kind … 8线3连环

# ==========================================================================
# House rules
# ==========================================================================

RULESET = RuleSet(
    options=(
        Option("wild", "both", ("both", "big", "none"), t("百搭（王当任意牌）", "Wild jokers"),
               t("both：四个王都可当任意牌；big（百变）：只有大王可以；none：王不当别的牌。王单独出时就是王本身。",
                 "both: all four jokers stand for any card; big (百变): only 大王; none: jokers are never wild. "
                 "Played alone, jokers are themselves."),
               value_labels={"both": t("大小王都百搭", "both jokers"), "big": t("只有大王百搭", "only the big joker"), "none": t("王不百搭", "no wild jokers")}),
        Option("same_lines", "fewer_cards", ("fewer_cards", "first_played"), t("线数相同的炸弹", "Bombs of equal lines"),
               t("fewer_cards：线数相同时张数少的大，再比点数（原文正文）；first_played：线数相同谁先出谁大，只有线数更多才能管",
                 "fewer_cards: with equal lines the bomb with fewer cards wins, then the higher rank (seed main "
                 "text); first_played: equal lines never beat, only more lines do"),
               value_labels={"fewer_cards": t("张数少的大", "fewer cards win"), "first_played": t("先出的大", "the first played wins")}),
        switch("chain_with_two", t("连环炸弹可以带2", "Chain bombs may hold 2"),
               t("2 可以进连环炸弹并可绕圈（A23…）；带2的连环是同线数、同张数中最小的",
                 "2 may appear in chain bombs, wrapping (A23…); such a chain is the lowest of its lines and size")),
        switch("uneven_chain", t("连环各组张数可不同（千变）", "Uneven chain groups (千变)"),
               t("连环炸弹各组张数可以不同，以最少的一组为线数 X", "a chain's groups may differ in size; X is the smallest group")),
        Option("cap_lines", 8, tuple(range(8, 13)), t("翻倍封顶线数", "Doubling cap (lines)"),
               t("赢方最大的炸弹 5线×2、6线×4、7线×8，每多一线再翻倍，到这个线数为止（原文到8线×16）",
                 "the winners' largest bomb: 5 lines ×2, 6 ×4, 7 ×8, doubling for every further line up to this "
                 "cap (the seed stops at 8 lines ×16)")),
        Option("contribution", "seed", ("seed", "1-3-5"), t("贡献分", "Bomb contribution"),
               t("6线及以上的炸弹当即收分：seed：6线 +6/每人−2，7线 +18/−6，8线及以上 +30/−10；1-3-5：+3/−1、+9/−3、+15/−5",
                 "every bomb of 6 lines or more pays at once: seed: 6 lines +6 / −2 from each other player, "
                 "7 lines +18/−6, 8 or more +30/−10; 1-3-5: +3/−1, +9/−3, +15/−5"),
               value_labels={"seed": t("种子规则的贡献分", "the seed's contributions"), "1-3-5": t("1-3-5 贡献分", "1-3-5 contributions")}),
        Option("pingkou", "table", ("table", "draw"), t("平扣", "Pingkou (1st and 4th partners)"),
               t("table：+1 −1 −1 +1；draw：打和，贡献分之前都是0。平扣时先出完的一方仍按赢方算翻倍（解读）",
                 "table: +1 −1 −1 +1; draw: a draw, all 0 before contributions. In 平扣 the team of the first "
                 "player out still counts as the winners for the multiplier (reading)"),
               reading=True,
               value_labels={"table": t("按表计分", "scored by the table"), "draw": t("算平局", "a draw")}),
        Option("min_triple_run", 3, (3, 2), t("连三张最少几连", "Shortest triple run"),
               t("原文“三个或三个以上”；可改为2（555666）", "the seed says three or more triples; 2 allows 555666")),
    ),
    presets=(
        Preset("seed", t("原文规则", "Seed rules"),
               help=t("原文正文：四个王都百搭，连环炸弹不带2", "the seed's main text: all four jokers wild, no 2 in chains")),
        Preset("baibian", t("百变", "Baibian"), {"wild": "big", "chain_with_two": True},
               help=t("只有大王百搭；连环炸弹可以带2", "only 大王 is wild; chains may hold 2")),
        Preset("qianbian", t("千变", "Qianbian"), {"wild": "both", "uneven_chain": True},
               help=t("四个王百搭；连环各组张数可不同", "all four jokers wild; chain groups may differ in size")),
    ),
)

DECK = Deck(2, jokers=True, name=t("两副牌（108张）", "two packs (108)"))


def deck_for(rules) -> Deck:
    return DECK


_POWER = {r: r for r in range(3, ACE + 1)}
_POWER.update({2: 15, LITTLE_JOKER: 16, BIG_JOKER: 17})


def power(rank: int) -> int:
    return _POWER[rank]


def wild_ranks(rules) -> tuple[int, ...]:
    return {"both": JOKERS, "big": (BIG_JOKER,), "none": ()}[rules.wild]


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


def _names(ranks) -> str:
    return " ".join(rank_name(r) for r in ranks)


def make_reading(kind: str, cards: Sequence[Card], key: tuple, shown: Sequence[int], wild_as: Sequence[int] = (),
                 lines: int | None = None, chain: tuple[int, int] | None = None, top: int | None = None) -> Reading:
    """One reading; ``shown`` are the ranks the cards stand for, ``wild_as`` what the jokers stand for."""
    n = len(cards)
    desc = _names(shown)
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
        label = label + t("（王当 {w}）", " (jokers as {w})", w=_names(wild_as))
        extra["wild_as"] = [rank_name(r) for r in wild_as]
    if lines is not None:
        extra["lines"] = lines
    if chain:
        extra["chain"] = {"x": chain[0], "y": chain[1]}
    return Reading(kind, label, key, n, lines is not None, tuple(cards), extra)


def _bomb_key(lines: int, n: int, top: int, special: bool = False) -> tuple:
    return (lines, 0 if special else 1, -n, top)


def _chain_windows(y: int, rules) -> list[tuple[list[int], int]]:
    """(ranks, top) of every chain of ``y`` consecutive ranks; chains with 2 wrap and rank lowest."""
    return _CHAIN_WINDOWS[(y, bool(rules.chain_with_two))]


def _make_chain_windows(y: int, with_two: bool) -> list[tuple[list[int], int]]:
    out = [(list(range(s, s + y)), s + y - 1) for s in range(3, ACE - y + 2)]
    if with_two:
        ring = list(range(2, ACE + 1))  # 2 3 … A
        for pos in range(y):  # where the 2 sits in the window
            start = (0 - pos) % len(ring)
            window = [ring[(start + i) % len(ring)] for i in range(y)]
            out.append((window, window[-1]))
    return out


_CHAIN_WINDOWS = {(y, w): _make_chain_windows(y, w) for y in range(3, 7) for w in (False, True)}


def _run_windows(length: int) -> list[list[int]]:
    return [list(range(s, s + length)) for s in range(3, ACE - length + 2)]


class ShuangkouSpec(SheddingSpec):
    slug = "shuangkou"
    bare = True

    def deck(self, rules) -> Deck:
        return DECK

    def order(self, card: Card, rules) -> int:
        return _POWER[card.rank]

    def max_hand(self, rules) -> int:
        return MAX_PLAY

    def sort_key(self, rules):
        return _sort_key

    def no_pattern(self, cards, rules) -> Text:
        text = format_cards(cards, self.sort_key(rules))
        if len(cards) > MAX_PLAY:
            return t("「{c}」有{n}张：一手牌最多27张", "“{c}” has {n} cards: a play holds at most 27", c=text, n=len(cards))
        ranks = {c.rank for c in cards}
        if 2 in ranks and len(ranks) > 1 and not ranks <= set(JOKERS) | {2}:
            return t("「{c}」不成牌型：2 不能进顺子、连对、连三张或连环炸弹",
                     "“{c}” is no pattern: 2 never joins a straight, a pair or triple run, or a chain bomb", c=text)
        return t("「{c}」不成任何双扣牌型", "“{c}” is no pattern of 双扣", c=text)

    # --- reading a card set ----------------------------------------------
    def readings(self, cards: Sequence[Card], rules) -> list[Reading]:
        cards = tuple(cards)
        n = len(cards)
        if n == 0 or n > MAX_PLAY:
            return []
        cnt = Counter(c.rank for c in cards)
        out: list[Reading] = []
        if all(r in JOKERS for r in cnt):
            out = self._jokers_alone(cards, cnt)
            return out
        wild = wild_ranks(rules)
        nat = {r: k for r, k in cnt.items() if r not in wild}
        if any(r in JOKERS for r in nat) or any(k > MAX_COPIES for k in nat.values()):
            return []
        # X of a kind
        if len(nat) == 1 and n <= MAX_COPIES:
            r = next(iter(nat))
            fill = [r] * (n - nat[r])
            if n >= 4:
                out.append(make_reading("bomb", cards, _bomb_key(n, n, power(r)), [r] * n, fill, lines=n, top=r))
            else:
                out.append(make_reading(_SAME[n], cards, (power(r),), [r] * n, fill, top=r))
        plain = all(3 <= r <= ACE for r in nat)
        if plain:
            lo, hi = min(nat), max(nat)
            for width, kind, lmin in ((1, "straight", 5), (2, "pair_run", 3), (3, "triple_run", rules.min_triple_run)):
                if n % width or max(nat.values()) > width:
                    continue
                length = n // width
                if not lmin <= length <= 12:
                    continue
                for start in range(max(3, hi - length + 1), min(lo, ACE - length + 1) + 1):
                    window = range(start, start + length)
                    fill = [r for r in window for _ in range(width - nat.get(r, 0))]
                    out.append(make_reading(kind, cards, (start + length - 1,), [r for r in window for _ in range(width)],
                                            fill, top=start + length - 1))
        # chain bombs
        for y in range(3, 7):
            if n < 4 * y or n > MAX_COPIES * y or len(nat) > y:
                continue
            for window, top in _chain_windows(y, rules):
                if any(r not in window for r in nat):
                    continue
                for x in self._chain_xs(window, nat, n, y, rules):
                    groups = self._groups_for(window, nat, n, x)
                    shown = [r for r, g in zip(window, groups) for _ in range(g)]
                    fill = [r for r, g in zip(window, groups) for _ in range(g - nat.get(r, 0))]
                    out.append(make_reading("chain", cards, _bomb_key(x + y, n, top), shown, fill, lines=x + y,
                                            chain=(x, y), top=top))
        return _sorted(out)

    @staticmethod
    def _chain_xs(window, nat, n, y, rules) -> list[int]:
        """Every X (smallest group) this window allows, largest first."""
        if not rules.uneven_chain:
            if n % y:
                return []
            x = n // y
            return [x] if 4 <= x <= MAX_COPIES and all(nat.get(r, 0) <= x for r in window) else []
        xs = []
        low = min(nat.get(r, 0) for r in window)
        for x in range(MAX_COPIES, 3, -1):
            if low <= x and sum(max(nat.get(r, 0), x) for r in window) <= n <= x + MAX_COPIES * (y - 1):
                xs.append(x)
        return xs

    @staticmethod
    def _groups_for(window, nat, n, x) -> list[int]:
        """Group sizes for a reading with smallest group ``x``: the spare jokers go to the lowest groups."""
        groups = [max(nat.get(r, 0), x) for r in window]
        spare = n - sum(groups)
        i = 0
        # keep one group at exactly x; fill the others up to 8
        keep = next(i for i, r in enumerate(window) if nat.get(r, 0) <= x)
        for i in range(len(groups)):
            if i == keep:
                continue
            add = min(spare, MAX_COPIES - groups[i])
            groups[i] += add
            spare -= add
        return groups

    @staticmethod
    def _jokers_alone(cards, cnt) -> list[Reading]:
        n = len(cards)
        shown = sorted((c.rank for c in cards), reverse=True)
        if n == 1:
            r = shown[0]
            return [make_reading("single", cards, (power(r),), shown, top=r)]
        if n == 2 and len(cnt) == 1:
            r = shown[0]
            return [make_reading("pair", cards, (power(r),), shown, top=r)]
        if n == 3:
            return [make_reading("three_jokers", cards, _bomb_key(6, 3, 0, True), shown, lines=6)]
        if n == 4:
            return [make_reading("four_jokers", cards, _bomb_key(7, 4, 0, True), shown, lines=7)]
        return []

    # --- comparing ---------------------------------------------------------
    def beats(self, play: Reading, table: Reading, rules) -> bool:
        if play.is_bomb:
            if not table.is_bomb:
                return True
            if rules.same_lines == "first_played":
                return play.key[0] > table.key[0]
            return play.key > table.key
        if table.is_bomb:
            return False
        return play.kind == table.kind and play.size == table.size and play.key > table.key

    def why_not(self, play, table, rules):
        if play.is_bomb and table.is_bomb and rules.same_lines == "first_played" and play.key[0] == table.key[0]:
            return t("线数一样，先出的大（first_played）：要更多线才管得上",
                     "equal lines: the first played wins (first_played); only more lines beat it")
        if play.is_bomb and table.is_bomb and play.key[0] == table.key[0]:
            return t("线数一样（{l}线）：张数少的大，张数也一样比点数；三王、天王是同线数里最小的",
                     "equal lines ({l}): fewer cards win, then the higher rank; 三王 and 天王 are the lowest of "
                     "their lines", l=play.key[0])
        return None

    # --- hints ---------------------------------------------------------------
    def sizes(self, hand, table, rules):
        top = min(len(hand), MAX_PLAY)
        if table is None:
            return range(1, top + 1)
        return sorted({table.size, 3, 4, 5, 6, 7, 8} | set(range(12, top + 1)))

    _last = (None, None)  # (hand object, its groups): the core asks for many sizes of one hand

    def candidates(self, hand, table, rules, size, need=None) -> Iterable:
        last_hand, groups = self._last
        if last_hand is not hand or type(hand) is not tuple:  # a tuple cannot change behind our back
            groups = _groups(hand)
            self._last = (hand, groups)
        return _candidates(groups, table, rules, size, need, self)


def _sort_key(card: Card) -> tuple:
    return (-_POWER[card.rank], card._suit_index if card.suit is not None else 9)


SPEC = ShuangkouSpec()


def sort_key_for(rules=None):
    """Canonical card order (highest first) for pages: 大王 小王 2 A K … 3."""
    return _sort_key


def _sorted(readings: list[Reading]) -> list[Reading]:
    out = distinct_readings(readings)
    out.sort(key=lambda r: (r.is_bomb, r.key if r.is_bomb else (_PRIORITY[r.kind],) + r.key), reverse=True)
    return out


# ==========================================================================
# Candidate generation (the fast path of the hint)
# ==========================================================================

def _groups(hand: Sequence[Card]) -> tuple[dict[int, list[Card]], dict[int, int]]:
    """Cards by rank (canonical order) and how many of each natural rank."""
    groups: dict[int, list[Card]] = {}
    for c in sorted(hand, key=_sort_key):
        groups.setdefault(c.rank, []).append(c)
    return groups, {r: len(g) for r, g in groups.items() if r not in JOKERS}


def _candidates(prep, table, rules, size, need, spec) -> Iterable:
    groups, have = prep
    wild = wild_ranks(rules)
    big = groups.get(BIG_JOKER, []) if BIG_JOKER in wild else []
    little = groups.get(LITTLE_JOKER, []) if LITTLE_JOKER in wild else []
    budget = len(big) + len(little)
    need_joker = need if need in (16, 17) else None
    need_joker = {16: LITTLE_JOKER, 17: BIG_JOKER}.get(need_joker)
    need_rank = None if need is None or need_joker else (2 if need == 15 else need)

    split_cache: dict[int, list] = {}

    def splits(k: int) -> list:
        if k not in split_cache:
            out = []
            for b in range(min(k, len(big)), -1, -1):
                l = k - b
                if l > len(little):
                    break
                if (need_joker == BIG_JOKER and b == 0) or (need_joker == LITTLE_JOKER and l == 0):
                    continue
                out.append(big[:b] + little[:l])
            split_cache[k] = out
        return split_cache[k]

    table_bomb = table is not None and table.is_bomb
    first_played = rules.same_lines == "first_played"

    def keep(kind: str, key: tuple, bomb: bool) -> bool:
        if table is None:
            return True
        if bomb:
            if not table_bomb:
                return True
            return key[0] > table.key[0] if first_played else key > table.key
        return not table_bomb and kind == table.kind and size == table.size and key > table.key

    # jokers alone
    if need_rank is None:
        jokers = groups.get(BIG_JOKER, []) + groups.get(LITTLE_JOKER, [])
        if size <= 4 and len(jokers) >= size:
            seen = set()
            for b in range(min(size, len(groups.get(BIG_JOKER, []))), -1, -1):
                l = size - b
                if l > len(groups.get(LITTLE_JOKER, [])):
                    continue
                cards = groups.get(BIG_JOKER, [])[:b] + groups.get(LITTLE_JOKER, [])[:l]
                key = (b, l)
                if key in seen:
                    continue
                seen.add(key)
                for r in SPEC._jokers_alone(tuple(cards), Counter(c.rank for c in cards)):
                    if keep(r.kind, r.key, r.is_bomb):
                        yield cards, r
                        break

    def fills(window: Sequence[int], widths: Sequence[int]):
        """(naturals used per rank, jokers needed) for a template, at least one natural card."""
        m = len(window)
        res = []
        acc = [0] * m
        # most jokers the ranks after i can still absorb is irrelevant: bound only by budget
        def rec(i: int, deficit: int):
            if i == m:
                if deficit < size:
                    res.append((tuple(acc), deficit))
                return
            r, g = window[i], widths[i]
            h = min(have.get(r, 0), g)
            lo = max(0, g - (budget - deficit))
            if r == need_rank:
                lo = max(lo, 1)
            for u in range(h, lo - 1, -1):
                acc[i] = u
                rec(i + 1, deficit + g - u)
            acc[i] = 0
        rec(0, 0)
        return res

    def emit(window, widths, kind, key, bomb, make):
        """Every candidate of one template; ``make(cards, fill)`` builds its reading when kept."""
        if need_rank is not None and need_rank not in window:
            return
        if not keep(kind, key, bomb):
            return
        for used, k in fills(window, widths):
            sp = splits(k)
            if not sp:
                continue
            nat_cards = []
            for r, u in zip(window, used):
                if u:
                    nat_cards.extend(groups[r][:u])
            fill = [r for r, g, u in zip(window, widths, used) for _ in range(g - u)] if k else []
            for jk in sp:
                cards = nat_cards + jk
                yield cards, (lambda cards=cards, fill=fill: make(cards, fill))

    # X of a kind
    if size <= MAX_COPIES and (table is None or table_bomb or size >= 4
                               or (table.kind == _SAME.get(size) and table.size == size)):
        for r in have:
            if table is not None and not table_bomb and size < 4 and power(r) <= table.key[0]:
                continue
            if size >= 4:
                key = _bomb_key(size, size, power(r))
                yield from emit([r], [size], "bomb", key, True, lambda cards, fill, r=r, key=key: make_reading(
                    "bomb", cards, key, [r] * size, fill, lines=size, top=r))
            else:
                yield from emit([r], [size], _SAME[size], (power(r),), False, lambda cards, fill, r=r: make_reading(
                    _SAME[size], cards, (power(r),), [r] * size, fill, top=r))

    # runs
    if table is None or (not table_bomb and table.size == size):
        for width, kind, lmin in ((1, "straight", 5), (2, "pair_run", 3), (3, "triple_run", rules.min_triple_run)):
            if size % width or (table is not None and table.kind != kind):
                continue
            length = size // width
            if not lmin <= length <= 12:
                continue
            for window in _run_windows(length):
                top = window[-1]
                if table is not None and top <= table.key[0]:
                    continue
                yield from emit(window, [width] * length, kind, (top,), False,
                                lambda cards, fill, window=window, top=top, width=width, kind=kind: make_reading(
                                    kind, cards, (top,), [r for r in window for _ in range(width)], fill, top=top))

    # chain bombs
    for y in range(3, 7):
        if size < 4 * y or size > MAX_COPIES * y:
            continue
        for window, top in _chain_windows(y, rules):
            if need_rank is not None and need_rank not in window:
                continue
            if not rules.uneven_chain:
                if size % y:
                    continue
                x = size // y
                if not 4 <= x <= MAX_COPIES:
                    continue
                key = _bomb_key(x + y, size, top)
                yield from emit(window, [x] * y, "chain", key, True,
                                lambda cards, fill, window=window, top=top, x=x, y=y, key=key: make_reading(
                                    "chain", cards, key, [r for r in window for _ in range(x)], fill,
                                    lines=x + y, chain=(x, y), top=top))
            else:
                yield from _uneven(window, top, y, size, have, groups, budget, splits, need_rank, keep)


def _best_x(used: Sequence[int], size: int, y: int) -> int | None:
    """The largest smallest-group X (4..8) that ``size`` cards over these naturals allow, or None."""
    low = min(used)
    for x in range(MAX_COPIES, 3, -1):
        if low <= x and size <= x + MAX_COPIES * (y - 1) and sum(u if u > x else x for u in used) <= size:
            return x
    return None


def _uneven(window, top, y, size, have, groups, budget, splits, need_rank, keep):
    """千变 chains: naturals per rank 0..8 (at least one card), the rest jokers; X = best smallest group."""
    caps = [min(have.get(r, 0), MAX_COPIES) for r in window]
    m = len(window)
    tail = [sum(caps[i:]) for i in range(m + 1)]
    acc = [0] * m
    found = []

    def rec(i, total, floor):
        # total: naturals so far; floor: the least cards the groups so far need (each group has 4 or more)
        if total + tail[i] < size - budget or floor + 4 * (m - i) > size:
            return
        if i == m:
            if total:
                found.append(tuple(acc))
            return
        lo = 1 if window[i] == need_rank else 0
        for u in range(min(caps[i], size - total), lo - 1, -1):
            acc[i] = u
            rec(i + 1, total + u, floor + (u if u > 4 else 4))
        acc[i] = 0

    rec(0, 0, 0)
    for used in found:
        k = size - sum(used)
        sp = splits(k)
        if not sp:
            continue
        x = _best_x(used, size, y)
        if x is None:
            continue
        key = _bomb_key(x + y, size, top)
        if not keep("chain", key, True):
            continue
        nat = {r: u for r, u in zip(window, used) if u}
        nat_cards = [c for r, u in zip(window, used) if u for c in groups[r][:u]]
        for jk in sp:
            yield nat_cards + jk, (lambda cards=nat_cards + jk, nat=nat, x=x, key=key: _chain_reading(
                window, top, y, cards, nat, x, key))


def _chain_reading(window, top, y, cards, nat, x, key) -> Reading:
    groups_ = ShuangkouSpec._groups_for(window, nat, len(cards), x)
    shown = [r for r, g in zip(window, groups_) for _ in range(g)]
    fill = [r for r, g in zip(window, groups_) for _ in range(g - nat.get(r, 0))]
    return make_reading("chain", cards, key, shown, fill, lines=x + y, chain=(x, y), top=top)


# ==========================================================================
# Settlement
# ==========================================================================

OUTCOMES = {1: ("shuangkou", 3, t("双扣", "double (双扣)")),
            2: ("dankou", 2, t("单扣", "single (单扣)")),
            3: ("pingkou", 1, t("平扣", "level (平扣)"))}
CONTRIBUTION = {"seed": {6: (6, 2), 7: (18, 6), 8: (30, 10)},
                "1-3-5": {6: (3, 1), 7: (9, 3), 8: (15, 5)}}


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
                      IntField("lines", t("线数", "lines"), required=False, lo=MIN_LINES, hi=MAX_LINES,
                               entry="chips"))),
))


def _bomb_lines(row, rules, path: str, label: Text) -> tuple[int, Text | None]:
    """A bomb row's lines (from its cards when given) and the cards' bomb reading; raises on a bad row."""
    if row.cards is None:
        if row.lines is None:
            raise MalformedInput(t("「{f}」要写牌或线数", "“{f}” needs its cards or its lines", f=label), field=path,
                                 code="missing_field")
        return row.lines, None
    bombs = [r for r in SPEC.readings(row.cards, rules) if r.is_bomb]
    shown = format_cards(row.cards, SPEC.sort_key(rules))
    if not bombs:
        raise InvalidInput(t("「{c}」不是炸弹：{why}", "“{c}” is not a bomb: {why}", c=shown,
                             why=_not_bomb_reason(row.cards, rules)), field=f"{path}.cards", code="not_a_bomb")
    lines = bombs[0].extra["lines"]
    if row.lines is not None and row.lines != lines:
        raise InvalidInput(t("{f}：牌「{c}」是{k}线炸弹，填的线数却是{l}；请改成一致（或只填一项）",
                             "{f}: the cards “{c}” make a {k}-line bomb but the lines say {l}; make them agree "
                             "(or give only one)", f=label, c=shown, k=lines, l=row.lines),
                           field=f"{path}.lines", code="cards_lines_disagree")
    return lines, bombs[0].label


def _bombs(values, rules) -> list[tuple[int, int, Text | None]]:
    """(seat, lines, bomb label or None) for every bomb; every problem at once."""
    out, problems = [], []
    for i, row in enumerate(values.bombs):
        path, label = f"bombs[{i}]", t("炸弹{n}", "bomb {n}", n=i + 1)
        try:
            lines, shown = _bomb_lines(row, rules, path, label)
        except PaijuError as exc:
            problems.append(exc)
            continue
        out.append((row.seat, lines, shown))
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
    rs = SPEC.readings(cards, rules)
    if rs:
        return t("它是 {r}", "it reads as {r}", r=rs[0].label)
    return SPEC.no_pattern(cards, rules)


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
        raise InvalidInput(t("finish_order {o} 还定不了结果：{p}（{f}的对家）是第三还是第四个出完？请再写一个座位",
                             "finish_order {o} does not decide the outcome yet: is {p} (partner of {f}) third or "
                             "fourth out? Give one more seat",
                             o=str(order), p=seat_name(partner), f=seat_name(first)),
                           field="finish_order", code="undecided")
    outcome, base, name = OUTCOMES[place]
    winners = {first, partner}
    if outcome == "pingkou" and rules.pingkou == "draw":
        base = 0
    deltas = [base if s in winners else -base for s in range(4)]
    steps = [t("{f}、{p}一方赢，{o}：{w}各 +{b}，另两家各 −{b}",
               "{f} and {p} win, {o}: each winner +{b}, each loser −{b}",
               f=seat_name(first), p=seat_name(partner), o=name, w=join([seat_name(s) for s in sorted(winners)], "、", " and "),
               b=base)]
    winning = [(s, lines, label) for s, lines, label in bombs if s in winners]
    mult = 1
    if winning:
        best = max(winning, key=lambda b: b[1])
        mult = multiplier_for(best[1], rules.cap_lines)
        steps.append(t("翻倍：赢方最大的炸弹是{s}的{l}线 → ×{m}", "multiplier: the winners' largest bomb is {s}’s "
                       "{l} lines → ×{m}", s=seat_name(best[0]), l=best[1], m=mult))
    else:
        steps.append(t("赢方没有炸弹 → ×1", "the winners played no bomb → ×1"))
    deltas = [d * mult for d in deltas]
    steps.append(t("底分 × 倍数：{d}", "base × multiplier: {d}", d=_fmt(deltas)))
    table = CONTRIBUTION[rules.contribution]
    for seat, lines, label in bombs:
        if lines < 6:
            continue
        gain, loss = table[min(lines, 8)]
        for s in range(4):
            deltas[s] += 3 * loss if s == seat else -loss
        steps.append(t("贡献分：{s}的{l}线炸弹 +{g}，其他每人 −{x}", "contribution: {s}’s {l}-line bomb +{g}, "
                       "each other player −{x}", s=seat_name(seat), l=lines, g=3 * loss, x=loss))
        assert gain == 3 * loss
    steps.append(t("合计：{d}", "total: {d}", d=_fmt(deltas)))
    return settlement(deltas, steps, outcome=outcome, outcome_name=name, multiplier=mult)


def _fmt(deltas) -> str:
    return "[" + ", ".join(f"{d:+d}".replace("-", "−") if d else "0" for d in deltas) + "]"


def pattern_texts(rules) -> list[Text]:
    """The patterns and bombs, for the rules page."""
    return [
        t("单张、对子、三张；顺子（5张以上，3到A）；连对（3对以上）；连三张（{m}个以上）；没有三带二；2和王不能按本身点数进连牌",
          "single, pair, triple; straight (5+ from 3 to A); pair run (3+ pairs); triple run ({m}+); no kickers; "
          "2 and jokers never join a run as themselves", m=rules.min_triple_run),
        t("炸弹：X张同点数（4–8张）= X线；三王 = 6线（6线里最小）；天王（四个王）= 7线（7线里最小）；"
          "X线Y连环（Y个相连点数各X张，3≤Y≤6）= X+Y线，不能有2",
          "bombs: X of a kind (4–8) = X lines; three jokers = 6 lines (lowest 6); four jokers = 7 lines "
          "(lowest 7); X-line Y-chain (Y consecutive ranks of X cards, 3≤Y≤6) = X+Y lines, no 2"),
        t("王和别的牌一起出时可当任意一张牌；几种读法时取大的，首家可选",
          "jokers played with natural cards stand for any card; the largest reading counts, a leader may pick"),
        t("比大小：同牌型同张数比最大点；炸弹管一切非炸弹；炸弹之间线多的大，线数一样张数少的大，再比点数",
          "comparing: same pattern and size, higher top; a bomb beats every non-bomb; between bombs more lines "
          "win, then fewer cards, then the higher rank"),
    ]


ACTIONS = shedding_actions(SPEC)


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
