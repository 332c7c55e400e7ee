"""A circle's season (牌友圈; issue 28 item 4): the evenings played in a row by the same people, added up.

* ``GET /api/v1/circles/<circle>`` (no token): evenings, standings, partners (docs/api.md);
* ``POST /api/v1/circles/<circle>/aliases`` (``X-Edit-Token`` of any of its evenings): count one spelling of a
  name as another (an addition beyond the contract);
* ``/circles/<circle>``, read-only: the standings with money at a chosen rate, each player's running total over the
  evenings as a chart with its numbers as text, 搭子 and 对头 for games with sides, and the merge form, which posts
  to ``/tables/<id>/edit/circle-aliases`` so that evening's edit cookie comes with it;
* ``/circles/<circle>/now``: the circle's link for the table (its QR at 开桌), the evening being played; the
  read-only page it opens follows every later evening (:func:`.pages.view`, :func:`.pages.live`);
* ``/circles/<circle>/export.csv``: one row per evening per player.

The arithmetic is the engine's (:mod:`scoring.circle`); the reads are :mod:`.circle_reads`.
"""
from __future__ import annotations

import csv
import io
from decimal import Decimal

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from scoring.circle import canonical, has_sides
from scoring.errors import PaijuError
from scoring.evening import has_declarer
from scoring.registry import get_game
from scoring.settleup import CENT

from ..api import error_response, json_body
from ..errors import status_of
from ..i18n import page_message
from . import db as ledger_db
from .circle_reads import CircleRead, circle_json, circle_not_found, circle_tables, read_circle, set_alias
from .errors import TableError
from .exports import CHART_POINTS, _cell, chart_svg, seat_color
from .queries import get_table
from .settleup import PER_POINT_CHIPS, _reading, plain
from .web import EDIT_COOKIE, limit_writes

api_bp = Blueprint("circles_api", __name__, url_prefix="/api/v1/circles")
bp = Blueprint("circles", __name__)
TOKEN_HEADER = "X-Edit-Token"


@api_bp.before_request
@bp.before_request
def _schema():
    ledger_db.ensure_schema()


@api_bp.errorhandler(TableError)
def _api_error(exc: TableError):
    return error_response(exc.code, exc.message, status_of(exc), exc.field)


@bp.errorhandler(PaijuError)
def _page_error(exc: PaijuError):
    status = status_of(exc)
    return render_template("tables/error.html", status=status, message=page_message(exc)), status


@bp.after_request
def _private(resp):
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Robots-Tag"] = "noindex, nofollow"
    resp.headers.setdefault("Cache-Control", "private, no-cache")
    return resp


# --- the API ------------------------------------------------------------------------

@api_bp.get("/<circle>")
def api_circle(circle: str):
    resp = jsonify(circle_json(read_circle(circle)))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@api_bp.post("/<circle>/aliases")
@limit_writes
def api_alias(circle: str):
    body = json_body()
    aliases = set_alias(circle, request.headers.get(TOKEN_HEADER), body.get("name"), body.get("same_as"))
    return jsonify({"aliases": aliases})


# --- the page -------------------------------------------------------------------------

@bp.get("/circles/<circle>")
def page(circle: str):
    return _page(read_circle(circle))


