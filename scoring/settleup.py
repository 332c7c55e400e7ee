"""Settling up at the end of an evening: who pays whom, in the fewest transfers.

Every seat with a negative total pays exactly its total away, every seat with
a positive total receives exactly its total. The fewest transfers come from
splitting the seats into as many groups that sum to zero as possible: a group
of k seats then needs exactly k − 1 transfers (each transfer settles at least
one seat, and a group that could be settled in fewer would split into smaller
zero-sum groups). The split is found exactly over all subsets while at most
``EXACT_SEATS`` seats have a balance (3^12 subset pairs, a few tenths of a
second at worst). A larger evening (people replaced during the night) first
pairs off equal and opposite balances, then splits the rest exactly if few
enough remain, or else settles them as one group: at most one transfer fewer
than the seats with a balance, never more, though not always the fewest.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from typing import Sequence

from .errors import MalformedInput
from .i18n import Text, join, seat_name, signed, t
from .inputs import shown

EXACT_SEATS = 12  # the exact split looks at 3^n pairs of subsets: beyond this many balances, a greedy one
CENT = Decimal("0.01")


def parse_per_point(raw: str | None) -> Decimal:
    """Money per point: a decimal number above 0 with at most two decimals (default 1)."""
    if raw is None or raw == "":
        return Decimal(1)
    problem = MalformedInput(t("「每分多少钱」应为大于0、最多两位小数的数，收到「{v}」",
                               "“money per point” must be a number above 0 with at most two decimals, got “{v}”",
                               v=shown(raw)), field="per_point", code="invalid_per_point")
    text = raw.strip() if isinstance(raw, str) else ""
    if not text or len(text) > 12 or not all(c in "0123456789." for c in text):
        raise problem
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise problem from None
    if not value.is_finite() or value <= 0 or value != value.quantize(CENT):
        raise problem
    return value


def _groups(balances: tuple[int, ...]) -> list[list[int]]:
    """The seats with a balance, split into zero-sum groups: the most there can be (exactly, up to
    ``EXACT_SEATS`` balances; beyond, opposite pairs first and then the rest)."""
    seats = [i for i, b in enumerate(balances) if b]
    if len(seats) <= EXACT_SEATS:
        return _exact_groups(balances, seats)
    pairs, rest = _opposite_pairs(balances, seats)
    if len(rest) <= EXACT_SEATS:
        return pairs + _exact_groups(balances, rest)
    return pairs + ([rest] if rest else [])


def _opposite_pairs(balances: Sequence[int], seats: list[int]) -> tuple[list[list[int]], list[int]]:
    """Seats whose balances cancel two by two (each pair is a group of its own), and the seats left."""
    waiting: dict[int, list[int]] = {}
    pairs = []
    for seat in seats:
        match = waiting.get(-balances[seat])
        if match:
            pairs.append(sorted((match.pop(0), seat)))
        else:
            waiting.setdefault(balances[seat], []).append(seat)
    paired = {s for pair in pairs for s in pair}
    return pairs, [s for s in seats if s not in paired]


def _exact_groups(balances: Sequence[int], seats: list[int]) -> list[list[int]]:
    """``seats`` (their balances summing to zero) split into the most groups that each sum to zero."""
    n = len(seats)
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[seats[low]]

    @lru_cache(maxsize=None)
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        """(the most zero-sum groups that ``mask`` splits into, the first group of such a split)."""
        if mask == 0:
            return 0, ()
        low = mask & -mask  # the group holding the lowest seat: try every zero-sum subset with it
        top, choice = -1, ()
        sub = mask
        while sub:
            if sub & low and sums[sub] == 0:
                count = 1 + best(mask ^ sub)[0]
                if count > top:
                    top, choice = count, (sub,)
            sub = (sub - 1) & mask
        return top, choice

    groups, mask = [], (1 << n) - 1
    while mask:
        (sub,) = best(mask)[1]
        groups.append([seats[j] for j in range(n) if sub >> j & 1])
        mask ^= sub
    return groups


def _settle_group(balances: Sequence[int], group: list[int]) -> list[tuple[int, int, int]]:
    """(from, to, points) transfers settling one zero-sum group: the largest debt to the largest credit."""
    left = {s: balances[s] for s in group}
    out = []
    while any(left.values()):
        payer = min(left, key=lambda s: (left[s], s))
        payee = max(left, key=lambda s: (left[s], -s))
        points = min(-left[payer], left[payee])
        out.append((payer, payee, points))
        left[payer] += points
        left[payee] -= points
    return out


def money_of(points: int, per_point: Decimal) -> str:
    """The money ``points`` move at ``per_point`` a point, with two decimals."""
    return str((per_point * points).quantize(CENT, rounding=ROUND_HALF_UP))


def settle_up(totals: Sequence[int], per_point: Decimal = Decimal(1)) -> dict:
    """The fewest transfers that settle ``totals`` (zero-sum), with the money each one moves."""
    totals = tuple(int(x) for x in totals)
    if sum(totals) != 0:  # an engine bug, never user input
        raise AssertionError(f"cannot settle {totals}")
    transfers = [(a, b, p) for group in _groups(totals) for a, b, p in _settle_group(totals, group)]
    transfers.sort(key=lambda x: (-x[2], x[0], x[1]))
    money = lambda points: money_of(points, per_point)  # noqa: E731
    return {"totals": list(totals), "per_point": str(per_point.quantize(CENT)),
            "transfers": [{"from": a, "to": b, "points": p, "amount": money(p)} for a, b, p in transfers],
            "steps": [transfer_words(a, b, p, money(p)) for a, b, p in transfers]}


def transfer_words(payer: int, payee: int, points: int, amount: str) -> Text:
    return t("{a}付给{b} {p}分（{m}元）", "{a} pays {b} {p} points ({m})", a=seat_name(payer), b=seat_name(payee),
             p=points, m=amount)


def share_words(game: Text, day: str, hands: int, names: Sequence[str], settled: dict,
                changes: Sequence[Text] = ()) -> Text:
    """The evening in the words a group chat expects (``settle_up``'s answer for ``names``): the game, the date
    and the hands, the rules that changed during it (``changes``, a line each: 「第3局起：炸弹分 10」), each
    player's total and money (highest first), then who pays whom — one line each."""
    per_point = Decimal(settled["per_point"])
    money = lambda points: money_of(points, per_point)  # noqa: E731
    ranked = sorted(range(len(names)), key=lambda i: (-settled["totals"][i], i))
    lines = [t("{g}｜{d}｜共{n}局｜每分{m}元", "{g} | {d} | {n} hand | {m} a point" if hands == 1 else
               "{g} | {d} | {n} hands | {m} a point", g=game, d=day, n=hands, m=money(1)), *changes]
    lines += [t("{who} {p}（{m}元）", "{who} {p} ({m})", who=names[i], p=signed(settled["totals"][i]),
                m=signed(money(settled["totals"][i]))) for i in ranked]
    lines += [t("{a} → {b}：{p}分，{m}元", "{a} → {b}: {p} points, {m}", a=names[tr["from"]], b=names[tr["to"]],
                p=tr["points"], m=tr["amount"]) for tr in settled["transfers"]]
    if not settled["transfers"]:
        lines.append(t("谁也不欠谁", "nobody owes anybody"))
    return join(lines, "\n", "\n")


