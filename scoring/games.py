"""What a game is: the protocol every game module implements.

A game is a subclass of :class:`Game` with class attributes (its name, kind,
seats, house rules, settle input, tabs) and a few hooks it may override —
the shape of python-chess's variants. ``scoring/registry.py`` lists the five
games; the pages, the API and the ledger ask a game, never test its slug.

Actions are plain functions ``action(payload, rules) -> Result``: ``payload``
is the JSON-shaped input (the API body, or what a form builds), ``rules`` the
resolved :class:`~scoring.rules.Rules`; the answer is a typed value
(:mod:`scoring.results`: a :class:`~scoring.results.Settlement`, a verdict, a
hint …) whose ``to_json()`` is the API's answer. Results may hold
:class:`~scoring.i18n.Text` values; the web layer renders them.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from .answers import READING, SETTLED, Answer
from .cards import Deck
from .errors import InputErrors, InvalidInput, MalformedInput, UnknownAction
from .i18n import Text, shown, t
from .inputs import Context, Schema, Values, strict_int
from .results import Result, Settlement
from .rules import Preset, Rules, RuleSet

Action = Callable[[Mapping, Any], Result]


class ActionTable(dict):
    """A core's actions, each ``(payload, rules) -> Result``, what each reads: ``inputs(action, rules)``, its
    declared :class:`~scoring.inputs.Schema` (None: none declared), and what each answers: ``answers[action]``,
    its declared :class:`~scoring.answers.Answer`; ``reading``: the fields every reading of cards of this core
    carries (a game adds its patterns' own: :attr:`Game.reading_fields`)."""

    def __init__(self, actions: Mapping[str, Action], inputs: Callable[[str, Any], Schema | None],
                 answers: Mapping[str, Answer], reading: Answer = READING):
        super().__init__(actions)
        self.inputs = inputs
        self.answers = answers
        self.reading = reading

#: the tabs every game has, in the order the pages show them
BASE_TABS = ("rules", "check", "hint", "settle")


class Game:
    """One game. Subclasses set the class attributes and override the hooks they need."""

    slug: ClassVar[str]
    name: ClassVar[Text]
    kind: ClassVar[str]                      # "shedding" or "trick"
    summary: ClassVar[Text]
    ruleset: ClassVar[RuleSet]
    settle_input: ClassVar[Schema]
    bare_ranks: ClassVar[bool] = False       # bare ranks (suit unknown) accepted in card fields
    extra_tabs: ClassVar[tuple[str, ...]] = ()  # beyond BASE_TABS: "trick", "bidding", "rounds"
    seats: ClassVar[tuple[int, int]] = (4, 4)   # fewest and most seats (see seat_range)
    carried_fields: ClassVar[tuple[str, ...]] = ()  # input fields a ledger hand takes from the hand before
    #: what is the same all evening: input fields a ledger hand's form takes from the table's last hand, asked on
    #: the first hand (at 开桌) and folded on the later ones, open to a change (Q783's teams)
    kept_fields: ClassVar[tuple[str, ...]] = ()
    #: worked examples (action, title, payload) for the rules page and the API document: binding examples
    examples: ClassVar[tuple[tuple[str, Text, Mapping], ...]] = ()
    #: the settle answer's fields beyond deltas and steps, declared (the API document, the result view)
    settle_answer: ClassVar[Answer] = Answer()
    #: the fields its patterns add to a reading of cards, beyond those of its core (``ActionTable.reading``)
    reading_fields: ClassVar[Answer] = Answer()
    live_hand: ClassVar[Any] = None  # the live-hand protocol (scoring/live.py), when a hand can be followed live
    # the game module's own functions (set with staticmethod), behind the hooks below
    deck_of: ClassVar[Callable[[Rules], Deck]]
    settle_of: ClassVar[Callable[[Values, Rules], Settlement]]
    order_of: ClassVar[Callable[[Any, Rules], list] | None] = None
    action_table: ClassVar[Mapping[str, Action]] = {}

    # -- the pack, the seats, the order -------------------------------------------

    def deck(self, rules: Rules) -> Deck:
        return self.deck_of(rules)

    def seat_range(self, rules: Any = None) -> tuple[int, int]:
        """How many seats these rules play with: (fewest, most)."""
        return self.seats

    def preset_for_seats(self, seats: int, rules: Any = None) -> Preset | None:
        """A preset that plays with ``seats`` when these rules do not (跑得快: 3 players → 48 cards); None: none."""
        return None

    def seat_count_fix(self, seats: int, rules: Any = None) -> Text | None:
        """What to do when these rules refuse ``seats`` players: the preset to switch to, in words."""
        preset = self.preset_for_seats(seats, rules)
        if preset is None:
            return None
        return t("{n}人玩请换成预设「{p}」", "for {n} players, switch to the preset “{p}”", n=seats, p=preset.label)

    def seats_given(self, payload: Mapping) -> int | None:
        """How many seats a settle payload fills: the entries of its first per-seat list (None: it has none)."""
        for field in self.settle_input.fields:
            value = payload.get(field.name) if field.kind == "per_seat" else None
            if isinstance(value, (list, tuple)):
                return sum(1 for v in value if v is not None and str(v).strip())
        return None

    def never_held(self, field: str, rules: Rules) -> frozenset[int]:
        """The ranks a card field can never hold under these rules (the card picker leaves them out);
        Q783: a hand holds no score card."""
        return frozenset()

    @property
    def tabs(self) -> tuple[str, ...]:
        """The pages of the game: the base tabs, its own, and "rounds" when a hand can be followed live."""
        live = ("rounds",) if self.live_hand is not None and "rounds" not in self.extra_tabs else ()
        return BASE_TABS + self.extra_tabs + live

    def order_rows(self, trump: Any, rules: Rules) -> list | None:
        """The card order drawn on the rules page (trick games, for a trump suit); None: no drawing."""
        return self.order_of(trump, rules) if self.order_of else None

    # -- actions ----------------------------------------------------------------

    def actions(self) -> Mapping[str, Action]:
        """The API actions besides ``settle`` (classify, check, hint, trick, bidding)."""
        return self.action_table

    def action_input(self, action: str, rules: Any = None) -> Schema | None:
        """What an action besides settle reads, as its core declares it (for its form and the API's description)."""
        table = self.actions()
        if not isinstance(table, ActionTable):
            return None
        return table.inputs(action, self.ruleset.resolve(rules))

    def answer_of(self, action: str) -> Answer | None:
        """What ``action`` answers, as declared (None: not declared)."""
        if action == "settle":
            return SETTLED + self.settle_answer
        table = self.actions()
        declared = table.answers.get(action) if isinstance(table, ActionTable) else None
        return None if declared is None else declared.reading_as(table.reading + self.reading_fields)

    def action_names(self) -> list[str]:
        return sorted({*self.actions(), "settle"})

    def run(self, action: str, payload: Any) -> dict:
        """Resolve the payload's ``rules`` and run one action: its answer as JSON (:meth:`answer`'s ``to_json``)."""
        return self.answer(action, payload).to_json()

    def answer(self, action: str, payload: Any) -> Result:
        """Resolve the payload's ``rules`` and run one action: its answer as a value."""
        if not isinstance(payload, Mapping):
            raise MalformedInput(t("请求体应为 JSON 对象", "the request body must be a JSON object"))
        rules = self.ruleset.resolve(payload.get("rules"))
        if action == "settle":
            return self.settle_payload(payload, rules)
        found = self.actions().get(action)
        if found is None:
            raise UnknownAction(t("没有「{a}」这个功能", "there is no “{a}” here", a=shown(action, 40)))
        return found(payload, rules)

    # -- settling a hand ----------------------------------------------------------

    def input_context(self, rules: Rules, names: tuple[str, ...] = ()) -> Context:
        lo, _hi = self.seat_range(rules)
        return Context(rules=rules, seats=lo, deck=self.deck(rules), bare=self.bare_ranks, names=names)

    def settle_payload(self, payload: Mapping, rules: Rules) -> Settlement:
        return self.settle(self.read_settle(payload, rules), rules)

    def settle_quietly(self, payload: Mapping, rules: Rules) -> dict:
        """What a hand changes (its deltas and the fields the next hand carries) without the steps: the ledger
        settling later hands again after an edit works out their steps only when they are shown
        (:meth:`steps_again`). The same answer and errors as :meth:`settle_payload` otherwise; a game that
        carries state makes it cheaper (:meth:`quiet_settle`)."""
        return self.quiet_settle(self.read_settle(payload, rules), rules).quiet()

    def quiet_settle(self, values: Values, rules: Rules) -> Settlement:
        return self.settle(values, rules)

    def quiet_from(self, payload: Mapping, rules: Rules) -> Callable[[Mapping], Settlement] | None:
        """A hand's input read once for quiet settles from whatever the hand before carries (a long chain settled
        again after an edit: :mod:`scoring.series`): ``payload`` is the input without the carried fields; the answer
        is a function of those fields giving the settlement whose ``quiet()`` :meth:`settle_quietly` gives of the whole. Either may raise
        where the hand is refused (the caller then asks :meth:`settle_quietly`, which says why). None: no such
        shortcut (a game that carries nothing)."""
        return None

    def quiet_moved(self, data: Mapping, started: Mapping, ended: Mapping, deltas: list[int], start: Mapping,
                    rules: Rules) -> dict | None:
        """What :meth:`settle_quietly` gives of the hand ``data`` (its input as stored, without the carried fields)
        starting from ``start`` (the carried fields), told without reading the hand again by what it gave from
        ``started``: its ``deltas`` by seat and the carried fields it ended with (``ended``, the hand not ending a
        series). A chain settled again after an edit (:mod:`scoring.series`). None (the default): it does not
        follow, the hand is settled in full."""
        return None

    def steps_again(self, data: Mapping, result: Mapping, rules: Rules, seats: int) -> list[Text]:
        """The steps of a hand the ledger stored without them (:meth:`settle_quietly`): its input ``data``
        settled again from what it started from (its result's ``<field>_before``)."""
        started = {key: result[f"{key}_before"] for key in self.carried_fields if f"{key}_before" in result}
        return list(self.settle_payload({**self.table_input(seats), **data, **started}, rules).steps)

    def read_settle(self, payload: Mapping, rules: Rules) -> Values:
        """A settle payload read through the game's input schema (every problem at once)."""
        try:
            values = self.settle_input.read(payload, self.input_context(rules))
        except InputErrors as exc:
            given = self.seats_given(payload)
            fix = self.seat_count_fix(given, rules) if given else None
            if fix is None:
                raise
            raise InputErrors([*exc.errors, InvalidInput(fix, field="rules.preset", code="preset_for_seats")]) from exc
        return values

    def settle(self, values: Values, rules: Rules) -> Settlement:
        return self.settle_of(values, rules)

    def input_words(self, payload: Mapping, rules: Rules, names: tuple[str, ...] = ()) -> list[Text]:
        """A stored hand's input in words (庄家 老王，叫分 100 …)."""
        return self.settle_input.words(payload, self.input_context(rules, names))

    # -- hand to hand (the ledger) -------------------------------------------------

    def table_input(self, seats: int) -> dict:
        """What every hand's input takes from the table (Q783: the number of players)."""
        return {}

    def carried(self, result: Mapping) -> dict | None:
        """What the next hand's input takes from this hand's result (Q783: the banks); None: nothing."""
        return None

    def ends_series(self, result: Mapping) -> bool:
        """Whether this hand ends a series of hands (Q783: a 大局 ends when a bank is empty)."""
        return False

    def sides(self, data: Mapping, rules: Rules, seats: int) -> list[tuple[int, ...]] | None:
        """Who played on which side of a stored hand: tuples of seat numbers (a circle's 搭子 and 对头), read from
        the hand's ``data`` (its settle input as stored) under ``rules`` with ``seats`` seats; None: the game or
        this hand has no sides (everyone for themselves), or the input does not say."""
        return None

    def ledger_words(self) -> Mapping[str, Text]:
        """Words the ledger's hand cards use for what this game carries, by the cards' names for them
        (Q783: ``bank``); none by default."""
        return {}

    @property
    def carries_state(self) -> bool:
        return type(self).carried is not Game.carried

    # -- the API's description ----------------------------------------------------

    def describe(self) -> dict:
        return {"slug": self.slug, "name": self.name, "kind": self.kind, "built": True,
                "actions": self.action_names(), **self.ruleset.describe()}


def settlement(deltas: list[int], steps: list[Text], **extra: Any) -> Settlement:
    """What every settle action returns (``extra``: the game's declared settle fields, in their order); checks the
    zero-sum invariant."""
    deltas = tuple([int(d) for d in deltas])  # (a list first: no generator's calls, in a chain of quiet settles)
    if sum(deltas) != 0:  # an engine bug, never user input
        raise AssertionError(f"settlement is not zero-sum: {list(deltas)}")
    return Settlement(deltas, tuple(steps), extra)


def declarer_sides(data: Mapping, seats: int, partner: bool = False) -> list[tuple[int, ...]] | None:
    """The sides of a hand with a 庄家 (the stored input's ``declarer``): the 庄家, with the partner opposite when
    ``partner``, against the others; None when the input names no 庄家 among the seats."""
    declarer = strict_int(data.get("declarer")) if isinstance(data, Mapping) else None
    if declarer is None or not 0 <= declarer < seats:
        return None
    mine = {declarer, (declarer + seats // 2) % seats} if partner else {declarer}
    return [tuple(sorted(mine)), tuple(s for s in range(seats) if s not in mine)]


def opposite_teams(seats: int) -> list[tuple[int, ...]]:
    """Partners opposite: the even seats against the odd ones."""
    return [tuple(range(0, seats, 2)), tuple(range(1, seats, 2))]
