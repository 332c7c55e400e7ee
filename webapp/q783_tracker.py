"""Q783 round tracker: follow a live hand round by round.

Money changes hands every round 圈 in Q783, so the page keeps the hand's
set-up and its rounds (in the session, and in a hidden field so a plain post
works too) and replays them through the engine's own functions
(``scoring.q783.replay``) on every tap: banks update at once, undo drops the
last round, and the finishing order settles the penalty."""
from __future__ import annotations

import json

from flask import Blueprint, request, session
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import Optional as OptionalV

from scoring import q783
from scoring.errors import PaijuError
from scoring.games import get_game
from scoring.i18n import render

from . import forms
from .i18n import current_lang, page_message

bp = Blueprint("q783_tracker", __name__)
SESSION_KEY = "q783_tracker"
MAX_SEATS = 6


class TrackerForm(FlaskForm):
    state = HiddenField()
    players = StringField(_l("人数"), validators=[OptionalV()])
    teams = BooleanField(_l("组队"))
    winner = StringField(_l("这一圈谁赢"), validators=[OptionalV()])
    cards = StringField(_l("赢的那手牌"), validators=[OptionalV()])
    count = StringField(_l("这一圈赢家共出几张"), validators=[OptionalV()])
    rules = forms.make_rules_field(get_game("q783"))


for _i in range(MAX_SEATS):
    setattr(TrackerForm, f"name_{_i}", StringField(_l("名字"), validators=[OptionalV()]))
    setattr(TrackerForm, f"bank_{_i}", StringField(_l("分库"), validators=[OptionalV()]))
    setattr(TrackerForm, f"place_{_i}", StringField(validators=[OptionalV()]))


def _load_state(form) -> dict | None:
    raw = form.state.data
    if raw:
        try:
            data = json.loads(raw)
            if isinstance(data, dict):
                return data
        except ValueError:
            pass
    data = session.get(SESSION_KEY)
    return data if isinstance(data, dict) else None


def _replay(data: dict, game):
    rules = game.ruleset.resolve(data.get("rules") or {})
    return q783.replay(data["players"], data["teams"], data.get("banks"), data.get("rounds", []), rules,
                       data.get("finish_order"))


def _blank(v):
    return v is None or not str(v).strip()


@bp.route("/<any(q783):slug>/rounds", methods=["GET", "POST"])
def rounds(slug):
    from .pages import page, picker_config, render_csrf_error
    game = get_game("q783")
    form = TrackerForm()
    data = _load_state(form)
    errors, lang = [], current_lang()
    action = request.form.get("action", "") if request.method == "POST" else ""
    if request.method == "POST" and not form.validate():
        errors.append(render_csrf_error() if "csrf_token" in form.errors else str(form.errors))
        action = ""
    try:
        if action == "start":
            players = form.players.data or "4"
            try:
                n = max(3, min(MAX_SEATS, int(players)))
            except ValueError:
                n = 4
            banks = [form[f"bank_{i}"].data for i in range(n)]
            names = [(form[f"name_{i}"].data or "").strip() for i in range(n)]
            data = {"players": players, "teams": bool(form.teams.data),
                    "banks": None if all(_blank(b) for b in banks) else [b if not _blank(b) else 0 for b in banks],
                    "names": names, "rules": forms.rules_payload(form.rules.form), "rounds": [],
                    "finish_order": None}
            state, _ = _replay(data, game)  # validates the set-up
            data["players"], data["banks"] = state["players"], state["banks"]
        elif action == "round" and data:
            rnd = {"winner": form.winner.data}
            if not _blank(form.cards.data):
                rnd["cards"] = form.cards.data
            if not _blank(form.count.data):
                rnd["count"] = form.count.data
            state, _ = _replay(data, game)
            rules = game.ruleset.resolve(data.get("rules") or {})
            state, _ = q783.apply_round(state, rnd, rules)
            data["rounds"] = state["rounds"]
            form.cards.data = form.count.data = ""
        elif action == "undo" and data:
            if data.get("finish_order") is not None:
                data["finish_order"] = None
            elif data.get("rounds"):
                data["rounds"] = data["rounds"][:-1]
        elif action == "finish" and data:
            order = [form[f"place_{i}"].data for i in range(int(data["players"]))
                     if not _blank(form[f"place_{i}"].data)]
            candidate = dict(data, finish_order=order)
            _replay(candidate, game)
            data = candidate
        elif action == "next" and data:
            state, _ = _replay(data, game)
            data = dict(data, banks=state["banks"], rounds=[], finish_order=None)
        elif action == "reset":
            data = None
    except PaijuError as exc:
        message = page_message(exc, lang)
        target = {"players": "players", "teams": "teams", "finish_order": "place_0"}.get(exc.field or "")
        if exc.field and exc.field.startswith("rounds["):
            target = "cards" if "cards" in exc.field or "count" not in exc.field else "count"
            if exc.field.endswith("winner"):
                target = "winner"
        if exc.field and exc.field.startswith("banks"):
            idx = exc.field[6:-1] if exc.field.startswith("banks[") else "0"
            target = f"bank_{idx}"
        if not forms.attach_error(form, target or exc.field, message):
            errors.append(message)
    state = steps = None
    if data:
        try:
            state, steps = _replay(data, game)
            steps = render(steps, lang)
        except PaijuError as exc:  # a stale or tampered state: start again
            errors.append(page_message(exc, lang))
            data = None
    if data:
        session[SESSION_KEY] = data
        form.state.data = json.dumps(data, ensure_ascii=False)
    else:
        session.pop(SESSION_KEY, None)
        form.state.data = ""
    names = (data or {}).get("names") or []
    rules = game.ruleset.resolve((data or {}).get("rules") or {}) if data else game.ruleset.resolve({})
    return page(game, "q783_tracker.rounds", "game/q783_rounds.html", form=form, data=data, state=state,
                steps=steps, errors=errors, names=names, rules=rules, picker=picker_config(game, rules),
                round_labels=[_round_label(r, rules) for r in (data or {}).get("rounds", [])])


def _round_label(rnd: dict, rules) -> str:
    what = rnd.get("cards") or (str(rnd.get("count")) + ("张" if current_lang() == "zh" else " cards"))
    return f"{rnd.get('winner')} · {what}"


def init_app(app):
    app.register_blueprint(bp)
    from .pages import EXTRA_TABS
    EXTRA_TABS["q783"] = [("q783_tracker.rounds", "记圈", "Rounds")]
