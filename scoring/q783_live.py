"""The live-hand protocol Q783 declares (:class:`~scoring.live.LiveHand`): its start, round and finish inputs,
the live page's words, and :class:`Q783Rounds`, which follows a hand with the round machine of
``scoring/q783_rounds.py`` bound to Q783's cards (a :class:`~scoring.q783_rounds.Pack`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .i18n import Text, t
from .inputs import CardsField, ChoiceField, IntField, PerSeatField, Schema, SeatField, SeatOrderField, SwitchField
from .live import LiveHand, LiveState
from .q783_rounds import BANK_STEP, WON_WITH, Pack, Scoring, apply_round, replay, seat_start_banks, won_with_allowed

# ==========================================================================
# Declared inputs and the live-hand protocol
# ==========================================================================

START_FIELDS = (
    IntField("players", t("人数", "players"), required=False, default=4, lo=3, hi=6, entry="chips"),
    SwitchField("teams", t("组队（对家一队，共用分库）", "teams (partners opposite share a bank)")),
    PerSeatField("banks", t("分库", "banks"), required=False, entry="per_seat", short=t("分库", "bank"),
                 item=IntField("banks", t("分库", "bank"), lo=-100000, hi=100000, step=BANK_STEP)),
)
ROUND_FIELDS = (
    SeatField("winner", t("赢家", "winner")),
    ChoiceField("won_with", t("赢的是", "won with"), required=False,
                choices=tuple((k, words) for k, (words, _) in WON_WITH.items()),
                common=("plain", "fu_q783", "zheng_q783"),
                shown_when=lambda rules: rules.scoring is Scoring.PATTERN),
    CardsField("cards", t("赢的牌", "winning play"), required=False),
    IntField("count", t("张数", "card count"), required=False, lo=1, hi=80,  # two decks' play cards
             shown_when=lambda rules: rules.scoring is Scoring.CARDS),
)
FINISH_FIELDS = (
    SeatOrderField("finish_order", t("出完的顺序", "the finishing order"), required=False, default=(), min_len=0,
                   entry="tap_order", place_label=t("第{n}个走的", "place {n}")),
)

#: a round's fields as the live page asks for them
_PAGE_LABELS = {
    "winner": t("这一圈谁赢", "Who won this round"),
    "cards": t("赢的那手牌", "Winning play"),
    "count": t("这一圈赢家共出几张（赢家出过不止一手时填）",
               "Cards the winner played in this round (when more than one play)"),
}

PAGE_WORDS = {
    "tab": t("记圈", "Rounds"),
    "lead": t("一手牌开始时填好人数和各家的分库；之后每一圈点一下谁赢、填赢的那手牌，分库马上更新。",
              "At the start of a hand enter the players and their banks; then for every round tap who won it and "
              "enter the winning play: the banks update at once."),
    "seats": t("座位、名字和分库（不填分库则不封顶）", "Seats, names and banks (no banks: payments are not capped)"),
    "table_seats": t("各家的分库（不填分库则不封顶）", "Each player's bank (leave empty for no limit)"),
    "round": t("第 {k} 圈：谁赢了？", "Round {k}: who won it?"),
    "optional_cards": t("赢的那手牌（可不填，选了“赢的是”就够）", "The winning play (optional once “won with” is chosen)"),
    "over": t("有人的分库见底，这一大局结束。", "A bank is empty: this round (大局) is over."),
    "finish": t("这一手结束：出完的顺序", "End of the hand: finishing order"),
    "finish_button": t("罚分并结束这一手", "Apply the penalty and end the hand"),
    "next": t("下一手（带着现在的分库）", "Next hand (keep the banks)"),
}

#: what the live page says in this game's words when a hand cannot be recorded as followed
MESSAGES = {
    "moved_on": t("牌桌在你跟踪这一手时已记下了第{n}局：这一手改从牌桌现在的分库算起，请核对后再记下。",
                  "the table recorded hand {n} while you followed this one: this hand now starts from the "
                  "table's banks as they are; check it, then record it"),
    "not_over": t("这一手还没结束：先填出完的顺序，再记到牌桌",
                  "this hand is not over yet: give the finishing order first, then record it"),
}


class Q783Rounds(LiveHand):
    """Q783's hand followed round by round: a round is who won it and what won it (cards, a count, or the
    kind of play); the finish is the finishing order; the hand fills Q783's whole settle input."""

    start_input = Schema(START_FIELDS, seats_field="players")
    round_input = Schema(tuple(replace(f, label=_PAGE_LABELS.get(f.name, f.label)) for f in ROUND_FIELDS))
    finish_input = Schema(FINISH_FIELDS)
    words = PAGE_WORDS
    messages = MESSAGES

    def __init__(self, pack: Pack):
        self.pack = pack

    def _replayed(self, hand: Mapping, rules) -> tuple[dict, list[Text]]:
        return replay(self.pack, hand["players"], hand["teams"], hand.get("banks"), hand.get("rounds", []), rules,
                      hand.get("finish_order"))

    def restore(self, hand: Mapping, rules) -> LiveState:
        state, steps = self._replayed(hand, rules)
        return LiveState(
            start={"players": state["players"], "teams": state["teams"], "banks": seat_start_banks(state)},
            rounds=tuple(state["rounds"]),
            finish={"finish_order": list(state["finish_order"])} if state["finished"] else None,
            deltas=tuple(state["deltas"]), banks=None if state["banks"] is None else tuple(state["banks"]),
            finished=state["finished"], over=state["game_over"], steps=tuple(steps))

    def add(self, hand: Mapping, rnd: Mapping, rules) -> LiveState:
        state, _ = self._replayed(hand, rules)
        state, _ = apply_round(self.pack, state, rnd, rules)
        return self.restore({**hand, "rounds": state["rounds"]}, rules)

    def next_start(self, state: LiveState) -> dict:
        return dict(state.start, banks=None if state.banks is None else list(state.banks))

    def settle_payload(self, state: LiveState, rules=None) -> dict:
        hand = {"players": state.players, "teams": state.start["teams"], "rounds": list(state.rounds),
                "finish_order": list(state.finish["finish_order"]) if state.finish else []}
        if state.start["banks"] is not None:
            hand["banks"] = list(state.start["banks"])
        return hand

    def round_words(self, rnd: Mapping) -> Text:
        if rnd.get("cards"):
            return t("{c}", "{c}", c=rnd["cards"])
        if rnd.get("won_with") in WON_WITH:
            return WON_WITH[rnd["won_with"]][0]
        return t("{n}张", "{n} cards", n=rnd.get("count"))

    def choices(self, name: str, rules) -> tuple[tuple[str, Text], ...]:
        """What can win a round under these rules (``won_with``, under ``scoring: pattern`` only)."""
        if name != "won_with" or rules.scoring is not Scoring.PATTERN:
            return ()
        return tuple((key, words) for key, (words, _) in WON_WITH.items() if won_with_allowed(key, rules))
