"""The legal plays of one position, as a lazy view (both cores use it).

Modelled on python-chess's ``LegalMoveGenerator``: nothing is generated until
it is asked for, and each question generates only as much as it needs::

    plays = core.legal_plays(hand, table)
    if plays:                       # "must beat if able": is there any legal play?
        ...
    play in plays                   # is this one legal?  (a check, not a search)
    first = plays.smallest()        # what 托管 plays
    shown, truncated = plays.take(limit)   # the hint list, smallest first

A core passes two functions: ``generate()`` yields every distinct legal play
**smallest first** (the order of ``docs/rules/common.md``), and ``is_legal(play)``
decides one play directly. Caps live here, once, for both cores: a lead is
shown up to :data:`LEAD_LIMIT` plays, a follow up to :data:`FOLLOW_LIMIT`, and a
request may ask for 1 … :data:`MAX_LIMIT`.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from itertools import islice
from typing import Callable, Generic, Iterable, Iterator, TypeVar

P = TypeVar("P")

LEAD_LIMIT = 200     # default cut of a lead's hint list (a 27-card hand has over 10,000 leads)
FOLLOW_LIMIT = 2000  # default cut of a follower's list (the worst hands we built have about 1,600)
MAX_LIMIT = 5000     # the most a request's ``limit`` may ask for


def default_limit(leading: bool) -> int:
    return LEAD_LIMIT if leading else FOLLOW_LIMIT


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector while a hint is worked out.

    A hint builds thousands of small tuples, lists and closures that hold no cycles (reference
    counting frees them); left on, the collector walks them again and again as they pile up, a
    quarter to a third of a long hint's CPU. It is switched back on as it was, even on an error.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class LegalPlays(Generic[P]):
    """Every legal play of a position, smallest first, generated on demand."""

    def __init__(self, generate: Callable[[], Iterable[P]], is_legal: Callable[[P], bool] | None = None):
        self._generate = generate
        self._is_legal = is_legal

    def __iter__(self) -> Iterator[P]:
        return iter(self._generate())

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __contains__(self, play: object) -> bool:
        if self._is_legal is not None:
            return self._is_legal(play)  # type: ignore[arg-type]
        return any(p == play for p in self)

    def smallest(self) -> P | None:
        """What 托管 plays: the first legal play, or None (a follower passes)."""
        return next(iter(self), None)

    def take(self, limit: int) -> tuple[list[P], bool]:
        """The smallest ``limit`` plays and whether more exist."""
        head = list(islice(self, limit + 1))
        return head[:limit], len(head) > limit

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        head, more = self.take(3)
        return f"<LegalPlays {head!r}{' …' if more else ''}>"
