"""Card notation of docs/rules/common.md: forgiving input, canonical output."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.cards import (
    ACE,
    BIG,
    BIG_JOKER,
    JACK,
    KING,
    LITTLE,
    LITTLE_JOKER,
    QUEEN,
    RANKS,
    Card,
    Deck,
    Suit,
    format_cards,
    parse_cards,
)
from scoring.errors import InvalidNotation

S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS


def msg(exc: InvalidNotation, lang: str = "en") -> str:
    return exc.message.render(lang)


# --- input forms -----------------------------------------------------------

def test_suit_symbols_are_read():
    assert parse_cards("♠A ♥10 ♣3 ♦K") == (Card(ACE, S), Card(10, H), Card(3, C), Card(KING, D))


def test_hollow_suit_symbols_are_read_too():
    assert parse_cards("♤A ♡2 ♧3 ♢4") == (Card(ACE, S), Card(2, H), Card(3, C), Card(4, D))


@pytest.mark.parametrize("text", ["SA h10 dT sq", "sa H10 DT SQ", "Sa h10 Dt sQ"])
def test_letters_for_suits_and_ranks_in_either_case(text):
    assert parse_cards(text) == (Card(ACE, S), Card(10, H), Card(10, D), Card(QUEEN, S))


def test_t_means_ten():
    assert parse_cards("♠T") == parse_cards("♠10") == (Card(10, S),)


def test_chinese_suit_names_including_alternatives():
    assert parse_cards("黑桃A 红心10 方片3") == (Card(ACE, S), Card(10, H), Card(3, D))
    assert parse_cards("红桃2 梅花5 草花6 方块7") == (Card(2, H), Card(5, C), Card(6, C), Card(7, D))


@pytest.mark.parametrize("text,rank", [("大王", BIG_JOKER), ("BJ", BIG_JOKER), ("bj", BIG_JOKER),
                                       ("小王", LITTLE_JOKER), ("LJ", LITTLE_JOKER), ("lj", LITTLE_JOKER)])
def test_jokers_in_chinese_or_ascii_bj_lj(text, rank):
    assert parse_cards(text) == (Card(rank),)


def test_sj_is_the_spade_jack_not_a_joker():
    assert parse_cards("SJ") == (Card(JACK, S),)
    assert parse_cards("sj hj") == (Card(JACK, S), Card(JACK, H))


@pytest.mark.parametrize("text", ["♠A,♥10", "♠A，♥10", "♠A、♥10", "♠A ; ♥10", "♠A  ,  ♥10", "♠A♥10"])
def test_separators_spaces_commas_chinese_commas_or_none(text):
    assert parse_cards(text) == (Card(ACE, S), Card(10, H))


def test_no_separator_between_suited_cards_and_jokers():
    assert parse_cards("♠A♠K大王") == (Card(ACE, S), Card(KING, S), BIG)


def test_full_width_input_is_normalised():
    assert parse_cards("ＳＡ　ｈ１０") == (Card(ACE, S), Card(10, H))


def test_bare_ranks_only_where_the_game_ignores_suits():
    assert parse_cards("7 7 8", bare=True) == (Card(7), Card(7), Card(8))
    with pytest.raises(InvalidNotation) as e:
        parse_cards("7 7 8")
    assert e.value.code == "suit_required"
    assert "“7”" in msg(e.value)


# --- errors quote the token and say what is valid -------------------------

def test_unknown_token_is_quoted_and_valid_forms_named():
    with pytest.raises(InvalidNotation) as e:
        parse_cards("♠A X7 ♥2")
    assert "“X7”" in msg(e.value)
    assert "大王" in msg(e.value) and "S H C D" in msg(e.value)
    assert "「X7」" in msg(e.value, "zh")


def test_empty_card_text_is_an_error():
    with pytest.raises(InvalidNotation) as e:
        parse_cards("  ,， ")
    assert e.value.code == "empty_cards"


def test_non_text_cards_are_an_error():
    with pytest.raises(InvalidNotation):
        parse_cards(["♠A"])  # type: ignore[arg-type]


def test_too_many_copies_names_the_card_and_the_limit():
    deck = Deck(copies=2)
    with pytest.raises(InvalidNotation) as e:
        deck.check(parse_cards("♠A ♠A ♠A"), field="hand")
    text = msg(e.value)
    assert "♠A" in text and "3" in text and "at most 2" in text
    assert e.value.code == "too_many_copies" and e.value.field == "hand"
    assert "最多只有2张" in msg(e.value, "zh")


def test_too_many_bare_ranks_names_the_rank_and_the_limit():
    with pytest.raises(InvalidNotation) as e:
        Deck(copies=1).check(parse_cards("7 7 7 7 7", bare=True))
    assert "“7”" in msg(e.value) and "at most 4" in msg(e.value)


def test_a_third_big_joker_in_a_two_deck_game_is_too_many():
    with pytest.raises(InvalidNotation) as e:
        Deck(copies=2).check(parse_cards("大王 大王 大王"))
    assert "大王" in msg(e.value) and "at most 2" in msg(e.value)


def test_joker_in_a_jokerless_deck_is_rejected():
    with pytest.raises(InvalidNotation) as e:
        Deck(copies=1, jokers=False).check(parse_cards("♠A 小王"))
    assert "小王" in msg(e.value) and "without jokers" in msg(e.value)


def test_removed_card_is_rejected_by_name():
    deck = Deck(copies=1, jokers=False, removed=parse_cards("♥2 ♣2 ♦2 ♠A"))
    with pytest.raises(InvalidNotation) as e:
        deck.check(parse_cards("♠A"))
    assert "♠A" in msg(e.value) and "removed" in msg(e.value)
    deck.check(parse_cards("♥A ♣A ♦A ♠2"))  # the rest is fine


def test_removed_card_in_a_two_deck_pack_keeps_one_copy():
    deck = Deck(copies=2, removed=parse_cards("♥2"))
    deck.check(parse_cards("♥2"))
    with pytest.raises(InvalidNotation):
        deck.check(parse_cards("♥2 ♥2"))


# --- output -----------------------------------------------------------------

def test_canonical_output_symbol_and_rank_jokers_in_chinese_highest_first():
    assert format_cards(parse_cards("sa h5 bj Sa")) == "大王 ♠A ♠A ♥5"
    assert format_cards(parse_cards("LJ BJ")) == "大王 小王"


def test_canonical_output_follows_the_games_sort_key():
    q783_order = {QUEEN: 0, 7: 1, 8: 2, 3: 3}
    key = lambda c: (q783_order.get(c.rank, 9), c.rank)
    assert format_cards(parse_cards("♠3 ♠8 ♠Q ♠7"), key) == "♠Q ♠7 ♠8 ♠3"


def test_ten_is_written_10():
    assert format_cards(parse_cards("hT")) == "♥10"


# --- property: parse(format(x)) == x ---------------------------------------

@st.composite
def deck_and_cards(draw):
    copies = draw(st.integers(1, 3))
    jokers = draw(st.booleans())
    full = Deck(copies, jokers).all_cards()
    suited = sorted({c for c in full if not c.is_joker}, key=lambda c: (c.rank, c._suit_index))
    removed = tuple(draw(st.lists(st.sampled_from(suited), max_size=6, unique=True)))
    deck = Deck(copies, jokers, removed)
    pool = deck.all_cards()
    idx = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=40))
    cards = [pool[i] for i in idx]
    bare = draw(st.booleans())
    if bare:
        cards = [c.without_suit() for c in cards]
    return deck, cards, bare


@settings(max_examples=examples(300), deadline=None)
@given(deck_and_cards(), st.sampled_from(["default", "reversed", "q783"]))
def test_parse_of_format_gives_back_the_same_multiset(case, order):
    deck, cards, bare = case
    deck.check(cards)  # every drawn set is one the deck can hold
    keys = {
        "default": None,
        "reversed": lambda c: (c.rank, c._suit_index),
        "q783": lambda c: ({QUEEN: 0, 7: 1, 8: 2, 3: 3}.get(c.rank, 5), -c.rank, c._suit_index),
    }
    text = format_cards(cards, keys[order])
    back = parse_cards(text, bare=bare, allow_empty=True)
    assert Counter(back) == Counter(cards)
    assert format_cards(back, keys[order]) == text


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.sampled_from([Card(r, s) for r in RANKS for s in Suit] + [BIG, LITTLE]), max_size=20))
def test_every_accepted_spelling_of_a_card_reads_the_same(cards):
    letters = " ".join(
        ("BJ" if c == BIG else "lj") if c.is_joker else c.suit.value.lower() + {10: "T"}.get(c.rank, str(c)[1:])
        for c in cards)
    assert Counter(parse_cards(letters, allow_empty=True)) == Counter(cards)


def test_a_card_with_no_such_suit_is_refused_every_time_and_leaves_no_broken_card_behind():
    from scoring.cards import Card, Suit

    for _ in range(2):
        with pytest.raises(ValueError):
            Card(14, "S")
    assert Card(14, Suit.SPADES) is Card(14, Suit.SPADES) and str(Card(14, Suit.SPADES)) == "♠A"


# --- reading a card to a word by lookup ---------------------------------------------------------------------------

def outcome(read):
    """What ``read()`` gives back: its cards, or the error it raises (code and English words)."""
    try:
        return read()
    except InvalidNotation as exc:
        return exc.code, msg(exc)


def test_every_word_read_by_lookup_is_the_card_the_tokenizer_reads():
    from scoring.cards import _WORD_CARD, _tokens
    for word, card in _WORD_CARD.items():
        assert _tokens(word, True) == (card,), word


WORDS = st.sampled_from(["♠8", "s8", "S10", "♥t", "黑桃Q", "方片A", "bj", "小王", "10", "k", "♠", "8♠", "S1", "♠8♥8",
                         "Ｓ８", "♠\ufe0f8", "ſ8", "x"])
SEPARATORS = st.sampled_from([" ", "  ", "\u3000", "\t", ",", "，", "、", ";", "\x1c", "\u2028", ""])


@given(st.lists(st.tuples(WORDS, SEPARATORS), max_size=6), st.booleans())
def test_reading_by_lookup_gives_what_the_tokenizer_gives(parts, bare):
    from scoring.cards import _tokens, normalize_text
    text = "".join(word + sep for word, sep in parts)
    read_either_way = outcome(lambda: parse_cards(text, bare=bare, allow_empty=True))
    assert read_either_way == outcome(lambda: _tokens(normalize_text(text), bare))
