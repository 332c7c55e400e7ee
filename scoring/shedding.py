"""The shared shedding-game core: 跑得快 / 争上游, 双扣 and Q783.

A shedding game (beat the table or pass; first out wins) plugs into this
module with a small *spec* object and gets the generic ``classify``,
``check`` and ``hint`` actions of ``shared/api.md`` for free::

    class Q783Spec(SheddingSpec):
        slug = "q783"
        bare = True                      # bare ranks ("7 7 8", suit unknown) accepted

        def deck(self, rules) -> Deck: ...                   # the pack for these rules
        def order(self, card, rules) -> int: ...             # single-card strength, higher = stronger
        def readings(self, cards, rules) -> list[Reading]: ...   # every reading, LARGEST FIRST; [] = no pattern
        def beats(self, play, table, rules) -> bool: ...     # does reading ``play`` beat reading ``table``?
        def candidates(self, hand, table, rules, size, need=None): ...  # plays of ``size`` cards from ``hand``

    SPEC = Q783Spec()
    actions = {**shedding_actions(SPEC), "settle": settle}

Optional hooks (defaults in :class:`SheddingSpec`): ``points(card, rules)``
(point cards, for the smallest-play preference; 0), ``identity(cards,
rules)`` (when two plays are "the same play"; default the multiset of ranks,
so suits never make two plays distinct), ``no_pattern(cards, rules)`` (why a
card set is no pattern), ``why_not(play, table, rules)`` (why a reading does
not beat the table), ``sizes(hand, table, rules)`` (which play sizes the
hint should try), ``max_hand(rules)`` (the most cards a ``hand`` may hold; a
bigger one is a 422), ``sort_key(rules)`` (canonical output order, derived from
``order``).

``candidates`` may over-generate and repeat itself: the core keeps only the
candidates that have a reading (that beats ``table`` when one is given) and
drops repeats by ``identity``. It must not miss a legal play: the tests
compare the hint with :func:`brute_force_plays` (every sub-multiset of the
hand filtered by the same rules). A candidate may be yielded as ``(cards,
reading)`` when the generator built it from that reading, or as ``(cards,
make_reading)``, a function called only for the plays that are kept; the
core then trusts that reading instead of calling ``readings`` again (the
fast path of 双扣). ``need`` (an ``order`` level, leads only) says that only
plays whose highest card has that level are wanted this time; a generator
may ignore it. ``hand`` is a tuple, the same object for every size of one
hint, so a generator may cache its grouping of it.

A :class:`Reading` is one way to read a card set: ``kind`` (stable string
for API clients), ``label`` (bilingual), ``key`` (compared by ``beats``),
``size``, ``is_bomb``, ``cards`` (the cards as played) and JSON ``extra``
fields (双扣 ``lines``, Q783 ``pure``, …).

**Smallest play** (托管, ``rules/common.md``): the play whose highest card is
lowest in the game's order, then with fewer point cards, then with fewer
cards (ties: lower cards first, then the generator's order). ``hint`` lists
every distinct legal play in that order; a follower may always pass, so
``smallest`` is ``null`` when nothing beats the table. A list longer than
``limit`` is cut to its smallest ``limit`` plays with ``"truncated": true``.
The request field ``limit`` (1 … :data:`MAX_LIMIT`) sets it. By default a
follower's list is complete up to :data:`MAX_PLAYS` (2000; a 27-card 双扣
hand with four jokers has 373 plays against a 5-card straight, the worst
千变 hands we built about 1,600 against a bomb), and a lead is cut at
:data:`MAX_LEADS` (200): the same 27-card hand has 10,669 distinct leads
(every straight, run and bomb with every choice of jokers), too many to show
or to compute on each tap, so the hint stops generating once the smallest
200 are known.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence

from .cards import Card, Deck, format_cards, missing_from, parse_cards
from .errors import InvalidInput, MalformedInput, PaijuError
from .i18n import Text, join, t
from .payload import get_int

MAX_PLAYS = 2000  # default limit for a follower's plays
MAX_LEADS = 200   # default limit for a lead's plays
MAX_LIMIT = 5000
PASS_WORDS = frozenset({"pass", "p", "不出", "过", "要不起", "不要"})


# ==========================================================================
# Readings and the game spec
# ==========================================================================

@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards as a pattern."""

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


