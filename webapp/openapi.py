"""The OpenAPI 3.1 description of the JSON API (``GET /api/v1/openapi.json``).

Generated from the same declarations the API reads with: each game's settle
input is its :class:`~scoring.inputs.Schema` (every field gives its JSON
Schema), its house rules come from its :class:`~scoring.rules.RuleSet`. The
other actions (classify, check, hint, trick, bidding) read their bodies with
small helpers in the engine, so their request bodies are declared here with
the same field types, as ``docs/api.md`` fixes them. Responses list at least
the documented fields; every error answers ``{"error": {"code", "message",
"field"}}``. The ledger operations are described only where the app serves
them (a route is looked up in the app's URL map).

The document is built once per language (labels and titles are bilingual).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from scoring.games import Game
from scoring.i18n import render, t
from scoring.inputs import CardsField, ChoiceField, Context, IntField, Schema, int_json_schema
from scoring.plays import MAX_LIMIT
from scoring.registry import all_games
from scoring.rules import Option, RuleSet

from .examples import EXAMPLES

STRING = {"type": "string"}
INTEGER = {"type": "integer"}
BOOLEAN = {"type": "boolean"}
STRINGS = {"type": "array", "items": STRING}
INTEGERS = {"type": "array", "items": INTEGER}
OBJECT = {"type": "object"}


def nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict:
    """An object schema with these required and optional properties (more may be present)."""
    return {"type": "object", "properties": {**required, **(optional or {})}, "required": list(required)}


# ---------------------------------------------------------------------------
# Request bodies of the actions besides settle (read in the engine by small helpers)
# ---------------------------------------------------------------------------

def cards(name: str, label, required: bool = True) -> CardsField:
    return CardsField(name, label, required=required)


LIMIT = IntField("limit", t("列出几种出法", "how many plays to list"), required=False, lo=1, hi=MAX_LIMIT)
PREVIOUS = cards("previous", t("桌上的牌（空：首家）", "the play on the table (none: a lead)"), required=False)


SHEDDING_BODIES = {
    "classify": Schema((cards("cards", t("牌", "the cards")),)),
    "check": Schema((cards("play", t("要出的牌（或 pass）", "the play (or pass)")), PREVIOUS,
                     cards("hand", t("手牌", "the hand"), required=False),
                     IntField("previous_reading", t("桌上牌的读法序号", "which reading of the table's play"),
                              required=False, lo=0))),
    "hint": Schema((cards("hand", t("手牌", "the hand")), PREVIOUS, LIMIT)),
}
#: the trump suit as the API reads it (♠, S, 黑桃 …): text, the four symbols its examples
TRICK_SUIT = ChoiceField("trump", t("主花色", "the trump suit"), parse=str,
                         choices=tuple((s, t(s, s)) for s in ("♠", "♥", "♣", "♦")))
LEAD = cards("lead", t("首家出的牌（空：首家）", "the lead (none: this play leads)"), required=False)
TRICK_BODIES = {
    "classify": Schema((TRICK_SUIT, cards("cards", t("牌", "the cards")))),
    "check": Schema((TRICK_SUIT, LEAD, cards("play", t("要出的牌", "the play")),
                     cards("hand", t("出牌前的手牌", "the hand before the play"), required=False))),
    "hint": Schema((TRICK_SUIT, cards("hand", t("手牌", "the hand")), LEAD, LIMIT)),
    "trick": Schema((TRICK_SUIT,)),
    "bidding": Schema((IntField("start", t("第一个叫分的座位", "the seat that bids first"), required=False,
                                lo=0, hi=3),)),
}
#: properties no declared field type describes (lists of card texts, bids)
TRICK_EXTRA = {
    "check": {"others": nullable({"type": "array", "items": nullable({"type": "string", "maxLength": 400}),
                                  "maxItems": 3})},
    "trick": {"plays": {"type": "array", "items": {"type": "string", "maxLength": 400}, "minItems": 2,
                        "maxItems": 4}},
    "bidding": {"bids": {"type": "array", "items": {"anyOf": [int_json_schema(None, None), STRING]}}},
}
TRICK_EXTRA_REQUIRED = {"trick": ["plays"], "bidding": ["bids"]}


# ---------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------

READING = obj({"kind": STRING, "label": STRING})
SHEDDING_ANSWERS = {
    "classify": obj({"cards": STRING, "valid": BOOLEAN, "readings": {"type": "array", "items": READING},
                     "reason": STRING}),
    "check": obj({"legal": BOOLEAN, "reason": STRING, "reading": nullable(READING)}),
    "hint": obj({"plays": STRINGS, "smallest": nullable(STRING), "truncated": BOOLEAN}),
}
TRICK_ANSWERS = {
    "classify": SHEDDING_ANSWERS["classify"],
    "check": obj({"legal": nullable(BOOLEAN), "reason": STRING}),
    "hint": SHEDDING_ANSWERS["hint"],
    "trick": obj({"winner": INTEGER, "points": INTEGER, "reason": STRING}),
    "bidding": obj({"legal": BOOLEAN, "complete": BOOLEAN, "declarer": nullable(INTEGER),
                    "bid": nullable(INTEGER), "reason": STRING, "steps": STRINGS}),
}
SETTLED = {"deltas": INTEGERS, "steps": STRINGS}
#: what a game's settle answers besides deltas and steps (docs/api.md)
SETTLE_EXTRA = {
    "shuangkou": {"outcome": {"enum": ["shuangkou", "dankou", "pingkou"]}, "multiplier": INTEGER},
    "q783": {"banks": nullable(INTEGERS), "game_over": BOOLEAN},
    "hongwu": {"final": INTEGER},
    "erqiwang": {"stake": INTEGER, "multiplier": INTEGER},
}

ERROR_ITEM = obj({"code": STRING, "message": STRING, "field": nullable(STRING)})
ERROR = obj({"error": ERROR_ITEM}, {"errors": {"type": "array", "items": ERROR_ITEM}})
ERROR_WORDS = {
    "400": t("输入有误（类型不对、缺少字段、JSON 无效）", "malformed input (wrong type, missing field, invalid JSON)"),
    "403": t("编辑令牌不对", "wrong edit token"),
    "404": t("没有这个游戏、功能或牌桌", "no such game, action or table"),
    "409": t("牌桌已被改过（version 过期）", "the table changed since (stale version)"),
    "413": t("请求太大", "the request is too large"),
    "415": t("请求体应为 application/json", "the body must be application/json"),
    "422": t("输入格式对，但违反了这个游戏的规则", "well-formed input that breaks a rule of the game's input"),
    "429": t("请求太频繁", "too many requests"),
}
CALCULATOR_ERRORS = ("400", "404", "413", "415", "422", "429")


def json_content(schema: dict, examples: dict | None = None) -> dict:
    media: dict = {"schema": schema}
    if examples:
        media["examples"] = examples
    return {"application/json": media}


def answer(words, schema: dict) -> dict:
    return {"description": words, "content": json_content(schema)}


def responses(ok: str, schema: dict | None, errors: Iterable[str], words=t("成功", "success")) -> dict:
    out = {ok: answer(words, schema) if schema is not None else {"description": words}}
    for status in errors:
        out[status] = answer(ERROR_WORDS[status], {"$ref": "#/components/schemas/Error"})
    return out


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------

def option_schema(option: Option) -> dict:
    """One house rule's values: a JSON boolean for a switch, else its allowed values (null: the default)."""
    if option.is_switch:
        schema: dict = dict(BOOLEAN)
    elif option.is_int:
        schema = {"anyOf": [{"enum": list(option.values)}, int_json_schema(min(option.values), max(option.values))]}
    else:
        schema = {"enum": list(option.values)}
    return {"anyOf": [schema, {"type": "null"}], "default": option.default, "title": option.label}


