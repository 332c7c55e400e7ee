"""The ledger's pages: open a table, the table (edit link / read-only link) and its live part, a hand
recorded, undone, redone, edited, deleted, the seats, the owner's buttons, the CSV and the QR code.

On the pages the edit token lives in an HttpOnly cookie scoped to the table, set when the edit link
``/tables/<id>/edit/<token>`` is opened, which then redirects to ``/tables/<id>/edit`` so the token leaves
the address bar. Tables are never listed anywhere.
"""
from __future__ import annotations

import functools

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from scoring.errors import PaijuError
from scoring.i18n import render
from scoring.inputs import strict_int
from scoring.registry import all_games, get_game

from .. import forms as game_forms
from ..errors import status_of
from ..extensions import htmx
from ..i18n import current_lang, page_message
from ..offline_page import at_table
from . import db as ledger_db
from . import seats as seat_changes
from . import service
from .errors import TableError, WriteConflict
from .exports import csv_filename, csv_text, qr_file, stored_csv
from .forms import (
    CreateTableForm,
    EditAttempt,
    RawInputForm,
    VersionForm,
    csrf_message,
    engine_error,
    next_hand_form,
    prefill,
    pretty,
    settle_form,
)
from .integrity import TableUnreadable, unreadable_page
from .models import LedgerTable
from .paging import asked_page
from .queries import check_token, find_table, get_table, hand_count, hand_numbered, next_of
from .settling import table_carried
from .table_rules import HandRules
from .views import (
    RECORDED,
    edit_table,
    live_fragment,
    moment,
    padded,
    picker,
    rules_form_of,
    table_page,
    unchanged,
)
from .web import EDIT_COOKIE, entry_url, first_hand, holds_edit_token, limit_creates, limit_writes, with_edit_cookie

bp = Blueprint("tables", __name__)


@bp.before_request
def _pages_schema():
    ledger_db.ensure_schema()


@bp.after_request
def _private(resp):
    # the edit link holds the token: never leak it in a Referer, never index a table
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Robots-Tag"] = "noindex, nofollow"
    resp.headers.setdefault("Cache-Control", "private, no-cache")
    resp.headers.add("Vary", "Cookie")
    return resp


@bp.errorhandler(PaijuError)
def _page_error(exc: PaijuError):
    status = status_of(exc)
    if isinstance(exc, TableUnreadable):
        return unreadable_page(exc, status)
    return render_template("tables/error.html", status=status,
                           message=page_message(exc)), status


# --- open a table -------------------------------------------------------------------

def _create_game():
    slug = request.values.get("game") or ""
    return get_game(slug) if slug else None


@bp.route("/tables/new", methods=["GET", "POST"])
@limit_creates
def new_table():
    game = _create_game()
    if game is None:
        if request.method == "POST":
            abort(400)
        return render_template("tables/new.html", game=None, choices=list(all_games()))
    form = CreateTableForm(data={"game": game.slug})
    rules_form = game_forms.rules_form_class(game)(request.form if request.method == "POST" else None,
                                                   prefix="rules")
    errors, offer = [], None
    switched = request.method == "POST" and game_forms.switch_preset(game, rules_form, request.form)
    if request.method == "POST" and request.form.get("action") != "refresh" and not switched:
        opened, offer = _open(game, form, rules_form, errors)
        if opened is not None:
            return opened
    return _new_table_page(game, form, rules_form, errors, offer)


def _open(game, form, rules_form, errors: list) -> tuple:
    """(the redirect to the new table's edit page, None), or (None, a preset to offer) with what went
    wrong on the form or in ``errors``."""
    if not form.validate():
        errors.append(csrf_message() if "csrf_token" in form.errors else gettext("请检查表单"))
        return None, None
    named = form.names()
    try:
        table_id, token = service.create_table(game.slug, [n for _, n in named], game_forms.rules_payload(rules_form))
    except PaijuError as exc:
        message = page_message(exc)
        if not _attach_create_error(form, rules_form, exc.field, named, message):
            errors.append(message)
        return None, game_forms.preset_offer(game, game_forms.rules_payload(rules_form), len(named))
    return with_edit_cookie(redirect(first_hand(table_id)), table_id, token), None


