"""The live page: follow a hand as it is played, round by round, for every game that declares the live-hand
protocol (``Game.live_hand``, :class:`scoring.live.LiveHand`).

The page keeps the hand (in the session, and in a hidden field so a plain post works too) as the protocol
keeps it, with the seats' names and the house rules, and asks the protocol to read it back on every tap: the
banks update at once, undo drops the last round, and the finish settles the hand. Its forms come from the
declared inputs of a hand's start, of one round and of its finish.

A ledger table of such a game follows its next hand with this page's forms and steps: the ledger owns that flow
(:mod:`webapp.ledger.following`, ``/tables/<id>/edit/rounds``); this module knows nothing of the ledger."""
from __future__ import annotations

import json
from functools import cache

from flask import Blueprint, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import Optional as OptionalV

from scoring.errors import PaijuError
from scoring.i18n import Text, render, seat_name
from scoring.inputs import CardsField, PerSeatField, SeatOrderField, SwitchField, strict_int
from scoring.registry import all_games, get_game

from . import forms
from .errors import each_error
from .i18n import current_lang, page_message
from .render import page, picker_config, render_csrf_error

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


def load_state(game, form, key: str = SESSION_KEY) -> dict | None:
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


def posted_start(game, form, seats: int) -> dict:
    """The start's values as posted, the number of seats apart."""
    start = game.live_hand.start_input
    return {f.name: _posted(form, f, seats) for f in start.fields if f.name != start.seats_field}


def opened(data: dict, game) -> dict:
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
    return opened({seats_field.name: posted, **posted_start(game, form, seats), "names": names,
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


def messages(game, exc: PaijuError):
    for err in each_error(exc):
        yield err, page_message(err, current_lang(), label_of=lambda path: _label(game, path))


def apply(action: str, form, data, game, errors: list, actions=ACTIONS) -> dict | None:
    handler = actions.get(action)
    if handler is None or (data is None and action not in ("start", "reset")):
        return data
    try:
        return handler(form, data, game)
    except PaijuError as exc:
        for err, message in messages(game, exc):
            if not forms.attach_error(form, _target(game.live_hand, err.field), message):
                errors.append(message)
        return data


def replayed(data, game, errors):
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


def remember(form, data, key: str = SESSION_KEY) -> None:
    if data:
        session[key] = data
        form.state.data = json.dumps(data, ensure_ascii=False)
    else:
        session.pop(key, None)
        form.state.data = ""


def posted_action(form, errors: list) -> str:
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


def show(game, form, data, state, steps, errors, **extra):
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
    action = posted_action(form, errors)
    data = apply(action, form, load_state(game, form), game, errors)
    data, state, steps = replayed(data, game, errors)
    remember(form, data)
    return show(game, form, data, state, steps, errors)
