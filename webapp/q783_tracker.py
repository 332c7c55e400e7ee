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
from scoring.i18n import render
from scoring.inputs import strict_int
from scoring.registry import get_game

from . import forms
from .errors import each_error
from .i18n import current_lang, page_message
from .render import page, picker_config, render_csrf_error

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


#: the shape of a followed hand, key by key (the hidden field can be tampered with: anything else is dropped)
_STATE_SHAPE = {"teams": lambda v: isinstance(v, bool),
                "banks": lambda v: v is None or isinstance(v, list),
                "names": lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
                "rules": lambda v: v is None or isinstance(v, dict),
                "rounds": lambda v: isinstance(v, list) and all(isinstance(r, dict) for r in v),
                "finish_order": lambda v: v is None or isinstance(v, list)}


def _well_formed(data) -> dict | None:
    """A followed hand of the shape this page writes, or None."""
    if not isinstance(data, dict) or strict_int(data.get("players")) not in range(3, MAX_SEATS + 1):
        return None
    if not all(check(data.get(key)) for key, check in _STATE_SHAPE.items()):
        return None
    return data


def _load_state(form) -> dict | None:
    raw = form.state.data
    if raw:
        try:
            data = _well_formed(json.loads(raw))
            if data is not None:
                return data
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            pass
    return _well_formed(session.get(SESSION_KEY))


def _replay(data: dict, game):
    rules = game.ruleset.resolve(data.get("rules") or {})
    return q783.replay(data["players"], data["teams"], data.get("banks"), data.get("rounds", []), rules,
                       data.get("finish_order"))


def _blank(v):
    return v is None or not str(v).strip()


def _start(form, data, game):
    n = max(3, min(MAX_SEATS, strict_int(form.players.data or "4") or 4))
    banks = [form[f"bank_{i}"].data for i in range(n)]
    names = [(form[f"name_{i}"].data or "").strip() for i in range(n)]
    data = {"players": form.players.data or "4", "teams": bool(form.teams.data),
            "banks": None if all(_blank(b) for b in banks) else [b if not _blank(b) else 0 for b in banks],
            "names": names, "rules": forms.rules_payload(form.rules.form), "rounds": [], "finish_order": None}
    state, _ = _replay(data, game)  # validates the set-up
    data["players"], data["banks"] = state["players"], state["banks"]
    return data


def _round(form, data, game):
    rnd = {"winner": form.winner.data}
    if not _blank(form.cards.data):
        rnd["cards"] = form.cards.data
    if not _blank(form.count.data):
        rnd["count"] = form.count.data
    state, _ = _replay(data, game)
    state, _ = q783.apply_round(state, rnd, game.ruleset.resolve(data.get("rules") or {}))
    form.cards.data = form.count.data = ""
    return dict(data, rounds=state["rounds"])


def _undo(form, data, game):
    if data.get("finish_order") is not None:
        return dict(data, finish_order=None)
    return dict(data, rounds=data.get("rounds", [])[:-1])


def _finish(form, data, game):
    order = [form[f"place_{i}"].data for i in range(int(data["players"])) if not _blank(form[f"place_{i}"].data)]
    candidate = dict(data, finish_order=order)
    _replay(candidate, game)
    return candidate


def _next(form, data, game):
    state, _ = _replay(data, game)
    return dict(data, banks=state["banks"], rounds=[], finish_order=None)


#: what each button does to the hand being followed (None: no hand yet)
ACTIONS = {"start": _start, "round": _round, "undo": _undo, "finish": _finish, "next": _next,
           "reset": lambda form, data, game: None}

#: engine error paths -> the tracker's own fields
_TARGETS = (("rounds[", "winner", "winner"), ("rounds[", "count", "count"), ("rounds[", "", "cards"),
            ("players", "", "players"), ("teams", "", "teams"), ("finish_order", "", "place_0"))


def _target(path: str | None) -> str | None:
    if not path:
        return None
    if path.startswith("banks"):
        return f"bank_{path[6:-1]}" if path.startswith("banks[") else "bank_0"
    return next((name for head, tail, name in _TARGETS if path.startswith(head) and path.endswith(tail)), path)


def _label(game, path: str) -> str | None:
    label = game.settle_input.label_of(path)
    return render(label, current_lang()) if label is not None else None


def _apply(action: str, form, data, game, errors: list) -> dict | None:
    handler = ACTIONS.get(action)
    if handler is None or (data is None and action not in ("start", "reset")):
        return data
    try:
        return handler(form, data, game)
    except PaijuError as exc:
        for err in each_error(exc):
            message = page_message(err, current_lang(), label_of=lambda path: _label(game, path))
            if not forms.attach_error(form, _target(err.field), message):
                errors.append(message)
        return data


def _replayed(data, game, errors):
    """The followed hand replayed (its state and steps), or (None, None, None) when it cannot be."""
    if not data:
        return None, None, None
    try:
        state, steps = _replay(data, game)
    except (PaijuError, KeyError, TypeError, ValueError) as exc:  # a stale or tampered state: start again
        errors.append(page_message(exc, current_lang()) if isinstance(exc, PaijuError)
                      else render_csrf_error())
        return None, None, None
    return data, state, render(steps, current_lang())


def _remember(form, data) -> None:
    if data:
        session[SESSION_KEY] = data
        form.state.data = json.dumps(data, ensure_ascii=False)
    else:
        session.pop(SESSION_KEY, None)
        form.state.data = ""


@bp.route("/<any(q783):slug>/rounds", methods=["GET", "POST"])
def rounds(slug):
    game = get_game("q783")
    form = TrackerForm()
    data = _load_state(form)
    errors = []
    action = request.form.get("action", "") if request.method == "POST" else ""
    if request.method == "POST" and not form.validate():
        errors.append(render_csrf_error())
        action = ""
    data = _apply(action, form, data, game, errors)
    data, state, steps = _replayed(data, game, errors)
    _remember(form, data)
    rules = game.ruleset.resolve((data or {}).get("rules") or {}) if data else game.ruleset.resolve({})
    return page(game, "q783_tracker.rounds", "game/q783_rounds.html", form=form, data=data, state=state,
                steps=steps, errors=errors, names=(data or {}).get("names") or [], rules=rules,
                picker=picker_config(game, rules),
                round_labels=[_round_label(r) for r in (data or {}).get("rounds", [])])


def _round_label(rnd: dict) -> str:
    what = rnd.get("cards") or (str(rnd.get("count")) + ("张" if current_lang() == "zh" else " cards"))
    return f"{rnd.get('winner')} · {what}"
