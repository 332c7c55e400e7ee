"""The table ledger (issue 5): JSON API under /api/v1/tables and the pages.

Anyone with a table's id can read it; every change needs the edit token
(header ``X-Edit-Token`` in the API; on the pages an HttpOnly cookie scoped to
the table, set when the edit link ``/tables/<id>/edit/<token>`` is opened,
which then redirects to ``/tables/<id>/edit`` so the token leaves the
address bar). Tables are never listed anywhere. Creating tables and writing
are rate-limited per client (Flask-Limiter); tables untouched for
``LEDGER_PURGE_DAYS`` days go with ``flask --app webapp purge-tables``.
"""
from __future__ import annotations

import csv
import io
import json
import os
import secrets

import click
import segno

from flask.cli import with_appcontext
from flask_babel import gettext
from flask import (Blueprint, abort, current_app, jsonify, make_response, redirect, render_template, request,
                   url_for)
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import HiddenField, StringField, TextAreaField
from wtforms.validators import Optional as OptionalV

from scoring.errors import MalformedInput, PaijuError
from scoring.registry import all_games, get_game
from scoring.i18n import render, t
from scoring.inputs import field_words

from . import db as ledger_db
from . import forms as game_forms
from . import models as m
from . import schema_forms
from .api import error_response, json_body
from .errors import error_messages, status_of
from .extensions import csrf, htmx
from .i18n import current_lang, page_message
from .pages import picker_config

api_bp = Blueprint("tables_api", __name__, url_prefix="/api/v1/tables")
pages_bp = Blueprint("tables", __name__)
TOKEN_HEADER = "X-Edit-Token"
KEY_HEADER = "Idempotency-Key"
EDIT_COOKIE = "paiju_edit"
PURGE_DAYS = 180
LIMITS = {"LEDGER_CREATE_LIMIT": "20 per minute", "LEDGER_WRITE_LIMIT": "120 per minute"}

limiter = Limiter(get_remote_address)


def init_app(app):
    ledger_db.init_app(app)
    csrf.exempt(api_bp)  # CSRF protects the forms; the JSON API is token-based
    for key, default in LIMITS.items():
        app.config.setdefault(key, os.environ.get(key, default))
    app.config.setdefault("RATELIMIT_STORAGE_URI", os.environ.get("RATELIMIT_STORAGE_URI", "memory://"))
    app.config.setdefault("LEDGER_PURGE_DAYS", int(os.environ.get("LEDGER_PURGE_DAYS", PURGE_DAYS)))
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    app.cli.add_command(purge_tables_command)
    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)


def _create_limit() -> str:
    return current_app.config["LEDGER_CREATE_LIMIT"]


def _write_limit() -> str:
    return current_app.config["LEDGER_WRITE_LIMIT"]


# one budget per client across the API and the pages
limit_creates = limiter.shared_limit(_create_limit, scope="ledger-create", methods=["POST"])
limit_writes = limiter.shared_limit(_write_limit, scope="ledger-write", methods=["POST", "PUT", "DELETE"])


def _rate_limited(exc: RateLimitExceeded):
    message = t("操作太频繁（限制：{limit}），请稍等一分钟再试",
                "too many requests (limit: {limit}); please wait a minute and try again",
                limit=str(exc.description))
    if request.path.startswith("/api/"):
        return error_response("rate_limited", message, 429)
    return render_template("tables/error.html", status=429, message=render(message, current_lang())), 429


@click.command("purge-tables")
@with_appcontext
@click.option("--days", type=int, default=None, help="untouched for this many days (default LEDGER_PURGE_DAYS)")
def purge_tables_command(days: int | None):
    """Delete the tables nobody changed for LEDGER_PURGE_DAYS days (default 180)."""
    ledger_db.ensure_schema()
    days = days if days is not None else int(current_app.config["LEDGER_PURGE_DAYS"])
    gone = m.purge_tables(days)
    click.echo(f"purged {gone} table(s) untouched for {days} days")


@api_bp.before_request
def _schema():
    ledger_db.ensure_schema()


@api_bp.errorhandler(m.TableError)
def _table_error(exc: m.TableError):
    resp, status = error_response(exc.code, exc.message, status_of(exc), exc.field)
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