@bp.get("/circles/<circle>/now")
def now(circle: str):
    """The evening being played: the circle's latest (a later one, should it have any, is found by the page)."""
    tables = circle_tables(circle)
    if not tables:
        raise circle_not_found(circle)
    resp = redirect(url_for("tables.view", table_id=tables[-1].id), 302)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _page(read: CircleRead, alias_problem: str | None = None, status: int = 200):
    game = get_game(read.game)
    raw = request.args.get("per_point")
    per_point, problem = _reading(raw)
    running = by_seat(read.season.running(), read)
    names = list(running)
    ctx = {"read": read, "game": game, "per_point": per_point, "problem": problem, "chips": PER_POINT_CHIPS,
           "typed": plain(per_point) if per_point is not None else (raw or ""),
           "rows": [{"s": s, "money": _money(s.total, per_point)} for s in read.season.standings],
           "declarers": game is not None and has_declarer(game), "sides": game is not None and has_sides(game),
           "chart": chart_svg(names, _chart_points(running), len(read.season.evenings)) if read.season.evenings else None,
           "colors": {n: seat_color(i) for i, n in enumerate(names)},  # the chart's, the lines' and the standings'
           "lines": [{"name": n, "points": p, "color": seat_color(i)} for i, (n, p) in enumerate(running.items())],
           "via": _via(read), "alias_problem": alias_problem,
           "names": sorted({name for t in read.tables for name in t.players})}
    return render_template("circles/circle.html", **ctx), 400 if problem and status == 200 else status


def by_seat(running: dict[str, list[int]], read: CircleRead) -> dict[str, list[int]]:
    """The running totals in the order of the seats at the circle's latest evening, then anyone not at it: a
    player's colour (:func:`.exports.seat_color` of the place in this order) is the one the table page gives
    their seat, not their place in the standings."""
    latest = [canonical(name, read.aliases) for name in read.tables[-1].players] if read.tables else []
    order = dict.fromkeys([name for name in latest if name in running] + list(running))
    return {name: running[name] for name in order}


def _money(points: int, per_point: Decimal | None) -> str | None:
    return None if per_point is None else str((per_point * points).quantize(CENT))


def _chart_points(running: dict[str, list[int]]) -> list[tuple[int, list[int]]]:
    """(evening ordinal, every player's total after it), from (0, zeros); at most CHART_POINTS of them."""
    lines = list(running.values())
    count = len(lines[0]) if lines else 0
    step = max(1, -(-count // CHART_POINTS))
    wanted = [i for i in range(1, count + 1) if i % step == 0 or i == count]
    return [(0, [0] * len(lines))] + [(i, [line[i - 1] for line in lines]) for i in wanted]


def _via(read: CircleRead) -> str | None:
    """The evening whose edit cookie the merge form takes: the one the page was opened from, else the last."""
    ids = [t.id for t in read.tables]
    asked = request.args.get("via")
    return asked if asked in ids else (ids[-1] if ids else None)


@bp.post("/tables/<table_id>/edit/circle-aliases")
@limit_writes
def page_alias(table_id: str):
    """The merge form: counts a name as another with this evening's edit cookie, then shows the circle again."""
    circle = get_table(table_id).circle_id
    name, same_as = request.form.get("name"), request.form.get("same_as") or None
    try:
        set_alias(circle, request.cookies.get(EDIT_COOKIE), name, same_as)
    except PaijuError as exc:
        return _page(read_circle(circle), page_message(exc), status_of(exc))
    return redirect(url_for("circles.page", circle=circle, via=table_id), 303)


# --- the CSV ------------------------------------------------------------------------

@bp.get("/circles/<circle>/export.csv")
def export(circle: str):
    read = read_circle(circle)
    resp = Response(circle_csv(read), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="paiju-circle-{read.id}.csv"'
    return resp


def circle_csv(read: CircleRead) -> str:
    """One row per evening per player (its date, table, the hands the player played, the evening's points and the
    running total), in the order of the evenings; begins with a BOM, which lets spreadsheets read the Chinese."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([gettext("第几晚"), gettext("日期"), gettext("牌桌"), gettext("玩家"), gettext("局数"),
                     gettext("得分"), gettext("累计")])
    running: dict[str, int] = {}
    for ordinal, line in enumerate(read.season.evenings, 1):
        for name, points in line.totals.items():
            running[name] = running.get(name, 0) + points
            writer.writerow([ordinal, (line.started_at or "")[:10], line.table, _cell(name),
                             line.played.get(name, 0), points, running[name]])
    return "\ufeff" + out.getvalue()
