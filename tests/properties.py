"""How property tests draw their examples (``HYPOTHESIS_PROFILE``, printed in the test run's header):

- ``ci`` (the default when ``CI`` is set): derandomized, so every run draws the same examples and a failure is
  met again by the next run; a quarter of each test's example count (the full counts, and more, are the
  developers' runs: random examples find what a fixed quarter does not);
- ``dev`` (the default elsewhere): random, each test's count, a failure's example kept in .hypothesis/;
- ``quick`` (what ``make check`` runs): random, a fifth of each count;
- ``thorough``: random, ten times each count, the long run to make before trusting a change to the engine
  (``HYPOTHESIS_PROFILE=thorough make test``)."""
from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.register_profile("quick", print_blob=True)
settings.register_profile("thorough", print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)
SCALE = {"ci": 0.25, "quick": 0.2, "thorough": 10}.get(PROFILE, 1)


def examples(count: int) -> int:
    """The examples a property test draws: its ``count`` scaled by the profile's."""
    return max(1, round(count * SCALE))


def described() -> str:
    how = "derandomized: the same examples every run" if settings.default.derandomize else "random examples"
    return f"hypothesis profile {PROFILE!r} ({how}; {SCALE:g}× each test's example count)"
