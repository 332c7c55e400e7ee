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
import functools
import io
import json
import os
import secrets
from datetime import timezone
from typing import Any

import click
import segno

from flask.cli import with_appcontext
from flask_babel import gettext
from flask import (Blueprint, abort, current_app, flash, jsonify, make_response, redirect, render_template,
                   request, url_for)
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
from scoring.inputs import field_words, strict_int

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
CHART_POINTS = 60  # points per line in the chart, however many hands (a live change sends the chart)
CHART_DOTS = 40  # up to this many hands, each hand's point is marked with a dot


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


def chart_svg(players: list[str], points: list[tuple[int, list[int]]], count: int) -> Markup:
    """Cumulative score per player after each hand, as an inline SVG: ``points`` are (hand ordinal, totals)
    from (0, zeros) to (count, the totals), at most CHART_POINTS of them; whole-number coordinates keep
    it small (it goes out with every live change)."""
    width, height, pad_l, pad_r, pad_y = 320, 180, 34, 8, 12
    n = max(count, 1)
    values = [v for _, line in points for v in line] or [0]
    lo, hi = min(values + [0]), max(values + [0])
    if lo == hi:
        lo, hi = lo - 1, hi + 1

    def x(i):
        return round(pad_l + (width - pad_l - pad_r) * i / n)

    def y(v):
        return round(pad_y + (height - 2 * pad_y) * (hi - v) / (hi - lo))

    label = gettext("累计得分走势图")
    parts = [f'<svg class="ledger-chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(label)}</title>",
             f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(0)}" y2="{y(0)}" class="zero"/>',
             f'<text x="{pad_l - 4}" y="{y(hi) + 4}" text-anchor="end" class="axis">{hi}</text>',
             f'<text x="{pad_l - 4}" y="{y(lo)}" text-anchor="end" class="axis">{lo}</text>']
    if lo < 0 < hi:
        parts.append(f'<text x="{pad_l - 4}" y="{y(0) + 4}" text-anchor="end" class="axis">0</text>')
    dots = count <= CHART_DOTS
    if dots:
        parts.append(_dot_markers(len(players)))
    for seat in range(len(players)):
        line = " ".join(f"{x(i)},{y(totals[seat])}" for i, totals in points)
        marked = f' marker-mid="url(#ledger-dot-{seat})" marker-end="url(#ledger-dot-{seat})"' if dots else ""
        parts.append(f'<polyline fill="none" stroke="{seat_color(seat)}" stroke-width="2" points="{line}" '
                     f'data-seat="{seat}"{marked}><title>{escape(players[seat])}: {points[-1][1][seat]}</title>'
                     f'</polyline>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _dot_markers(seats: int) -> str:
    """A dot per seat's colour, drawn by the polyline at each hand's point (not a circle per point: the
    chart goes out with every live change, and 40 hands of six seats' circles would be 11 KB)."""
    markers = (f'<marker id="ledger-dot-{seat}" viewBox="-3 -3 6 6" markerWidth="6" markerHeight="6" '
               f'markerUnits="userSpaceOnUse"><circle r="2.5" fill="{seat_color(seat)}"/></marker>'
               for seat in range(seats))
    return "<defs>" + "".join(markers) + "</defs>"


def seat_color(seat: int) -> str:
    return COLORS[seat % len(COLORS)]


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> Markup:
    """The QR code of a table's read-only link, made once per link (the link names the table and the host)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                                            omitsize=True))


@functools.lru_cache(maxsize=512)
def qr_file(url: str) -> bytes:
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=6, border=2)
    return buf.getvalue()


def _older_than() -> int | None:
    """The ``before`` of a page of older hands (``?before=N``: the hands before hand N)."""
    return _query_int("before")


def ledger_view(table: m.LedgerTable, before: int | None = None, only: list[int] | None = None) -> dict:
    """Everything the live part of the page shows: totals and chart over every hand (window sums in SQL
    from the deltas), and the latest PAGE_HANDS hands (before hand ``before``; of those, the ``only``
    ones) in full. What Python reads does not grow with the table: the chart's points and the shown
    hands."""
    lang = current_lang()
    game = get_game(table.game)
    rules = game.ruleset.resolve(table.rules)
    seats = len(table.players)
    count = m.hand_count(table.id)
    numbers = m.latest_numbers(table.id, PAGE_HANDS, before)
    wanted = numbers if only is None else [n for n in numbers if n in set(only)]
    step = max(1, -(-count // CHART_POINTS))
    runs = m.running_totals(table.id, seats, step, count, wanted)
    by_number = {number: (running, ended) for _, number, running, ended in runs}
    hands = m.hands_numbered(table.id, wanted)
    shown = m.shown_of(table.id, [(hand.number, hand.changed_version) for hand in hands], lang)
    rows = [_hand_row(game, rules, table, hand, by_number[hand.number][0],
                      by_number[hand.number][1] + 1 if game.carries_state else None, lang, result)
            for hand, result in zip(hands, shown)]
    points = [(0, [0] * seats)] + [(i, running) for i, _, running, _ in runs if i % step == 0 or i == count]
    first, last = m.number_range(table.id)
    return {"table": table, "rows": list(reversed(rows)), "hand_count": count,
            "totals": points[-1][1], "chart": chart_svg(table.players, points, count), "colors": COLORS,
            "banks": m.table_banks(table), "last_number": last, "poll": POLL_SECONDS, "game": game,
            "before": before, "older": numbers[0] if numbers and numbers[0] != first else None,
            "undone": _undone_words(game, rules, table, lang), "L": card_words()}


def _padded(deltas: list[int], table: m.LedgerTable) -> list[int]:
    """A hand's deltas for every player of the table (one who joined later: 0)."""
    return list(deltas) + [0] * (len(table.players) - len(deltas))


def card_words() -> dict:
    """The words every hand's card uses, translated once per page (templates/tables/_hand.html)."""
    return {"hand": gettext("第%(n)s局"), "series": gettext("第%(n)s大局"), "series_over": gettext("大局结束"),
            "edited": gettext("改于"), "edit": gettext("修改"), "delete": gettext("删除"),
            "running": gettext("累计"), "bank": gettext("分库"), "steps": gettext("计算步骤")}


def _undone_words(game, rules, table, lang) -> dict | None:
    """The hand the last undo took, for the redo button: its number and its input in words."""
    taken = table.undone
    if not taken:
        return None
    seats = taken.get("seats") or table.seating()
    words = game.input_words(taken.get("input") or {}, rules, tuple(table.names_of(seats)))
    return {"number": taken.get("number"), "words": [render(w, lang) for w in words]}


def _moment(when) -> dict | None:
    """A stored time for a ``<time>`` element: ISO 8601 (UTC) and a short fallback text
    (static/tables.js shows it in the phone's own time zone)."""
    if when is None:
        return None
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return {"iso": when.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "text": when.astimezone(timezone.utc).strftime("%H:%M UTC")}


def _hand_row(game, rules, table, hand, running, series_number, lang, shown: dict) -> dict:
    seats = hand.seating()
    words = game.input_words(hand.input, rules, tuple(table.names_of(seats)))
    return {"number": hand.number, "deltas": _padded(hand.deltas, table), "running": list(running),
            "people": [(i, table.players[i]) for i in seats],
            "steps": shown.get("steps", []), "banks": shown.get("banks"), "game_over": shown.get("game_over"),
            "big_round": series_number, "words": [render(w, lang) for w in words],
            "recorded": _moment(hand.created_at), "edited": _moment(hand.edited_at)}


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


def _live_url(table, editing: bool, before: int | None, last_number: int | None):
    """What the page polls: with the version it shows and its last hand, so a poll sends only what changed
    since; a page of older hands does not poll (new hands would not be on it)."""
    if before is not None:
        return None
    return url_for("tables.edit_live" if editing else "tables.live", table_id=table.id, v=table.version,
                   n=last_number or 0)


def _page(table: m.LedgerTable, token: str | None, form=None, errors=(), status=200, form_key=None, **extra):
    before = _older_than()
    ctx = ledger_view(table, before)
    game = ctx["game"]
    view_url = url_for("tables.view", table_id=table.id, _external=True)
    ctx.update(can_edit=token is not None, form=form, errors=list(errors),
               live_url=_live_url(table, token is not None, before, ctx["last_number"]), view_url=view_url,
               rules_shown=_rules_shown(table), qr=qr_svg(view_url), names=table.names_of(table.seating()),
               undo_form=VersionForm() if token else None, picker=_picker(game, table),
               created=bool(request.args.get("new")), rotated=bool(request.args.get("rotated")),
               seat_range=seat_limits(table),
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
    if _query_int("v") == version:
        return "", 204
    return None


def _query_int(name: str) -> int | None:
    """A query parameter of a few ASCII digits as a number, else None (``str.isdigit`` alone passes "²")."""
    raw = request.args.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def _new_only(table: m.LedgerTable) -> list[int] | None:
    """The hands a poll sends: when the page (at version ``v``, last hand ``n``) only lacks hands added
    after its last one, those; else None (a hand it shows changed or went: it gets its hands again)."""
    since, shown_last = _query_int("v"), _query_int("n")
    if since is None or not shown_last or table.reset_version > since:
        return None
    changed = m.changed_since(table.id, since)
    return changed if all(number > shown_last for number in changed) else None


def _live_fragment(table: m.LedgerTable, editing: bool):
    only = _new_only(table)
    ctx = ledger_view(table, only=only)
    ctx.update(can_edit=editing, live_url=_live_url(table, editing, None, ctx["last_number"]),
               undo_form=VersionForm() if editing else None, names=table.names_of(table.seating()))
    hands = "tables/_hands.html" if only is None else "tables/_new_hands.html"
    resp = make_response(render_template("tables/_live.html", **ctx)
                         + render_template("tables/_chart.html", oob=True, **ctx)
                         + render_template(hands, oob=True, **ctx))
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


def _settle_form(table: m.LedgerTable, formdata=None, data=None, add_row=None, seats: list[int] | None = None):
    """The settle form for the next hand (or, with ``seats``, for a hand those players played)."""
    game = get_game(table.game)
    kwargs = {"data": data} if data is not None else {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    count = len(seats if seats is not None else table.seating())
    return schema_forms.settle_form(game, game.ruleset.resolve(table.rules), count, add_row, **kwargs)


def _prefill(table: m.LedgerTable, stored: dict | None = None, seats: list[int] | None = None) -> dict:
    """The form's data: a stored input (or the carried state, for a new hand) with the players' names."""
    game = get_game(table.game)
    payload = stored if stored is not None else (m.table_carried(table) or {})
    return schema_forms.form_data(game, payload, table.names_of(seats if seats is not None else table.seating()))


def _engine_error(form, exc: PaijuError) -> list[str]:
    """The messages for the top of the form: a pointer to the marked fields, and what no field took."""
    left = error_messages(form, exc)
    if len(left) < len(getattr(exc, "errors", (exc,))):
        left.insert(0, gettext("没有保存：请看下面标出的错误"))
    return left


def _table_says(table: m.LedgerTable, data: dict) -> dict:
    """A form's input without the field the table itself fills in (Q783's number of players: the form's
    hidden default would not follow a seat joining or leaving)."""
    seats_field = get_game(table.game).settle_input.seats_field
    if seats_field:
        data.pop(seats_field, None)
    return data


def _add_row(action: str | None) -> str | None:
    return action[4:] if action and action.startswith("add:") else None


def _edit_page(table_id: str) -> str:
    return url_for("tables.edit", table_id=table_id)


def _entry(table_id: str) -> str:
    """The edit page scrolled to the totals and the form for the next hand (what a save leads to)."""
    return _edit_page(table_id) + "#entry"


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
        data = _table_says(table, form.to_payload())
        for name in carried:  # the form shows the carried state read-only; the ledger supplies it
            data.pop(name, None)
        return data

    try:
        answer = m.record_hand(table_id, token, payload, current_lang(), key=key)
    except m.TableError:
        raise
    except PaijuError as exc:
        return _page(table, token, form=form, errors=_engine_error(form, exc), status=422, form_key=key)
    return redirect(_entry(table_id), 303)


@pages_bp.post("/tables/<table_id>/edit/undo")
@limit_writes
def undo(table_id: str):
    table, token = _edit_table(table_id)
    form = VersionForm()
    if not form.validate():
        return _page(table, token, form=_settle_form(table, data=_prefill(table)), errors=[_csrf_message()],
                     status=400)
    try:
        m.undo_hand(table_id, token, request.form.get("number"), form.version.data or table.version)
    except m.TableError as exc:
        if exc.status != 409:
            raise
        table = m.get_table(table_id)
        return _page(table, token, form=_settle_form(table, data=_prefill(table)),
                     errors=[page_message(exc)], status=409)
    return redirect(_entry(table_id), 303)


def _csrf_refused(table: m.LedgerTable, token: str):
    """The table page with the CSRF message when a posted button's form is not valid, else None."""
    if VersionForm().validate():
        return None
    return _page(table, token, form=_settle_form(table, data=_prefill(table)), errors=[_csrf_message()], status=400)


def _button(view):
    """A posted button of the edit page: the view gets the table and the token, once the CSRF check passed."""
    @functools.wraps(view)
    def checked(table_id: str):
        table, token = _edit_table(table_id)
        refused = _csrf_refused(table, token)
        return refused if refused is not None else view(table_id, table, token)
    return checked


@pages_bp.post("/tables/<table_id>/edit/redo")
@limit_writes
@_button
def redo(table_id: str, table: m.LedgerTable, token: str):
    """Put back the hand the last undo took; a second tap (or a resend) changes nothing."""
    number = request.form.get("number")
    if m.redo_hand(table_id, token, number):
        flash(gettext("第%(n)s局恢复了", n=number))
    return redirect(_entry(table_id), 303)


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
                           deltas=_padded(hand.deltas, table),
                           steps=shown.get("steps", []), errors=errors), (409 if errors else 200)


class EditAttempt:
    """A posted edit of a hand: the settle form and the JSON form as typed, and the typed input."""

    def __init__(self, table: m.LedgerTable, hand: m.LedgerHand):
        self.json = request.form.get("mode") == "json"
        self.table = table
        seats = hand.seating()
        prefilled = _prefill(table, hand.input, seats)
        self.raw_form = RawInputForm() if self.json else RawInputForm(data={"raw": _pretty(hand.input)})
        self.form = (_settle_form(table, formdata=None, data=prefilled, seats=seats) if self.json
                     else _settle_form(table, seats=seats))
        self.version = request.form.get("version") or str(table.version)
        self.errors: list[str] = []
        self.status = 200
        valid = (self.raw_form if self.json else self.form).validate()
        if not valid:
            self.errors, self.status = [_csrf_message()], 400

    def typed(self) -> Any:
        """The typed input (the JSON form's text read, or the settle form's payload)."""
        if not self.json:
            return _table_says(self.table, self.form.to_payload())
        try:
            return json.loads(self.raw_form.raw.data or "")
        except (ValueError, RecursionError):
            raise MalformedInput(t("这不是有效的 JSON", "this is not valid JSON"), field="input",
                                 code="malformed_json")

    def body(self) -> dict:
        return {"version": self.version, "input": self.typed()}


def _pretty(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


@pages_bp.route("/tables/<table_id>/edit/hands/<int:number>", methods=["GET", "POST"])
@limit_writes
def edit_hand(table_id: str, number: int):
    table, token = _edit_table(table_id)
    hand = m.hand_numbered(table.id, number)
    if request.method == "GET":
        raw_form = RawInputForm(data={"raw": _pretty(hand.input)})
        seats = hand.seating()
        return _hand_page(table, hand, _settle_form(table, data=_prefill(table, hand.input, seats), seats=seats),
                          raw_form, str(table.version))
    attempt = EditAttempt(table, hand)
    conflict = None
    if not attempt.errors:
        try:
            answer = m.edit_hand(table_id, token, number, attempt.body, current_lang(), merge=True)
        except m.TableError as exc:
            if exc.status != 409:
                raise
            attempt.errors, attempt.status = [page_message(exc)], 409
            conflict = _conflict(table, number, attempt) if exc.code == "edit_conflict" else None
        except PaijuError as exc:
            attempt.errors = _engine_error(None if attempt.json else attempt.form, exc)
            attempt.status = status_of(exc)
        else:
            flash(_edited_message(number, answer.get("resettled") or []))
            return redirect(_entry(table_id), 303)
    return _hand_page(table, m.hand_numbered(table.id, number), attempt.form, attempt.raw_form,
                      conflict["version"] if conflict else attempt.version, attempt.errors, attempt.status,
                      conflict)


def _edited_message(number: int, resettled: list[int]) -> str:
    """What an edit says it changed: the hand, and the later hands it settled again (Q783's banks)."""
    if not resettled:
        return gettext("第%(n)s局已修改", n=number)
    sep = "、" if current_lang() == "zh" else ", "
    return gettext("第%(n)s局已修改；后面随之重算的：第%(later)s局", n=number,
                   later=sep.join(str(k) for k in resettled))


def _conflict(table: m.LedgerTable, number: int, attempt: EditAttempt) -> dict:
    """Both versions of a hand someone else changed: theirs (stored now) and mine (typed), in words."""
    game = get_game(table.game)
    theirs = m.hand_numbered(table.id, number)
    rules, names, lang = game.ruleset.resolve(table.rules), tuple(table.names_of(theirs.seating())), current_lang()
    try:
        mine = attempt.typed()
    except PaijuError:
        mine = {}
    words = [render(w, lang) for w in game.input_words(mine if isinstance(mine, dict) else {}, rules, names)]
    return {"version": str(m.get_table(table.id).version),
            "theirs": {"words": [render(w, lang) for w in game.input_words(theirs.input, rules, names)],
                       "deltas": _padded(theirs.deltas, table), "edited": _moment(theirs.edited_at)},
            "mine": {"words": words, "raw": _pretty(mine)}}


def _hand_page(table, hand, form, raw_form, version, errors=(), status=200, conflict=None):
    shown = hand.shown(current_lang())
    game = get_game(table.game)
    return render_template("tables/hand_edit.html", table=table, hand=hand, form=form,
                           raw_form=raw_form, version=version, errors=list(errors),
                           names=table.names_of(hand.seating()), deltas=_padded(hand.deltas, table),
                           steps=shown.get("steps", []), picker=_picker(game, table), game=game,
                           conflict=conflict), status


# --- players and seats ------------------------------------------------------------

@pages_bp.post("/tables/<table_id>/edit/seats")
@limit_writes
@_button
def seats(table_id: str, table: m.LedgerTable, token: str):
    """Rename, swap seats, join, leave, replace (see :func:`models.change_seats`); seats are 1-based here."""
    change = {key: request.form.get(key) for key in ("kind", "name")}
    for key in ("seat", "other"):
        value = strict_int(request.form.get(key))
        change[key] = value - 1 if value is not None else request.form.get(key)
    try:
        m.change_seats(table_id, token, change)
    except m.TableError:
        raise
    except PaijuError as exc:
        table = m.get_table(table_id)
        return _page(table, token, form=_settle_form(table, data=_prefill(table)), errors=[page_message(exc)],
                     status=422)
    flash(gettext("座位已更新：%(names)s", names=" · ".join(m.get_table(table_id).names_of(
        m.get_table(table_id).seating()))))
    return redirect(_entry(table_id), 303)


def seat_limits(table: m.LedgerTable) -> tuple[int, int]:
    return get_game(table.game).seat_range(table.rules)


# --- the owner: rotate the edit link, delete the table ------------------------

@pages_bp.post("/tables/<table_id>/edit/rotate")
@limit_writes
@_button
def rotate(table_id: str, table: m.LedgerTable, token: str):
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
    for number, data, deltas, steps, seats in m.export_rows(table, lang):
        running = [a + b for a, b in zip(running, deltas)]
        hand_ctx = ctx if seats == list(range(len(table.players))) else game.input_context(
            rules, tuple(table.names_of(seats)))
        writer.writerow([number] + list(deltas) + running
                        + [_cell(_field_words(f, data, hand_ctx, lang)) for f in fields]
                        + [_cell(" / ".join(steps))])
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
    resp = make_response(qr_file(url_for("tables.view", table_id=table.id, _external=True)))
    resp.headers["Content-Type"] = "image/svg+xml"
    return resp
