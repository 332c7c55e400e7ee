"""The generic ``classify``, ``check`` and ``hint`` actions of a shedding game (``api.md``).

``hint`` lists every distinct legal play, smallest first; a follower may always
pass, so ``smallest`` is ``null`` when nothing beats the table. A list longer
than ``limit`` (1 … ``MAX_LIMIT``; by default ``default_limit`` of
``scoring/plays.py``) is cut to its smallest ``limit`` plays with
``"truncated": true``: a 27-card 双扣 hand has over 10,000 distinct leads, too
many to show or to compute on each tap, so the hint stops generating once the
smallest are known.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any, Callable, Mapping, Sequence

from ..answers import READING, answer, field
from ..cards import Card, format_cards, format_play, in_ascending_order, missing_from, parse_cards, written_places
from ..errors import InvalidInput, InvalidNotation, MalformedInput, PaijuError
from ..games import ActionTable
from ..i18n import Text, join, t
from ..inputs import MISSING, CardsField, Context, Schema, WholeNumberField, missing
from ..plays import MAX_LIMIT, collector_paused, default_limit
from ..results import ABSENT, Classified, Result
from .reading import Reading
from .ranking import bomb_kinds
from .search import legal_plays, written_plays
from .spec import SheddingSpec
from .turn import read_turn, turn_schema

PASS_WORDS = frozenset({"pass", "p", "不出", "过", "要不起", "不要"})
SpecFor = Callable[[Any], SheddingSpec]


# ==========================================================================
# Reading the payload
# ==========================================================================

@dataclass(frozen=True)
class PlayCardsField(CardsField):
    """Cards as a shedding game's check, hint and classify read them: text in the pack of the spec
    (``Context.core``), bare ranks where the game allows them unless this request needs their suits;
    ``passes``: a pass (不出) reads as None; ``is_hand``: no more cards than a hand holds."""

    passes: bool = False
    is_hand: bool = False

    def read_in(self, payload, ctx, prefix, problems, label=None):
        path = prefix + self.name
        value = payload.get(self.name)
        if value is None and self.required:
            problems.add(missing(path))
            return MISSING
        if value is None or (self.passes and is_pass(value)):
            return None
        try:
            return self.parse(value, payload, ctx.core, path)
        except PaijuError as exc:
            problems.add(exc)
            return MISSING

    def parse(self, value: Any, payload: Mapping, spec: SheddingSpec, path: str) -> tuple[Card, ...]:
        if not isinstance(value, str):
            raise MalformedInput(t("「{f}」应为牌的文字，例如「♠A ♥10」", "“{f}” must be card text, such as “♠A ♥10”",
                                   f=path), field=path, code="not_a_string")
        try:
            cards = parse_cards(value, bare=spec.bare)
            why = spec.suits_needed(cards, payload) if spec.bare else None
            if why is not None:
                raise InvalidNotation(why, field=path, code="suit_required")
            spec.deck().check(cards, field=path)
        except PaijuError as exc:
            raise exc.at(path) from None
        most = spec.max_hand() if self.is_hand else None
        if most is not None and len(cards) > most:
            raise InvalidInput(t("手牌有{n}张：这个玩法每人最多{m}张", "the hand has {n} cards: a hand holds at most {m} here",
                                 n=len(cards), m=most), field=path, code="hand_too_large")
        return cards


def never(rules: Any) -> bool:
    """A field no form shows (the API reads it)."""
    return False


PREVIOUS = PlayCardsField("previous", t("桌上要压的牌（首出则留空）", "The play to beat (leave empty for a lead)"),
                          required=False)
#: which reading of the table's play, an index into its readings (largest first); read once they are known
PREVIOUS_READING = WholeNumberField("previous_reading", t("桌上那手牌按哪种读法", "Which reading of the play to beat"),
                                    required=False, lo=0, entry="table_reading")
LIMIT = WholeNumberField("limit", t("列出几种出法", "how many plays to list"), required=False, lo=1, hi=MAX_LIMIT,
                         shown_when=never)
#: the cards each action reads, in the order it reads them (its first problem is the answer)
CARD_INPUTS = {
    "classify": Schema((PlayCardsField("cards", t("牌", "the cards")),), first_problem_only=True),
    "check": Schema((PlayCardsField("play", t("你要出的牌", "Your play"), passes=True), PREVIOUS,
                     PlayCardsField("hand", t("你的手牌（可选）", "Your hand (optional)"), required=False, is_hand=True,
                                    rows=2)),
                    first_problem_only=True, form_order=("previous", "previous_reading", "play", "hand")),
    "hint": Schema((PlayCardsField("hand", t("你的手牌", "Your hand"), is_hand=True, rows=2), PREVIOUS),
                   first_problem_only=True, form_order=("previous", "hand")),
}
#: what each action reads after its cards, before the turn inputs of its spec
LATER_INPUTS = {"check": Schema((PREVIOUS_READING,)),
                "hint": Schema((replace(PREVIOUS_READING, shown_when=never), LIMIT))}


#: what every reading of this core carries: :data:`~scoring.answers.READING`'s fields, its size and whether it
#: is a bomb (a game declares what its patterns add: ``Game.reading_fields``)
SHEDDING_READING = READING + answer(field("size", "integer"), field("bomb", "boolean"))
#: what each action answers
CLASSIFIED = answer(field("cards", "text"), field("valid", "boolean"), field("readings", "readings"),
                    field("reason", "text"))
ANSWERS = {
    "classify": CLASSIFIED,
    "check": answer(field("legal", "boolean"), field("reason", "text"), field("reading", "reading", nullable=True),
                    field("readings", "readings"), field("table", "reading", required=False)),
    "hint": answer(field("plays", "texts"), field("smallest", "text", nullable=True), field("truncated", "boolean"),
                   field("reason", "text"), field("smallest_reading", "reading", nullable=True),
                   field("table", "reading", nullable=True)),
}


@dataclass(frozen=True)
class Verdict(Result):
    """``check``: whether the play (or a pass) is legal, why, the reading it is played as and all its readings,
    and the table's reading (left out on a lead)."""

    legal: bool
    reason: Text
    reading: dict | None
    readings: list
    table: Any = ABSENT


