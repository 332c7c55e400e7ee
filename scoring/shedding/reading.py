"""A reading: one way to read a set of cards as a pattern."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterable, Mapping, NamedTuple

from ..cards import BIG_JOKER, LITTLE_JOKER, Card, format_play
from ..i18n import Text


class Reading:
    """One way to read a set of cards as a pattern.

    ``kind`` is a stable string for API clients, ``label`` bilingual, ``key`` what
    the pattern's ``beats`` compares, ``extra`` the JSON fields a game adds (双扣
    ``lines``, Q783 ``pure``, …). A value: never changed once made (a plain class with
    slots, as :class:`~scoring.i18n.Text`: a hint makes readings by the hundred).
    """

    __slots__ = ("kind", "label", "key", "size", "is_bomb", "cards", "extra")

    def __init__(self, kind: str, label: Text, key: tuple, size: int, is_bomb: bool = False,
                 cards: tuple[Card, ...] = (), extra: Mapping[str, Any] | None = None):
        self.kind, self.label, self.key, self.size = kind, label, key, size
        self.is_bomb, self.cards, self.extra = is_bomb, cards, {} if extra is None else extra

    def _fields(self) -> tuple:
        return (self.kind, self.label, self.key, self.size, self.is_bomb, self.cards, self.extra)

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if isinstance(other, Reading) else NotImplemented

    def __hash__(self) -> int:  # as a frozen dataclass's: a TypeError, as ``extra`` is a dict
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Reading(kind={self.kind!r}, key={self.key!r}, size={self.size}, cards={self.cards!r})"

    def as_dict(self, sort_key=None) -> dict:
        wild = (BIG_JOKER, LITTLE_JOKER) if "wild_as" in self.extra else ()  # jokers standing for other ranks
        out = {"kind": self.kind, "label": self.label, "size": self.size, "bomb": self.is_bomb,
               "cards": format_play(self.cards, sort_key, wild)}
        out.update(self.extra)
        return out

    @property
    def sig(self) -> tuple:
        """What makes two readings of the same cards different."""
        return (self.kind, self.key, self.size, self.is_bomb, repr(sorted(self.extra.items(), key=str)))


class Probe(NamedTuple):
    """What ``beats`` looks at in a reading, for a template not yet built (cheaper than a Reading)."""

    kind: str
    key: tuple
    size: int
    is_bomb: bool
    extra = MappingProxyType({})  # a class attribute, not a field

    @property
    def sig(self) -> tuple:
        """As :attr:`Reading.sig`, for a reading without extras (a Probe sorts among readings as one would)."""
        return (self.kind, self.key, self.size, self.is_bomb, "[]")


def probe(kind: str, key: tuple, size: int, is_bomb: bool) -> Probe:
    return tuple.__new__(Probe, (kind, key, size, is_bomb))  # without NamedTuple's Python-level __new__


def distinct_readings(readings: Iterable[Reading]) -> list[Reading]:
    """Drop repeated readings (same kind, key, size and extras), keeping the first."""
    readings = list(readings)
    if len(readings) < 2:  # most plays read one way: nothing to compare
        return readings
    seen, out = set(), []
    for r in readings:
        sig = r.sig
        if sig not in seen:
            seen.add(sig)
            out.append(r)
    return out
