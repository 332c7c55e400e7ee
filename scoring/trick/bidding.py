"""Bidding (叫分): the turn loop both trick games share; each game says what a legal bid is."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from ..answers import AnswerField as Answered
from ..answers import answer
from ..i18n import Text, seat_name, shown, t
from ..results import ABSENT, Result
from ..inputs import Context, ListField, Schema, WholeNumberField, as_int, int_json_schema, words_pattern

SEATS = 4
PASS_WORDS = {"pass", "p", "过", "不叫", "放弃", "-", "0"}


def read_bid(value, field: str) -> int | None:
    """A bid (int) or a pass (None)."""
    if value is None or value is False:
        return None
    if isinstance(value, str) and value.strip().lower() in PASS_WORDS:
        return None
    return as_int(value, field)


@dataclass(frozen=True)
class Bidding(Result):
    """``bidding``: whether the bids are legal, whether the bidding is over, the 庄家 and bid, who bids next, the
    first illegal entry (left out when there is none), why, and the steps."""

    legal: bool
    complete: bool
    declarer: int | None
    bid: int | None
    next: int | None
    illegal_index: int = ABSENT
    reason: Text = ""
    steps: list = field(default_factory=list)


@dataclass(frozen=True)
class BidRules:
    """How one game bids: ``judge(bid, current, who)`` returns the complaint or None."""

    judge: Callable[[int, int | None, Text], Text | None]
    pass_complaint: Callable[[int | None, Text], Text | None]
    instant: int  # a bid that ends the bidding at once
    nobody: tuple[int, Text] | None = None  # (bid, why) when all four pass


@dataclass
class _Auction:
    """The bidding so far: whose turn, the best bid, who passed (a pass is final), and the end."""

    how: BidRules
    start: int
    seat: int
    best: int | None = None
    best_seat: int | None = None
    passed: set[int] = field(default_factory=set)
    steps: list[Text] = field(default_factory=list)
    result: Text | None = None  # why the bidding is over, once it is

    def enter(self, bid: int | None) -> Text | None:
        """The seat to move passes (None) or bids; returns the complaint if that is illegal."""
        who = seat_name(self.seat)
        if bid is None:
            complaint = self.how.pass_complaint(self.best, who)
            if complaint is None:
                self.passed.add(self.seat)
                self.steps.append(t("{who}：不叫（本局不能再叫）", "{who}: pass (out for this hand)", who=who))
            return complaint
        complaint = t("{who}叫{v}：叫分须为5的倍数", "{who} bid {v}: bids are multiples of 5", who=who, v=bid) \
            if bid % 5 else self.how.judge(bid, self.best, who)
        if complaint is None:
            self.best, self.best_seat = bid, self.seat
            self.steps.append(t("{who}：叫{v}", "{who}: bids {v}", who=who, v=bid))
            if bid == self.how.instant:
                self.result = t("{who}叫{v}，立即成为庄家", "{who} bid {v} and is the declarer (庄家) at once", who=who, v=bid)
        return complaint

    def check_over(self) -> None:
        """After a turn: three passed behind a bid, or all four passed (when the game allows it)."""
        if self.result is not None:
            return
        if self.best is not None and len(self.passed) == SEATS - 1 and self.best_seat not in self.passed:
            self.result = t("其他三家都已不叫，{who}以{v}分成为庄家", "the other three have passed: {who} is the declarer (庄家) at "
                            "{v}", who=seat_name(self.best_seat), v=self.best)
        elif len(self.passed) == SEATS and self.how.nobody is not None:
            self.best, self.best_seat = self.how.nobody[0], self.start
            self.result = t("没有人叫分：第一个叫分的{who}以{v}分成为庄家（{why}）",
                            "nobody bid: the first bidder {who} is the declarer (庄家) at {v} ({why})",
                            who=seat_name(self.start), v=self.best, why=self.how.nobody[1])

    def next_seat(self) -> None:
        """The turn passes to the next seat that has not passed."""
        for k in range(1, SEATS + 1):
            if (self.seat + k) % SEATS not in self.passed:
                self.seat = (self.seat + k) % SEATS
                return

    def outcome(self) -> Bidding:
        if self.result is not None:
            return Bidding(True, True, self.best_seat, self.best, None, reason=self.result, steps=self.steps)
        return Bidding(True, False, None, self.best, self.seat, steps=self.steps,
                       reason=t("叫分尚未结束，下一个叫分的是{who}", "bidding is not over: {who} bids next",
                                who=seat_name(self.seat)))


def run_bidding(bids: Sequence, start: int, how: BidRules) -> Bidding:
    """Bids and passes in turn from ``start`` (a pass is final) → 庄家 and bid, or the first illegal entry."""
    auction = _Auction(how, start, start)
    for i, raw in enumerate(bids):
        bid = read_bid(raw, f"bids[{i}]")
        if auction.result is not None:
            return _bad_bid(i, t("叫分已经结束（{why}），第{i}项「{v}」多余", "bidding was already over ({why}); "
                                 "entry {i} “{v}” is one too many", why=auction.result, i=i + 1, v=shown(raw)),
                            auction.steps)
        complaint = auction.enter(bid)
        if complaint is not None:
            return _bad_bid(i, complaint, auction.steps)
        auction.check_over()
        auction.next_seat()
    return auction.outcome()


def _bad_bid(i: int, why: Text, steps: list[Text]) -> Bidding:
    return Bidding(False, False, None, None, None, i, t("第{i}项叫分不合规：{why}", "entry {i} is illegal: {why}",
                                                        i=i + 1, why=why), steps)


#: what the ``bidding`` action answers: ``illegal_index`` only for an illegal entry
BIDDING_ANSWER = answer(Answered("legal", "boolean"), Answered("complete", "boolean"),
                        Answered("declarer", "integer", nullable=True), Answered("bid", "integer", nullable=True),
                        Answered("next", "integer", nullable=True), Answered("illegal_index", "integer", required=False),
                        Answered("reason", "text"), Answered("steps", "texts"))
#: what the ``bidding`` action reads: ``{"bids": [60, "pass", …], "start": seat}`` (each bid read in turn)
BIDDING_INPUT = Schema((
    ListField("bids", t("依次的叫分（不叫写 pass 或 不叫），用空格分开",
                        "The bids in order (write pass or 不叫 for a pass), separated by spaces"),
              items=(int_json_schema(None, None), {"type": "null"}, {"const": False},
                     {"type": "string", "pattern": words_pattern(PASS_WORDS)})),
    WholeNumberField("start", t("谁先叫", "Who bids first"), required=False, default=0, lo=0,
                     hi=SEATS - 1, entry="seat"),
), first_problem_only=True, form_order=("start", "bids"))


def bidding_action(how_for: Callable[[object], BidRules]):
    """The ``bidding`` API action."""

    def bidding(payload: Mapping, rules) -> Bidding:
        values = BIDDING_INPUT.read(payload, Context(seats=SEATS))
        return run_bidding(values.bids, values.start, how_for(rules))

    return bidding
