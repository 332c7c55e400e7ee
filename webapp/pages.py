"""HTML pages: home, and for every game the tabs rules / check / hint / settle
(and, for trick games, "who wins this trick"). Each form posts to its own
URL; an htmx request gets only the panel back, a plain post the whole page."""
from __future__ import annotations

import re

from flask import Blueprint, abort, redirect, render_template, request, url_for

from scoring.errors import PaijuError
from scoring.i18n import render, seat_number
from scoring.inputs import bound, item_label, numbered
from scoring.registry import SLUGS, all_games, get_game
from scoring.result_view import result_view

from . import forms, schema_forms
from .errors import error_messages
from .examples import examples_for
from .render import kept_form_page, page, picker_config, render_csrf_error, tabs_for
from .i18n import COOKIE, current_lang

bp = Blueprint("pages", __name__)
SLUG = "<any(" + ",".join(SLUGS) + "):slug>"

def init_app(app):
    app.register_blueprint(bp)

    @app.context_processor
    def _globals():
        lang = current_lang()
        return {"lang": lang, "T": lambda value: render(value, lang), "games": all_games(),
                "item_label": item_label, "numbered": numbered, "bound": bound,
                "blank_row": schema_forms.blank_row, "seat_options": schema_forms.seat_options,
                "choice_options": schema_forms.choice_options, "value_options": schema_forms.value_options,
                "tabs_for": tabs_for, "seat_no": seat_number,
                "result_view": lambda game, action, result, names=(): result_view(game, action, result, lang,
                                                                                   names or ()),
                "option_choices": forms.option_choices, "rule_words": forms.rule_words,
                "preset_words": forms.preset_words,
                "rform_has_values": _rules_given,
                "has_tables": "tables.new_table" in app.view_functions}


@bp.after_request
def _vary(resp):
    resp.headers.add("Vary", "HX-Request")
    resp.headers.add("Vary", "Cookie")
    return resp


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/lang/<code>")
def set_lang(code: str):
    target = request.args.get("next", "")
    resp = redirect(target if is_local_path(target) else url_for("pages.home"))
    if code in ("zh", "en"):
        resp.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax", secure=request.is_secure,
                        httponly=True)
    return resp


#: a path on this site: one slash, then no second slash or backslash (browsers read "/\\x" as "//x"),
#: and no control character or space (a CR LF would split the Location header)
LOCAL_PATH = re.compile(r"/(?![/\\])[^\x00-\x20\x7f-\x9f\\]*")


def is_local_path(target: str) -> bool:
    return LOCAL_PATH.fullmatch(target) is not None


def game_or_404(slug: str):
    game = get_game(slug)
    if game is None:
        abort(404)
    return game


def _resolved_rules(game, form):
    try:
        return game.ruleset.resolve(form.rules_payload())
    except PaijuError:
        return game.ruleset.resolve({})


def run_action(game, action: str, form, payload_fn=None, engine=None):
    """Validate the form (CSRF), run the engine (``engine(action, payload)``: ``game.run`` unless given), put errors
    on fields."""
    result, errors = None, []
    if request.method != "POST" or request.form.get("action") == "refresh":
        return result, errors
    if not form.validate():
        if "csrf_token" in form.errors:
            errors.append(render_csrf_error())
        return result, errors
    try:
        payload = payload_fn() if payload_fn else form.payload()
        result = render((engine or game.run)(action, payload), current_lang())
    except PaijuError as exc:
        errors = error_messages(form, exc)
    return result, errors


@bp.get(f"/{SLUG}/")
def game_home(slug):
    return redirect(url_for("pages.rules", slug=slug))


@bp.get(f"/{SLUG}/rules")
def rules(slug):
    game = game_or_404(slug)
    trump, order = _order_drawing(game, request.args.get("trump", "♠"))
    return page(game, "rules", "game/rules.html", examples=examples_for(game, current_lang()), order=order,
                trump=trump)


