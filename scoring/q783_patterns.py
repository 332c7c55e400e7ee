"""Q783's house rules, cards and patterns (``rules/q783.md``) on the shared shedding core, and its
classify / check / hint: :class:`Q783Spec` lists N of a kind, bombs, 正/副 Q783 and 双Q783 in Q783's own
rank order. Score cards (5, 10, K, jokers; A under ``ace_scores``) are money and never played. The money
(settle and following a hand live) is ``scoring/q783.py`` and ``scoring/q783_rounds.py``.

Readings made here where ``rules/q783.md`` is silent:

* a Q783 (or 双Q783) written with bare ranks must give its suits in
  classify, check (play and table) and in a round under ``scoring: pattern``;
  two different known suits already make it 副. In a *hint* from a hand
  without suits, a Q783 is listed and counted as 副 (reading ``pure: false,
  suits_known: false``);
* a hand (check/hint ``hand``) holding a score card is refused;
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from .cards import ACE, BIG_JOKER, JACK, KING, LITTLE_JOKER, QUEEN, Card, Deck, format_cards, rank_name
from .errors import AmbiguousPlay, InvalidInput
from .games import ActionTable
from .i18n import Text, t
from .q783_rounds import Scoring, Winner
from .rules import Option, Preset, RuleSet, switch
from .results import Classified
from .shedding.actions import Hint, Verdict
from .shedding import HandGroups, Pattern, RankOrder, bombs, stock, Reading, SheddingSpec, is_pass, read_cards, shedding_actions, spec_cache

# ==========================================================================
# House rules
# ==========================================================================

_AMOUNTS = tuple(range(0, 1001, 5))

RULESET = RuleSet(
    options=(
        Option("scoring", Scoring.PATTERN, tuple(Scoring),
               t("每圈计分", "round payouts"),
               t("「按赢牌的牌型」：按赢牌的牌型付（普通牌5、副Q783 20、正Q783 40、N张炸弹10×N、双Q783 40/80）；"
                 "「按出牌张数」：每人付 5 × 赢家本圈出牌张数",
                 "“by the winning pattern”: paid by the winning play's pattern (plain 5, 副Q783 20, 正Q783 40, "
                 "N-bomb 10×N, 双Q783 40/80); “by the cards played”: each pays 5 × the cards the winner played "
                 "in the round"),
               value_labels={Scoring.PATTERN: t("按赢牌的牌型", "by the winning pattern"),
                             Scoring.CARDS: t("按出牌张数", "by the cards played")}),
        Option("penalty", 50, _AMOUNTS, t("罚分（不分阵营）", "penalty (solo)"),
               t("小局结束时，每个输家付给第一个走的人的分（常见30、50、100）",
                 "what each other player pays the first player out at the end of a hand "
                 "(30, 50 and 100 are common)")),
        Option("team_penalty", 100, _AMOUNTS, t("罚分（分阵营）", "penalty (teams)"),
               t("小局结束时，负方每人付给胜方的分（常见50、100、200）",
                 "what each player of the losing team pays at the end of a hand "
                 "(50, 100 and 200 are common)")),
        switch("three_bombs", t("三张算炸弹", "three of a kind is a bomb"),
               t("三张同点数也是炸弹，排在副Q783之下", "three of a kind is a bomb too, below 副Q783")),
        switch("double_q783", t("双Q783", "double Q783"),
               t("两张Q、7、8、3共8张为双Q783：大于七张炸弹，小于八张炸弹",
                 "two each of Q, 7, 8, 3 (8 cards) make a double Q783: above a 7-bomb, below an 8-bomb")),
        switch("ace_scores", t("A算分", "aces score"),
               t("A也是分牌（A 50分、小王150、大王300，两副牌共1500分），不能出",
                 "A is a score card too (A 50, little joker 150, big joker 300; 1500 in two decks) "
                 "and is never played")),
        switch("two_low", t("2前置", "two low"),
               t("2最小：Q>7>8>3>A>J>9>6>4>2", "2 ranks lowest: Q>7>8>3>A>J>9>6>4>2")),
        Option("decks", 2, (2, 1), t("几副牌", "decks"),
               t("两副牌分牌共500分，一副牌共250分", "score cards total 500 with two decks, 250 with one")),
        switch("negative_banks", t("允许负分", "negative banks"),
               t("分输光后记负分继续打；默认分输光（到0）大局结束",
                 "banks may go negative and play goes on; by default a bank that reaches 0 ends "
                 "the 大局")),
        Option("winner", Winner.FIRST_OUT, tuple(Winner), t("小局胜负", "who wins a hand"),
               t("「先走的一方胜」：先走的一方胜（分阵营时一方占第一和最后名为平局）；「本小局得分多的胜」：本小局各圈得分多的一方胜"
                 "（解读：原文两种说法都有，默认按先走）",
                 "“the side of the first out wins”: the side of the first player out wins (in teams, holding both first and "
                 "last place is a draw); “the side that gained most wins”: the side that gained more in the hand's rounds wins "
                 "(reading: the source says both; first out is the default)"),
               reading=True,
               value_labels={Winner.FIRST_OUT: t("先走的一方胜", "the side of the first out wins"),
                             Winner.POINTS: t("本小局得分多的胜", "the side that gained most wins")}),
    ),
    presets=(Preset("standard", t("常见规则", "common rules"),
                    help=t("两副牌，按牌型计分，罚分50/100", "two decks, pattern payouts, penalty 50/100")),),
)

# ==========================================================================
# Cards: score cards and rank order
# ==========================================================================

_ORDER = (QUEEN, 7, 8, 3, 2, ACE, JACK, 9, 6, 4)          # high → low
_ORDER_TWO_LOW = (QUEEN, 7, 8, 3, ACE, JACK, 9, 6, 4, 2)
_Q783 = (QUEEN, 7, 8, 3)


def score_value(card: Card, rules) -> int:
    """Points of a score card (0 for a play card)."""
    if rules.ace_scores:
        values = {5: 5, 10: 10, KING: 10, ACE: 50, LITTLE_JOKER: 150, BIG_JOKER: 300}
    else:
        values = {5: 5, 10: 10, KING: 10, LITTLE_JOKER: 50, BIG_JOKER: 100}
    return values.get(card.rank, 0)


def is_score_card(card: Card, rules) -> bool:
    return score_value(card, rules) > 0


def score_total(rules) -> int:
    """All the score cards of the pack (2 decks 500, 1 deck 250; ace_scores ×3)."""
    per_deck = 750 if rules.ace_scores else 250
    return per_deck * rules.decks


def play_order(rules) -> tuple[int, ...]:
    """Play ranks, highest first."""
    order = _ORDER_TWO_LOW if rules.two_low else _ORDER
    if rules.ace_scores:
        order = tuple(r for r in order if r != ACE)
    return order


def rank_order(rules) -> RankOrder:
    """Q783's rank order: play ranks by ``play_order``, then score cards by value."""
    return RankOrder.high_to_low(play_order(rules), lambda card: (-score_value(card, rules), -card.rank))


