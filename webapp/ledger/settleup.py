"""The end of the evening (issue 10, items 3–5): 结账 settle-up (API and page), the evening's
statistics, and a new evening with the same players and rules.

The arithmetic is the engine's: :mod:`scoring.settleup` (the fewest transfers, money per point) and
:mod:`scoring.evening` (hands won, 庄家 made / failed, biggest hand, streaks). Settling up needs no
token (anyone with the read-only link may look); a new evening needs the table's edit cookie.
"""
from __future__ import annotations

from decimal import Decimal

import segno
from flask import Blueprint, jsonify, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup

from scoring.errors import MalformedInput, PaijuError
from scoring.evening import evening_stats, has_declarer
from scoring.i18n import render
from scoring.registry import get_game
from scoring.settleup import money_of, parse_per_point, settle_up, share_words

from ..errors import engine_error_response, status_of
from ..i18n import current_lang, page_message
from . import db as ledger_db
from . import service
from .exports import qr_svg
from .forms import VersionForm, csrf_message
from .integrity import TableUnreadable, unreadable_page
from .models import LedgerTable
from .queries import check_token, get_table, hand_count, hand_facts, hand_totals
from .table_rules import change_lines, first_hand_rules, own_rules
from .web import EDIT_COOKIE, entry_url, first_hand, holds_edit_token, limit_creates, with_edit_cookie

bp = Blueprint("evening", __name__)
#: the money-per-point chips the page offers
PER_POINT_CHIPS = ("0.1", "0.5", "1", "2", "5")


@bp.before_request
def _schema():
    ledger_db.ensure_schema()


# --- the API ------------------------------------------------------------------

@bp.get("/api/v1/tables/<table_id>/settle-up")
def api_settle_up(table_id: str):
    table = get_table(table_id)
    per_point = parse_per_point(request.args.get("per_point"))
    answer = settle_up(hand_totals(table.id, len(table.players)), per_point)
    answer["share_text"] = share_text(table, answer)
    answer["steps"] = render(answer["steps"], current_lang())
    resp = jsonify(answer)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def share_text(table: LedgerTable, settled: dict) -> str:
    """The evening in group-chat words in the reader's language (the API's ``share_text``; the page copies it),
    its last line the link to this evening's read-only table.
    The date is the day the table was opened, in UTC (the server knows no phone's time zone)."""
    words = share_words(get_game(table.game).name, _day(table), hand_count(table.id), list(table.players), settled,
                        change_lines(table))
    return render(words, current_lang()) + "\n" + evening_url(table)


# --- the settle-up page ----------------------------------------------------------

@bp.errorhandler(PaijuError)
def _error(exc: PaijuError):
    if request.path.startswith("/api/"):
        return engine_error_response(exc)
    status = status_of(exc)
    if isinstance(exc, TableUnreadable):
        return unreadable_page(exc, status)
    return render_template("tables/error.html", status=status, message=page_message(exc)), status


def _reading(raw: str | None) -> tuple[Decimal | None, str | None]:
    """(money per point, None) or (None, what was wrong) for the typed value."""
    try:
        return parse_per_point(raw), None
    except MalformedInput as exc:
        return None, page_message(exc)


def plain(value: Decimal) -> str:
    """A money-per-point value as a player types it: 0.5, 1, 2.25."""
    return format(value.normalize(), "f")


def bars(names: list[str], totals: list[int]) -> list[dict]:
    """One horizontal bar per player on a shared scale (the SVG is drawn by the template)."""
    top = max([abs(v) for v in totals] + [1])
    out = []
    for seat, (name, total) in enumerate(zip(names, totals)):
        width = round(100 * abs(total) / top, 1)
        out.append({"seat": seat, "name": name, "total": total, "width": width,
                    "x": 100 if total >= 0 else round(100 - width, 1),
                    "sign": "plus" if total > 0 else ("minus" if total < 0 else "zero")})
    return out


def evening_url(table: LedgerTable) -> str:
    """The read-only table of this evening, as the share text and the picture's QR give it: ``?stay=1``, so the
    link still shows this evening once a next one is opened."""
    return url_for("tables.view", table_id=table.id, stay=1, _external=True)


def _first_rules(table: LedgerTable) -> dict:
    """The rules the evening began with (its first hand's; the table's now while it has none): the picture
    names them, then each change from the hand it applies to."""
    return own_rules(table, first_hand_rules(table.id))


def _day(table: LedgerTable) -> str:
    """The day the table was opened (UTC), as the share text and picture write it."""
    return table.created_at.strftime("%Y-%m-%d") if table.created_at else ""


def _money(points: int, per_point: Decimal | None) -> str | None:
    return None if per_point is None else money_of(points, per_point)


def stats_rows(table: LedgerTable, game) -> list[dict]:
    hands = hand_facts(table.id, inputs=has_declarer(game))  # only a 庄家's record reads a hand's input and result
    rows = []
    for name, record in zip(table.players, evening_stats(game, len(table.players), hands)):
        rows.append({"name": name, "stats": record, "streak": streak_words(record.streak)})
    return rows


