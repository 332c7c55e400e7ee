"""The ledger's operations, used by the JSON API and by the pages alike: open a table, record, edit,
delete, undo and redo a hand, a new edit token, delete a table, purge old ones.

Each write runs in :func:`.writes.write` (the table locked, retried on a concurrent writer) and raises the
ledger's errors (:mod:`.errors`) or the engine's; the web layer gives them their HTTP status.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import delete, update

from scoring.errors import MalformedInput
from scoring.i18n import t
from scoring.inputs import shown, strict_int
from scoring.registry import get_game

from . import settling
from .cleaning import check_seat_count, clean_input, clean_players, game_named, name_key
from .db import db
from .errors import (
    TableError,
    bad_key,
    changed_under_undo,
    circle_full,
    conflict,
    evening_closed,
    next_exists,
    not_last,
    seats_changed,
    stale,
    table_full,
)
from .idempotency import forget_old, remember, request_digest, stored_answer, valid_key
from .models import LedgerHand, LedgerTable, _now, handed_on, new_edit_token, new_table_id, token_digest
from .queries import evening_count, hand_before, hand_count, hand_numbered, last_hand, next_of
from .records import Kept, NextHand, Written, next_hand, written
from .table_rules import HandRules, keep_hands_rules, own_rules
from .writes import locked_table, write

MAX_HANDS = 2000  # hands per table (config LEDGER_MAX_HANDS)


def max_hands() -> int:
    return int(current_app.config.get("LEDGER_MAX_HANDS") or MAX_HANDS)


MAX_EVENINGS = 60  # evenings per circle (config LEDGER_MAX_EVENINGS): its reads add every one up (issue 38 item 7)


def max_evenings() -> int:
    return int(current_app.config.get("LEDGER_MAX_EVENINGS") or MAX_EVENINGS)


def create_table(game_slug: Any, players: Any, rules: Any) -> tuple[str, str]:
    """Open a table; returns its id and the edit token (only its hash is kept)."""
    game = game_named(game_slug)
    resolved = game.ruleset.resolve(rules if rules is not None else {}).as_dict()
    names = clean_players(players, game.slug, resolved)
    token = new_edit_token()
    return write(lambda: _add_table(game.slug, names, resolved, token).id), token


def _add_table(game: str, names: list[str], rules: dict, token: str, after: LedgerTable | None = None,
               table_id: str | None = None) -> LedgerTable:
    """Within :func:`.writes.write`: a new table (``after``: the evening it follows, in its circle)."""
    table = LedgerTable(id=table_id or new_table_id(), token_hash=token_digest(token), game=game, players=names,
                        rules=rules, version=1, kept_totals=[0] * len(names),
                        circle=new_table_id() if after is None else after.circle_id,
                        previous_id=after.id if after is not None else None)
    db.session.add(table)
    db.session.flush()
    return table


def next_evening(table_id: Any, token: str | None, players: Any = None) -> tuple[str, str, bool]:
    """The evening after this one: the same game and house rules, the players seated now (or ``players``),
    in this table's circle. Returns its id, its edit token and whether it is new. Its token is the one this
    evening's hands on (:func:`.models.handed_on`), so asked again once it exists (an answer lost on the way),
    the answer is the same evening with the same token and nobody's link stops working; ``players`` that differ
    from its seats, or a token its own editors have changed since, are 409 ``next_exists``."""
    def work():
        table = locked_table(table_id, token)
        game = game_named(table.game)
        names = clean_players(table.names_of(table.seating()) if players is None else players, game.slug,
                              dict(table.rules))  # checked even when the next evening exists: a bad body is a 4xx
        following = next_of(table.id)
        if following is not None:
            return following, _handed_again(following, token, None if players is None else names), False
        if evening_count(table.circle_id) >= max_evenings():
            raise circle_full(max_evenings())
        table.touch()  # its readers learn of the evening after it
        new_id = new_table_id()
        fresh = handed_on(current_app.secret_key, token, new_id)
        return _add_table(game.slug, names, dict(table.rules), fresh, after=table, table_id=new_id).id, fresh, True

    return write(work)


def _handed_again(following: str, token: str, names: list[str] | None) -> str:
    """The token of the existing next evening, as this evening's ``token`` handed it on."""
    evening = db.session.get(LedgerTable, following)
    if names is not None and [name_key(n) for n in names] != [name_key(n) for n in evening.names_of(
            evening.seating())]:
        raise next_exists(following, players_differ=True)
    handed = handed_on(current_app.secret_key, token, following)
    if not evening.token_ok(handed):
        raise next_exists(following)
    return handed


