"""Following a trick game's hand live: the trick-by-trick points counter of 红五 and 二七王.

A game declares a :class:`LiveCounter`; :meth:`LiveCounter.describe` says, for a table's rules, which settle
fields the counter fills at the end of the hand (the points, the bottom, the last trick, the red fives) and
how the rules count the bottom, so that the page adds up tricks and never decides a rule itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .i18n import Text, t

DECLARER, DEFENDERS = "declarer", "defenders"


@dataclass(frozen=True)
class LastTrick:
    """One way the last trick can end: the side that took it, how many times the bottom's points then count
    for the side that may score them (0: not at all), and the settle fields this outcome sets."""

    value: str
    label: Text
    won_by: str
    times: int
    fills: Mapping[str, Any]

    def describe(self) -> dict:
        return {"value": self.value, "label": self.label, "won_by": self.won_by, "times": self.times,
                "fills": dict(self.fills)}


@dataclass(frozen=True)
class LiveCounter:
    """What a trick game's counter fills: ``points_field`` gets the points in the tricks ``counted_side`` won."""

    points_field: str
    counted_side: str
    total: Callable[[Any], int]                       # the points in the pack
    partner_offset: Callable[[Any], int | None]       # the 庄家's partner sits this many seats on (None: alone)
    bottom_field: Callable[[Any], str | None]         # where the bottom's points go (None: these rules ignore it)
    bottom_side: str                                  # the side that may score the bottom
    bottom_max: Callable[[Any], int]
    last_tricks: Callable[[Any], tuple[LastTrick, ...]]
    declarer_field: str = "declarer"
    red_fives: str | None = None                      # a rows field of (owner, captured_by)
    red_five_max: Callable[[Any], int] = lambda rules: 0
    red_five_swing: int = 0                           # card points a captured red five moves
    goal: Callable[[Any], dict] | None = None         # what the bid asks of which side (shown, never settled)

    def describe(self, rules) -> dict:
        bottom = self.bottom_field(rules)
        return {
            "goal": self.goal(rules) if self.goal else None,
            "declarer": self.declarer_field, "points": self.points_field, "side": self.counted_side,
            "total": self.total(rules), "partner": self.partner_offset(rules),
            "bottom": None if bottom is None else {"field": bottom, "side": self.bottom_side,
                                                    "max": self.bottom_max(rules)},
            "last": [lt.describe() for lt in self.last_tricks(rules)] if bottom is not None else [],
            "red_fives": None if not self.red_fives else {
                "field": self.red_fives, "owner": "owner", "by": "captured_by",
                "max": self.red_five_max(rules), "swing": self.red_five_swing},
        }


def red_five_counter(total: Callable[[Any], int], bottom_cap: Callable[[Any], int], swing: int,
                     bottom_always: Callable[[Any], bool], beyond_bid: Callable[[Any], bool]) -> LiveCounter:
    """红五: the 庄家 alone; the bottom is the 庄家's when the 庄家 wins the last trick, or always when the rules
    say so (``bottom_always``); a red five is captured by the side that wins its trick; the 庄家 makes it with
    points above the bid, or reaching it where ``beyond_bid`` is false."""

    def last_tricks(rules) -> tuple[LastTrick, ...]:
        return (LastTrick(DECLARER, t("庄家赢了最后一墩", "the 庄家 won the last trick"), DECLARER, 1,
                          {"declarer_took_bottom": True}),
                LastTrick(DEFENDERS, t("闲家赢了最后一墩", "the 闲家 won the last trick"), DEFENDERS,
                          1 if bottom_always(rules) else 0, {"declarer_took_bottom": False}))

    def goal(rules) -> dict:
        """What the bid asks of the 庄家, counting the bottom and the red fives."""
        return {"field": "bid", "side": DECLARER, "beyond": beyond_bid(rules), "swing": True}

    return LiveCounter("declarer_points", DECLARER, total, lambda rules: None, lambda rules: "bottom_points",
                       DECLARER, bottom_cap, last_tricks, red_fives="red_fives",
                       red_five_max=lambda rules: rules.decks, red_five_swing=swing, goal=goal)


def bottom_bonus_counter(total: int, bottom_cap: int, times: Mapping[str, int],
                         choices: tuple[tuple[str, Text], ...], partner_offset: Callable[[Any], int | None],
                         bottom_scored: Callable[[Any], bool]) -> LiveCounter:
    """二七王: the 庄家 with a partner ``partner_offset`` seats on, or alone (None); where ``bottom_scored`` the
    闲家 score the bottom × the times their winning play on the last trick gives (``times``)."""

    def last_tricks(rules) -> tuple[LastTrick, ...]:
        return tuple(LastTrick(value, words, DEFENDERS if times[value] else "either", times[value],
                               {"last_trick": value}) for value, words in choices)

    return LiveCounter("defender_points", DEFENDERS, lambda rules: total,
                       partner_offset,
                       lambda rules: "bottom_points" if bottom_scored(rules) else None,
                       DEFENDERS, lambda rules: bottom_cap, last_tricks,
                       goal=lambda rules: {"field": "bid", "side": DEFENDERS, "beyond": False, "swing": False})