def _new_table_page(game, form, rules_form, errors: list, offer):
    try:
        lo, hi = game.seat_range(game_forms.rules_payload(rules_form))
    except PaijuError:
        lo, hi = game.seat_range()
    ctx = {"game": game, "form": form, "rules_form": rules_form, "errors": errors, "seats": range(hi), "required": lo,
           "offer": offer}
    status = 422 if errors or form.errors else 200
    if htmx and request.method == "POST":
        return render_template("tables/_new_panel.html", **ctx), status
    return render_template("tables/new.html", **ctx), status


def _add_error(field, message: str) -> None:
    field.errors = list(field.errors or []) + [message]


def _attach_create_error(form, rules_form, field, named, message) -> bool:
    if not field:
        return False
    if field.startswith("players[") and field.endswith("]"):
        try:
            index = named[int(field[8:-1])][0]
        except (ValueError, IndexError):
            return False
        _add_error(form[f"name_{index}"], message)
        return True
    if field.startswith("rules."):
        target = rules_form._fields.get(field.split(".", 1)[1])
        if target is not None:
            _add_error(target, message)
            return True
    return False


# --- the table page -------------------------------------------------------------------

@bp.get("/tables/<table_id>")
def view(table_id: str):
    """The read-only table; of an evening that has a next one, the next (``?stay=1``: this one, as the links
    to an earlier evening ask): a phone that opened the circle's link follows the season."""
    table = get_table(table_id)
    following = following_evening(table.id)
    if following is not None:
        return redirect(url_for("tables.view", table_id=following), 302)
    return table_page(table, None, editable=holds_edit_token(table))


@bp.get("/tables/<table_id>/live")
def live(table_id: str):
    """The read-only page's poll; once a next evening is opened, it moves the page there (``HX-Redirect``,
    and a live 下一晚 link for a page that does not move)."""
    quiet = unchanged(table_id)
    if quiet:
        return quiet
    following = following_evening(table_id)
    resp = live_fragment(get_table(table_id), False, following)
    if following is not None:
        resp.headers["HX-Redirect"] = url_for("tables.view", table_id=following)
    return resp


def following_evening(table_id: str) -> str | None:
    """The evening a read-only page moves on to: the next one, unless the page was asked to stay."""
    return None if request.args.get("stay") else next_of(table_id)


@bp.get("/tables/<table_id>/edit/live")
def edit_live(table_id: str):
    # a 204 tells no more than the public poll does, so it needs no token check
    return unchanged(table_id) or live_fragment(edit_table(table_id)[0], True)


@bp.get("/tables/<table_id>/edit/<token>")
def open_edit_link(table_id: str, token: str):
    """The edit link: keep its token in the table's cookie and go on to an address without it."""
    table = get_table(table_id)
    check_token(table, token)
    return with_edit_cookie(redirect(url_for("tables.edit", table_id=table.id), 303), table.id, token)


def _form_sent() -> list:
    """What the form sent, for its idempotency key (the CSRF token apart: a new page has a new one)."""
    return sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")


#: the refusals of a new hand that keep the form as typed, its key too (nothing was recorded)
KEPT_ON_REFUSAL = frozenset({"evening_closed", "seats_changed"})



def _refused(table: LedgerTable, token: str, message: str, status: int):
    """The edit page again, with what was refused over the form for the next hand."""
    return table_page(table, token, form=next_hand_form(table), errors=[message], status=status)


#: the refusals of new rules the 规则 panel shows beside the rules as posted (a stale page, a closed evening)
RULES_REFUSALS = frozenset({"stale_version", "evening_closed"})


# --- a hand recorded, undone, redone -------------------------------------------------------

