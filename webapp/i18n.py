"""Language choice: Chinese by default, English by a remembered switch."""
from __future__ import annotations

from flask import request, has_request_context

from scoring.i18n import DEFAULT_LANG, LANGS

COOKIE = "lang"


def current_lang() -> str:
    if not has_request_context():
        return DEFAULT_LANG
    chosen = request.args.get("lang") or request.cookies.get(COOKIE)
    if chosen in LANGS:
        return chosen
    if request.path.startswith("/api/"):
        return accept_language()
    return DEFAULT_LANG


def accept_language() -> str:
    """The first language of Accept-Language we speak (``zh-CN`` counts as ``zh``)."""
    for value, _quality in request.accept_languages:  # highest quality first
        primary = value.split("-")[0].split("_")[0].lower()
        if primary in LANGS:
            return primary
    return DEFAULT_LANG


# ---------------------------------------------------------------------------
# Engine messages on pages: the engine names API fields ("rounds[2].cards");
# a player filled in a form, so pages say what the form calls them.
# ---------------------------------------------------------------------------

import re  # noqa: E402

_FIELD_IN_QUOTES = re.compile(r"(「|“)([a-z_]+(?:\[\d+\])?(?:\.[a-z_0-9]+)?)(」|”)")
_PATH = re.compile(r"^(?P<name>[a-z_]+)(?:\[(?P<i>\d+)\])?(?:\.(?P<sub>[a-z_0-9]+))?$")

# (name, sub) -> (zh, en); {n} is the 1-based item number, {i} the 0-based seat
_LABELS = {
    ("rounds", None): ("第{n}圈", "round {n}"),
    ("rounds", "cards"): ("第{n}圈赢的牌", "the winning play of round {n}"),
    ("rounds", "winner"): ("第{n}圈赢家", "the winner of round {n}"),
    ("rounds", "count"): ("第{n}圈张数", "the card count of round {n}"),
    ("bombs", None): ("炸弹{n}", "bomb {n}"),
    ("bombs", "seat"): ("炸弹{n}的座位", "the seat of bomb {n}"),
    ("bombs", "cards"): ("炸弹{n}的牌", "the cards of bomb {n}"),
    ("bombs", "lines"): ("炸弹{n}的线数", "the lines of bomb {n}"),
    ("finish_order", None): ("出完的顺序", "the finishing order"),
    ("finish_order", "#"): ("第{n}个出完的", "place {n} of the finishing order"),
    ("cards_left", None): ("剩余张数", "cards left"),
    ("cards_left", "#"): ("{i}号位剩余张数", "cards left at seat {i}"),
    ("banks", None): ("分库", "banks"),
    ("banks", "#"): ("{i}号位分库", "the bank of seat {i}"),
    ("red_fives", None): ("被抓的红五", "captured red fives"),
    ("red_fives", "#"): ("红五{n}", "red five {n}"),
    ("red_fives", "owner"): ("红五{n}的主人", "the owner of red five {n}"),
    ("red_fives", "captured_by"): ("红五{n}被谁抓", "who captured red five {n}"),
    ("chongguan", None): ("冲关", "冲关"),
    ("chongguan", "#"): ("冲关{n}", "冲关 {n}"),
    ("chongguan", "seat"): ("冲关{n}的座位", "the seat of 冲关 {n}"),
    ("chongguan", "cards"): ("冲关{n}的牌", "the cards of 冲关 {n}"),
    ("plays", None): ("各家出的牌", "the plays"),
    ("plays", "#"): ("第{n}家出的牌", "play {n}"),
    ("bids", None): ("叫分", "the bids"),
    ("bids", "#"): ("第{n}个叫分", "bid {n}"),
    ("others", None): ("其他三家的手牌", "the other hands"),
    ("others", "#"): ("其他第{n}家的手牌", "other hand {n}"),
    ("winner", None): ("赢家", "the winner"),
    ("bid", None): ("叫分", "the bid"),
    ("declarer", None): ("庄家", "the declarer"),
    ("declarer_points", None): ("庄家抓分", "the declarer points"),
    ("bottom_points", None): ("底牌分", "the bottom points"),
    ("defender_points", None): ("闲家抓分", "the defender points"),
    ("play", None): ("你要出的牌", "your play"),
    ("previous", None): ("桌上要压的牌", "the play to beat"),
    ("previous_reading", None): ("桌上那手牌的读法", "the reading of the play to beat"),
    ("hand", None): ("你的手牌", "your hand"),
    ("lead", None): ("首家出的牌", "the lead"),
    ("players", None): ("人数", "the number of players"),
    ("trump", None): ("主牌花色", "the trump suit"),
    ("start", None): ("谁先叫", "who bids first"),
}


def field_label(path: str, lang: str) -> str | None:
    m = _PATH.match(path)
    if not m:
        return None
    name, i, sub = m.group("name"), m.group("i"), m.group("sub")
    if i is None:
        key = (name, sub)
    else:
        key = (name, sub) if (name, sub) in _LABELS and sub else (name, "#")
        if key not in _LABELS:
            key = (name, None)
    pair = _LABELS.get(key)
    if pair is None:
        return None
    text = pair[1] if lang == "en" else pair[0]
    seat = int(i) if i is not None else 0
    return text.format(n=seat + 1, i=seat)


def page_message(exc, lang: str | None = None) -> str:
    """An engine error as a page shows it: field paths become the form's words."""
    from scoring.i18n import render

    lang = lang or current_lang()
    message = render(exc.message, lang)

    def swap(m):
        label = field_label(m.group(2), lang)
        return label if label else m.group(0)

    return _FIELD_IN_QUOTES.sub(swap, message)
