"""Hint speed on a 27-card 双扣 hand with four jokers (``python -m bench``).

Prints the median wall and CPU time of ``shuangkou/hint`` (engine call, as the API
runs it) against a 5-card straight and as a lead, and, for a hand of eight 9s, under
``wild_over_eight`` against eight of a kind and as a lead, with the number of plays found;
then the worst shedding hints against the exhaustive oracle (``bench/hints.py``) and
RLCard's lead generator against Paiju's (``bench/peer.py``, when RLCard is installed).
No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import statistics
import sys
import time

from bench import hints, peer
from scoring.registry import get_game

HAND = "大王 大王 小王 小王 2 2 A A K Q Q J 10 10 9 9 8 8 7 7 6 5 5 4 4 3 3"
EIGHT_NINES = "大王 大王 小王 小王 9 9 9 9 9 9 9 9 A A K K Q Q J J 10 10 8 8 7 7 6"
OVER_EIGHT = {"wild_over_eight": True}  # bombs past eight of a kind: sizes 9 … 12 are generated too
CASES = [("against a 5-card straight (3 4 5 6 7)", HAND, "3 4 5 6 7", {}), ("as a lead", HAND, None, {}),
         ("eight 9s and four jokers against eight 5s, wild_over_eight", EIGHT_NINES, "5 5 5 5 5 5 5 5", OVER_EIGHT),
         ("eight 9s and four jokers as a lead, wild_over_eight", EIGHT_NINES, None, OVER_EIGHT)]


def median_ms(fn, repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time of one call, in ms (CPU time is steadier on a busy machine)."""
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def time_hint(game, name: str, payload: dict, repeat: int) -> None:
    """Print the median time of one hint request and what it found."""
    out = game.run("hint", payload)
    wall, cpu = median_ms(lambda: game.run("hint", payload), repeat)
    print(f"  {name}: median {wall:.1f} ms wall, {cpu:.1f} ms CPU over {repeat} runs; {len(out['plays'])} plays"
          f"{' (truncated at the limit)' if out['truncated'] else ''}; smallest {out['smallest']!r}")


def repeats(argv) -> int:
    return int((argv or sys.argv[1:] or ["31"])[0])


def main(argv=None) -> int:
    repeat = repeats(argv)
    game = get_game("shuangkou")
    print(f"双扣 hint, 27-card hands with four jokers: {HAND} / {EIGHT_NINES}")
    for name, hand, previous, rules in CASES:
        time_hint(game, name, {"hand": hand, "previous": previous, "rules": rules}, repeat)
    hints.main([str(min(repeat, 11))])
    peer.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