@bp.route("/tables/<table_id>/edit", methods=["GET", "POST"])
@limit_writes
def edit(table_id: str):
    table, token = edit_table(table_id)
    if request.method == "GET":
        return table_page(table, token, form=next_hand_form(table))
    action = request.form.get("action")
    key = request.form.get("idempotency_key") or None
    form = settle_form(table, add_row=action[4:] if action and action.startswith("add:") else None)
    if action:
        return table_page(table, token, form=form, form_key=key)
    if not form.validate():
        errors = [csrf_message()] if "csrf_token" in form.errors else [gettext("请检查表单")]
        return table_page(table, token, form=form, errors=errors, status=400, form_key=key)
    carried = table_carried(table) or {}

    def payload():
        # the form shows the carried state read-only: the ledger supplies it (so does the phone: offline_page)
        data = at_table(get_game(table.game), form.to_payload(), carried)
        if "seated" in request.form:  # the seating the form was filled against (a form held from before: none)
            data["seated"] = request.form.getlist("seated")
        return data

    try:
        outcome = service.record_hand(table_id, token, payload, current_lang(), key=key, sent=_form_sent())
    except TableError as exc:
        if exc.code in KEPT_ON_REFUSAL:  # the evening closed or the seats changed since: what was typed stays
            return table_page(table, token, form=form, errors=[page_message(exc)], status=409, form_key=key)
        if exc.code != "idempotency_key_reused":
            raise
        # the form was saved once already and has been changed since (back, edit, save): keep what was
        # typed, say so, and give it a new key so that saving again records it as a new hand (a phone that
        # held it learns that its key was recorded: static/pwa.js)
        return table_page(table, token, form=form, errors=[page_message(exc)], status=422, already_recorded=True)
    except PaijuError as exc:
        return table_page(table, token, form=form, errors=engine_error(form, exc), status=422, form_key=key)
    # which hand this form became, for a phone that sent it held (static/held-in-phone.js compares it)
    if outcome.number is not None:
        flash(str(outcome.number), RECORDED)
    return redirect(entry_url(table_id), 303)


@bp.post("/tables/<table_id>/edit/undo")
@limit_writes
def undo(table_id: str):
    table, token = edit_table(table_id)
    form = VersionForm()
    if not form.validate():
        return _refused(table, token, csrf_message(), 400)
    try:
        service.undo_hand(table_id, token, request.form.get("number"), form.version.data or table.version)
    except WriteConflict as exc:
        return _refused(get_table(table_id), token, page_message(exc), 409)
    return redirect(entry_url(table_id), 303)


def _button(view):
    """A posted button of the edit page: the view gets the table and the token, once the CSRF check passed."""
    @functools.wraps(view)
    def checked(table_id: str):
        table, token = edit_table(table_id)
        if not VersionForm().validate():
            return _refused(table, token, csrf_message(), 400)
        return view(table_id, table, token)
    return checked


@bp.post("/tables/<table_id>/edit/redo")
@limit_writes
@_button
def redo(table_id: str, table: LedgerTable, token: str):
    """Put back the hand the last undo took; a second tap (or a resend) changes nothing."""
    number = request.form.get("number")
    if service.redo_hand(table_id, token, number):
        flash(gettext("第%(n)s局恢复了", n=number))
    return redirect(entry_url(table_id), 303)


# --- a hand deleted or edited ----------------------------------------------------------------

@bp.route("/tables/<table_id>/edit/hands/<int:number>/delete", methods=["GET", "POST"])
@limit_writes
def delete_hand(table_id: str, number: int):
    table, token = edit_table(table_id)
    hand = hand_numbered(table.id, number)
    form = VersionForm(data={"version": str(table.version)})
    errors = []
    if request.method == "POST":
        if not form.validate():
            errors.append(csrf_message())
        else:
            try:
                service.delete_hand(table_id, token, number, form.version.data or None)
            except WriteConflict as exc:
                errors.append(page_message(exc))
                table = get_table(table_id)
                form = VersionForm(formdata=None, data={"version": str(table.version)})
            else:
                return redirect(entry_url(table_id), 303)
    shown = hand.shown(current_lang(), table.players)
    return render_template("tables/confirm_delete.html", table=table, hand=hand, form=form,
                           deltas=padded(hand.deltas, table),
                           steps=shown.get("steps", []), errors=errors), (409 if errors else 200)


