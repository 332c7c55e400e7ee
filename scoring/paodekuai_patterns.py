"""跑得快's spec on the shedding core: its packs, its patterns (the core's stock patterns with 跑得快's
parameters), its house rules of the turn; the base of its variants (``scoring/zhengshangyou.py``).

The game itself (house-rule options, settle, the variant of each preset) is ``scoring/paodekuai.py``,
which imports this module and its variants.
"""
from __future__ import annotations

from collections import Counter

from .cards import ACE, Deck, format_cards, parse_cards
from .errors import InvalidInput
from .i18n import Text, t
from .rules import Choice
from .shedding import STANDARD, Reading, SheddingSpec, bombs, distinct_readings, runs, stock


class Deal(Choice):
    """The presets: which pack, for how many players."""
    PDK52 = "paodekuai52"
    PDK48 = "paodekuai48"
    PDK45 = "paodekuai45"
    ZSY = "zhengshangyou108"


ZSY, PDK52, PDK48, PDK45 = Deal.ZSY, Deal.PDK52, Deal.PDK48, Deal.PDK45


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


def deck_for(rules) -> Deck:
    return PRESETS[rules.preset]["deck"]


# ==========================================================================
# Patterns: the core's stock patterns with 跑得快's parameters
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
ORDER = STANDARD  # 3 … K A 2 小王 大王


class Bomb(bombs.Bomb):
    """跑得快 bombs: four of a kind, or three aces (the lowest bomb, or the highest under ``aaa_top``)."""

    short, short_top_rule = {ACE: 3}, "aaa_top"
    text = t("炸弹：四张同点数，或三个A（默认是最小的炸弹，见 aaa_top）",
             "bomb: four of a kind, or three aces (the lowest bomb unless aaa_top)")


class SameRank(stock.SameRank):
    bomb_triples = (ACE,)  # AAA is a bomb
    text = t("单张、对子、三张", "single, pair, triple")


class TripleWith(stock.TripleWith):
    """三带一 and 三带二 (two cards of any other ranks, no joker)."""

    text = t("三带一；三带二（两张单牌或一对）", "triple with one; triple with two (two singles or a pair)")


class FourWithTwo(stock.FourWithTwo):
    text = t("四带二：四张加两张单牌或一对，不是炸弹", "four with two: four of a rank plus two singles or a pair; not a bomb")


class Straight(runs.Run):
    text = t("顺子：5张或以上相连，3到A，2不能进顺子", "straight: 5 or more consecutive from 3 up to A; never a 2")


class PairRun(runs.Run):
    width, min_len, kind = 2, 2, "pair_run"
    text = t("连对：两对或以上相连；三顺：两个或以上相连的三张；都不能有2",
             "pair run: 2 or more consecutive pairs; triple run: 2 or more consecutive triples; no 2")


class TripleRun(runs.Run):
    width, min_len, kind = 3, 2, "triple_run"


class TripleRunWith(runs.Airplane):
    """飞机带翅膀: 2 or 3 consecutive triples, two cards each (no joker)."""

    text = t("飞机带翅膀：2或3个相连的三张，每个带两张", "airplane: 2 or 3 consecutive triples, each with two cards")


#: 牌够只能三带二: the kinds a player may show only as its last play, and the full kind each answers
SHORT_TRIPLES = {"triple": "triple_two", "triple_single": "triple_two", "triple_run": "airplane",
                 "airplane_short": "airplane"}
SPADE_THREE = parse_cards("♠3")[0]


def _switched_on(value) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in {"true", "on", "y", "yes", "1"})


def triples_in(reading: Reading) -> int:
    """How many triples a triple-based reading holds (the count a short last play must match)."""
    if reading.kind in ("triple", "triple_single", "triple_two"):
        return 1
    if reading.kind == "airplane_short":
        return reading.extra["triples"]
    return reading.size // (3 if reading.kind == "triple_run" else 5)


# --- the variants ------------------------------------------------------------------


class PaodekuaiSpec(SheddingSpec):
    """跑得快 (52, 48 and 45 cards); ``scoring/zhengshangyou.py`` holds its 争上游 variant."""

    slug = "paodekuai"
    bare = True  # ranks alone ("7 7 8") where suits cannot matter; see suits_needed
    presets: tuple[str, ...] = (PDK52, PDK48, PDK45)
    low_runs = False  # may a run start A-2-3 / 2-3?
    bomb_sizes = frozenset({3, 4})
    pattern_types = (Bomb, SameRank, TripleWith, FourWithTwo, Straight, PairRun, TripleRun, TripleRunWith)
    page_order = (SameRank, TripleWith, Straight, PairRun, TripleRunWith, FourWithTwo, Bomb)
    turn_inputs = ("next_cards_left", "first_play")
    kind_names = KIND_NAMES

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
            self.pattern_types = type(self).pattern_types + (runs.ShortWingedPlane,)
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


