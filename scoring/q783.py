"""Q783 (``rules/q783.md``): a scoring shedding game whose score cards are money.

Two halves:

* **Patterns** (classify / check / hint; ``scoring/q783_patterns.py``, its names
  importable from here too): house rules, score cards, N of a kind, bombs, 正/副
  Q783 and 双Q783 in Q783's own rank order on the shared shedding core.
* **Money** (settle, and following a hand live: ``scoring/q783_rounds.py``): every round 圈 is paid at
  once by the other (opposing) players out of their banks; the hand 小局 ends with a penalty; a bank that
  reaches 0 ends the 大局. ``settle`` replays the rounds with the same functions the live page uses.

Readings made here where ``rules/q783.md`` is silent:

* team mode: ``banks`` are given as the output shows them, each seat its
  team's bank (teammates equal); the deck-total check adds team banks;
* a bank that is 0 after a payment (round or penalty) ends the 大局 once that
  payment is done; later rounds are refused, and no penalty follows when it
  ends during the rounds (``finish_order`` is then optional);
* a team's change is split evenly toward zero; the lowest seat of the team
  takes what is left (−25 over two seats: −13, −12);
* ``finish_order`` may name more seats than needed; the ones after the hand
  was decided change nothing. Under ``winner: points`` it is optional, and
  equal top gains are a draw (no penalty);
* without ``banks`` nothing is capped and the 大局 never ends (``banks`` and
  ``game_over`` answer null / false).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from . import q783_rounds
from .answers import answer, field
from .cards import format_cards
from .errors import PaijuError
from .games import Game, opposite_teams, settlement
from .results import Settlement
from .i18n import Text, join, seat_name, t
from .inputs import RowsField, Schema
from .q783_patterns import (ACTIONS, MAX_SET, Q783_KINDS, RULESET, Bomb, NOfAKind, Q783Spec, cards_str,  # noqa: F401
                            classify, check, deck, hint, is_bomb_class, is_score_card, order_text, payout,
                            play_card_total, play_order, play_reading, q783_purity, rank_order, read_play,
                            require_purity, score_card_reason, score_total, score_value, sort_key, spec_for,
                            strength)
from .q783_live import FINISH_FIELDS, ROUND_FIELDS, START_FIELDS, Q783Rounds
from .q783_rounds import BANK_STEP, Pack, Scoring, Winner, _sign  # noqa: F401
from .shedding import Reading

# ==========================================================================
# Actions
# ==========================================================================

def bank_chips(ctx) -> tuple[int, ...]:
    """The banks a 大局 starts with, offered as chips (each fills every seat): 50, 100, and an even share of
    the pack's score cards."""
    share = score_total(ctx.rules) // max(ctx.seats, 1) // BANK_STEP * BANK_STEP
    return tuple(sorted({v for v in (50, 100) if v < share} | {share}))


def _with_bank_chips(field):
    if field.name != "banks":
        return field
    return replace(field, item=replace(field.item, chips=bank_chips))


#: score cards are never played: two decks (the most) hold 80 play cards, 108 less 24 of 5, 10, K and 4 jokers
MAX_ROUNDS = 2 * (54 - 12 - 2)

SETTLE_INPUT = Schema((
    *map(_with_bank_chips, START_FIELDS),
    # every round plays at least one card: no hand has more rounds than two decks have play cards (and together
    # its rounds play no more cards than its house rules' pack holds: q783_rounds.apply_round)
    RowsField("rounds", t("各圈", "rounds"), row_label=t("第{n}圈", "round {n}"), max_rows=MAX_ROUNDS, entry="rounds",
              row_code="malformed_round", fields=ROUND_FIELDS),
    *FINISH_FIELDS,
), seats_field="players")
_BANKS = SETTLE_INPUT.field("banks")


def _winning_play(text: Any, rules, field: str, need_purity: bool) -> tuple[str, Reading]:
    cards = read_play(text, rules, field)
    return cards_str(cards, rules), play_reading(cards, rules, field, need_purity=need_purity)


def _play_cards(rules) -> int:
    """:func:`play_card_total`, worked out once per house rules (every round of every settle asks it)."""
    key = getattr(rules, "key", None)
    if key is None:
        return play_card_total(rules)
    if key not in _PLAY_CARDS:
        _PLAY_CARDS[key] = play_card_total(rules)
    return _PLAY_CARDS[key]


_PLAY_CARDS: dict[tuple, int] = {}
PACK = Pack(score_total, _play_cards, deck, _winning_play, payout)
LIVE_HAND = Q783Rounds(PACK)
# the round machine with Q783's pack
new_hand, apply_round, replay, undo_round = (
    partial(f, PACK) for f in (q783_rounds.new_hand, q783_rounds.apply_round, q783_rounds.replay, q783_rounds.undo_round))
finish_hand = q783_rounds.finish_hand


