"""The trick-taking core shared by 红五 and 二七王 (``rules/common.md``).

Modelled on the ``mechanics`` crate of rbtying/shengji: every card is read
through a *trump context* (:class:`Context`) that the game builds for one
trump suit. The context knows each card's **suit group** (the trump group or
one plain suit), its **level** inside the group (ties allowed: two 副2 of
different suits are the same level) and whether the level **chains** into
tractors, and which level is its successor (adjacency after removed cards).

On top of that:

* :meth:`Context.decompose` splits cards of one group into units (single,
  pair, triple, tractor) — the *format* of a lead;
* :meth:`Context.check_follow` / :meth:`Context.check_lead` give a verdict
  (``True``/``False``/``None``) and a bilingual reason naming the broken
  obligation;
* :meth:`Context.winner` decides a trick (ruffs, over-ruffs, ties: first
  played wins);
* :meth:`Context.legal_plays` and :meth:`Context.smallest` give the hint and
  托管 play.

The game modules (``hongwu``, ``erqiwang``) describe their order as a list of
:class:`Level` and get the API actions from :func:`trick_actions`.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from .cards import SUITS, Card, Deck, Suit, _SUIT_INPUT, format_cards, normalize_text, parse_cards
from .errors import InvalidInput, InvalidNotation, MalformedInput, PaijuError
from .rules import Option
from .i18n import Text, join, t
from .payload import get_field, get_list

TRUMP = "trump"  # the group key of the trump group; plain groups are Suit values
OTHER_HANDS = 3  # a throw is decided by the three other hands

POINT_VALUES = {5: 5, 10: 10, 13: 10}

#: hint: at most this many plays are listed ("truncated" beyond)
PLAY_CAP = 300
#: hint: at most this many candidate plays are examined
SEARCH_CAP = 8000


def card_points(card: Card) -> int:
    return 0 if card.is_joker else POINT_VALUES.get(card.rank, 0)


def points_of(cards: Iterable[Card]) -> int:
    return sum(card_points(c) for c in cards)


@dataclass(frozen=True)
class Level:
    """One level of a group's order: the cards that tie, and whether it chains."""

    label: Text
    cards: tuple[Card, ...]
    chain: bool = True


@dataclass(frozen=True)
class TrickSpec:
    """What a trick game tells the core (built per resolved rules)."""

    slug: str
    deck: Deck
    #: ``levels(trump) -> (trump levels high→low, {suit: plain levels high→low})``
    levels: Callable[[Suit], tuple[list[Level], dict[Suit, list[Level]]]]
    #: "any_group" (红五: any group, unbeatable units) or "trump_only" (二七王)
    throw: str = "any_group"
    follow_shape: bool = True
    #: how ruffs/follows of a thrown lead compare: "highest_card" (common.md default) or "longest_unit"
    throw_compare: str = "highest_card"


# --------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------

KIND_TEXT = {
    "single": t("单张", "single"),
    "pair": t("对子", "pair"),
    "triple": t("三张", "triple"),
    "tractor": t("拖拉机", "tractor"),
    "throw": t("甩牌", "throw"),
}


@dataclass(frozen=True)
class Unit:
    kind: str  # single | pair | triple | tractor
    width: int  # copies per level: 1, 2, 3
    length: int  # levels: 1, or ≥ 2 for a tractor
    cards: tuple[Card, ...]  # canonical order, highest first
    top: int  # the level (strength inside the group) of the highest part

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)


def unit_kind(width: int, length: int) -> str:
    if length >= 2:
        return "tractor"
    return {1: "single", 2: "pair", 3: "triple"}[width]


def shape_text(width: int, length: int) -> Text:
    if length >= 2:
        if width == 3:
            return t("{n}连三张拖拉机", "tractor of {n} triples", n=length)
        return t("{n}连对拖拉机", "tractor of {n} pairs", n=length)
    return KIND_TEXT[unit_kind(width, 1)]


def _unit_sort(u: Unit):
    return (-u.size, -u.width, -u.top)


# --------------------------------------------------------------------------
# The trump context
# --------------------------------------------------------------------------

