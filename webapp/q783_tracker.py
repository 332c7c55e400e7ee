"""Q783 round tracker: follow a live hand round by round.

Money changes hands every round 圈 in Q783, so the page keeps the hand's
set-up and its rounds (in the session, and in a hidden field so a plain post
works too) and replays them through the engine's own functions
(``scoring.q783.replay``) on every tap: banks update at once, undo drops the
last round, and the finishing order settles the penalty.

From a Q783 ledger table (``/tables/<id>/edit/rounds``) the tracker follows the table's next hand: its
players, house rules and carried banks, and "record" saves the followed hand as that hand through the
ledger's own :func:`webapp.ledger.service.record_hand`, with the followed hand's idempotency key (a double tap
records once)."""
from __future__ import annotations

import json
import secrets

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import Optional as OptionalV

from scoring import q783
from scoring.errors import InvalidInput, PaijuError
from scoring.i18n import render, t
from scoring.inputs import strict_int
from scoring.registry import get_game

from . import forms
from . import ledger as m
from .errors import each_error, status_of
from .extensions import htmx
from .i18n import current_lang, page_message
from .ledger import db as ledger_db
from .ledger.web import EDIT_COOKIE, limit_writes
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
    won_with = StringField(_l("赢的是"), validators=[OptionalV()])
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
    if not _utf8(data):  # a lone surrogate (sent as a \ud800 escape) could be neither shown nor kept
        return None
    return data


def _utf8(data: dict) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _load_state(form, key: str = SESSION_KEY) -> dict | None:
    raw = form.state.data
    if raw:
        try:
            data = _well_formed(json.loads(raw))
            if data is not None:
                return data
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            pass
    return _well_formed(session.get(key))


def _replay(data: dict, game):
    rules = game.ruleset.resolve(data.get("rules") or {})
    return q783.replay(data["players"], data["teams"], data.get("banks"), data.get("rounds", []), rules,
                       data.get("finish_order"))


def _blank(v):
    return v is None or not str(v).strip()


def _typed_banks(form, n: int):
    banks = [form[f"bank_{i}"].data for i in range(n)]
    return None if all(_blank(b) for b in banks) else [b if not _blank(b) else 0 for b in banks]


def _opened(data: dict, game) -> dict:
    state, _ = _replay(data, game)  # validates the set-up
    return dict(data, players=state["players"], banks=state["banks"])


def _start(form, data, game):
    n = max(3, min(MAX_SEATS, strict_int(form.players.data or "4") or 4))
    names = [(form[f"name_{i}"].data or "").strip() for i in range(n)]
    return _opened({"players": form.players.data or "4", "teams": bool(form.teams.data),
                    "banks": _typed_banks(form, n), "names": names, "rules": forms.rules_payload(form.rules.form),
                    "rounds": [], "finish_order": None}, game)


