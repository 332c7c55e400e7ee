"""A peer's lead generator against Paiju's, time per legal play on the same hands.

Run from the repository root with the bench extra installed (``pip install -e '.[bench]'``)::

    python -m bench.peer

RLCard's Dou Dizhu judger (``DoudizhuJudger.playable_cards_from_hand``) and
Paiju's 跑得快 lead hint (every legal lead of a 13-card hand from one 52-card
pack) run on the same 200 random hands in one process. The rules differ, the
work per play does not: each lists every play a hand can lead. The figures
are CPU seconds per legal play (medians of several runs) and their ratio, against issue 42's goal (the ratio is
the run's summary's row, ``bench/goals.py``).
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from bench import goals
from scoring import paodekuai
from scoring.cards import Card, Suit
from scoring.shedding import legal_plays

HANDS = 200
GOAL = goals.PEER.at_most  # issue 42: Paiju's time per legal play at most 1.5 × RLCard's (on the way to 1 ×)
RUNS = 5
RANKS_RLCARD = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K",
                14: "A", 2: "2"}


def random_hands(seed: int = 7) -> list[list[Card]]:
    rng = random.Random(seed)
    pack = [Card(rank, suit) for rank in RANKS_RLCARD for suit in Suit]
    return [rng.sample(pack, 13) for _ in range(HANDS)]


def rlcard_hand(hand: list[Card]) -> str:
    order = "3456789TJQKA2"
    return "".join(sorted((RANKS_RLCARD[c.rank] for c in hand), key=order.index))


def cpu_per_play(run, hands) -> tuple[float, int]:
    """Median CPU seconds per play over RUNS passes, and the plays found in one pass."""
    per_play, plays = [], 0
    for _ in range(RUNS):
        start = time.process_time()
        plays = sum(run(h) for h in hands)
        per_play.append((time.process_time() - start) / plays)
    return statistics.median(per_play), plays


def main() -> int:
    return 0 if measure() else 2


def measure() -> list[goals.Row]:
    """Print both generators' time per play and their ratio; return the ratio as the summary's row (none without
    RLCard)."""
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger  # a bench extra, never a dependency of the app
    except ImportError:
        print("bench.peer needs RLCard: pip install -e '.[bench]' (make bench installs it)")
        return []
    hands = random_hands()
    spec = paodekuai.spec_for(paodekuai.RULESET.resolve({}))
    peer_hands = [rlcard_hand(h) for h in hands]
    peer, peer_plays = cpu_per_play(lambda h: len(DoudizhuJudger.playable_cards_from_hand(h)), peer_hands)
    ours, our_plays = cpu_per_play(lambda h: sum(1 for _ in legal_plays(spec, tuple(h), None)), hands)
    print(f"hands: {HANDS} random 13-card hands, {RUNS} runs each, CPU medians")
    print(f"RLCard Dou Dizhu leads: {peer_plays} plays, {peer * 1e6:.2f} µs per play")
    print(f"Paiju 跑得快 52 leads:  {our_plays} plays, {ours * 1e6:.2f} µs per play")
    print(f"ratio Paiju / RLCard per play: {ours / peer:.2f} against a goal of ≤ {GOAL}")
    return [goals.PEER.row(ours / peer, f"{ours * 1e6:.2f} / {peer * 1e6:.2f} µs")]


if __name__ == "__main__":
    sys.exit(main())