def strength(rank: int, rules) -> int:
    """Higher is stronger; score ranks are -1."""
    return spec_for(rules).rank_order.power(rank)


def sort_key(rules):
    """Canonical order: play cards highest first, then score cards by value."""
    return spec_for(rules).sort_key()


def deck(rules) -> Deck:
    return Deck(copies=rules.decks)


def cards_str(cards: Sequence[Card], rules) -> str:
    return format_cards(cards, sort_key(rules))


def play_card_total(rules) -> int:
    return len([c for c in deck(rules).all_cards() if not is_score_card(c, rules)])


def read_play(text: Any, rules, field: str) -> tuple[Card, ...]:
    """Parse a play (bare ranks allowed) and check the pack can hold it."""
    return read_cards({field: text}, field, spec_for(rules))


def score_card_reason(cards: Sequence[Card], rules) -> Text | None:
    """Why these cards cannot be played because of a score card, or None."""
    scores = [c for c in cards if is_score_card(c, rules)]
    if not scores:
        return None
    c = sorted(scores, key=sort_key(rules))[0]
    return t("「{c}」是分牌（{v}分）：分牌只用来计分，不能出牌",
             "“{c}” is a score card ({v} points): score cards are money and are never played",
             c=str(c), v=score_value(c, rules))


# ==========================================================================
# Patterns on the shared shedding core (scoring/shedding/)
# ==========================================================================

