"""The card notation as a JSON Schema (ECMA) pattern, generated from the reader's own declarations.

``scoring.cards`` reads card text as: its typed forms normalized (:func:`~scoring.cards.normalize_text`:
full-width to ASCII, emoji variation selectors dropped), then tokens — a joker word, or a rank word with an
optional suit word before it, in any case — with separators (any white space, ``,，、;；``) or nothing between
them. The pattern here says the same of the text as sent: each character of a token word is every character
the reader takes for it (its ASCII cases and their full-width twins), a dropped character may stand anywhere, a
separator is any character the reader takes for one. It describes the
syntax only: which cards a game's pack holds, how many of each, whether a bare rank (``7``, suit unknown) will
do and whether any card is needed at all are rules of the game, answered 422.

Every place cards appear in the OpenAPI document uses :func:`cards_schema`.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from ..cards import _JOKER_INPUT, _RANK_INPUT, _SEP_RE, _SUIT_INPUT, _TOKEN, normalize_text
from .base import MAX_TEXT

#: a character class of the pattern: literal when a letter or digit, else its \\uXXXX escape
_PLAIN = re.compile(r"[A-Za-z0-9]")


def _escaped(code: int) -> str:
    char = chr(code)
    return char if _PLAIN.fullmatch(char) else f"\\u{code:04x}"


def char_class(codes) -> str:
    """An ECMA character class of these BMP code points, runs written as ranges (one code point: itself)."""
    codes = sorted(set(codes))
    if len(codes) == 1:
        return _escaped(codes[0])
    parts, i = [], 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        parts.append(_escaped(codes[i]) if j == i else
                     _escaped(codes[i]) + ("" if j == i + 1 else "-") + _escaped(codes[j]))
        i = j + 1
    return f"[{''.join(parts)}]"


def token_words() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The notation's words, as ``scoring.cards`` declares them: jokers, suits, ranks (longest first)."""
    def ordered(words):
        return tuple(sorted(words, key=lambda w: (-len(w), w)))
    return ordered(_JOKER_INPUT), ordered(_SUIT_INPUT), ordered(_RANK_INPUT)


@cache
def _typed() -> dict[int, str]:
    """Each BMP code point (surrogates aside) that the reader's normalization leaves one character or none, as
    it leaves it."""
    out = {}
    for code in range(0x10000):
        if not 0xD800 <= code <= 0xDFFF and len(read := normalize_text(chr(code))) <= 1:
            out[code] = read
    return out


def _taken_for(wanted: set[str], same: Callable[[str, str], bool]) -> dict[str, frozenset[int]]:
    """For each character of ``wanted``, every code point the reader takes for it: typed, then normalized,
    ``same(char, read)``."""
    keys = {k: c for c in wanted for k in (c, c.lower(), c.upper(), c.casefold())}
    chars: dict[str, set[int]] = {c: set() for c in wanted}
    for code, read in _typed().items():
        for key in {read, read.lower(), read.upper(), read.casefold()} if read else ():
            c = keys.get(key)
            if c is not None and same(c, read):
                chars[c].add(code)
    return {c: frozenset(v) for c, v in chars.items()}


def _dropped() -> str:
    """The pattern of what the reader drops, anywhere (emoji variation selectors)."""
    return char_class(code for code, read in _typed().items() if read == "") + "*"


def _case_blind(char: str, read: str) -> bool:
    """The tokenizer's case-blind matching (its own flags), of one character."""
    return re.fullmatch(re.escape(char), read, _TOKEN.flags & (re.IGNORECASE | re.ASCII)) is not None


@cache
def _read_as() -> tuple[dict[str, frozenset[int]], frozenset[int]]:
    """For each character of a token word, every code point the card reader reads as it; the code points it
    reads as a separator."""
    wanted = {c for group in token_words() for w in group for c in w}
    separators = frozenset(code for code, read in _typed().items() if read and _SEP_RE.fullmatch(read))
    return _taken_for(wanted, _case_blind), separators


def _word(w: str, chars: dict[str, frozenset[int]], skip: str) -> str:
    return "".join(char_class(chars[c]) + skip for c in w)


@cache
def card_text_pattern(least: int = 0) -> str:
    """The ECMA pattern of text ``scoring.cards.parse_cards`` reads into at least ``least`` (0 or 1) cards."""
    chars, separators = _read_as()
    skip = _dropped()

    def either(ws) -> str:
        return "(?:" + "|".join(_word(w, chars, skip) for w in ws) + ")"

    jokers, suits, ranks = token_words()
    token = f"(?:{either(jokers)}|{either(suits)}?{either(ranks)})"
    sep = char_class(separators) + skip
    if least:
        return f"^{skip}(?:{sep})*{token}(?:{sep}|{token})*$"
    return f"^{skip}(?:{sep}|{token})*$"


def cards_schema(least: int = 0) -> dict:
    """The JSON Schema of card text with at least ``least`` cards (0: blank or separators alone also match)."""
    return {"type": "string", "maxLength": MAX_TEXT, "pattern": card_text_pattern(least),
            "description": "cards, e.g. “♠A ♥10 大王” (notation: docs/api.md)"}


@cache
def upper_words_pattern(words: tuple[str, ...]) -> str:
    """The ECMA pattern of text that, normalized as the card reader does and stripped, is one of ``words`` (in
    upper case, or caseless) once upper-cased: how the trump suit is read (``scoring.trick.inputs``)."""
    chars = _taken_for({c for w in words for c in w}, lambda char, read: read.upper() == char)
    skip = _dropped()
    around = char_class(code for code, read in _typed().items() if read.isspace() or read == "") + "*"
    body = "|".join(_word(w, chars, skip) for w in sorted(words, key=lambda w: (-len(w), w)))
    return f"^{around}(?:{body}){around}$"
