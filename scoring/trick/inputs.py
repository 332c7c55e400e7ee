"""Reading a trick request: the trump suit, card fields, and the deck check over all of them."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar, Sequence

from ..cards import Card, Deck, Suit, _SUIT_INPUT, normalize_text, parse_cards
from ..errors import InvalidInput, InvalidNotation, MalformedInput, PaijuError
from ..i18n import shown, t
from ..inputs import MISSING, CardsField, ChoiceField, missing
from ..inputs.notation import upper_words_pattern

_TRUMP_WORDS = {
    "SPADES": Suit.SPADES, "SPADE": Suit.SPADES, "HEARTS": Suit.HEARTS, "HEART": Suit.HEARTS,
    "CLUBS": Suit.CLUBS, "CLUB": Suit.CLUBS, "DIAMONDS": Suit.DIAMONDS, "DIAMOND": Suit.DIAMONDS,
    "黑": Suit.SPADES, "红": Suit.HEARTS, "梅": Suit.CLUBS, "方": Suit.DIAMONDS, "红色": None,
}
_NO_TRUMP_WORDS = ("NT", "无主", "王", "NOTRUMP", "NO TRUMP", "JOKER", "JOKERS")

TRUMP_HINT = t("♠ ♥ ♣ ♦、S H C D 或 黑桃 红桃 梅花 方块", "♠ ♥ ♣ ♦, S H C D or 黑桃 红桃 梅花 方块")


def trump_pattern() -> str:
    """The text :func:`parse_trump` reads as a suit, as a JSON Schema pattern."""
    return upper_words_pattern((*_SUIT_INPUT, *(w for w, suit in _TRUMP_WORDS.items() if suit)))


def parse_trump(value, field_name: str = "trump") -> Suit:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise MalformedInput(t("缺少主花色「{f}」，应为{hint}", "the trump suit “{f}” is missing; use {hint}",
                               f=field_name, hint=TRUMP_HINT), field=field_name, code="missing_field")
    if not isinstance(value, str):
        raise MalformedInput(t("主花色应为文字，例如「♠」，收到「{v}」", "the trump suit must be text such as “♠”, "
                               "got “{v}”", v=shown(value)), field=field_name, code="invalid_trump")
    s = normalize_text(value).strip()
    suit = _SUIT_INPUT.get(s.upper()) or _SUIT_INPUT.get(s) or _TRUMP_WORDS.get(s.upper()) \
        or _TRUMP_WORDS.get(s)
    if suit is not None:
        return suit
    if s.upper() in _NO_TRUMP_WORDS:
        raise MalformedInput(t("「{v}」：这里必须叫一门花色做主，不能叫无主或王（可选{hint}）",
                               "“{v}”: a suit must be named as trump here, no no-trump or jokers "
                               "(use {hint})", v=shown(s), hint=TRUMP_HINT), field=field_name, code="invalid_trump")
    raise MalformedInput(t("「{v}」不是花色：主花色应为{hint}", "“{v}” is not a suit: the trump must be {hint}",
                           v=shown(s), hint=TRUMP_HINT), field=field_name, code="invalid_trump")


@dataclass(frozen=True)
class TrumpField(ChoiceField):
    """The trump suit, named any way :func:`parse_trump` reads (♠, S, 黑桃 …)."""

    choices: tuple = tuple((symbol, t(words, words)) for symbol, words in
                           (("♠", "♠ 黑桃"), ("♥", "♥ 红桃"), ("♣", "♣ 梅花"), ("♦", "♦ 方块")))
    parse: object = str  # text; the JSON Schema offers the four symbols as examples
    pattern: object = trump_pattern

    def read_in(self, payload, ctx, prefix, problems, label=None):
        try:
            return parse_trump(payload.get(self.name), prefix + self.name)
        except PaijuError as exc:
            problems.add(exc)
            return MISSING


def blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


@dataclass(frozen=True)
class TrickCardsField(CardsField):
    """Cards of a trick request (no deck check here: :func:`check_deck` counts the request's cards together);
    ``required_with``: another field whose cards make this one required (a follow needs the hand)."""

    kind: ClassVar[str] = "cards"

    required_with: str | None = None

    def read_in(self, payload, ctx, prefix, problems, label=None):
        path = prefix + self.name
        value = payload.get(self.name)
        needed = self.required or (self.required_with is not None and not blank(payload.get(self.required_with)))
        if value is None or (blank(value) and not needed):
            if needed:  # needed for another field's cards (a follow needs the hand): a rule of the game, 422
                problems.add(missing(path) if self.required else
                             InvalidInput(missing(path).message, field=path, code="missing_field"))
                return MISSING
            return None
        try:
            return parse_cards(value, bare=False)
        except PaijuError as exc:
            problems.add(exc.at(path))
            return MISSING


def check_deck(deck: Deck, cards: Sequence[Card], field_name: str) -> None:
    """All the cards of a request together must fit in the deck; the error says they were counted together."""
    try:
        deck.check(cards, field=field_name)
    except InvalidNotation as exc:
        message = t("{msg}（统计了本次请求里所有的牌：{fields}）", "{msg} (counting every card of this request: "
                    "{fields})", msg=exc.message, fields=field_name)
        raise exc.replaced(message=message)


def require_in_hand(hand: Sequence[Card], play: Sequence[Card]) -> None:
    left = Counter(hand)
    for c in play:
        if left[c] <= 0:
            raise InvalidInput(t("手牌里没有足够的「{c}」可出（hand 是出牌前的手牌，应包含所出的牌）",
                                 "the hand does not hold enough “{c}” for this play (hand is the hand before "
                                 "playing and must contain the play)", c=str(c)), field="play",
                               code="not_in_hand")
        left[c] -= 1


def check_hand_size(hand: Sequence[Card], deal: int | None, field: str = "hand") -> None:
    """A hand holds at most a deal's cards (the bottom is buried before the first trick)."""
    if deal is not None and len(hand) > deal:
        raise InvalidInput(t("手牌有{n}张，但每人只发{m}张牌：手牌最多{m}张",
                             "the hand has {n} cards, but each player is dealt {m}: a hand holds at most {m}",
                             n=len(hand), m=deal), field=field, code="hand_too_large")
