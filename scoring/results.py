"""What an action answers, as a value (issue 39 item 1): a settlement, a verdict, a hint, a trick … each a small
frozen dataclass the core returns, with :meth:`Result.to_json`, the answer as the API gives it (its
:class:`~scoring.i18n.Text` values still to render in the reader's language).

The fields stay declared once, in :mod:`scoring.answers`: a result class holds the fields of its action's declared
:class:`~scoring.answers.Answer` in the same order and no other (``tests/engine/test_results.py`` checks each
against its declaration), and a game's own settle fields are not named here but carried in
:attr:`Settlement.extra`, the game's ``settle_answer``. :data:`ABSENT` marks a field the answer leaves out (not
null): the shedding check's ``table`` on a lead, the bidding's ``illegal_index`` on a legal entry.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping


class _Absent:
    """A field an answer leaves out."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Result:
    """An action's answer; its fields, in order, are the answer's (a trailing ``_`` is dropped from a name that is
    a Python keyword)."""

    def to_json(self) -> dict:
        """The answer as the API gives it: each field but an :data:`ABSENT` one, in order."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not ABSENT:
                out[f.name.rstrip("_")] = value
        return out

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The answer's field names, as :meth:`to_json` writes them."""
        return tuple(f.name.rstrip("_") for f in fields(cls))


@dataclass(frozen=True)
class Settlement(Result):
    """A hand settled: each seat's points (zero-sum), the steps in words, and the fields the game's settle answer
    adds (``extra``: as its ``Game.settle_answer`` declares them, in that order)."""

    deltas: tuple[int, ...]
    steps: tuple
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"deltas": list(self.deltas), "steps": list(self.steps), **self.extra}

    def quiet(self) -> dict:
        """The answer without its steps (what the ledger stores of a hand settled again: ``Game.settle_quietly``)."""
        return {"deltas": list(self.deltas), **self.extra}


@dataclass(frozen=True)
class Classified(Result):
    """``classify``: the cards as they read (canonical), whether they are a play, its readings and why."""

    cards: str
    valid: bool
    readings: list
    reason: Any
