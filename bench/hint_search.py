"""A random search for the slowest hint of each game and preset (``python -m bench.hint_search [seconds] [seed]``).

The other hint benches time cases picked by hand; this one looks between them. For ``seconds`` per case
(default 10) it deals two random hands of the preset's size from the game's pack, takes a random legal
lead of the first (or, one time in seven, none: a lead), and times the second hand's hint at the default
limit and at ``limit: 5000``: engine calls, as the API makes them, CPU time. A single timing can take a
spike from the host, so the eight slowest positions of each limit are re-run seven times, and the worst
is the slowest median. Prints it with the position, and last the slowest of every game at each limit
against issue 42's goals (``hints.GOALS``: ≤ 25 ms at the default limit, ≤ 100 ms at 5000), returned as rows of
the run's summary (``bench/goals.py``). No assertion: figures to watch, not a test.
"""
from __future__ import annotations

import random
import sys
import time

from scoring.errors import PaijuError
from scoring.registry import get_game

from .hints import against_goals, goal_rows, median_cpu_ms

SHEDDING = {"paodekuai", "shuangkou", "q783"}  # the table's play is "previous"; the trick games' is "lead"
SUITS = ("♠", "♥", "♣", "♦")
#: (game, rules, cards in a hand): each preset's deal
CASES = [("paodekuai", {"preset": "paodekuai52"}, 13), ("paodekuai", {"preset": "paodekuai48"}, 16),
         ("paodekuai", {"preset": "paodekuai45"}, 15), ("paodekuai", {"preset": "zhengshangyou108"}, 27),
         ("shuangkou", {"preset": "seed"}, 27), ("shuangkou", {"preset": "baibian"}, 27),
         ("shuangkou", {"preset": "qianbian"}, 27), ("q783", {}, 20),
         ("hongwu", {}, 25), ("hongwu", {"decks": 3}, 39), ("erqiwang", {}, 25)]
KEPT, RERUNS = 8, 7


def cpu_ms(game, payload: dict) -> float:
    start = time.process_time()
    game.run("hint", payload)
    return (time.process_time() - start) * 1000


def playable_pack(game, rules: dict) -> list:
    """The game's pack less the cards a hand never holds (Q783's score cards)."""
    pack = game.deck(game.ruleset.resolve(rules)).all_cards()
    extra = {} if game.slug in SHEDDING else {"trump": "♠"}
    held = set()
    for card in set(pack):
        try:
            game.run("hint", {"rules": rules, "hand": str(card), **extra})
            held.add(card)
        except PaijuError:
            pass
    return [card for card in pack if card in held]


def positions(game, rules: dict, size: int, rng: random.Random, pack: list):
    """Random hint requests: a hand, and a random legal play of another hand to answer (or none)."""
    while True:
        cards = list(pack)
        rng.shuffle(cards)
        base = {"rules": rules} if game.slug in SHEDDING else {"rules": rules, "trump": rng.choice(SUITS)}
        leads = game.run("hint", {**base, "hand": " ".join(map(str, cards[:size])), "limit": 5000})["plays"]
        payload = {**base, "hand": " ".join(map(str, cards[size:2 * size]))}
        if leads and rng.random() < 6 / 7:
            payload["previous" if game.slug in SHEDDING else "lead"] = rng.choice(leads)
        yield payload


def search(slug: str, rules: dict, size: int, seconds: float, rng: random.Random) -> dict[str, tuple[float, str]]:
    """Print the slowest position of each limit found in ``seconds``; return them: limit → (ms, which game)."""
    game = get_game(slug)
    slowest: dict[str, list[tuple[float, dict]]] = {"default": [], "5000": []}
    deadline, tried = time.monotonic() + seconds, 0
    for payload in positions(game, rules, size, rng, playable_pack(game, rules)):
        if time.monotonic() > deadline:
            break
        tried += 1
        for limit, request in (("default", payload), ("5000", {**payload, "limit": 5000})):
            kept = slowest[limit]
            kept.append((cpu_ms(game, request), request))
            kept.sort(key=lambda timed: -timed[0])
            del kept[KEPT:]
    worst = {}
    for limit, kept in slowest.items():
        if not kept:
            print(f"  {slug} {rules or 'default rules'}, limit {limit}: no position tried in {seconds:g} s")
            continue
        medians = [(median_cpu_ms(lambda: game.run("hint", request), RERUNS), request) for _, request in kept]
        ms, request = max(medians, key=lambda timed: timed[0])
        worst[limit] = (ms, f"{slug} {rules or 'default rules'}")
        print(f"  {slug} {rules or 'default rules'}, limit {limit}: worst {ms:.1f} ms CPU (median of {RERUNS}) "
              f"over {tried} positions; hand {request['hand']!r}, answering "
              f"{request.get('previous') or request.get('lead')!r}{', trump ' + request['trump'] if 'trump' in request else ''}")
    sys.stdout.flush()
    return worst


def main(argv: list[str] | None = None) -> list:
    args = argv if argv is not None else sys.argv[1:]
    seconds = float(args[0]) if args else 10.0
    rng = random.Random(int(args[1]) if len(args) > 1 else 1)
    print(f"random hint positions, {seconds:g} s per game and preset: the slowest of each limit")
    worst: dict[str, tuple[float, str]] = {}
    for slug, rules, size in CASES:
        for limit, found in search(slug, rules, size, seconds, rng).items():
            if found[0] > worst.get(limit, (-1.0, ""))[0]:
                worst[limit] = found
    print("\n".join(against_goals(worst)))
    return goal_rows(worst, "search")


if __name__ == "__main__":
    main()
