"""Players and seats during the evening: rename, swap, join, leave, replace."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import MalformedInput
from scoring.i18n import Text, t
from scoring.inputs import shown, strict_int
from scoring.registry import get_game

from .cleaning import clean_name
from .errors import seat_change_refused
from .models import MAX_PEOPLE, LedgerTable
from .writes import locked_table, write


SEAT_CHANGES = ("rename", "swap", "join", "leave", "replace")


def _seat_index(table: LedgerTable, value: Any, field: str = "seat") -> int:
    seat = strict_int(value)
    seats = table.seating()
    if seat is None or not 0 <= seat < len(seats):
        raise seat_change_refused(t("没有这个座位（「{v}」）：座位是 1 到 {n}", "there is no seat “{v}”: seats are 1 to {n}",
                                    v=shown(value, 10), n=len(seats)), field)
    return seat


def _seat_count_ok(table: LedgerTable, count: int) -> None:
    game = get_game(table.game)
    lo, hi = game.seat_range(table.rules)
    if not lo <= count <= hi:
        need = str(lo) if lo == hi else f"{lo}–{hi}"
        raise seat_change_refused(t("「{g}」按这张牌桌的规则要{k}个玩家，换座后会是{n}个；可以换人，不能只加或只减",
                                    "“{g}” with this table's rules is played by {k}; that change would leave {n}: "
                                    "replace a player instead", g=game.name, k=need, n=count))


def _new_player(table: LedgerTable, name: Any) -> int:
    """Add a player to the table's list (not seated yet); returns the index."""
    if len(table.players) >= MAX_PEOPLE:
        raise seat_change_refused(t("一张牌桌最多记{m}个人", "a table records at most {m} people", m=MAX_PEOPLE),
                                  "name")
    table.players = [*table.players, clean_name(name, len(table.players), list(table.players), "name")]
    table.add_to_totals(None)
    return len(table.players) - 1


def _rename(table: LedgerTable, seats: list[int], change: Mapping) -> None:
    seat = _seat_index(table, change.get("seat"))
    others = [n for i, n in enumerate(table.players) if i != seats[seat]]
    names = list(table.players)
    names[seats[seat]] = clean_name(change.get("name"), seats[seat], others, "name")
    table.players = names


def _swap(table: LedgerTable, seats: list[int], change: Mapping) -> None:
    a, b = _seat_index(table, change.get("seat")), _seat_index(table, change.get("other"), "other")
    seats[a], seats[b] = seats[b], seats[a]


def _join(table: LedgerTable, seats: list[int], change: Mapping) -> None:
    _seat_count_ok(table, len(seats) + 1)
    seats.append(_new_player(table, change.get("name")))


def _leave(table: LedgerTable, seats: list[int], change: Mapping) -> None:
    _seat_count_ok(table, len(seats) - 1)
    seats.pop(_seat_index(table, change.get("seat")))


def _replace(table: LedgerTable, seats: list[int], change: Mapping) -> None:
    seat = _seat_index(table, change.get("seat"))
    seats[seat] = _new_player(table, change.get("name"))


_CHANGES = {"rename": _rename, "swap": _swap, "join": _join, "leave": _leave, "replace": _replace}


def _unknown(kind: Any) -> MalformedInput:
    message: Text = t("不认识的换座「{k}」，可选：{valid}", "unknown seat change “{k}”; allowed: {valid}",
                      k=shown(kind, 20), valid=" / ".join(SEAT_CHANGES))
    return MalformedInput(message, field="kind", code="seat_change")


def _apply_seat_change(table: LedgerTable, change: Mapping) -> None:
    kind = change.get("kind")
    apply = _CHANGES.get(kind) if isinstance(kind, str) else None
    if apply is None:
        raise _unknown(kind)
    seats = table.seating()
    apply(table, seats, change)
    table.seated = seats


def change_seats(table_id: Any, token: str | None, change: Mapping) -> None:
    """Players and seats during the evening. Seats count from 0 here (the pages show 1-based numbers):

    * ``rename`` (seat, name): the player's name, on every hand (a typo, a nickname);
    * ``swap`` (seat, other): two players change seats for the next hands (the hands already played keep
      who sat where; totals follow the players);
    * ``join`` (name) / ``leave`` (seat): a seat more or less for the next hands, where the game's seat
      range allows it; a player who leaves keeps the name and total;
    * ``replace`` (seat, name): someone new takes that seat for the next hands (any game).

    At a game that carries state from hand to hand, the next hand after the players changed (join, leave,
    replace) starts afresh from its own input; a swap keeps what each player carries."""
    def work():
        table = locked_table(table_id, token)
        table.touch()
        table.reset()
        table.undone = None  # the next change: the undone hand is not offered back any more
        _apply_seat_change(table, change)

    write(work)
