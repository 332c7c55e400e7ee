"""Q783's rounds 圈 and banks (``rules/q783.md``): the machine that settle and Q783's live-hand protocol
(``scoring/q783_live.py``) both follow.

Every round is paid at once by the other (opposing) players out of their banks; the hand 小局 ends with a
penalty; a bank that reaches 0 ends the 大局. The machine is a set of functions over a JSON-ready ``state``
dict (``new_hand``, ``apply_round``, ``finish_hand``, ``undo_round``, ``replay``); ``settle`` and the live page
replay the same functions, so they agree. ``pack`` (:class:`Pack`) is what the rounds need of Q783's cards,
given by ``scoring/q783.py``, so this module imports none of Q783's pattern code;
:class:`~scoring.q783_live.Q783Rounds` binds a pack and implements :class:`~scoring.live.LiveHand`.

State keys: ``players`` int, ``teams`` bool, ``sides`` [[seat, …], …] (one side per seat in solo play, the two
teams in team play), ``start_banks`` / ``side_banks`` [int per side] or None (no banks given: nothing is
capped), ``side_changes`` [int per side] (this hand so far), ``rounds`` [canonical round dicts],
``finish_order`` [seat] or None, ``finished`` bool (the hand is settled), ``game_over`` bool (a bank reached 0:
the 大局 is over), and the per-seat views ``banks`` [int per seat, teammates showing their shared bank] or
None and ``deltas`` [int per seat].
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Deck, parse_cards
from .errors import InvalidInput, MalformedInput
from .i18n import Text, join, seat_name, seats_name, t, unknown_seat
from .inputs import as_int, not_a_multiple, shown
from .rules import Choice
from .shedding import Reading

BANK_STEP = 5  # every score card and every payment is a multiple of 5, so every bank is too


class Scoring(Choice):
    PATTERN = "pattern"  # by the winning pattern
    CARDS = "cards"      # 5 × the cards the winner played


class Winner(Choice):
    FIRST_OUT = "first_out"  # the side of the first out wins the hand
    POINTS = "points"        # the side that gained most in the hand's rounds


@dataclass(frozen=True)
class Pack:
    """What the rounds need of Q783's cards under given house rules."""

    score_total: Callable[[Any], int]       # the points of all the pack's score cards
    play_card_total: Callable[[Any], int]   # how many cards of the pack are ever played
    deck: Callable[[Any], Deck]
    #: (cards text, rules, field, whether a Q783 must say its suits) -> (canonical cards, reading); refuses a
    #: play that is not one pattern
    winning_play: Callable[[Any, Any, str, bool], tuple[str, Reading]]
    payout: Callable[[Reading], int]        # what each other player pays for a round won with this reading


def _side_name(state: Mapping, side: int) -> Text:
    seats = state["sides"][side]
    if len(seats) == 1:
        return seat_name(seats[0])
    return t("{s}一方", "the team of {s}", s=seats_name(seats))


def _side_of(state: Mapping, seat: int) -> int:
    return seat % 2 if state["teams"] else seat


def _sign(n: int) -> str:
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")


def _split(change: int, size: int) -> list[int]:
    """A team's change shared by its seats; the lowest seat takes the remainder."""
    share = abs(change) // size * (1 if change >= 0 else -1)
    return [change - share * (size - 1)] + [share] * (size - 1)


def _views(state: dict) -> dict:
    if not state["teams"]:  # a side per seat, in seat order
        state["deltas"] = list(state["side_changes"])
        state["banks"] = None if state["side_banks"] is None else list(state["side_banks"])
        return state
    deltas = [0] * state["players"]
    banks = None if state["side_banks"] is None else [0] * state["players"]
    for side, seats in enumerate(state["sides"]):
        for seat, part in zip(seats, _split(state["side_changes"][side], len(seats))):
            deltas[seat] = part
            if banks is not None:
                banks[seat] = state["side_banks"][side]
    state["deltas"] = deltas
    state["banks"] = banks
    return state


def _copy(state: Mapping) -> dict:
    out = dict(state)
    for key in ("side_banks", "start_banks", "side_changes", "rounds", "finish_order"):
        if out.get(key) is not None:
            out[key] = list(out[key])
    return out