_KIND_NAMES = {"single": t("单张", "single"), "pair": t("对子", "pair"), "triple": t("三张", "triple")}
Q783_KINDS = ("q783", "double_q783")
# Bomb-class levels, low → high (rules/q783.md "Comparing").
_BOMB_LEVEL = {3: 0, 4: 3, 5: 4, 6: 5, 7: 6, 8: 9}
_Q783_LEVEL = {(False, False): 1, (False, True): 2, (True, False): 7, (True, True): 8}  # (double, pure)
MAX_SET = 8  # no play is larger than 8 cards (8 of a kind, 双Q783)


def q783_purity(cards: Sequence[Card]) -> bool | None:
    """正 (True), 副 (False), or None when bare ranks leave it open."""
    suits = {c.suit for c in cards if c.suit is not None}
    if len(suits) > 1:
        return False
    if any(c.suit is None for c in cards):
        return None
    return True


def _q783_label(double: bool, pure: bool | None) -> Text:
    if pure is None:
        return (t("双Q783（未写花色，按副算）", "double Q783 (no suits given: counted as 副)") if double
                else t("Q783（未写花色，按副算）", "Q783 (no suits given: counted as 副)"))
    if double:
        return t("正双Q783", "正双Q783 (pure double Q783)") if pure else t("副双Q783", "副双Q783 (mixed double Q783)")
    return t("正Q783", "正Q783 (pure Q783)") if pure else t("副Q783", "副Q783 (mixed Q783)")


def is_bomb_class(r: Reading) -> bool:
    return r.is_bomb or r.kind in Q783_KINDS


def payout(r: Reading) -> int:
    """What each other player pays for a round won with this play (``scoring: pattern``)."""
    if r.kind == "q783":
        return 40 if r.extra.get("pure") else 20
    if r.kind == "double_q783":
        return 80 if r.extra.get("pure") else 40
    if r.is_bomb:
        return 10 * r.size
    return 5


class _BombClass(Pattern):
    """Bombs and Q783s: they beat every plain play, and each other by level."""

    def beats(self, play, table):
        return not is_bomb_class(table) or play.key > table.key

    def answers(self, table, size):
        return True


class NOfAKind(stock.SameRank):
    """Single, pair, triple (the stock one rank; every triple is a bomb with ``three_bombs``), labelled with the
    rank once: 对子（5）."""

    leads = Pattern.leads  # Q783's leads are read, not built

    def __init__(self, spec):
        super().__init__(spec)
        if self.rules.three_bombs:
            self.bomb_triples = tuple(self.order.powers)

    def detail(self, rank, n):
        return rank_name(rank)

    def extra(self, rank):
        return {"rank": rank_name(rank)}

    def beats(self, play, table):
        return not is_bomb_class(table) and play.size == table.size and play.key > table.key

    def answers(self, table, size):
        return table is None or (not is_bomb_class(table) and size == table.size)


class Bomb(_BombClass, bombs.Bomb):
    """The stock n of a kind (3 with ``three_bombs``, 4 … 8), keyed by Q783's bomb-class level."""

    most = MAX_SET
    leads = Pattern.leads  # Q783's leads are read, not built

    def __init__(self, spec):
        self.least = 3 if spec.rules.three_bombs else 4
        super().__init__(spec)

    def key(self, part):
        if len(part) != 1:
            return None
        rank, n = next(iter(part.items()))
        return (_BOMB_LEVEL[n], self.power(rank)) if self.least <= n <= self.most else None

    def plain(self, cards, part, key):
        rank, n = next(iter(part.items()))
        label = t("{n}张炸弹（{r}）", "{n}-card bomb ({r})", n=n, r=rank_name(rank))
        return self.reading("bomb", cards, key, label, rank=rank_name(rank))


class Q783(_BombClass):
    """Q 7 8 3 (or two of each with ``double_q783``): 正 when of one suit, 副 otherwise."""

    kinds = Q783_KINDS

    def copies(self) -> tuple[int, ...]:
        return (1, 2) if self.rules.double_q783 else (1,)

    def reads_size(self, n):
        return n % 4 == 0 and n // 4 in self.copies()

    def read(self, cards, counts):
        if set(counts) != set(_Q783) or len(set(counts.values())) != 1 or counts[QUEEN] not in self.copies():
            return
        double = counts[QUEEN] == 2
        pure = q783_purity(cards)
        extra = {"pure": bool(pure)}
        if pure is None:  # bare ranks (a hint from a hand without suits): counted as 副
            extra["suits_known"] = False
        yield self.reading("double_q783" if double else "q783", cards, (_Q783_LEVEL[double, bool(pure)], 0),
                           _q783_label(double, pure), **extra)

    def candidates(self, hand, table, size, need):
        k = size // 4
        if size % 4 == 0 and k in self.copies():
            yield from _q783_witnesses(hand.groups, k)


