"""What a player reads of an answer, worked out once: the server's pages draw it with one Jinja macro
(``templates/_result_view.html``), the phone draws it offline (``webapp/offline_page.py`` builds it in the phone's
engine, ``static/offline-engine.js`` draws it), so both show the same words for the same input.

A view is a tree of nodes, each ``{"tag", "cls", "text", "children"}`` with its words already in the reader's
language: drawing one needs no game, no field name and no rule. It is built from an answer as the API renders it
(:func:`result_view`, with the game's declared answer fields: ``scoring/answers.py``) or from an engine error
(:func:`errors_view`: each message with the form's words for the field it names, :func:`message_in_words`).

This module sits in ``scoring/`` because the phone runs ``scoring/`` and nothing of Flask; its words are
:class:`~scoring.i18n.Text`, as the engine's messages are.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from .errors import InputErrors, PaijuError
from .i18n import Text, render, render_json, seat_number, signed, t, to_json

COLON = t("：", ": ")
WORDS = {
    "seat": t("座位", "Seat"), "score": t("得分", "Points"), "steps": t("计算步骤", "Steps"),
    "legal": t("✓ 可以出", "✓ Legal"), "illegal": t("✗ 不能出", "✗ Not legal"),
    "unsure": t("? 还不能确定", "? Not decided yet"),
    "forced": t("甩牌失败，应改出：", "The throw fails; play instead: "), "reading": t("牌型：", "Pattern: "),
    "readings": t("这手牌的所有读法（大的在前）：", "Every reading of these cards (largest first):"),
    "would_play": t("托管会出：", "Auto-play would play: "), "pass": t("不出（要不起）", "Pass (nothing beats the table)"),
    "plays": t("所有能出的牌（小的在前），共 {n} 种", "Every legal play (smallest first), {n} in all"),
    "truncated": t("（太多，只列出一部分）", " (too many: only some are listed)"),
    "winner": t("第 {n} 个出牌的人赢", "Play number {n} wins"), "points": t("这一墩的分数：", "Points in this trick: "),
    "bid_bad": t("✗ 叫分不合规", "✗ Illegal bidding"), "bid_open": t("… 叫分还没结束", "… The bidding is not over yet"),
    "declarer": t("✓ 庄家：{seat}号位，{bid}分", "✓ Declarer: seat {seat} at {bid}"),
    "item": t("{f}第{n}项", "{f}, item {n}"),
}


def node(tag: str, cls: str = "", text: Any = None, children: Sequence[dict] = ()) -> dict:
    return {"tag": tag, "cls": cls, "text": None if text is None else str(text), "children": list(children)}


class _Words:
    """The view's words in one language."""

    def __init__(self, lang: str):
        self.lang = lang

    def __call__(self, name: str, **params: Any) -> str:
        words = WORDS[name]
        return render(Text(words.zh, words.en, params) if params else words, self.lang)


# -- answers ---------------------------------------------------------------------------------------------------

def result_view(game, action: str, result: dict, lang: str, names: Sequence[str] = ()) -> dict:
    """The answer box of ``action``: ``result`` is the answer as the API renders it in ``lang``; ``names``: the
    players named beside their seats (settle)."""
    words = _Words(lang)
    if action == "settle":
        return _settled(game.answer_of("settle"), result, words, names)
    drawn = VIEWS.get(action)
    if drawn is None:
        return node("div", "result", children=[node("p", "reason", result.get("reason") or "")])
    return drawn(result, words)



def _seat_cell(i: int, names: Sequence[str]) -> str:
    name = names[i] if i < len(names) else ""
    return f"{seat_number(i)} · {name}" if name else str(seat_number(i))


def _settled(declared, result: dict, words: _Words, names: Sequence[str]) -> dict:
    columns = [f for f in declared.shown("column") if result.get(f.name) is not None]
    head = [node("th", text=w) for w in [words("seat"), words("score")] + [render(f.column, words.lang)
                                                                            for f in columns]]
    rows = [node("tr", children=[node("td", text=_seat_cell(i, names)),
                                 node("td", "num " + ("plus" if d > 0 else "minus" if d < 0 else ""), signed(d)),
                                 *(node("td", "num", result[f.name][i]) for f in columns)])
            for i, d in enumerate(result["deltas"])]
    table = node("table", "deltas", children=[node("thead", children=[node("tr", children=head)]),
                                              node("tbody", children=rows)])
    lines = [node("p", "extra", _filled(f.line, result[f.name], words.lang)) for f in declared.shown("line")
             if result.get(f.name) is not None]
    notices = [node("p", "notice", render(f.notice, words.lang)) for f in declared.shown("notice")
               if result.get(f.name)]
    return node("div", "result ok", children=[table, *lines, *notices, node("h3", text=words("steps")),
                                              _items("ol", "steps", result.get("steps") or [])])


def _filled(words: Text, value: Any, lang: str) -> str:
    return render(Text(words.zh, words.en, {"v": value}), lang)


def _items(tag: str, cls: str, items: Sequence[str], item_cls: str = "") -> dict:
    return node(tag, cls, children=[node("li", item_cls, item) for item in items])


def _checked(result: dict, words: _Words) -> dict:
    legal = result["legal"]
    tone, verdict = ("ok", "legal") if legal else ("unknown", "unsure") if legal is None else ("bad", "illegal")
    parts = [node("p", "verdict", words(verdict)), node("p", "reason", result["reason"])]
    if result.get("forced"):
        parts.append(node("p", "forced", words("forced"), [node("strong", "cards", result["forced"])]))
    if result.get("reading"):
        parts.append(node("p", "", words("reading"), [node("strong", "", result["reading"]["label"])]))
    readings = result.get("readings") or []
    if len(readings) > 1:
        parts += [node("p", "", words("readings")), _items("ul", "readings", [r["label"] for r in readings])]
    return node("div", "result " + tone, children=parts)


