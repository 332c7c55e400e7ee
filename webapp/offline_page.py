"""A game tab's form answered in the phone (offline mode, issue 29): the posted fields read into the payload
the server's forms build, then THE SAME engine call the API and the pages make (``Game.run``), its answer or
its errors in the API's words. A settle form's fields are read here for the server too
(``schema_forms.SettleForm.to_payload`` and ``seats_for`` call :func:`settle_fields` and :func:`seats_for`):
one reading of a posted settle form, on the server and in the phone.

This module imports nothing but ``scoring`` and the standard library: webapp/pwa.py serves its text at
``/offline-engine/page.py`` and the phone runs it under Pyodide as ``paiju_offline``, beside the repo's
``scoring/`` package (``/offline-engine/scoring.zip``). tests/web/test_offline_engine.py checks that it reads
every form as the server's forms do.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from scoring import inputs
from scoring.errors import InputErrors, PaijuError
from scoring.i18n import render, signed, t, to_json
from scoring.registry import get_game
from scoring.result_view import error_messages, errors_view, result_view
from scoring.series import carried_to, settle_at_table

LIST_FIELDS = (inputs.PerSeatField, inputs.SeatOrderField)
#: the rules sub-form's prefix (``rules-preset``, ``rules-penalty``)
RULES = "rules-"
FAILED = t("本机没能算出这一手（引擎出错）", "this phone could not work it out (the engine failed)")


class Posted:
    """The form's (name, value) pairs, as a server reads ``request.form``: the first value of a name."""

    def __init__(self, pairs):
        self.values: dict[str, str] = {}
        for name, value in pairs:
            self.values.setdefault(str(name), str(value))

    def get(self, name: str, default=None):
        return self.values.get(name, default)

    def indices(self, prefix: str) -> list[int]:
        """The row numbers posted under ``prefix-<n>`` (a WTForms FieldList's entries), in order."""
        found = {int(m.group(1)) for name in self.values
                 if (m := re.match(re.escape(prefix) + r"-(\d{1,6})(?:-|$)", name))}
        return sorted(found)


def _blank(value):
    return None if value is None or (isinstance(value, str) and not value.strip()) else value


def _raw(value) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _checked(value) -> bool:
    """A checkbox's data as WTForms' BooleanField reads it."""
    return value is not None and value not in ("false", "")


# -- house rules ----------------------------------------------------------------------------------------------

def rules_payload(game, posted: Posted) -> dict:
    """The rules sub-form's options given, the preset always when not blank (``forms.rules_payload`` reads the
    server's forms with this too)."""
    out: dict = {}
    rs = game.ruleset
    preset = posted.get(RULES + "preset")
    out["preset"] = rs.default_preset if preset is None else preset  # a SelectField's default when not posted
    for opt in rs.options:
        value = posted.get(RULES + opt.name)
        if opt.is_int and len(opt.values) > 12:  # an IntegerField: a number, else left out
            try:
                value = int(value)
            except (TypeError, ValueError):
                value = None
        if _blank(value) is not None:
            out[opt.name] = value
    if _blank(out["preset"]) is None:
        del out["preset"]
    return out


def resolved_rules(game, rules: dict):
    try:
        return game.ruleset.resolve(rules)
    except PaijuError:
        return game.ruleset.resolve({})


# -- the settle form (schema_forms.SettleForm.to_payload) ---------------------------------------------------------

def seats_for(game, rules, posted) -> int:
    """How many seats the settle form shows: fixed by the rules, or the form's own seats field (``posted``:
    anything with ``get``, such as :class:`Posted` or a request's form or query)."""
    lo, hi = game.seat_range(rules)
    if lo == hi:
        return lo
    name = game.settle_input.seats_field
    n = inputs.strict_int(posted.get(name)) if name else None
    default = min(max(4, lo), hi)
    return n if n is not None and lo <= n <= hi else default


def _row_blank(field: inputs.RowsField, posted: Posted, prefix: str) -> bool:
    return all(_raw(posted.get(f"{prefix}-{f.name}")) is None for f in field.fields
               if not isinstance(f, inputs.SwitchField))