@dataclass(frozen=True)
class Hint(Result):
    """``hint``: every legal play, smallest first (cut at the limit: ``truncated``), the smallest, why, and how the
    smallest and the table read."""

    plays: list
    smallest: str | None
    truncated: bool
    reason: Text
    smallest_reading: dict | None
    table: dict | None


def shedding_input(action: str, spec: SheddingSpec) -> Schema | None:
    """What ``action`` reads under the rules of ``spec``: its cards, then the rest, then the turn inputs."""
    cards = CARD_INPUTS.get(action)
    if cards is None or action not in LATER_INPUTS:
        return cards
    return cards + LATER_INPUTS[action] + turn_schema(spec)


def read_cards_of(action: str, spec: SheddingSpec, payload: Mapping):
    return CARD_INPUTS[action].read(payload, Context(rules=spec.rules, core=spec))


def read_cards(payload: Mapping, name: str, spec: SheddingSpec, *, required: bool = True):
    """The cards of field ``name`` (None when optional and absent), checked against the deck."""
    field = PlayCardsField(name, t(name, name), required=required)
    return field.read_alone(payload, Context(rules=spec.rules, core=spec))


def check_together(spec: SheddingSpec, parts: Sequence[tuple[str, Sequence[Card] | None]]) -> None:
    """All the cards of one request must fit in the pack together."""
    present = [(n, c) for n, c in parts if c]
    if len(present) < 2:
        return
    together = [card for _, cards in present for card in cards]
    names = "+".join(n for n, _ in present)
    spec.deck().check(together, field=names)


