"""The worst shedding hints against the exhaustive oracle (``python -m bench.hints [repeat]``, also in ``python -m bench``).

Each case is one ``hint`` request as the API runs it (engine call): its median CPU
time over ``repeat`` runs, at the request's limit; then the oracle, run once: every
distinct sub-multiset of the hand judged directly (``judge``), sorted smallest
first. Printed: both times, their ratio, and whether the hint is the oracle's list
exactly (the same plays in the same order, cut at the limit, ``smallest`` its
first). A hand whose oracle would take minutes (a 27-card hand of distinct cards:
2^27 subsets) is timed without it, and checked against the path that reads every
generated candidate instead. CPU time (``time.process_time``), medians: the
machine is shared. Last, the worst case at the default limit and at 5000 against
issue 42's goals (``GOALS``), which it returns as rows of the run's summary (``bench/goals.py``). No assertion:
figures to watch, not a test.
"""
from __future__ import annotations

import statistics
import sys
import time

from bench import goals
from scoring import paodekuai, shuangkou
from scoring.cards import parse_cards
from scoring.registry import get_game
from scoring.shedding import brute_force_multisets, preference, search
from scoring.shedding.turn import Turn

J4 = " 大王 大王 小王 小王"
QIANBIAN = {"preset": "qianbian"}
ZSY = {"preset": "zhengshangyou108"}
CHAINS = "5 5 5 5 5 5 5 5 6 6 6 6 6 7 7 7 7 7 8 8 8 8 8" + J4
RUNS = "6 6 6 7 7 7 7 8 8 8 8 8 8 9 9 9 9 9 10 10 10 10 10" + J4
TRIPLES_16 = "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♦8"
ZSY_TRIPLES = "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 ♣5 ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♠8 ♥8 ♣8 ♠9 ♥9 ♣9 大王 大王 小王 小王 ♠2 ♥2"
#: (name, game, payload, oracle finishes in seconds)
CASES = [
    ("双扣 千变 chains, lead, limit 5000", "shuangkou", {"hand": RUNS, "rules": QIANBIAN, "limit": 5000}, True),
    ("双扣 千变 chains vs a 6-line bomb, default limit", "shuangkou",
     {"hand": CHAINS, "previous": "2 2 2 2 2 2", "rules": QIANBIAN}, True),
    ("双扣 千变 chains vs a 6-line bomb, limit 5000", "shuangkou",
     {"hand": CHAINS, "previous": "2 2 2 2 2 2", "rules": QIANBIAN, "limit": 5000}, True),
    ("双扣 千变 runs vs 4 jokers, default limit", "shuangkou",
     {"hand": RUNS.replace(J4, " 大王 大王 小王"), "previous": "3 3 3 3 3 3", "rules": QIANBIAN}, True),
    ("跑得快 48 five triples, lead, limit 5000", "paodekuai",
     {"hand": TRIPLES_16, "rules": {"preset": "paodekuai48"}, "limit": 5000}, True),
    ("跑得快 48 five triples, 牌够只能三带二, lead, limit 5000", "paodekuai",
     {"hand": TRIPLES_16, "rules": {"preset": "paodekuai48", "full_kickers": True}, "limit": 5000}, True),
    ("争上游 27 cards of triples, 报单必出最大 (next on one card), limit 5000", "paodekuai",
     {"hand": ZSY_TRIPLES, "rules": {**ZSY, "bomb_kickers": True, "baodan_max": True}, "next_cards_left": 1,
      "limit": 5000}, False),
    ("争上游 27 cards of triples, lead, default limit", "paodekuai",
     {"hand": ZSY_TRIPLES, "rules": {**ZSY, "bomb_kickers": True}}, False),
    ("争上游 27 cards of triples, lead, limit 5000", "paodekuai",
     {"hand": ZSY_TRIPLES, "rules": {**ZSY, "bomb_kickers": True}, "limit": 5000}, False),
]


#: the slowest hint allowed at each limit (issue 42: "worst hint found"), ms CPU
LIMIT_GOALS = {"default": goals.HINT_DEFAULT, "5000": goals.HINT_5000}
GOALS = {limit: goal.at_most for limit, goal in LIMIT_GOALS.items()}


def limit_of(payload: dict) -> str:
    """The limit a hint request asks for, as ``GOALS`` names it."""
    return "default" if "limit" not in payload else str(payload["limit"])