def _check_bank(seat: int, bank: int, rules) -> None:
    """One seat's bank: in 5s, and not negative unless the rules allow it."""
    if bank % BANK_STEP:
        raise InvalidInput(not_a_multiple(t("{s}的分库", "{s}'s bank", s=seat_name(seat)), bank, BANK_STEP),
                           field=f"banks[{seat}]", code="not_multiple_of_5")
    if bank == 0 and not rules.negative_banks:  # (reading) a hand cannot start where a 大局 has ended
        raise InvalidInput(
            t("{seat}的分库是0：这一大局已经结束；下一大局请重新填各家的分库",
              "{seat}'s bank is 0: that round (大局) is already over; start the next one with new banks",
              seat=seat_name(seat)), field=f"banks[{seat}]", code="game_over")
    if bank < 0 and not rules.negative_banks:
        raise InvalidInput(
            t("{seat}的分为{b}：分不能为负（除非开启「允许负分」）",
              "{seat}'s bank is {b}: banks cannot be negative (unless “negative banks” is on)",
              seat=seat_name(seat), b=bank), field=f"banks[{seat}]", code="negative_bank")


def new_hand(pack: Pack, players: int, teams: bool, banks: Sequence[int] | None, rules) -> dict:
    """Validate the table and start a hand. ``banks`` per seat (teammates equal) or None."""
    players = as_int(players, "players")
    if not 3 <= players <= 6:
        raise InvalidInput(t("Q783 是3到6人玩，收到{n}人", "Q783 is played by 3 to 6 players, got {n}",
                             n=players), field="players", code="out_of_range")
    if teams and players not in (4, 6):
        raise InvalidInput(t("分阵营需要4人或6人（对家一队），收到{n}人",
                             "team play needs 4 or 6 players (partners sit opposite), got {n}", n=players),
                           field="teams", code="teams_need_4_or_6")
    sides = ([list(range(0, players, 2)), list(range(1, players, 2))] if teams
             else [[s] for s in range(players)])
    side_banks = None
    if banks is not None:
        if not isinstance(banks, (list, tuple)):
            raise MalformedInput(t("「banks」应为每个座位一个整数的列表", "“banks” must be a list of one "
                                   "whole number per seat"), field="banks", code="not_a_list")
        banks = [as_int(b, f"banks[{i}]") for i, b in enumerate(banks)]
        if len(banks) != players:
            raise InvalidInput(t("「banks」有{k}个数，应为每个座位一个（{n}个）",
                                 "“banks” has {k} numbers; give one per seat ({n})", k=len(banks), n=players),
                               field="banks", code="wrong_length")
        for i, b in enumerate(banks):
            _check_bank(i, b, rules)
        side_banks = []
        for seats in sides:
            values = {banks[s] for s in seats}
            if len(values) > 1:
                raise InvalidInput(
                    t("{team}共用一份分，各座位应填同一个数（全队的分），收到{v}；第一小局请把队友抓到的分加起来",
                      "{team} share one bank, so each of its seats shows the same number (the team's bank), "
                      "got {v}; for the first hand add up the teammates' score cards",
                      team=seats_name(seats), v=", ".join(str(banks[s]) for s in seats)),
                    field="banks", code="team_banks_differ")
            side_banks.append(banks[seats[0]])
        total = pack.score_total(rules)
        if sum(side_banks) > total:
            raise InvalidInput(
                t("各家的分合计{s}，超过了这副牌分牌的总数{total}",
                  "the banks add up to {s}, more than all the score cards of the pack ({total})",
                  s=sum(side_banks), total=total), field="banks", code="banks_above_total")
    state = {
        "players": players, "teams": bool(teams), "sides": sides,
        "start_banks": None if side_banks is None else list(side_banks),
        "side_banks": side_banks, "side_changes": [0] * len(sides),
        "rounds": [], "finish_order": None, "finished": False, "game_over": False,
    }
    return _views(state)