class Q783Spec(SheddingSpec):
    """Q783's patterns: N of a kind, bombs, 正/副 (双)Q783; score cards are never played."""

    slug = "q783"
    bare = True
    pattern_types = (NOfAKind, Bomb, Q783)
    kind_names = _KIND_NAMES

    def __init__(self, rules):
        self.rank_order = rank_order(rules)
        super().__init__(rules)

    def deck(self) -> Deck:
        return deck(self.rules)

    def group(self, hand):
        """The hand's ranked cards: score cards are never played (a hint's hand holds none)."""
        power = self.rank_order.card_power
        return HandGroups([c for c in hand if power(c) >= 0], self.rank_order)

    def identity(self, cards):
        ranks = tuple(sorted(c.rank for c in cards))
        if set(ranks) == set(_Q783) and len(ranks) in (4, 8):
            return ranks, q783_purity(cards)  # 正 and 副 of the same ranks are two plays
        return ranks

    def readings(self, cards: Sequence[Card], among=None) -> list[Reading]:
        if not cards or any(is_score_card(c, self.rules) for c in cards):
            return []
        return super().readings(cards, among)

    def why_not(self, play: Reading, table: Reading) -> Text | None:
        if is_bomb_class(table) and not is_bomb_class(play):
            return t("桌上是{tb}，普通牌管不上，只有更大的炸弹或Q783才行",
                     "the table holds {tb}: a plain play never beats it, only a higher bomb or Q783 does",
                     tb=table.label)
        if is_bomb_class(play) and is_bomb_class(table):
            if play.key == table.key:
                return t("{r}和桌上的{tb}一样大，管不上", "{r} is equal to the table’s {tb}: it does not beat it",
                         r=play.label, tb=table.label)
            return t("{r}比桌上的{tb}小（炸弹类从小到大：三张炸弹、副Q783、正Q783、4–7张炸弹、副/正双Q783、8张炸弹）",
                     "{r} is lower than the table’s {tb} (bomb class, low → high: 3-bomb, 副Q783, 正Q783, "
                     "4- to 7-bombs, 副/正 double Q783, 8-bomb)", r=play.label, tb=table.label)
        if play.size != table.size:
            return t("张数不同：桌上是{tb}（{n}张），出的是{r}（{m}张）；普通牌只能用同样张数的更大的牌管",
                     "a different size: the table holds {tb} ({n} cards), this is {r} ({m} cards); a plain play "
                     "is beaten only by as many cards of a higher rank", tb=table.label, n=table.size,
                     r=play.label, m=play.size)
        return t("{r}不比桌上的{tb}大（Q783的大小：{order}）", "{r} is not higher than the table’s {tb} "
                 "(Q783 order: {order})", r=play.label, tb=table.label, order=order_text(self.rules))

    def no_pattern(self, cards: Sequence[Card]) -> Text:
        rules = self.rules
        reason = score_card_reason(cards, rules)
        if reason is not None:
            return reason
        counts = Counter(c.rank for c in cards)
        if set(counts) == set(_Q783) and set(counts.values()) == {2} and not rules.double_q783:
            return t("两套Q783只在开启「双Q783」时能一起出",
                     "two sets of Q, 7, 8, 3 are one play only with the “double Q783” house rule")
        return t("「{c}」不是Q783的牌型：只能出N张同点数（单张、对子、三张……）、炸弹或Q783；没有顺子、连对、带牌",
                 "“{c}” is not a Q783 pattern: plays are N of a kind (single, pair, triple, …), bombs or "
                 "Q783; there are no runs, no pairs in sequence and no kickers", c=cards_str(cards, rules))

    def sizes(self, hand, table):
        top = min(len(hand), MAX_SET)
        if table is None:
            return range(1, top + 1)
        out = set(range(3 if self.rules.three_bombs else 4, top + 1))
        if not is_bomb_class(table):
            out.add(table.size)
        return sorted(s for s in out if s <= top)


