"""The ledger's operations in the OpenAPI document (``webapp/openapi.py`` describes the games' actions and
builds the document; the ledger adds these when it is set up)."""
from __future__ import annotations

import unicodedata
from functools import partial

from scoring.i18n import t
from scoring.inputs import INT_TEXT, PLAIN_TEXT, PY_SPACE
from scoring.registry import all_games

from ..openapi import (
    INTEGER,
    INTEGERS,
    OBJECT,
    STRING,
    STRINGS,
    answer,
    int_json_schema,
    json_content,
    most_seats,
    nullable,
    obj,
    rules_ref,
    seat_bounds,
    storable,
)
from ..openapi import responses as calculator_responses
from .cleaning import MAX_NAME, MAX_SEATS, MIN_SEATS
from .paging import LAST_FROM, MOST_HANDS

#: an operation's answers, its errors the ledger's (``TableError``: beside the error, what it names: the version
#: now, the next evening, the seating …)
responses = partial(calculator_responses, error="TableError")
LEDGER_ERRORS = ("400", "403", "404", "409", "413", "415", "422", "429")
TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": STRING}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}
#: every write needs it (without it, or with a wrong one: 403)
TOKEN = {"name": "X-Edit-Token", "in": "header", "required": True, "schema": STRING,
         "description": "the table's edit token"}
IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False,
               "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[!-~]+$"}}
#: money per point as scoring.settleup.parse_per_point reads it: blank (1), or a number above 0 with at most two
#: decimals (trailing zeros aside), at most 12 digits and dots, spaces around it
PER_POINT_TEXT = (f"^(?:{PY_SPACE}*(?=[0-9.]{{1,12}}{PY_SPACE}*$)"
                  f"(?:0*[1-9][0-9]*(?:\\.[0-9]{{0,2}}0*)?|0*\\.(?:[1-9][0-9]?|0[1-9])0*){PY_SPACE}*)?$")
ALL_INTEGERS = {"type": "object", "additionalProperties": INTEGER}  # by name
ALL_STRINGS = {"type": "object", "additionalProperties": STRING}
#: a read's page of hands (docs/api.md, "Reads have a bound"): from hand ``hands_from`` on, at most ``hands_limit``
PAGE_PARAMETERS = (
    {"name": "hands_from", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": LAST_FROM},
     "description": "the first hand's number (default: the first hand)"},
    {"name": "hands_limit", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": MOST_HANDS},
     "description": "the most hands answered (default: as many as one read holds)"},
)
HAND = obj({"number": INTEGER, "deltas": INTEGERS, "steps": STRINGS})
WRITTEN = obj({"totals": INTEGERS, "version": INTEGER}, {"hand": HAND})


def hand_input(seated: dict | None = None) -> dict:
    """Any game's settle input without ``rules`` (the table's game decides which); with ``seated``, that
    property too (a new hand's: who sat where)."""
    schemas = [storable(g.settle_input.json_schema(most_seats(g))) for g in all_games()]
    if seated is not None:
        schemas = [{**schema, "properties": {**schema["properties"], "seated": seated}} for schema in schemas]
    return {"anyOf": schemas}


def name_text() -> str:
    """A name as :func:`.cleaning.clean_name` takes it, as a pattern: :data:`PLAIN_TEXT`'s characters without
    the format characters and separators of the Basic Multilingual Plane (zero-width, bidirectional, BOM …)."""
    codes = [c for c in range(0xA0, 0x10000) if unicodedata.category(chr(c)) in ("Cf", "Zl", "Zp")]
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    extra = "".join(f"\\u{lo:04x}" if lo == hi else f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in ranges)
    return PLAIN_TEXT.replace("]*$", extra + "]*$")


def conflict(words, extra: dict) -> dict:
    """A 409 whose error body carries ``extra`` (docs/api.md: the evening closed, the seats changed, …)."""
    return answer(words, {"allOf": [{"$ref": "#/components/schemas/TableError"}, obj({}, extra)]})