def distinct_readings(readings: Iterable[Reading]) -> list[Reading]:
    """Drop repeated readings (same kind, key, size and extras), keeping the first."""
    seen, out = set(), []
    for r in readings:
        if r.sig not in seen:
            seen.add(r.sig)
            out.append(r)
    return out


class SheddingSpec:
    """Base class of a game's rules for the core (see the module docstring)."""

    slug = ""
    bare = False  # accept bare ranks (suit unknown)

    # --- required -------------------------------------------------------
    def deck(self, rules) -> Deck:
        raise NotImplementedError

    def order(self, card: Card, rules) -> int:
        raise NotImplementedError

    def readings(self, cards: Sequence[Card], rules) -> list[Reading]:
        raise NotImplementedError

    def beats(self, play: Reading, table: Reading, rules) -> bool:
        raise NotImplementedError

    def candidates(self, hand: Sequence[Card], table: Reading | None, rules, size: int,
                   need: int | None = None) -> Iterable[Sequence[Card]]:
        raise NotImplementedError

    # --- optional -------------------------------------------------------
    def sort_key(self, rules) -> Callable[[Card], tuple]:
        order = self.order
        return lambda c: (-order(c, rules), c._suit_index if c.suit is not None else 9)

    def points(self, card: Card, rules) -> int:
        return 0

    def identity(self, cards: Sequence[Card], rules) -> Hashable:
        return tuple(sorted(c.rank for c in cards))

    def sizes(self, hand: Sequence[Card], table: Reading | None, rules) -> Iterable[int]:
        return range(1, len(hand) + 1)

    def max_hand(self, rules) -> int | None:
        """The most cards a hand can hold (the deal), or None for no limit."""
        return None

    def no_pattern(self, cards: Sequence[Card], rules) -> Text:
        return t("「{c}」不成任何牌型", "“{c}” is not a pattern of this game",
                 c=format_cards(cards, self.sort_key(rules)))

    def why_not(self, play: Reading, table: Reading, rules) -> Text | None:
        return None


# ==========================================================================
# Reading the payload
# ==========================================================================

def read_cards(payload: Mapping, name: str, spec: SheddingSpec, rules, *, required: bool = True):
    """The cards of field ``name`` (None when optional and absent), checked against the deck."""
    value = payload.get(name)
    if value is None:
        if required:
            raise MalformedInput(t("缺少「{f}」", "“{f}” is missing", f=name), field=name, code="missing_field")
        return None
    if not isinstance(value, str):
        raise MalformedInput(t("「{f}」应为牌的文字，例如「♠A ♥10」", "“{f}” must be card text, such as “♠A ♥10”",
                               f=name), field=name, code="not_a_string")
    try:
        cards = parse_cards(value, bare=spec.bare)
        spec.deck(rules).check(cards, field=name)
    except PaijuError as exc:
        raise exc.with_field(name)
    return cards


def read_hand(payload: Mapping, spec: SheddingSpec, rules, *, required: bool):
    """The ``hand`` field: cards the deck holds, no more than a hand can hold."""
    hand = read_cards(payload, "hand", spec, rules, required=required)
    most = spec.max_hand(rules)
    if hand is not None and most is not None and len(hand) > most:
        raise InvalidInput(t("手牌有{n}张：这个玩法每人最多{m}张", "the hand has {n} cards: a hand holds at most {m} here",
                             n=len(hand), m=most), field="hand", code="hand_too_large")
    return hand


def check_together(spec: SheddingSpec, rules, parts: Sequence[tuple[str, Sequence[Card] | None]]) -> None:
    """All the cards of one request must fit in the pack together."""
    present = [(n, c) for n, c in parts if c]
    if len(present) < 2:
        return
    together = [card for _, cards in present for card in cards]
    names = "+".join(n for n, _ in present)
    spec.deck(rules).check(together, field=names)


