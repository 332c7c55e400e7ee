"""The ledger's JSON API under ``/api/v1/tables`` (docs/api.md); every change needs ``X-Edit-Token``."""
from __future__ import annotations

import functools

from flask import Blueprint, current_app, jsonify, request, url_for

from scoring.errors import MalformedInput, PaijuError
from scoring.i18n import t

from ..api import error_response, json_body
from ..errors import status_of
from ..i18n import current_lang
from . import db as ledger_db
from . import service
from .answers import read_page, table_json
from .errors import TableError
from .paging import PAGE_ARGS, asked_page
from .queries import check_token, get_table, table_version
from .web import edit_link, limit_creates, limit_writes

bp = Blueprint("tables_api", __name__, url_prefix="/api/v1/tables")
TOKEN_HEADER = "X-Edit-Token"
KEY_HEADER = "Idempotency-Key"


@bp.before_request
def _schema():
    ledger_db.ensure_schema()


@bp.errorhandler(TableError)
def _table_error(exc: TableError):
    resp, status = error_response(exc.code, exc.message, status_of(exc), exc.field)
    if exc.extra:
        body = resp.get_json()
        body.update(exc.extra)
        if exc.code == "next_exists":  # the next evening's read-only link, never its edit link
            body["view_url"] = url_for("tables.view", table_id=exc.extra["id"], _external=True)
        resp = jsonify(body)
    return resp, status


def etag_for(table_id: str, version: int, page: str = "") -> str:
    return f"{table_id}.{version}.{current_lang()}{page}"


def not_modified(table_id: str, version: int | None, page: str = ""):
    """A 304 when the client already holds this version (If-None-Match) of this page."""
    if version is None:
        return None
    tag = etag_for(table_id, version, page)
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        resp = current_app.response_class(status=304)
        resp.set_etag(tag, weak=True)
        resp.headers["Cache-Control"] = "no-cache"
        return resp
    return None


def _body():
    try:
        return json_body()
    except RecursionError:  # absurdly nested JSON
        raise MalformedInput(t("请求体嵌套太深", "the request body is nested too deeply"), code="malformed_json")


def _sent():
    """What the request sent, for its Idempotency-Key: the JSON body as read, or its bytes as text."""
    try:
        return json_body()
    except (PaijuError, RecursionError):
        return request.get_data(cache=True).decode("utf-8", "replace")


def _token():
    return request.headers.get(TOKEN_HEADER)


def _answered(status: int):
    """The JSON response for a write's outcome (:mod:`.records`), made inside its transaction (see
    :func:`.writes.write`)."""
    def respond(outcome):
        resp = jsonify(outcome.to_json(current_lang()))
        resp.status_code = status
        return resp
    return respond


@bp.post("")
@bp.post("/")
@limit_creates
def api_create():
    body = _body()
    table_id, token = service.create_table(body.get("game"), body.get("players"), body.get("rules"))
    return jsonify(_created(table_id, token)), 201


def _created(table_id: str, token: str) -> dict:
    """What a new table's answer holds: its id, its edit token and both links."""
    return {"id": table_id, "edit_token": token,
            "view_url": url_for("tables.view", table_id=table_id, _external=True),
            "edit_url": edit_link(table_id, token)}


@bp.post("/<table_id>/next-evening")
@limit_creates
def api_next_evening(table_id: str):
    body = _body()
    new_id, token, created = service.next_evening(table_id, _token(), body.get("players"))
    return jsonify(_created(new_id, token)), 201 if created else 200


@bp.post("/<table_id>/token")
@limit_writes
def api_rotate(table_id: str):
    token = service.rotate_token(table_id, _token())
    return jsonify({"edit_token": token, "edit_url": edit_link(table_id, token)})


@bp.delete("/<table_id>")
@limit_writes
def api_delete_table(table_id: str):
    service.delete_table(table_id, _token())
    return "", 204


@bp.get("/<table_id>")
def api_read(table_id: str):
    """The table; its hands from ``hands_from`` on, as many as one read holds (at most ``hands_limit``); the rest
    is named by ``hands_next`` and a ``Link: <…>; rel="next"`` header (:mod:`.paging`)."""
    first, limit = asked_page()
    page_tag = "" if request.args.keys().isdisjoint(PAGE_ARGS) else f".{first}.{limit}"
    cached = not_modified(table_id, table_version(table_id), page_tag)
    if cached is not None:
        return cached
    page = read_page(table_id, first, limit)
    resp = jsonify(table_json(page, current_lang()))
    if page.following is not None:
        rest = url_for("tables_api.api_read", table_id=page.read.table.id, hands_from=page.following,
                       hands_limit=request.args.get("hands_limit") and limit, _external=True)
        resp.headers["Link"] = f'<{rest}>; rel="next"'
    resp.set_etag(etag_for(page.read.table.id, page.read.version, page_tag), weak=True)
    resp.headers["Cache-Control"] = "no-cache"
    resp.vary.update(("Accept-Language", "Cookie"))
    return resp


#: what stays a 400 on a hand write: the body itself, the headers, and text the ledger cannot store (the
#: document states it: webapp.openapi.storable)
NOT_THE_GAMES = ({None, "", "input", "version", "Idempotency-Key", "seated"}, {"bad_character", "not_finite", "too_deep"})


def _not_the_hands(errors) -> bool:
    fields, codes = NOT_THE_GAMES
    return not {e.field for e in errors} & fields and not {e.code for e in errors} & codes


def _not_the_rules(errors) -> bool:
    """A preset or an option the table's game does not have, or a value it does not take."""
    return all(isinstance(e.field, str) and e.field.startswith("rules.") for e in errors)


def by_the_tables_game(refused_by_the_game):
    """A write whose body only this table's game refuses (``refused_by_the_game(errors)``) answers 422, code and
    message as read: the OpenAPI document gives one body for every table — any game's input or rules
    (``anyOf``) — and cannot say which game a table plays."""
    def decorator(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            try:
                return view(*args, **kwargs)
            except PaijuError as exc:
                errors = getattr(exc, "errors", (exc,))
                if not isinstance(exc, TableError) and status_of(exc) == 400 and refused_by_the_game(errors):
                    raise exc.replaced(status=422) from None
                raise
        return wrapped
    return decorator


read_by_the_tables_game = by_the_tables_game(_not_the_hands)


@bp.put("/<table_id>/rules")
@limit_writes
@by_the_tables_game(_not_the_rules)
def api_rules(table_id: str):
    """New house rules from the next hand on (``{"version", "rules"}``)."""
    return jsonify(service.change_rules(table_id, _token(), _body()))


@bp.post("/<table_id>/hands")
@limit_writes
@read_by_the_tables_game
def api_record(table_id: str):
    return service.record_hand(table_id, _token(), _body, current_lang(), key=request.headers.get(KEY_HEADER),
                               respond=_answered(201), sent=_sent())


@bp.put("/<table_id>/hands/<int:number>")
@limit_writes
@read_by_the_tables_game
def api_edit(table_id: str, number: int):
    return service.edit_hand(table_id, _token(), number, _body, respond=_answered(200))


@bp.delete("/<table_id>/hands/<int:number>")
@limit_writes
def api_delete(table_id: str, number: int):
    check_token(get_table(table_id), _token())
    version = request.args.get("version")
    if version is None and request.get_data(cache=True).strip():
        version = _body().get("version")
    service.delete_hand(table_id, _token(), number, version)
    return "", 204