def _round(form, data, game):
    rnd = {"winner": form.winner.data}
    if not _blank(form.cards.data):
        rnd["cards"] = form.cards.data
    if not _blank(form.count.data):
        rnd["count"] = form.count.data
    if not _blank(form.won_with.data):
        rnd["won_with"] = form.won_with.data
    state, _ = _replay(data, game)
    state, _ = q783.apply_round(state, rnd, game.ruleset.resolve(data.get("rules") or {}))
    form.cards.data = form.count.data = form.won_with.data = ""
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
_TARGETS = (("rounds[", "winner", "winner"), ("rounds[", "count", "count"), ("rounds[", "won_with", "won_with"),
            ("rounds[", "", "cards"),
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


def _apply(action: str, form, data, game, errors: list, actions=ACTIONS) -> dict | None:
    handler = actions.get(action)
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
        errors.append(page_message(exc, current_lang(), label_of=lambda path: _label(game, path))
                      if isinstance(exc, PaijuError) else render_csrf_error())
        return None, None, None
    return data, state, render(steps, current_lang())


def _remember(form, data, key: str = SESSION_KEY) -> None:
    if data:
        session[key] = data
        form.state.data = json.dumps(data, ensure_ascii=False)
    else:
        session.pop(key, None)
        form.state.data = ""


def _posted_action(form, errors: list) -> str:
    """The button pressed ("" for a GET, or when the form's CSRF token failed)."""
    if request.method != "POST":
        return ""
    if not form.validate():
        errors.append(render_csrf_error())
        return ""
    return request.form.get("action", "")


def _show(game, form, data, state, steps, errors, **extra):
    rules = game.ruleset.resolve((data or {}).get("rules") or {})
    return page(game, "q783_tracker.rounds", "game/q783_rounds.html", form=form, data=data, state=state,
                steps=steps, errors=errors, names=(data or {}).get("names") or [], rules=rules,
                picker=picker_config(game, rules), won_with=won_with_options(rules),
                round_labels=[_round_label(r) for r in (data or {}).get("rounds", [])],
                tracker_url=extra.pop("tracker_url", url_for("q783_tracker.rounds", slug="q783")), **extra)


@bp.route("/<any(q783):slug>/rounds", methods=["GET", "POST"])
def rounds(slug):
    game = get_game("q783")
    form = TrackerForm()
    errors = []
    action = _posted_action(form, errors)
    data = _apply(action, form, _load_state(form), game, errors)
    data, state, steps = _replayed(data, game, errors)
    _remember(form, data)
    return _show(game, form, data, state, steps, errors)


def _round_label(rnd: dict) -> str:
    if rnd.get("cards"):
        what = rnd["cards"]
    elif rnd.get("won_with") in q783.WON_WITH:
        what = render(q783.WON_WITH[rnd["won_with"]][0], current_lang())
    else:
        what = str(rnd.get("count")) + ("张" if current_lang() == "zh" else " cards")
    return f"{rnd.get('winner')} · {what}"


def won_with_options(rules) -> list[tuple[str, str]]:
    """What can win a round under these rules (``scoring: pattern``), as (value, words) chips."""
    if rules.scoring != "pattern":
        return []
    return [(key, render(words, current_lang())) for key, (words, _) in q783.WON_WITH.items()
            if q783.won_with_allowed(key, rules)]


# -- following a ledger table's next hand ------------------------------------------------------------------

def _session_key(table_id: str) -> str:
    return f"{SESSION_KEY}:{table_id}"


def _editable_table(table_id: str):
    """The Q783 table and the edit token its cookie holds (403 without it; 404 for another game's table)."""
    ledger_db.ensure_schema()
    table = m.get_table(table_id)
    token = request.cookies.get(EDIT_COOKIE)
    m.check_token(table, token)
    if "rounds" not in get_game(table.game).tabs:
        abort(404)
    return table, token


def _last_number(table) -> int:
    last = m.last_hand(table.id)
    return last.number if last else 0


def _bound(data: dict, table, base: int | None = None, key: str | None = None) -> dict:
    """The followed hand tied to the table: its players, names and house rules are the table's, whatever was
    posted; ``base`` is the table's hand it follows on from, ``key`` its idempotency key."""
    return dict(data, players=len(table.players), names=list(table.players), rules=dict(table.rules),
                table=table.id, base=_last_number(table) if base is None else base,
                key=key or secrets.token_urlsafe(18))


def _from_table(table) -> dict | None:
    """The table's next hand, ready for its rounds when banks carry over from the last hand; None: the start
    (banks, teams) is still to be given."""
    carried = m.table_carried(table)
    if not carried:
        return None
    last = m.last_hand(table.id)
    teams = bool(last is not None and last.input.get("teams") is True)
    return _bound({"teams": teams, "banks": carried["banks"], "rounds": [], "finish_order": None}, table)


def _table_start(table, form, data, game):
    return _opened(_bound({"teams": bool(form.teams.data), "banks": _typed_banks(form, len(table.players)),
                           "rounds": [], "finish_order": None}, table), game)


def _rebased(data: dict, table) -> dict:
    """The followed hand after the table moved on: from the table's new last hand and its banks."""
    carried = m.table_carried(table)
    banks = carried["banks"] if carried else data.get("banks")
    return dict(data, banks=banks, base=_last_number(table))


def _answered(table, data) -> dict | None:
    """The ledger's answer when the followed hand was already recorded (its key used), else None."""
    if not data or data.get("table") != table.id or not m.valid_key(data.get("key")):
        return None
    return m.stored_answer(table.id, data["key"])


def _followed(table, data, notices: list) -> dict | None:
    """The posted hand, if it is this table's, tied to the table again; rebased if the table moved on."""
    if not data or data.get("table") != table.id or not m.valid_key(data.get("key")):
        return _from_table(table)
    base = data.get("base")
    if not isinstance(base, int) or isinstance(base, bool):
        return _from_table(table)
    data = _bound(data, table, base=base, key=data["key"])
    if base != _last_number(table):
        notices.append(_moved_on_text(table))
        return _rebased(data, table)
    return data


def _moved_on_text(table) -> str:
    return render(t("牌桌在你跟踪这一手时已记下了第{n}局：这一手改从牌桌现在的分库算起，请核对后再记下。",
                    "the table recorded hand {n} while you followed this one: this hand now starts from the "
                    "table's banks as they are; check it, then record it", n=_last_number(table)), current_lang())


def _moved_on(table) -> m.TableError:
    return m.TableError(t("牌桌在你跟踪这一手时已记下了第{n}局", "the table recorded hand {n} while you followed "
                          "this one", n=_last_number(table)), status=409, code="table_moved_on")


def _hand_input(data: dict, state: dict) -> dict:
    """The ledger hand's input: the replayed hand's canonical rounds and finishing order."""
    hand = {"players": state["players"], "teams": state["teams"], "rounds": state["rounds"],
            "finish_order": state.get("finish_order") or []}
    if data.get("banks") is not None:
        hand["banks"] = data["banks"]
    return hand


def _record(table, token, data, game) -> dict:
    """Save the followed hand as the table's next hand (the ledger's own write, with the hand's key)."""
    state, _ = _replay(data, game)
    if not (state["finished"] or state["game_over"]):
        raise InvalidInput(t("这一手还没结束：先填出完的顺序，再记到牌桌", "this hand is not over yet: give the "
                             "finishing order first, then record it"), field="finish_order", code="hand_open")
    hand = _hand_input(data, state)

    def get_input():  # under the table's lock: the hand follows on from the table's last hand, or nothing is written
        if _last_number(table) != data["base"]:
            raise _moved_on(table)
        if m.table_carried(table):
            hand.pop("banks", None)  # the ledger carries them over itself
        return hand

    return m.record_hand(table.id, token, get_input, current_lang(), key=data["key"])


def _back_to_table(table, answer: dict):
    target = url_for("tables.edit", table_id=table.id) + f"#hand-{answer['hand']['number']}"
    if htmx:
        return "", 204, {"HX-Redirect": target}
    return redirect(target, 303)


def _try_record(table, token, data, game, errors: list):
    """The redirect to the table once recorded; otherwise None, with what went wrong in ``errors``."""
    try:
        return _back_to_table(table, _record(table, token, data, game))
    except m.TableError as exc:
        if exc.status != 409:
            raise
        errors.append(_moved_on_text(table))
    except PaijuError as exc:
        errors.extend(page_message(err, current_lang(), label_of=lambda path: _label(game, path))
                      for err in each_error(exc))
    return None


def _table_actions(table) -> dict:
    actions = {k: v for k, v in ACTIONS.items() if k != "next"}
    actions["start"] = lambda form, data, game: _table_start(table, form, data, game)
    actions["reset"] = lambda form, data, game: _from_table(table)
    return actions


def _current(table, form, action: str, notices: list):
    """The hand being followed and the action still to do: (data, action, the ledger's answer when the
    hand was recorded already — a second tap, or a page from before)."""
    data = _load_state(form, _session_key(table.id))
    answer = _answered(table, data)
    if answer is not None:
        session.pop(_session_key(table.id), None)
        notices.append(render(t("这一手已记为第{n}局。", "this hand was recorded as hand {n}.",
                                n=answer["hand"]["number"]), current_lang()))
        return _from_table(table), "", answer
    data = _followed(table, data, notices)
    if notices and action == "record":  # rebased on what the table holds now: to be checked first
        action = ""
    return data, action, None


def _record_or_stay(table, token, data, game, errors):
    """(the redirect to the table once recorded, else None; the hand to show when it was not)."""
    done = _try_record(table, token, data, game, errors)
    if done is not None:
        session.pop(_session_key(table.id), None)
        return done, data
    return None, (_rebased(data, table) if data["base"] != _last_number(table) else data)


@bp.route("/tables/<table_id>/edit/rounds", methods=["GET", "POST"])
@limit_writes
def table_rounds(table_id: str):
    try:
        table, token = _editable_table(table_id)
    except m.TableError as exc:
        return render_template("tables/error.html", status=status_of(exc), message=page_message(exc)), status_of(exc)
    game, form, errors, notices = get_game("q783"), TrackerForm(), [], []
    action = _posted_action(form, errors)
    posted = action
    data, action, answer = _current(table, form, action, notices)
    if answer is not None and posted == "record":
        return _back_to_table(table, answer)
    if action == "record" and data is not None:
        done, data = _record_or_stay(table, token, data, game, errors)
        if done is not None:
            return done
    else:
        data = _apply(action, form, data, game, errors, _table_actions(table))
    data, state, steps = _replayed(data, game, errors)
    _remember(form, data, _session_key(table.id))
    return _show(game, form, data, state, steps, errors, notices=notices,
                 tracker_url=url_for("q783_tracker.table_rounds", table_id=table.id),
                 table={"id": table.id, "players": list(table.players), "next": _last_number(table) + 1,
                        "back": url_for("tables.edit", table_id=table.id)})
