"""Hint speed on a 27-card 双扣 hand with four jokers (``python -m bench``).

Prints the median wall time of ``shuangkou/hint`` (engine call, as the API
runs it) against a 5-card straight and as a lead, with the number of plays
found. No assertion: a figure to watch, not a test.
"""
from __future__ import annotations

import statistics
import sys
import time

from scoring.games import get_game

HAND = "大王 大王 小王 小王 2 2 A A K Q Q J 10 10 9 9 8 8 7 7 6 5 5 4 4 3 3"
CASES = [("against a 5-card straight (3 4 5 6 7)", "3 4 5 6 7"), ("as a lead", None)]


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv=None) -> int:
    repeat = int((argv or sys.argv[1:] or ["31"])[0])
    game = get_game("shuangkou")
    print(f"双扣 hint, 27-card hand with four jokers: {HAND}")
    for name, previous in CASES:
        payload = {"hand": HAND, "previous": previous}
        out = game.run("hint", payload)
        ms = median_ms(lambda: game.run("hint", payload), repeat)
        print(f"  {name}: median {ms:.1f} ms over {repeat} runs; {len(out['plays'])} plays"
              f"{' (truncated at the limit)' if out['truncated'] else ''}; smallest {out['smallest']!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
