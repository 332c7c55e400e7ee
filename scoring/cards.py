"""Cards, decks and the card notation of ``docs/rules/common.md``.

Immutable values and a ``parse``/``format`` pair, in the style of
python-chess: ``parse_cards(format_cards(x))`` gives back the same multiset
for every card set a deck can hold.

A :class:`Card` is a rank and a suit. Jokers have no suit; in games that
ignore suits a *bare* rank (``7``) has ``suit=None`` and means "suit
unknown". Rank *order* is never decided here: each game passes its own sort
key to :func:`format_cards`.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from operator import eq
from enum import Enum
from typing import Callable, Iterable, Sequence

from .errors import InvalidNotation
from .i18n import Text, shown, t


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def zh(self) -> str:
        return _SUIT_ZH[self]

    @property
    def en(self) -> str:
        return self.name.lower()

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def text(self) -> Text:
        return Text(self.zh, self.en)

    @property
    def same_colour_partner(self) -> "Suit":
        """The other suit of the same colour (♠↔♣, ♥↔♦)."""
        return {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES,
                Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}[self]


SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)  # canonical order
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}
_SUIT_ZH = {Suit.SPADES: "黑桃", Suit.HEARTS: "红桃", Suit.CLUBS: "梅花", Suit.DIAMONDS: "方块"}

# Ranks are small integers; J Q K A are 11..14, the jokers 15 (小王) and 16 (大王).
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
LITTLE_JOKER, BIG_JOKER = 15, 16
RANKS = tuple(range(2, 15))
RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
JOKER_NAMES = {LITTLE_JOKER: "小王", BIG_JOKER: "大王"}


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank) or JOKER_NAMES[rank]


_MADE: dict[tuple, "Card"] = {}  # every card made so far, by (rank, suit)


@dataclass(frozen=True, order=True)
class Card:
    rank: int
    suit: Suit | None = field(default=None, compare=False)
    # A separate sort field so that cards with and without suits still order.
    _suit_index: int = field(default=-1, repr=False)

    def __new__(cls, rank: int, suit: Suit | None = None):
        """Each card exists once (an immutable value): a dict or Counter of cards finds a key by identity,
        without calling ``__eq__``."""
        card = _MADE.get((rank, suit))
        if card is None:
            if rank not in RANK_NAMES and rank not in JOKER_NAMES:
                raise ValueError(f"no such rank: {rank!r}")
            if rank in JOKER_NAMES and suit is not None:
                raise ValueError("jokers have no suit")
            if suit is not None and not isinstance(suit, Suit):
                raise ValueError(f"no such suit: {suit!r}")
            card = super().__new__(cls)
            card._make(rank, suit)
            _MADE[rank, suit] = card  # only once it is whole
        return card

    def __init__(self, rank: int, suit: Suit | None = None):
        pass  # made once, by __new__

    def _make(self, rank: int, suit: Suit | None) -> None:
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "_suit_index", -1 if suit is None else SUITS.index(suit))
        # hashed and written once: hints put cards in dicts and Counters, and write them, thousands of times
        object.__setattr__(self, "_hash", hash((rank, self._suit_index)))  # ints: the same in every process
        object.__setattr__(self, "_text", JOKER_NAMES[rank] if suit is None and rank in JOKER_NAMES
                           else (suit.symbol if suit else "") + RANK_NAMES[rank])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and (self.rank, self.suit) == (other.rank, other.suit)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):  # a copy or an unpickled card is the one card there is
        return Card, (self.rank, self.suit)

    @property
    def is_joker(self) -> bool:
        return self.rank in JOKER_NAMES

    @property
    def is_bare(self) -> bool:
        """A plain rank without a suit ("suit unknown")."""
        return self.suit is None and not self.is_joker

    def without_suit(self) -> "Card":
        return Card(self.rank) if self.suit is not None else self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


BIG = Card(BIG_JOKER)
LITTLE = Card(LITTLE_JOKER)

# --------------------------------------------------------------------------
# Notation
# --------------------------------------------------------------------------

_SUIT_INPUT = {
    "♠": Suit.SPADES, "♤": Suit.SPADES, "S": Suit.SPADES, "黑桃": Suit.SPADES,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS, "H": Suit.HEARTS, "红桃": Suit.HEARTS, "红心": Suit.HEARTS,
    "♣": Suit.CLUBS, "♧": Suit.CLUBS, "C": Suit.CLUBS, "梅花": Suit.CLUBS, "草花": Suit.CLUBS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "D": Suit.DIAMONDS, "方块": Suit.DIAMONDS, "方片": Suit.DIAMONDS,
}
_JOKER_INPUT = {"大王": BIG_JOKER, "BJ": BIG_JOKER, "大鬼": BIG_JOKER,
                "小王": LITTLE_JOKER, "LJ": LITTLE_JOKER, "小鬼": LITTLE_JOKER}
_RANK_INPUT = {**{str(r): r for r in range(2, 11)}, "T": 10, "J": JACK, "Q": QUEEN, "K": KING, "A": ACE}

_SEP = r"[\s,，、;；]+"
_TOKEN = re.compile(
    r"(?P<joker>大王|小王|大鬼|小鬼|BJ|LJ)"
    r"|(?P<suit>[♠♤♥♡♣♧♦♢SHCD]|黑桃|红桃|红心|梅花|草花|方块|方片)?(?P<rank>10|[2-9TJQKA])",
    re.IGNORECASE | re.ASCII,  # ASCII case only: "ſ" and the Kelvin sign are not S and K
)
_SEP_RE = re.compile(_SEP)
_WORD_RE = re.compile(r"[^\s,，、;；]+")

VALID_CARDS_HINT = t(
    "应为花色（♠♥♣♦、S H C D 或 黑桃 红桃 梅花 方块）加点数（2–10、T、J、Q、K、A），或 大王/小王（BJ/LJ）",
    "expected a suit (♠♥♣♦, S H C D or 黑桃 红桃 梅花 方块) and a rank (2–10, T, J, Q, K, A), or 大王/小王 (BJ/LJ)",
)


#: what a keyboard types for the notation besides ASCII: the full-width forms (U+FF01–FF5E) and the ideographic
#: space read as ASCII, emoji variation selectors (♠️) dropped; nothing else is rewritten
_TYPED = {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x3000: 0x20, 0xFE0E: None, 0xFE0F: None}


def normalize_text(text: str) -> str:
    """Full-width to ASCII, drop emoji variation selectors."""
    return text.translate(_TYPED)


def _bad_token(text: str, pos: int) -> str:
    m = _WORD_RE.match(text, pos)
    word = m.group(0) if m else text[pos:pos + 1]
    return shown(word, 12)


for _rank in RANKS:  # every card there is, made ahead: reading one is a lookup in _MADE
    for _suit in (None, *SUITS):
        Card(_rank, _suit)
for _rank in JOKER_NAMES:
    Card(_rank)
_CARD = _MADE


def _spellings(word: str) -> set[str]:
    """``word`` in every mix of upper and lower case (the notation ignores case)."""
    out = {""}
    for char in word:
        out = {head + c for head in out for c in {char.upper(), char.lower()}}
    return out


#: every word that is one whole card by itself (♠8, s8, 黑桃8, 10, bj …), to that card: text written a card
#: to a word, as the picker writes it, is read by lookup (tests/engine/test_cards.py checks each against the tokenizer)
_WORD_CARD = {spelling: _CARD[_JOKER_INPUT[word.upper()], None]
              for word in _JOKER_INPUT for spelling in _spellings(word)}
_WORD_CARD.update({suit_spelling + rank_spelling: _CARD[rank, suit]
                   for suit_word, suit in [("", None), *_SUIT_INPUT.items()] for suit_spelling in _spellings(suit_word)
                   for rank_word, rank in _RANK_INPUT.items() for rank_spelling in _spellings(rank_word)})


#: the same, less the bare ranks: the words where every card needs its suit
_WORD_SUITED_CARD = {word: card for word, card in _WORD_CARD.items() if not card.is_bare}


def parse_cards(text: str, *, bare: bool = False, allow_empty: bool = False) -> tuple[Card, ...]:
    """Read card text in any accepted notation, in the order written.

    ``bare=True`` accepts plain ranks (suit unknown) for games that ignore
    suits; otherwise a rank without a suit is an error asking for the suit.
    """
    if not isinstance(text, str):
        raise InvalidNotation(t("牌应为文字，例如「♠A ♥10」", "cards must be text, such as “♠A ♥10”"))
    text = normalize_text(text)
    cards = _whole_words(text, bare)
    if cards is None:
        cards = _tokens(text, bare)
    if not cards and not allow_empty:
        raise InvalidNotation(t("没有填写牌", "no cards were given"), code="empty_cards")
    return cards


def _whole_words(text: str, bare: bool) -> tuple[Card, ...] | None:
    """The cards of ``text`` when each of its space-separated words is one whole card; None otherwise."""
    known = _WORD_CARD if bare else _WORD_SUITED_CARD
    out = []
    for word in text.split():
        card = known.get(word)
        if card is None:
            return None  # not one card (or a bare rank where suits are needed): the tokenizer says why
        out.append(card)
    return tuple(out)


def _tokens(text: str, bare: bool) -> tuple[Card, ...]:
    """The cards of ``text`` read token by token: any separators, or none between cards."""
    pos, n = 0, len(text)
    out: list[Card] = []
    while pos < n:
        sep = _SEP_RE.match(text, pos)
        if sep:
            pos = sep.end()
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            raise InvalidNotation(
                t("无法识别「{tok}」：{hint}", "cannot read “{tok}”: {hint}",
                  tok=_bad_token(text, pos), hint=VALID_CARDS_HINT))
        if m.group("joker"):
            out.append(_CARD[_JOKER_INPUT[m.group("joker").upper()], None])
        else:
            suit_token = m.group("suit")
            rank = _RANK_INPUT[m.group("rank").upper()]
            if suit_token is None and not bare:
                raise InvalidNotation(
                    t("「{tok}」缺少花色：这里每张牌都要写花色，例如「♠{tok}」或「S{tok}」",
                      "“{tok}” has no suit: here every card needs one, such as “♠{tok}” or “S{tok}”",
                      tok=m.group("rank")),
                    code="suit_required")
            out.append(_CARD[rank, suit_token and _SUIT_INPUT[suit_token.upper()]])
        pos = m.end()
    return tuple(out)


def default_sort_key(card: Card) -> tuple:
    """Jokers, then A K … 3 2, spades before hearts, clubs, diamonds."""
    rank = card.rank
    if rank == 2:
        rank = 1.5  # 2 sorts lowest by default (below 3): no game order implied
    return (-rank, card._suit_index if card.suit else 9)


def format_cards(cards: Iterable[Card], key: Callable[[Card], object] | None = None) -> str:
    """Canonical text: sorted highest first by the game's ``key`` (ascending key = higher)."""
    return " ".join([c._text for c in sorted(cards, key=key or default_sort_key)])


