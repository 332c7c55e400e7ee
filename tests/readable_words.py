"""What a player can't read, found in a page's words (issue 26, item 3): enum or Python reprs, snake_case keys,
None/True/False, "N号位" where the page knows the player's name, and in English full-width punctuation. Used by
the web test that reads every page of a table (tests/web/test_readable_everywhere.py) and by the browser test
that also reads what the pages' scripts write (tests/browser/test_browser_axe.py)."""
from __future__ import annotations

import re
from html.parser import HTMLParser

NAMES = ["阿明", "小红", "老王", "Jennifer", "Bob", "小李", "大张"]

CODE_NAME = re.compile(r"\b[A-Z][a-z]+\.[A-Z][A-Z_]+\b")  # Suit.SPADES, Payout.TIERS_321
SNAKE_CASE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # defender_points, chong_guan
REPR_WORD = re.compile(r"\b(None|True|False|nan|null|undefined)\b")
SEAT_NUMBER = re.compile(r"\d+\s*号位|[Ss]eat \d+\b")
SEAT_WITH_NAME = re.compile(r"(\d+\s*号位|[Ss]eat \d+)\s*[:：(（]?\s*(%s)" % "|".join(NAMES))  # where seats are moved
FULL_WIDTH = re.compile(r"[（），：；。！？、]")
URL = re.compile(r"https?://\S+|/tables/\S+|/circles/\S+")
SPOKEN = ("aria-label", "title", "placeholder", "alt")


class ShownWords(HTMLParser):
    """The words a page shows or speaks."""

    HIDDEN = {"script", "style", "textarea", "template", "code"}  # code: an example's API request, labelled so

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        self.words += [value for name, value in attrs if name in SPOKEN and value]

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.words.append(data)


def shown(html: str) -> str:
    parser = ShownWords()
    parser.feed(html)
    return URL.sub(" ", " ".join(parser.words))


def unreadable(text: str, lang: str, names_known: bool = True) -> list[str]:
    """The words in ``text`` a player can't read (addresses aside)."""
    text = URL.sub(" ", text)
    found = CODE_NAME.findall(text) + SNAKE_CASE.findall(text) + REPR_WORD.findall(text)
    if names_known:
        found += SEAT_NUMBER.findall(SEAT_WITH_NAME.sub(" ", text))
    if lang == "en":
        found += [text[max(0, m.start() - 20):m.end() + 20] for m in FULL_WIDTH.finditer(without_names(text))]
    return found


def without_names(text: str) -> str:
    for name in NAMES:
        text = text.replace(name, " ")
    return text
