"""The JSON API (``/api/v1``): a thin layer over :mod:`scoring.games`."""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from flask import Blueprint, current_app, jsonify, request
from werkzeug.routing import BaseConverter

from scoring.errors import MalformedInput
from scoring.registry import all_games, get_game
from scoring.i18n import Text, render, shown, t

from .i18n import current_lang
from .openapi import document

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def escaped_surrogates(text: str) -> str:
    """``text`` with any lone surrogate written as its escape (``\\ud800``): it cannot be sent as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def error_response(code: str, message, status: int, field: str | None = None):
    """The contract's error shape. Messages quote values through ``shown``; should one still carry a lone
    surrogate, it is escaped here rather than failing to encode (a 500)."""
    words = escaped_surrogates(render(message, current_lang()))
    body = {"error": {"code": code, "message": words, "field": field and escaped_surrogates(field)}}
    return jsonify(body), status


#: how deep objects and lists may nest in a request body (the deepest input, a row of a list, is 3)
MAX_DEPTH = 20


def _not_finite(constant: str):
    raise ValueError(constant)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(text)
    return number


def depth(value) -> int:
    """How deep objects and lists nest in ``value`` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level + 1)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


#: one decoder for every request (``json.loads`` with hooks builds a new one each call)
_DECODER = json.JSONDecoder(parse_constant=_not_finite, parse_float=_finite)


def _decoded(data: bytes):
    """``json.loads(data)`` with the finite-number hooks: the same encodings (UTF-8, -16, -32) and errors."""
    return _DECODER.decode(data.decode(json.detect_encoding(data), "surrogatepass"))