def _hinted(result: dict, words: _Words) -> dict:
    smallest = result["smallest"]
    parts = [node("p", "verdict", words("would_play"), [node("strong", "cards", smallest or words("pass"))])]
    if result.get("reason"):
        parts.append(node("p", "reason", result["reason"]))
    count = words("plays", n=len(result["plays"])) + (words("truncated") if result["truncated"] else "")
    parts += [node("p", "", count + render(COLON, words.lang)), _items("ol", "plays", result["plays"], "cards")]
    return node("div", "result", children=parts)


def _trick_won(result: dict, words: _Words) -> dict:
    return node("div", "result ok", children=[
        node("p", "verdict", words("winner", n=result["winner"] + 1)),
        node("p", "", words("points"), [node("strong", "", result["points"])]),
        node("p", "reason", result["reason"])])


def _bid(result: dict, words: _Words) -> dict:
    if not result["legal"]:
        verdict = words("bid_bad")
    elif result["complete"]:
        verdict = words("declarer", seat=seat_number(result["declarer"]), bid=result["bid"])
    else:
        verdict = words("bid_open")
    parts = [node("p", "verdict", verdict), node("p", "reason", result["reason"])]
    if result.get("steps"):
        parts.append(_items("ol", "steps", result["steps"]))
    return node("div", "result " + ("ok" if result["legal"] else "bad"), children=parts)


VIEWS: dict[str, Callable[[dict, _Words], dict]] = {"check": _checked, "hint": _hinted, "trick": _trick_won,
                                                    "bidding": _bid}


# -- errors ----------------------------------------------------------------------------------------------------

#: a field path an engine message quotes (「rounds[2].cards」)
FIELD_IN_QUOTES = re.compile(r"(「|“)([a-z_]+(?:\[\d+\])?(?:\.[a-z_0-9]+)?)(」|”)")


def message_in_words(exc: PaijuError, lang: str, label_of: Callable[[str], str | None] | None = None,
                     names: Sequence[str] | None = None) -> str:
    """An engine error as a page says it: a quoted field path becomes the form's own words for it
    (``label_of(path)``); with ``names`` (the players in the seats, in seat order), a seat is called by its
    player's name."""
    message = render_json(to_json(exc.message), lang, tuple(names)) if names else render(exc.message, lang)
    if label_of is None:
        return message

    def swap(m):
        label = label_of(m.group(2))
        return f"{m.group(1)}{label}{m.group(3)}" if label else m.group(0)

    return FIELD_IN_QUOTES.sub(swap, message)


def each_error(exc: PaijuError) -> tuple[PaijuError, ...]:
    return exc.errors if isinstance(exc, InputErrors) else (exc,)


def errors_view(messages: Sequence[str]) -> dict:
    """The answer box of a refused input: every message."""
    return node("div", "result bad", children=[_items("ul", "errors", messages)])


#: a path as a form names its fields (``plays[1]``, ``others[2]``, ``rules.penalty``)
FIELD_PATH = re.compile(r"^(?P<name>[a-z_]+)(?:\[(?P<index>\d+)\])?(?:\.(?P<sub>[a-z_0-9]+))?$")


def settle_label(game, path: str, lang: str) -> str | None:
    """The settle form's words for an engine path (None: the form has no such field)."""
    label = game.settle_input.label_of(path)
    return render(label, lang) if label is not None else None


def _form_boxes(game, action: str) -> dict[str, Text]:
    """The boxes of an action's form and their words: a field per box, or one per seat (``play0`` …)."""
    boxes: dict[str, Text] = {}
    for f in game.action_input(action).form_fields():
        if f.entry == "seat_cards":
            boxes.update({f"{f.name.removesuffix('s')}{i}": f.label_of_item(i) for i in range(game.seats[1])})
        else:
            boxes[f.name] = f.label
    return boxes


def action_label(game, action: str, path: str, lang: str) -> str | None:
    """An action form's words for an engine path: ``rules.x`` is the rules box ``x``, ``plays[1]`` the box
    ``play1``, ``others[2]`` the third item of ``others``, ``cards`` (a lone play) the box ``play``."""
    if path.startswith("rules."):
        name = path.split(".", 1)[1]
        return name if name == "preset" or any(o.name == name for o in game.ruleset.options) else None
    m = FIELD_PATH.match(path)
    if not m:
        return None
    boxes = _form_boxes(game, action)
    name, index = m.group("name"), m.group("index")
    tried = [path, f"{name[:-1]}{index}" if index is not None else None, name, "play" if name == "cards" else None]
    box = next((n for n in tried if n and n in boxes), None)
    if box is None:
        return None
    label = render(boxes[box], lang).split("（")[0]
    if index is not None and box == name:  # one box holding a list: say which item
        return render(Text(WORDS["item"].zh, WORDS["item"].en, {"f": label, "n": int(index) + 1}), lang)
    return label


def error_messages(game, action: str, exc: PaijuError, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """Every problem of a refused input as the form's page says it (its field in the form's words)."""
    label = settle_label if action == "settle" else (lambda g, path, lang: action_label(g, action, path, lang))
    return [message_in_words(e, lang, lambda path: label(game, path, lang), names) for e in each_error(exc)]
