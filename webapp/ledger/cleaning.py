"""What the ledger stores, checked: a table's game and players, a hand's input (the game's declared
fields only, every value storable as JSON)."""
from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from typing import Any

from scoring.errors import InvalidInput, MalformedInput
from scoring.i18n import Text, t
from scoring.inputs import (
    IntField,
    PerSeatField,
    Problems,
    RowsField,
    SeatField,
    SeatOrderField,
    read_text,
    shown,
    strict_int,
)
from scoring.registry import SLUGS, get_game

MIN_SEATS, MAX_SEATS = 3, 6  # how many seats a game's rules play with comes from the engine (Game.seat_range)
MAX_NAME = 16
MAX_DEPTH = 12  # nesting of a hand's input (a row of rounds is 3 deep)


def _label(game, path: str) -> Text:
    label = game.settle_input.label_of(path) if game is not None else None
    return label or t("「{p}」", "“{p}”", p=path)


def _check_text(text: str, path: str, label: Text) -> None:
    problems = Problems()
    read_text(text, path, label, problems)
    problems.raise_any()


def check_storable(value: Any, field: str, game=None) -> None:
    """Refuse what could not be stored and served back as JSON: text that is not valid Unicode or holds
    control characters, numbers that are not finite (NaN, Infinity, 1e400), nesting deeper than MAX_DEPTH."""
    stack = [(value, field, 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise MalformedInput(t("「{f}」嵌套太深", "“{f}” is nested too deeply", f=_label(game, field)),
                                 field=field, code="too_deep")
        if isinstance(item, float) and not math.isfinite(item):
            raise MalformedInput(t("「{f}」应为有限的数", "“{f}” must be a finite number", f=_label(game, path)),
                                 field=path, code="not_finite")
        if isinstance(item, str):
            _check_text(item, path, _label(game, path))
        elif isinstance(item, Mapping):
            for key, sub in item.items():
                _check_text(str(key), path, _label(game, path))
                stack.append((sub, f"{path}.{key}", depth + 1))
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, f"{path}[{i}]", depth + 1) for i, sub in enumerate(item))


def game_named(slug: Any):
    """The game a new table plays, by its slug."""
    if not isinstance(slug, str) or slug not in SLUGS:
        raise MalformedInput(t("没有「{g}」这个游戏，可选：{valid}", "there is no game “{g}”; allowed: {valid}",
                               g=shown(slug, 30), valid=" / ".join(SLUGS)), field="game", code="unknown_game")
    return get_game(slug)


def clean_players(players: Any, game_slug: str | None = None, rules: Any = None) -> list[str]:
    if not isinstance(players, (list, tuple)):
        raise MalformedInput(t("「players」应为玩家名字的列表", "“players” must be a list of names"),
                             field="players", code="not_a_list")
    names = []
    for i, name in enumerate(players):
        names.append(clean_name(name, i, names))
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise InvalidInput(t("一张牌桌要{lo}到{hi}个玩家，这里有{n}个",
                             "a table needs {lo} to {hi} players; got {n}", lo=MIN_SEATS, hi=MAX_SEATS,
                             n=len(names)), field="players", code="seat_count")
    if game_slug:
        check_seat_count(get_game(game_slug), len(names), rules)
    return names


def check_seat_count(game, count: int, rules: Any) -> None:
    lo, hi = game.seat_range(rules)
    if not lo <= count <= hi:
        need = str(lo) if lo == hi else f"{lo}–{hi}"
        fix = game.seat_count_fix(count, rules)
        raise InvalidInput(t("「{g}」按这些规则要{k}个玩家，这里有{n}个{fix}",
                             "“{g}” with these rules is played by {k} players; got {n}{fix}",
                             g=game.name, k=need, n=count,
                             fix=t("：{f}", ": {f}", f=fix) if fix else ""), field="players", code="seat_count")


#: what a name may not hold: control, format (zero-width, bidirectional: U+200B, U+202E, U+FEFF …), line and
#: paragraph separators (Unicode categories)
NOT_IN_NAMES = frozenset({"Cc", "Cf", "Zl", "Zp"})
SPACES = "\t\n\r"  # the controls a name may hold: spaces, folded like the others (what PLAIN_TEXT allows)


