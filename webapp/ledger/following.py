"""Following a table's next hand (``/tables/<id>/edit/rounds``): the live page (:mod:`webapp.live`) for a ledger
table of a game that declares the live-hand protocol.

The page follows the table's next hand: its seated players, house rules and carried state, all from what the next
hand needs (:class:`.records.NextHand`, one query a request), and "record" saves the followed hand as that hand
through the ledger's own write (:func:`.service.record_next`), with the followed hand's idempotency key (a double tap records
once). The followed hand says which hand of the table it follows on from (``base``): when the table moved on
meanwhile, it is rebased and shown to be checked, never recorded unseen."""
from __future__ import annotations

import secrets

from flask import Blueprint, abort, redirect, render_template, request, session, url_for

from scoring.errors import InvalidInput, PaijuError
from scoring.i18n import Text, render, t
from scoring.inputs import SwitchField
from scoring.registry import get_game

from .. import live
from ..errors import status_of
from ..extensions import htmx
from ..i18n import current_lang, page_message
from . import db as ledger_db
from .errors import TableError
from .idempotency import stored_answer, valid_key
from .queries import check_token, get_table
from .records import Kept, NextHand, Written, next_hand
from .service import record_next
from .web import EDIT_COOKIE, limit_writes

bp = Blueprint("following", __name__)


class Followed:
    """One request's table: the table, its game, the edit token and what its next hand needs (read once; again
    only when the table moved on under the page)."""

    def __init__(self, table_id: str):
        ledger_db.ensure_schema()
        self.table = get_table(table_id)
        self.token = request.cookies.get(EDIT_COOKIE)
        check_token(self.table, self.token)  # 403 without the edit cookie
        self.game = get_game(self.table.game)
        if self.game.live_hand is None:  # 404 for a game without a live page
            abort(404)
        self.next: NextHand = next_hand(self.table)
        self.session_key = f"{live.SESSION_KEY}:{self.table.id}"

    def read_again(self) -> NextHand:
        self.next = next_hand(self.table)
        return self.next

    # -- the followed hand, tied to the table ---------------------------------------------------------------

    def bound(self, data: dict, base: int | None = None, key: str | None = None) -> dict:
        """The followed hand tied to the table: its seats, names and house rules are the table's, whatever was
        posted; ``base`` is the table's hand it follows on from, ``key`` its idempotency key."""
        table = self.table
        seated = table.names_of(table.seating())  # who plays the next hand: a player who left keeps a name only
        return dict(data, **{self.game.live_hand.start_input.seats_field: len(seated)}, names=seated,
                    rules=dict(table.rules), table=table.id, base=self.next.base if base is None else base,
                    key=key or secrets.token_urlsafe(18))

    def from_table(self) -> dict | None:
        """The table's next hand, ready for its rounds when the table carries its state over from the last hand;
        None: the start is still to be given."""
        nxt = self.next
        if not nxt.carried:
            return None
        live_hand, last = self.game.live_hand, nxt.last_input or {}
        start = {f.name: last.get(f.name) is True for f in live_hand.start_input.fields if isinstance(f, SwitchField)}
        return self.bound(live_hand.hand_of({**start, **nxt.carried}, []))

    def start(self, form) -> dict:
        start = live.posted_start(self.game, form, len(self.table.seating()))
        return live.opened(self.bound(self.game.live_hand.hand_of(start, [])), self.game)

    def rebased(self, data: dict) -> dict:
        """The followed hand after the table moved on: from the table's new last hand and what it carries."""
        return dict(data, **(self.next.carried or {}), base=self.next.base)

    def answered(self, data) -> Kept | None:
        """The ledger's answer when the followed hand was already recorded (its key used), else None."""
        if not data or data.get("table") != self.table.id or not valid_key(data.get("key")):
            return None
        first = stored_answer(self.table.id, data["key"])
        return Kept(first) if first is not None else None

    def moved_on_text(self) -> str:
        words = self.game.live_hand.messages["moved_on"]
        return render(Text(words.zh, words.en, {"n": self.next.base}), current_lang())

    def actions(self) -> dict:
        actions = {k: v for k, v in live.ACTIONS.items() if k != "next"}
        actions["start"] = lambda form, data, game: self.start(form)
        actions["reset"] = lambda form, data, game: self.from_table()
        return actions