def streak_words(streak: int) -> str:
    if streak > 0:
        return gettext("连赢%(n)s局", n=streak)
    if streak < 0:
        return gettext("连输%(n)s局", n=-streak)
    return "—"


@bp.get("/tables/<table_id>/settle-up")
def settle_up_page(table_id: str):
    table = get_table(table_id)
    game = get_game(table.game)
    raw = request.args.get("per_point")
    per_point, problem = _reading(raw)
    totals = hand_totals(table.id, len(table.players))
    settled = settle_up(totals, per_point or Decimal(1))
    names = list(table.players)
    transfers = [{**tr, "payer": names[tr["from"]], "payee": names[tr["to"]],
                  "amount": tr["amount"] if per_point is not None else None} for tr in settled["transfers"]]
    shown_value = plain(per_point) if per_point is not None else (raw or "")
    share_url = url_for("evening.settle_up_page", table_id=table.id, _external=True,
                        **({"per_point": plain(per_point)} if per_point is not None else {}))
    ctx = {"table": table, "game": game, "names": names, "transfers": transfers, "per_point": per_point,
           "typed": shown_value, "problem": problem, "chips": PER_POINT_CHIPS, "share_url": share_url,
           "bars": bars(names, totals), "money": [_money(v, per_point) for v in totals],
           "stats": stats_rows(table, game), "declarers": has_declarer(game),
           "view_url": entry_url(table.id) if holds_edit_token(table) else url_for("tables.view", table_id=table.id, stay=1),
           "bar_svg": bar_svg,
           "qr": qr_svg(share_url), "share_text": share_text(table, settled),
           "picture": picture(table, game, names, totals, transfers, per_point or Decimal(1))}
    resp = make_response(render_template("tables/settle_up.html", **ctx), 400 if problem else 200)
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Robots-Tag"] = "noindex, nofollow"
    resp.headers["Cache-Control"] = "private, no-cache"
    return resp


def picture(table: LedgerTable, game, names: list[str], totals: list[int], transfers: list[dict],
            per_point: Decimal) -> dict:
    """What static/share-image.js draws as the evening's picture: every word in the reader's language, the
    rules the evening began with (its preset and only the options set apart from it), the rules that changed during
    the evening and from which hand, the players highest first, the fewest transfers, and the QR code of this
    evening's read-only table as rows of modules."""
    view_url = evening_url(table)
    day = _day(table)
    ranked = sorted(range(len(names)), key=lambda i: (-totals[i], i))
    return {"title": render(game.name, current_lang()), "date": day,
            "rules": gettext("本桌规则：%(r)s", r=render(game.ruleset.set_apart(_first_rules(table)), current_lang())),
            "changes": [render(line, current_lang()) for line in change_lines(table)],
            "summary": gettext("共%(n)s局 · 每分%(m)s元", n=hand_count(table.id), m=money_of(1, per_point)),
            "players": [{"name": names[i], "total": totals[i], "money": _money(totals[i], per_point)} for i in ranked],
            "transfers": [{"payer": tr["payer"], "payee": tr["payee"], "points": tr["points"],
                           "amount": _money(tr["points"], per_point)} for tr in transfers],
            "qr": ["".join("1" if cell else "0" for cell in row) for row in segno.make(view_url, error="m").matrix],
            "link": view_url, "file": f"paiju-{day or table.id}.png",
            "words": {"transfers": gettext("谁付给谁"), "nobody": gettext("谁也不欠谁：不用转账。"),
                      "totals": gettext("总分"), "scan": gettext("扫码看这一晚的账"),
                      "points": gettext("%(p)s分", p="{p}"), "money": gettext("%(m)s元", m="{m}")}}


# --- a new evening ------------------------------------------------------------------

@bp.post("/tables/<table_id>/edit/new-evening")
@limit_creates
def new_evening(table_id: str):
    """The evening after this one (:func:`.service.next_evening`); its edit page opens with its cookie."""
    token = request.cookies.get(EDIT_COOKIE)
    check_token(get_table(table_id), token)
    if not VersionForm().validate():
        return render_template("tables/error.html", status=400, message=csrf_message()), 400
    new_id, new_token, _ = service.next_evening(table_id, token)
    target = redirect(first_hand(new_id), 303)
    return with_edit_cookie(target, new_id, new_token)


def bar_svg(bar: dict) -> Markup:  # kept here so the template stays readable
    return Markup(f'<svg class="bar {bar["sign"]}" viewBox="0 0 200 12" preserveAspectRatio="none" '
                  f'aria-hidden="true" focusable="false"><line x1="100" x2="100" y1="0" y2="12" class="axis"/>'
                  f'<rect x="{bar["x"]}" y="1" width="{bar["width"]}" height="10"/></svg>')