def _order_drawing(game, trump: str):
    """The game's card order for a trump suit, as (label, cards) rows; (None, None) for games without one."""
    default_rules = game.ruleset.resolve({})
    try:
        rows = game.order_rows(trump, default_rules)
    except PaijuError:
        trump, rows = "♠", game.order_rows("♠", default_rules)
    if rows is None:
        return None, None
    return trump, [(render(label, current_lang()), " ".join(str(c) for c in cards)) for label, cards in rows]


@bp.route(f"/{SLUG}/check", methods=["GET", "POST"])
def check(slug):
    game = game_or_404(slug)
    form = forms.action_form_class(game, "check")()
    result, errors = run_action(game, "check", form)
    table_readings = None
    if request.method == "POST" and form.has_entry("table_reading"):  # the table's play read in several ways
        table_readings = _classify(game, form.previous.data, form)
    return page(game, "check", "game/check.html", form=form, result=result, errors=errors,
                table_readings=table_readings, **_pickers(game, form))


def _classify(game, cards, form):
    """Every reading of some cards (largest first), or None when they cannot be read."""
    if not cards or not cards.strip():
        return None
    try:
        out = render(game.run("classify", {"cards": cards, "rules": form.rules_payload()}), current_lang())
    except PaijuError:
        return None
    return out.get("readings") or None


def _form_tab(slug: str, tab: str):
    """A tab whose form posts one engine action of the same name (hint, trick)."""
    game = game_or_404(slug)
    if tab not in game.tabs:
        abort(404)
    kept = kept_form_page()
    if kept is not None:
        return kept
    form = forms.action_form_class(game, tab)()
    result, errors = run_action(game, tab, form)
    return page(game, tab, f"game/{tab}.html", form=form, result=result, errors=errors, **_pickers(game, form))


def _pickers(game, form) -> dict:
    """The card picker for the form's card fields: ``picker`` for any, ``pickers`` by field where the game
    leaves ranks out (a Q783 hand holds no score card)."""
    rules = _resolved_rules(game, form)
    return {"picker": picker_config(game, rules),
            "pickers": {d.name: picker_config(game, rules, d.name) for d in form.declared}}


@bp.route(f"/{SLUG}/hint", methods=["GET", "POST"])
def hint(slug):
    return _form_tab(slug, "hint")


@bp.route(f"/{SLUG}/trick", methods=["GET", "POST"])
def trick(slug):
    return _form_tab(slug, "trick")


@bp.route(f"/{SLUG}/bidding", methods=["GET", "POST"])
def bidding(slug):
    return _form_tab(slug, "bidding")


@bp.route(f"/{SLUG}/settle", methods=["GET", "POST"])
def settle(slug):
    game = game_or_404(slug)
    kept = kept_form_page()
    if kept is not None:
        return kept
    post = schema_forms.SettlePost.read(game, request.form if request.method == "POST" else None, request.args)
    rules_form = forms.rules_form_class(game)(request.form if post.posted is not None else None, prefix="rules")
    if post.switched is not None:
        rules_form.preset.data = post.switched
    rules_form.given = post.rules_given  # what the rules panel shows as given (not read again)
    action = post.action
    form = schema_forms.settle_form(game, post.rules, post.seats, add_row=action[4:] if action.startswith("add:")
                                    else None, posted=post.posted)
    result, errors, offer = None, [], None
    if post.posted is not None and not action:
        payload = {**form.to_payload(), "rules": post.rules_given}
        result, errors = run_action(game, "settle", form, payload_fn=lambda: payload,
                                    engine=lambda _action, given: post.settle(game, given).to_json())
        if result is None:  # refused: maybe by the seat count these rules play with
            offer = forms.preset_offer(game, post.rules_given, game.seats_given(payload))
    return page(game, "settle", "game/settle.html", form=form, rules_form=rules_form, result=result,
                errors=errors, names=form.names_given(), picker=picker_config(game, post.rules), offer=offer)


def _rules_given(rules_form) -> bool:
    """Whether the rules panel holds options of its own (read once by the page when it has: ``given``)."""
    given = getattr(rules_form, "given", None)
    return any(k != "preset" for k in (given if given is not None else forms.rules_payload(rules_form)))