def _pay(state: dict, payers: Sequence[int], payee: int, amount: int, rules, steps: list | None) -> None:
    """Each payer seat pays ``amount`` to side ``payee``, capped by its bank; then check game over. ``steps``:
    where the payments are explained, or None (a quiet settle)."""
    capped = state["side_banks"] is not None and not rules.negative_banks
    for seat in payers:
        side = _side_of(state, seat)
        paid = amount
        if capped:
            paid = max(0, min(amount, state["side_banks"][side]))
        state["side_changes"][side] -= paid
        state["side_changes"][payee] += paid
        if state["side_banks"] is not None:
            state["side_banks"][side] -= paid
            state["side_banks"][payee] += paid
        if steps is not None:
            steps.append(_payment(state, seat, side, payee, amount, paid))
    if capped:
        empty = [side for side, bank in enumerate(state["side_banks"]) if bank <= 0]
        if empty:
            state["game_over"] = True
            if steps is not None:
                steps.append(t("分输光了：{who}；这一大局结束", "bank empty: {who}; this 大局 is over",
                               who=join([_side_name(state, s) for s in empty], "、", " and ")))


def _payment(state: Mapping, seat: int, side: int, payee: int, amount: int, paid: int) -> Text:
    """The step of one payment (made already: a bank shows what is left after it)."""
    who = seat_name(seat)
    if state["teams"]:
        who = t("{seat}（{team}）", "{seat} ({team})", seat=who, team=_side_name(state, side))
    to = _side_name(state, payee)
    if state["side_banks"] is None:
        return t("{who}付{paid}给{to}", "{who} pays {paid} to {to}", who=who, paid=paid, to=to)
    if paid < amount:
        return t("{who}应付{due}，只剩{paid}：付{paid}给{to}，余0",
                 "{who} owes {due} but has only {paid} left: pays {paid} to {to}, 0 left",
                 who=who, due=amount, paid=paid, to=to)
    return t("{who}付{paid}给{to}，余{left}", "{who} pays {paid} to {to}, {left} left",
             who=who, paid=paid, to=to, left=state["side_banks"][side])


def _payers(state: Mapping, winner_side: int) -> list[int]:
    return [s for s in range(state["players"]) if _side_of(state, s) != winner_side]


def _check_open(state: Mapping, field: str) -> None:
    if state["finished"]:
        raise InvalidInput(t("这一小局已经结算，不能再加圈", "this hand is already settled; no more rounds"),
                           field=field, code="hand_finished")
    if state["game_over"]:
        raise InvalidInput(t("已有一方的分输光，这一大局已结束，之后不能再有圈或罚分",
                             "a bank is already empty: the 大局 is over, so no later rounds or penalty",
                             ), field=field, code="game_over")


def _seat(value: Any, players: int, field: str) -> int:
    seat = as_int(value, field)
    if not 0 <= seat < players:
        raise InvalidInput(unknown_seat(seat, players), field=field, code="unknown_seat")
    return seat


#: "what won the round" without its cards (``scoring: pattern``): value → (words, payout per other player)
WON_WITH = {
    "plain": (t("普通牌", "a plain play"), 5),
    "fu_q783": (t("副Q783", "副Q783"), 20),
    "zheng_q783": (t("正Q783", "正Q783"), 40),
    **{f"bomb{n}": (t("{n}张炸弹", "{n}-bomb", n=n), 10 * n) for n in range(3, 9)},
    "fu_double_q783": (t("副双Q783", "副双Q783"), 40),
    "zheng_double_q783": (t("正双Q783", "正双Q783"), 80),
}


def won_with_allowed(key: str, rules) -> bool:
    """Whether these rules have such a winning play at all."""
    if key == "bomb3":
        return bool(rules.three_bombs)
    if key.startswith("bomb"):
        return int(key[4:]) <= 4 * rules.decks
    if "double" in key:
        return bool(rules.double_q783)
    return True


def _round_winner(rnd: Mapping, players: int, field: str) -> int:
    if rnd.get("winner") is None:
        raise MalformedInput(t("「{f}.winner」缺少：谁赢了这一圈", "“{f}.winner” is missing: who won the round",
                               f=field), field=f"{field}.winner", code="missing_field")
    return _seat(rnd["winner"], players, f"{field}.winner")


