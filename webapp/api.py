"""The JSON API (``/api/v1``): a thin layer over :mod:`scoring.games`."""
from __future__ import annotations

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import BadRequest

from scoring.errors import MalformedInput
from scoring.registry import all_games, get_game
from scoring.i18n import render, t

from .i18n import current_lang

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def error_response(code: str, message, status: int, field: str | None = None):
    body = {"error": {"code": code, "message": render(message, current_lang()), "field": field}}
    return jsonify(body), status


def json_body():
    """The request's JSON object, or a 400 in the contract's shape."""
    try:
        body = request.get_json(force=True, silent=False)
    except BadRequest:
        raise MalformedInput(t("请求体不是有效的 JSON", "the request body is not valid JSON"), code="malformed_json")
    if not isinstance(body, dict):
        raise MalformedInput(t("请求体应为 JSON 对象", "the request body must be a JSON object"),
                             code="malformed_json")
    return body


def rendered(value):
    return render(value, current_lang())


@bp.get("/games")
def games():
    return jsonify({"games": rendered([g.describe() for g in all_games()])})


@bp.post("/<slug>/<action>")
def game_action(slug: str, action: str):
    game = get_game(slug)
    if game is None:
        return error_response("not_found", t("没有「{g}」这个游戏", "there is no game “{g}”", g=slug), 404, "game")
    if action not in game.action_names():
        return error_response("not_found", t("「{g}」没有「{a}」这个功能", "“{g}” has no “{a}”",
                                             g=game.name, a=action), 404, "action")
    body = json_body()
    return jsonify(rendered(game.run(action, body)))