# --- a hand recorded, edited, deleted -------------------------------------------------

def record_hand(table_id: Any, token: str | None, get_input: Callable[[], Any], lang: str = "zh",
                key: str | None = None, respond: Callable[[Written | Kept], Any] | None = None,
                sent: Any = None) -> Any:
    """Append a hand; the outcome is a :class:`.records.Written` (``respond`` makes the response of it inside the
    transaction). ``get_input`` is called after the token check. With an idempotency ``key`` already answered on
    this table, the first answer again (:class:`.records.Kept`) and nothing recorded — when ``sent`` (what the
    request carried) is what the first request carried; else 422 ``idempotency_key_reused``. ``lang``: the
    language the answer kept for ``key`` is given in (docs/api.md: the first answer, as it was given)."""
    return record_next(table_id, token, lambda _next: get_input(), lang, key, respond, sent)


def record_next(table_id: Any, token: str | None, get_input: Callable[[NextHand], Any], lang: str = "zh",
                key: str | None = None, respond: Callable[[Written | Kept], Any] | None = None,
                sent: Any = None) -> Any:
    """:func:`record_hand`, whose ``get_input`` is given what the next hand needs as the table stands under its
    lock (:class:`.records.NextHand`: the table's last hand is read once for it and for the hand written)."""
    digest = request_digest(sent) if key is not None else None
    if key is not None and not valid_key(key):
        raise bad_key()

    def work():
        table = locked_table(table_id, token)
        first = stored_answer(table.id, key, digest) if key is not None else None
        if first is not None:
            return Kept(first)
        following = next_of(table.id)
        if following is not None:
            raise evening_closed(following)
        previous = last_hand(table.id)
        given = get_input(next_hand(table, previous, read=False))
        data = clean_input(get_game(table.game), _seated_as_now(table, given))
        if hand_count(table.id) >= max_hands():
            raise table_full(max_hands())
        hand = _append(table, data, previous, read=False)
        table.undone = None  # a new hand: what undo took is gone for good
        outcome = written(table, hand, hand)
        if key is not None:
            remember(table.id, key, outcome.to_json(lang), digest)
        return outcome

    return write(work, respond)


def _seated_as_now(table: LedgerTable, body: Any) -> Any:
    """The hand's input, once the seating it states (``seated``, the names seat by seat as the writer saw them)
    is the table's now: otherwise 409 ``seats_changed``, with the seating now."""
    seated = body.get("seated") if isinstance(body, Mapping) else None
    if seated is None:
        return body
    if not isinstance(seated, list) or not all(isinstance(name, str) for name in seated):
        raise MalformedInput(t("「seated」应为玩家名字的列表（按座位）", "“seated” must be a list of the players' "
                               "names, seat by seat"), field="seated", code="not_a_list")
    now = table.names_of(table.seating())
    if [name_key(" ".join(name.split())) for name in seated] != [name_key(name) for name in now]:
        raise seats_changed(now)
    return body


def _append(table: LedgerTable, data: dict, previous: LedgerHand | None = None, read: bool = True) -> LedgerHand:
    """Within :func:`.writes.write`: settle ``data`` as the table's next hand and add it (after ``previous``, the
    table's last hand, when the caller read it: ``read`` False)."""
    previous = last_hand(table.id) if read else previous
    seats = table.seating()
    deltas, result = settling.settle(table, data, previous, seats)
    table.touch()
    hand = LedgerHand(table_id=table.id, number=(previous.number + 1) if previous else 1,
                      seats=None if table.seated is None else seats)
    settling.set_input(table, hand, data, deltas, result)
    db.session.add(hand)
    return hand


