"""Worked examples for the rules pages, computed live by the engine."""
from __future__ import annotations

from scoring.errors import PaijuError
from scoring.i18n import render, t

EXAMPLES = {
    "paodekuai": [
        ("settle", t("52张：0号位出完，其他人剩 5、13、10 张", "52 cards: seat 0 goes out, the others hold 5, 13, 10"),
         {"winner": 0, "cards_left": [0, 5, 13, 10]}),
        ("settle", t("48张（3人）：1号位出完", "48 cards (3 players): seat 1 goes out"),
         {"winner": 1, "cards_left": [4, 0, 12], "rules": {"preset": "paodekuai48"}}),
        ("settle", t("按张计分（per_card）：报单不扣、全关加倍", "per_card: one card left pays 0, none played pays double"),
         {"winner": 0, "cards_left": [0, 1, 3, 13], "rules": {"penalty": "per_card"}}),
        ("check", t("同花顺压顺子（争上游108张）", "a straight flush beats a straight (108 cards)"),
         {"previous": "♠5 ♥6 ♣7 ♦8 ♠9", "play": "♥3 ♥4 ♥5 ♥6 ♥7", "rules": {"preset": "zhengshangyou108"}}),
        ("check", t("3带1 不能压 3带2", "3+1 cannot beat 3+2"),
         {"previous": "♠8 ♥8 ♣8 ♠4 ♥4", "play": "♠10 ♥10 ♣10 ♦3", "rules": {"preset": "paodekuai48"}}),
    ],
}


def examples_for(game, lang: str) -> list[dict]:
    out = []
    for action, title, payload in EXAMPLES.get(game.slug, []):
        if action not in game.actions:
            continue
        try:
            result = render(game.run(action, payload), lang)
        except PaijuError as exc:  # an example must never break the page
            result = {"error": render(exc.message, lang)}
        out.append({"action": action, "title": render(title, lang), "payload": payload, "result": result})
    return out
