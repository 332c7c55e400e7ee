"""A trick-taking game (红五, 二七王) as a :class:`~scoring.games.Game`: its actions come from the trick core."""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from ..games import ActionTable, Game
from ..inputs import Schema
from .actions import ANSWERS, TRICK_READING, trick_actions, trick_input
from .bidding import BIDDING_ANSWER, BIDDING_INPUT, BidRules, bidding_action
from .order import TrickSpec


class TrickGame(Game):
    """Adds the trick-winner and bidding tabs; ``spec_of`` and ``bid_rules_of`` give the core what it needs."""

    kind = "trick"
    extra_tabs = ("trick", "bidding")
    spec_of: ClassVar[Callable[[Any], TrickSpec]]
    bid_rules_of: ClassVar[Callable[[Any], BidRules]]

    def actions(self):
        if "_actions" not in self.__dict__:  # built once per game: the actions are plain functions
            self._actions = ActionTable({**trick_actions(self.spec_of), "bidding": bidding_action(self.bid_rules_of)},
                                        action_input, {**ANSWERS, "bidding": BIDDING_ANSWER}, TRICK_READING)
        return self._actions


def action_input(action: str, rules: Any) -> Schema | None:
    return BIDDING_INPUT if action == "bidding" else trick_input(action)
