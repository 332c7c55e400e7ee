"""Hint speed of 跑得快 under the house rules of the turn (``python -m bench.paodekuai``).

Prints the median wall and CPU time of ``paodekuai/hint`` on a 16-card hand of
five consecutive triples (the hand where 牌够只能三带二 adds the most candidates:
short-winged planes), as a lead and against an airplane, with and without the
rules. No assertion: a figure to watch, not a test.
"""
from __future__ import annotations

from bench.__main__ import repeats, time_hint
from scoring.registry import get_game

HAND = "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♦8"
AIRPLANE = "♠9 ♥9 ♣9 ♠10 ♥10 ♣10 ♠J ♥Q ♠K ♥K"
RULES = [("default rules", {}), ("full_kickers", {"full_kickers": True}),
         ("full_kickers + baodan_max, next on one card", {"full_kickers": True, "baodan_max": True})]


def main(argv=None) -> int:
    repeat = repeats(argv)
    game = get_game("paodekuai")
    print(f"跑得快 hint (paodekuai48), 16-card hand: {HAND}")
    for name, rules in RULES:
        for where, previous in (("lead", None), ("against an airplane", AIRPLANE)):
            payload = {"hand": HAND, "previous": previous, "next_cards_left": 1, "limit": 5000,
                       "rules": {"preset": "paodekuai48", **rules}}
            time_hint(game, f"{name}, {where}", payload, repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
