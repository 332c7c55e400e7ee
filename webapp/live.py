"""The live page: follow a hand as it is played, round by round, for every game that declares the live-hand
protocol (``Game.live_hand``, :class:`scoring.live.LiveHand`).

The page keeps the hand (in the session, and in a hidden field so a plain post works too) as the protocol
keeps it, with the seats' names and the house rules, and asks the protocol to read it back on every tap: the
banks update at once, undo drops the last round, and the finish settles the hand. Its forms come from the
declared inputs of a hand's start, of one round and of its finish.

From a ledger table of such a game (``/tables/<id>/edit/rounds``) the page follows the table's next hand: its
seated players, house rules and carried state, and "record" saves the followed hand as that hand through the
ledger's own ``record_hand``, with the followed hand's idempotency key (a double tap records once)."""
from __future__ import annotations

import json
import secrets
from functools import cache

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import Optional as OptionalV

from scoring.errors import InvalidInput, PaijuError
from scoring.i18n import Text, render, seat_name, t
from scoring.inputs import CardsField, PerSeatField, SeatOrderField, SwitchField, strict_int
from scoring.registry import all_games, get_game

from . import forms
from .errors import each_error, status_of
from .extensions import htmx
from .i18n import current_lang, page_message
from .render import page, picker_config, render_csrf_error

# isort: split
# the ledger, through these names only (its record_hand, get_table, check_token, last_hand, table_carried,
# stored_answer, valid_key, TableError)
from . import ledger as m
from .ledger import db as ledger_db
from .ledger.web import EDIT_COOKIE, limit_writes

bp = Blueprint("live", __name__)
SESSION_KEY = "live_hand"
#: the games with a live page
LIVE_SLUGS = tuple(g.slug for g in all_games() if g.live_hand is not None)
SLUG = f"<any({','.join(LIVE_SLUGS)}):slug>"


# -- the form, from the declared inputs ------------------------------------------------------------------------

def per_seat_name(field, seat: int) -> str:
    """The form's box for one seat of a per-seat field (``banks`` → ``bank_0``), or of the finish's order."""
    stem = "place" if isinstance(field, SeatOrderField) else field.name.removesuffix("s")
    return f"{stem}_{seat}"


def _boxes(fields, seats: int) -> dict:
    """The form's boxes for declared fields: one a seat for a per-seat field or a seat order."""
    out = {}
    for field in fields:
        if isinstance(field, (PerSeatField, SeatOrderField)):
            out.update({per_seat_name(field, i): StringField(validators=[OptionalV()]) for i in range(seats)})
        elif isinstance(field, SwitchField):
            out[field.name] = BooleanField()
        else:
            out[field.name] = StringField(validators=[OptionalV()])
    return out


@cache
def form_class(game):
    """The page's form for a game: the hand's state, the start's, a round's and the finish's fields, the seats'
    names and the house rules."""
    live, seats = game.live_hand, game.seat_range()[1]
    fields = {"state": HiddenField(), "rules": forms.make_rules_field(game),
              **{f"name_{i}": StringField(validators=[OptionalV()]) for i in range(seats)},
              **_boxes(live.start_input.fields + live.round_input.fields + live.finish_input.fields, seats)}
    return type(f"LiveForm_{game.slug}", (FlaskForm,), fields)


# -- the followed hand, as the page keeps it -----------------------------------------------------------------

def _is_list_or_none(v) -> bool:
    return v is None or isinstance(v, list)


def _shape(game) -> dict:
    """The shape of a followed hand, key by key (the hidden field can be tampered with: anything else is
    dropped)."""
    live = game.live_hand
    shape = {"names": lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
             "rules": lambda v: v is None or isinstance(v, dict),
             live.rounds_field: lambda v: isinstance(v, list) and all(isinstance(r, dict) for r in v)}
    for field in live.start_input.fields + live.finish_input.fields:
        if isinstance(field, SwitchField):
            shape[field.name] = lambda v: isinstance(v, bool)
        elif isinstance(field, (PerSeatField, SeatOrderField)):
            shape[field.name] = _is_list_or_none
    return shape


def seats_of(game, data: dict) -> int | None:
    """How many seats the kept hand has, when the game plays with that many."""
    lo, hi = game.seat_range()
    seats = strict_int(data.get(game.live_hand.start_input.seats_field))
    return seats if seats in range(lo, hi + 1) else None


def _well_formed(game, data) -> dict | None:
    """A followed hand of the shape this page writes, or None."""
    if not isinstance(data, dict) or seats_of(game, data) is None:
        return None
    if not all(check(data.get(key)) for key, check in _shape(game).items()):
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