def _round_count(pack: Pack, rnd: Mapping, pattern: Reading | None, rules, field: str) -> int | None:
    if rnd.get("count") is None:
        return None
    nfield = f"{field}.count"
    top = pack.play_card_total(rules)
    count = as_int(rnd["count"], nfield)
    if not 1 <= count <= top:
        raise InvalidInput(t("「{f}」为{v}，应在1到{top}之间（这副牌的出牌张数）",
                             "“{f}” is {v}; it must be from 1 to {top} (the pack's play cards)",
                             f=nfield, v=count, top=top), field=nfield, code="out_of_range")
    if pattern is not None and count < pattern.size:
        raise InvalidInput(t("「{f}」为{v}，少于赢牌本身的{k}张", "“{f}” is {v}, fewer than the {k} cards "
                             "of the winning play", f=nfield, v=count, k=pattern.size), field=nfield,
                           code="out_of_range")
    return count


def _round_won_with(rnd: Mapping, rules, field: str) -> str | None:
    key = rnd.get("won_with")
    if key is None:
        return None
    wfield = f"{field}.won_with"
    if not isinstance(key, str) or key not in WON_WITH:
        raise MalformedInput(t("「{f}」不能是「{v}」，可选：{valid}", "“{f}” cannot be “{v}”; allowed: {valid}",
                               f=wfield, v=shown(key), valid=" / ".join(WON_WITH)), field=wfield,
                             code="invalid_choice")
    if not won_with_allowed(key, rules):
        raise InvalidInput(t("按这些规则没有{w}", "these rules have no {w}", w=WON_WITH[key][0]), field=wfield,
                           code="not_in_these_rules")
    return key


def _pattern_payout(pack: Pack, pattern: Reading | None, won_with: str | None, canonical: dict,
                    field: str) -> tuple[int, Text]:
    """``scoring: pattern``: the payout from the winning play's cards, or from what won it."""
    if pattern is None and won_with is None:
        # 422: a rule of these house rules (scoring: pattern), which the schema cannot state
        raise InvalidInput(t("按牌型计分时每圈要给出赢的那手牌「{f}.cards」或它是什么牌「{f}.won_with」",
                             "when rounds are paid by the winning pattern, each round needs its winning play "
                             "“{f}.cards” or what it was “{f}.won_with”", f=field), field=f"{field}.cards", code="missing_field")
    if pattern is None:
        words, amount = WON_WITH[won_with]
        return amount, words
    amount = pack.payout(pattern)
    if won_with is not None and WON_WITH[won_with][1] != amount:
        raise InvalidInput(t("「{f}」：赢的牌{c}是{k}，却选了{w}；请改成一致（或只填一项）",
                             "“{f}”: the winning play {c} is {k} but the round says {w}; make them agree (or give "
                             "only one)", f=field, c=canonical["cards"], k=pattern.label, w=WON_WITH[won_with][0]),
                           field=f"{field}.won_with", code="cards_won_with_disagree")
    return amount, t("{cards}（{label}）", "{cards} ({label})", cards=canonical["cards"], label=pattern.label)


def read_round(pack: Pack, rnd: Any, players: int, rules, field: str) -> tuple[dict, int, Text]:
    """Validate one round; return (canonical round, payout per player, description)."""
    if not isinstance(rnd, Mapping):
        raise MalformedInput(t("「{f}」应为对象 {{\"winner\", \"cards\"}} 或 {{\"winner\", \"count\"}}",
                               "“{f}” must be an object {{\"winner\", \"cards\"}} or {{\"winner\", \"count\"}}",
                               f=field), field=field, code="malformed_round")
    canonical: dict = {"winner": _round_winner(rnd, players, field)}
    pattern = None
    if rnd.get("cards") is not None:
        cfield = f"{field}.cards"
        canonical["cards"], pattern = pack.winning_play(rnd["cards"], rules, cfield,
                                                        rules.scoring is Scoring.PATTERN)
    count = _round_count(pack, rnd, pattern, rules, field)
    won_with = _round_won_with(rnd, rules, field)
    for key, value in (("count", count), ("won_with", won_with)):
        if value is not None:
            canonical[key] = value
    if rules.scoring is Scoring.PATTERN:
        if count is not None and (pattern is not None or won_with is not None):
            raise InvalidInput(t("按牌型计分只看赢的那手牌：「{f}.count」只在按出牌张数计分时用，请去掉",
                                 "when rounds are paid by the winning pattern only the winning play counts: "
                                 "“{f}.count” is used only when they are paid by the cards played; leave it out",
                                 f=field),
                               field=f"{field}.count", code="count_not_used")
        amount, how = _pattern_payout(pack, pattern, won_with, canonical, field)
        return canonical, amount, how
    if count is None and pattern is None:
        raise MalformedInput(t("每圈要给出赢的那手牌「{f}.cards」或赢家本圈出牌张数「{f}.count」",
                               "each round needs the winning play “{f}.cards” or the number of cards "
                               "the winner played “{f}.count”", f=field), field=f"{field}.cards", code="missing_field")
    n = count if count is not None else pattern.size
    return canonical, 5 * n, t("本圈共出{n}张（5 × {n}）", "{n} cards played in the round (5 × {n})", n=n)