def is_pass(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in PASS_WORDS


def table_reading(spec: SheddingSpec, previous: Sequence[Card] | None, payload: Mapping) -> Reading | None:
    """The reading of the table's play: its largest, or ``previous_reading`` (an index); None for a lead, whose
    ``previous_reading`` is still read (a value that is not a whole number is refused as the document says)."""
    if not previous:
        PREVIOUS_READING.read_alone(payload, Context())
        return None
    rs = spec.readings(previous)
    if not rs:
        raise InvalidInput(join([t("桌上的牌：", "the table’s play: ", ), spec.no_pattern(previous)], "", ""),
                           field="previous", code="previous_not_a_pattern")
    index = replace(PREVIOUS_READING, hi=len(rs) - 1).read_alone(payload, Context())
    return rs[0 if index is None else index]


def _reading_list(readings: Sequence[Reading], key) -> list[dict]:
    return [r.as_dict(key) for r in readings]


# ==========================================================================
# The actions
# ==========================================================================

def classify(spec: SheddingSpec, payload: Mapping) -> Classified:
    cards = read_cards_of("classify", spec, payload).cards
    key = spec.sort_key()
    rs = spec.readings(cards)
    if rs:
        reason = t("可以读作：{r}", "reads as: {r}", r=join([r.label for r in rs], "；", "; "))
    else:
        reason = spec.no_pattern(cards)
    text = format_play(cards, key, wild_ranks(spec)) if rs else format_cards(cards, key)  # a play as it reads
    return Classified(text, bool(rs), _reading_list(rs, key), reason)


class _Check:
    """One ``check`` request: the verdict on a play (or a pass) against the table."""

    def __init__(self, spec: SheddingSpec, payload: Mapping):
        self.spec = spec
        self.key = spec.sort_key()
        values = read_cards_of("check", spec, payload)
        self.passing = is_pass(payload.get("play"))
        self.play, previous, self.hand = values.play, values.previous, values.hand
        check_together(spec, [("previous", previous), ("hand" if self.hand else "play", self.hand or self.play)])
        self.table = table_reading(spec, previous, payload)
        self.turn = read_turn(payload, spec, self.hand, leading=previous is None)
        self.readings: list[Reading] = []

    def answer(self, legal: bool, reason: Text, reading: Reading | None = None) -> Verdict:
        readings = _reading_list(self.readings, self.key)
        shown = None if reading is None else self.reading_dict(reading, readings)
        table = ABSENT if self.table is None else self.table.as_dict(self.key)
        return Verdict(legal, reason, shown, readings, table)

    def reading_dict(self, reading: Reading, readings: list[dict]) -> dict:
        """``reading`` as the answer writes it: the dict already written for it when it is one of the play's
        readings (as a verdict's reading always is), else its own."""
        for candidate, written in zip(self.readings, readings):
            if candidate is reading:
                return written
        return reading.as_dict(self.key)

    def verdict(self) -> Verdict:
        return self.on_pass() if self.passing else self.on_play()

    def on_pass(self) -> Verdict:
        if self.table is None:
            return self.answer(False, t("首家必须出牌，不能不出", "the leader must play; a lead cannot be a pass"))
        if self.spec.rules.get("must_beat"):
            if self.hand is None:
                raise InvalidInput(t("「有出必出」时，判断能否不出需要填写手牌",
                                     "with “must beat if able”, checking a pass needs the hand"),
                                   field="hand", code="hand_required")
            plays = legal_plays(self.spec, self.hand, self.table, self.turn)
            if plays:
                example = format_play(plays.smallest().cards, self.key, wild_ranks(self.spec))
                return self.answer(False, t("有出必出：你能管上，例如「{p}」", "must beat if able: you can beat it, "
                                            "e.g. “{p}”", p=example))
        return self.answer(True, t("不出（过）", "pass"))

    def on_play(self) -> Verdict:
        spec, play, table = self.spec, self.play, self.table
        if self.hand is not None:
            missing = missing_from(self.hand, play)
            if missing is not None:
                return self.answer(False, t("手里没有「{c}」", "the hand does not hold “{c}”", c=str(missing)))
        rs = spec.readings(play)
        self.readings.extend(rs)
        if not rs:
            return self.answer(False, spec.no_pattern(play))
        fits = rs if table is None else [r for r in rs if spec.beats(r, table)]
        if not fits:
            return self.answer(False, why_not(spec, rs, table), rs[0])
        allowed = [r for r in fits if spec.forbids(r, self.turn) is None]
        if not allowed:
            return self.answer(False, spec.forbids(fits[0], self.turn), fits[0])
        if table is None:
            return self.answer(True, lead_text(format_play(play, self.key, wild_ranks(spec)), allowed), allowed[0])
        return self.answer(True, t("{r} 管得上桌上的 {tb}", "{r} beats the table’s {tb}", r=allowed[0].label,
                                   tb=table.label), allowed[0])


def lead_text(text: str, rs: Sequence[Reading]) -> Text:
    if len(rs) > 1:
        return t("首家可以出「{c}」：{r}（其他读法：{o}）", "“{c}” is a legal lead: {r} (other readings: {o})",
                 c=text, r=rs[0].label, o=join([r.label for r in rs[1:]], "；", "; "))
    return t("首家可以出「{c}」：{r}", "“{c}” is a legal lead: {r}", c=text, r=rs[0].label)


def check(spec: SheddingSpec, payload: Mapping) -> Verdict:
    return _Check(spec, payload).verdict()


def hint(spec: SheddingSpec, payload: Mapping) -> Hint:
    """Every distinct legal play, smallest first (see the module's words on ``limit``)."""
    with collector_paused():  # switched back on once the plays worked out are freed
        return _hint(spec, payload)


def _hint(spec: SheddingSpec, payload: Mapping) -> Hint:
    key = spec.sort_key()
    values = read_cards_of("hint", spec, payload)
    hand, previous = values.hand, values.previous
    check_together(spec, [("previous", previous), ("hand", hand)])
    table = table_reading(spec, previous, payload)
    turn = read_turn(payload, spec, hand, leading=previous is None)
    limit = LIMIT.read_alone(payload, Context()) or default_limit(table is None)
    legal = legal_plays(spec, hand, table, turn)
    plays, truncated = legal.take(limit)
    if written_plays(spec, table):  # the cards come in their written order
        texts = [" ".join([c._text for c in play.cards]) for play in plays]
    else:
        texts = play_texts(hand, [play.cards for play in plays], key, wild_ranks(spec))
    first = plays[0].reading if plays else None
    if first is None and table is None:  # only a house rule of the turn empties a lead (首出必带黑桃3 without ♠3)
        reason = t("按这些规则这一手没有能出的牌", "these rules leave no legal lead for this hand")
    elif first is None:
        reason = t("管不上，不出", "nothing beats the table: pass")
    else:
        reason = smallest_reason(spec, texts[0], first, table, legal)
    return Hint(texts, texts[0] if plays else None, truncated, reason, first.as_dict(key) if first else None,
                table.as_dict(key) if table else None)


def smallest_reason(spec: SheddingSpec, text: str, first: Reading, table: Reading | None, legal) -> Text:
    """Why the smallest play is that one (``rules/common.md``, "Smallest legal play"), in words."""
    bombs = bomb_kinds(spec)
    bomb = first.is_bomb or first.kind in bombs
    if table is None:
        why = (t("手里只有炸弹可出，先出最弱的炸弹", "only bombs are left: the weakest bomb first") if bomb else
               t("最小：牌点最小，张数最少，带牌用单张", "smallest: the lowest rank, the fewest cards, loose kickers"))
        return t("最小可出：「{p}」（{r}）。{w}", "smallest lead: “{p}” ({r}). {w}", p=text, r=first.label, w=why)
    if bomb:
        why = t("最小：只有炸弹管得上，用最弱的炸弹", "smallest: only a bomb beats the table, so the weakest bomb")
    elif any(p.reading.is_bomb or p.reading.kind in bombs for p in _last(legal)):
        why = t("最小：不用炸弹也能管上", "smallest: beats the table without a bomb")
    else:
        why = t("最小：管得上的牌里牌点最小", "smallest: the lowest that beats the table")
    return t("最小管得上的：「{p}」（{r}）。{w}", "smallest play that beats the table: “{p}” ({r}). {w}",
             p=text, r=first.label, w=why)


def _last(legal) -> list:
    """The last of a follower's legal plays (a bomb when any bomb is legal: bombs come last), or none."""
    plays = list(legal)
    return plays[-1:]


def wild_ranks(spec: SheddingSpec) -> tuple:
    """The ranks that stand for others in this game's plays (wild jokers), as :func:`~scoring.cards.format_play`
    wants them."""
    return tuple(getattr(spec, "wild", ()))


def play_texts(hand: Sequence[Card], plays: Sequence[Sequence[Card]], key, wild=()) -> list[str]:
    """``format_play`` of each play, the hand sorted once, ascending: each play's cards are put in order by their
    places in it (copies of a card share a place and a text; a card the hand lacks falls back to
    ``format_play``), then arranged (:func:`~scoring.cards.written_places`) unless it plainly needs not be: a
    play of one rank, or one holding a wild joker from a hand without a 2 and a 3 (no low run)."""
    order = in_ascending_order(sorted(hand, key=key))
    place = {c: i for i, c in enumerate(order)}
    names = [str(c) for c in order]
    ranks = [c.rank for c in order]
    rank_at = ranks.__getitem__
    wild_from = _wild_top(ranks, wild) if not (2 in ranks and 3 in ranks) else len(ranks)
    out = []
    for cards in plays:
        if len(cards) < 2:  # (itemgetter of one key gives the value, not a tuple)
            out.append(format_play(cards, key, wild))
            continue
        try:
            at = sorted(itemgetter(*cards)(place))  # itemgetter: the places in one C call
        except KeyError:
            out.append(format_play(cards, key, wild))
            continue
        if len(at) >= 4 and ranks[at[0]] != ranks[at[-1]] and at[-1] < wild_from:
            written = written_places(list(map(rank_at, at)), wild)
            if written is not None:
                at = list(map(at.__getitem__, written))
        out.append(" ".join(itemgetter(*at)(names)))
    return out


def _wild_top(ranks: Sequence[int], wild) -> int:
    """The first place of the wild jokers in a hand's ``ranks`` (ascending) when every card from it on is one
    (a play holds a wild joker when its highest place is there or above), else past the hand."""
    at = next((i for i, r in enumerate(ranks) if r in wild), len(ranks))
    return at if all(r in wild for r in ranks[at:]) else len(ranks)


def shedding_actions(spec_for: SpecFor) -> ActionTable:
    """``classify``, ``check`` and ``hint`` for a game whose spec for some rules is ``spec_for(rules)``."""
    return ActionTable({"classify": lambda payload, rules: classify(spec_for(rules), payload),
                        "check": lambda payload, rules: check(spec_for(rules), payload),
                        "hint": lambda payload, rules: hint(spec_for(rules), payload)},
                       lambda action, rules: shedding_input(action, spec_for(rules)), ANSWERS, SHEDDING_READING)


def why_not(spec: SheddingSpec, rs: Sequence[Reading], table: Reading) -> Text:
    """Plain words for a play none of whose readings beats the table."""
    play = rs[0]
    custom = spec.why_not(play, table)
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