def _edit_link(table_id: str, token: str) -> str:
    return url_for("tables.open_edit_link", table_id=table_id, token=token, _external=True)


def _answered(status: int):
    """The JSON response for a write's answer, made inside its transaction (see :func:`models.write`)."""
    def respond(answer):
        resp = jsonify(answer)
        resp.status_code = status
        return resp
    return respond


@api_bp.post("")
@api_bp.post("/")
@limit_creates
def api_create():
    body = _body()
    table_id, token = m.create_table(body.get("game"), body.get("players"), body.get("rules"))
    return jsonify({
        "id": table_id,
        "edit_token": token,
        "view_url": url_for("tables.view", table_id=table_id, _external=True),
        "edit_url": _edit_link(table_id, token),
    }), 201


@api_bp.post("/<table_id>/token")
@limit_writes
def api_rotate(table_id: str):
    token = m.rotate_token(table_id, _token())
    return jsonify({"edit_token": token, "edit_url": _edit_link(table_id, token)})


@api_bp.delete("/<table_id>")
@limit_writes
def api_delete_table(table_id: str):
    m.delete_table(table_id, _token())
    return "", 204


@api_bp.get("/<table_id>")
def api_read(table_id: str):
    cached = not_modified(table_id, m.table_version(table_id))
    if cached is not None:
        return cached
    read = m.load_table(table_id)
    resp = jsonify(m.table_json(read, current_lang()))
    resp.set_etag(etag_for(read.table.id, read.version), weak=True)
    resp.headers["Cache-Control"] = "no-cache"
    resp.vary.update(("Accept-Language", "Cookie"))
    return resp


@api_bp.post("/<table_id>/hands")
@limit_writes
def api_record(table_id: str):
    return m.record_hand(table_id, _token(), _body, current_lang(), key=request.headers.get(KEY_HEADER),
                         respond=_answered(201))


@api_bp.put("/<table_id>/hands/<int:number>")
@limit_writes
def api_edit(table_id: str, number: int):
    return m.edit_hand(table_id, _token(), number, _body, current_lang(), respond=_answered(200))


@api_bp.delete("/<table_id>/hands/<int:number>")
@limit_writes
def api_delete(table_id: str, number: int):
    m.check_token(m.get_table(table_id), _token())
    version = request.args.get("version")
    if version is None and request.get_data(cache=True).strip():
        version = _body().get("version")
    m.delete_hand(table_id, _token(), number, version, current_lang())
    return "", 204


# ---------------------------------------------------------------------------
# Pages: create a table, the table (edit link / read-only link), hands
# ---------------------------------------------------------------------------

POLL_SECONDS = 3
COLORS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")


class CreateTableForm(FlaskForm):
    game = HiddenField()
    name_0 = StringField(validators=[OptionalV()])
    name_1 = StringField(validators=[OptionalV()])
    name_2 = StringField(validators=[OptionalV()])
    name_3 = StringField(validators=[OptionalV()])
    name_4 = StringField(validators=[OptionalV()])
    name_5 = StringField(validators=[OptionalV()])

    def names(self) -> list[tuple[int, str]]:
        out = []
        for i in range(m.MAX_SEATS):
            value = (self[f"name_{i}"].data or "").strip()
            if value:
                out.append((i, value))
        return out


class VersionForm(FlaskForm):
    """Undo / delete: CSRF plus the version the phone saw."""
    version = HiddenField()


class RawInputForm(FlaskForm):
    """The hand's settle input as JSON: for inputs the game's form cannot show."""
    version = HiddenField()
    raw = TextAreaField(validators=[OptionalV()])


@pages_bp.before_request
def _pages_schema():
    ledger_db.ensure_schema()


@pages_bp.after_request
def _private(resp):
    # the edit link holds the token: never leak it in a Referer, never index a table
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Robots-Tag"] = "noindex, nofollow"
    resp.headers.setdefault("Cache-Control", "private, no-cache")
    resp.headers.add("Vary", "Cookie")
    return resp


@pages_bp.errorhandler(PaijuError)
def _page_error(exc: PaijuError):
    status = status_of(exc)
    return render_template("tables/error.html", status=status,
                           message=page_message(exc)), status


def built_games():
    return list(all_games())


# --- create -----------------------------------------------------------------