def _round_payload(row) -> dict:
    out = {"winner": row.winner}
    if row.won_with is not None:
        out["won_with"] = row.won_with
    if row.cards is not None:
        out["cards"] = format_cards(row.cards)
    if row.count is not None:
        out["count"] = row.count
    return out


def settle(values, rules, quiet: bool = False) -> Settlement:
    """The hand's deltas, the banks after it, whether the 大局 is over, and the steps (none when ``quiet``)."""
    rounds = [_round_payload(row) for row in values.rounds]
    state, steps = replay(values.players, values.teams, values.banks, rounds, rules, list(values.finish_order),
                          quiet=quiet)
    if quiet:
        return _quiet_answer(state)
    steps.append(t("结果：{d}", "result: {d}",
                   d=join([t("{s} {d}", "{s} {d}", s=seat_name(i), d=_sign(d))
                           for i, d in enumerate(state["deltas"])], "，", ", ")))
    return settlement(state["deltas"], steps, banks=state["banks"], game_over=state["game_over"])


def _quiet_answer(state: dict) -> Settlement:
    return settlement(state["deltas"], [], banks=state["banks"], game_over=state["game_over"])


def settle_from_banks(values, rules) -> Callable[[Mapping], Settlement]:
    """A hand read without its banks (``values``), its rounds read once: a function of ``{"banks": …}`` (the
    banks it starts from, as a payload gives them) giving its quiet settle, as :func:`settle` gives it. Raises
    where the hand is refused (then perhaps another of its problems than :func:`settle` names first)."""
    players, teams, finish = values.players, values.teams, tuple(values.finish_order)
    # kept while the process keeps the hand (scoring.series): the rounds without their words, which no quiet
    # settle says
    read = [(canonical, amount, None) for canonical, amount, _how in q783_rounds.read_rounds(
        PACK, players, [_round_payload(row) for row in values.rounds], rules)]
    ctx = replace(GAME.input_context(rules), seats=players)
    free = None  # where no bank caps a payment, the hand's payments are the same from any banks: worked out once
    if rules.negative_banks:
        free = q783_rounds.replay_read(PACK, players, teams, None, read, rules, list(finish))

    def settled(start: Mapping) -> Settlement:
        banks = _BANKS.read_alone(start, ctx)
        if free is not None and banks is not None:
            return _quiet_answer(q783_rounds.with_banks(PACK, free, banks, rules))
        return _quiet_answer(q783_rounds.replay_read(PACK, players, teams, banks, read, rules, list(finish)))
    return settled


def settle_moved(teams: Any, started: Any, ended: Any, deltas: list[int], start: Mapping, rules) -> dict | None:
    """The quiet settle of a hand from the banks in ``start`` (as a payload gives them), told by what it gave from
    other banks (``started``) — its ``deltas`` by seat and the banks it ended with (``ended``) — without reading the
    hand again: under ``negative_banks`` no bank caps a payment, so its payments are the same from any banks and
    only the banks are read (as :func:`settle_from_banks` reads them). None where that does not follow (the
    hand is then settled in full, which says why where it is refused): the rules cap payments, ``teams`` is not
    a switch, the new banks are refused, or ``started``, ``ended`` and ``deltas`` are not what a hand from
    ``started`` gives (a row changed by hand)."""
    players = len(deltas)
    if not rules.negative_banks or not isinstance(teams, bool) or not (
            _seat_ints(started, players) and _seat_ints(ended, players)) or sum(deltas) != 0:
        return None
    try:
        start_free, context = _no_banks(players, teams, rules)
        free = dict(start_free)
        sides = free["sides"]
        free["side_changes"] = changes = [ended[seats[0]] - started[seats[0]] for seats in sides]
        banks = _BANKS.read_alone(start, context)
        after = q783_rounds.with_banks(PACK, free, banks, rules) if banks is not None else None
    except PaijuError:
        return None
    if after is None or after["deltas"] != deltas or teams and any(  # solo: each seat its side, its change as read
            ended[seat] - started[seat] != changes[side] for side, seats in enumerate(sides) for seat in seats):
        return None
    return _quiet_answer(after).quiet()  # as Game.settle_quietly answers


def _seat_ints(values: Any, players: int) -> bool:
    return isinstance(values, list) and len(values) == players and all(type(v) is int for v in values)


#: the last house rules :func:`settle_moved` read banks under (the same object all along a chain), with the seats and
#: teams, the start without banks (:func:`q783_rounds.new_hand`) and the context the banks are read in: made once
#: per chain, not per hand (a rules key is a tuple of every rule, hashed anew at every look-up)
_LAST_MOVED: tuple = (None, None, None, None, None)