def seated(players: dict, game) -> dict:
    """Players of a table of this game: as many as it seats, each name once."""
    lo, hi = seat_bounds(game)
    return {**players, "minItems": max(lo, MIN_SEATS), "maxItems": min(hi, MAX_SEATS), "uniqueItems": True}


def ledger_operations() -> dict[str, dict]:
    name = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": name_text()}
    players = {"type": "array", "items": name, "minItems": MIN_SEATS,
               "maxItems": MAX_SEATS}
    who_sat = nullable({"type": "array", "items": STRING, "maxItems": MAX_SEATS})
    created = obj({"id": STRING, "edit_token": STRING, "view_url": STRING, "edit_url": STRING})
    table = obj({"game": STRING, "players": STRINGS, "rules": OBJECT, "version": INTEGER, "totals": INTEGERS,
                 "hands": {"type": "array", "items": obj({"number": INTEGER, "input": OBJECT, "deltas": INTEGERS,
                                                          "steps": STRINGS, "rules": OBJECT})},
                 "circle": STRING, "previous": nullable(STRING), "next": nullable(STRING),
                 "started_at": nullable(STRING), "hand_count": INTEGER, "hands_next": nullable(INTEGER)})
    settled_up = obj({"totals": INTEGERS, "per_point": STRING, "transfers": {"type": "array", "items": obj(
        {"from": INTEGER, "to": INTEGER, "points": INTEGER, "amount": STRING})}, "share_text": STRING})
    return {
        "/api/v1/tables": {"post": {
            "operationId": "table_create", "tags": ["tables"],
            "requestBody": {"required": True, "content": json_content({"anyOf": [obj(  # a game and its rules
                {"game": {"const": g.slug}, "players": seated(players, g)}, {"rules": rules_ref(g)})
                for g in all_games()]})},
            "responses": responses("201", created, LEDGER_ERRORS)}},
        "/api/v1/tables/{table_id}": {
            "get": {"operationId": "table_read", "tags": ["tables"], "parameters": [TABLE_ID, *PAGE_PARAMETERS],
                    "responses": {**responses("200", table, ("400", "404", "409", "429")),
                                  "304": {"description": t("未改变（If-None-Match）", "not modified (If-None-Match)")}}},
            "delete": {"operationId": "table_delete", "tags": ["tables"], "parameters": [TABLE_ID, TOKEN],
                       "responses": responses("204", None, ("400", "403", "404", "409", "429"),
                                              t("牌桌和它的每一局都已删除", "the table and every hand of it deleted"))}},
        "/api/v1/tables/{table_id}/token": {"post": {
            "operationId": "table_rotate_token", "tags": ["tables"], "parameters": [TABLE_ID, TOKEN],
            "responses": responses("200", obj({"edit_token": STRING, "edit_url": STRING}),
                                   ("400", "403", "404", "409", "429"))}},
        "/api/v1/tables/{table_id}/rules": {"put": {
            "operationId": "table_rules", "tags": ["tables"], "parameters": [TABLE_ID, TOKEN],
            "requestBody": {"required": True, "content": json_content(obj(  # any game's rules: the table's decides
                {"version": int_json_schema(None, None), "rules": {"anyOf": [rules_ref(g) for g in all_games()]}}))},
            "responses": {**responses("200", obj({"rules": OBJECT, "from_hand": INTEGER, "version": INTEGER}),
                                      LEDGER_ERRORS),
                          "409": conflict(t("版本不是现在的（stale_version，version 是现在的版本）或这一晚已经结束"
                                            "（evening_closed）：规则没有改", "the version is not the current one "
                                            "(stale_version, version: the current one) or the evening is closed "
                                            "(evening_closed): the rules are unchanged"),
                                          {"version": INTEGER, "next": STRING})}}},
        "/api/v1/tables/{table_id}/next-evening": {"post": {
            "operationId": "table_next_evening", "tags": ["tables"], "parameters": [TABLE_ID, TOKEN],
            "requestBody": {"required": True, "content": json_content(obj({}, {"players": nullable(players)}))},
            "responses": {**responses("201", created, LEDGER_ERRORS),
                          "200": answer(t("下一晚已经开了：就是它，和它现在的编辑令牌",
                                          "the next evening exists already: that one, with its current edit token"),
                                        created),
                          "409": conflict(t("下一晚已经开了，但玩家不同，或它的编辑令牌换过了（next_exists）",
                                            "the next evening exists, with other players or a token changed since "
                                            "(next_exists)"), {"id": STRING, "view_url": STRING})}}},
        "/api/v1/tables/{table_id}/hands": {"post": {
            "operationId": "hand_record", "tags": ["tables"], "parameters": [TABLE_ID, TOKEN, IDEMPOTENCY],
            "requestBody": {"required": True, "content": json_content(hand_input(who_sat))},
            "responses": {**responses("201", obj({"hand": HAND, "totals": INTEGERS, "version": INTEGER}),
                                      LEDGER_ERRORS),
                          "409": conflict(t("这一晚已经结束（evening_closed，next 是下一晚）或座位变了（seats_changed，"
                                            "seated 是现在的座位）：没有记下", "the evening is closed (evening_closed, next: "
                                            "the next evening) or the seats changed (seats_changed, seated: the "
                                            "seating now): nothing recorded"),
                                          {"next": STRING, "seated": STRINGS})}}},
        "/api/v1/tables/{table_id}/hands/{number}": {
            "put": {"operationId": "hand_edit", "tags": ["tables"], "parameters": [TABLE_ID, NUMBER, TOKEN],
                    "requestBody": {"required": True, "content": json_content(obj(
                        {"version": int_json_schema(None, None), "input": hand_input()}))},
                    "responses": responses("200", WRITTEN, (*LEDGER_ERRORS, "428"))},
            "delete": {"operationId": "hand_delete", "tags": ["tables"],
                       "parameters": [TABLE_ID, NUMBER, TOKEN,
                                      {"name": "version", "in": "query", "required": False,
                                       "schema": {"type": "string", "pattern": INT_TEXT}}],
                       "responses": responses("204", None, LEDGER_ERRORS, t("已删除", "deleted"))}},
        "/api/v1/tables/{table_id}/settle-up": {"get": {
            "operationId": "table_settle_up", "tags": ["tables"],
            "parameters": [TABLE_ID, {"name": "per_point", "in": "query", "required": False,
                                      "schema": {"type": "string", "pattern": PER_POINT_TEXT}}],
            "responses": responses("200", settled_up, ("400", "404", "409", "429"))}},
        **circle_operations(),
    }