def is_pass(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in PASS_WORDS


def table_reading(spec: SheddingSpec, rules, previous: Sequence[Card], payload: Mapping) -> Reading:
    """The reading of the table's play: its largest, or ``previous_reading`` (an index)."""
    rs = spec.readings(previous, rules)
    if not rs:
        raise InvalidInput(join([t("桌上的牌：", "the table’s play: ", ), spec.no_pattern(previous, rules)], "", ""),
                           field="previous", code="previous_not_a_pattern")
    index = payload.get("previous_reading")
    if index is None:
        return rs[0]
    index = get_int(payload, "previous_reading", 0, len(rs) - 1)
    return rs[index]


# ==========================================================================
# Judging plays
# ==========================================================================

def judge(spec: SheddingSpec, cards: Sequence[Card], table: Reading | None, rules) -> Reading | None:
    """The largest reading of ``cards`` that is a legal lead / beats ``table``, or None."""
    for r in spec.readings(cards, rules):
        if table is None or spec.beats(r, table, rules):
            return r
    return None


def preference(spec: SheddingSpec, cards: Sequence[Card], rules) -> tuple:
    """Smaller is played first by 托管 (see the module docstring); ties keep the generator's order."""
    orders = sorted([spec.order(c, rules) for c in cards], reverse=True)
    points = 0 if type(spec).points is SheddingSpec.points else sum(spec.points(c, rules) for c in cards)
    return (orders[0], points, len(cards), tuple(orders))


def legal_plays(spec: SheddingSpec, hand: Sequence[Card], table: Reading | None, rules,
                limit: int = MAX_PLAYS, *, resolve: bool = True) -> tuple[list[tuple[tuple[Card, ...], Any]], bool]:
    """Every distinct legal play from ``hand`` (smallest first) and whether the list was cut.

    A follower's plays are generated in one pass per size. A lead can have tens of
    thousands of plays, so it is generated level by level (highest card lowest
    first, ``need=level``), then size by size, stopping once ``limit`` is passed.
    """
    order = spec.order
    hand = tuple(hand)  # the same tuple for every size: generators may cache their grouping of it
    sizes = sorted(set(spec.sizes(hand, table, rules)))
    seen: set = set()
    out: list[tuple[tuple, tuple[Card, ...], Any]] = []

    def collect(cands, level=None) -> list:
        cell = []
        for cand in cands:
            reading = None
            if len(cand) == 2 and not isinstance(cand[1], Card):
                cand, reading = cand  # trusted: a Reading, or a function that builds it
            if level is not None and max(order(c, rules) for c in cand) != level:
                continue
            ident = spec.identity(cand, rules)
            if ident in seen:
                continue
            seen.add(ident)
            if reading is None:
                reading = judge(spec, cand, table, rules)
            if reading is not None:
                cand = tuple(cand)
                cell.append((preference(spec, cand, rules), cand, reading))
        return cell

    def done(items, truncated):
        if not resolve:  # readings may still be functions: see resolve_reading
            return [(c, r) for _, c, r in items], truncated
        return [(c, resolve_reading(r)) for _, c, r in items], truncated

    if table is not None:
        for size in sizes:
            if size <= len(hand):
                out.extend(collect(spec.candidates(hand, table, rules, size)))
        out.sort(key=lambda x: x[0])
        return done(out[:limit], len(out) > limit)

    # With point cards the order inside a level is (points, size): the level is finished before cutting.
    by_level = type(spec).points is not SheddingSpec.points
    levels = sorted({order(c, rules) for c in hand})
    for level in levels:
        sub = tuple(c for c in hand if order(c, rules) <= level)
        cell = []
        for size in sizes:
            if size > len(sub):
                break
            cell.extend(collect(spec.candidates(sub, None, rules, size, need=level), level))
            if not by_level:
                cell.sort(key=lambda x: x[0])
                out.extend(cell)
                cell = []
                if len(out) > limit:
                    return done(out[:limit], True)
        cell.sort(key=lambda x: x[0])
        out.extend(cell)
        if len(out) > limit:
            return done(out[:limit], True)
    out.sort(key=lambda x: x[0])
    return done(out, False)


def resolve_reading(reading) -> Reading:
    return reading if isinstance(reading, Reading) else reading()


def brute_force_plays(spec: SheddingSpec, hand: Sequence[Card], table: Reading | None, rules) -> dict:
    """The oracle for tests: every sub-multiset of ``hand`` judged directly ({identity: cards})."""
    found = {}
    hand = list(hand)
    for n in range(1, len(hand) + 1):
        for combo in combinations(range(len(hand)), n):
            cards = [hand[i] for i in combo]
            ident = spec.identity(cards, rules)
            if ident in found:
                continue
            if judge(spec, cards, table, rules) is not None:
                found[ident] = tuple(cards)
    return found


# ==========================================================================
# Helpers for candidate generators
# ==========================================================================

def by_rank(hand: Sequence[Card], key) -> dict[int, list[Card]]:
    """Cards grouped by rank, each group in canonical order."""
    groups: dict[int, list[Card]] = {}
    for c in sorted(hand, key=key):
        groups.setdefault(c.rank, []).append(c)
    return groups


def multisets(avail: Sequence[tuple[Any, int]], k: int) -> Iterator[tuple[tuple[Any, int], ...]]:
    """Every way to take ``k`` items from ``avail`` = [(item, how many there are)]: ((item, n), …)."""
    if k == 0:
        yield ()
        return
    if not avail:
        return
    (item, have), rest = avail[0], avail[1:]
    remaining = sum(n for _, n in rest)
    for n in range(min(have, k), -1, -1):
        if k - n > remaining:
            break
        for tail in multisets(rest, k - n):
            yield ((item, n),) + tail if n else tail


# ==========================================================================
# The generic actions
# ==========================================================================

def _reading_list(readings: Sequence[Reading], key) -> list[dict]:
    return [r.as_dict(key) for r in readings]


def shedding_actions(spec: SheddingSpec) -> dict[str, Callable]:
    """``classify``, ``check`` and ``hint`` for a spec (request/response as in ``shared/api.md``)."""

    def classify(payload: Mapping, rules) -> dict:
        cards = read_cards(payload, "cards", spec, rules)
        key = spec.sort_key(rules)
        rs = spec.readings(cards, rules)
        if rs:
            reason = t("可以读作：{r}", "reads as: {r}", r=join([r.label for r in rs], "；", "; "))
        else:
            reason = spec.no_pattern(cards, rules)
        return {"cards": format_cards(cards, key), "valid": bool(rs), "readings": _reading_list(rs, key),
                "reason": reason}

    def check(payload: Mapping, rules) -> dict:
        key = spec.sort_key(rules)
        passing = is_pass(payload.get("play"))
        play = None if passing else read_cards(payload, "play", spec, rules)
        previous = read_cards(payload, "previous", spec, rules, required=False)
        hand = read_hand(payload, spec, rules, required=False)
        check_together(spec, rules, [("previous", previous), ("hand" if hand else "play", hand or play)])
        table = table_reading(spec, rules, previous, payload) if previous else None

        readings_of_play: list[Reading] = []

        def answer(legal: bool, reason: Text, reading: Reading | None = None) -> dict:
            out = {"legal": legal, "reason": reason, "reading": reading.as_dict(key) if reading else None,
                   "readings": _reading_list(readings_of_play, key)}
            if table is not None:
                out["table"] = table.as_dict(key)
            return out

        if passing:
            if table is None:
                return answer(False, t("首家必须出牌，不能不出", "the leader must play; a lead cannot be a pass"))
            if rules.get("must_beat"):
                if hand is None:
                    raise InvalidInput(t("「有出必出」时，判断能否不出需要填写手牌",
                                         "with “must beat if able”, checking a pass needs the hand"),
                                       field="hand", code="hand_required")
                plays, _ = legal_plays(spec, hand, table, rules, limit=1)
                if plays:
                    return answer(False, t("有出必出：你能管上，例如「{p}」", "must beat if able: you can beat it, e.g. “{p}”",
                                           p=format_cards(plays[0][0], key)))
            return answer(True, t("不出（过）", "pass"))

        text = format_cards(play, key)
        if hand is not None:
            missing = missing_from(hand, play)
            if missing is not None:
                return answer(False, t("手里没有「{c}」", "the hand does not hold “{c}”", c=str(missing)))
        rs = spec.readings(play, rules)
        readings_of_play.extend(rs)
        if not rs:
            return answer(False, spec.no_pattern(play, rules))
        if table is None:
            if len(rs) > 1:
                return answer(True, t("首家可以出「{c}」：{r}（其他读法：{o}）", "“{c}” is a legal lead: {r} (other readings: {o})",
                                      c=text, r=rs[0].label, o=join([r.label for r in rs[1:]], "；", "; ")), rs[0])
            return answer(True, t("首家可以出「{c}」：{r}", "“{c}” is a legal lead: {r}", c=text, r=rs[0].label), rs[0])
        for r in rs:
            if spec.beats(r, table, rules):
                return answer(True, t("{r} 管得上桌上的 {tb}", "{r} beats the table’s {tb}", r=r.label, tb=table.label), r)
        return answer(False, why_not(spec, rs, table, rules), rs[0])

    def hint(payload: Mapping, rules) -> dict:
        key = spec.sort_key(rules)
        hand = read_hand(payload, spec, rules, required=True)
        previous = read_cards(payload, "previous", spec, rules, required=False)
        check_together(spec, rules, [("previous", previous), ("hand", hand)])
        table = table_reading(spec, rules, previous, payload) if previous else None
        limit = get_int(payload, "limit", 1, MAX_LIMIT, default=MAX_PLAYS if table else MAX_LEADS)
        plays, truncated = legal_plays(spec, hand, table, rules, limit, resolve=False)
        texts = [format_cards(c, key) for c, _ in plays]
        first = resolve_reading(plays[0][1]) if plays else None
        if plays:
            smallest = texts[0]
            reason = (t("最小可出：「{p}」（{r}）", "smallest lead: “{p}” ({r})", p=smallest, r=first.label)
                      if table is None else
                      t("最小管得上的：「{p}」（{r}）", "smallest play that beats the table: “{p}” ({r})",
                        p=smallest, r=first.label))
        else:
            smallest = None
            reason = t("管不上，不出", "nothing beats the table: pass")
        return {"plays": texts, "smallest": smallest, "truncated": truncated, "reason": reason,
                "smallest_reading": first.as_dict(key) if first else None,
                "table": table.as_dict(key) if table else None}

    return {"classify": classify, "check": check, "hint": hint}


def why_not(spec: SheddingSpec, rs: Sequence[Reading], table: Reading, rules) -> Text:
    """Plain words for a play none of whose readings beats the table."""
    play = rs[0]
    custom = spec.why_not(play, table, rules)
    if custom is not None:
        return custom
    if table.is_bomb and not any(r.is_bomb for r in rs):
        return t("桌上是炸弹 {tb}，只有更大的炸弹才管得上", "the table holds a bomb, {tb}; only a bigger bomb beats it",
                 tb=table.label)
    if play.is_bomb and table.is_bomb:
        return t("{r} 不比桌上的 {tb} 大", "{r} is not bigger than the table’s {tb}", r=play.label, tb=table.label)
    if play.kind != table.kind or play.size != table.size:
        return t("牌型不同：桌上是 {tb}（{n}张），出的是 {r}（{m}张）；只能出同样牌型、同样张数的更大的牌，或炸弹",
                 "a different pattern: the table holds {tb} ({n} cards), this is {r} ({m} cards); "
                 "only the same pattern with as many cards and a higher top, or a bomb, beats it",
                 tb=table.label, n=table.size, r=play.label, m=play.size)
    return t("{r} 不比桌上的 {tb} 大", "{r} is not higher than the table’s {tb}", r=play.label, tb=table.label)
