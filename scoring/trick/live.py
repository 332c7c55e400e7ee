"""Following a trick game's hand trick by trick (红五, 二七王): the live-hand protocol
(:class:`~scoring.live.LiveHand`) built from the game's :class:`~scoring.live.LiveCounter`, the declaration of
what its settle input needs from the tricks (the points one side won, the bottom, the last trick, red fives).

A hand starts with the declarer (庄家) and the bid; a round is one trick: who won it, the points in it, and whose red five
fell in it when the game counts them; the finish is how the last trick went and the bottom's points. The game
itself settles the finished hand (``settle_payload`` fills its settle input), so this module only adds up
points and never decides a rule. While the hand is open, the state says the points each side holds, the points
still out, and — as soon as the game's own settlement would come out the same whatever the remaining tricks
bring — that the hand is decided and who has won it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import InvalidInput, MalformedInput, PaijuError
from ..i18n import Text, t
from ..inputs import ChoiceField, IntField, Schema, SeatField, strict_int
from ..live import DECLARER, DEFENDERS, LiveCounter, LiveHand, LiveState
from ..results import Settlement

#: the hand decided, by whether the declarer (庄家) made it
DECIDED = {True: t("已定：不管剩下的墩怎么走，庄家赢这一手", "Decided: whatever the remaining tricks bring, the "
                   "declarer (庄家) wins this hand"),
           False: t("已定：不管剩下的墩怎么走，闲家赢这一手", "Decided: whatever the remaining tricks bring, the "
                    "defenders (闲家) win this hand")}

WORDS = {
    "tab": t("逐墩跟踪", "Follow tricks"),
    "lead": t("开始时选庄家和叫分；之后每一墩点一下谁赢、这一墩有几分，双方的分和还在外面的分马上更新；"
              "一定输赢时会立刻说。最后一墩和底牌分在结束时填。",
              "At the start choose the declarer (庄家) and the bid; then for every trick tap who won it and the "
              "points in it: each side's points and the points still out update at once, and the page says as "
              "soon as the hand is decided. The last trick and the bottom come at the end."),
    "seats": t("座位和名字", "Seats and names"),
    "table_seats": t("座位", "Seats"),
    "round": t("第 {k} 墩：谁赢了？", "Trick {k}: who won it?"),
    "optional_cards": t("", ""),
    "over": t("", ""),
    "finish": t("这一手结束：最后一墩和底牌", "End of the hand: the last trick and the bottom"),
    "finish_button": t("算分并结束这一手", "Settle and end the hand"),
    "next": t("下一手", "Next hand"),
    "record_round": t("记下这一墩", "Record this trick"),
    "undo_round": t("撤销上一墩", "Undo the last trick"),
    "recorded": t("已记的墩", "Tricks recorded"),
}
MESSAGES = {
    "moved_on": t("牌桌在你跟踪这一手时已记下了第{n}局：请核对后再记下。",
                  "The table recorded hand {n} while you followed this one: check it, then record it."),
    "not_over": t("这一手还没结束：先填最后一墩和底牌，再记到牌桌",
                  "This hand is not over yet: give the last trick and the bottom first, then record it"),
}


class TrickFollow(LiveHand):
    """The live-hand protocol of a trick game, from its :class:`LiveCounter` and its settle input (whose 庄家
    and bid fields start the hand) and ``settle`` (the game's settlement of a whole hand, for the finish and
    for knowing when the hand is decided)."""

    words = WORDS
    messages = MESSAGES
    rounds_field = "tricks"

    def __init__(self, counter: LiveCounter, settle_input: Schema, seats: int,
                 settle: Callable[[Mapping[str, Any], Any], Settlement]):
        self.counter, self.seats, self._settle = counter, seats, settle
        declarer, bid = settle_input.field(counter.declarer_field), settle_input.field("bid")
        self.start_input = Schema((IntField("players", t("人数", "players"), required=False, default=seats,
                                            lo=seats, hi=seats), declarer, bid), seats_field="players")
        round_fields = [SeatField("winner", t("这一墩谁赢", "who won this trick")),
                        IntField("points", t("这一墩的分", "points in this trick"), required=False, default=0,
                                 lo=0, hi=lambda ctx: counter.total(ctx.rules), step=5, entry="chips",
                                 chips=(0, 5, 10, 15, 20, 25, 30, 40))]
        if counter.red_fives:
            round_fields.append(SeatField("red_five", t("这一墩里谁的红五被对方抓了（没有就不填）",
                                                         "whose red five the other side took in this trick (if any)"),
                                          required=False))
        self.round_input = Schema(tuple(round_fields))
        self.finish_input = Schema((
            ChoiceField("last", t("最后一墩", "the last trick"), required=False, choices=()),
            IntField("bottom", t("底牌分", "the bottom points"), required=False, default=0, lo=0,
                     hi=lambda ctx: counter.bottom_max(ctx.rules), step=5, entry="chips",
                     chips=(0, 5, 10, 15, 20, 25, 30, 40)),
        ))

    # -- sides ------------------------------------------------------------------------------------------------
    def side_of(self, seat: int, declarer: int, rules) -> str:
        offset = self.counter.partner_offset(rules)
        partner = None if offset is None else (declarer + offset) % self.seats
        return DECLARER if seat in (declarer, partner) else DEFENDERS

    # -- reading a hand ---------------------------------------------------------------------------------------
    def _seat(self, value: Any, field: str, label: Text) -> int:
        seat = strict_int(value)
        if seat is None or not 0 <= seat < self.seats:
            raise MalformedInput(t("「{f}」应为 1 到 {n} 号位", "“{f}” must be a seat from 1 to {n}", f=label, n=self.seats),
                                 field=field, code="invalid_seat")
        return seat

    def _start(self, hand: Mapping[str, Any], rules) -> tuple[int, int]:
        declarer = self._seat(hand.get(self.counter.declarer_field), self.counter.declarer_field, t("庄家", "declarer"))
        bid = strict_int(hand.get("bid"))
        if bid is None:
            raise MalformedInput(t("「叫分」应为整数", "“bid” must be a whole number"), field="bid", code="not_an_integer")
        return declarer, bid

    def _trick(self, rnd: Any, index: int, declarer: int, rules) -> dict:
        path = f"{self.rounds_field}[{index}]"
        if not isinstance(rnd, Mapping):
            raise MalformedInput(t("第{n}墩读不出", "trick {n} cannot be read", n=index + 1), field=path,
                                 code="malformed_round")
        winner = self._seat(rnd.get("winner"), f"{path}.winner", t("这一墩谁赢", "who won this trick"))
        points = strict_int(rnd.get("points")) if rnd.get("points") not in (None, "") else 0
        if points is None or points < 0 or points % 5:
            raise InvalidInput(t("第{n}墩的分应为 0 或 5 的倍数", "trick {n}: points must be 0 or a multiple of 5",
                                 n=index + 1), field=f"{path}.points", code="not_a_multiple")
        trick = {"winner": winner, "points": points}
        five = rnd.get("red_five") if self.counter.red_fives else None
        if five not in (None, ""):
            owner = self._seat(five, f"{path}.red_five", t("红五的主人", "the red five's owner"))
            if self.side_of(owner, declarer, rules) == self.side_of(winner, declarer, rules):
                raise InvalidInput(t("第{n}墩：红五只能被对方抓", "trick {n}: a red five is taken only by the other side",
                                     n=index + 1), field=f"{path}.red_five", code="same_side")
            trick["red_five"] = owner
        return trick

    def _points(self, tricks: list[dict], declarer: int, rules) -> dict[str, int]:
        won = {DECLARER: 0, DEFENDERS: 0}
        for trick in tricks:
            won[self.side_of(trick["winner"], declarer, rules)] += trick["points"]
        return won

    def _check_total(self, won: dict[str, int], rules, field: str) -> None:
        total = self.counter.total(rules)
        if sum(won.values()) > total:
            raise InvalidInput(t("各墩合计 {n} 分，超过了全副牌的 {total} 分：请撤销多记的一墩",
                                 "the tricks add up to {n} points, more than the {total} in the pack: undo the "
                                 "trick recorded by mistake", n=sum(won.values()), total=total),
                               field=field, code="too_many_points")

    def _last_trick(self, value: Any, rules):
        outcomes = {lt.value: lt for lt in self.counter.last_tricks(rules)}
        if value in (None, ""):
            return None
        if value not in outcomes:
            raise MalformedInput(t("「最后一墩」不能是「{v}」", "“the last trick” cannot be “{v}”", v=str(value)[:30]),
                                 field="last", code="invalid_choice")
        return outcomes[value]

    # -- the protocol -----------------------------------------------------------------------------------------
    def restore(self, hand: Mapping[str, Any], rules) -> LiveState:
        declarer, bid = self._start(hand, rules)
        tricks = [self._trick(r, i, declarer, rules) for i, r in enumerate(hand.get(self.rounds_field) or [])]
        won = self._points(tricks, declarer, rules)
        self._check_total(won, rules, f"{self.rounds_field}[{max(len(tricks) - 1, 0)}].points")
        start = {"players": self.seats, self.counter.declarer_field: declarer, "bid": bid}
        finish = self._finish_of(hand, rules)
        payload = self._payload(start, tricks, finish, rules)
        if finish is not None:
            answer = self._settle(payload, rules)
            return LiveState(start, tuple(tricks), finish, answer.deltas, None, True, False, answer.steps)
        return LiveState(start, tuple(tricks), None, (0,) * self.seats, None, False, False,
                         tuple(self._open_steps(start, tricks, won, rules)))

    def add(self, hand: Mapping[str, Any], rnd: Mapping[str, Any], rules) -> LiveState:
        if self.is_finished(hand):
            raise InvalidInput(t("这一手已经结束：要改就先撤销", "this hand is over: undo first to change it"),
                               field=self.rounds_field, code="hand_closed")
        return self.restore({**hand, self.rounds_field: [*(hand.get(self.rounds_field) or []), dict(rnd)]}, rules)

    def _finish_of(self, hand: Mapping[str, Any], rules) -> dict | None:
        if not self.is_finished(hand):
            return None
        last = self._last_trick(hand.get("last"), rules)
        bottom = strict_int(hand.get("bottom")) if hand.get("bottom") not in (None, "") else 0
        if bottom is None or bottom < 0 or bottom % 5 or bottom > self.counter.bottom_max(rules):
            raise InvalidInput(t("「底牌分」应为 0 到 {m} 之间 5 的倍数", "“the bottom points” must be a multiple of 5 "
                                 "from 0 to {m}", m=self.counter.bottom_max(rules)), field="bottom",
                               code="out_of_range")
        return {"last": None if last is None else last.value, "bottom": bottom}

    def is_finished(self, hand: Mapping[str, Any]) -> bool:
        return hand.get("last") not in (None, "") or hand.get("bottom") not in (None, "")

    def _payload(self, start: Mapping, tricks: list[dict], finish: Mapping | None, rules) -> dict:
        c, declarer = self.counter, start[self.counter.declarer_field]
        won = self._points(tricks, declarer, rules)
        payload = {c.declarer_field: declarer, "bid": start["bid"], c.points_field: won[c.counted_side]}
        bottom_field = c.bottom_field(rules)
        if bottom_field is not None and finish is not None:
            payload[bottom_field] = finish["bottom"]
            last = self._last_trick(finish["last"], rules)
            if last is not None:
                payload.update(last.fills)
        if c.red_fives:
            payload[c.red_fives] = [{"owner": tr["red_five"], "captured_by": tr["winner"]}
                                    for tr in tricks if "red_five" in tr]
        return payload

    def settle_payload(self, state: LiveState, rules=None) -> dict:
        return self._payload(state.start, list(state.rounds), state.finish, rules)

    def round_words(self, rnd: Mapping) -> Text:
        five = t("，抓到红五", ", a red five taken") if rnd.get("red_five") is not None else t("", "")
        return t("{p}分{f}", "{p} points{f}", p=rnd.get("points", 0), f=five)

    def choices(self, name: str, rules) -> tuple[tuple[str, Text], ...]:
        if name == "last":
            return tuple((lt.value, lt.label) for lt in self.counter.last_tricks(rules))
        return ()

    # -- while the hand is open: the points still out, and whether it is decided -----------------------------
    def _open_steps(self, start: Mapping, tricks: list[dict], won: dict[str, int], rules) -> list[Text]:
        out = self.counter.total(rules) - won[DECLARER] - won[DEFENDERS]
        steps = [t("庄家一方 {d} 分，闲家 {f} 分，还有 {o} 分在外", "The declarer's side (庄家) {d} points, the "
                   "defenders (闲家) {f}, {o} still out", d=won[DECLARER], f=won[DEFENDERS], o=out)]
        decided = self._decided(start, tricks, rules)
        if decided is not None:
            steps.append(decided)
        return steps

    def _decided(self, start: Mapping, tricks: list[dict], rules) -> Text | None:
        """The winner when the game's settlement says the same at both extremes of what is still out (every
        remaining point, the whole bottom and the best last trick to one side, or to the other); else None."""
        outcomes = set()
        for side in (DECLARER, DEFENDERS):
            outcome = self._extreme(start, tricks, side, rules)
            if outcome is None:
                return None
            outcomes.add(outcome)
        if len(outcomes) != 1:
            return None
        return DECIDED[outcomes.pop()]

    def _fives_left(self, tricks: list[dict], declarer: int, taker: int, rules) -> list[dict]:
        """The red fives not yet taken, all taken by ``taker``'s side from the other (worth 0 points as tricks:
        their swing is the settlement's own)."""
        if not self.counter.red_fives:
            return []
        left = self.counter.red_five_max(rules) - sum(1 for tr in tricks if "red_five" in tr)
        owner = next(s for s in range(self.seats)
                     if self.side_of(s, declarer, rules) != self.side_of(taker, declarer, rules))
        return [{"winner": taker, "points": 0, "red_five": owner} for _ in range(max(left, 0))]

    def _extreme(self, start: Mapping, tricks: list[dict], side: str, rules) -> bool | None:
        declarer = start[self.counter.declarer_field]
        won = self._points(tricks, declarer, rules)
        out = self.counter.total(rules) - won[DECLARER] - won[DEFENDERS]
        seat = next(s for s in range(self.seats) if self.side_of(s, declarer, rules) == side)
        lasts = [lt for lt in self.counter.last_tricks(rules) if lt.won_by in (side, "either")]
        last = max(lasts, key=lambda lt: lt.times, default=None)
        # the points still out are in the remaining tricks and the bottom: the bottom as big as it can be
        bottom = min(self.counter.bottom_max(rules), out) if last is not None and last.times else 0
        rest = [*tricks, {"winner": seat, "points": out - bottom}] if out - bottom else list(tricks)
        rest += self._fives_left(tricks, declarer, seat, rules)
        finish = {"last": None if last is None else last.value, "bottom": bottom}
        try:
            return bool(self._settle(self._payload(start, rest, finish, rules), rules).extra.get("made"))
        except PaijuError:
            return None