def cards_text(cards: Iterable[Card], key=None) -> str:
    return format_cards(cards, key)


_JOKERS = frozenset({LITTLE_JOKER, BIG_JOKER})


def written_order(canonical: Sequence[Card], wild: Iterable[int] = ()) -> list[Card]:
    """A play's cards as a player reads them (``rules/common.md``, "Smallest legal play"), from the cards in
    canonical order (highest first): the deciding group first, in ascending order, then the kickers, ascending
    (``10 10 10 3 J``, not ``J 10 10 10 3``); see :func:`arrange`."""
    ascending = in_ascending_order(canonical)
    return arrange(ascending, [c.rank for c in ascending], wild)


def in_ascending_order(canonical: Sequence[Card]) -> list[Card]:
    """Cards in canonical order (highest first) put in ascending order of rank, each rank's cards in their
    canonical (suit) order."""
    return [canonical[i] for i in sorted(range(len(canonical)), key=ascending_key(canonical))]


def ascending_key(canonical: Sequence[Card]) -> Callable[[int], int]:
    """A sort key of places in ``canonical`` (highest first) giving ascending ranks, each rank's cards in their
    canonical (suit) order: each place's position in that order."""
    group, last, at = [], None, -1
    for c in canonical:
        if c.rank != last:
            at, last = at + 1, c.rank
        group.append(at)
    position = [0] * len(canonical)
    for n, i in enumerate(sorted(range(len(canonical)), key=lambda i: (-group[i], i))):
        position[i] = n
    return position.__getitem__