def _load_state(game, form, key: str = SESSION_KEY) -> dict | None:
    raw = form.state.data
    if raw:
        try:
            data = _well_formed(game, json.loads(raw))
            if data is not None:
                return data
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            pass
    return _well_formed(game, session.get(key))


def rules_of(game, data: dict | None):
    return game.ruleset.resolve((data or {}).get("rules") or {})


def _blank(v) -> bool:
    return v is None or not str(v).strip()


def _typed_per_seat(form, field, seats: int):
    values = [form[per_seat_name(field, i)].data for i in range(seats)]
    return None if all(_blank(v) for v in values) else [v if not _blank(v) else 0 for v in values]


def _posted(form, field, seats: int):
    """What the page's boxes for a declared field hold, as the game reads it (a seat order: the seats given, in
    order; a per-seat field left blank: not given)."""
    if isinstance(field, SeatOrderField):
        boxes = [form[per_seat_name(field, i)].data for i in range(seats)]
        return [b for b in boxes if not _blank(b)]
    if isinstance(field, PerSeatField):
        return _typed_per_seat(form, field, seats)
    if isinstance(field, SwitchField):
        return bool(form[field.name].data)
    return form[field.name].data


def _posted_start(game, form, seats: int) -> dict:
    """The start's values as posted, the number of seats apart."""
    start = game.live_hand.start_input
    return {f.name: _posted(form, f, seats) for f in start.fields if f.name != start.seats_field}


def _opened(data: dict, game) -> dict:
    """The new hand, read by the game (which refuses a wrong start) and kept as it read it."""
    live = game.live_hand
    state = live.restore(data, rules_of(game, data))
    return {**data, **state.start, live.rounds_field: [], **live.open_finish()}


def _start(form, data, game):
    seats_field = game.live_hand.start_input.field(game.live_hand.start_input.seats_field)
    lo, hi = game.seat_range()
    posted = form[seats_field.name].data or str(seats_field.default)
    seats = max(lo, min(hi, strict_int(posted) or seats_field.default))
    names = [(form[f"name_{i}"].data or "").strip() for i in range(seats)]
    return _opened({seats_field.name: posted, **_posted_start(game, form, seats), "names": names,
                    "rules": forms.rules_payload(form.rules.form)}, game)


def _round(form, data, game):
    live = game.live_hand
    rnd = {f.name: form[f.name].data for f in live.round_input.fields if f.required or not _blank(form[f.name].data)}
    state = live.add(data, rnd, rules_of(game, data))
    for field in live.round_input.fields:
        if not field.required:
            form[field.name].data = ""
    return dict(data, **{live.rounds_field: list(state.rounds)})


def _undo(form, data, game):
    return game.live_hand.undo(data)


def _finish(form, data, game):
    live, seats = game.live_hand, seats_of(game, data)
    values = {f.name: _posted(form, f, seats) for f in live.finish_input.fields}
    finished, _ = live.finish(data, values, rules_of(game, data))
    return finished


def _next(form, data, game):
    live = game.live_hand
    state = live.restore(data, rules_of(game, data))
    return {**data, **live.next_start(state), live.rounds_field: [], **live.open_finish()}


#: what each button does to the hand being followed (None: no hand yet)
ACTIONS = {"start": _start, "round": _round, "undo": _undo, "finish": _finish, "next": _next,
           "reset": lambda form, data, game: None}


def _target(live, path: str | None) -> str | None:
    """The page's box for an engine error's field path."""
    if not path:
        return None
    for field in live.start_input.fields + live.finish_input.fields:
        if path.startswith(field.name) and isinstance(field, (PerSeatField, SeatOrderField)):
            seat = path[len(field.name) + 1:-1] if path.startswith(f"{field.name}[") else "0"
            return per_seat_name(field, 0 if isinstance(field, SeatOrderField) else seat)
    if path.startswith(f"{live.rounds_field}["):
        sub = path.rpartition(".")[2] if "." in path else ""
        names = [f.name for f in live.round_input.fields]
        cards = next((f.name for f in live.round_input.fields if isinstance(f, CardsField)), names[0])
        return sub if sub in names else cards
    return path


def _label(game, path: str) -> str | None:
    label = game.settle_input.label_of(path)
    return render(label, current_lang()) if label is not None else None


def _messages(game, exc: PaijuError):
    for err in each_error(exc):
        yield err, page_message(err, current_lang(), label_of=lambda path: _label(game, path))


