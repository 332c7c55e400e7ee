"""Issue 42's table: every row's goal, and the summary ``python -m bench`` prints at the end of a run.

Each part that measures a row returns it (:class:`Row`: the row's :class:`Goal`, this run's figure and what was
measured) instead of the summary reading its printed lines. The summary lists every row of the table, in the
table's order, whether or not this run measured it; a row two parts measure (the worst hint: ``hints``' cases
and ``search``'s random positions) shows the worse figure. Every goal is a ceiling ("at most"). No assertion:
figures to watch, not a test.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Goal:
    """One row of issue 42's table: what is measured, its ceiling and unit, and the part that measures it."""
    what: str
    at_most: float
    unit: str
    part: str
    digits: int = 1  # the figure's decimals

    def row(self, value: float, where: str = "") -> Row:
        return Row(self, value, where)

    def shown(self, value: float | None = None) -> str:
        """A figure in the row's unit (the goal's ceiling when none is given)."""
        number = f"{self.at_most:,g}" if value is None else f"{value:,.{self.digits}f}"
        return f"{number} {self.unit}".replace(" ×", "×")


@dataclass(frozen=True)
class Row:
    """One row's figure from this run; ``where``: what it is the figure of (the case, the page)."""
    goal: Goal
    value: float
    where: str = ""

    @property
    def met(self) -> bool:
        return self.value <= self.goal.at_most


OFFLINE_WIRE = Goal("turning offline on: bytes on the wire", 5.0, "MB", "offline", 2)
OFFLINE_READY = Goal("turning offline on: ready after the tap", 3.0, "s", "offline")
OFFLINE_SWITCH = Goal("first offline answer after a tab switch", 300, "ms", "offline", 0)
OFFLINE_FIRST = Goal("first offline answer of a visit", 1500, "ms", "offline", 0)
#: "keep": no slower than the issue's 56–105 ms from tap to answer
OFFLINE_LATER = Goal("later offline answers, tap → answer (keep: the issue's 56–105 ms)", 105, "ms", "offline", 0)
PEER = Goal("per legal play, Paiju 跑得快 / RLCard Dou Dizhu leads", 1.5, "×", "peer", 2)
HINT_DEFAULT = Goal("worst hint, default limit (CPU)", 25.0, "ms", "hints")
HINT_5000 = Goal("worst hint, limit 5000 (CPU)", 100.0, "ms", "hints")
LONG_EDIT = Goal("editing hand 1 of a 300-hand Q783 table (CPU, a worker's first edit)", 30, "ms", "ledger", 0)
FIRST_HOME = Goal("first visit: home page", 30, "KB", "first_visit")
FIRST_SETTLE = Goal("first visit: settle page", 30, "KB", "first_visit")
FIRST_TABLE = Goal("first visit: table page", 30, "KB", "first_visit")
#: "the install's fetches only after the page is idle": none before a page's load, over the three pages
FIRST_WORKER = Goal("first visit: service worker's fetches before a page's load", 0, "requests", "first_visit", 0)

#: the table's rows, in its order
GOALS = (OFFLINE_WIRE, OFFLINE_READY, OFFLINE_SWITCH, OFFLINE_FIRST, OFFLINE_LATER, PEER, HINT_DEFAULT, HINT_5000,
         LONG_EDIT, FIRST_HOME, FIRST_SETTLE, FIRST_TABLE, FIRST_WORKER)
#: the parts that measure a row (``search`` looks for worse hints than ``hints``' cases)
PARTS = tuple(dict.fromkeys(goal.part for goal in GOALS)) + ("search",)


def worst(rows: list[Row]) -> dict[Goal, Row]:
    """Each goal's worst figure among ``rows`` (the largest: every goal is a ceiling)."""
    found: dict[Goal, Row] = {}
    for row in rows:
        if row.goal not in found or row.value > found[row.goal].value:
            found[row.goal] = row
    return found


def summary(rows: list[Row], ran: list[str], failed: list[str] = ()) -> list[str]:
    """The lines of the summary: a Markdown table of every goal of :data:`GOALS` (and any other goal a row
    names), this run's figure, the goal and met/MISSED; ``ran``: the parts this run ran, ``failed`` those of
    them that failed (a row none measured says why)."""
    found = worst(rows)
    lines = ["issue 42's table, this run (no assertion: figures to watch)", "",
             "| what | this run | goal | |", "|---|---|---|---|"]
    shown = GOALS + tuple(g for g in found if g not in GOALS)
    for goal in shown:
        limit = f"≤ {goal.shown()}"
        row = found.get(goal)
        if row is None:
            why = (f"part {goal.part} failed" if goal.part in failed else "not measured" if goal.part in ran
                   else f"part {goal.part} not run")
            lines.append(f"| {goal.what} | — ({why}) | {limit} | — |")
            continue
        where = f" ({row.where})" if row.where else ""
        lines.append(f"| {goal.what} | {goal.shown(row.value)}{where} | {limit} | {'met' if row.met else 'MISSED'} |")
    met = sum(row.met for row in found.values())
    lines += ["", f"{met} of {len(shown)} rows within their goal, {len(found) - met} missed, "
                  f"{len(shown) - len(found)} not measured"]
    return lines