def _no_banks(players: int, teams: bool, rules) -> tuple[dict, Any]:
    """A hand's start without banks and the context its banks are read in, for these seats, teams and rules."""
    global _LAST_MOVED
    last = _LAST_MOVED
    if last[0] is not rules or last[1] != players or last[2] is not teams:
        last = _LAST_MOVED = (rules, players, teams, q783_rounds.new_hand(PACK, players, teams, None, rules),
                              replace(GAME.input_context(rules), seats=players))
    return last[3], last[4]


def summary() -> Text:
    return t("3–6人，分牌当钱：每圈赢家收分，先走的收罚分，分输光大局结束",
             "3–6 players; score cards are money: each round's winner is paid, the first out collects "
             "the penalty, and an empty bank ends the 大局")


#: worked examples for the rules page and the API document; each is a binding example of the rules
EXAMPLES = (
    ("settle", t("不分队：三圈收分，3号位先出完，分库见底", "solo: three rounds, seat 3 goes out first, banks run dry"),
     {"players": 4, "teams": False, "banks": [100, 100, 100, 100],
      "rounds": [{"winner": 0, "cards": "♠Q"}, {"winner": 2, "cards": "♥Q ♥7 ♥8 ♥3"},
                 {"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4 ♠4"}],
      "finish_order": [2]}),
    ("settle", t("按出牌张数收分，不计罚分", "paid by the cards played, no penalty"),
     {"players": 4, "teams": False, "banks": [100, 100, 100, 100],
      "rounds": [{"winner": 0, "count": 1}, {"winner": 2, "count": 4}, {"winner": 1, "count": 5}],
      "finish_order": [2], "rules": {"scoring": "cards", "penalty": 0}}),
    ("settle", t("分队：1号位一对赢一圈，2、4号位先出完", "teams: seat 1 wins a round with a pair, seats 2 and 4 go out first"),
     {"players": 4, "teams": True, "banks": [250, 250, 250, 250],
      "rounds": [{"winner": 0, "cards": "♠Q ♥Q"}], "finish_order": [1, 3]}),
    ("check", t("正Q783 管副Q783", "正Q783 beats 副Q783"),
     {"previous": "♠Q ♥7 ♥8 ♣3", "play": "♦Q ♦7 ♦8 ♦3"}),
    ("check", t("4张炸管正Q783", "a 4-bomb beats 正Q783"),
     {"previous": "♦Q ♦7 ♦8 ♦3", "play": "♠4 ♥4 ♣4 ♦4"}),
)
#: the settle answer beyond its deltas and steps: the banks after the hand (a column beside the deltas), and
#: whether the 大局 is over
SETTLE_ANSWER = answer(field("banks", "integers", nullable=True, column=t("分库", "Bank")),
                       field("game_over", "boolean", notice=t("有人的分库见底，这一大局结束。",
                                                              "A bank is empty: this round (大局) is over.")))
#: what its patterns add to a reading: the rank of n of a kind, whether a Q783 is of one suit (正) and, from a
#: hand without suits, that its suits are not known
READING_FIELDS = answer(field("rank", "text", required=False), field("pure", "boolean", required=False),
                        field("suits_known", "boolean", required=False))


class Q783(Game):
    slug = "q783"
    examples = EXAMPLES
    settle_answer, reading_fields = SETTLE_ANSWER, READING_FIELDS
    name = t("Q783", "Q783")
    kind = "shedding"
    summary = summary()
    ruleset = RULESET
    settle_input = SETTLE_INPUT
    bare_ranks = True
    extra_tabs = ("rounds",)

    def never_held(self, field, rules):
        """A hand 手牌 never holds a score card (they are set aside as they are drawn)."""
        return frozenset(c.rank for c in deck(rules).all_cards() if field == "hand" and is_score_card(c, rules))
    seats = (3, 6)
    carried_fields = ("banks",)
    kept_fields = ("teams",)
    deck_of = staticmethod(deck)
    action_table = ACTIONS
    settle_of = staticmethod(settle)
    live_hand = LIVE_HAND

    def quiet_settle(self, values, rules):
        return settle(values, rules, quiet=True)

    def quiet_from(self, payload, rules):
        return settle_from_banks(self.read_settle(payload, rules), rules)

    def quiet_moved(self, data, started, ended, deltas, start, rules):
        return settle_moved(data.get("teams", False), started.get("banks"), ended.get("banks"), deltas, start, rules)

    def table_input(self, seats):
        return {"players": seats}

    def carried(self, result):
        """The banks the next hand starts with; None after a 大局 ended (or without banks)."""
        if result.get("game_over") or result.get("banks") is None:
            return None
        return {"banks": list(result["banks"])}

    def ends_series(self, result):
        return bool(result.get("game_over"))

    def ledger_words(self):
        return {"bank": t("分库", "Bank")}

    def sides(self, data, rules, seats):
        """In teams (4 or 6 players), partners opposite; else everyone for themselves."""
        teams = isinstance(data, dict) and data.get("teams") is True and seats in (4, 6)
        return opposite_teams(seats) if teams else None


GAME = Q783()
