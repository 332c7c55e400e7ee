"""A table's house rules during the evening (issue 38 item 5): a change applies from the next hand on, and every
hand keeps the rules it was settled with, so an edit of a past hand settles it again with its own rules.

A hand stores its rules only once the table's rules have changed after it was recorded: its ``rules`` column is
None while they are the table's rules now (every hand stored before migration 0009, and every hand recorded
since the last change). A change first writes the old rules into each hand that has none
(:func:`keep_hands_rules`), so a hand never takes rules it was not played with.
"""
from __future__ import annotations

import json
import threading
from typing import Any

from flask import g, has_app_context
from sqlalchemy import select, update

from scoring.i18n import Text, join, t
from scoring.registry import get_game

from .db import db
from .models import LedgerHand, LedgerTable


def resolved(ruleset, rules: Any):
    """``ruleset.resolve(rules)``, made once a request for each value of ``rules`` (issue 39 item 6): a hand
    posted to a table reads its stored rules' readability on the read and again under the write's lock, draws
    its form and settles under the same rules. Outside a request: resolved each time."""
    if not has_app_context():
        return ruleset.resolve(rules)
    made = g.setdefault("resolved_rules", {})
    key = (id(ruleset), json.dumps(rules, sort_keys=True, default=str))
    if key not in made:
        made[key] = ruleset.resolve(rules)
    return made[key]


def own_rules(table: LedgerTable, stored: Any) -> dict:
    """A hand's rules as stored (its ``rules`` column): its own, or (None) the table's now."""
    return dict(stored) if isinstance(stored, dict) else dict(table.rules)


class HandRules:
    """The resolved rules of a table's hands (:class:`scoring.rules.Rules`), each distinct stored value resolved
    once: a re-settle of many hands reads the same one or two."""

    def __init__(self, table: LedgerTable, first: Any = None):
        self.table, self.ruleset, self._resolved = table, get_game(table.game).ruleset, {}
        self.first = first  # the stored rules of the evening's first hand (:func:`first_hand_rules`)

    def of(self, stored: Any):
        if stored is None and None in self._resolved:  # the table's rules now: most hands, asked once per hand
            return self._resolved[None]
        rules = own_rules(self.table, stored)
        key = None if stored is None else json.dumps(rules, sort_keys=True, default=str)
        if key not in self._resolved:
            self._resolved[key] = self.ruleset.resolve(rules)
        return self._resolved[key]

    def since_first(self, stored: Any) -> list[Text]:
        """How a hand's rules (``stored``) differ from the evening's first hand's: nothing when equal."""
        before, after = self.of(self.first), self.of(stored)
        return [] if before.key == after.key else self.ruleset.changes(before, after)


def keep_hands_rules(table: LedgerTable) -> None:
    """Within a write that changes the table's rules: each hand without rules of its own keeps the table's
    (those it was settled with)."""
    db.session.flush()
    db.session.execute(update(LedgerHand).where(LedgerHand.table_id == table.id, LedgerHand.rules.is_(None))
                       .values(rules=dict(table.rules)))


def first_hand_rules(table_id: str) -> Any:
    """The stored rules of the evening's first hand (None: the table's now, as when it has no hand)."""
    return db.session.execute(select(LedgerHand.rules).where(LedgerHand.table_id == table_id)
                              .order_by(LedgerHand.number).limit(1)).scalar()


def hands_rules(table_id: str) -> list[tuple[int, Any]]:
    """(number, stored rules) of every hand, in order (None: the table's now)."""
    return [(number, rules) for number, rules in db.session.execute(
        select(LedgerHand.number, LedgerHand.rules).where(LedgerHand.table_id == table_id)
        .order_by(LedgerHand.number)).all()]


def rule_changes(table: LedgerTable) -> list[tuple[int, list[Text]]]:
    """Where the rules changed during the evening: (the first hand played with new rules, what changed from the
    hand before it), in order; the first hand's rules are the evening's own. Worked out once per table version
    (the settle-up page and its share text both ask; 2,000 hands each hold the rules once they changed)."""
    key = (table.id, table.version)
    with _CHANGES_LOCK:
        if key in _CHANGES:
            return _CHANGES[key]
    book = HandRules(table)
    changes, before, last = [], None, object()
    for number, stored in hands_rules(table.id):
        if stored == last:  # most hands: the same stored rules as the hand before
            continue
        rules, last = book.of(stored), stored
        if before is not None and rules.key != before.key:
            changes.append((number, book.ruleset.changes(before, rules)))
        before = rules
    with _CHANGES_LOCK:
        _CHANGES[key] = changes
        while len(_CHANGES) > 256:
            _CHANGES.pop(next(iter(_CHANGES)))
    return changes


_CHANGES: dict[tuple, list] = {}
_CHANGES_LOCK = threading.Lock()


def change_lines(table: LedgerTable) -> list[Text]:
    """Each change of the rules during the evening as a line: 「第3局起：炸弹分 10」."""
    return [t("第{n}局起：{c}", "from hand {n}: {c}", n=number, c=join(words, "，", ", "))
            for number, words in rule_changes(table)]
