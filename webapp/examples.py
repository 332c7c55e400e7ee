"""Worked examples for the rules pages (each game declares its own, ``Game.examples``), computed live by the
engine."""
from __future__ import annotations

from scoring.errors import PaijuError
from scoring.i18n import render


def examples_for(game, lang: str) -> list[dict]:
    out = []
    for action, title, payload in game.examples:
        if action not in game.action_names():
            continue
        try:
            result = render(game.run(action, payload), lang)
        except PaijuError as exc:  # an example must never break the page
            result = {"error": render(exc.message, lang)}
        out.append({"action": action, "title": render(title, lang), "payload": payload, "result": result})
    return out
