"""The registry of games and the one entry point the API and pages share.

Each game module ``scoring/<slug>.py`` defines ``GAME = Game(...)``. A game
whose module does not exist yet is listed as *coming*, so the home page and
``GET /api/v1/games`` never show a dead link.

Actions are plain functions ``action(payload, rules) -> dict``: ``payload``
is the JSON-shaped input (the API body, or what a form builds), ``rules`` the
resolved :class:`~scoring.rules.Rules`. The dict may hold
:class:`~scoring.i18n.Text` values; the web layer renders them.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import PaijuError
from .i18n import Text, t
from .payload import require_mapping
from .rules import RuleSet

SLUGS = ("paodekuai", "shuangkou", "q783", "hongwu", "erqiwang")

NAMES = {
    "paodekuai": t("跑得快 / 争上游", "Paodekuai / Zhengshangyou"),
    "shuangkou": t("双扣", "Shuangkou"),
    "q783": t("Q783", "Q783"),
    "hongwu": t("红五 三打一", "Hongwu (Red Five, three against one)"),
    "erqiwang": t("南昌二七王", "Nanchang Erqiwang (2-7-jokers)"),
}

Action = Callable[[Mapping, Any], dict]


@dataclass(frozen=True)
class Game:
    slug: str
    kind: str  # "shedding" or "trick"
    ruleset: RuleSet | None
    actions: Mapping[str, Action] = field(default_factory=dict)
    summary: Text | None = None
    built: bool = True
    # For the card picker and input checks: the pack a rules choice plays with,
    # and whether bare ranks (suit unknown) are accepted.
    deck_for: Callable[[Any], Any] | None = None
    bare_ranks: bool = False
    #: how many seats these (resolved) rules play with: (fewest, most); default 4
    seats: Callable[[Any], tuple[int, int]] | None = None

    def seat_range(self, rules=None) -> tuple[int, int]:
        if self.seats is None or self.ruleset is None:
            return (4, 4)
        return self.seats(self.ruleset.resolve(rules))

    @property
    def name(self) -> Text:
        return NAMES[self.slug]

    def run(self, action: str, payload: Any) -> dict:
        """Validate the payload's ``rules`` and run one action."""
        if action not in self.actions:
            raise UnknownAction(action)
        payload = require_mapping(payload)
        rules = self.ruleset.resolve(payload.get("rules"))
        return self.actions[action](payload, rules)

    def describe(self) -> dict:
        out = {"slug": self.slug, "name": self.name, "kind": self.kind, "built": self.built,
               "actions": sorted(self.actions), "presets": [], "options": []}
        if self.ruleset is not None:
            out.update(self.ruleset.describe())
        return out


class UnknownAction(PaijuError):
    status = 404
    default_code = "not_found"

    def __init__(self, action: str):
        super().__init__(t("没有「{a}」这个功能", "there is no “{a}” here", a=action))


def _coming(slug: str) -> Game:
    kind = "trick" if slug in ("hongwu", "erqiwang") else "shedding"
    return Game(slug, kind, None, {}, t("即将推出", "coming soon"), built=False)


_CACHE: dict[str, Game] = {}


def get_game(slug: str) -> Game | None:
    if slug not in SLUGS:
        return None
    if slug not in _CACHE:
        try:
            module = importlib.import_module(f"scoring.{slug}")
            _CACHE[slug] = getattr(module, "GAME")
        except ModuleNotFoundError as exc:
            if exc.name != f"scoring.{slug}":
                raise
            _CACHE[slug] = _coming(slug)
    return _CACHE[slug]


def all_games() -> list[Game]:
    return [get_game(s) for s in SLUGS]


def settlement(deltas: list[int], steps: list[Text], **extra: Any) -> dict:
    """The shape every settle action returns; checks the zero-sum invariant."""
    deltas = [int(d) for d in deltas]
    if sum(deltas) != 0:  # an engine bug, never user input
        raise AssertionError(f"settlement is not zero-sum: {deltas}")
    return {"deltas": deltas, "steps": list(steps), **extra}