def followed(here: Followed, data, notices: list) -> dict | None:
    """The posted hand, if it is this table's, tied to the table again; rebased if the table moved on."""
    if not data or data.get("table") != here.table.id or not valid_key(data.get("key")):
        return here.from_table()
    base = data.get("base")
    if not isinstance(base, int) or isinstance(base, bool):
        return here.from_table()
    data = here.bound(data, base=base, key=data["key"])
    if base != here.next.base:
        notices.append(here.moved_on_text())
        return here.rebased(data)
    return data


# -- recording it ---------------------------------------------------------------------------------------------

def _moved_on(base: int) -> TableError:
    return TableError(t("牌桌在你跟踪这一手时已记下了第{n}局", "the table recorded hand {n} while you followed "
                        "this one", n=base), status=409, code="table_moved_on")


def record(here: Followed, data: dict) -> Written | Kept:
    """Save the followed hand as the table's next hand (the ledger's own write, with the hand's key)."""
    game = here.game
    live_hand, rules = game.live_hand, live.rules_of(game, data)
    state = live_hand.restore(data, rules)
    if not state.closed:
        raise InvalidInput(live_hand.messages["not_over"], field=live_hand.finish_input.fields[0].name,
                           code="hand_open")
    hand = live_hand.settle_payload(state, rules)

    def get_input(now: NextHand):  # under the table's lock: it follows on from the table's last hand, or nothing is written
        here.next = now
        if now.base != data["base"]:
            raise _moved_on(now.base)
        if now.carried:
            for name in game.carried_fields:
                hand.pop(name, None)  # the ledger carries them over itself
        return hand

    return record_next(here.table.id, here.token, get_input, current_lang(), key=data["key"], sent=hand)


def _back_to_table(here: Followed, outcome: Written | Kept):
    target = url_for("tables.edit", table_id=here.table.id) + f"#hand-{outcome.number}"
    if htmx:
        return "", 204, {"HX-Redirect": target}
    return redirect(target, 303)


def _try_record(here: Followed, data, errors: list):
    """The redirect to the table once recorded; otherwise None, with what went wrong in ``errors``."""
    try:
        return _back_to_table(here, record(here, data))
    except TableError as exc:
        if exc.status != 409:
            raise
        here.read_again()
        errors.append(here.moved_on_text())
    except PaijuError as exc:
        errors.extend(message for _, message in live.messages(here.game, exc))
    return None


def _current(here: Followed, form, action: str, notices: list):
    """The hand being followed and the action still to do: (data, action, the ledger's answer when the hand was
    recorded already — a second tap, or a page from before)."""
    data = live.load_state(here.game, form, here.session_key)
    answer = here.answered(data)
    if answer is not None:
        session.pop(here.session_key, None)
        notices.append(render(t("这一手已记为第{n}局。", "this hand was recorded as hand {n}.", n=answer.number),
                              current_lang()))
        return here.from_table(), "", answer
    data = followed(here, data, notices)
    if notices and action == "record":  # rebased on what the table holds now: to be checked first
        action = ""
    return data, action, None


def _record_or_stay(here: Followed, data, errors):
    """(the redirect to the table once recorded, else None; the hand to show when it was not)."""
    done = _try_record(here, data, errors)
    if done is not None:
        session.pop(here.session_key, None)
        return done, data
    return None, (here.rebased(data) if data["base"] != here.next.base else data)


@bp.route("/tables/<table_id>/edit/rounds", methods=["GET", "POST"])
@limit_writes
def table_rounds(table_id: str):
    try:
        here = Followed(table_id)
    except TableError as exc:
        return render_template("tables/error.html", status=status_of(exc), message=page_message(exc)), status_of(exc)
    game, table = here.game, here.table
    form, errors, notices = live.form_class(game)(), [], []
    posted = live.posted_action(form, errors)
    data, action, answer = _current(here, form, posted, notices)
    if answer is not None and posted == "record":
        return _back_to_table(here, answer)
    if action == "record" and data is not None:
        done, data = _record_or_stay(here, data, errors)
        if done is not None:
            return done
    else:
        data = live.apply(action, form, data, game, errors, here.actions())
    data, state, steps = live.replayed(data, game, errors)
    live.remember(form, data, here.session_key)
    return live.show(game, form, data, state, steps, errors, notices=notices,
                     tracker_url=url_for("following.table_rounds", table_id=table.id),
                     table={"id": table.id, "players": table.names_of(table.seating()), "next": here.next.number,
                            "back": url_for("tables.edit", table_id=table.id)})