def rules_schema(ruleset: RuleSet) -> dict:
    properties = {"preset": nullable({"enum": [p.name for p in ruleset.presets]})}
    properties.update({o.name: option_schema(o) for o in ruleset.options})
    return nullable({"type": "object", "properties": properties, "additionalProperties": False})


def most_seats(game: Game) -> Context:
    """The context a game's schema is stated in: its most seats (seats and lists per seat are bounded by it)."""
    return Context(seats=game.seats[1])


def body_of(game: Game, action: str) -> dict:
    """The request body of one action: its fields, and the game's ``rules``."""
    if action == "settle":
        schema = game.settle_input.json_schema(most_seats(game))
    else:
        bodies = TRICK_BODIES if game.kind == "trick" else SHEDDING_BODIES
        schema = bodies[action].json_schema(most_seats(game)) if action in bodies else dict(OBJECT, properties={},
                                                                                           required=[])
        if game.kind == "trick":
            schema["properties"].update(TRICK_EXTRA.get(action, {}))
            schema["required"] += TRICK_EXTRA_REQUIRED.get(action, [])
    schema["properties"]["rules"] = {"$ref": f"#/components/schemas/{game.slug}_rules"}
    return schema


def answer_of(game: Game, action: str) -> dict:
    if action == "settle":
        return obj({**SETTLED, **SETTLE_EXTRA.get(game.slug, {})})
    answers = TRICK_ANSWERS if game.kind == "trick" else SHEDDING_ANSWERS
    return answers.get(action, OBJECT)