def _given_version(version: Any) -> int:
    given = strict_int(version)
    if given is None:
        raise MalformedInput(t("「version」应为整数，收到「{v}」", "“version” must be a whole number, got “{v}”",
                               v=shown(version)), field="version", code="not_an_integer")
    return given


def _check_version(table: LedgerTable, version: Any) -> None:
    given = _given_version(version)
    if given != table.version:
        raise stale(table.version, given)


def _check_hand_version(table: LedgerTable, hand: LedgerHand, version: Any, error=conflict) -> None:
    """The merge: a version older than the table's is fine when nobody wrote this hand's input since."""
    given = _given_version(version)
    if given > table.version:
        raise stale(table.version, given)
    if hand.input_version > given:
        raise error(hand.number, table.version)


def _json_object(body: Any) -> Mapping:
    if not isinstance(body, Mapping):
        raise MalformedInput(t("请求体应为 JSON 对象", "the request body must be a JSON object"))
    return body


def _required(body: Mapping, name: str) -> Mapping:
    if name not in body:
        raise MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=name), field=name, code="missing_field")
    return body


def _edit_body(body: Any) -> Mapping:
    body = _json_object(body)
    if body.get("version") is None:  # an edit must say which table it changes: 428 Precondition Required
        raise TableError(t("缺少「version」（你看到的牌桌版本）：改一局要说明是在哪个版本上改的",
                           "“version” is missing: an edit must say which version of the table it changes"),
                         field="version", code="version_required", status=428)
    return _required(body, "input")


def edit_hand(table_id: Any, token: str | None, number: int, get_body: Callable[[], Any],
              respond: Callable[[Written], Any] | None = None, merge: bool = False) -> Any:
    """Replace a hand's input (``{"version", "input"}``); totals follow (a :class:`.records.Written`). The API's ``version`` is the
    table's (the contract); with ``merge`` (the pages) an older version is saved when nobody wrote this
    hand since, and a real conflict is ``edit_conflict``."""
    def work():
        table = locked_table(table_id, token)
        body = _edit_body(get_body())
        hand = hand_numbered(table.id, number)
        if merge:
            _check_hand_version(table, hand, body["version"])
        else:
            _check_version(table, body["version"])
        data = clean_input(get_game(table.game), body["input"])
        deltas, result = settling.settle(table, data, hand_before(table.id, number), hand.seating(),
                                         HandRules(table).of(hand.rules))  # its own rules, never the table's now
        table.touch()
        table.undone = None  # the next change: the undone hand is not offered back any more
        settling.set_input(table, hand, data, deltas, result)
        hand.edited_at = hand.updated_at
        again = settling.resettle_after(table, hand, number)
        return written(table, hand, last_hand(table.id), again)

    return write(work, respond)


def _remove(table: LedgerTable, hand: LedgerHand) -> list[int]:
    """Within :func:`.writes.write`: delete ``hand``; the hands after it are settled again (returned)."""
    table.touch()
    table.reset()
    table.add_to_totals(hand.deltas, -1)
    db.session.delete(hand)
    db.session.flush()
    return settling.resettle_after(table, hand_before(table.id, hand.number), hand.number)


def delete_hand(table_id: Any, token: str | None, number: int, version: Any = None) -> Written:
    """Delete one hand; a given version that is not the table's is a conflict."""
    def work():
        table = locked_table(table_id, token)
        if version is not None:
            _check_version(table, version)
        again = _remove(table, hand_numbered(table.id, number))
        table.undone = None
        return written(table, None, last_hand(table.id), again)

    return write(work)


# --- the house rules, from the next hand on --------------------------------------------