def _value(field: inputs.Field, posted: Posted, name: str, seats: int) -> Any:
    if isinstance(field, inputs.SwitchField):
        return _checked(posted.get(name))
    if isinstance(field, inputs.PerSeatField):
        values = [_raw(posted.get(f"{name}-{i}")) for i in range(seats)]
        return None if not field.required and all(v is None for v in values) else values
    if isinstance(field, inputs.SeatOrderField):
        return [v for v in (_raw(posted.get(f"{name}-{i}")) for i in range(seats)) if v is not None]
    if isinstance(field, inputs.RowsField):
        return [{f.name: _value(f, posted, f"{name}-{i}-{f.name}", seats) for f in field.fields}
                for i in posted.indices(name) if not _row_blank(field, posted, f"{name}-{i}")]
    if isinstance(field, inputs.CardsField):
        value = posted.get(name)
        return value if _raw(value) is not None else None
    return _raw(posted.get(name))


def settle_payload(game, posted: Posted) -> dict:
    rules_dict = rules_payload(game, posted)
    rules = resolved_rules(game, rules_dict)
    seats = seats_for(game, rules, posted)
    ctx = replace(game.input_context(rules), seats=seats)
    fields = [f for f in game.settle_input.fields if f.shown_under(ctx.rules)]
    return {**settle_fields(fields, posted, seats), "rules": rules_dict}


def settle_fields(fields, posted: Posted, seats: int) -> dict:
    """The settle form's ``fields`` (those the house rules show) read from what was posted."""
    out = {f.name: _value(f, posted, f.name, seats) for f in fields}
    for field in fields:  # a blank box at the seat a seat field names is 0 there (跑得快: the winner's cards)
        zero_at = getattr(field, "zero_at", None)
        values = out.get(field.name)
        seat = inputs.strict_int(out.get(zero_at)) if zero_at else None
        if seat is not None and isinstance(values, list) and 0 <= seat < len(values) and values[seat] is None:
            values[seat] = 0
    return out


# -- the other actions' forms (forms.ActionForm.payload) ------------------------------------------------------------

OMITTED = object()


def _box_names(field: inputs.Field, seats: int) -> list[str]:
    if field.entry != "seat_cards":
        return [field.name]
    return [f"{field.name.removesuffix('s')}{i}" for i in range(seats)]


def _cards(field, data):
    if field.required or getattr(field, "required_with", None):
        return data or ""
    return _blank(data)


def _text(field, data):
    data = _blank(data)
    return OMITTED if data is None else data


def _seat_cards(field, posted: Posted, seats: int):
    plays = [posted.get(name) or "" for name in _box_names(field, seats)]
    while plays and _blank(plays[-1]) is None:
        plays.pop()
    return plays


def _choice_default(field):
    return field.choices[0][0]


ENTRIES = {
    "cards": _cards,
    "choice": lambda field, data: data if data is not None else _choice_default(field),
    "table_reading": _text,
    "number": _text,
    "switch": lambda field, data: True if _checked(data) else OMITTED,
    "seat": lambda field, data: (str(field.default) if data is None else data) or field.default,
    "words": lambda field, data: [w for w in re.split(r"[\s,，、;；]+", data or "") if w],
    "card_lines": lambda field, data: [line for line in (data or "").splitlines() if line.strip()] or None,
}


def action_payload(game, action: str, posted: Posted) -> dict:
    out: dict = {}
    seats = game.seats[1]
    for field in game.action_input(action).form_fields():
        if field.entry == "seat_cards":
            value = _seat_cards(field, posted, seats)
        else:
            value = ENTRIES[field.entry](field, posted.get(field.name))
        if value is not OMITTED:
            out[field.name] = value
    out["rules"] = rules_payload(game, posted)
    return out


def form_payload(game, action: str, pairs) -> dict:
    """The payload the server's form for ``action`` builds from these posted pairs."""
    posted = Posted(pairs)
    return settle_payload(game, posted) if action == "settle" else action_payload(game, action, posted)


# -- the answer --------------------------------------------------------------------------------------------------

def _error(exc: PaijuError, lang: str) -> dict:
    return {"code": exc.code, "message": render(exc.message, lang), "field": exc.field}


def names_given(game, posted: Posted) -> list[str]:
    """The players' names typed beside the settle form's seats (``schema_forms.SettleForm.names_given``)."""
    seats = seats_for(game, resolved_rules(game, rules_payload(game, posted)), posted)
    return [(posted.get(f"names-{i}") or "").strip() for i in range(seats)]


def _failed(code: str, message: str) -> dict:
    return {"error": {"code": code, "message": message, "field": None}, "view": errors_view([message])}


# -- a form the house rules redraw (the server redraws it; the phone says it needs the signal) -------------------------

