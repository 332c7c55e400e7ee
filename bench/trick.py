"""Trick-game hint speed against the exhaustive oracle (``python -m bench.trick [repeat] [--no-oracle] [name…]``).

For the worst 红五 / 二七王 follow hints we know (trump triple tractors and throws with 39 trumps in hand,
short or void in the led group, ``follow_shape`` off), prints Paiju's median CPU time of ``<game>/hint``
(the engine call the API makes; ``time.process_time``, steadier than wall time on a shared machine) at the
default limit and at ``limit: 5000``, the same request through the API route (``POST /api/v1/<game>/hint``
on the app's test client: JSON read, the hint, its JSON written), and the oracle's: every distinct sub-multiset of the hand (of its
led-group cards when it holds enough of them) of the lead's size through
:func:`~scoring.trick.check_follow`, sorted smallest first. The oracle runs only where
it has at most :data:`ORACLE_MOST` candidates; its answer is compared with Paiju's. No assertion: figures
to watch, not a test (the oracle tests are in ``tests/web/test_trick_hints.py``).
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Iterator, NamedTuple

from bench.hints import median_cpu_ms
from scoring import erqiwang, hongwu
from scoring.cards import Card, parse_cards
from scoring.errors import PaijuError
from scoring.plays import MAX_LIMIT, default_limit
from scoring.registry import get_game
from scoring.trick import Context, check_follow

ORACLE_MOST = 400_000  # candidates (distinct sub-multisets) the oracle may go through


class Case(NamedTuple):
    name: str
    game: str
    rules: dict
    trump: str
    lead: str
    hand: str


#: the worst follows we know (the oracle tests of tests/web/test_trick_hints.py take them too)
CASES = [Case(**c) for c in json.loads((Path(__file__).parent / "trick_cases.json").read_text("utf-8"))]

#: a 156-card hand (three decks of 红五 less the lead): refused once hands are capped at the deal
HUGE = Case("红五 3 decks: a 156-card hand (more than a deal)", "hongwu", {"decks": 3}, "♠", "♠5 ♠5 ♠4 ♠4", "")


def huge_hand() -> str:
    ctx = hongwu.context("♠", hongwu.RULESET.resolve({"decks": 3}))
    left = Counter(ctx.deck.all_cards()) - Counter(parse_cards(HUGE.lead))
    return ctx.fmt(list(left.elements())[:156])


def context_of(case: Case) -> Context:
    module = {"hongwu": hongwu, "erqiwang": erqiwang}[case.game]
    return module.context(case.trump, module.RULESET.resolve(case.rules))


def sub_multisets(counts: list[tuple[Card, int]], k: int) -> Iterator[list[Card]]:
    """Every distinct sub-multiset of ``k`` cards (``counts``: each distinct card and its copies)."""
    if k == 0:
        yield []
        return
    if not counts:
        return
    (card, n), rest = counts[0], counts[1:]
    for take in range(min(n, k), -1, -1):
        for tail in sub_multisets(rest, k - take):
            yield [card] * take + tail


def how_many(counts: list[int], k: int) -> int:
    """The number of distinct sub-multisets of ``k`` cards."""
    ways = [1] + [0] * k
    for n in counts:
        ways = [sum(ways[j - i] for i in range(0, min(n, j) + 1)) for j in range(k + 1)]
    return ways[k]


def oracle(ctx: Context, hand: list[Card], lead: list[Card]) -> list[str] | None:
    """Every legal answer, smallest first, by brute force through check_follow (None: too many to try).

    The candidates are every distinct sub-multiset of the hand of the lead's size; when the hand holds
    that many cards of the led group, of those cards only (check_follow refuses any other card then)."""
    in_group = [c for c in hand if ctx.group(c) == ctx.group(lead[0])]
    pool = in_group if len(in_group) >= len(lead) else hand
    counts = sorted(Counter(pool).items(), key=lambda item: ctx.key(item[0]))
    if how_many([n for _, n in counts], len(lead)) > ORACLE_MOST:
        return None
    legal = [play for play in sub_multisets(counts, len(lead)) if check_follow(ctx, lead, hand, play)[0]]
    return [ctx.fmt(p) for p in sorted(legal, key=ctx.play_key)]


def api_client():
    """The app's test client, as the API tests use it (a throwaway SQLite ledger)."""
    from webapp import create_app
    app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                      "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/bench-trick.db"})
    return app.test_client()


def run_case(case: Case, repeat: int, client, with_oracle: bool = True) -> None:
    game = get_game(case.game)
    hand = case.hand or huge_hand()
    print(f"{case.name} ({len(hand.split())} cards)\n  lead {case.lead}")
    payload = {"trump": case.trump, "lead": case.lead, "hand": hand, "rules": case.rules}
    try:
        out = game.run("hint", payload)
    except PaijuError as exc:
        print(f"  refused: {exc.code}: {exc.message.render('en')}")
        return
    timed = {}
    for limit in (default_limit(False), MAX_LIMIT):
        body = {**payload, "limit": limit}
        route = f"/api/v1/{case.game}/hint"
        answer = client.post(route, json=body)
        if answer.status_code != 200 or answer.get_json() != game.run("hint", body):
            print(f"  the API route answers {answer.status_code}, not the engine's hint")
        timed[limit] = (median_cpu_ms(lambda: game.run("hint", body), repeat),
                        median_cpu_ms(lambda: client.post(route, json=body), repeat), game.run("hint", body))
    for limit, (ms, api_ms, out) in timed.items():
        print(f"  Paiju, limit {limit}: {ms:.1f} ms CPU, {api_ms:.1f} ms through the API route; "
              f"{len(out['plays'])} plays, truncated {out['truncated']}, smallest {out['smallest']}")
    if not with_oracle:
        return
    ctx = context_of(case)
    start = time.process_time()
    expect = oracle(ctx, parse_cards(hand), parse_cards(case.lead))
    oracle_ms = (time.process_time() - start) * 1000
    if expect is None:
        print(f"  oracle: more than {ORACLE_MOST:,} candidates, not run")
        return
    ms, _, out = timed[MAX_LIMIT]
    same = out["plays"] == expect[:MAX_LIMIT] and out["truncated"] == (len(expect) > MAX_LIMIT)
    print(f"  oracle: {oracle_ms:.0f} ms CPU (one run), {len(expect)} plays; Paiju at limit {MAX_LIMIT} "
          f"{'equals' if same else 'DIFFERS FROM'} it; oracle / Paiju = {oracle_ms / max(ms, 0.01):.0f}×")


def main(argv=None) -> int:
    args = list(argv if argv is not None else sys.argv[1:])
    with_oracle = "--no-oracle" not in args
    args = [a for a in args if a != "--no-oracle"]
    repeat = int(args[0]) if args else 5
    names = args[1:]
    client = api_client()
    for case in CASES + [HUGE]:
        if not names or any(n in case.name for n in names):
            run_case(case, repeat, client, with_oracle)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