def _q783_witnesses(groups: Mapping[int, list[Card]], k: int):
    """One Q783 (``k`` of each of Q 7 8 3) from the hand for each 正/副/unknown class it can make."""
    if any(len(groups.get(r, ())) < k for r in _Q783):
        return
    # states: (known suits, holds a bare card) -> witness cards
    states: dict = {(frozenset(), False): ()}
    for rank in _Q783:
        options: dict = {}
        for combo in combinations(groups[rank], k):
            sig = (frozenset(c.suit for c in combo if c.suit is not None), any(c.suit is None for c in combo))
            options.setdefault(sig, combo)
        nxt: dict = {}
        for (suits, bare), cards in states.items():
            for (osuits, obare), combo in options.items():
                s = suits | osuits
                if len(s) > 2:
                    s = frozenset(list(s)[:2])  # two known suits already make it 副
                nxt.setdefault((s, bare or obare), cards + combo)
        states = nxt
    seen = set()
    for cards in states.values():
        pure = q783_purity(cards)
        if pure not in seen:
            seen.add(pure)
            yield cards


def order_text(rules) -> str:
    return " > ".join(rank_name(r) for r in play_order(rules))


spec_for = spec_cache(Q783Spec)


def play_reading(cards: Sequence[Card], rules, field: str, *, need_purity: bool = True) -> Reading:
    """The reading of a played set, or a clear error (score card, no pattern, Q783 without suits)."""
    spec = spec_for(rules)
    rs = spec.readings(cards)
    if not rs:
        raise InvalidInput(t("「{f}」不是合法的一手牌：{reason}", "“{f}” is not a legal play: {reason}",
                             f=field, reason=spec.no_pattern(cards)), field=field, code="illegal_play")
    if need_purity:
        require_purity(rs[0], field, rules)
    return rs[0]


def require_purity(r: Reading, field: str, rules) -> Reading:
    if r.kind in Q783_KINDS and r.extra.get("suits_known") is False:
        raise AmbiguousPlay(
            t("「{c}」是Q783，请写出花色才能判断正（同花）还是副，例如「♥Q ♥7 ♥8 ♥3」",
              "“{c}” is a Q783: give the suits to tell 正 (one suit) from 副, such as “♥Q ♥7 ♥8 ♥3”",
              c=cards_str(r.cards, rules)),
            field=field, code="suit_required")
    return r


_CORE = shedding_actions(spec_for)


def _require_suits(payload: Mapping, name: str, rules) -> None:
    """A Q783 in ``name`` written with bare ranks must say its suits (正 or 副 decides)."""
    value = payload.get(name)
    if value is None or is_pass(value):
        return
    spec = spec_for(rules)
    for r in spec.readings(read_cards(payload, name, spec)):
        require_purity(r, name, rules)


def _hand_without_score_cards(payload: Mapping, rules) -> None:
    hand = read_cards(payload, "hand", spec_for(rules), required=False)
    if hand and any(is_score_card(c, rules) for c in hand):
        raise InvalidInput(t("手牌里不能有分牌：{reason}；分牌抓到就放在面前当分用",
                             "a hand holds no score cards: {reason}; score cards are set aside as the bank "
                             "when drawn", reason=score_card_reason(hand, rules)),
                           field="hand", code="score_card_in_hand")


def classify(payload: Mapping, rules) -> Classified:
    _require_suits(payload, "cards", rules)
    return _CORE["classify"](payload, rules)


def check(payload: Mapping, rules) -> Verdict:
    _require_suits(payload, "play", rules)
    _require_suits(payload, "previous", rules)
    _hand_without_score_cards(payload, rules)
    play = payload.get("play")
    if payload.get("hand") is not None and isinstance(play, str) and not is_pass(play):
        if any(is_score_card(c, rules) for c in read_cards(payload, "play", spec_for(rules))):
            # say "score card", not "not in your hand"
            payload = {k: v for k, v in payload.items() if k != "hand"}
    return _CORE["check"](payload, rules)


def hint(payload: Mapping, rules) -> Hint:
    _require_suits(payload, "previous", rules)
    _hand_without_score_cards(payload, rules)
    return _CORE["hint"](payload, rules)


ACTIONS = ActionTable({"classify": classify, "check": check, "hint": hint}, _CORE.inputs, _CORE.answers,
                      _CORE.reading)