def name_key(name: str) -> str:
    """What makes two names one person: equal under NFKC and case folding (``a``, ``A`` and ``ａ``)."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_name(name: Any, i: int, taken: list[str], field: str | None = None) -> str:
    """Player ``i``'s name as stored: NFC, spaces folded and none around it; checked: text, not empty, at most
    MAX_NAME characters, no control, format or bidirectional character, none of the ``taken`` names (compared
    by :func:`name_key`)."""
    field = field or f"players[{i}]"
    if not isinstance(name, str):
        raise MalformedInput(t("第{n}个玩家的名字应为文字", "player {n}'s name must be text", n=i + 1),
                             field=field, code="not_a_string")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):  # not Unicode at all: the text rule's 400
        _check_text(name, field, t("第{n}个玩家的名字", "player {n}'s name", n=i + 1))
    name = unicodedata.normalize("NFC", name)
    hidden = next((c for c in name if unicodedata.category(c) in NOT_IN_NAMES and c not in SPACES), None)
    name = " ".join(name.split())
    if not name:
        raise InvalidInput(t("第{n}个玩家的名字是空的", "player {n}'s name is empty", n=i + 1),
                           field=field, code="empty_name")
    if hidden is not None:
        raise InvalidInput(t("第{n}个玩家的名字里有看不见的字符（U+{c}）：请只用看得见的字",
                             "player {n}'s name holds an invisible character (U+{c}): use visible characters only",
                             n=i + 1, c=f"{ord(hidden):04X}"), field=field, code="bad_name")
    if len(name) > MAX_NAME:
        raise InvalidInput(t("名字「{v}」太长（最多{m}个字）", "the name “{v}” is too long (at most {m})",
                             v=shown(name, MAX_NAME), m=MAX_NAME), field=field, code="bad_name")
    key = name_key(name)
    if any(name_key(other) == key for other in taken):
        raise InvalidInput(t("名字「{v}」重复了，每个座位要不同的名字",
                             "the name “{v}” appears twice; every seat needs its own name", v=name),
                           field=field, code="duplicate_name")
    return name


def clean_input(game, payload: Any) -> dict:
    """A hand's settle input as the ledger stores it: the game's declared fields only (rows too),
    every value storable (:func:`check_storable`)."""
    if not isinstance(payload, Mapping):
        raise MalformedInput(t("这一局的输入应为 JSON 对象", "a hand's input must be a JSON object"),
                             field="input", code="malformed_input")
    if "rules" in payload and payload["rules"] not in (None, {}):
        raise MalformedInput(t("牌桌的规则在开桌时已定，这一局的输入里不能再给 rules",
                               "the table's house rules were fixed when it was opened; a hand's input "
                               "cannot carry “rules”"), field="rules", code="rules_fixed")
    data = declared_only(game.settle_input.fields, payload)
    for key, value in data.items():
        check_storable(value, key, game)
    return typed(game.settle_input.fields, data)


def declared_only(fields, payload: Mapping) -> dict:
    """The declared fields of ``payload``; a row of a repeated field keeps its own declared fields only."""
    out = {}
    for field in fields:
        if field.name not in payload:
            continue
        value = payload[field.name]
        if isinstance(field, RowsField) and isinstance(value, (list, tuple)):
            value = [declared_only(field.fields, row) if isinstance(row, Mapping) else row for row in value]
        out[field.name] = value
    return out


def typed(fields, data: Mapping) -> dict:
    """``data`` with each whole number a form gave as text (``"3"``) stored as the integer the engine reads it
    as: a hand reads back the same whatever recorded it (a page's form or the API). Text that is no whole
    number stays as it is, for the engine to refuse."""
    out = dict(data)
    for field in fields:
        if field.name in out:
            out[field.name] = _typed(field, out[field.name])
    return out


def _typed(field, value: Any) -> Any:
    if isinstance(field, (IntField, SeatField)):
        return _whole(value)
    if isinstance(field, (PerSeatField, SeatOrderField)) and isinstance(value, list):
        return [_whole(item) for item in value]
    if isinstance(field, RowsField) and isinstance(value, list):
        return [typed(field.fields, row) if isinstance(row, Mapping) else row for row in value]
    return value


def _whole(value: Any) -> Any:
    number = strict_int(value) if isinstance(value, str) else None
    return value if number is None else number