def json_body():
    """The request's JSON object, or a 400 in the contract's shape: valid UTF-8 JSON, numbers finite
    (no NaN, Infinity or 1e400), nested at most ``MAX_DEPTH`` deep."""
    data = request.get_data(cache=True)
    try:
        body = _decoded(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise MalformedInput(t("请求体不是有效的 JSON（数字须为有限值）",
                               "the request body is not valid JSON (numbers must be finite)"), code="malformed_json")
    if not isinstance(body, dict):
        raise MalformedInput(t("请求体应为 JSON 对象", "the request body must be a JSON object"),
                             code="malformed_json")
    # each object or list is written with a { or [: a body with few of those bytes cannot nest deeper
    if data.count(b"{") + data.count(b"[") > MAX_DEPTH and depth(body) > MAX_DEPTH:
        raise MalformedInput(t("请求体嵌套太深（最多{n}层）", "the request body is nested too deeply (at most {n} levels)",
                               n=MAX_DEPTH), code="too_deep")
    return body


def json_answer(value):
    """``value`` as a JSON answer, each :class:`~scoring.i18n.Text` in it written in the request's language as
    the encoder meets it: no pass over the whole value to render it first."""
    app = current_app._get_current_object()
    return app.response_class(answer_encoder(app, current_lang())(value), mimetype=app.json.mimetype)


#: orjson's settings for answers: dates and dataclasses go to the app's JSON provider, as the standard
#: library's encoder sends them, and the answer ends with a newline, as ``jsonify``'s does
ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_APPEND_NEWLINE


def answer_encoder(app, lang: str) -> Callable[[Any], bytes]:
    """The function writing answers in ``lang`` with the app's JSON settings, compact unless debugging (as
    ``jsonify`` decides), each Text written in ``lang``: made once per language and settings."""
    provider = app.json
    compact = provider.compact if provider.compact is not None else not app.debug
    settings = (provider, lang, compact, provider.ensure_ascii, provider.sort_keys)
    encoders = app.extensions.setdefault("paiju_answer_encoders", {})
    encoder = encoders.get(settings)
    if encoder is None:
        encoder = encoders[settings] = _answer_encoder(provider, lang, compact)
    return encoder


def _answer_encoder(provider, lang: str, compact: bool) -> Callable[[Any], bytes]:
    """orjson, which writes an answer in about a quarter of the standard library's time, and the standard
    library's encoder wherever orjson cannot write what it would: when the settings ask for ASCII only, and
    for a value orjson refuses (an integer past 64 bits, a key that is not a string, nesting past 254
    levels, a lone surrogate, anything ``default`` cannot write). Then the answer, or the error, is the
    standard library's (a lone surrogate written as its escape, as a page writes one). orjson writes a
    few values the standard library would not, none of which an answer holds (they hold texts, strings,
    integers, booleans, None, lists and dicts with string keys): a float under 1e-4 in another form of the
    same number (``1e-7`` for ``1e-07``), NaN as null, a plain Enum as its value, a dict subclass from its
    items as stored."""
    def written(item):
        if isinstance(item, Text):
            return item.render(lang)
        if isinstance(item, Mapping):
            return dict(item)
        return provider.default(item)

    layout = {"separators": (",", ":")} if compact else {"indent": 2}
    standard = json.JSONEncoder(ensure_ascii=provider.ensure_ascii, sort_keys=provider.sort_keys,
                                default=written, **layout)

    def by_standard_library(value) -> bytes:
        # a lone surrogate (which orjson refuses, and no UTF-8 carries) as its JSON escape, \ud800
        return f"{standard.encode(value)}\n".encode("utf-8", "backslashreplace")

    if provider.ensure_ascii:
        return by_standard_library
    options = (ORJSON_OPTIONS | (0 if compact else orjson.OPT_INDENT_2)
               | (orjson.OPT_SORT_KEYS if provider.sort_keys else 0))

    def by_orjson(value) -> bytes:
        try:
            return orjson.dumps(value, default=written, option=options)
        except orjson.JSONEncodeError:
            pass  # out of the except clause: an error the standard library raises is its own, not chained
        return by_standard_library(value)

    return by_orjson


#: how long a client or cache may reuse a static answer before asking again (with its ETag)
STATIC_MAX_AGE = 300


def static_json(name: str, make):
    """An answer that is the same for every request in one language: ``make(lang)`` is encoded once per
    app and language and kept; each answer carries an ETag (a matching If-None-Match gets a 304) and may
    be reused for a while by the language it was asked in (Accept-Language, the cookie, ``?lang=``)."""
    lang = current_lang()
    cache = current_app.extensions.setdefault("paiju_static_json", {})
    if (name, lang) not in cache:
        body = current_app.json.response(make(lang)).get_data()
        cache[name, lang] = (body, hashlib.sha256(body).hexdigest()[:32])
    body, etag = cache[name, lang]
    response = current_app.response_class(body, mimetype=current_app.json.mimetype)
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = STATIC_MAX_AGE
    response.vary.update(("Accept-Language", "Cookie"))
    return response.make_conditional(request)


@bp.get("/games")
def games():
    return static_json("games", lambda lang: {"games": render([g.describe() for g in all_games()], lang)})


@bp.get("/openapi.json")
def openapi_json():
    """The OpenAPI 3.1 description of this API, in the request's language."""
    return static_json("openapi", lambda lang: document(current_app, lang))


class GameSlug(BaseConverter):
    """A game's slug in an API path: any name but the ledger's own collections (``tables``), so that a
    table's address never also reads as a game action (a POST to ``/api/v1/tables/<id>`` is a 405 with an
    ``Allow`` that lists the table's own methods)."""
    regex = r"(?!tables(?:/|$))[^/]+"


@bp.post("/<game:slug>/<action>")
def game_action(slug: str, action: str):
    game = get_game(slug)
    if game is None:
        return error_response("not_found", t("没有「{g}」这个游戏", "there is no game “{g}”", g=shown(slug)), 404, "game")
    if action != "settle" and action not in game.actions():  # game.action_names(), without sorting them
        return error_response("not_found", t("「{g}」没有「{a}」这个功能", "“{g}” has no “{a}”",
                                             g=game.name, a=shown(action)), 404, "action")
    body = json_body()
    return json_answer(game.run(action, body))