def apply_round(pack: Pack, state: Mapping, rnd: Mapping, rules, quiet: bool = False) -> tuple[dict, list[Text]]:
    """Add one round 圈 (``{"winner", "cards"}`` or ``{"winner", "count"}``): everyone else pays. ``quiet``: no
    steps (the same state and errors)."""
    field = f"rounds[{len(state['rounds'])}]"
    _check_open(state, field)
    return _apply_read(state, read_checked_round(pack, state["rounds"], rnd, state["players"], rules, field), rules,
                       quiet)


def read_checked_round(pack: Pack, rounds: Sequence[Mapping], rnd: Any, players: int, rules,
                       field: str) -> tuple[dict, int, Text]:
    """One round read as :func:`apply_round` reads it after the hand's canonical ``rounds``: (canonical round, payout
    per player, description), its cards checked to fit the pack beside theirs. No bank enters it: a hand's rounds
    read once serve a settle from any banks (:func:`read_rounds`, :func:`replay_read`)."""
    canonical, amount, how = read_round(pack, rnd, players, rules, field)
    if "cards" in canonical:  # one hand's rounds are distinct cards: together they must fit the pack
        played = [c for r in rounds if "cards" in r for c in parse_cards(r["cards"], bare=True)]
        pack.deck(rules).check(played + list(parse_cards(canonical["cards"], bare=True)), field=f"{field}.cards")
    _check_cards_left(pack, [*rounds, canonical], rules, field)
    return canonical, amount, how


def _apply_read(state: Mapping, read: tuple[dict, int, Text], rules, quiet: bool) -> tuple[dict, list[Text]]:
    """:func:`apply_round` once its round is read (:func:`read_checked_round`) and the hand is open."""
    canonical, amount, how = read
    k = len(state["rounds"])
    new = _copy(state)
    winner = canonical["winner"]
    side = _side_of(new, winner)
    steps = None if quiet else [_round_won(new, k, winner, how, amount)]
    _pay(new, _payers(new, side), side, amount, rules, steps)
    new["rounds"].append(canonical)
    return _views(new), steps or []


def _cards_of(rnd: Mapping) -> int:
    """The cards a canonical round says were played in it: its count, else its winning play's, else one."""
    if rnd.get("count") is not None:
        return rnd["count"]
    return len(parse_cards(rnd["cards"], bare=True)) if rnd.get("cards") else 1


def _check_cards_left(pack: Pack, rounds: Sequence[Mapping], rules, field: str) -> None:
    """Every round plays at least one card (its count, or its winning play's): a hand's rounds together play no
    more cards than the pack's play cards (two decks 80, one 40; ``ace_scores`` fewer)."""
    played, top = sum(_cards_of(r) for r in rounds), pack.play_card_total(rules)
    if played > top:
        raise InvalidInput(t("这一局的各圈一共出了{n}张，超过了这副牌能出的{top}张（分牌不出）",
                             "this hand's rounds play {n} cards in all, more than the {top} play cards of the pack "
                             "(score cards are never played)", n=played, top=top), field=field, code="too_many_cards")


def _round_won(state: Mapping, k: int, winner: int, how: Text, amount: int) -> Text:
    others = t("对方每人", "each opposing player") if state["teams"] else t("其他每人", "each other player")
    return t("第{k}圈：{w}以{how}赢，{others}付{amount}", "round {k}: {w} wins with {how}; {others} pays {amount}",
             k=k + 1, w=seat_name(winner), how=how, others=others, amount=amount)