@bp.route("/tables/<table_id>/edit/hands/<int:number>", methods=["GET", "POST"])
@limit_writes
def edit_hand(table_id: str, number: int):
    table, token = edit_table(table_id)
    hand = hand_numbered(table.id, number)
    if request.method == "GET":
        raw_form = RawInputForm(data={"raw": pretty(hand.input)})
        seats = hand.seating()
        return _hand_page(table, hand, settle_form(table, data=prefill(table, hand.input, seats), seats=seats,
                                                   hand=hand),
                          raw_form, str(table.version))
    attempt = EditAttempt(table, hand)
    conflict = None
    if not attempt.errors:
        try:
            outcome = service.edit_hand(table_id, token, number, attempt.body, merge=True)
        except WriteConflict as exc:
            attempt.errors, attempt.status = [page_message(exc)], 409
            conflict = _conflict(table, number, attempt) if exc.code == "edit_conflict" else None
        except TableError:
            raise
        except PaijuError as exc:
            attempt.errors = engine_error(None if attempt.json else attempt.form, exc)
            attempt.status = status_of(exc)
        else:
            flash(_edited_message(number, list(outcome.resettled or ())))
            return redirect(entry_url(table_id), 303)
    return _hand_page(table, hand_numbered(table.id, number), attempt.form, attempt.raw_form,
                      conflict["version"] if conflict else attempt.version, attempt.errors, attempt.status,
                      conflict)


def _edited_message(number: int, resettled: list[int]) -> str:
    """What an edit says it changed: the hand, and the later hands it settled again."""
    if not resettled:
        return gettext("第%(n)s局已修改", n=number)
    sep = "、" if current_lang() == "zh" else ", "
    return gettext("第%(n)s局已修改；后面随之重算的：第%(later)s局", n=number,
                   later=sep.join(str(k) for k in resettled))


def _conflict(table: LedgerTable, number: int, attempt: EditAttempt) -> dict:
    """Both versions of a hand someone else changed: theirs (stored now) and mine (typed), in words."""
    game = get_game(table.game)
    theirs = hand_numbered(table.id, number)
    rules, names, lang = HandRules(table).of(theirs.rules), tuple(table.names_of(theirs.seating())), current_lang()
    try:
        mine = attempt.typed()
    except PaijuError:
        mine = {}
    words = [render(w, lang) for w in game.input_words(mine if isinstance(mine, dict) else {}, rules, names)]
    return {"version": str(get_table(table.id).version),
            "theirs": {"words": [render(w, lang) for w in game.input_words(theirs.input, rules, names)],
                       "deltas": padded(theirs.deltas, table), "edited": moment(theirs.edited_at)},
            "mine": {"words": words, "raw": pretty(mine)}}


def _hand_page(table, hand, form, raw_form, version, errors=(), status=200, conflict=None):
    shown = hand.shown(current_lang(), table.players)
    game = get_game(table.game)
    return render_template("tables/hand_edit.html", table=table, hand=hand, form=form,
                           raw_form=raw_form, version=version, errors=list(errors),
                           names=table.names_of(hand.seating()), deltas=padded(hand.deltas, table),
                           steps=shown.get("steps", []), picker=picker(game, table), game=game,
                           conflict=conflict), status


# --- players and seats ------------------------------------------------------------