def _apply(action: str, form, data, game, errors: list, actions=ACTIONS) -> dict | None:
    handler = actions.get(action)
    if handler is None or (data is None and action not in ("start", "reset")):
        return data
    try:
        return handler(form, data, game)
    except PaijuError as exc:
        for err, message in _messages(game, exc):
            if not forms.attach_error(form, _target(game.live_hand, err.field), message):
                errors.append(message)
        return data


def _replayed(data, game, errors):
    """The followed hand read back (with its steps in words), or (None, None, None) when it cannot be."""
    if not data:
        return None, None, None
    try:
        state = game.live_hand.restore(data, rules_of(game, data))
    except (PaijuError, KeyError, TypeError, ValueError) as exc:  # a stale or tampered state: start again
        errors.append(page_message(exc, current_lang(), label_of=lambda path: _label(game, path))
                      if isinstance(exc, PaijuError) else render_csrf_error())
        return None, None, None
    return data, state, render(list(state.steps), current_lang())


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


def _round_label(live, rnd: dict, names) -> str:
    """A recorded round: who won it (the seat's number and name) and what won it."""
    who = strict_int(rnd.get(live.round_input.fields[0].name))
    seat = render(seat_name(who), current_lang()) if who is not None else "?"
    name = names[who] if who is not None and 0 <= who < len(names) and names[who] else ""
    return f"{seat}{' · ' + name if name else ''} · {render(live.round_words(rnd), current_lang())}"


def _shown_fields(live, fields, rules, ctx) -> list[dict]:
    """Declared fields shown under these rules, each with its one-tap choices: a choice field's values under
    these rules (one with none is not shown), a number's chips."""
    out = []
    for field in fields:
        if not field.shown_under(rules):
            continue
        if field.entry == "choice":
            choices = [(v, render(w, current_lang())) for v, w in live.choices(field.name, rules)]
            if not choices:
                continue
        else:
            chips = field.chip_values(ctx) if hasattr(field, "chip_values") else ()
            choices = [(str(v), str(v)) for v in chips]
        out.append({"field": field, "label": render(field.label, current_lang()), "choices": choices})
    return out


def _round_fields(live, rules, ctx) -> list[dict]:
    return _shown_fields(live, live.round_input.fields, rules, ctx)


def _other_fields(live, fields, rules, ctx) -> list[dict]:
    """The fields the page draws itself (seats, a seat order, per-seat boxes and switches apart)."""
    drawn = ("per_seat", "switch", "tap_order")
    return [item for item in _shown_fields(live, fields, rules, ctx)
            if item["field"].entry not in drawn and item["field"].name != live.start_input.seats_field]


def capfirst(text) -> str:
    shown = render(text, current_lang())
    return shown[:1].upper() + shown[1:]


def _words(live, data) -> dict[str, str]:
    """The game's words for its page, in the page's language (``{k}``: the number of the next round)."""
    k = len((data or {}).get(live.rounds_field) or []) + 1
    return {key: render(Text(text.zh, text.en, {**text.params, "k": k}), current_lang())
            for key, text in live.words.items()}


def _show(game, form, data, state, steps, errors, **extra):
    live, rules = game.live_hand, rules_of(game, data)
    ctx = game.input_context(rules)
    return page(game, "live.rounds", "live/rounds.html", form=form, data=data, state=state, live=live,
                steps=steps, errors=errors, names=(data or {}).get("names") or [], rules=rules, words=_words(live, data),
                seats=seats_of(game, data) if data else None, seat_range=game.seat_range(), cap=capfirst,
                picker=picker_config(game, rules),
                round_fields=_round_fields(live, rules, ctx), per_seat_name=per_seat_name,
                start_fields=_other_fields(live, live.start_input.fields, rules, ctx),
                finish_fields=_other_fields(live, live.finish_input.fields, rules, ctx),
                round_labels=[_round_label(live, r, (data or {}).get("names") or [])
                              for r in (data or {}).get(live.rounds_field, [])],
                tracker_url=extra.pop("tracker_url", url_for("live.rounds", slug=game.slug)), **extra)


@bp.route(f"/{SLUG}/rounds", methods=["GET", "POST"])
def rounds(slug):
    game = get_game(slug)
    form = form_class(game)()
    errors = []
    action = _posted_action(form, errors)
    data = _apply(action, form, _load_state(game, form), game, errors)
    data, state, steps = _replayed(data, game, errors)
    _remember(form, data)
    return _show(game, form, data, state, steps, errors)


# -- following a ledger table's next hand ------------------------------------------------------------------

def _session_key(table_id: str) -> str:
    return f"{SESSION_KEY}:{table_id}"