class Context:
    """One game's order for one trump suit."""

    def __init__(self, spec: TrickSpec, trump: Suit):
        self.spec = spec
        self.trump = trump
        self.deck = spec.deck
        self.max_width = max(1, spec.deck.copies)
        trump_levels, plain = spec.levels(trump)
        self.groups: dict = {TRUMP: list(trump_levels)}
        for s in SUITS:
            if s in plain:
                self.groups[s] = list(plain[s])
        self._group: dict[Card, object] = {}
        self._strength: dict[Card, int] = {}
        self._chain: dict[Card, int | None] = {}
        self._level_cards: dict[tuple, tuple[Card, ...]] = {}
        self._level_label: dict[tuple, Text] = {}
        for g, levels in self.groups.items():
            n = len(levels)
            for i, lv in enumerate(levels):
                strength = n - i
                self._level_cards[(g, strength)] = lv.cards
                self._level_label[(g, strength)] = lv.label
                for c in lv.cards:
                    if c in self._group:
                        raise AssertionError(f"{c} in two levels")
                    self._group[c] = g
                    self._strength[c] = strength
                    self._chain[c] = strength if lv.chain else None
        for c in spec.deck.distinct_cards():
            if c not in self._group:
                raise AssertionError(f"{c} has no level")
        self._group_index = {g: i for i, g in enumerate(self.groups)}
        self._want: dict = {}  # memo: what a hand must match of a lead's shape
        self._units: dict = {}  # memo: a lead's units

    # -- per card ------------------------------------------------------------

    def group(self, card: Card):
        return self._group[card]

    def is_trump(self, card: Card) -> bool:
        return self._group[card] == TRUMP

    def strength(self, card: Card) -> int:
        """Level inside the card's group (higher is stronger; ties share it)."""
        return self._strength[card]

    def gstrength(self, card: Card) -> int:
        """Order across groups: any trump above any plain card; plain cards by rank."""
        if self.is_trump(card):
            return 100 + self._strength[card]
        return card.rank

    def key(self, card: Card):
        """Canonical sort key (ascending = shown first): trump high→low, then ♠♥♣♦."""
        return (self._group_index[self._group[card]], -self._strength[card],
                card._suit_index)

    def fmt(self, cards: Iterable[Card]) -> str:
        return format_cards(cards, self.key)

    def group_name(self, g) -> Text:
        """The suit group in messages; texts say "{g}牌" (so trump is 主 + 牌 = 主牌)."""
        if g == TRUMP:
            return t("主", "trump")
        return Text(g.symbol, g.symbol)

    def play_key(self, cards: Sequence[Card]):
        """Smallness of a play (common.md): highest card lowest, fewer points, fewer cards."""
        gs = sorted((self.gstrength(c) for c in cards), reverse=True)
        return (gs[0] if gs else -1, sum(1 for c in cards if card_points(c)), len(cards), tuple(gs),
                tuple(sorted(self.key(c) for c in cards)))

    def successors(self, card: Card) -> tuple[Card, ...]:
        """The cards of the next lower level that a pair of ``card`` chains into (adjacency after
        removed cards); empty when the level does not chain (红五 above the trump A) or is the lowest."""
        ch = self._chain[card]
        if ch is None:
            return ()
        below = self._level_cards.get((self._group[card], ch - 1), ())
        return below if below and self._chain[below[0]] is not None else ()

    def level_label(self, card: Card) -> Text:
        return self._level_label[(self._group[card], self._strength[card])]

    # -- structures ------------------------------------------------------------

    def _runs(self, counter: Mapping[Card, int], width: int) -> list[list[list[Card]]]:
        """Maximal runs of consecutive chaining levels holding ≥ width copies.

        Each run is a list of levels high→low; each level lists its candidate cards.
        """
        by: dict[tuple, list[Card]] = defaultdict(list)
        for c, n in counter.items():
            if n >= width and self._chain.get(c) is not None:
                by[(self._group[c], self._chain[c])].append(c)
        runs = []
        seen = set()
        for (g, ch) in sorted(by, key=lambda k: (self._group_index[k[0]], -k[1])):
            if (g, ch) in seen:
                continue
            run = [sorted(by[(g, ch)], key=self.key)]
            seen.add((g, ch))
            while True:  # follow the successor levels while they hold candidates
                nxt = [c for c in self.successors(run[-1][0]) if c in counter and counter[c] >= width]
                if not nxt:
                    break
                seen.add((g, self._chain[nxt[0]]))
                run.append(sorted(nxt, key=self.key))
            runs.append(run)
        return runs

    def _make_unit(self, width: int, parts: Sequence[Card]) -> Unit:
        cards = []
        for c in parts:
            cards += [c] * width
        cards.sort(key=self.key)
        top = max(self._strength[c] for c in parts)
        return Unit(unit_kind(width, len(parts)), width, len(parts), tuple(cards), top)

    def structures(self, counter: Mapping[Card, int], width: int, length: int) -> list[Unit]:
        """Every distinct unit of this shape inside ``counter`` (one group or several)."""
        out: list[Unit] = []
        if length == 1:
            for c, n in counter.items():
                if n >= width:
                    out.append(self._make_unit(width, [c]))
            return out
        for run in self._runs(counter, width):
            for start in range(0, len(run) - length + 1):
                window = run[start:start + length]
                for choice in product(*window):
                    out.append(self._make_unit(width, choice))
        return out

    def decompose(self, cards: Sequence[Card]) -> list[Unit]:
        """The units of cards from one group: widest first, longest tractors first."""
        cnt = Counter(cards)
        units: list[Unit] = []
        for w in range(self.max_width, 1, -1):
            while True:
                runs = [r for r in self._runs(cnt, w) if len(r) >= 2]
                if not runs:
                    break
                best = max(runs, key=lambda r: (len(r), max(self._strength[c] for c in r[0])))
                parts = [lv[0] for lv in best]
                units.append(self._make_unit(w, parts))
                for c in parts:
                    cnt[c] -= w
            for c in sorted(cnt, key=self.key):
                while cnt[c] >= w:
                    units.append(self._make_unit(w, [c]))
                    cnt[c] -= w
        for c in sorted(cnt, key=self.key):
            for _ in range(cnt[c]):
                units.append(self._make_unit(1, [c]))
        units.sort(key=_unit_sort)
        return units

    def groups_of(self, cards: Iterable[Card]) -> list:
        gs = {self._group[c] for c in cards}
        return sorted(gs, key=lambda g: self._group_index[g])

    def unit_text(self, u: Unit) -> Text:
        return t("{cards}（{kind}）", "{cards} ({kind})", cards=self.fmt(u.cards), kind=shape_text(u.width, u.length))

    # -- matching shapes (trick winner) ---------------------------------------

    def match(self, cards: Sequence[Card], units: Sequence[Unit]) -> list[Unit] | None:
        """Read ``cards`` in the shape of ``units`` (highest first); None if impossible."""
        if len(cards) != sum(u.size for u in units):
            return None
        rem = Counter(cards)
        out = []
        for u in units:
            if u.width == 1 and u.length == 1:
                cands = [self._make_unit(1, [c]) for c, n in rem.items() if n > 0]
            else:
                cands = self.structures(+rem, u.width, u.length)
            if not cands:
                return None
            best = max(cands, key=lambda x: x.top)
            out.append(best)
            rem.subtract(Counter(best.cards))
        return out

    # -- following obligations ---------------------------------------------------

    def _obligation_score(self, cards: Sequence[Card], units: Sequence[Unit]):
        """What the cards manage to match of the lead's shape, unit by unit (greedy, lowest parts)."""
        rem = Counter(cards)
        score = []
        for u in units:
            if u.width == 1 and u.length == 1:
                score.append((1, 0, 0))
                continue
            rem = +rem
            if u.length >= 2:
                cands = self.structures(rem, u.width, u.length)
                if cands:
                    best = min(cands, key=lambda x: (x.top, self.play_key(x.cards)))
                    rem.subtract(Counter(best.cards))
                    score.append((1, u.length, 0))
                    continue
            # fall back: as many groups of the unit's width as the hand has, then pairs
            need = u.length
            got_w = 0
            for c in sorted((c for c, n in rem.items() if n >= u.width), key=lambda c: self._strength[c]):
                if got_w == need:
                    break
                while rem[c] >= u.width and got_w < need:
                    rem[c] -= u.width
                    got_w += 1
            got_2 = 0
            if u.width == 3 and got_w < need:
                for c in sorted((c for c, n in rem.items() if n >= 2), key=lambda c: self._strength[c]):
                    if got_w + got_2 == need:
                        break
                    rem[c] -= 2
                    got_2 += 1
            full = 1 if (u.length == 1 and got_w == 1) else 0
            score.append((full, got_w, got_2))
        return score

    def check_follow(self, lead: Sequence[Card], hand: Sequence[Card], play: Sequence[Card]
                     ) -> tuple[bool, Text]:
        """Is ``play`` (out of ``hand``) a legal answer to ``lead``?"""
        n = len(lead)
        units = self.lead_units(lead)
        g = self._group[lead[0]]
        gname = self.group_name(g)
        if len(play) != n:
            return False, t("首家出了{n}张，必须出{n}张，你出了{m}张",
                            "the lead has {n} cards, so you must play {n}, not {m}", n=n, m=len(play))
        hand_g = [c for c in hand if self._group[c] == g]
        play_g = [c for c in play if self._group[c] == g]
        if len(hand_g) < n:
            if len(play_g) < len(hand_g):
                left = Counter(hand_g) - Counter(play_g)
                return False, t("你的{g}牌不足{n}张，必须全部跟出（还有{cards}没出）",
                                "you hold fewer than {n} {g} cards, so all of them must be played "
                                "(still held: {cards})", g=gname, n=n, cards=self.fmt(left.elements()))
            if not hand_g:
                if all(self.is_trump(c) for c in play) and self.match(play, units):
                    return True, t("{g}已无，用主牌毙牌", "void in {g}: a trump ruff", g=gname)
                return True, t("{g}已无，可以出任意牌（垫牌或毙牌）", "void in {g}: any cards may be played "
                               "(discard or ruff)", g=gname)
            return True, t("{g}牌已全部跟出，其余可任意垫", "all your {g} cards are played; the rest may be anything",
                           g=gname)
        if len(play_g) < n:
            return False, t("你还有{k}张{g}牌，必须跟{g}，只能出{g}牌",
                            "you still hold {k} {g} cards: you must follow {g} and play only {g} cards",
                            k=len(hand_g), g=gname)
        if not self.spec.follow_shape or (len(units) == 1 and units[0].width == 1):
            return True, t("跟出{g}牌，合乎规则", "follows {g}: legal", g=gname)
        want = self._want_for(lead, hand_g, units)
        got = self._obligation_score(play_g, units)
        if got >= want:
            return True, t("跟出{g}牌，牌型也跟得上", "follows {g} and matches the lead's shape as far as "
                           "the hand allows", g=gname)
        for u, w, h in zip(units, want, got):
            if h >= w:
                continue
            return False, self._shape_reason(u, w, gname, throw=len(units) > 1)
        return False, t("牌型没有按要求跟出", "the shape of the lead is not followed")  # pragma: no cover

    def _want_for(self, lead, hand_g, units):
        """What the hand's cards of the led group must match of the lead's shape (memoised)."""
        memo_key = (tuple(lead), tuple(sorted(hand_g, key=self.key)))
        want = self._want.get(memo_key)
        if want is None:
            want = self._want[memo_key] = self._obligation_score(hand_g, units)
        return want

    def _shape_reason(self, u: Unit, want: tuple, gname: Text, throw: bool) -> Text:
        prefix = t("首家甩牌中有{unit}：", "the throw contains a {unit}: ", unit=shape_text(u.width, u.length)) \
            if throw else t("", "")
        full, n_w, n_2 = want
        if u.length >= 2 and full:
            body = t("你有{g}拖拉机，必须跟拖拉机", "you hold a {g} tractor and must follow with a tractor",
                     g=gname)
        elif u.length >= 2:
            if n_w and u.width == 3:
                body = t("你有{n}个{g}三张，必须跟出", "you hold {n} {g} triples and must play them", n=n_w, g=gname)
            elif u.width == 3:
                body = t("你有{n}个{g}对子，必须跟对", "you hold {n} {g} pairs and must follow with them",
                         n=n_2, g=gname)
            elif n_w == 1:
                body = t("你有{g}对子，必须跟对", "you hold a {g} pair and must follow with a pair", g=gname)
            else:
                body = t("你有{n}个{g}对子，必须跟{n}对", "you hold {n} {g} pairs and must follow with {n} pairs",
                         n=n_w, g=gname)
        elif u.width == 3 and full:
            body = t("你有{g}三张，必须跟三张", "you hold a {g} triple and must follow with a triple", g=gname)
        elif u.width == 3:
            body = t("你有{g}对子，必须跟对", "you hold a {g} pair and must follow with a pair", g=gname)
        else:
            body = t("你有{g}对子，必须跟对", "you hold a {g} pair and must follow with a pair", g=gname)
        return prefix + body

    def lead_units(self, lead: Sequence[Card]) -> list[Unit]:
        memo = self._units.get(tuple(lead))
        if memo is not None:
            return memo
        gs = self.groups_of(lead)
        if len(gs) != 1:
            raise InvalidInput(
                t("首家的牌「{cards}」分属{groups}，首家只能出同一花色组的牌",
                  "the lead “{cards}” mixes {groups}; a lead comes from one suit group",
                  cards=self.fmt(lead), groups=join([self.group_name(g) for g in gs], "、", " and ")),
                field="lead", code="mixed_lead")
        units = self._units[tuple(lead)] = self.decompose(lead)
        return units

    # -- leads and throws -----------------------------------------------------

    def check_lead(self, hand: Sequence[Card], play: Sequence[Card],
                   others: Sequence[Sequence[Card]] | None) -> tuple[bool | None, Text]:
        gs = self.groups_of(play)
        if len(gs) != 1:
            return False, t("首家只能出同一花色组的牌，「{cards}」分属{groups}",
                            "a lead must come from one suit group; “{cards}” mixes {groups}",
                            cards=self.fmt(play), groups=join([self.group_name(g) for g in gs], "、", " and "))
        g = gs[0]
        units = self.decompose(play)
        if len(units) == 1:
            u = units[0]
            return True, t("首家出{unit}，合乎规则", "a lead of a {kind}: legal", unit=self.unit_text(u),
                           kind=shape_text(u.width, u.length))
        listing = join([self.unit_text(u) for u in units], "、", ", ")
        if self.spec.throw == "trump_only":
            return self._check_trump_throw(g, hand, play, others, listing)
        return self._check_throw(g, units, hand, others, listing)

    def _beater(self, u: Unit, cards: Sequence[Card], g) -> Unit | None:
        cnt = Counter(c for c in cards if self._group[c] == g)
        better = [x for x in self.structures(cnt, u.width, u.length) if x.top > u.top]
        return max(better, key=lambda x: x.top) if better else None

    def _check_throw(self, g, units, hand, others, listing) -> tuple[bool | None, Text]:
        if others is not None:
            beaten = []
            for u in units:
                for j, other in enumerate(others):
                    b = self._beater(u, other, g)
                    if b is not None:
                        beaten.append((u, j, b))
                        break
            if not beaten and len(others) >= OTHER_HANDS:
                return True, t("甩牌成功：{units}，其他各家都管不上", "the throw stands: {units}; no other hand "
                               "can beat any unit", units=listing)
            if not beaten:
                return self._throw_unknown(g, units, list(hand) + [c for o in others for c in o], listing,
                                           given=len(others))
            u, j, b = beaten[0]
            smallest = min((x[0] for x in beaten), key=lambda x: (x.top, x.size))
            return False, t("甩牌失败：{unit}会被其他玩家 others[{j}] 的{beater}管上，应改出{smallest}",
                            "the throw fails: {unit} is beaten by {beater} in the other hand others[{j}]; "
                            "play {smallest} instead",
                            unit=self.unit_text(u), j=j, beater=self.fmt(b.cards), smallest=self.fmt(smallest.cards))
        return self._throw_unknown(g, units, hand, listing, given=0)

    def _throw_unknown(self, g, units, known, listing, given: int) -> tuple[bool | None, Text]:
        """A throw judged without (all) the other hands: it stands only if no card we have not seen
        can beat any unit; otherwise the verdict is undecided and says which units to check."""
        gname = self.group_name(g)
        rest = Counter(self.deck.all_cards()) - Counter(known)
        rest_cards = list(rest.elements())
        risky = [u for u in units if self._beater(u, rest_cards, g) is not None]
        if not risky:
            return True, t("甩牌成功：{units}，其余的牌中没有能管上任何一手的{g}牌",
                           "the throw stands: {units}; no card outside the known hands can beat any unit in {g}",
                           units=listing, g=gname)
        missing = t("其他三家", "the other hands") if given == 0 else \
            t("还没给出的{n}家", "the {n} hands not given", n=OTHER_HANDS - given)
        return None, t("甩牌{units}能否成立取决于{missing}：要看他们能否管上{risky}；请在 others 中给出全部三家",
                       "whether the throw {units} stands depends on {missing}: check whether anyone can "
                       "beat {risky}; give all three hands in “others” to decide",
                       units=listing, missing=missing, risky=join([self.unit_text(u) for u in risky], "、", ", "))

    def _check_trump_throw(self, g, hand, play, others, listing) -> tuple[bool | None, Text]:
        if g != TRUMP:
            return False, t("只能甩主牌：「{cards}」是{g}牌，首家只能出单张、对子或拖拉机",
                            "only trumps may be thrown: “{cards}” is {g}; lead a single, pair or tractor",
                            cards=self.fmt(play), g=self.group_name(g))
        if others is not None:
            for j, other in enumerate(others):
                tr = [c for c in other if self.is_trump(c)]
                if tr:
                    return False, t("甩主牌只能在别人都没有主牌时：其他玩家 others[{j}] 还有主牌{cards}",
                                    "trumps may be thrown only when nobody else holds trump: the other hand "
                                    "others[{j}] still holds {cards}", j=j, cards=self.fmt(tr))
            if len(others) >= OTHER_HANDS:
                return True, t("甩主牌成功：其他各家都没有主牌", "the trump throw stands: no other hand holds trump")
        known = list(hand) + [c for o in (others or ()) for c in o]
        rest = Counter(self.deck.all_cards()) - Counter(known)
        if not any(self.is_trump(c) for c in rest.elements()):
            return True, t("甩主牌成功：其余的主牌都在已知的手牌里，别人没有主牌",
                           "the trump throw stands: every other trump is in the known hands, nobody else holds one")
        return None, t("甩主牌{units}只在其他三家都没有主牌时成立；请填写 others 来确定",
                       "the trump throw {units} stands only if none of the other three hands holds trump; "
                       "give “others” to decide", units=listing)

    # -- trick winner -------------------------------------------------------------

    def _strength_of(self, matched: Sequence[Unit], throw: bool):
        """What a play of the lead's shape is compared by: its top unit; for a throw, its highest
        card (common.md) or, under the house rule ``throw_compare: longest_unit``, its longest unit."""
        if throw and self.spec.throw_compare == "highest_card":
            return max(u.top for u in matched)
        return matched[0].top

    def winner(self, plays: Sequence[Sequence[Card]]) -> tuple[int, Text]:
        lead = plays[0]
        units = self.lead_units(lead)
        throw = len(units) > 1
        g = self._group[lead[0]]
        first = self.match(lead, units)
        best_i, best_top, ruffed = 0, self._strength_of(first, throw), False
        why = t("首家的牌没有被同牌型更大的牌管上", "nobody beat the lead with a higher play of the same shape")
        tie = False
        other_shape = False
        for i, p in enumerate(plays[1:], 1):
            gs = self.groups_of(p)
            if gs == [g]:
                m = self.match(p, units)
                if m is None:
                    other_shape = True
                    continue
                top = self._strength_of(m, throw)
                if ruffed:
                    continue
                if top > best_top:
                    best_i, best_top, tie = i, top, False
                    why = t("同花色组、同牌型中最大", "highest of the same shape in the led group")
                elif top == best_top:
                    tie = True
            elif gs == [TRUMP]:
                m = self.match(p, units)
                if m is None:
                    other_shape = True
                    continue
                top = self._strength_of(m, throw)
                if not ruffed or top > best_top:
                    why = t("用更大的主牌盖毙", "over-ruffs with higher trump") if ruffed \
                        else t("用同牌型的主牌毙牌", "ruffs with trump of the same shape")
                    best_i, best_top, ruffed, tie = i, top, True, False
                elif top == best_top:
                    tie = True
        notes = [why]
        if tie:
            notes.append(t("同级的牌先出者大", "between equal cards the first played wins"))
        if other_shape:
            notes.append(t("牌型不同的出牌直接算小", "a play of a different shape counts as smaller"))
        reason = t("第{n}手「{cards}」赢：{why}", "play {n} “{cards}” wins: {why}",
                   n=best_i + 1, cards=self.fmt(plays[best_i]), why=join(notes, "；", "; "))
        return best_i, reason

    # -- hint / 托管 -------------------------------------------------------------

    def lead_plays(self, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
        cnt = Counter(hand)
        out = set()
        for w in range(1, self.max_width + 1):
            for u in self.structures(cnt, w, 1):
                out.add(tuple(u.cards))
            if w >= 2:
                for run in self._runs(cnt, w):
                    for length in range(2, len(run) + 1):
                        for u in self.structures(cnt, w, length):
                            out.add(tuple(u.cards))
        return sorted(out, key=self.play_key)

    def follow_candidates(self, lead: Sequence[Card], hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
        """Sub-multisets of ``hand`` that satisfy the group rule (shape is checked after)."""
        n = len(lead)
        g = self._group[lead[0]]
        hand_g = [c for c in hand if self._group[c] == g]
        if len(hand_g) >= n:
            groups = 0
            if self.spec.follow_shape:
                units = self.lead_units(lead)
                groups = sum(w[1] + w[2] for u, w in zip(units, self._want_for(lead, hand_g, units))
                             if not (u.width == 1 and u.length == 1))
            yield from _combos(hand_g, n, self.gstrength, self.key, groups)
        else:
            rest = [c for c in hand if self._group[c] != g]
            base = tuple(hand_g)
            for extra in _combos(rest, n - len(hand_g), self.gstrength, self.key):
                yield base + extra

    def legal_plays(self, hand: Sequence[Card], lead: Sequence[Card] | None
                    ) -> tuple[list[tuple[Card, ...]], bool]:
        """Every distinct legal play, smallest first, and whether the list is cut short."""
        if not lead:
            plays = self.lead_plays(hand)
            if len(plays) > PLAY_CAP:
                return plays[:PLAY_CAP], True
            return plays, False
        found = []
        truncated = False
        examined = 0
        top_found = -1
        g = self._group[lead[0]]
        n_group = sum(1 for c in hand if self._group[c] == g)
        short = n_group < len(lead)  # every candidate is legal
        n_fixed = n_group if short else 0
        # candidates come in order of their highest card, so once PLAY_CAP plays are found and the
        # candidates' highest card rises above every found one, the smallest PLAY_CAP are known
        for cand in self.follow_candidates(lead, hand):
            examined += 1
            # (when short, the fixed part is all of the group: order by the free part)
            high = max(self.gstrength(c) for c in cand[n_fixed:])
            if examined > SEARCH_CAP or (len(found) >= PLAY_CAP and high > top_found):
                truncated = True
                break
            if short or self.check_follow(lead, hand, cand)[0]:
                found.append(tuple(sorted(cand, key=self.key)))
                top_found = max(top_found, high)
        found = sorted(set(found), key=self.play_key)
        if len(found) > PLAY_CAP:
            found, truncated = found[:PLAY_CAP], True
        return found, truncated

    def smallest(self, hand: Sequence[Card], lead: Sequence[Card] | None,
                 plays: list[tuple[Card, ...]] | None = None, truncated: bool = False) -> tuple[Card, ...] | None:
        if plays is None:
            plays, truncated = self.legal_plays(hand, lead)
        best = min(plays, key=self.play_key) if plays else None
        if lead and truncated:
            built = self._build_smallest(hand, lead)
            if built is not None and self.check_follow(lead, hand, built)[0]:
                if best is None or self.play_key(built) < self.play_key(best):
                    best = tuple(sorted(built, key=self.key))
        return best

    def _build_smallest(self, hand, lead) -> tuple[Card, ...] | None:
        n = len(lead)
        g = self._group[lead[0]]
        low = lambda c: (self.gstrength(c), card_points(c) > 0, self.key(c))  # noqa: E731
        hand_g = [c for c in hand if self._group[c] == g]
        if len(hand_g) < n:
            rest = sorted((c for c in hand if self._group[c] != g), key=low)
            return tuple(hand_g) + tuple(rest[:n - len(hand_g)])
        rem = Counter(hand_g)
        chosen: list[Card] = []
        if self.spec.follow_shape:
            for u in self.lead_units(lead):
                if u.width == 1 and u.length == 1:
                    continue
                cands = self.structures(+rem, u.width, u.length)
                if cands:
                    b = min(cands, key=lambda x: self.play_key(x.cards))
                    chosen += b.cards
                    rem.subtract(Counter(b.cards))
                    continue
                k = 0
                for c in sorted((c for c, m in (+rem).items() if m >= 2), key=low):
                    if k == u.length:
                        break
                    chosen += [c, c]
                    rem[c] -= 2
                    k += 1
        left = sorted((+rem).elements(), key=low)
        chosen += left[:n - len(chosen)]
        return tuple(chosen) if len(chosen) == n else None


def _combos(cards: Sequence[Card], k: int, strength, key, min_groups: int = 0) -> Iterator[tuple[Card, ...]]:
    """Distinct sub-multisets of size k, lowest first by their highest card.

    ``min_groups`` prunes the search to sub-multisets holding at least that many
    distinct cards twice or more (a necessary condition when the lead's shape
    obliges the follower to play that many pairs).
    """
    distinct = sorted(set(cards), key=lambda c: (strength(c), key(c)))
    counts = Counter(cards)
    caps = [counts[c] for c in distinct]
    prefix = [0]
    pair_prefix = [0]
    for cap in caps:
        prefix.append(prefix[-1] + cap)
        pair_prefix.append(pair_prefix[-1] + (1 if cap >= 2 else 0))

    def rec(i: int, need: int, groups: int) -> Iterator[list[Card]]:
        # choose ``need`` cards from distinct[0..i], holding ≥ ``groups`` groups of two or more
        if need == 0:
            if groups <= 0:
                yield []
            return
        if i < 0 or prefix[i + 1] < need:
            return
        if groups > 0 and (pair_prefix[i + 1] < groups or need < 2 * groups):
            return
        for take in range(min(caps[i], need), -1, -1):
            for rest in rec(i - 1, need - take, groups - (1 if take >= 2 else 0)):
                yield rest + [distinct[i]] * take

    if k == 0:
        yield ()
        return
    # enumerate by the highest card used: distinct[m] with ≥ 1 copy
    for m in range(len(distinct)):
        for take in range(1, min(caps[m], k) + 1):
            for rest in rec(m - 1, k - take, min_groups - (1 if take >= 2 else 0)):
                yield tuple(rest + [distinct[m]] * take)


# --------------------------------------------------------------------------
# Reading the API payload
# --------------------------------------------------------------------------

_TRUMP_WORDS = {
    "SPADES": Suit.SPADES, "SPADE": Suit.SPADES, "HEARTS": Suit.HEARTS, "HEART": Suit.HEARTS,
    "CLUBS": Suit.CLUBS, "CLUB": Suit.CLUBS, "DIAMONDS": Suit.DIAMONDS, "DIAMOND": Suit.DIAMONDS,
    "黑": Suit.SPADES, "红": Suit.HEARTS, "梅": Suit.CLUBS, "方": Suit.DIAMONDS, "红色": None,
}

TRUMP_HINT = t("♠ ♥ ♣ ♦、S H C D 或 黑桃 红桃 梅花 方块", "♠ ♥ ♣ ♦, S H C D or 黑桃 红桃 梅花 方块")


def parse_trump(value, field_name: str = "trump") -> Suit:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise MalformedInput(t("缺少主花色「{f}」，应为{hint}", "the trump suit “{f}” is missing; use {hint}",
                               f=field_name, hint=TRUMP_HINT), field=field_name, code="missing_field")
    if not isinstance(value, str):
        raise MalformedInput(t("主花色应为文字，例如「♠」，收到「{v}」", "the trump suit must be text such as “♠”, "
                               "got “{v}”", v=str(value)[:20]), field=field_name, code="invalid_trump")
    s = normalize_text(value).strip()
    suit = _SUIT_INPUT.get(s.upper()) or _SUIT_INPUT.get(s) or _TRUMP_WORDS.get(s.upper()) \
        or _TRUMP_WORDS.get(s)
    if suit is None:
        if s.upper() in ("NT", "无主", "王", "NOTRUMP", "NO TRUMP", "JOKER", "JOKERS"):
            raise MalformedInput(t("「{v}」：这里必须叫一门花色做主，不能叫无主或王（可选{hint}）",
                                   "“{v}”: a suit must be named as trump here, no no-trump or jokers "
                                   "(use {hint})", v=s[:20], hint=TRUMP_HINT), field=field_name,
                                 code="invalid_trump")
        raise MalformedInput(t("「{v}」不是花色：主花色应为{hint}", "“{v}” is not a suit: the trump must be {hint}",
                               v=s[:20], hint=TRUMP_HINT), field=field_name, code="invalid_trump")
    return suit


def read_cards(payload: Mapping, name: str, *, required: bool = True) -> tuple[Card, ...] | None:
    value = payload.get(name)
    if value is None or (isinstance(value, str) and not value.strip() and not required):
        if required:
            get_field(payload, name)  # raises the missing-field error
        return None
    try:
        return parse_cards(value, bare=False)
    except PaijuError as exc:
        raise exc.with_field(name)


def read_card_list(payload: Mapping, name: str, lo: int, hi: int, allow_empty: bool = False
                   ) -> list[tuple[Card, ...]]:
    values = get_list(payload, name)
    if not lo <= len(values) <= hi:
        raise InvalidInput(t("「{f}」应有{lo}到{hi}项，收到{n}项", "“{f}” must hold {lo} to {hi} entries, got {n}",
                             f=name, lo=lo, hi=hi, n=len(values)), field=name, code="wrong_count")
    out = []
    for i, v in enumerate(values):
        try:
            out.append(parse_cards(v if v is not None or not allow_empty else "", bare=False,
                                   allow_empty=allow_empty))
        except PaijuError as exc:
            exc.field = f"{name}[{i}]"
            raise
    return out


def check_deck(deck: Deck, cards: Sequence[Card], field_name: str) -> None:
    try:
        deck.check(cards, field=field_name)
    except InvalidNotation as exc:
        exc.message = t("{msg}（统计了本次请求里所有的牌：{fields}）", "{msg} (counting every card of this request: "
                        "{fields})", msg=exc.message, fields=field_name)
        raise


def require_in_hand(ctx: Context, hand: Sequence[Card], play: Sequence[Card]) -> None:
    left = Counter(hand)
    for c in play:
        if left[c] <= 0:
            raise InvalidInput(t("手牌里没有足够的「{c}」可出（hand 是出牌前的手牌，应包含所出的牌）",
                                 "the hand does not hold enough “{c}” for this play (hand is the hand before "
                                 "playing and must contain the play)", c=str(c)), field="play",
                               code="not_in_hand")
        left[c] -= 1


# --------------------------------------------------------------------------
# The API actions
# --------------------------------------------------------------------------

def trick_actions(spec_for: Callable[[object], TrickSpec]) -> dict:
    """classify / check / trick / hint for a trick game (``rules/../api.md``)."""

    def context(payload, rules) -> Context:
        return Context(spec_for(rules), parse_trump(payload.get("trump")))

    def classify(payload, rules):
        ctx = context(payload, rules)
        cards = read_cards(payload, "cards")
        check_deck(ctx.deck, cards, "cards")
        return classify_cards(ctx, cards)

    def check(payload, rules):
        ctx = context(payload, rules)
        play = read_cards(payload, "play")
        lead = read_cards(payload, "lead", required=False)
        hand = read_cards(payload, "hand", required=lead is not None)
        others = None
        if payload.get("others") is not None:
            others = read_card_list(payload, "others", 0, 3, allow_empty=True)
        all_cards = list(hand or play) + list(lead or ()) + [c for o in (others or []) for c in o]
        check_deck(ctx.deck, all_cards, "hand+lead+others" if lead or others else "hand")
        if hand is None:
            hand = play
        require_in_hand(ctx, hand, play)
        if lead is None:
            legal, reason = ctx.check_lead(hand, play, others)
        else:
            ctx.lead_units(lead)
            legal, reason = ctx.check_follow(lead, hand, play)
        return {"legal": legal, "reason": reason, "play": ctx.fmt(play)}

    def trick(payload, rules):
        ctx = context(payload, rules)
        plays = read_card_list(payload, "plays", 2, 4)
        check_deck(ctx.deck, [c for p in plays for c in p], "plays")
        n = len(plays[0])
        for i, p in enumerate(plays[1:], 1):
            if len(p) != n:
                raise InvalidInput(t("第{i}手出了{m}张，但首家出了{n}张：每家出牌张数相同",
                                     "play {i} has {m} cards but the lead has {n}: every play has as many cards",
                                     i=i + 1, m=len(p), n=n), field=f"plays[{i}]", code="wrong_count")
        try:
            ctx.lead_units(plays[0])
        except PaijuError as exc:
            exc.field = "plays[0]"
            raise
        winner, reason = ctx.winner(plays)
        return {"winner": winner, "points": points_of(c for p in plays for c in p), "reason": reason,
                "plays": [ctx.fmt(p) for p in plays]}

    def hint(payload, rules):
        ctx = context(payload, rules)
        hand = read_cards(payload, "hand")
        lead = read_cards(payload, "lead", required=False)
        check_deck(ctx.deck, list(hand) + list(lead or ()), "hand+lead" if lead else "hand")
        if lead is not None:
            ctx.lead_units(lead)
            if len(lead) > len(hand):
                raise InvalidInput(t("手里只有{m}张牌，跟不了{n}张的首家", "the hand holds {m} cards, too few to "
                                     "follow a lead of {n}", m=len(hand), n=len(lead)), field="hand",
                                   code="hand_too_small")
        plays, truncated = ctx.legal_plays(hand, lead)
        small = ctx.smallest(hand, lead, plays, truncated)
        return {"plays": [ctx.fmt(p) for p in plays], "smallest": ctx.fmt(small) if small else None,
                "truncated": truncated}

    return {"classify": classify, "check": check, "trick": trick, "hint": hint}


def classify_cards(ctx: Context, cards: Sequence[Card]) -> dict:
    gs = ctx.groups_of(cards)
    canon = ctx.fmt(cards)
    if len(gs) != 1:
        return {"cards": canon, "valid": False, "readings": [],
                "reason": t("牌分属{groups}：一次出牌只能来自同一花色组", "the cards mix {groups}: a play comes from "
                            "one suit group", groups=join([ctx.group_name(g) for g in gs], "、", " and "))}
    g = gs[0]
    units = ctx.decompose(cards)
    gname = ctx.group_name(g)
    if len(units) == 1:
        u = units[0]
        reading = {"kind": u.kind, "label": shape_text(u.width, u.length), "group": gname,
                   "trump": g == TRUMP, "cards": ctx.fmt(u.cards), "length": u.length, "width": u.width}
        reason = t("{g}{kind}", "a {g} {kind}", g=gname, kind=shape_text(u.width, u.length))
    else:
        reading = {"kind": "throw", "label": KIND_TEXT["throw"], "group": gname, "trump": g == TRUMP,
                   "cards": canon, "units": [ctx.fmt(u.cards) for u in units],
                   "unit_kinds": [u.kind for u in units]}
        reason = t("{g}甩牌，共{n}手：{units}", "a {g} throw of {n} units: {units}", g=gname, n=len(units),
                   units=join([ctx.unit_text(u) for u in units], "、", ", "))
    return {"cards": canon, "valid": True, "readings": [reading], "reason": reason}


#: the house rule shared by both trick games: how plays matching a thrown lead compare
THROW_COMPARE = Option(
    "throw_compare", "highest_card", ("highest_card", "longest_unit"), t("甩牌怎样比大小", "Comparing throws"),
    t("highest_card：跟上甩牌牌型的出牌按其中最大的一张比（common.md 默认）；longest_unit：按最长的一手比（地方玩法）",
      "highest_card: plays matching a throw's shape compare by their highest card (the default of common.md); "
      "longest_unit: by their longest unit (house rule)"))


class GameOrder:
    """A trick game's trump context, order rows and sort key, from its rules and spec.

    Each game module does ``_order = GameOrder(RULESET, spec_for)`` and exposes
    ``context = _order.context``, ``order_for = _order.order_for``, ``sort_key = _order.sort_key``.
    """

    def __init__(self, ruleset, spec_for: Callable[[object], TrickSpec]):
        self.ruleset = ruleset
        self.spec_for = spec_for

    def context(self, trump, rules=None) -> Context:
        rules = self.ruleset.resolve(rules)  # a Rules object, a rules dict or None
        if not isinstance(trump, Suit):
            trump = parse_trump(trump)
        return Context(self.spec_for(rules), trump)

    def order_for(self, trump, rules=None) -> list[tuple[Text, list[Card]]]:
        """The full order high→low for a trump suit (rules page)."""
        return order_rows(self.context(trump, rules))

    def sort_key(self, trump, rules=None):
        """Canonical sort key for cards under this trump (highest first)."""
        return self.context(trump, rules).key


def order_rows(ctx: Context) -> list[tuple[Text, list[Card]]]:
    """The full order high→low for the rules page: trump levels one by one, then each plain suit."""
    rows: list[tuple[Text, list[Card]]] = []
    for lv in ctx.groups[TRUMP]:
        if rows and rows[-1][0] == lv.label:
            rows[-1][1].extend(sorted(lv.cards, key=ctx.key))
        else:
            rows.append((lv.label, sorted(lv.cards, key=ctx.key)))
    for s in SUITS:
        if s in ctx.groups:
            cards = [c for lv in ctx.groups[s] for c in lv.cards]
            rows.append((t("{s}（副牌）", "{s} (plain suit)", s=s.symbol), cards))
    return rows


# --------------------------------------------------------------------------
# Bidding (叫分): the turn loop both games share
# --------------------------------------------------------------------------

SEATS = 4
PASS_WORDS = {"pass", "p", "过", "不叫", "放弃", "-", "0"}


def read_bid(value, field: str) -> int | None:
    """A bid (int) or a pass (None)."""
    from .payload import as_int
    if value is None or value is False:
        return None
    if isinstance(value, str) and value.strip().lower() in PASS_WORDS:
        return None
    return as_int(value, field)


@dataclass(frozen=True)
class BidRules:
    """How one game bids: ``judge(bid, current, who)`` returns the complaint or None."""

    judge: Callable[[int, int | None, Text], Text | None]
    pass_complaint: Callable[[int | None, Text], Text | None]
    instant: int  # a bid that ends the bidding at once
    nobody: tuple[int, Text] | None = None  # (bid, why) when all four pass


def run_bidding(bids: Sequence, start: int, how: BidRules) -> dict:
    """Bids and passes in turn from ``start`` (a pass is final) → 庄家 and bid, or the first illegal entry."""
    from .i18n import seat_name
    passed: set[int] = set()
    seat = start
    best: int | None = None
    best_seat: int | None = None
    steps: list[Text] = []
    result: Text | None = None
    for i, raw in enumerate(bids):
        bid = read_bid(raw, f"bids[{i}]")
        who = seat_name(seat)
        if result is not None:
            return _bad_bid(i, t("叫分已经结束（{why}），第{i}项「{v}」多余", "bidding was already over ({why}); "
                                 "entry {i} “{v}” is one too many", why=result, i=i + 1, v=str(raw)), steps)
        if bid is None:
            complaint = how.pass_complaint(best, who)
            if complaint is not None:
                return _bad_bid(i, complaint, steps)
            passed.add(seat)
            steps.append(t("{who}：不叫（本局不能再叫）", "{who}: pass (out for this hand)", who=who))
        else:
            complaint = t("{who}叫{v}：叫分须为5的倍数", "{who} bid {v}: bids are multiples of 5", who=who, v=bid) \
                if bid % 5 else how.judge(bid, best, who)
            if complaint is not None:
                return _bad_bid(i, complaint, steps)
            best, best_seat = bid, seat
            steps.append(t("{who}：叫{v}", "{who}: bids {v}", who=who, v=bid))
            if bid == how.instant:
                result = t("{who}叫{v}，立即成为庄家", "{who} bid {v} and is 庄家 at once", who=who, v=bid)
        if result is None:
            if best is not None and len(passed) == SEATS - 1 and best_seat not in passed:
                result = t("其他三家都已不叫，{who}以{v}分成为庄家", "the other three have passed: {who} is 庄家 at "
                           "{v}", who=seat_name(best_seat), v=best)
            elif len(passed) == SEATS and how.nobody is not None:
                best, best_seat = how.nobody[0], start
                result = t("没有人叫分：第一个叫分的{who}以{v}分成为庄家（{why}）",
                           "nobody bid: the first bidder {who} is 庄家 at {v} ({why})",
                           who=seat_name(start), v=best, why=how.nobody[1])
        for k in range(1, SEATS + 1):
            if (seat + k) % SEATS not in passed:
                seat = (seat + k) % SEATS
                break
    if result is not None:
        return {"legal": True, "complete": True, "declarer": best_seat, "bid": best, "next": None,
                "reason": result, "steps": steps}
    return {"legal": True, "complete": False, "declarer": None, "bid": best, "next": seat,
            "reason": t("叫分尚未结束，下一个叫分的是{who}", "bidding is not over: {who} bids next",
                        who=seat_name(seat)), "steps": steps}


def _bad_bid(i: int, why: Text, steps: list[Text]) -> dict:
    return {"legal": False, "complete": False, "declarer": None, "bid": None, "next": None, "illegal_index": i,
            "reason": t("第{i}项叫分不合规：{why}", "entry {i} is illegal: {why}", i=i + 1, why=why), "steps": steps}


def bidding_action(how_for: Callable[[object], BidRules]):
    """The ``bidding`` API action: ``{"bids": [60, "pass", …], "start": seat}``."""
    from .payload import get_int

    def bidding(payload: Mapping, rules) -> dict:
        bids = get_list(payload, "bids")
        start = get_int(payload, "start", 0, SEATS - 1, default=0)
        return run_bidding(bids, start, how_for(rules))

    return bidding