def read_finish_order(order: Any, players: int) -> list[int]:
    if not isinstance(order, (list, tuple)):
        raise MalformedInput(t("「finish_order」应为座位列表（先走的在前）",
                               "“finish_order” must be a list of seats (first out first)"),
                             field="finish_order", code="not_a_list")
    seats: list[int] = []
    for i, value in enumerate(order):
        seat = _seat(value, players, f"finish_order[{i}]")
        if seat in seats:
            raise InvalidInput(t("「finish_order」里{seat}出现了两次：每人只能走一次",
                                 "{seat} appears twice in “finish_order”: each player goes out once",
                                 seat=seat_name(seat)), field=f"finish_order[{i}]", code="repeated_seat")
        seats.append(seat)
    return seats


def _decided_by_order(state: Mapping, order: Sequence[int]) -> int | None:
    """Index into ``order`` at which the hand ends (None: not yet)."""
    if not order:
        return None
    if not state["teams"]:
        return 0
    out: set[int] = set()
    for i, seat in enumerate(order):
        out.add(seat)
        if any(set(seats) <= out for seats in state["sides"]):
            return i
    return None


def finish_hand(state: Mapping, finish_order: Sequence[int], rules, quiet: bool = False) -> tuple[dict, list[Text]]:
    """End the hand: the penalty (solo: every other player pays ``penalty`` to the first out;
    teams: each loser pays ``team_penalty``; a draw pays nothing). ``quiet``: no steps."""
    _check_open(state, "finish_order")
    order = read_finish_order(finish_order, state["players"])
    end = _decided_by_order(state, order)
    if rules.winner is Winner.FIRST_OUT and end is None:
        if not order:
            msg = t("「finish_order」是空的：请给出先走的人", "“finish_order” is empty: say who went out first")
        else:
            msg = t("「finish_order」{o}还不能决定胜负：要等一方全部走完",
                    "“finish_order” {o} does not decide the hand yet: a whole team must be out",
                    o=str(order))
        raise InvalidInput(msg, field="finish_order", code="undecided")
    new = _copy(state)
    new["finish_order"] = list(order)
    steps: list[Text] | None = None if quiet else []
    if rules.winner is Winner.POINTS:
        winner_side = _points_winner(new, steps)
    else:
        winner_side = _first_out_winner(new, order, end, steps)
    if winner_side is not None:
        amount = rules.team_penalty if new["teams"] else rules.penalty
        if steps is not None:
            steps.append(t("罚分：{who}每人付{amount}", "penalty: {who} pays {amount}",
                           who=t("负方", "each loser") if new["teams"] else t("其他", "each other player"),
                           amount=amount))
        _pay(new, _payers(new, winner_side), winner_side, amount, rules, steps)
    new["finished"] = True
    return _views(new), steps or []


def _first_out_winner(state: Mapping, order: Sequence[int], end: int, steps: list | None) -> int | None:
    """The side of the first out, or None (a draw: that side also holds the last place)."""
    first_side = _side_of(state, order[0])
    finished_side = _side_of(state, order[end])
    if state["teams"] and finished_side != first_side:
        if steps is not None:
            steps.append(t("{team}先走完，但第一个走的{first}一方也占最后一名：平局，不罚分",
                           "{team} are all out, but the side of {first} (first out) also holds the last "
                           "place: a draw, no penalty", team=_side_name(state, finished_side),
                           first=seat_name(order[0])))
        return None
    if steps is not None:
        steps.append(t("{w}先走，{side}胜", "{w} went out first: {side} wins",
                       w=seat_name(order[0]), side=_side_name(state, first_side)))
    return first_side


def _points_winner(state: Mapping, steps: list | None) -> int | None:
    changes = state["side_changes"]
    best = max(changes)
    top = [s for s, c in enumerate(changes) if c == best]
    if steps is None:
        return top[0] if len(top) == 1 else None
    parts = join([t("{side} {c}", "{side} {c}", side=_side_name(state, s), c=_sign(c))
                  for s, c in enumerate(changes)], "，", ", ")
    if len(top) > 1:
        steps.append(t("本小局各圈得分：{p}；最多的不止一方，平局，不罚分",
                       "this hand's rounds: {p}; more than one side gained the most, a draw, no penalty",
                       p=parts))
        return None
    steps.append(t("本小局各圈得分：{p}；{w}得分最多，胜", "this hand's rounds: {p}; {w} gained the most and wins",
                   p=parts, w=_side_name(state, top[0])))
    return top[0]