def arrange(ascending: Sequence, ranks: Sequence[int], wild: Iterable[int] = ()) -> list:
    """A play (any items, in ascending order, of these ranks) as a player reads it.

    The deciding group goes first: the ranks held most often, three times or more, when every other rank of
    the play is held once or twice (三带一, 三带二, 四带二, airplanes, a bomb with kickers; the jokers count as
    one rank), the kickers after it; otherwise every card is of the group (a run, a pair, a chain bomb, a play
    that wild jokers ``wild`` fill). A run through 3 that holds a 2 starts low: ``A 2 3 4 5``, ``2 3 4 5 6``.
    A play of Q, 7, 8 and 3 (each as often) is written as players name it: ``Q 7 8 3``.
    """
    order = written_places(ranks, wild)
    return list(ascending) if order is None else [ascending[i] for i in order]


def written_places(ranks: Sequence[int], wild: Iterable[int] = ()) -> Sequence[int] | None:
    """:func:`arrange` as the places of a play's cards (ascending, of these ``ranks``) in the order written, or
    None when that is their ascending order."""
    n = len(ranks)
    if n < 4 or ranks[0] == ranks[-1]:
        return None  # few cards, or one rank
    if (wild and any(map(ranks.__contains__, wild))) or (QUEEN in ranks and set(ranks) == _Q783):
        return _named_places(ranks, set(ranks), wild)
    merged = ranks
    if BIG_JOKER in ranks and LITTLE_JOKER in ranks:  # the jokers count as one rank: when side by side
        merged = list(map(_ONE_JOKER.get, ranks, ranks))
        if merged.count(LITTLE_JOKER) != len(ranks) - merged.index(LITTLE_JOKER) - merged[::-1].index(LITTLE_JOKER):
            return _named_places(ranks, set(ranks), wild)
    order, even = _grouped(tuple(map(eq, merged, merged[1:])))  # is each card of the rank of the one before it?
    if order is None and even and 2 in ranks and 3 in ranks:
        return _low_run(ranks, set(ranks))
    return order


