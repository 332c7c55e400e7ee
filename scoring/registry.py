"""The five games, in the order the home page lists them."""
from __future__ import annotations

from . import erqiwang, hongwu, paodekuai, q783, shuangkou
from .games import Game

GAMES: tuple[Game, ...] = (paodekuai.GAME, shuangkou.GAME, q783.GAME, hongwu.GAME, erqiwang.GAME)
SLUGS: tuple[str, ...] = tuple(g.slug for g in GAMES)
_BY_SLUG = {g.slug: g for g in GAMES}


def get_game(slug: str) -> Game | None:
    return _BY_SLUG.get(slug) if isinstance(slug, str) else None


def all_games() -> tuple[Game, ...]:
    return GAMES