def _editable_table(table_id: str):
    """The table, its game and the edit token its cookie holds (403 without it; 404 for a game without a live
    page)."""
    ledger_db.ensure_schema()
    table = m.get_table(table_id)
    token = request.cookies.get(EDIT_COOKIE)
    m.check_token(table, token)
    game = get_game(table.game)
    if game.live_hand is None:
        abort(404)
    return table, game, token


def _last_number(table) -> int:
    last = m.last_hand(table.id)
    return last.number if last else 0


def _bound(game, data: dict, table, base: int | None = None, key: str | None = None) -> dict:
    """The followed hand tied to the table: its seats, names and house rules are the table's, whatever was
    posted; ``base`` is the table's hand it follows on from, ``key`` its idempotency key."""
    seated = table.names_of(table.seating())  # who plays the next hand: a player who left keeps a name only
    return dict(data, **{game.live_hand.start_input.seats_field: len(seated)}, names=seated,
                rules=dict(table.rules), table=table.id, base=_last_number(table) if base is None else base,
                key=key or secrets.token_urlsafe(18))


def _from_table(table) -> dict | None:
    """The table's next hand, ready for its rounds when the table carries its state over from the last hand;
    None: the start is still to be given."""
    carried = m.table_carried(table)
    if not carried:
        return None
    game = get_game(table.game)
    live, last = game.live_hand, m.last_hand(table.id)
    start = {f.name: last is not None and last.input.get(f.name) is True
             for f in live.start_input.fields if isinstance(f, SwitchField)}
    return _bound(game, live.hand_of({**start, **carried}, []), table)


def _table_start(game, table, form):
    seats = len(table.seating())
    start = _posted_start(game, form, seats)
    return _opened(_bound(game, game.live_hand.hand_of(start, []), table), game)


def _rebased(data: dict, table) -> dict:
    """The followed hand after the table moved on: from the table's new last hand and what it carries."""
    return dict(data, **(m.table_carried(table) or {}), base=_last_number(table))


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
    data = _bound(get_game(table.game), data, table, base=base, key=data["key"])
    if base != _last_number(table):
        notices.append(_moved_on_text(table))
        return _rebased(data, table)
    return data


def _moved_on_text(table) -> str:
    words = get_game(table.game).live_hand.messages["moved_on"]
    return render(Text(words.zh, words.en, {"n": _last_number(table)}), current_lang())


def _moved_on(table) -> m.TableError:
    return m.TableError(t("牌桌在你跟踪这一手时已记下了第{n}局", "the table recorded hand {n} while you followed "
                          "this one", n=_last_number(table)), status=409, code="table_moved_on")


def _record(table, token, data, game) -> dict:
    """Save the followed hand as the table's next hand (the ledger's own write, with the hand's key)."""
    live = game.live_hand
    state = live.restore(data, rules_of(game, data))
    if not state.closed:
        raise InvalidInput(live.messages["not_over"], field=live.finish_input.fields[0].name, code="hand_open")
    hand = live.settle_payload(state, rules_of(game, data))

    def get_input():  # under the table's lock: the hand follows on from the table's last hand, or nothing is written
        if _last_number(table) != data["base"]:
            raise _moved_on(table)
        if m.table_carried(table):
            for name in game.carried_fields:
                hand.pop(name, None)  # the ledger carries them over itself
        return hand

    return m.record_hand(table.id, token, get_input, current_lang(), key=data["key"], sent=hand)


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
        errors.extend(message for _, message in _messages(game, exc))
    return None


def _table_actions(table) -> dict:
    actions = {k: v for k, v in ACTIONS.items() if k != "next"}
    actions["start"] = lambda form, data, game: _table_start(game, table, form)
    actions["reset"] = lambda form, data, game: _from_table(table)
    return actions


def _current(game, table, form, action: str, notices: list):
    """The hand being followed and the action still to do: (data, action, the ledger's answer when the
    hand was recorded already — a second tap, or a page from before)."""
    data = _load_state(game, form, _session_key(table.id))
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
        table, game, token = _editable_table(table_id)
    except m.TableError as exc:
        return render_template("tables/error.html", status=status_of(exc), message=page_message(exc)), status_of(exc)
    form, errors, notices = form_class(game)(), [], []
    action = _posted_action(form, errors)
    posted = action
    data, action, answer = _current(game, table, form, action, notices)
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
                 tracker_url=url_for("live.table_rounds", table_id=table.id),
                 table={"id": table.id, "players": table.names_of(table.seating()), "next": _last_number(table) + 1,
                        "back": url_for("tables.edit", table_id=table.id)})
