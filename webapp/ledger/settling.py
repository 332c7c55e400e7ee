"""Settling a hand at a table, and the state a game carries from hand to hand.

What a game carries (``Game.carried``, ``carried_fields``) and what it takes from the table
(``Game.table_input``) are the game's to say; the ledger keeps what each hand started from in its stored
result (``<field>_before``) and settles the later hands again when an earlier one changes.
"""
from __future__ import annotations

from sqlalchemy import bindparam, text, update

from scoring.errors import PaijuError
from scoring.i18n import t, to_json
from scoring.plays import collector_paused
from scoring.registry import get_game
from scoring.series import carried_after, settle_at_table, settle_moved

from .db import db, stored_json
from .models import LedgerHand, LedgerTable, StoredTime, _now
from .queries import LaterHand, hands_after, last_hand
from .table_rules import HandRules, resolved


def carried_input(game, hand: LedgerHand | None, seats: list[int] | None = None) -> dict | None:
    """What the next hand, played by ``seats`` (player indexes in seat order), takes from ``hand``, each
    player's share following the player to a new seat (:func:`scoring.series.carried_after`, the phone's too);
    or None (a fresh start: also when the players are not the same ones)."""
    if hand is None or not game.carries_state:
        return None
    return carried_after(game, hand.result or {}, hand.seating(), seats)


def table_carried(table: LedgerTable) -> dict | None:
    """What the table's next hand takes from its last one."""
    return carried_input(get_game(table.game), last_hand(table.id), table.seating())


def carried_fields(table: LedgerTable, last: LedgerHand | None) -> dict:
    """Every carried field of the table's game with what the next hand takes from ``last`` (or None)."""
    game = get_game(table.game)
    carried = carried_input(game, last, table.seating()) or {}
    return {key: carried.get(key) for key in game.carried_fields}


def settle(table: LedgerTable, data: dict, previous: LedgerHand | None,
           seats: list[int], rules=None, quiet: bool = False) -> tuple[list[int], dict]:
    """Run the game's settle on one hand played by ``seats`` (player indexes in seat order), under ``rules`` (the
    hand's own: :mod:`.table_rules`; None: the table's now, a new hand's); returns the deltas per player and the stored
    result. ``quiet``: the result is stored without its steps, worked out when the hand is shown
    (:func:`.shown.with_steps`)."""
    game = get_game(table.game)
    rules = rules if rules is not None else resolved(game.ruleset, table.rules)
    return _settled(table, game, data, carried_input(game, previous, seats), seats, rules, quiet)


def _settled(table: LedgerTable, game, data: dict, carried: dict | None, seats: list[int], rules,
             quiet: bool) -> tuple[list[int], dict]:
    """:func:`settle` once what the hand takes from the one before (``carried``) is known."""
    carried = carried or {}
    return _stored(game, *settle_at_table(game, data, carried, seats, len(table.players), rules, quiet), carried, data)


def _settled_again(table: LedgerTable, game, hand: LaterHand, carried: dict, seats: list[int], rules,
                   players: int) -> tuple[list[int], dict]:
    """A later hand settled again, quietly, from ``carried``: told by what it gave from what it started from before
    where its game can tell without reading it again (:func:`scoring.series.settle_moved`), else in full."""
    moved = None
    if hand.ends_series is False:
        moved = settle_moved(game, hand.input, hand.before, hand.ended, _padded(hand.deltas, players), carried, seats,
                             players, rules)
    if moved is None:
        return _settled(table, game, hand.input, carried, seats, rules, quiet=True)
    return _stored(game, *moved, carried, hand.input, plain=True)


def _stored(game, deltas: list[int], result: dict, carried: dict, data: dict,
            plain: bool = False) -> tuple[list[int], dict]:
    """A hand's deltas and its result as stored: without its deltas (a column of their own), with what it started
    from (``<field>_before``). ``plain``: a result with no text in it, JSON as it is (told, not settled)."""
    rest = {k: v for k, v in result.items() if k != "deltas"}
    for key in game.carried_fields:  # what this hand started from
        rest[f"{key}_before"] = carried.get(key, data.get(key))
    return deltas, rest if plain else to_json(rest)


def set_result(table: LedgerTable, hand: LedgerHand, deltas: list[int], result: dict) -> None:
    """Store a hand's settlement, written at the table's version; the table's totals follow."""
    if hand.seats is None and hand.deltas is not None and len(hand.deltas) != len(deltas):
        hand.seats = hand.seating()  # played before a player joined: its seats are not every player's now
    table.add_to_totals(hand.deltas, -1)
    table.add_to_totals(deltas)
    hand.deltas, hand.result, hand.updated_at, hand.changed_version = deltas, result, _now(), table.version
    hand.ends_series = bool(get_game(table.game).ends_series(result))