def against_goals(worst: dict[str, tuple[float, str]], ceilings: dict[str, float] = GOALS) -> list[str]:
    """Lines giving the worst hint of each limit (ms, its case) against its goal."""
    lines = []
    for limit, goal in ceilings.items():
        if limit in worst:
            ms, name = worst[limit]
            verdict = "within" if ms <= goal else "OVER"
            lines.append(f"  worst at limit {limit}: {ms:.1f} ms CPU ({name}); goal ≤ {goal:g} ms: {verdict}")
    return lines


def goal_rows(worst: dict[str, tuple[float, str]], part: str) -> list[goals.Row]:
    """The worst hint of each limit as a row of the run's summary, naming its case and the part that found it."""
    return [LIMIT_GOALS[limit].row(ms, f"{part}: {name}") for limit, (ms, name) in worst.items()
            if limit in LIMIT_GOALS]


def median_cpu_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def request(slug: str, payload: dict):
    """The spec, hand, table reading and turn (when its house rules restrict it) of a hint request."""
    module = {"shuangkou": shuangkou, "paodekuai": paodekuai}[slug]
    spec = module.spec_for(module.RULESET.resolve(payload.get("rules") or {}))
    hand = parse_cards(payload["hand"], bare=spec.bare)
    table = spec.readings(parse_cards(payload["previous"], bare=spec.bare))[0] if payload.get("previous") else None
    turn = Turn(tuple(hand), payload.get("next_cards_left"), bool(payload.get("first_play")))
    return spec, hand, table, search.restricting(spec, turn)


def oracle_plays(spec, hand, table, turn) -> list:
    """Every distinct legal play, judged sub-multiset by sub-multiset, smallest first, by identity."""
    found = brute_force_multisets(spec, hand, table, turn)
    return [spec.identity(cards) for cards in sorted(found.values(),
                                                     key=lambda cards: preference(spec, cards, table, turn, hand))]


def read_path_plays(spec, hand, turn) -> list:
    """A lead's plays found by reading every generated candidate (the path of the games that do not build leads)."""
    return [spec.identity(cards) for cards, _ in search._read_leads(spec, tuple(hand), turn)]


def hinted(spec, out: dict) -> tuple[list, object]:
    """The identities of a hint's plays, in its order, and of its ``smallest``."""
    ident = [spec.identity(parse_cards(text, bare=spec.bare)) for text in out["plays"]]
    return ident, spec.identity(parse_cards(out["smallest"], bare=spec.bare)) if out["smallest"] else None


def run_case(name, slug, payload, with_oracle, repeat: int) -> float:
    """Print one case's time, the oracle's and whether they agree; return the case's median ms."""
    game = get_game(slug)
    out = game.run("hint", payload)
    ours = median_cpu_ms(lambda: game.run("hint", payload), repeat)
    spec, hand, table, turn = request(slug, payload)
    cut = f"{len(out['plays'])} plays{' (cut at the limit)' if out['truncated'] else ''}"
    plays, smallest = hinted(spec, out)
    if with_oracle:
        start = time.process_time()
        expected = oracle_plays(spec, hand, table, turn)
        oracle = (time.process_time() - start) * 1000
        same = (plays == expected[:len(plays)] and out["truncated"] == (len(expected) > len(plays))
                and smallest == (expected or [None])[0])
        print(f"  {name}: {ours:.1f} ms CPU; oracle {oracle:.0f} ms ({oracle / ours:.0f}×); {cut}; "
              f"equal to the oracle: {'yes' if same else 'NO'}")
    else:
        same = table is None and plays == read_path_plays(spec, hand, turn)[:len(plays)]
        print(f"  {name}: {ours:.1f} ms CPU; oracle not run ({len(set(hand))} distinct cards: "
              f"2^{len(set(hand))} subsets); {cut}; equal to reading every candidate: {'yes' if same else 'NO'}")
    return ours


def main(argv=None) -> int:
    measure(int((argv or sys.argv[1:] or ["11"])[0]))
    return 0


def measure(repeat: int) -> list[goals.Row]:
    """Print every case against the oracle and the worst of each limit; return those as the summary's rows."""
    print(f"worst shedding hints against the exhaustive oracle (median CPU over {repeat} runs; oracle once)")
    worst: dict[str, tuple[float, str]] = {}
    for case in CASES:
        ms, limit = run_case(*case, repeat=repeat), limit_of(case[2])
        if ms > worst.get(limit, (-1.0, ""))[0]:
            worst[limit] = (ms, case[0])
    print("\n".join(against_goals(worst)))
    return goal_rows(worst, "hints")


if __name__ == "__main__":
    raise SystemExit(main())