def examples_of(game: Game, action: str) -> dict:
    found = [(title, payload) for a, title, payload in EXAMPLES.get(game.slug, []) if a == action]
    return {f"example{i + 1}": {"summary": title, "value": payload} for i, (title, payload) in enumerate(found)}


def game_operation(game: Game, action: str) -> dict:
    return {"post": {
        "operationId": f"{game.slug}_{action}",
        "tags": [game.slug],
        "summary": t("{g}：{a}", "{g}: {a}", g=game.name, a=action),
        "requestBody": {"required": True, "content": json_content(body_of(game, action), examples_of(game, action))},
        "responses": responses("200", answer_of(game, action), CALCULATOR_ERRORS),
    }}


def served(path: str, methods: Iterable[str], rules: Iterable) -> bool:
    """Whether the app has a route for this templated path and these methods."""
    werkzeug_path = path.replace("{table_id}", "<table_id>").replace("{number}", "<int:number>")
    return any(r.rule == werkzeug_path and {m.upper() for m in methods} <= (r.methods or set()) for r in rules)


# ---------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------

def build_document(served_rules: Iterable, more_operations: Iterable[Callable[[], dict]] = ()) -> dict:
    """The whole OpenAPI document, its words still bilingual :class:`~scoring.i18n.Text`; ``more_operations``
    give the paths of other blueprints (the ledger's), each kept where the app serves it."""
    rules = list(served_rules)
    paths: dict[str, dict] = {
        "/api/v1/games": {"get": {"operationId": "games", "tags": ["games"],
                                  "responses": responses("200", obj({"games": {"type": "array", "items": obj(
                                      {"slug": STRING, "name": STRING, "presets": STRINGS,
                                       "options": {"type": "array", "items": obj(
                                           {"name": STRING, "default": {}, "values": {"type": "array"}})}})}}),
                                      ("429",))}},
        "/api/v1/openapi.json": {"get": {"operationId": "openapi", "tags": ["games"],
                                         "responses": {"200": answer(t("本文档", "this document"), OBJECT)}}},
    }
    for game in all_games():
        for action in game.action_names():
            paths[f"/api/v1/{game.slug}/{action}"] = game_operation(game, action)
    for operations_of in more_operations:
        for path, operations in operations_of().items():
            kept = {m: op for m, op in operations.items() if served(path, [m], rules)}
            if kept:
                paths[path] = kept
    schemas = {"Error": ERROR, **{f"{g.slug}_rules": rules_schema(g.ruleset) for g in all_games()}}
    return {
        "openapi": "3.1.0",
        "info": {"title": t("牌局 Paiju API", "Paiju API"), "version": "1",
                 "description": t("五种地方纸牌游戏的计分、出牌检查和账本；字段见 docs/api.md。",
                                  "Settling, play checks and the ledger of five regional card games; the fields "
                                  "are fixed in docs/api.md.")},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def document(app, lang: str) -> dict:
    """The document in one language, built once per app and language (kept in ``app.extensions``)."""
    cache = app.extensions.setdefault("paiju_openapi", {})
    if lang not in cache:
        more = app.extensions.get("paiju_openapi_operations", ())
        cache[lang] = render(build_document(app.url_map.iter_rules(), more), lang)
    return cache[lang]


def add_operations(app, operations_of: Callable[[], dict]) -> None:
    """A blueprint's operations for the document: ``operations_of()`` gives {path: {method: operation}}."""
    app.extensions.setdefault("paiju_openapi_operations", []).append(operations_of)
