"""Brute-force oracles more than one test layer compares the app with."""
from itertools import combinations


def brute_force_fewest(totals) -> int:
    """Oracle: n − (the most disjoint zero-sum groups), found by trying every partition."""
    seats = [i for i, x in enumerate(totals) if x]

    def most(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -10
        for k in range(len(others) + 1):
            for extra in combinations(others, k):
                group = (first, *extra)
                if sum(totals[s] for s in group) == 0:
                    best = max(best, 1 + most([s for s in others if s not in extra]))
        return best

    return len(seats) - most(seats)