@lru_cache(maxsize=4096)
def _grouped(same: tuple[bool, ...]) -> tuple[tuple[int, ...] | None, bool]:
    """The places of a play's cards (ascending; ``same``: is each card of the rank of the one before it) written
    deciding group first (None when the play has no kickers: see :func:`arrange`), and whether every rank is
    held as often."""
    sizes, k = [], 1
    for s in same:
        if s:
            k += 1
        else:
            sizes.append(k)
            k = 1
    sizes.append(k)
    ranks = written_ranks(tuple(sizes))
    if ranks is None:
        return None, min(sizes) == max(sizes)
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    return tuple(i for r in ranks for i in range(starts[r], starts[r] + sizes[r])), False


@lru_cache(maxsize=4096)
def written_ranks(sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The ranks of a play (ascending, held ``sizes`` times each) in the order written: the deciding group
    first, then the kickers (see :func:`arrange`); None when the play has no kickers."""
    most, least = max(sizes), min(sizes)
    if not (most >= 3 and least < 3 and all(k == most or k < 3 for k in sizes)):
        return None
    return (tuple(i for i, k in enumerate(sizes) if k == most)
            + tuple(i for i, k in enumerate(sizes) if k != most))


def _named_places(ranks: Sequence[int], distinct: set, wild: Iterable[int]) -> Sequence[int] | None:
    """:func:`written_places` of a play holding both jokers (one rank) or wild jokers, or of Q, 7, 8 and 3."""
    n = len(ranks)
    low = 2 in distinct and 3 in distinct
    if distinct == _Q783 and all(ranks.count(r) * 4 == n for r in _Q783):
        return _named(ranks, _Q783_NAMED)
    if not low and wild and not distinct.isdisjoint(wild):
        return None  # wild jokers fill in: no kickers, and no low run
    merged = [0 if r in _JOKERS else r for r in ranks]
    counts = Counter(merged)
    sizes = counts.values()
    most, least = max(sizes), min(sizes)
    wild_filled = bool(wild) and any(r in wild for r in ranks)
    if most >= 3 and least < 3 and all(k == most or k < 3 for k in sizes) and not wild_filled:
        return ([i for i, r in enumerate(merged) if counts[r] == most]
                + [i for i, r in enumerate(merged) if counts[r] != most])
    if low and (least == most or wild_filled):  # wild jokers may fill a run's ranks unevenly: 2222 3333 444+王
        return _low_run(ranks, distinct)
    return None


def _low_run(ranks: Sequence[int], distinct: set) -> list[int]:
    """A run through 3 that holds a 2, written from its low end: ``A 2 3 4 5``, ``2 3 4 5 6``."""
    low = (2,) if ACE not in distinct or KING in distinct else (ACE, 2)
    return _named(ranks, low) + [i for i, r in enumerate(ranks) if r not in low]


_Q783 = frozenset({QUEEN, 7, 8, 3})
_ONE_JOKER = {BIG_JOKER: LITTLE_JOKER}
#: ranks a play holding all of them may be written by what they are, not by how many of each alone (see
#: :func:`arrange`): a 2 and a 3 (a low run), both jokers (one rank), and Q 7 8 3
NAMED_RANKS = (frozenset({2, 3}), frozenset({BIG_JOKER, LITTLE_JOKER}))
Q783_RANKS = _Q783
_Q783_NAMED = (QUEEN, 7, 8, 3)


def _named(ranks: Sequence[int], order: Sequence[int]) -> list[int]:
    """The places of the cards of the ranks ``order``, rank by rank, each rank's ascending."""
    return [i for r0 in order for i, r in enumerate(ranks) if r == r0]


def format_play(cards: Iterable[Card], key: Callable[[Card], object] | None = None,
                wild: Iterable[int] = ()) -> str:
    """A play's text as a player reads it (:func:`written_order`); ``key`` is the game's canonical sort key."""
    return " ".join([c._text for c in written_order(sorted(cards, key=key or default_sort_key), wild)])


# --------------------------------------------------------------------------
# Decks
# --------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _pack_counts(copies: int, jokers: bool, removed: tuple) -> tuple[dict, frozenset]:
    """A pack's cards counted, and the set of them, made once a pack: a game makes its :class:`Deck` anew for
    each hand it settles (a table's edit settles hundreds). Read only."""
    limits = dict(Counter(Deck(copies, jokers, removed).all_cards()))
    return limits, frozenset(limits)


@dataclass(frozen=True)
class Deck:
    """``copies`` standard 54-card decks, maybe without jokers, minus ``removed``.

    ``removed`` lists single physical cards taken out of the pack (once per
    listed card: a 2-deck pack with ``removed=(♥2,)`` keeps one ♥2).
    """

    copies: int = 1
    jokers: bool = True
    removed: tuple[Card, ...] = ()
    name: Text | None = None

    def limit(self, card: Card) -> int:
        if card.is_joker:
            return self.copies if self.jokers else 0
        if card.suit is None:
            return self.rank_limit(card.rank)
        return self.copies - self.removed.count(card)

    def rank_limit(self, rank: int) -> int:
        if rank in JOKER_NAMES:
            return self.copies if self.jokers else 0
        return 4 * self.copies - sum(1 for c in self.removed if c.rank == rank)

    @property
    def size(self) -> int:
        return len(self.all_cards())

    def all_cards(self) -> list[Card]:
        out = []
        for _ in range(self.copies):
            for s in SUITS:
                for r in RANKS:
                    out.append(Card(r, s))
            if self.jokers:
                out += [BIG, LITTLE]
        for c in self.removed:
            out.remove(c)
        return out

    def distinct_cards(self) -> list[Card]:
        return sorted({c for c in self.all_cards()}, key=default_sort_key)

    @property
    def _limits(self) -> dict[Card, int]:
        """How many of each suited card and joker the deck holds (a card it does not hold is absent)."""
        return _pack_counts(self.copies, self.jokers, self.removed)[0]

    @property
    def _held(self) -> frozenset[Card]:
        """The cards the deck holds at least once (a set: a subset test reuses the hashes it has stored)."""
        return _pack_counts(self.copies, self.jokers, self.removed)[1]

    def check(self, cards: Sequence[Card], *, field: str | None = None) -> None:
        """Raise :class:`InvalidNotation` when the deck cannot hold ``cards``."""
        distinct = set(cards)
        if len(distinct) == len(cards) and distinct <= self._held:
            return  # each card once, and the pack holds it (so no rank is over either)
        limits = self._limits
        counts = Counter(cards)
        if all(n <= limits.get(card, 0) for card, n in counts.items()):
            return  # every card is in the pack, no more often than it holds it
        for card, n in counts.items():
            if card.is_joker and not self.jokers:
                raise InvalidNotation(
                    t("「{c}」：这个玩法不用大小王", "“{c}”: this game is played without jokers", c=str(card)),
                    field=field, code="card_not_in_deck")
            if card.suit is not None and self.limit(card) == 0:
                raise InvalidNotation(
                    t("「{c}」已从这副牌中去掉（去掉的牌：{removed}），请换一张这副牌里有的牌",
                      "“{c}” has been removed from this pack (removed: {removed}); use a card the pack holds",
                      c=str(card), removed=" ".join(str(r) for r in self.removed)),
                    field=field, code="card_not_in_deck")
            if (card.suit is not None or card.is_joker) and n > self.limit(card):
                raise _too_many(card, n, self.limit(card), field)
        by_rank = Counter(c.rank for c in cards if not c.is_joker)
        for rank, n in by_rank.items():
            if n > self.rank_limit(rank):
                raise _too_many(Card(rank), n, self.rank_limit(rank), field)


def _too_many(card: Card, n: int, limit: int, field: str | None) -> InvalidNotation:
    if card.suit is None and not card.is_joker:
        return InvalidNotation(
            t("点数「{c}」出现了{n}张，这副牌最多只有{limit}张",
              "rank “{c}” appears {n} times, but the pack holds at most {limit}",
              c=str(card), n=n, limit=limit),
            field=field, code="too_many_copies")
    return InvalidNotation(
        t("「{c}」出现了{n}张，这副牌最多只有{limit}张",
          "“{c}” appears {n} times, but the pack holds at most {limit}",
          c=str(card), n=n, limit=limit),
        field=field, code="too_many_copies")


def missing_from(hand: Sequence[Card], play: Sequence[Card]) -> Card | None:
    """The first card of ``play`` that ``hand`` does not hold, or None."""
    left = Counter(hand)
    bare_needs = []
    for c in play:
        if c.is_bare:
            bare_needs.append(c)
        elif left[c] > 0:
            left[c] -= 1
        else:
            return c
    for c in bare_needs:
        if left[c] > 0:
            left[c] -= 1
            continue
        for cand in list(left):
            if cand.rank == c.rank and left[cand] > 0:
                left[cand] -= 1
                break
        else:
            return c
    return None