def circle_operations() -> dict[str, dict]:
    """A circle's season (牌友圈) and its aliases (docs/api.md, "Evenings in a row and circles")."""
    circle = {"name": "circle", "in": "path", "required": True, "schema": STRING}
    season = obj({"id": STRING, "game": STRING,
                  "evenings": {"type": "array", "items": obj({"table": STRING, "started_at": nullable(STRING),
                                                              "hands": INTEGER, "totals": ALL_INTEGERS})},
                  "standings": {"type": "array", "items": obj({key: STRING if key == "name" else INTEGER for key in (
                      "name", "evenings", "hands", "total", "won", "declarer_made", "declarer_failed")})},
                  "partners": {"type": "array", "items": obj({"a": STRING, "b": STRING, "hands": INTEGER,
                                                              "total": INTEGER})}},
                 {"aliases": ALL_STRINGS, "unreadable": STRINGS})
    name = {"type": "string", "maxLength": MAX_NAME, "pattern": PLAIN_TEXT}
    return {
        "/api/v1/circles/{circle}": {"get": {
            "operationId": "circle_read", "tags": ["circles"], "parameters": [circle],
            "responses": responses("200", season, ("400", "404", "429"))}},
        "/api/v1/circles/{circle}/aliases": {"post": {
            "operationId": "circle_alias", "tags": ["circles"],
            "parameters": [circle, {**TOKEN, "description": "the edit token of any evening of the circle"}],
            "requestBody": {"required": True, "content": json_content(obj({"name": name, "same_as": nullable(name)}))},
            "responses": responses("200", obj({"aliases": ALL_STRINGS}), LEDGER_ERRORS)}},
    }
