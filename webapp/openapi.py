"""The OpenAPI 3.1 description of the JSON API (``GET /api/v1/openapi.json``).

Generated from the same declarations the API reads and answers with: each game's settle
input and the input of each other action (classify, check, hint, trick,
bidding: ``Game.action_input``) is a :class:`~scoring.inputs.Schema` (every
field gives its JSON Schema), its house rules come from its
:class:`~scoring.rules.RuleSet`. What each action answers is an
:class:`~scoring.answers.Answer` (``Game.answer_of``): every field declared, none
other, a reading of cards included; every error answers ``{"error": {"code", "message",
"field"}}``. The ledger operations are described only where the app serves
them (a route is looked up in the app's URL map).

The document is built once per language (labels and titles are bilingual).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from scoring.games import Game
from scoring.i18n import render, t
from scoring.inputs import PLAIN_TEXT, Context, int_json_schema, int_text_among, words_pattern
from scoring.registry import all_games
from scoring.rules import SWITCH_WORDS, Option, RuleSet


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


def closed(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict:
    """As :func:`obj`, with no other property."""
    return {**obj(required, optional), "additionalProperties": False}


# ---------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------

ERROR_ITEM = closed({"code": STRING, "message": STRING, "field": nullable(STRING)})
ERRORS = {"error": ERROR_ITEM}, {"errors": {"type": "array", "items": ERROR_ITEM}}
#: a refused request (docs/api.md, "Errors"): its error and, when the input had several problems, each; no other
ERROR = closed(*ERRORS)
#: a ledger's refusal: the same, and beside it what the error names (the version now, the next evening …)
TABLE_ERROR = obj(*ERRORS)
ERROR_WORDS = {
    "400": t("输入有误（类型不对、缺少字段、JSON 无效）", "malformed input (wrong type, missing field, invalid JSON)"),
    "403": t("编辑令牌不对", "wrong edit token"),
    "404": t("没有这个游戏、功能或牌桌", "no such game, action or table"),
    "409": t("冲突：牌桌已被改过（version 过期）、这一晚已结束、座位变了、下一晚已经开了，或牌桌读不出来",
             "a conflict: the table changed since (stale version), the evening is closed, the seats changed, the "
             "next evening exists, or the table cannot be read"),
    "413": t("请求太大", "the request is too large"),
    "428": t("改一局要带上 version", "an edit must carry the version it changes"),
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


def responses(ok: str, schema: dict | None, errors: Iterable[str], words=t("成功", "success"),
              error: str = "Error") -> dict:
    """An operation's answers: ``ok`` with ``schema``, and each of ``errors`` as the component ``error``."""
    out = {ok: answer(words, schema) if schema is not None else {"description": words}}
    for status in errors:
        out[status] = answer(ERROR_WORDS[status], {"$ref": f"#/components/schemas/{error}"})
    return out


#: ``GET /api/v1/games`` (``Game.describe``): each game, its presets and its house rules, nothing else
WORDS = {"label": STRING, "help": nullable(STRING), "reading": BOOLEAN}
GAMES = closed({"games": {"type": "array", "items": closed({
    "slug": STRING, "name": STRING, "kind": {"enum": ["shedding", "trick"]}, "built": BOOLEAN, "actions": STRINGS,
    "presets": STRINGS,
    "preset_details": {"type": "array", "items": closed({"name": STRING, **WORDS, "settings": OBJECT})},
    "options": {"type": "array", "items": closed({"name": STRING, "default": {}, "values": {"type": "array"},
                                                  **WORDS})}})}})


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------

def switch_schema() -> dict:
    """A switch as the server reads it (scoring.rules.Option.coerce): a JSON boolean, 0 or 1, or one of its
    words in any case with spaces around it ("on", "off", "true", "" …)."""
    return {"anyOf": [dict(BOOLEAN), {"enum": [0, 1]},
                      {"type": "string", "pattern": words_pattern(SWITCH_WORDS, optional=True)}]}


def option_schema(option: Option) -> dict:
    """One house rule's values: a switch as :func:`switch_schema`, else its allowed values (null: the default)."""
    if option.is_switch:
        schema: dict = switch_schema()
    elif option.is_int:
        schema = {"anyOf": [{"enum": list(option.values)},
                            {"type": "string", "pattern": int_text_among(option.values)}]}
    else:
        schema = {"enum": list(option.values)}
    return {"anyOf": [schema, {"type": "null"}], "default": option.default, "title": option.label}


def rules_schema(ruleset: RuleSet) -> dict:
    properties = {"preset": nullable({"enum": [p.name for p in ruleset.presets] + [""]})}  # "": the default
    properties.update({o.name: option_schema(o) for o in ruleset.options})
    return nullable({"type": "object", "properties": properties, "additionalProperties": False})


def most_seats(game: Game) -> Context:
    """The context a game's schema is stated in: its most seats (seats and lists per seat are bounded by it)."""
    return Context(seats=game.seats[1])


def seat_bounds(game: Game) -> tuple[int, int]:
    """The fewest and most players a table of this game may have, under its default rules or any preset."""
    ranges = [game.seat_range(None), *(game.seat_range({"preset": p.name}) for p in game.ruleset.presets)]
    return min(lo for lo, _ in ranges), max(hi for _, hi in ranges)