#: the settle form's hidden field: what it was drawn for (:func:`drawn_for`)
DRAWN = "drawn"
REDRAW = t("所选的规则要重画这张表格（座位或要填的项不一样了），重画要联网：有信号时再点一次",
           "the rules chosen redraw this form (other seats or other fields), and redrawing needs a signal: "
           "try again with one")
NEEDS_SIGNAL = t("这一步要重画表格，重画要联网：有信号时再点一次",
                 "this step redraws the form, and redrawing needs a signal: try again with one")


def drawn_for(fields, seats: int) -> str:
    """What a settle form was drawn for: its seats and the fields its house rules show (its hidden :data:`DRAWN`)."""
    return f"{seats}:" + ",".join(f.name for f in fields)


def _drawn_now(game, posted: Posted) -> str:
    """The settle form the server draws for what was posted (its house rules, its seats)."""
    rules = resolved_rules(game, rules_payload(game, posted))
    return drawn_for([f for f in game.settle_input.fields if f.shown_under(rules)], seats_for(game, rules, posted))


def _redrawn(game, action: str, pairs, lang: str) -> dict | None:
    """What the phone says for a form it cannot redraw: a redraw asked for (a rule or the seats changed, a preset
    switched to, a row added) or a settle form drawn for other rules than those posted; None: answer it."""
    posted = Posted(pairs)
    asked, preset = posted.get("action") or "", posted.get("switch_preset")
    if preset:
        posted = Posted([(RULES + "preset", preset), *pairs])
    drawn = posted.get(DRAWN) if action == "settle" else None
    if drawn is not None and drawn != _drawn_now(game, posted):
        return _failed("needs_signal", render(REDRAW, lang))
    if asked.startswith("add:") or ((asked or preset) and action != "settle"):
        return _failed("needs_signal", render(NEEDS_SIGNAL, lang))
    return {"view": None} if asked or preset else None  # the form as drawn is the form for these rules


def answer(slug: str, action: str, pairs, lang: str) -> dict:
    """What the phone shows for a posted form: ``{"result": …}`` (the API's answer, in ``lang``) or
    ``{"error": …, "errors": […]}`` (the API's error body: its message, and each problem when there are
    several), and ``view``: what the server's page shows for it (``scoring.result_view``), which the page draws;
    a form the rules redraw is never answered (:func:`_redrawn`: words saying so, or ``view`` None: nothing to
    redraw)."""
    game = get_game(slug)
    if game is None or (action != "settle" and action not in game.actions()):
        return _failed("not_found", render(t("找不到这个地址", "no such address"), lang))
    redrawn = _redrawn(game, action, pairs, lang)
    if redrawn is not None:
        return redrawn
    names = names_given(game, Posted(pairs)) if action == "settle" else []
    try:
        payload = form_payload(game, action, pairs)
        result = render(game.run(action, payload), lang)
    except PaijuError as exc:
        out = {"error": _error(exc, lang)}
        if isinstance(exc, InputErrors) and len(exc.errors) > 1:
            out["errors"] = [_error(e, lang) for e in exc.errors]
        out["view"] = errors_view(error_messages(game, action, exc, lang, names if names and all(names) else None))
        return out
    except Exception:  # noqa: BLE001 - a phone must always get words, never a dead form
        return _failed("engine_failed", render(FAILED, lang))
    return {"result": result, "view": result_view(game, action, result, lang, names)}


def answer_json(slug: str, action: str, pairs_json: str, lang: str) -> str:
    """:func:`answer` with JSON in and out (what the page's worker calls through Pyodide)."""
    return json.dumps(answer(slug, action, json.loads(pairs_json), lang), ensure_ascii=False)


# -- hands held on a table page with no signal (static/held-in-phone.js) ------------------------------------------

def at_table(game, data: dict, carried: dict | None) -> dict:
    """A hand form's input as the ledger records it (ledger/pages.edit): without the field the table fills in
    itself (``Game.table_input``) and without what the hand carries from the one before (the ledger supplies it)."""
    out = dict(data)
    if game.settle_input.seats_field:
        out.pop(game.settle_input.seats_field, None)
    for name in carried or {}:
        out.pop(name, None)
    return out


def _seating(table: dict, pairs) -> list[int]:
    """The seats a held hand was filled against: the players its form's ``seated`` fields name, in seat order
    (the table's seating when they name none or someone not at the table)."""
    players = table["players"]
    seated = [str(value).strip() for name, value in pairs if name == "seated"]
    if not seated or any(name not in players for name in seated):
        return list(table["seats"])
    return [players.index(name) for name in seated]