def _create_game():
    slug = request.values.get("game") or ""
    return get_game(slug) if slug else None


@pages_bp.route("/tables/new", methods=["GET", "POST"])
@limit_creates
def new_table():
    game = _create_game()
    if game is None:
        if request.method == "POST":
            abort(400)
        return render_template("tables/new.html", game=None, choices=built_games())
    form = CreateTableForm(data={"game": game.slug})
    rules_form = game_forms.rules_form_class(game)(request.form if request.method == "POST" else None,
                                                   prefix="rules")
    errors, offer = [], None
    switched = request.method == "POST" and game_forms.switch_preset(game, rules_form, request.form)
    if request.method == "POST" and request.form.get("action") != "refresh" and not switched:
        if not form.validate():
            errors.append(_csrf_message() if "csrf_token" in form.errors else gettext("请检查表单"))
        else:
            named = form.names()
            try:
                table_id, token = m.create_table(game.slug, [n for _, n in named],
                                                 game_forms.rules_payload(rules_form))
            except PaijuError as exc:
                message = page_message(exc)
                if not _attach_create_error(form, rules_form, exc.field, named, message):
                    errors.append(message)
                offer = game_forms.preset_offer(game, game_forms.rules_payload(rules_form), len(named))
            else:
                return with_edit_cookie(redirect(url_for("tables.edit", table_id=table_id, new=1)), table_id,
                                        token)
    try:
        lo, hi = game.seat_range(game_forms.rules_payload(rules_form))
    except PaijuError:
        lo, hi = game.seat_range()
    ctx = dict(game=game, form=form, rules_form=rules_form, errors=errors, seats=range(hi), required=lo, offer=offer)
    status = 422 if errors or form.errors else 200
    if htmx and request.method == "POST":
        return render_template("tables/_new_panel.html", **ctx), status
    return render_template("tables/new.html", **ctx), status


def _attach_create_error(form, rules_form, field, named, message) -> bool:
    if not field:
        return False
    if field.startswith("players[") and field.endswith("]"):
        try:
            index = named[int(field[8:-1])][0]
        except (ValueError, IndexError):
            return False
        form[f"name_{index}"].errors = list(form[f"name_{index}"].errors or []) + [message]
        return True
    if field.startswith("rules."):
        target = rules_form._fields.get(field.split(".", 1)[1])
        if target is not None:
            target.errors = list(target.errors or []) + [message]
            return True
    return False


def _csrf_message() -> str:
    return gettext("表单已失效，请刷新页面后再提交。")


# --- the table page ---------------------------------------------------------

PAGE_HANDS = 50  # hands a table page shows; older ones are a link away
CHART_POINTS = 120  # points per line in the chart, however many hands


def with_edit_cookie(resp, table_id: str, token: str):
    """Keep the edit capability in an HttpOnly cookie that only this table's pages receive."""
    resp.set_cookie(EDIT_COOKIE, token, max_age=int(current_app.config["LEDGER_PURGE_DAYS"]) * 86400,
                    path=f"/tables/{table_id}", httponly=True, samesite="Lax", secure=request.is_secure)
    return resp


def _cookie_token() -> str | None:
    return request.cookies.get(EDIT_COOKIE)


def _edit_table(table_id: str) -> tuple[m.LedgerTable, str]:
    """The table and the edit token its cookie holds (403 without the right one)."""
    table = m.get_table(table_id)
    token = _cookie_token()
    m.check_token(table, token)
    return table, token


