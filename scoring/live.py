"""Following a hand live, as it is played.

* :class:`LiveHand`, the live-hand protocol: a game that can be followed round by round declares one
  (``Game.live_hand``): the inputs of a hand's start, of one round and of its finish (each a
  :class:`~scoring.inputs.Schema`), and the operations start / add a round / undo / finish, each answering a
  typed :class:`LiveState`; :meth:`LiveHand.settle_payload` is what the finished hand fills into the game's
  settle input (what a ledger records). Q783 declares one (``scoring/q783_live.py``), the trick games one each
  (``scoring/trick/live.py``).
* :class:`LiveCounter`: what a trick game (红五, 二七王) needs from a hand followed trick by trick: which settle
  fields the tricks fill (the points one side won, the bottom, the last trick, the red fives) and how its rules
  count the bottom. ``scoring/trick/live.py`` builds the game's :class:`LiveHand` from it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .i18n import Text
from .inputs import Schema

DECLARER, DEFENDERS = "declarer", "defenders"


# -- the live-hand protocol --------------------------------------------------------------------------------

@dataclass(frozen=True)
class LiveState:
    """A followed hand as the game read it, and what it adds up to so far."""

    start: Mapping[str, Any]                # the start's values, canonical and JSON-ready
    rounds: tuple[Mapping[str, Any], ...]   # the rounds so far, canonical and JSON-ready
    finish: Mapping[str, Any] | None        # the finish's values once the hand is settled, else None
    deltas: tuple[int, ...]                 # per seat: what the hand has moved so far
    banks: tuple[int, ...] | None           # per seat: what each holds now (None: the game keeps no banks)
    finished: bool                          # the finish is settled
    over: bool                              # the series ended during the hand: no more rounds, no finish
    steps: tuple[Text, ...]

    @property
    def players(self) -> int:
        return len(self.deltas)

    @property
    def closed(self) -> bool:
        """Nothing more can be added: the hand can be recorded."""
        return self.finished or self.over


class LiveHand:
    """The live-hand protocol. A hand is kept as a plain mapping in its settle input's terms: the start's
    fields, ``rounds_field`` (a list of rounds) and the finish's fields (None while the hand is open);
    :meth:`restore` reads such a mapping back into a :class:`LiveState`, refusing what the game refuses."""

    start_input: Schema
    round_input: Schema
    finish_input: Schema
    rounds_field: str = "rounds"
    #: the page's words for this game's hand, by role (``lead``, ``seats``, ``over``, ``finish``, …)
    words: Mapping[str, Text] = {}
    #: what the page says when a hand cannot be recorded as followed: ``moved_on`` (the table recorded hand
    #: ``{n}`` meanwhile; the hand now starts from the table as it is), ``not_over`` (the finish is missing)
    messages: Mapping[str, Text] = {}

    def restore(self, hand: Mapping[str, Any], rules) -> LiveState:
        raise NotImplementedError

    def add(self, hand: Mapping[str, Any], rnd: Mapping[str, Any], rules) -> LiveState:
        """The hand with one more round (refused once the hand is closed)."""
        raise NotImplementedError

    def settle_payload(self, state: LiveState, rules=None) -> dict:
        """What the closed hand fills into the game's settle input (under ``rules``, the hand's house rules)."""
        raise NotImplementedError

    def round_words(self, rnd: Mapping[str, Any]) -> Text:
        """A recorded round in a few words (what won it)."""
        raise NotImplementedError

    def choices(self, name: str, rules) -> tuple[tuple[str, Text], ...]:
        """The values a round's choice field ``name`` can take under these rules."""
        return self.round_input.field(name).choices

    def open_finish(self) -> dict:
        return {f.name: None for f in self.finish_input.fields}

    def start(self, values: Mapping[str, Any], rules) -> LiveState:
        """A new hand from its start's values."""
        return self.restore(self.hand_of(values, []), rules)

    def hand_of(self, start: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]],
                finish: Mapping[str, Any] | None = None) -> dict:
        """The hand kept as a mapping: ``start``'s fields, the rounds, the finish's fields (None: open)."""
        names = [f.name for f in self.start_input.fields]
        return {**{n: start.get(n) for n in names}, self.rounds_field: list(rounds), **(finish or self.open_finish())}

    def kept(self, state: LiveState) -> dict:
        """The mapping :meth:`restore` reads ``state`` back from."""
        return self.hand_of(state.start, state.rounds, state.finish)

    def is_finished(self, hand: Mapping[str, Any]) -> bool:
        return any(hand.get(f.name) is not None for f in self.finish_input.fields)

    def undo(self, hand: Mapping[str, Any]) -> dict:
        """The hand without its finish, or else without its last round (not checked: restore it)."""
        if self.is_finished(hand):
            return {**hand, **self.open_finish()}
        return {**hand, self.rounds_field: list(hand.get(self.rounds_field) or [])[:-1]}

    def finish(self, hand: Mapping[str, Any], values: Mapping[str, Any], rules) -> tuple[dict, LiveState]:
        """The hand with its finish, as kept and as read (the finish refused as the game refuses it)."""
        names = [f.name for f in self.finish_input.fields]
        finished = {**hand, **{n: values.get(n) for n in names}}
        return finished, self.restore(finished, rules)

    def next_start(self, state: LiveState) -> dict:
        """The start of the hand after this one (Q783: the banks as they are now)."""
        return dict(state.start)


@dataclass(frozen=True)
class LastTrick:
    """One way the last trick can end: the side that took it, how many times the bottom's points then count
    for the side that may score them (0: not at all), and the settle fields this outcome sets."""

    value: str
    label: Text
    won_by: str
    times: int
    fills: Mapping[str, Any]


@dataclass(frozen=True)
class LiveCounter:
    """What a trick game's counter fills: ``points_field`` gets the points in the tricks ``counted_side`` won."""

    points_field: str
    counted_side: str
    total: Callable[[Any], int]                       # the points in the pack
    partner_offset: Callable[[Any], int | None]       # the declarer's (庄家) partner sits this many seats on (None: alone)
    bottom_field: Callable[[Any], str | None]         # where the bottom's points go (None: these rules ignore it)
    bottom_side: str                                  # the side that may score the bottom
    bottom_max: Callable[[Any], int]
    last_tricks: Callable[[Any], tuple[LastTrick, ...]]
    declarer_field: str = "declarer"
    red_fives: str | None = None                      # a rows field of (owner, captured_by)
    red_five_max: Callable[[Any], int] = lambda rules: 0
    red_five_swing: int = 0                           # card points a captured red five moves