def set_input(table: LedgerTable, hand: LedgerHand, data: dict, deltas: list[int], result: dict) -> None:
    """Store a hand's input (recorded or edited at the table's version) with its settlement."""
    hand.input, hand.input_version = data, table.version
    set_result(table, hand, deltas, result)


def _in_hand(exc: PaijuError, number: int) -> PaijuError:
    """An error of a later hand that an edit re-settled, saying which hand it is in."""
    return exc.replaced(message=t("第{n}局：{m}", "hand {n}: {m}", n=number, m=exc.message))


class _Settled:
    """A hand settled again in memory: what the next one carries from (``result``, ``seating()``)."""

    def __init__(self, result: dict, seats: list[int]):
        self.result, self._seats = result, seats

    def seating(self) -> list[int]:
        return self._seats


def resettle_after(table: LedgerTable, previous: LedgerHand | None, number: int) -> list[int]:
    """A game that carries state from hand to hand: settle again the hands after hand ``number``, each with its own
    rules (``previous`` is the hand they now follow), until one starts from what it started from before: from
    there on nothing changes. The hands are settled in memory, quietly (their steps are worked out when
    shown), and written in one statement; returns the numbers of the hands settled again."""
    game = get_game(table.game)
    if not game.carries_state:
        return []
    book, changed, numbers = HandRules(table), [], []
    with collector_paused():  # its passes over the whole process were the 110-170 ms spikes of a long edit
        _settle_later(table, game, book, previous, number, changed, numbers)
    _write_results(table, changed)
    return numbers


def _settle_later(table, game, book: HandRules, previous, number: int, changed: list[dict],
                  numbers: list[int]) -> None:
    """The loop of :func:`resettle_after`: each later hand settled in memory from the one before it, with its own
    rules (``book``); the table's totals take the differences at the end (one change of the table's row)."""
    players = len(table.players)
    change = [0] * players
    for hand in hands_after(table.id, number, tuple(game.carried_fields)):
        seats = hand.seating()
        carried = carried_input(game, previous, seats) or {}
        if all(hand.before.get(key) == carried.get(key, hand.input.get(key)) for key in game.carried_fields):
            break
        try:
            deltas, result = _settled_again(table, game, hand, carried, seats, book.of(hand.rules), players)
        except PaijuError as exc:
            raise _in_hand(exc, hand.number)
        for player, (new, old) in enumerate(zip(deltas, _padded(hand.deltas, players))):
            change[player] += new - old
        changed.append({"hand_id": hand.id, "deltas": deltas, "result": result, "seats": _seats_kept(hand, players),
                        "ends_series": bool(game.ends_series(result))})
        numbers.append(hand.number)
        previous = _Settled(result, seats)
    table.add_to_totals(change)


def _seats_kept(hand, players: int) -> list[int] | None:
    """The seats to store with a hand settled again: said outright when the hand was played before a player
    joined (its deltas are stored for every player now, which would otherwise read as every player's seat)."""
    if hand.seats is None and len(hand.deltas or []) != players:
        return hand.seating()
    return hand.seats


def _padded(deltas, players: int) -> list:
    """A stored hand's deltas per player, as many as the table has players."""
    deltas = list(deltas or [])[:players]
    return deltas + [0] * (players - len(deltas))


#: PostgreSQL: the results of hands settled again in one statement, the rows one JSON parameter (an executemany
#: costs psycopg a round of work per row, arrays an escape per element: 300 rows were half of a long edit's CPU;
#: SQLite's executemany is one loop in C, and the same statement there saves nothing)
_RESULTS_AS_JSON = text("""
    UPDATE ledger_hands AS h
    SET deltas = v.deltas, result = v.result, seats = v.seats, ends_series = v.ends_series,
        updated_at = :now, changed_version = :version
    FROM json_to_recordset(CAST(:rows AS json))
         AS v(hand_id integer, deltas json, result json, seats json, ends_series boolean)
    WHERE h.id = v.hand_id""").bindparams(bindparam("now", type_=StoredTime()))


def _write_results(table: LedgerTable, changed: list[dict]) -> None:
    """Store the results of hands settled again, at the table's version, in one statement; a hand of
    these already loaded in the session is expired (it reads its new columns when next used)."""
    if not changed:
        return
    db.session.flush()
    now = _now()
    rows = stored_json(changed) if db.session.get_bind().dialect.name == "postgresql" else None
    if rows is not None and "\\u0000" not in rows:  # json_to_recordset cannot take a NUL a json column can
        db.session.execute(_RESULTS_AS_JSON, {"now": now, "version": table.version, "rows": rows})
    else:
        for row in changed:
            row.update(updated_at=now, changed_version=table.version)
        hands = LedgerHand.__table__
        db.session.execute(update(hands).where(hands.c.id == bindparam("hand_id")), changed)
    ids = {row["hand_id"] for row in changed}
    for obj in list(db.session.identity_map.values()):
        if isinstance(obj, LedgerHand) and obj.id in ids:
            db.session.expire(obj)
