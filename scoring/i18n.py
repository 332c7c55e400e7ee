"""Bilingual text for the engine.

The engine never imports Flask and never picks a language: every message it
produces is a :class:`Text` that holds the Chinese and the English wording.
The web layer renders it in the reader's language with :func:`render`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"


class Text:
    """A message in both languages, with ``str.format`` parameters.

    Parameters may themselves be :class:`Text` (rendered in the same
    language) or lists of them. A text is a value: never changed once made, its parameters neither (it
    keeps its last rendering, which stays right only so).
    (A plain class with slots, not a frozen dataclass: a request makes dozens, and a frozen dataclass
    takes three times as long to make one.)
    """

    __slots__ = ("zh", "en", "params", "_shown")

    def __init__(self, zh: str, en: str, params: Mapping[str, Any] | None = None):
        self.zh = zh
        self.en = en
        self.params = {} if params is None else params
        self._shown = None  # (lang, words) of the last render: an answer often shows one label several times

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return (self.zh, self.en, self.params) == (other.zh, other.en, other.params)

    def __hash__(self) -> int:  # as a frozen dataclass's: a TypeError, since its parameters are a dict
        return hash((self.zh, self.en, self.params))

    def __repr__(self) -> str:
        return f"Text(zh={self.zh!r}, en={self.en!r}, params={self.params!r})"

    def render(self, lang: str = DEFAULT_LANG) -> str:
        template = self.en if lang == "en" else self.zh
        if not self.params:
            return template
        shown = self._shown
        if shown is not None and shown[0] == lang:
            return shown[1]
        plain = _PLAIN
        words = template.format_map({k: v if type(v) in plain else render(v, lang) for k, v in self.params.items()})
        self._shown = (lang, words)
        return words

    def __str__(self) -> str:  # pragma: no cover - debugging aid
        return self.render(DEFAULT_LANG)

    def __add__(self, other: "Text") -> "Text":
        return join([self, other], zh_sep="", en_sep="")


def t(zh: str, en: str, **params: Any) -> Text:
    """Shorthand constructor: ``t("第{n}家", "seat {n}", n=2)``."""
    return Text(zh, en, dict(params))


def join(parts, zh_sep: str = "，", en_sep: str = ", ") -> Text:
    """Join several texts (or plain strings) into one."""
    parts = list(parts)
    names = {f"p{i}": p for i, p in enumerate(parts)}
    zh = zh_sep.join("{p%d}" % i for i in range(len(parts)))
    en = en_sep.join("{p%d}" % i for i in range(len(parts)))
    return Text(zh, en, names)


#: values :func:`render` hands back as they are, told apart by their exact type (the common case, cheaply)
_PLAIN = frozenset({str, int, float, bool, type(None)})


def render(value: Any, lang: str = DEFAULT_LANG) -> Any:
    """Render every Text inside a JSON-like value (dicts, lists, tuples)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {k: render(v, lang) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [render(v, lang) for v in value]
    if isinstance(value, Text):
        return value.render(lang)
    if isinstance(value, Mapping):
        return {k: render(v, lang) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [render(v, lang) for v in value]
    return value


def shown(value: Any, limit: int = 20) -> str:
    """A value as a message may quote it: short, and with anything unprintable escaped."""
    text = value if isinstance(value, str) else repr(value)
    text = text[:limit] + ("…" if len(text) > limit else "")
    if all(c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF for c in text):
        return text
    return text.encode("unicode_escape", "backslashreplace").decode("ascii")


MINUS = "\u2212"  # the minus sign players read (−), never the hyphen


def signed(value: int | str, plus: bool = True) -> str:
    """A number a player reads with its sign: +35, −20 (a true minus sign), 0; an amount too: +3.50, −1.25,
    0.00 (``plus=False``: no + either, as an equation's result: = 5, = −60). The pages (the ``signed`` filter),
    the share text and picture and the phone write it so."""
    text = str(value)
    if text.startswith("-"):
        return MINUS + text[1:]
    return text if not plus or not text.strip("0.") else "+" + text


def seat_number(seat: int) -> int:
    """The number a player reads for a seat: seat values are 0-based (the API), words count from 1."""
    return seat + 1


#: the templates of a seat's words and of several seats' words: a reader who knows the players' names sees
#: the names instead (:func:`render_json`'s ``names``)
SEAT_WORDS = ("{n}号位", "seat {n}")
SEATS_WORDS = ("{s}号位", "seats {s}")
SEATS_JOINED = ("、", " & ")


def seat_name(seat: int) -> Text:
    """How a seat is called in messages and on pages: value 0 is 1号位 / seat 1."""
    return Text(*SEAT_WORDS, {"n": seat_number(seat)})


def seats_name(seats) -> Text:
    """Several seats in one phrase: 1、3号位 / seats 1 & 3."""
    return Text(*SEATS_WORDS, {"s": join([str(seat_number(s)) for s in seats], *SEATS_JOINED)})


def unknown_seat(value: Any, seats: int) -> Text:
    """Why a seat value is refused: the values run from 0, which a player reads as 1号位."""
    return t("没有座位值{v}：座位的值是0到{last}（0是1号位，{last}是{n}号位）",
             "there is no seat value {v}: seat values are 0 to {last} (0 is seat 1, {last} is seat {n})",
             v=value, last=seats - 1, n=seats)


# --- storing texts ----------------------------------------------------------
# A value holding texts (a settlement's steps) is stored once, in no language, and rendered when it is
# shown: a text is the JSON object {"$zh": template, "$en": template, **params} ("$en" only when the
# English template is not the Chinese one; no parameter's name starts with "$"): one object per text,
# so a stored result decodes quickly.

ZH_KEY, EN_KEY = "$zh", "$en"


def to_json(value: Any) -> Any:
    """A JSON-like value with every :class:`Text` inside it as plain JSON (see :func:`from_json`)."""
    kind = type(value)  # the exact types first: a long edit stores hundreds of results at once
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else to_json(v) for v in value]
    if isinstance(value, Text):
        out: dict = {ZH_KEY: value.zh}
        if value.en != value.zh:
            out[EN_KEY] = value.en
        for k, v in value.params.items():
            out[k] = v if type(v) in _PLAIN else to_json(v)
        return out
    if isinstance(value, Mapping):
        if ZH_KEY in value:
            raise ValueError(f"a mapping with the key {ZH_KEY!r} would read back as a text")
        return {k: v if type(v) in _PLAIN else to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def _params(stored: dict) -> dict:
    return {k: v for k, v in stored.items() if k[:1] != "$"}


def from_json(value: Any) -> Any:
    """The value :func:`to_json` made, with its texts as :class:`Text` again."""
    if isinstance(value, dict):
        if ZH_KEY in value:
            zh = value[ZH_KEY]
            return Text(zh, value.get(EN_KEY, zh), {k: from_json(v) for k, v in _params(value).items()})
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


_NODES = (dict, list)


def render_json(value: Any, lang: str = DEFAULT_LANG, names: tuple[str, ...] | None = None) -> Any:
    """A stored value (:func:`to_json`) rendered in ``lang``, in one walk that descends only into dicts
    and lists (JSON gives no other containers; ``isinstance`` against them is much cheaper than against
    ``Mapping``). With ``names`` (the players in the seats, in seat order), a seat's words are its
    player's name: "甲" where a reader without names sees "1号位"."""
    if isinstance(value, dict):
        zh = value.get(ZH_KEY)
        if zh is None:
            return {k: render_json(v, lang, names) if isinstance(v, _NODES) else v for k, v in value.items()}
        if names is not None and (zh == SEAT_WORDS[0] or zh == SEATS_WORDS[0]):
            named = _named(value, lang, names)
            if named is not None:
                return named
        template = value.get(EN_KEY, zh) if lang == "en" else zh
        params = {k: render_json(v, lang, names) if isinstance(v, _NODES) else v
                  for k, v in value.items() if k[:1] != "$"}
        return template.format_map(params) if params else template
    if isinstance(value, list):
        return [render_json(v, lang, names) if isinstance(v, _NODES) else v for v in value]
    return value


def _named(stored: dict, lang: str, names: tuple[str, ...]) -> str | None:
    """The player names for a stored seat's (or seats') words, or None when a seat is not among ``names``."""
    if stored[ZH_KEY] == SEAT_WORDS[0]:
        numbers = [stored.get("n")]
    else:
        joined = stored.get("s")
        numbers = [v for k, v in joined.items() if k[:1] == "p"] if isinstance(joined, dict) else [None]
    seats = [int(n) - 1 if isinstance(n, (int, str)) and str(n).isascii() and str(n).isdigit() else -1
             for n in numbers]
    if not seats or not all(0 <= seat < len(names) for seat in seats):
        return None
    return SEATS_JOINED[lang == "en"].join(names[seat] for seat in seats)
