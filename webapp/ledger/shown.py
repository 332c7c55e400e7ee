"""Stored results rendered in the reader's language, memoized per hand and language (:data:`SHOWN`).

The hands' results are read here through the ``ledger_hands`` table itself (:mod:`.models` uses this
module for :meth:`~.models.LedgerHand.shown`, so it is not imported here).
"""
from __future__ import annotations

import contextvars
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import inspect, select

from scoring.errors import PaijuError
from scoring.i18n import render_json, to_json
from scoring.registry import get_game

from .db import db


class ShownMemo:
    """Stored results rendered in one language, by (table, hand number, the table version that wrote the
    result, language): a result stored under a version never changes (every rewrite is at a newer
    version), so an entry is never stale; past ``size`` entries the least recently used go."""

    def __init__(self, size: int):
        self.size, self.entries, self.lock = size, OrderedDict(), threading.Lock()

    def find(self, key: tuple) -> dict | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple, shown: dict) -> None:
        with self.lock:
            self.entries[key] = shown
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


SHOWN = ShownMemo(4000)  # a table at its hand limit in both languages (some 7 MB)
# set within a write (:func:`.writes.write`): a result read there may be one the transaction wrote and may
# yet roll back, so nothing is memoized (outside a write every result read is committed)
_WRITING = contextvars.ContextVar("paiju_ledger_writing", default=False)


def seat_names(players: list[str], seats: list[int]) -> tuple[str, ...] | None:
    """The names of the players in a hand's ``seats`` (indexes into the table's ``players``), or None when
    a seat is not among them (a row this version cannot read)."""
    if not all(isinstance(i, int) and 0 <= i < len(players) for i in seats):
        return None
    return tuple(str(players[i]) for i in seats)


def with_steps(table_id: str, result, data, seats: int, rules=None) -> dict:
    """A stored result with its steps. A hand the ledger settled again after an edit of an earlier one is
    stored without them (:meth:`scoring.games.Game.settle_quietly`; its result still says what it started from,
    ``<field>_before``): they are worked out from its input ``data``, its ``seats`` (how many) and its stored
    ``rules`` (None: the table's now) when it is first shown, then memoized with the rest. Any other result
    without steps (a row this version cannot read) shows none."""
    if not isinstance(result, dict):
        return {}
    if "steps" in result or not isinstance(data, dict):
        return result
    game = _table_game(table_id)
    if game is None or not game.carries_state or any(f"{k}_before" not in result for k in game.carried_fields):
        return result
    try:
        rules = rules if isinstance(rules, dict) else _table_rules_now(table_id)
        steps = game.steps_again(data, result, game.ruleset.resolve(rules), seats)
    except PaijuError:
        return result
    return {**result, "steps": to_json(steps)}


_TABLE_GAMES: OrderedDict = OrderedDict()  # a table's game never changes once it is made (its rules may)


def _table_game(table_id: str):
    """The table's game, read once per process and table; None: no table."""
    found = _TABLE_GAMES.get(table_id)
    if found is None:
        tables = db.metadata.tables["ledger_tables"].c
        slug = db.session.execute(select(tables.game).where(tables.id == table_id)).scalar()
        if slug is None:
            return None
        found = _TABLE_GAMES[table_id] = get_game(slug)
        while len(_TABLE_GAMES) > 1000:
            _TABLE_GAMES.popitem(last=False)
    return found


def _table_rules_now(table_id: str):
    """The table's house rules now (a hand without rules of its own was settled with them)."""
    tables = db.metadata.tables["ledger_tables"].c
    return db.session.execute(select(tables.rules).where(tables.id == table_id)).scalar()


def seat_count(seats, deltas) -> int:
    """How many seats a stored hand was played with (a row from before seats were stored: every player)."""
    return len(seats) if isinstance(seats, list) else len(deltas) if isinstance(deltas, list) else 0


@contextmanager
def writing() -> Iterator[None]:
    """The block is a write: what it renders is not memoized."""
    token = _WRITING.set(True)
    try:
        yield
    finally:
        _WRITING.reset(token)


def hand_shown(hand, lang: str, names: tuple[str, ...] | None = None) -> dict:
    """A hand's result in one language (steps and any extra fields); a copy. With ``names`` (the players in
    its seats), a seat's words are its player's name."""
    if "result" in inspect(hand).unloaded:
        return shown_of(hand.table_id, [(hand.number, hand.changed_version)], lang, [names])[0]
    key, in_write = (hand.table_id, hand.number, hand.changed_version, lang, names), _WRITING.get()
    found = None if in_write else SHOWN.find(key)
    if found is None:
        result = with_steps(hand.table_id, hand.result, hand.input, seat_count(hand.seats, hand.deltas), hand.rules)
        found = render_json(result, lang, names)
        if not in_write:
            SHOWN.put(key, found)
    return dict(found)


def shown_of(table_id: str, hands: list[tuple[int, int]], lang: str, names: list | None = None,
             batch: int = 100) -> list[dict]:
    """The results in ``lang`` of a table's ``hands`` (number, the version that wrote its result), in that
    order: from the memo, the others read (a batch per statement, each with the version that wrote it, so
    nothing is memoized under another version), rendered and memoized (outside a write). ``names``: for each
    hand, the players in its seats (a tuple; seats then read as names), or None."""
    in_write = _WRITING.get()
    names_of = dict(zip((number for number, _ in hands), names or [None] * len(hands)))
    found = [None if in_write else SHOWN.find((table_id, number, version, lang, names_of[number]))
             for number, version in hands]
    missing = [number for (number, _), shown in zip(hands, found) if shown is None]
    fresh = {}
    stored = db.metadata.tables["ledger_hands"].c
    for start in range(0, len(missing), batch):
        rows = db.session.execute(select(stored.number, stored.changed_version, stored.result, stored.input,
                                         stored.seats, stored.deltas, stored.rules)
                                  .where(stored.table_id == table_id,
                                         stored.number.in_(missing[start:start + batch]))).all()
        for number, version, result, data, seats, deltas, rules in rows:
            result = with_steps(table_id, result, data, seat_count(seats, deltas), rules)
            fresh[number] = render_json(result, lang, names_of.get(number))
            if not in_write:
                SHOWN.put((table_id, number, version, lang, names_of.get(number)), fresh[number])
    # a hand gone since it was listed (PostgreSQL reads each statement at its own moment) shows nothing
    return [dict(shown if shown is not None else fresh.get(number, {})) for (number, _), shown in zip(hands, found)]
