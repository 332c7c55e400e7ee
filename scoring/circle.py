"""A circle's season (牌友圈): the evenings the same people played in a row, added up by name.

Pure functions (no Flask, no database). An evening is given as :class:`Evening`: its table's id and start, the
names of its players, its hands as :func:`scoring.evening.evening_stats` reads them (with the fifth item, the
players in the hand's seats) and every player's total.

* **Standings** add up each name's evenings: total, evenings, hands, hands won, 庄家 made / failed (the
  evening's own statistics, :mod:`scoring.evening`).
* **Partners** (搭子): for games with sides (:meth:`scoring.games.Game.sides`), every two names on the same side
  of a hand, with the hands they played together and the two players' points added up over those hands.
* **Rivals** (对头): a name's points over the hands where another name sat on the opposite side; a player's
  对头 is the opponent against whom that sum is lowest, when it is below zero (the one they lost most against).
* **Aliases** merge two spellings of one person: ``{name: same_as}``, followed to the end of the chain.
  Two names of one table merged into one count as one player whose points add up.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from collections.abc import Mapping, Sequence
from typing import Any

from .evening import Hand, evening_stats
from .games import Game


@dataclass(frozen=True)
class Evening:
    table: str
    started_at: str | None
    players: Sequence[str]
    hands: Sequence[Hand]
    totals: Sequence[int]
    rules: Any = None  # the table's resolved house rules (what Game.sides reads of a hand without its own)


@dataclass
class Standing:
    name: str
    evenings: int = 0
    hands: int = 0
    total: int = 0
    won: int = 0
    declarer_made: int = 0
    declarer_failed: int = 0


@dataclass
class Together:
    """Two names over the hands they played on the same side (``total``: both players' points) or, as
    rivals, on opposite sides (``total``: the first one's points)."""
    a: str
    b: str
    hands: int = 0
    total: int = 0


@dataclass
class EveningLine:
    table: str
    started_at: str | None
    hands: int
    totals: dict[str, int]
    played: dict[str, int] = field(default_factory=dict)  # the hands each name played that evening


@dataclass
class Season:
    evenings: list[EveningLine]
    standings: list[Standing]
    partners: list[Together]
    rivals: list[Together]  # each name's 对头, in the standings' order (only those who lost against someone)

    def running(self) -> dict[str, list[int]]:
        """Each name's total after each evening (flat through the evenings they missed)."""
        out: dict[str, list[int]] = {s.name: [] for s in self.standings}
        for line in self.evenings:
            for name, points in out.items():
                points.append((points[-1] if points else 0) + line.totals.get(name, 0))
        return out


def has_sides(game) -> bool:
    """Whether the game's hands can have sides (it answers :meth:`~scoring.games.Game.sides`)."""
    return type(game).sides is not Game.sides


def canonical(name: str, aliases: Mapping[str, str]) -> str:
    """The name ``name`` counts as: its alias, that one's, and so on (a loop stops where it closes)."""
    seen = {name}
    while name in aliases and aliases[name] not in seen:
        name = aliases[name]
        seen.add(name)
    return name


def season(game, evenings: Sequence[Evening], aliases: Mapping[str, str] | None = None) -> Season:
    """The circle's season over ``evenings`` (in order), names merged by ``aliases``. An evening with no hand
    (the next one, opened and not played yet) is not one the players spent: it is not counted."""
    aliases = aliases or {}
    standings: dict[str, Standing] = {}
    lines, sides = [], _SideBook()
    for evening in (e for e in evenings if e.hands):
        names = [canonical(n, aliases) for n in evening.players]
        lines.append(_add_evening(game, evening, names, standings))
        for hand in evening.hands:
            sides.add(game, evening.rules, names, hand)
    ranked = sorted(standings.values(), key=lambda s: (-s.total, s.name))
    order = {s.name: i for i, s in enumerate(ranked)}
    return Season(lines, ranked, sides.partners(), sides.rivals(order))


def _add_evening(game, evening: Evening, names: list[str], standings: dict[str, Standing]) -> EveningLine:
    line = EveningLine(evening.table, evening.started_at, len(evening.hands), {})
    for name in dict.fromkeys(names):
        standings.setdefault(name, Standing(name)).evenings += 1
    for name, total, stats in zip(names, evening.totals, evening_stats(game, len(names), evening.hands)):
        line.totals[name] = line.totals.get(name, 0) + int(total)
        line.played[name] = line.played.get(name, 0) + stats.hands
        record = standings[name]
        record.total += int(total)
        record.hands += stats.hands
        record.won += stats.won
        record.declarer_made += stats.made
        record.declarer_failed += stats.failed
    return line


class _SideBook:
    """The hands played on the same side and on opposite sides, by pair of names."""

    def __init__(self):
        self.same: dict[tuple[str, str], Together] = {}
        self.against: dict[tuple[str, str], Together] = {}

    def add(self, game, rules, names: list[str], hand: Hand) -> None:
        teams = _named_sides(game, rules, names, hand)
        for team in teams:
            for (a, da), (b, db) in combinations(sorted(team.items()), 2):
                self._count(self.same, a, b, da + db)
        for mine, theirs in ((x, y) for x in teams for y in teams if x is not y):
            for a, da in mine.items():
                for b in theirs:
                    self._count(self.against, a, b, da)

    @staticmethod
    def _count(book: dict, a: str, b: str, points: int) -> None:
        pair = book.setdefault((a, b), Together(a, b))
        pair.hands += 1
        pair.total += points

    def partners(self) -> list[Together]:
        """Every pair that sat on one side, those who gained most together first."""
        return sorted(self.same.values(), key=lambda p: (-p.total, -p.hands, p.a, p.b))

    def rivals(self, order: Mapping[str, int]) -> list[Together]:
        worst: dict[str, Together] = {}
        for pair in self.against.values():
            known = worst.get(pair.a)
            if pair.total < 0 and (known is None or (pair.total, -pair.hands, pair.b) < (known.total, -known.hands,
                                                                                          known.b)):
                worst[pair.a] = pair
        return sorted(worst.values(), key=lambda p: order.get(p.a, len(order)))


def _named_sides(game, rules, names: list[str], hand: Hand) -> list[dict[str, int]]:
    """The hand's sides as {name: the hand's points} (a name not seated, or a seat outside the hand, is left
    out; so is a name seated on two sides at once, merged by an alias)."""
    _number, data, deltas, _result = hand[:4]
    seated = list(hand[4]) if len(hand) > 4 and hand[4] is not None else list(range(len(deltas)))
    if len(hand) > 5 and hand[5] is not None:
        rules = hand[5]  # the hand's own rules: those it was played with, when they changed during the evening
    sides = game.sides(data if isinstance(data, Mapping) else {}, rules, len(seated)) or []
    teams: list[dict[str, int]] = []
    for side in sides:
        team: dict[str, int] = {}
        for seat in side:
            player = seated[seat] if 0 <= seat < len(seated) else None
            if isinstance(player, int) and 0 <= player < min(len(names), len(deltas)):
                team[names[player]] = team.get(names[player], 0) + int(deltas[player])
        teams.append(team)
    twice = {n for x, y in combinations(teams, 2) for n in x.keys() & y.keys()}
    return [{n: d for n, d in team.items() if n not in twice} for team in teams]