def by_name(players: list[str], values: list[int]) -> str:
    """Values by player as a held hand's line shows them: 甲 +3 · 乙 −3."""
    return " · ".join(f"{name} {signed(v)}" for name, v in zip(players, values))


def _refused(game, exc: PaijuError, names: list[str], lang: str) -> str:
    return ("; " if lang == "en" else "；").join(error_messages(game, "settle", exc, lang, names))


def _held_one(game, rules, table: dict, pairs, start: tuple, lang: str) -> dict:
    """One held hand settled as the ledger will settle it, from what the hand before it carries (``start``:
    that carried state and the seats it was played by): its deltas by player, what the next hand takes and
    the seats it was played by; or the engine's refusal in words."""
    seats = _seating(table, pairs)
    carried = carried_to(start[0], start[1], seats)
    fields = [f for f in game.settle_input.fields if f.shown_under(rules)]
    data = at_table(game, settle_fields(fields, Posted(pairs), len(seats)), carried)
    try:
        deltas, result = settle_at_table(game, data, carried, seats, len(table["players"]), rules)
    except PaijuError as exc:
        return {"error": _refused(game, exc, [table["players"][p] for p in seats], lang)}
    except Exception:  # noqa: BLE001 - a held hand must always get words
        return {"error": render(FAILED, lang)}
    return {"deltas": deltas, "carried": game.carried(to_json(result)), "seats": seats}


def _shown(players: list[str], kept: dict) -> dict:
    """A held hand's line: which of the page's words (``say``) with which values."""
    if "error" in kept:
        return {"kept": kept, "say": "refused", "values": {"message": kept["error"]}}
    return {"kept": kept, "say": "phone", "values": {"deltas": by_name(players, kept["deltas"])}}


def held_hands(table: dict, held: list, totals: list, lang: str) -> dict:
    """The hands a table page holds (``held``: each its form's posted pairs and the phone's answer kept from
    before, if any), settled in turn as the ledger will settle them, each from what the one before carries
    (``table``: what the page's data-phone-settle gives: the game, its rules, the players, the seating, what
    the next hand carries); with the totals the page shows (``totals``, by player) and the held hands added."""
    game = get_game(table["slug"])
    rules = resolved_rules(game, table.get("rules") or {})
    start, lines, counted = (table.get("carried"), table["seats"]), [], False
    totals = [int(v) for v in totals] + [0] * (len(table["players"]) - len(totals))
    for hand in held:
        kept = hand.get("phone") or _held_one(game, rules, table, hand["pairs"], start, lang)
        if "error" not in kept:
            start = (kept.get("carried"), kept.get("seats") or table["seats"])
            totals = [a + b for a, b in zip(totals, kept["deltas"])]
            counted = True
        lines.append(_shown(table["players"], kept))
    return {"hands": lines, "totals": {"totals": by_name(table["players"], totals)} if counted else None}


def _hand_recorded(hands: list, number) -> dict | None:
    """The hand a post became (its page named it), else the table's last one."""
    named = [hand for hand in hands if hand.get("number") == number]
    return named[0] if named else max(hands, key=lambda hand: hand.get("number") or 0, default=None)


def held_recorded(table: dict, kept: dict, answer_: dict, number, lang: str) -> dict | None:
    """A held hand the ledger recorded, its answer (the API's table: ``answer_``) compared with the phone's
    (``kept``): None when they agree, else which of the page's words says so (``say``) with their values (the
    players' names and numbers: the same in either ``lang``)."""
    hand = _hand_recorded((answer_ or {}).get("hands") or [], number)
    if hand is None or kept.get("deltas") == hand.get("deltas"):
        return None
    players, server = table["players"], by_name(table["players"], hand.get("deltas") or [])
    if "error" in kept:
        return {"say": "refused", "values": {"n": hand.get("number"), "server": server, "phone": kept["error"]}}
    return {"say": "text", "values": {"n": hand.get("number"), "server": server,
                                      "phone": by_name(players, kept.get("deltas") or [])}}


#: what a page may ask the phone's engine besides a form's answer (the worker's ``call``, static/offline-engine.js)
CALLS = {"held_hands": held_hands, "held_recorded": held_recorded}


def call_json(name: str, args_json: str) -> str:
    """One of :data:`CALLS` with JSON in and out (what the page's worker calls through Pyodide)."""
    return json.dumps(CALLS[name](*json.loads(args_json)), ensure_ascii=False)
