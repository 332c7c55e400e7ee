"""Every benchmark in turn (``python -m bench [part …] [repeat]``), each printing its figures and ratios.

The parts, in the order they run (name one or more to run only those):

* ``shuangkou``: the median wall and CPU time of ``shuangkou/hint`` (engine call, as the API runs it) on a
  27-card hand with four jokers against a 5-card straight and as a lead, and, for a hand of eight 9s, under
  ``wild_over_eight`` against eight of a kind and as a lead, with the number of plays found;
* ``hints``: the worst shedding hints against the exhaustive oracle (``bench/hints.py``);
* ``trick``: the worst 红五 / 二七王 follows against theirs (``bench/trick.py``);
* ``search``: a random search, each game and preset in turn, for the slowest hint at the default limit
  and at 5000, between the hand-picked cases above (``bench/hint_search.py``; ``repeat`` is the seconds
  per case, default 10);
* ``peer``: RLCard's Dou Dizhu lead generator against Paiju's 跑得快 leads, per legal play
  (``bench/peer.py``, when RLCard is installed);
* ``ledger``: the ledger's record, edit, page and live poll at 1, 100, 500 and 2,000 hands
  (``bench/ledger.py``; PostgreSQL too when ``PAIJU_BENCH_POSTGRES_URL`` is set);
* ``load``: throughput and latency of the main endpoints and pages against a bare Flask route under
  gunicorn at 1, 8 and 32 clients (``bench/load.py``);
* ``instructions``: the same endpoints' instructions per request in process, counted by valgrind: the
  same count every run, where the load run's ratios move by a few hundredths; and a ledger record's at
  the end of a table of 1 and of 500 hands (``bench/instructions.py``);
* ``taps``: the taps and swipes a typical hand takes on a table page in Chromium (360 × 780, touch), against a
  budget per hand; swipes: 0 (``bench/taps.py``);
* ``offline``: offline mode in Chromium: the bytes downloaded when it is turned on, the time to the first
  offline answer cold and warm, the memory the page and its engine hold (``bench/offline.py``);
* ``first_visit``: a new phone's first visit in Chromium: the bytes the home, settle and table pages download
  until loaded, against 30 KB, and what the service worker fetches before and after (``bench/first_visit.py``).

``repeat`` (a number) is how many runs the timing parts take their medians over. ``goals`` stands for the parts
that measure a row of issue 42's table (``python -m bench goals``: hints, search, peer, ledger, offline,
first_visit). A run that includes any of them ends with issue 42's table: every row, its figure from this run, its
goal and met/MISSED (``bench/goals.py``). A part that fails prints its error and the run goes on to the next (its
rows are then not measured; the run's exit status is 1). No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import importlib
import statistics
import sys
import time
import traceback

from bench import goals
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


def shuangkou(repeat: int) -> None:
    game = get_game("shuangkou")
    print(f"双扣 hint, 27-card hands with four jokers: {HAND} / {EIGHT_NINES}")
    for name, hand, previous, rules in CASES:
        time_hint(game, name, {"hand": hand, "previous": previous, "rules": rules}, repeat)


#: each part: how it runs, given the repeat asked for (None: its own default); a part that measures rows of issue
#: 42's table returns them (``bench.goals.Row``), the others what their ``main`` does
PARTS = {
    "shuangkou": lambda repeat: shuangkou(repeat or 31),
    "hints": lambda repeat: _module("hints").measure(repeat or 11),
    "trick": lambda repeat: _module("trick").main([str(repeat or 5)]),
    "search": lambda repeat: _module("hint_search").main([str(repeat or 10)]),
    "peer": lambda repeat: _module("peer").measure(),
    "ledger": lambda repeat: _module("ledger").measure_all(repeat or 7),
    "load": lambda repeat: _module("load").main([]),
    "instructions": lambda repeat: _module("instructions").main([]),
    "taps": lambda repeat: _module("taps").main(),
    "offline": lambda repeat: _module("offline").measure(repeat or 5),
    "first_visit": lambda repeat: _module("first_visit").measure(),
}
#: names that stand for several parts: ``goals``, those that measure a row of issue 42's table
GROUPS = {"goals": [name for name in PARTS if name in goals.PARTS]}


def _module(name: str):
    """A part's module, imported when it runs (they import this one for its helpers)."""
    return importlib.import_module(f"bench.{name}")


def part_names(args: list[str]) -> list[str]:
    """The parts named (a group by its parts, each part once, in the order named), or every part."""
    named = [a for a in args if not a.isdigit()] or list(PARTS)
    return list(dict.fromkeys(part for name in named for part in GROUPS.get(name, [name])))


def run_parts(names: list[str], repeat: int | None) -> tuple[list, list[str]]:
    """Run each part in turn: the rows of issue 42's table they returned, and the parts that failed (each
    failure's traceback printed, the run going on)."""
    rows, failed = [], []
    for name in names:
        print(f"== {name} ==", flush=True)
        try:
            out = PARTS[name](repeat)
        except (Exception, SystemExit) as error:  # a part's failure (valgrind missing…) costs no other part's figures
            if isinstance(error, SystemExit):
                print(f"{name}: {error}")
            else:
                traceback.print_exc(file=sys.stdout)
            failed.append(name)
            out = None
        rows.extend(out if isinstance(out, list) else [])
        sys.stdout.flush()
    return rows, failed


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    numbers = [a for a in args if a.isdigit()]
    names = part_names(args)
    unknown = [n for n in names if n not in PARTS]
    if unknown:
        print(f"no such part: {', '.join(unknown)}; the parts are {', '.join(PARTS)}, or {', '.join(GROUPS)}")
        return 2
    repeat = int(numbers[0]) if numbers else None
    rows, failed = run_parts(names, repeat)
    if set(names) & set(goals.PARTS):
        print("== summary ==")
        print("\n".join(goals.summary(rows, names, failed)))
    if failed:
        print(f"failed: {', '.join(failed)} (see above)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
