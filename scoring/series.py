"""A table's hands one after another: a hand settled at a table (its deltas by player), and what the next hand
takes from it (``Game.carried``), each player's share following the player to a new seat.

Pure functions, shared by the ledger (webapp/ledger/settling.py, for the hands it records) and the phone (webapp/
offline_page.py, for the hands it holds with no signal): one copy of how a table chains its hands. A hand's
``seats`` are the players (indexes into the table's players) in seat order.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache

from .errors import InvalidInput, PaijuError
from .i18n import t


def per_player(deltas: list[int], seats: list[int], players: int) -> list[int]:
    """A hand's deltas by seat, as the ledger stores them: by player (0 for those not playing it)."""
    out = [0] * players
    for seat, d in enumerate(deltas):
        out[seats[seat]] += d
    return out


def follow_players(value: list, before: list[int], seats: list[int]) -> list:
    """Per-seat values of seats ``before`` moved to the seats the same players hold in ``seats``."""
    by_player = dict(zip(before, value))
    return [by_player[p] for p in seats]


def carried_to(carried: dict | None, before: list[int], seats: list[int] | None) -> dict | None:
    """What a hand played by ``before`` carries (``carried``), for the next hand played by ``seats``: each
    player's share following the player; None (a fresh start) when the players are not the same ones."""
    if carried is None or seats is None:
        return carried
    same_seats = before == seats
    if not same_seats and sorted(before) != sorted(seats):
        return None
    if any(isinstance(v, list) and len(v) != len(before) for v in carried.values()):
        return None
    if same_seats:  # the usual case: nobody moved
        return carried
    return {key: follow_players(value, before, seats) if isinstance(value, list) else value
            for key, value in carried.items()}


def carried_after(game, result: Mapping | None, before: list[int], seats: list[int] | None) -> dict | None:
    """What the next hand, played by ``seats``, takes from a hand played by ``before`` that answered ``result``;
    None: a fresh start (no hand before, a game that carries nothing, a hand that ended a series)."""
    if result is None or not game.carries_state:
        return None
    return carried_to(game.carried(result), before, seats)


def settle_at_table(game, data: Mapping, carried: dict | None, seats: list[int], players: int, rules,
                    quiet: bool = False) -> tuple[list[int], dict]:
    """One hand at a table: ``data`` (the hand's input) with what the table fills in (``Game.table_input``) and
    what the hand takes from the one before (``carried``), settled under ``rules``; returns its deltas by player
    and the engine's result. A hand settled for another number of seats than the table's is refused."""
    payload = {**game.table_input(len(seats)), **data, **(carried or {})}
    result = settle_quietly(game, payload, rules) if quiet else game.settle_payload(payload, rules).to_json()
    deltas = [int(d) for d in result["deltas"]]
    if len(deltas) != len(seats):
        raise InvalidInput(t("这张牌桌有{k}个座位，这一局却算出了{n}家的输赢；请按{k}家填写",
                             "this table has {k} seats but the hand settled {n}; enter it for {k} players",
                             k=len(seats), n=len(deltas)), field="input", code="seat_count")
    return per_player(deltas, seats, players), result


def settle_moved(game, data: Mapping, started: Mapping, ended: Mapping, deltas: list[int], carried: Mapping,
                 seats: list[int], players: int, rules) -> tuple[list[int], dict] | None:
    """:func:`settle_at_table`, quietly, of a hand settled before: what it gives from ``carried`` told by what it gave
    from ``started`` (the carried fields it started from) — ``deltas`` by player and the carried fields it ended with
    (``ended``; a hand that did not end a series) — without reading it again, where its game can tell
    (:meth:`Game.quiet_moved`); None where it cannot: then it is settled in full."""
    start = {key: carried[key] if key in carried else data[key] for key in game.carried_fields
             if key in carried or key in data}  # as {**data, **carried} has them
    if len(deltas) != players or len(set(seats)) != len(seats) or not all(0 <= p < players for p in seats):
        return None
    answer = game.quiet_moved(data, started, ended, [deltas[p] for p in seats], start, rules)
    if answer is None:
        return None
    return per_player(answer["deltas"], seats, players), answer


def settle_quietly(game, payload: Mapping, rules) -> dict:
    """``game.settle_quietly(payload, rules)``, the same answer and errors, faster in a chain settled again: the
    hand's input apart from what it carries is read once per process (:meth:`Game.quiet_from`, kept by its
    content and rules), and each settle from other carried values only runs the numbers. Whatever the shortcut
    refuses is settled in full, which says why."""
    carried = game.carried_fields
    own = {key: value for key, value in payload.items() if key not in carried}
    try:
        hand = _Hand((game.slug, getattr(rules, "key", None), json.dumps(own, sort_keys=True)), game, own, rules)
    except (TypeError, ValueError):  # not JSON: a hand the ledger never stores
        hand = None
    settled = _read_once(hand) if hand is not None and hand.key[1] is not None else None
    if settled is not None:
        try:
            return settled({key: payload[key] for key in carried if key in payload}).quiet()
        except PaijuError:
            pass
    return game.settle_quietly(payload, rules)


class _Hand:
    """A hand's input without its carried fields, with its game and rules, known by ``key`` (its content)."""
    __slots__ = ("key", "game", "own", "rules")

    def __init__(self, key: tuple, game, own: dict, rules):
        self.key, self.game, self.own, self.rules = key, game, own, rules

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Hand) and self.key == other.key


@lru_cache(maxsize=2048)  # the longest chain (the hand limit); a few KB a hand, ~30 KB for the largest Q783 hands
def _read_once(hand: _Hand) -> Callable[[Mapping], dict] | None:
    try:
        return hand.game.quiet_from(hand.own, hand.rules)
    except PaijuError:
        return None  # refused: settled in full each time (which says why)


def forget_read_hands() -> None:
    """Forget every hand :func:`settle_quietly` read (as a new process starts): for benches and tests."""
    _read_once.cache_clear()