@bp.post("/tables/<table_id>/edit/seats")
@limit_writes
@_button
def seats(table_id: str, table: LedgerTable, token: str):
    """Rename, swap seats, join, leave, replace (see :func:`.seats.change_seats`); seats are 1-based here."""
    change = {key: request.form.get(key) for key in ("kind", "name")}
    for key in ("seat", "other"):
        value = strict_int(request.form.get(key))
        change[key] = value - 1 if value is not None else request.form.get(key)
    try:
        seat_changes.change_seats(table_id, token, change)
    except TableError:
        raise
    except PaijuError as exc:
        return _refused(get_table(table_id), token, page_message(exc), 422)
    flash(gettext("座位已更新：%(names)s", names=" · ".join(get_table(table_id).names_of(
        get_table(table_id).seating()))))
    return redirect(entry_url(table_id), 303)


# --- the house rules, from the next hand on ------------------------------------------

@bp.post("/tables/<table_id>/edit/rules")
@limit_writes
@_button
def rules(table_id: str, table: LedgerTable, token: str):
    """The 规则 panel: new rules from the next hand on (:func:`.service.change_rules`); the hands recorded keep
    theirs. A refusal shows the page again with the panel open and the rules as posted."""
    rules_form = rules_form_of(table, request.form)
    try:
        answer = service.change_rules(table_id, token, {"version": request.form.get("version"),
                                                        "rules": game_forms.rules_payload(rules_form)})
    except PaijuError as exc:
        if isinstance(exc, TableError) and exc.code not in RULES_REFUSALS:
            raise
        return table_page(get_table(table_id), token, form=next_hand_form(table), status=status_of(exc),
                          rules_form=rules_form, rules_errors=[page_message(exc)])
    flash(gettext("规则已更新：从第%(n)s局起按新规则算", n=answer["from_hand"]))
    return redirect(entry_url(table_id), 303)


# --- the owner: rotate the edit link, delete the table ------------------------

@bp.post("/tables/<table_id>/edit/rotate")
@limit_writes
@_button
def rotate(table_id: str, table: LedgerTable, token: str):
    fresh = service.rotate_token(table_id, token)
    return with_edit_cookie(redirect(url_for("tables.edit", table_id=table_id, rotated=1) + "#owner", 303), table_id, fresh)


@bp.route("/tables/<table_id>/edit/delete", methods=["GET", "POST"])
@limit_writes
def delete_table(table_id: str):
    table, token = edit_table(table_id)
    form = VersionForm()
    errors = []
    if request.method == "POST":
        if form.validate():
            service.delete_table(table_id, token)
            resp = make_response(render_template("tables/deleted.html"))
            resp.delete_cookie(EDIT_COOKIE, path=f"/tables/{table_id}")
            return resp
        errors.append(csrf_message())
    return render_template("tables/confirm_delete_table.html", table=table, form=form,
                           hand_count=hand_count(table.id), game=get_game(table.game),
                           errors=errors), (400 if errors else 200)


# --- exports ----------------------------------------------------------------

@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str):
    """One row per hand: the deltas, the running totals, the input field by field in words, the steps (a
    table this version cannot read: every stored hand as it is)."""
    first, _limit = asked_page()
    following = None
    try:
        table = get_table(table_id)
        text, following = csv_text(table, current_lang(), first, functools.partial(_csv_from, table_id))
    except TableUnreadable:
        table = find_table(table_id)
        text = stored_csv(table)
    resp = make_response(text)
    if following is not None:
        resp.headers["Link"] = f'<{_csv_from(table_id, following)}>; rel="next"'
    resp.headers["Content-Type"] = "text/csv; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="{csv_filename(table)}"'
    return resp


def _csv_from(table_id: str, number: int) -> str:
    return url_for("tables.export_csv", table_id=table_id, hands_from=number, _external=True)


@bp.get("/tables/<table_id>/qr.svg")
def qr(table_id: str):
    table = get_table(table_id)
    resp = make_response(qr_file(url_for("circles.now", circle=table.circle_id, _external=True)))  # one for the season
    resp.headers["Content-Type"] = "image/svg+xml"
    return resp
