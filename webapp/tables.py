"""The table ledger (issue 5): JSON API under /api/v1/tables and the pages.

Anyone with a table's id can read it; every change needs the edit token
(header ``X-Edit-Token`` in the API, part of the edit link's path on the
pages). Tables are never listed anywhere.
"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request, url_for

from scoring.errors import MalformedInput
from scoring.i18n import t

from . import db as ledger_db
from . import models as m
from .api import error_response, json_body
from .i18n import current_lang

api_bp = Blueprint("tables_api", __name__, url_prefix="/api/v1/tables")
pages_bp = Blueprint("table_pages", __name__)
TOKEN_HEADER = "X-Edit-Token"


def init_app(app):
    ledger_db.init_app(app)
    try:  # CSRF protects the forms; the JSON API is token-based
        from .extensions import csrf
        csrf.exempt(api_bp)
    except ImportError:  # pragma: no cover - before the app had CSRF
        pass
    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)


@api_bp.before_request
def _schema():
    ledger_db.ensure_schema()


@api_bp.errorhandler(m.TableError)
def _table_error(exc: m.TableError):
    resp, status = error_response(exc.code, exc.message, exc.status, exc.field)
    if exc.extra:
        body = resp.get_json()
        body.update(exc.extra)
        resp = jsonify(body)
    return resp, status


def etag_for(table_id: str, version: int) -> str:
    return f"{table_id}.{version}.{current_lang()}"


def not_modified(table_id: str, version: int | None):
    """A 304 when the client already holds this version (If-None-Match)."""
    if version is None:
        return None
    tag = etag_for(table_id, version)
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


def _token():
    return request.headers.get(TOKEN_HEADER)


@api_bp.post("")
@api_bp.post("/")
def api_create():
    body = _body()
    table_id, token = m.create_table(body.get("game"), body.get("players"), body.get("rules"))
    return jsonify({
        "id": table_id,
        "edit_token": token,
        "view_url": url_for("table_pages.view", table_id=table_id, _external=True),
        "edit_url": url_for("table_pages.edit", table_id=table_id, token=token, _external=True),
    }), 201


@api_bp.get("/<table_id>")
def api_read(table_id: str):
    cached = not_modified(table_id, m.table_version(table_id))
    if cached is not None:
        return cached
    table = m.load_table(table_id)
    resp = jsonify(m.table_json(table, current_lang()))
    resp.set_etag(etag_for(table.id, table.version), weak=True)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@api_bp.post("/<table_id>/hands")
def api_record(table_id: str):
    answer = m.record_hand(table_id, _token(), _body, current_lang())
    return jsonify(answer), 201


@api_bp.put("/<table_id>/hands/<int:number>")
def api_edit(table_id: str, number: int):
    return jsonify(m.edit_hand(table_id, _token(), number, _body, current_lang()))


@api_bp.delete("/<table_id>/hands/<int:number>")
def api_delete(table_id: str, number: int):
    m.check_token(m.get_table(table_id), _token())
    version = request.args.get("version")
    if version is None and request.get_data(cache=True).strip():
        version = _body().get("version")
    m.delete_hand(table_id, _token(), number, version, current_lang())
    return "", 204


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------

@pages_bp.before_request
def _pages_schema():
    ledger_db.ensure_schema()


@pages_bp.get("/tables/<table_id>")
def view(table_id: str):
    table = m.get_table(table_id)
    return f"{table.id}"


@pages_bp.get("/tables/<table_id>/edit/<token>")
def edit(table_id: str, token: str):
    table = m.get_table(table_id)
    m.check_token(table, token)
    return f"{table.id}"