def storable(schema):
    """``schema`` with every text in it also free of control characters (:data:`~scoring.inputs.PLAIN_TEXT`):
    what the ledger stores."""
    if isinstance(schema, list):
        return [storable(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: storable(v) for k, v in schema.items()}
    if out.get("type") != "string":
        return out
    return {"allOf": [out, {"pattern": PLAIN_TEXT}]} if "pattern" in out else {**out, "pattern": PLAIN_TEXT}


def rules_ref(game: Game) -> dict:
    """The game's house rules (null: the defaults), as a reference into the document's components."""
    return {"$ref": f"#/components/schemas/{game.slug}_rules"}


def body_of(game: Game, action: str) -> dict:
    """The request body of one action: its declared fields, and the game's ``rules``."""
    declared = game.settle_input if action == "settle" else game.action_input(action)
    schema = declared.json_schema(most_seats(game)) if declared else dict(OBJECT, properties={}, required=[])
    schema["properties"]["rules"] = rules_ref(game)
    return schema


def answer_of(game: Game, action: str) -> dict:
    """What an action answers, as the game and its core declare it (closed: no other field)."""
    declared = game.answer_of(action)
    return declared.json_schema() if declared is not None else OBJECT


def examples_of(game: Game, action: str) -> dict:
    found = [(title, payload) for a, title, payload in game.examples if a == action]
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
# Links: what an answer names (a table made, its new edit token, a hand written), passed on to the operations
# that take it (a client's next step; schemathesis' stateful phase follows them)
# ---------------------------------------------------------------------------

def success_properties(operation: dict) -> tuple[str, dict]:
    """The first 2xx answer of an operation and the properties its JSON body names ({} when none)."""
    for status, response in operation.get("responses", {}).items():
        if status.startswith("2"):
            schema = response.get("content", {}).get("application/json", {}).get("schema", {})
            return status, schema.get("properties", {})
    return "", {}


def body_properties(operation: dict) -> dict:
    """The properties an operation's JSON request body names ({} when none)."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    return body.get("schema", {}).get("properties", {})


def link_values(source_path: str, named: dict) -> dict[str, str]:
    """What an answer with these properties gives a next request: the table, its edit token, a hand and the
    table's version (each a runtime expression by its parameter, ``path.table_id`` …)."""
    if "id" in named and "edit_token" in named:  # a table made
        return {"path.table_id": "$response.body#/id", "header.X-Edit-Token": "$response.body#/edit_token"}
    if "{table_id}" not in source_path:
        return {}
    same = {"path.table_id": "$request.path.table_id"}
    if "edit_token" in named:  # a new edit token
        return {**same, "header.X-Edit-Token": "$response.body#/edit_token"}
    if "hand" in named:  # a hand written: the next edit names it and the version the table is at
        return {**same, "header.X-Edit-Token": "$request.header.X-Edit-Token",
                "path.number": "$response.body#/hand/number", "query.version": "$response.body#/version"}
    return {}


def edit_body(source: dict, named: dict, target: dict) -> dict | None:
    """The body of an edit (``{"version", "input"}``) that follows a hand written: the version the table is at
    now, and the hand's input as the write sent it (a record's whole body, an edit's ``input``) — an input this
    table's game reads, which a body drawn from the document (any game's input) seldom is."""
    if "hand" not in named or not {"version", "input"} <= set(body_properties(target)):
        return None
    sent = "$request.body#/input" if "input" in body_properties(source) else "$request.body"
    # the body as a whole: schemathesis would otherwise merge it into one it drew
    return {"requestBody": {"version": "$response.body#/version", "input": sent},
            "x-schemathesis": {"merge_body": False}}


def add_links(paths: dict) -> None:
    """Give each operation's success answer links to the operations of a table that take what it names."""
    operations = [(path, op) for path, methods in paths.items() for op in methods.values()]
    for path, op in operations:
        status, named = success_properties(op)
        values = link_values(path, named)
        links = {}
        for _, target in operations:
            taken = {f"{p['in']}.{p['name']}" for p in target.get("parameters", ())}
            given = {name: value for name, value in values.items() if name in taken}
            needed = {f"path.{p['name']}" for p in target.get("parameters", ()) if p["in"] == "path"}
            if "path.table_id" in given and needed <= set(given):
                links[target["operationId"]] = {"operationId": target["operationId"], "parameters": given,
                                                **(edit_body(op, named, target) or {})}
        if links:
            op["responses"][status]["links"] = links


# ---------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------

def build_document(served_rules: Iterable, more_operations: Iterable[Callable[[], dict]] = ()) -> dict:
    """The whole OpenAPI document, its words still bilingual :class:`~scoring.i18n.Text`; ``more_operations``
    give the paths of other blueprints (the ledger's), each kept where the app serves it."""
    rules = list(served_rules)
    paths: dict[str, dict] = {
        "/api/v1/games": {"get": {"operationId": "games", "tags": ["games"],
                                  "responses": responses("200", GAMES, ("429",))}},
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
    add_links(paths)
    schemas = {"Error": ERROR, "TableError": TABLE_ERROR,
               **{f"{g.slug}_rules": rules_schema(g.ruleset) for g in all_games()}}
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
