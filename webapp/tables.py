"""The table ledger (issue 5): JSON API under /api/v1/tables and the pages.

Anyone with a table's id can read it; every change needs the edit token
(header ``X-Edit-Token`` in the API, part of the edit link's path on the
pages). Tables are never listed anywhere.
"""
from __future__ import annotations

import csv
import io
import json

import segno

from flask_babel import gettext
from flask import (Blueprint, abort, current_app, jsonify, make_response, redirect, render_template, request,
                   url_for)
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


def init_app(app):
    ledger_db.init_app(app)
    csrf.exempt(api_bp)  # CSRF protects the forms; the JSON API is token-based
    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)


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


@api_bp.post("")
@api_bp.post("/")
def api_create():
    body = _body()
    table_id, token = m.create_table(body.get("game"), body.get("players"), body.get("rules"))
    return jsonify({
        "id": table_id,
        "edit_token": token,
        "view_url": url_for("tables.view", table_id=table_id, _external=True),
        "edit_url": url_for("tables.edit", table_id=table_id, token=token, _external=True),
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
    resp.vary.update(("Accept-Language", "Cookie"))
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
def new_table():
    game = _create_game()
    if game is None:
        if request.method == "POST":
            abort(400)
        return render_template("tables/new.html", game=None, choices=built_games())
    form = CreateTableForm(data={"game": game.slug})
    rules_form = game_forms.rules_form_class(game)(request.form if request.method == "POST" else None,
                                                   prefix="rules")
    errors = []
    if request.method == "POST" and request.form.get("action") != "refresh":
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
            else:
                return redirect(url_for("tables.edit", table_id=table_id, token=token, new=1))
    try:
        lo, hi = game.seat_range(game_forms.rules_payload(rules_form))
    except PaijuError:
        lo, hi = game.seat_range()
    ctx = dict(game=game, form=form, rules_form=rules_form, errors=errors, seats=range(hi), required=lo)
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

def _edit_table(table_id: str, token: str) -> m.LedgerTable:
    table = m.load_table(table_id)
    m.check_token(table, token)
    return table


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
    for seat, line in enumerate(series):
        color = COLORS[seat % len(COLORS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        name = escape(players[seat]) if seat < len(players) else seat
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{points}" '
                     f'data-seat="{seat}"><title>{name}: {line[-1]}</title></polyline>')
        if len(line) <= 40:
            for i, v in enumerate(line[1:], 1):
                parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5" fill="{color}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def qr_svg(url: str) -> Markup:
    return Markup(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                                            omitsize=True))


def ledger_view(table: m.LedgerTable) -> dict:
    """Everything the live part of the page shows (totals, chart, hands)."""
    lang = current_lang()
    game = get_game(table.game)
    rules = game.ruleset.resolve(table.rules)
    hands = list(table.hands)
    running = [0] * len(table.players)
    series = [[0] for _ in table.players]
    rows = []
    for hand, number in zip(hands, m.series_numbers(game, hands)):
        running = [a + b for a, b in zip(running, hand.deltas)]
        for seat, total in enumerate(running):
            series[seat].append(total)
        rows.append(_hand_row(game, rules, table, hand, number, running, lang))
    return {"table": table, "rows": list(reversed(rows)), "totals": table.totals(hands),
            "chart": chart_svg(table.players, series), "colors": COLORS, "banks": m.table_banks(table),
            "last_number": hands[-1].number if hands else None, "poll": POLL_SECONDS, "game": game}


def _hand_row(game, rules, table, hand, series_number, running, lang) -> dict:
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


def _live_url(table, token=None):
    if token:
        return url_for("tables.edit_live", table_id=table.id, token=token, v=table.version)
    return url_for("tables.live", table_id=table.id, v=table.version)


def _page(table: m.LedgerTable, token: str | None, form=None, errors=(), status=200, **extra):
    ctx = ledger_view(table)
    game = ctx["game"]
    view_url = url_for("tables.view", table_id=table.id, _external=True)
    ctx.update(can_edit=token is not None, token=token, form=form, errors=list(errors),
               live_url=_live_url(table, token), view_url=view_url, rules_shown=_rules_shown(table),
               qr=qr_svg(view_url), names=list(table.players), undo_form=VersionForm() if token else None,
               picker=_picker(game, table), created=bool(request.args.get("new")), **extra)
    if token:
        ctx["edit_url"] = url_for("tables.edit", table_id=table.id, token=token, _external=True)
    resp = make_response(render_template("tables/table.html", **ctx), status)
    if token:
        resp.headers["Cache-Control"] = "private, no-store"
    return resp


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


def _live_fragment(table: m.LedgerTable, token: str | None):
    ctx = ledger_view(table)
    ctx.update(can_edit=token is not None, token=token, live_url=_live_url(table, token),
               undo_form=VersionForm() if token else None, names=list(table.players))
    resp = make_response(render_template("tables/_live.html", **ctx)
                         + render_template("tables/_hands.html", oob=True, **ctx))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@pages_bp.get("/tables/<table_id>")
def view(table_id: str):
    return _page(m.load_table(table_id), None)


@pages_bp.get("/tables/<table_id>/live")
def live(table_id: str):
    return _unchanged(table_id) or _live_fragment(m.load_table(table_id), None)


@pages_bp.get("/tables/<table_id>/edit/<token>/live")
def edit_live(table_id: str, token: str):
    # a 204 tells no more than the public poll does, so it needs no token check
    return _unchanged(table_id) or _live_fragment(_edit_table(table_id, token), token)


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


@pages_bp.route("/tables/<table_id>/edit/<token>", methods=["GET", "POST"])
def edit(table_id: str, token: str):
    table = _edit_table(table_id, token)
    if request.method == "GET":
        return _page(table, token, form=_settle_form(table, data=_prefill(table)))
    action = request.form.get("action")
    form = _settle_form(table, add_row=_add_row(action))
    if action:
        return _page(table, token, form=form)
    if not form.validate():
        errors = [_csrf_message()] if "csrf_token" in form.errors else [gettext("请检查表单")]
        return _page(table, token, form=form, errors=errors, status=400)
    carried = m.table_carried(table) or {}

    def payload():
        data = form.to_payload()
        for key in carried:  # the form shows the carried state read-only; the ledger supplies it
            data.pop(key, None)
        return data

    try:
        answer = m.record_hand(table_id, token, payload, current_lang())
    except m.TableError:
        raise
    except PaijuError as exc:
        return _page(table, token, form=form, errors=_engine_error(form, exc), status=422)
    return redirect(url_for("tables.edit", table_id=table_id, token=token) + f"#hand-{answer['hand']['number']}",
                    303)


@pages_bp.post("/tables/<table_id>/edit/<token>/undo")
def undo(table_id: str, token: str):
    table = _edit_table(table_id, token)
    form = VersionForm()
    if not form.validate():
        return _page(table, token, form=_settle_form(table, data=_prefill(table)), errors=[_csrf_message()],
                     status=400)
    if not table.hands:
        return redirect(url_for("tables.edit", table_id=table_id, token=token), 303)
    try:
        m.delete_hand(table_id, token, table.hands[-1].number, form.version.data or None, current_lang())
    except m.TableError as exc:
        if exc.status != 409:
            raise
        table = _edit_table(table_id, token)
        return _page(table, token, form=_settle_form(table, data=_prefill(table)),
                     errors=[page_message(exc)], status=409)
    return redirect(url_for("tables.edit", table_id=table_id, token=token), 303)


def _hand_or_404(table: m.LedgerTable, number: int) -> m.LedgerHand:
    for hand in table.hands:
        if hand.number == number:
            return hand
    raise m.hand_not_found(number)


@pages_bp.route("/tables/<table_id>/edit/<token>/hands/<int:number>/delete", methods=["GET", "POST"])
def delete_hand(table_id: str, token: str, number: int):
    table = _edit_table(table_id, token)
    hand = _hand_or_404(table, number)
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
                table = _edit_table(table_id, token)
                form = VersionForm(formdata=None, data={"version": str(table.version)})
            else:
                return redirect(url_for("tables.edit", table_id=table_id, token=token), 303)
    shown = hand.shown(current_lang())
    return render_template("tables/confirm_delete.html", table=table, token=token, hand=hand, form=form,
                           steps=shown.get("steps", []), errors=errors), (409 if errors else 200)


@pages_bp.route("/tables/<table_id>/edit/<token>/hands/<int:number>", methods=["GET", "POST"])
def edit_hand(table_id: str, token: str, number: int):
    table = _edit_table(table_id, token)
    hand = _hand_or_404(table, number)
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
            return redirect(url_for("tables.edit", table_id=table_id, token=token) + f"#hand-{number}", 303)
        version = request.form.get("version") or version
    shown = hand.shown(current_lang())
    game = get_game(table.game)
    return render_template("tables/hand_edit.html", table=table, token=token, hand=hand, form=form,
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


# --- exports ----------------------------------------------------------------

def _cell(value):
    """Spreadsheets run cells that start with = + - @: quote such text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@pages_bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str):
    """One row per hand: the deltas, the running totals, the input field by field in words, the steps."""
    table = m.load_table(table_id)
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
    for hand in table.hands:
        running = [a + b for a, b in zip(running, hand.deltas)]
        steps = " / ".join(hand.shown(lang).get("steps", []))
        writer.writerow([hand.number] + list(hand.deltas) + running
                        + [_cell(_field_words(f, hand.input, ctx, lang)) for f in fields] + [_cell(steps)])
    writer.writerow([gettext("合计")] + table.totals() + [""] * (len(table.players) + len(fields) + 1))
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