def replay(pack: Pack, players: int, teams: bool, banks: Sequence[int] | None, rounds: Sequence[Mapping], rules,
           finish_order: Sequence[int] | None = None, quiet: bool = False) -> tuple[dict, list[Text]]:
    """Rebuild a hand from its rounds (and maybe its finish order): the tracker's undo. ``quiet``: the same
    state and errors without the steps (none are built)."""
    state = new_hand(pack, players, teams, banks, rules)
    steps: list[Text] = []
    if state["side_banks"] is not None and not quiet:
        steps.append(t("开始时的分：{b}", "banks at the start: {b}",
                       b=join([t("{side} {b}", "{side} {b}", side=_side_name(state, s), b=b)
                               for s, b in enumerate(state["side_banks"])], "，", ", ")))
    for rnd in rounds:
        state, more = apply_round(pack, state, rnd, rules, quiet)
        steps += more
    if finish_order is not None:
        if state["game_over"]:
            read_finish_order(finish_order, state["players"])
            if not quiet:
                steps.append(t("大局已在圈中结束，不再罚分", "the 大局 ended during the rounds: no penalty"))
        else:
            state, more = finish_hand(state, finish_order, rules, quiet)
            steps += more
    return state, steps


def read_rounds(pack: Pack, players: int, rounds: Sequence[Mapping], rules) -> list[tuple[dict, int, Text]]:
    """Every round of a hand read and checked as :func:`replay` reads them (the first problem raised), for
    :func:`replay_read`: what in a hand does not depend on the banks it starts from, read once."""
    done: list[tuple[dict, int, Text]] = []
    for k, rnd in enumerate(rounds):
        done.append(read_checked_round(pack, [r for r, _, _ in done], rnd, players, rules, f"rounds[{k}]"))
    return done


def replay_read(pack: Pack, players: int, teams: bool, banks: Sequence[int] | None,
                read: Sequence[tuple[dict, int, Text]], rules, finish_order: Sequence[int] | None = None) -> dict:
    """:func:`replay`, quietly, of rounds read already (:func:`read_rounds`, of the same players and rules): the same
    state. A hand that :func:`replay` refuses is refused here too, though perhaps with another of its problems
    (its rounds were read before its banks): a caller that must say the same asks :func:`replay` then."""
    state = _copy(new_hand(pack, players, teams, banks, rules))
    for canonical, amount, _how in read:  # apply_round's payments, on one copy of the state
        _check_open(state, f"rounds[{len(state['rounds'])}]")
        side = _side_of(state, canonical["winner"])
        _pay(state, _payers(state, side), side, amount, rules, None)
        state["rounds"].append(canonical)
    if finish_order is not None:
        if state["game_over"]:
            read_finish_order(finish_order, state["players"])
        else:
            return finish_hand(state, finish_order, rules, quiet=True)[0]
    return _views(state)


def with_banks(pack: Pack, free: Mapping, banks: Sequence[int] | None, rules) -> dict:
    """The state :func:`replay_read` gives of a hand from ``banks``, made from its state with no banks (``free``)
    where no bank caps a payment (``negative_banks``): each payment is then the same from any banks, and the
    banks after the hand are those it started from with its changes (a bank read as :func:`new_hand` reads it)."""
    start = new_hand(pack, free["players"], free["teams"], banks, rules)
    if start["side_banks"] is None or not rules.negative_banks:
        raise ValueError("with_banks: only for banks that nothing caps")  # a caller's mistake, not a hand's
    state = _copy(free)
    state["start_banks"] = start["start_banks"]
    state["side_banks"] = [bank + change for bank, change in zip(start["side_banks"], free["side_changes"])]
    return _views(state)


def seat_start_banks(state: Mapping) -> list[int] | None:
    """The banks the hand started with, per seat (teammates showing their team's bank)."""
    if state["start_banks"] is None:
        return None
    return [state["start_banks"][_side_of(state, s)] for s in range(state["players"])]


def undo_round(pack: Pack, state: Mapping, rules) -> tuple[dict, list[Text]]:
    """The hand without its last round (or without its settlement, if it was settled)."""
    rounds = list(state["rounds"])
    if not state["finished"] and rounds:
        rounds.pop()
    return replay(pack, state["players"], state["teams"], seat_start_banks(state), rounds, rules)
