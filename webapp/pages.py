"""HTML pages: home, and for every game the tabs rules / check / hint / settle
(and, for trick games, "who wins this trick"). Each form posts to its own
URL; an htmx request gets only the panel back, a plain post the whole page."""
from __future__ import annotations

import importlib
import json
from urllib.parse import urlparse

from flask import Blueprint, abort, redirect, render_template, request, url_for

from scoring.cards import BIG, LITTLE, RANK_NAMES, SUITS, Deck
from scoring.errors import PaijuError
from scoring.games import SLUGS, all_games, get_game
from scoring.i18n import render, t

from . import forms, settle_forms
from .extensions import htmx
from .i18n import COOKIE, current_lang, page_message

bp = Blueprint("pages", __name__)
SLUG = "<any(" + ",".join(SLUGS) + "):slug>"

TABS = [("rules", "规则", "Rules"), ("check", "检查", "Check"), ("hint", "提示", "Hint"),
        ("settle", "结算", "Settle")]
TRICK_TABS = [("trick", "谁赢这墩", "Trick winner"), ("bidding", "叫分", "Bidding")]
EXTRA_TABS = {}  # slug -> [(endpoint, zh, en)] added by game-specific pages


def init_app(app):
    from . import q783_tracker
    app.register_blueprint(bp)
    q783_tracker.init_app(app)

    @app.context_processor
    def _globals():
        lang = current_lang()
        return {"lang": lang, "T": lambda value: render(value, lang), "games": all_games(),
                "tr": lambda zh, en: en if lang == "en" else zh,
                "option_choices": forms.option_choices,
                "rform_has_values": lambda rf: any(k != "preset" for k in forms.rules_payload(rf)),
                "has_tables": "tables.new_table" in app.view_functions}


@bp.after_request
def _vary(resp):
    resp.headers.add("Vary", "HX-Request")
    resp.headers.add("Vary", "Cookie")
    return resp


def render_error(status: int):
    return render_template("error.html", status=status), status


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/lang/<code>")
def set_lang(code: str):
    target = request.args.get("next") or url_for("pages.home")
    parsed = urlparse(target)
    if parsed.scheme or parsed.netloc or not target.startswith("/"):
        target = url_for("pages.home")
    resp = redirect(target)
    if code in ("zh", "en"):
        resp.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax")
    return resp


def game_or_404(slug: str):
    game = get_game(slug)
    if game is None:
        abort(404)
    return game


def tabs_for(game):
    tabs = list(TABS)
    if game.kind == "trick":
        tabs += TRICK_TABS
    tabs += EXTRA_TABS.get(game.slug, [])
    return tabs


def picker_config(game, rules) -> str:
    """What the card picker offers for this game and these rules (JSON)."""
    deck = game.deck_for(rules) if game.deck_for else Deck(2, True)
    distinct = set(deck.all_cards())
    suits = [s.symbol for s in SUITS if any(c.suit == s for c in distinct)]
    ranks = [RANK_NAMES[r] for r in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
             if any(c.rank == r for c in distinct)]
    jokers = [str(j) for j in (BIG, LITTLE) if j in distinct]
    return json.dumps({"suits": suits, "ranks": ranks, "jokers": jokers, "bare": bool(game.bare_ranks)},
                      ensure_ascii=False)


def page(game, tab: str, template: str, **ctx):
    ctx.update(game=game, tab=tab, tabs=tabs_for(game))
    if htmx and request.method == "POST":
        return render_template(template, partial=True, **ctx)
    return render_template(template, partial=False, **ctx)


def _resolved_rules(game, form):
    try:
        return game.ruleset.resolve(form.rules_payload())
    except PaijuError:
        return game.ruleset.resolve({})


def run_action(game, action: str, form, payload_fn=None):
    """Validate the form (CSRF), run the engine, put errors on fields."""
    result, errors = None, []
    if request.method != "POST" or request.form.get("action") == "refresh":
        return result, errors
    if not form.validate():
        if "csrf_token" in form.errors:
            errors.append(render_csrf_error())
        return result, errors
    try:
        payload = payload_fn() if payload_fn else form.payload()
        result = render(game.run(action, payload), current_lang())
    except PaijuError as exc:
        message = page_message(exc)
        if not forms.attach_error(form, exc.field, message):
            errors.append(message)
    return result, errors


