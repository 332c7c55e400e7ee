"""The OpenAPI document's card text pattern says exactly what the card reader reads (scoring/inputs/notation.py):
text matches it if and only if ``parse_cards`` reads it (the pack, the suits a game needs and whether any card
is needed are the game's rules, not the notation's); the trump suit's pattern likewise for ``parse_trump``."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.cards import parse_cards
from scoring.errors import PaijuError
from scoring.inputs.notation import card_text_pattern
from scoring.trick.inputs import parse_trump, trump_pattern

#: pieces of card text and of near misses: every word and alias, typed forms, separators, dropped characters
PIECES = ["♠", "♤", "♥", "♡", "♣", "♧", "♦", "♢", "S", "s", "H", "h", "C", "c", "D", "d", "黑桃", "红桃", "红心",
          "梅花", "草花", "方块", "方片", "10", "1", "0", "2", "7", "9", "T", "t", "J", "Q", "q", "K", "A", "a",
          "大王", "小王", "大鬼", "小鬼", "BJ", "lj", "B", "王", "Ｓ", "ｑ", "１０", "１", "ſ", "\u212a", "\u2460",
          "⑩", "²", "𝐒", "Ⅽ", "x", "X", "1", "-", "大", "黑", " ", "\u3000", "\t", "\n", ",", "，", "、", ";",
          "；", "﹐", "\x1c", "\x85", "\xa0", "\u2028", "\ufe0f", "\ufe0e", "\x00", "\x7f", "\ud800", "ß", "ı"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)


def read(text: str) -> tuple | None:
    try:
        return parse_cards(text, bare=True, allow_empty=True)
    except PaijuError:
        return None


@settings(max_examples=examples(600), deadline=None, derandomize=True)
@given(TEXT)
def test_card_text_matches_the_pattern_exactly_when_the_reader_reads_it(text):
    cards = read(text)
    assert (re.fullmatch(card_text_pattern(0), text) is not None) == (cards is not None), ascii(text)
    assert (re.fullmatch(card_text_pattern(1), text) is not None) == bool(cards), ascii(text)


@pytest.mark.parametrize("text", ["♠A ♥10 大王", "ＳＡ　ｈ１０", "♠️8", "s8,h9；d10", "黑桃Q方片A", "bj LJ",
                                  "1\ufe0f0", "k"])
def test_every_way_the_notation_is_typed_matches(text):
    assert re.fullmatch(card_text_pattern(1), text) and read(text)


@pytest.mark.parametrize("text", ["♠⑩", "𝐒A", "Ⅽ2", "♠²", "﹐", "ſ8", "\u212a", "S1", "♠A x"])
def test_compatibility_forms_no_keyboard_types_are_not_card_text(text):
    """The reader reads full-width forms and the ideographic space, not every NFKC compatibility form."""
    assert re.fullmatch(card_text_pattern(0), text) is None and read(text) is None


@pytest.mark.parametrize("text", ["", "  ", ",", "\ufe0f"])
def test_text_without_a_card_matches_only_the_pattern_that_allows_none(text):
    assert re.fullmatch(card_text_pattern(0), text) and not re.fullmatch(card_text_pattern(1), text)


TRUMP_PIECES = ["♠", "♥", "S", "s", "ſ", "Ｓ", "黑桃", "黑", "红", "红色", "梅", "方", "spade", "SPADES", "Hearts",
                "dıamond", "club", "CLUBS", "NT", "无主", " ", "\u3000", "\ufe0f", "x", "ß"]


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(TRUMP_PIECES), max_size=3).map("".join))
def test_trump_text_matches_its_pattern_exactly_when_it_names_a_suit(text):
    try:
        parse_trump(text)
        named = True
    except PaijuError:
        named = False
    assert (re.fullmatch(trump_pattern(), text) is not None) == named, ascii(text)


def test_the_patterns_are_ecma_regexes_that_agree_with_python():
    assert shutil.which("node"), "node runs the ECMA-262 engine of this test: `bash .ci/ensure-axe.sh` installs it"
    samples = ["♠A ♥10 大王", "ＳＡ　ｈ１０", "1\ufe0f0", "", ",", "♠⑩", "x", " ♠️ ", "spades", "红色"]
    patterns = [card_text_pattern(0), card_text_pattern(1), trump_pattern()]
    script = ("const [ps, ss] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "console.log(JSON.stringify(ps.map(p => ss.map(s => new RegExp(p, 'u').test(s)))));")
    out = subprocess.run(["node", "-e", script], input=json.dumps([patterns, samples]), capture_output=True,
                         text=True, check=True, timeout=60)
    assert json.loads(out.stdout) == [[re.fullmatch(p, s) is not None for s in samples] for p in patterns]