def change_rules(table_id: Any, token: str | None, body: Any) -> dict:
    """New house rules (``{"version", "rules"}``: the table's version, any rules a new table of its game takes)
    from the next hand on; the hands already recorded keep theirs (:mod:`.table_rules`). Answers the rules,
    the hand they apply from and the table's version; rules equal to the table's change nothing."""
    def work():
        table = locked_table(table_id, token)
        sent = _required(_json_object(body), "rules")
        _check_version(table, sent.get("version"))
        following = next_of(table.id)
        if following is not None:  # no hand is recorded here any more: the rules would apply to none
            raise evening_closed(following)
        game = get_game(table.game)
        rules = game.ruleset.resolve(sent["rules"] if sent["rules"] is not None else {})
        check_seat_count(game, len(table.seating()), rules.as_dict())
        if rules.key != game.ruleset.resolve(table.rules).key:
            keep_hands_rules(table)
            table.rules = rules.as_dict()
            table.undone = None
            table.touch()
        last = last_hand(table.id)
        return {"rules": dict(table.rules), "from_hand": last.number + 1 if last else 1, "version": table.version}

    return write(work)



# --- undo and redo --------------------------------------------------------------------

def undo_hand(table_id: Any, token: str | None, number: Any, version: Any) -> dict | None:
    """Undo: take the last hand away, if it is still hand ``number`` as the phone saw it at ``version``
    (someone else's new hand or edit is never undone by mistake), and keep it for :func:`redo_hand`.
    Returns the hand taken ({"number", "input"}), or None when the table has no hands."""
    def work():
        table = locked_table(table_id, token)
        last = last_hand(table.id)
        if last is None:
            return None
        if strict_int(number) != last.number:
            raise not_last(strict_int(number) or 0)
        _check_hand_version(table, last, version, changed_under_undo)
        taken = {"number": last.number, "input": last.input, "seats": last.seating(),
                 "rules": own_rules(table, last.rules)}
        _remove(table, last)
        table.undone = taken
        return taken

    return write(work)


def redo_hand(table_id: Any, token: str | None, number: Any) -> bool:
    """Redo: record again the hand the last undo took (hand ``number``). Idempotent: once it is back, or
    when anything was changed since (a new hand, an edit, a deletion, the rules, the seats), nothing happens
    (False)."""
    def work():
        table = locked_table(table_id, token)
        taken = table.undone
        if not taken or taken.get("number") != strict_int(number):
            return False
        if taken.get("seats", table.seating()) != table.seating():  # the seats changed since: its input no longer fits
            return False
        if taken.get("rules", table.rules) != table.rules:  # so did the rules: it would be settled with others
            return False
        _append(table, taken["input"])
        table.undone = None
        return True

    return write(work)


# --- the table as a whole ---------------------------------------------------------------

def rotate_token(table_id: Any, token: str | None) -> str:
    """A new edit token for the table; the old one (links, cookies) stops working."""
    fresh = new_edit_token()

    def work():
        table = locked_table(table_id, token)
        table.token_hash = token_digest(fresh)
        table.touch()

    write(work)
    return fresh


def delete_table(table_id: Any, token: str | None) -> None:
    """Delete the table with all its hands. The evenings before and after it in its circle change version:
    one's ``next`` and the other's ``previous`` are gone (a cached copy of either is not answered 304)."""
    def work():
        table = locked_table(table_id, token)
        around = [i for i in (table.previous_id, next_of(table.id)) if i is not None]
        db.session.delete(table)
        if around:
            db.session.execute(update(LedgerTable).where(LedgerTable.id.in_(around))
                               .values(version=LedgerTable.version + 1))

    write(work)


def purge_tables(days: int) -> int:
    """Delete the tables untouched for ``days`` days, and idempotency keys older than a day; returns how
    many tables went."""
    def work():
        cutoff = _now() - timedelta(days=days)
        gone = db.session.execute(delete(LedgerTable).where(LedgerTable.updated_at < cutoff)).rowcount
        forget_old()
        return gone

    return write(work)
