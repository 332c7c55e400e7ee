"""争上游, the two-pack variant of 跑得快 (``rules/paodekuai.md``, preset ``zhengshangyou108`` of the game
``paodekuai``): a subclass of :class:`~scoring.paodekuai_patterns.PaodekuaiSpec`, as python-chess's variants are
subclasses of its board. It builds on ``scoring/paodekuai_patterns.py``; ``scoring/paodekuai.py`` (the game)
imports both and picks the variant of each preset.

Two packs with jokers, 4 × 27; ranks low → high 3 … K A 2 小王 大王. Readings made here where the spec is silent:

* a triple carries one single or one pair (三带一对); runs may start low with A-2 only when they reach 3
  (A2345, 2233, AA2233); AA22 alone is no run; a straight of one suit is a straight flush;
* bomb kickers (``bomb_kickers``): two singles (2 cards) or two pairs of different ranks (4 cards); bombs
  compare only with bombs carrying as many kicker cards.
"""
from __future__ import annotations

from .cards import ACE, Suit
from .i18n import Text, t
from .paodekuai_patterns import ORDER, ZSY, PaodekuaiSpec, TripleRun
from .shedding import bombs, runs, stock


class ZsyBomb(bombs.Bomb):
    """争上游 bombs: 4 or more of a rank (more cards beat fewer), 天王 highest; kickers under ``bomb_kickers``."""

    least, most, four_jokers, kicker_rule = 4, None, True, "bomb_kickers"
    text = t("炸弹：4张或以上同点数，张数多的大，张数相同比点数；天王炸弹（大王大王小王小王）最大",
             "bomb: 4 or more of a rank; more cards beat fewer, then rank; 大王大王小王小王 is the highest")


class ZsySameRank(stock.SameRank):
    text = t("单张、对子（大王大王、小王小王是对子，大王小王不是）、三张",
             "single, pair (大王大王 and 小王小王 are pairs, 大王小王 is not), triple")


class ZsyTripleWith(stock.TripleWith):
    """争上游: a triple carries one single or one pair."""

    two = stock.Two.PAIR
    text = t("三张带一张单牌或一对", "a triple with one single or one pair")


class ZsyStraight(runs.Run):
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
        for shape in runs.runs(counts, counts.at(level), 1, self.min_len, runs.LONGEST_RUN, True):
            for cards in self.choose([counts.groups[ORDER.power(r)] for r in runs.written(shape)]):
                yield shape[0][0], len(shape), shape, tuple(cards)

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
        """Every flush the hand holds on this window, in suit order (♠♥♣♦: the same answer in every process)."""
        common = set.intersection(*({c.suit for c in g} for g in picks))
        for s in (suit for suit in Suit if suit in common):
            yield [next(c for c in g if c.suit == s) for g in picks]

    def answers(self, table, size):
        return table is None or (not table.is_bomb and size == table.size
                                 and table.kind in ("straight", "straight_flush"))

    def beats(self, play, table):
        return super().beats(play, table) or (table.kind == "straight" and play.size == table.size)


class ZsyPairRun(runs.Run):
    width, min_len, kind = 2, 2, "pair_run"
    text = t("连对：两对或以上相连（3344）", "pair run: 2 or more consecutive pairs (3344)")


class TripleRunSingles(runs.Airplane):
    kind, wings, max_triples = "triple_run_singles", runs.Wings.SINGLE_EACH, None
    text = t("连三同张：两个或以上相连的三张，每个三张可带一张单牌或一对，要么都带单，要么都带对（解读）",
             "triple run: 2 or more consecutive triples; each may carry a single or a pair, all singles or all "
             "pairs (reading)")


class TripleRunPairs(runs.Airplane):
    kind, wings, max_triples = "triple_run_pairs", runs.Wings.PAIR_EACH, None  # on the line of TripleRunSingles


def flush_suit(cards):
    suits = {c.suit for c in cards}
    if len(suits) == 1 and None not in suits:
        return next(iter(suits))
    return None


def bare_in_a_run(cards, length: int = 5) -> bool:
    """Whether a bare rank sits in some run of ``length`` ranks these cards hold (A also low: A2345)."""
    steps = {1 if c.rank == ACE and low else c.rank for c in cards if not c.is_joker for low in (False, True)}
    bare = {1 if c.rank == ACE and low else c.rank for c in cards if c.is_bare for low in (False, True)}
    return any(all(r in steps for r in range(lo, lo + length)) and bare & set(range(lo, lo + length))
               for lo in range(1, 15 - length + 1))


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

    def suits_needed(self, cards, payload):
        """争上游 has straight flushes: bare ranks that could join a run of five need their suits."""
        if bare_in_a_run(cards):
            return t("争上游有同花顺：能连成顺子的牌要写花色，例如「♥3 ♥4 ♥5 ♥6 ♥7」",
                     "争上游 has straight flushes: cards that could make a straight need their suits, "
                     "such as “♥3 ♥4 ♥5 ♥6 ♥7”")
        return super().suits_needed(cards, payload)

    def flush_suit(self, cards):
        """The suit of a card set of one suit, else None (kept for the last set: its straight patterns ask in turn)."""
        last, suit = self._last_flush
        if last is not cards or type(cards) is not tuple:
            suit = flush_suit(cards)
            self._last_flush = (cards, suit)
        return suit

    def identity(self, cards):
        ranks = tuple(sorted(c.rank for c in cards))
        if len(ranks) >= 5 and len(set(ranks)) == len(ranks) and flush_suit(cards) is not None \
                and ORDER.run_top(ranks, True):
            return ranks, cards[0].suit
        return ranks

    @staticmethod
    def two_in_a_run(text: str) -> Text:
        return t("「{c}」不成牌型：2在顺子里只能当小牌（A2345、23456），顺子不能绕圈（QKA23 不行）",
                 "“{c}” is no pattern: in a run 2 is only low (A2345, 23456) and runs never wrap "
                 "(QKA23 is none)", c=text)