def render_csrf_error():
    return render(t("表单已失效，请刷新页面后再提交。", "This form has expired: reload the page and submit again."),
                  current_lang())


@bp.get(f"/{SLUG}/")
def game_home(slug):
    return redirect(url_for("pages.rules", slug=slug))


@bp.get(f"/{SLUG}/rules")
def rules(slug):
    game = game_or_404(slug)
    examples, order, trump = [], None, None
    if game.built:
        from .examples import examples_for
        examples = examples_for(game, current_lang())
        order_for = getattr(importlib.import_module(f"scoring.{slug}"), "order_for", None)
        if game.kind == "trick" and order_for is not None:
            trump = request.args.get("trump", "♠")
            try:
                order = order_for(trump, game.ruleset.resolve({}))
            except PaijuError:
                trump = "♠"
                order = order_for(trump, game.ruleset.resolve({}))
            order = [(render(label, current_lang()), " ".join(str(c) for c in cards)) for label, cards in order]
    return page(game, "rules", "game/rules.html", examples=examples, order=order, trump=trump)


@bp.route(f"/{SLUG}/check", methods=["GET", "POST"])
def check(slug):
    game = game_or_404(slug)
    if not game.built:
        return page(game, "check", "game/coming.html")
    form = forms.check_form_class(game)()
    result, errors = run_action(game, "check", form)
    readings = table_readings = None
    if request.method == "POST" and game.kind == "shedding" and "classify" in game.actions:
        readings = _classify(game, form.play.data, form)
        table_readings = _classify(game, form.previous.data, form)
    return page(game, "check", "game/check.html", form=form, result=result, errors=errors,
                readings=readings, table_readings=table_readings,
                picker=picker_config(game, _resolved_rules(game, form)))


def _classify(game, cards, form):
    """Every reading of some cards (largest first), or None when they cannot be read."""
    if not cards or not cards.strip():
        return None
    try:
        out = render(game.run("classify", {"cards": cards, "rules": form.rules_payload()}), current_lang())
    except PaijuError:
        return None
    return out.get("readings") or None


def _form_tab(slug: str, tab: str, form_class, trick_only: bool = False):
    """A tab whose form posts one engine action of the same name (hint, trick)."""
    game = game_or_404(slug)
    if trick_only and game.kind != "trick":
        abort(404)
    if not game.built:
        return page(game, tab, "game/coming.html")
    form = form_class(game)()
    result, errors = run_action(game, tab, form)
    return page(game, tab, f"game/{tab}.html", form=form, result=result, errors=errors,
                picker=picker_config(game, _resolved_rules(game, form)))


@bp.route(f"/{SLUG}/hint", methods=["GET", "POST"])
def hint(slug):
    return _form_tab(slug, "hint", forms.hint_form_class)


@bp.route(f"/{SLUG}/trick", methods=["GET", "POST"])
def trick(slug):
    return _form_tab(slug, "trick", forms.trick_form_class, trick_only=True)


@bp.route(f"/{SLUG}/bidding", methods=["GET", "POST"])
def bidding(slug):
    return _form_tab(slug, "bidding", forms.bidding_form_class, trick_only=True)


@bp.route(f"/{SLUG}/settle", methods=["GET", "POST"])
def settle(slug):
    game = game_or_404(slug)
    if not game.built or "settle" not in game.actions or not settle_forms.has_settle_form(slug):
        return page(game, "settle", "game/coming.html")
    rules_form = forms.rules_form_class(game)(request.form if request.method == "POST" else None,
                                              prefix="rules")
    rules_dict = forms.rules_payload(rules_form)
    try:
        rules = game.ruleset.resolve(rules_dict)
    except PaijuError:
        rules = game.ruleset.resolve({})
    players = settle_forms.players_for(slug, rules, request.form if request.method == "POST" else request.args)
    form = settle_forms.settle_form(slug, players)
    result, errors = None, []
    if request.method == "POST" and request.form.get("action") != "refresh":
        form.rules_payload = lambda: rules_dict
        result, errors = run_action(game, "settle", form,
                                    payload_fn=lambda: {**form.to_payload(), "rules": rules_dict})
    return page(game, "settle", "game/settle.html", form=form, rules_form=rules_form, result=result,
                errors=errors, names=form.names(), picker=picker_config(game, rules))
