"""The evening as a whole: each player's hands won, 庄家 made / failed, biggest hand and streaks.

Pure functions over a table's stored hands (no Flask, no database). A hand is given as
``(number, input, deltas, result)``: the settle input as stored, the per-seat deltas, and the engine's
result (its extra fields, in any one language).

Who was the declarer (庄家) comes from the game's declarations: the settle input's top-level seat field labelled
庄家 (红五 and 二七王 have one; the shedding games have none, so their players show no 庄家 record).
Whether the contract was made is the engine's own answer: both games' settlements say ``made`` (the
庄家 side won the stake). Hands stored before that field was added say nothing and count as neither.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .inputs import SeatField, strict_int

DECLARER_LABEL = "庄家"

Hand = tuple  # (number, input, deltas, result[, seats[, its own resolved rules]])


@dataclass
class PlayerStats:
    """One seat's evening: ``streak`` is the run the evening ends on (+N: won the last N hands,
    −N: lost the last N, 0: the last hand was even or there was none)."""

    seat: int
    hands: int = 0
    won: int = 0
    declared: int = 0
    made: int = 0
    failed: int = 0
    biggest: int = 0
    biggest_hand: int | None = None
    streak: int = 0
    best_streak: int = 0

    def add(self, number: int, delta: int) -> None:
        self.hands += 1
        if delta > 0:
            self.won += 1
        if delta > self.biggest:
            self.biggest, self.biggest_hand = delta, number
        self.streak = _next_streak(self.streak, delta)
        self.best_streak = max(self.best_streak, self.streak)


def _next_streak(streak: int, delta: int) -> int:
    if delta > 0:
        return streak + 1 if streak > 0 else 1
    if delta < 0:
        return streak - 1 if streak < 0 else -1
    return 0


def declarer_field(game) -> str | None:
    """The name of the game's 庄家 field: the top-level seat field of its settle input labelled 庄家."""
    for field in game.settle_input.fields:
        if isinstance(field, SeatField) and field.label.zh == DECLARER_LABEL:
            return field.name
    return None


def contract_made(result: Mapping[str, Any]) -> bool | None:
    """Whether the declarer (庄家) made the contract, as the engine's result says; None: the result does not say."""
    made = result.get("made")
    return made if isinstance(made, bool) else None


def _declarer(field: str | None, data: Mapping[str, Any], seats: int) -> int | None:
    """The 庄家's seat as the settle input reads it: an integer or its ASCII digits (as a form stores it)."""
    seat = strict_int(data.get(field)) if field else None
    return seat if seat is not None and 0 <= seat < seats else None


def evening_stats(game, players: int, hands: Iterable[Hand]) -> list[PlayerStats]:
    """Every player's statistics over the hands, in hand order. A hand may carry a fifth item, the
    players (indexes) in its seats: its deltas are per player, its input's seat numbers index that
    list, and a player not seated at that hand has no hand there (it neither wins nor breaks a streak)."""
    stats = [PlayerStats(player) for player in range(players)]
    field = declarer_field(game)
    for hand in sorted(hands, key=lambda h: h[0]):
        number, data, deltas, result = hand[:4]
        seated = list(hand[4]) if len(hand) > 4 and hand[4] is not None else list(range(len(deltas)))
        seated = [p for p in seated if isinstance(p, int) and 0 <= p < players]
        for player in seated:
            if player < len(deltas):
                stats[player].add(number, int(deltas[player]))
        declarer = _declarer(field, data or {}, len(seated))
        made = contract_made(result or {}) if declarer is not None else None
        if made is not None:
            record = stats[seated[declarer]]
            record.declared += 1
            record.made += made
            record.failed += not made
    return stats


def has_declarer(game) -> bool:
    return declarer_field(game) is not None
