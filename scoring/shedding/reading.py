"""A reading: one way to read a set of cards as a pattern."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, NamedTuple

from ..cards import Card, format_cards
from ..i18n import Text


@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards as a pattern.

    ``kind`` is a stable string for API clients, ``label`` bilingual, ``key`` what
    the pattern's ``beats`` compares, ``extra`` the JSON fields a game adds (双扣
    ``lines``, Q783 ``pure``, …).
    """

    kind: str
    label: Text
    key: tuple
    size: int
    is_bomb: bool = False
    cards: tuple[Card, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self, sort_key=None) -> dict:
        out = {"kind": self.kind, "label": self.label, "size": self.size, "bomb": self.is_bomb,
               "cards": format_cards(self.cards, sort_key)}
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


def probe(kind: str, key: tuple, size: int, is_bomb: bool) -> Probe:
    return tuple.__new__(Probe, (kind, key, size, is_bomb))  # without NamedTuple's Python-level __new__


def distinct_readings(readings: Iterable[Reading]) -> list[Reading]:
    """Drop repeated readings (same kind, key, size and extras), keeping the first."""
    seen, out = set(), []
    for r in readings:
        sig = r.sig
        if sig not in seen:
            seen.add(sig)
            out.append(r)
    return out