def chart_svg(players: list[str], series: list[list[int]]) -> Markup:
    """Cumulative score per player after each hand, as an inline SVG."""
    width, height, pad_l, pad_r, pad_y = 320, 180, 34, 8, 12
    n = max(len(series[0]) - 1, 1) if series else 1
    values = [v for line in series for v in line] or [0]
    lo, hi = min(values + [0]), max(values + [0])
    if lo == hi:
        lo, hi = lo - 1, hi + 1

    def x(i):
        return pad_l + (width - pad_l - pad_r) * i / n

    def y(v):
        return pad_y + (height - 2 * pad_y) * (hi - v) / (hi - lo)

    label = gettext("累计得分走势图")
    parts = [f'<svg class="ledger-chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(label)}</title>",
             f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="zero"/>',
             f'<text x="{pad_l - 4}" y="{y(hi) + 4:.1f}" text-anchor="end" class="axis">{hi}</text>',
             f'<text x="{pad_l - 4}" y="{y(lo):.1f}" text-anchor="end" class="axis">{lo}</text>']
    if lo < 0 < hi:
        parts.append(f'<text x="{pad_l - 4}" y="{y(0) + 4:.1f}" text-anchor="end" class="axis">0</text>')
    shown = _chart_points(len(series[0]) - 1) if series else []
    for seat, line in enumerate(series):
        color = COLORS[seat % len(COLORS)]
        points = " ".join(f"{x(i):.1f},{y(line[i]):.1f}" for i in shown)
        name = escape(players[seat]) if seat < len(players) else seat
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{points}" '
                     f'data-seat="{seat}"><title>{name}: {line[-1]}</title></polyline>')
        if len(line) <= 40:
            for i, v in enumerate(line[1:], 1):
                parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5" fill="{color}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _chart_points(n: int) -> list[int]:
    """Which of the n + 1 points a line draws: all of them, or evenly spread ones and the last."""
    step = max(1, -(-n // CHART_POINTS))
    return sorted(set(range(0, n + 1, step)) | {n})


def qr_svg(url: str) -> Markup:
    return Markup(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                                            omitsize=True))


def _older_than() -> int | None:
    """The ``before`` of a page of older hands (``?before=N``: the hands before hand N)."""
    raw = request.args.get("before", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def ledger_view(table: m.LedgerTable, before: int | None = None) -> dict:
    """Everything the live part of the page shows: totals and chart over every hand (from the small
    columns), and the latest PAGE_HANDS hands (before hand ``before``) in full."""
    lang = current_lang()
    game = get_game(table.game)
    rules = game.ruleset.resolve(table.rules)
    summary = m.hand_summaries(table.id)
    running, series, runs, big_round = [0] * len(table.players), [[0] for _ in table.players], {}, 1
    for number, deltas, ends_series in summary:
        running = [a + b for a, b in zip(running, deltas)]
        for seat, total in enumerate(running):
            series[seat].append(total)
        runs[number] = (list(running), big_round if game.carries_state else None)
        big_round += bool(ends_series)
    numbers = [n for n, _, _ in summary if before is None or n < before][-PAGE_HANDS:]
    rows = [_hand_row(game, rules, table, hand, *runs[hand.number], lang)
            for hand in m.hands_numbered(table.id, numbers)]
    last = summary[-1][0] if summary else None
    return {"table": table, "rows": list(reversed(rows)), "totals": running, "hand_count": len(summary),
            "chart": chart_svg(table.players, series), "colors": COLORS, "banks": m.table_banks(table),
            "last_number": last, "poll": POLL_SECONDS, "game": game, "before": before,
            "older": numbers[0] if numbers and numbers[0] != summary[0][0] else None}


def _hand_row(game, rules, table, hand, running, series_number, lang) -> dict:
    shown = hand.shown(lang)
    words = game.input_words(hand.input, rules, tuple(table.players))
    return {"number": hand.number, "deltas": hand.deltas, "running": list(running),
            "steps": shown.get("steps", []), "banks": shown.get("banks"), "game_over": shown.get("game_over"),
            "big_round": series_number, "words": [render(w, lang) for w in words]}


def _rules_shown(table: m.LedgerTable) -> list[tuple[str, str]]:
    """The house rules as (label, value) lines, preset first."""
    game = get_game(table.game)
    lang = current_lang()
    rows = []
    try:
        preset = game.ruleset.preset(table.rules.get("preset"))
        rows.append((gettext("预设"), render(preset.label, lang)))
        base = dict(preset.settings)
    except KeyError:
        base = {}
    for opt in game.ruleset.options:
        if opt.name not in table.rules:
            continue
        value = table.rules[opt.name]
        shown = render(opt.value_label(value), lang)
        changed = value != base.get(opt.name, opt.default)
        rows.append((render(opt.label, lang) + ("" if not changed else " *"), shown))
    return rows


def _live_url(table, editing: bool, before: int | None):
    """What the page polls; a page of older hands does not poll (new hands would not be on it)."""
    if before is not None:
        return None
    return url_for("tables.edit_live" if editing else "tables.live", table_id=table.id, v=table.version)


def _page(table: m.LedgerTable, token: str | None, form=None, errors=(), status=200, form_key=None, **extra):
    before = _older_than()
    ctx = ledger_view(table, before)
    game = ctx["game"]
    view_url = url_for("tables.view", table_id=table.id, _external=True)
    ctx.update(can_edit=token is not None, form=form, errors=list(errors),
               live_url=_live_url(table, token is not None, before), view_url=view_url,
               rules_shown=_rules_shown(table), qr=qr_svg(view_url), names=list(table.players),
               undo_form=VersionForm() if token else None, picker=_picker(game, table),
               created=bool(request.args.get("new")), rotated=bool(request.args.get("rotated")),
               form_key=form_key or new_form_key(), **extra)
    if token:
        ctx["edit_url"] = _edit_link(table.id, token)
    resp = make_response(render_template("tables/table.html", **ctx), status)
    if token:
        resp.headers["Cache-Control"] = "private, no-store"
    return resp


def new_form_key() -> str:
    """The idempotency key a hand form carries: one per rendered form, so a resend records one hand."""
    return secrets.token_urlsafe(18)


def _picker(game, table):
    try:
        return picker_config(game, game.ruleset.resolve(table.rules))
    except Exception:  # noqa: BLE001 - the picker is a convenience only
        return "{}"


def _unchanged(table_id: str):
    """The cheap answer to a poll: 204 (htmx keeps what it shows) when the
    version the page holds is still current, without loading the table."""
    version = m.table_version(table_id)
    if version is None:
        raise m.not_found(table_id)
    since = request.args.get("v", "")
    if since.isdigit() and int(since) == version:
        return "", 204
    return None


def _live_fragment(table: m.LedgerTable, editing: bool):
    ctx = ledger_view(table)
    ctx.update(can_edit=editing, live_url=_live_url(table, editing, None),
               undo_form=VersionForm() if editing else None, names=list(table.players))
    resp = make_response(render_template("tables/_live.html", **ctx)
                         + render_template("tables/_hands.html", oob=True, **ctx))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@pages_bp.get("/tables/<table_id>")
def view(table_id: str):
    return _page(m.get_table(table_id), None)


@pages_bp.get("/tables/<table_id>/live")
def live(table_id: str):
    return _unchanged(table_id) or _live_fragment(m.get_table(table_id), False)


@pages_bp.get("/tables/<table_id>/edit/live")
def edit_live(table_id: str):
    # a 204 tells no more than the public poll does, so it needs no token check
    return _unchanged(table_id) or _live_fragment(_edit_table(table_id)[0], True)


@pages_bp.get("/tables/<table_id>/edit/<token>")
def open_edit_link(table_id: str, token: str):
    """The edit link: keep its token in the table's cookie and go on to an address without it."""
    table = m.get_table(table_id)
    m.check_token(table, token)
    return with_edit_cookie(redirect(url_for("tables.edit", table_id=table.id), 303), table.id, token)


def _settle_form(table: m.LedgerTable, formdata=None, data=None, add_row=None):
    game = get_game(table.game)
    kwargs = {"data": data} if data is not None else {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    return schema_forms.settle_form(game, game.ruleset.resolve(table.rules), len(table.players), add_row, **kwargs)


def _prefill(table: m.LedgerTable, stored: dict | None = None) -> dict:
    """The form's data: a stored input (or the carried state, for a new hand) with the table's names."""
    game = get_game(table.game)
    payload = stored if stored is not None else (m.table_carried(table) or {})
    return schema_forms.form_data(game, payload, table.players)


def _engine_error(form, exc: PaijuError) -> list[str]:
    """The messages for the top of the form: a pointer to the marked fields, and what no field took."""
    left = error_messages(form, exc)
    if len(left) < len(getattr(exc, "errors", (exc,))):
        left.insert(0, gettext("没有保存：请看下面标出的错误"))
    return left


def _add_row(action: str | None) -> str | None:
    return action[4:] if action and action.startswith("add:") else None


def _edit_page(table_id: str) -> str:
    return url_for("tables.edit", table_id=table_id)


@pages_bp.route("/tables/<table_id>/edit", methods=["GET", "POST"])
@limit_writes
def edit(table_id: str):
    table, token = _edit_table(table_id)
    if request.method == "GET":
        return _page(table, token, form=_settle_form(table, data=_prefill(table)))
    action = request.form.get("action")
    key = request.form.get("idempotency_key") or None
    form = _settle_form(table, add_row=_add_row(action))
    if action:
        return _page(table, token, form=form, form_key=key)
    if not form.validate():
        errors = [_csrf_message()] if "csrf_token" in form.errors else [gettext("请检查表单")]
        return _page(table, token, form=form, errors=errors, status=400, form_key=key)
    carried = m.table_carried(table) or {}

    def payload():
        data = form.to_payload()
        for name in carried:  # the form shows the carried state read-only; the ledger supplies it
            data.pop(name, None)
        return data

    try:
        answer = m.record_hand(table_id, token, payload, current_lang(), key=key)
    except m.TableError:
        raise
    except PaijuError as exc:
        return _page(table, token, form=form, errors=_engine_error(form, exc), status=422, form_key=key)
    return redirect(_edit_page(table_id) + f"#hand-{answer['hand']['number']}", 303)


@pages_bp.post("/tables/<table_id>/edit/undo")
@limit_writes
def undo(table_id: str):
    table, token = _edit_table(table_id)
    form = VersionForm()
    if not form.validate():
        return _page(table, token, form=_settle_form(table, data=_prefill(table)), errors=[_csrf_message()],
                     status=400)
    last = m.last_hand(table.id)
    if last is None:
        return redirect(_edit_page(table_id), 303)
    try:
        m.delete_hand(table_id, token, last.number, form.version.data or None, current_lang())
    except m.TableError as exc:
        if exc.status != 409:
            raise
        table = m.get_table(table_id)
        return _page(table, token, form=_settle_form(table, data=_prefill(table)),
                     errors=[page_message(exc)], status=409)
    return redirect(_edit_page(table_id), 303)


@pages_bp.route("/tables/<table_id>/edit/hands/<int:number>/delete", methods=["GET", "POST"])
@limit_writes
def delete_hand(table_id: str, number: int):
    table, token = _edit_table(table_id)
    hand = m.hand_numbered(table.id, number)
    form = VersionForm(data={"version": str(table.version)})
    errors = []
    if request.method == "POST":
        if not form.validate():
            errors.append(_csrf_message())
        else:
            try:
                m.delete_hand(table_id, token, number, form.version.data or None, current_lang())
            except m.TableError as exc:
                if exc.status != 409:
                    raise
                errors.append(page_message(exc))
                table = m.get_table(table_id)
                form = VersionForm(formdata=None, data={"version": str(table.version)})
            else:
                return redirect(_edit_page(table_id), 303)
    shown = hand.shown(current_lang())
    return render_template("tables/confirm_delete.html", table=table, hand=hand, form=form,
                           steps=shown.get("steps", []), errors=errors), (409 if errors else 200)


@pages_bp.route("/tables/<table_id>/edit/hands/<int:number>", methods=["GET", "POST"])
@limit_writes
def edit_hand(table_id: str, number: int):
    table, token = _edit_table(table_id)
    hand = m.hand_numbered(table.id, number)
    version = str(table.version)
    raw_form = RawInputForm(data={"version": version, "raw": json.dumps(hand.input, ensure_ascii=False,
                                                                         indent=1)})
    prefilled = _prefill(table, hand.input)
    errors, status = [], 200
    form = None
    if request.method == "GET":
        form = _settle_form(table, data=prefilled)
    else:
        mode = request.form.get("mode", "form")
        if mode == "json":
            raw_form = RawInputForm()
            if not raw_form.validate():
                errors.append(_csrf_message())
            else:
                def body():
                    try:
                        data = json.loads(raw_form.raw.data or "")
                    except (ValueError, RecursionError):
                        raise MalformedInput(t("这不是有效的 JSON", "this is not valid JSON"), field="input",
                                             code="malformed_json")
                    return {"version": raw_form.version.data, "input": data}
                errors, status = _save_edit(table_id, token, number, body, None)
            form = _settle_form(table, formdata=None, data=prefilled)
        else:
            form = _settle_form(table)
            if not form.validate():
                errors.append(_csrf_message())
                status = 400
            else:
                given = request.form.get("version")
                errors, status = _save_edit(table_id, token, number,
                                            lambda: {"version": given, "input": form.to_payload()}, form)
        if not errors:
            return redirect(_edit_page(table_id) + f"#hand-{number}", 303)
        version = request.form.get("version") or version
    shown = hand.shown(current_lang())
    game = get_game(table.game)
    return render_template("tables/hand_edit.html", table=table, hand=hand, form=form,
                           raw_form=raw_form, version=version, errors=errors, names=list(table.players),
                           steps=shown.get("steps", []), picker=_picker(game, table), game=game), status


def _save_edit(table_id, token, number, body, form):
    try:
        m.edit_hand(table_id, token, number, body, current_lang())
    except m.TableError as exc:
        if exc.status != 409:
            raise
        return [page_message(exc)], 409
    except PaijuError as exc:
        return _engine_error(form, exc), status_of(exc)
    return [], 200


# --- the owner: rotate the edit link, delete the table ------------------------

@pages_bp.post("/tables/<table_id>/edit/rotate")
@limit_writes
def rotate(table_id: str):
    table, token = _edit_table(table_id)
    if not VersionForm().validate():
        return _page(table, token, form=_settle_form(table, data=_prefill(table)), errors=[_csrf_message()],
                     status=400)
    fresh = m.rotate_token(table_id, token)
    return with_edit_cookie(redirect(url_for("tables.edit", table_id=table_id, rotated=1), 303), table_id, fresh)


@pages_bp.route("/tables/<table_id>/edit/delete", methods=["GET", "POST"])
@limit_writes
def delete_table(table_id: str):
    table, token = _edit_table(table_id)
    form = VersionForm()
    errors = []
    if request.method == "POST":
        if form.validate():
            m.delete_table(table_id, token)
            resp = make_response(render_template("tables/deleted.html"))
            resp.delete_cookie(EDIT_COOKIE, path=f"/tables/{table_id}")
            return resp
        errors.append(_csrf_message())
    return render_template("tables/confirm_delete_table.html", table=table, form=form,
                           hand_count=m.hand_count(table.id), game=get_game(table.game),
                           errors=errors), (400 if errors else 200)


# --- exports ----------------------------------------------------------------

def _cell(value):
    """Spreadsheets run cells that start with = + - @: quote such text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@pages_bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str):
    """One row per hand: the deltas, the running totals, the input field by field in words, the steps."""
    table = m.get_table(table_id)
    lang = current_lang()
    game = get_game(table.game)
    rules = game.ruleset.resolve(table.rules)
    ctx = game.input_context(rules, tuple(table.players))
    fields = game.settle_input.fields
    out = io.StringIO()
    writer = csv.writer(out)
    names = [_cell(n) for n in table.players]
    writer.writerow([gettext("局")] + names + [gettext("%(n)s累计", n=n) for n in names]
                    + [render(f.label, lang) for f in fields] + [gettext("计算步骤")])
    running = [0] * len(table.players)
    for number, data, deltas, steps in m.export_rows(table, lang):
        running = [a + b for a, b in zip(running, deltas)]
        writer.writerow([number] + list(deltas) + running
                        + [_cell(_field_words(f, data, ctx, lang)) for f in fields] + [_cell(" / ".join(steps))])
    writer.writerow([gettext("合计")] + running + [""] * (len(table.players) + len(fields) + 1))
    resp = make_response("\ufeff" + out.getvalue())  # the BOM lets spreadsheets read the Chinese
    resp.headers["Content-Type"] = "text/csv; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="paiju-{table.game}-{table.id[:8]}.csv"'
    return resp


def _field_words(field, stored: dict, ctx, lang: str) -> str:
    words = field_words(field, stored, ctx)
    return render(words, lang) if words is not None else ""


@pages_bp.get("/tables/<table_id>/qr.svg")
def qr(table_id: str):
    table = m.get_table(table_id)
    buf = io.BytesIO()
    segno.make(url_for("tables.view", table_id=table.id, _external=True), error="m").save(
        buf, kind="svg", scale=6, border=2)
    resp = make_response(buf.getvalue())
    resp.headers["Content-Type"] = "image/svg+xml"
    return resp
