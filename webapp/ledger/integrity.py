"""What this version can read of a stored table. A row written by another version (or by hand) may hold what
this one does not understand: a game or a house rule it dropped, a hand's input that is not an object,
deltas that are not numbers, a seat out of range, a time it cannot parse. Such a table is refused as a whole
with :class:`TableUnreadable` (its pages say so in words, show the hands that can be read with their totals and
offer the CSV; the API answers 409 ``table_unreadable``), so no page ever meets it half-way through.

The check reads every hand's few columns (not its result) once per table and process, then only the hands
written since (by ``changed_version``): a page view of an unchanged table costs a dictionary look-up, a
write what it changed (2,000 hands: about 60 ms the first time in a process, under 1 ms after a write)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import render_template
from sqlalchemy import case, func, select

from scoring.errors import PaijuError
from scoring.i18n import Text, join, t
from scoring.registry import SLUGS, get_game

from ..i18n import page_message
from .db import db
from .errors import TableError
from .models import MAX_PEOPLE, LedgerHand, LedgerTable
from .table_rules import resolved

MEMO_TABLES = 512


@dataclass(frozen=True)
class StoredHand:
    """A stored hand as far as it can be read: its number, its deltas per player when they read as numbers
    (else None), and what is wrong with it (empty: nothing)."""
    number: int
    deltas: tuple[int, ...] | None
    problems: tuple[Text, ...]


class TableUnreadable(TableError):
    """The table holds what this version cannot read; ``hands`` is every hand as far as it could be read."""

    def __init__(self, table_id: str, problems: list[Text], hands: tuple[StoredHand, ...] = (),
                 players: list[str] | None = None):
        super().__init__(t("这张牌桌存的数据本版本读不了：{p}", "This version cannot read what this table stored: {p}",
                           p=join(problems, "；", "; ")), code="table_unreadable", field="id")
        self.table_id, self.problems, self.hands, self.players = table_id, problems, hands, players or []


def unreadable_page(exc: TableUnreadable, status: int = 409):
    """The page for a table this version cannot read: what it cannot read, the readable hands and their
    totals, and the CSV of everything stored."""
    players = exc.players
    readable = [h for h in exc.hands if h.deltas is not None and not h.problems]
    totals = [sum(h.deltas[i] for h in readable) for i in range(len(players))] if players else []
    return render_template("tables/unreadable.html", message=page_message(exc), table_id=exc.table_id,
                           hands=exc.hands, players=players, totals=totals), status


#: the most points a stored hand can give or take from one player (far above any game's; keeps the sums that
#: SQL adds up over 2,000 hands inside a 64-bit integer)
MAX_POINTS = 10 ** 9
#: the longest stored name read (names are refused past 16 characters; older versions may have kept longer)
MAX_STORED_NAME = 64


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _names(players: Any) -> list[str] | None:
    ok = (isinstance(players, list) and 0 < len(players) <= MAX_PEOPLE
          and all(isinstance(p, str) and 0 < len(p) <= MAX_STORED_NAME for p in players))
    return players if ok else None


def _indexes(value: Any, within: int, count: tuple[int, int]) -> bool:
    """A list of ``count[0]``–``count[1]`` distinct indexes into ``within`` items."""
    return (isinstance(value, list) and count[0] <= len(value) <= count[1]
            and all(_is_int(i) and 0 <= i < within for i in value) and len(set(value)) == len(value))


def _seat_range(table: LedgerTable) -> tuple[int, int]:
    """How many seats a hand of this table can have been played with: the game's fewest and most (whatever the
    house rules said when it was played)."""
    return get_game(table.game).seats if table.game in SLUGS else (1, MAX_PEOPLE)


def _row_problems(table: LedgerTable, players: int) -> list[Text]:
    """What cannot be read of the table's other columns: its versions, seating, undone hand (a time that cannot
    be read is shown as none: a circle counts the evening without a date)."""
    problems = []
    if not (_is_int(table.version) and table.version > 0 and _is_int(table.reset_version)):
        problems.append(t("版本号读不出", "its version cannot be read"))
    if table.seated is not None and not _indexes(table.seated, players, _seat_range(table)):
        problems.append(t("座位超出了玩家名单", "its seating is outside the list of players"))
    undone = table.undone
    if undone is not None and not (isinstance(undone, dict) and _is_int(undone.get("number"))
                                   and isinstance(undone.get("input"), dict)):
        problems.append(t("撤销的那一局读不出", "the hand it undid cannot be read"))
    return problems


def table_problems(table: LedgerTable) -> list[Text]:
    """What cannot be read of the table's own row (its game, house rules, players and the rest)."""
    if table.game not in SLUGS:
        return [t("游戏「{g}」本版本没有", "the game “{g}” is not in this version", g=str(table.game)[:30])]
    problems = []
    game = get_game(table.game)
    if not rules_readable(game.ruleset, table.rules):
        problems.append(_rules_unread(table.rules))
    if _names(table.players) is None:
        problems.append(t("玩家名单读不出", "its list of players cannot be read"))
    return problems + _row_problems(table, len(table.players) if _names(table.players) else 0)


def totals_kept(table: LedgerTable) -> bool:
    """Whether the totals the table keeps (what a write answers) are the sums of its hands' points; when not
    (or not readable), a write sums them again (:func:`.writes.locked_table`): the hands are the record."""
    kept, players = table.kept_totals, len(table.players)
    if not (isinstance(kept, list) and len(kept) <= players and all(_is_int(v) for v in kept)):
        return False
    sums = [0] * players
    for hand in stored_hands(table):
        for i, d in enumerate(hand.deltas or ()):
            sums[i] += d
    return list(kept) + [0] * (players - len(kept)) == sums


def _deltas_problems(deltas: Any, seats: Any, players: int, seat_range: tuple[int, int]) -> list[Text]:
    if not (isinstance(deltas, list) and all(_is_int(d) and -MAX_POINTS <= d <= MAX_POINTS for d in deltas)):
        return [t("得失分不是数", "its points are not numbers")]
    if len(deltas) > players:
        return [t("得失分比玩家多", "it has points for more players than the table has")]
    if sum(deltas) != 0:
        return [t("得失分加起来不是0", "its points do not add up to 0")]
    if seats is None and not seat_range[0] <= len(deltas) <= seat_range[1]:
        return [t("得失分的个数不对", "it has points for a number of players this game is not played with")]
    if isinstance(seats, list) and any(d for i, d in enumerate(deltas) if i not in seats):
        return [t("没上桌的玩家也有得失分", "it gives points to a player who did not sit in it")]
    return []


def _input_is_object():
    """Whether a hand's stored input is a JSON object, as SQL: only this is read of it (the input itself, most of
    a large hand's row, is not decoded; SQLite keeps JSON as text that may not be JSON at all)."""
    stored = LedgerHand.input
    if db.session.get_bind().dialect.name == "sqlite":
        return case((func.json_valid(stored) == 1, func.json_type(stored) == "object"), else_=False)
    return func.json_typeof(stored) == "object"


def _hand_problems(row, players: int, seat_range: tuple[int, int]) -> tuple[tuple[int, ...] | None, list[Text]]:
    number, is_object, deltas, seats, created, updated = row
    problems = []
    if not is_object:
        problems.append(t("输入不是一个对象", "its input is not an object"))
    if not (_is_int(number) and number > 0):
        problems.append(t("局号读不出", "its number cannot be read"))
    wrong = _deltas_problems(deltas, seats, players, seat_range)
    problems += wrong
    if seats is not None and not _indexes(seats, len(deltas) if isinstance(deltas, list) else 0, seat_range):
        problems.append(t("座位超出了玩家名单", "its seats are outside the list of players"))
    if not isinstance(created, datetime) or not isinstance(updated, datetime):
        problems.append(t("时间读不出", "its time cannot be read"))
    if wrong:
        return None, problems
    return tuple(deltas) + (0,) * (players - len(deltas)), problems


_memo: OrderedDict = OrderedDict()
_memo_lock = threading.Lock()


def stored_hands(table: LedgerTable) -> tuple[StoredHand, ...]:
    """Every hand of the table as far as it can be read. Kept per table: a new version reads only the hands
    written since (their ``changed_version``), so a write costs what it changed, not the table's length."""
    with _memo_lock:
        known = _memo.get(table.id)
        if known is not None:
            _memo.move_to_end(table.id)
    players = _player_count(table)
    if known is not None and known[0] == (table.version, players):
        return known[2]
    seen = known[1] if known is not None and known[0][1] == players else {}  # players changed: read all again
    versions = db.session.execute(select(LedgerHand.number, LedgerHand.changed_version)
                                  .where(LedgerHand.table_id == table.id).order_by(LedgerHand.number)).all()
    unnumbered = _unnumbered(sum(n is None for n, _ in versions))
    versions = [(n, v) for n, v in versions if n is not None]
    stale = [n for n, v in versions if n not in seen or seen[n][0] != v]
    ruleset = get_game(table.game).ruleset if table.game in SLUGS else None
    numbers = stale if len(stale) < len(versions) else []  # none known: every hand, naming no number
    fresh = _read(table.id, players, numbers, _seat_range(table), ruleset) if stale else {}
    # a hand deleted between the two statements (PostgreSQL reads each at its own moment) is left out
    by_number = {n: fresh[n] if n in fresh else seen[n] for n, _ in versions if n in fresh or n in seen}
    hands = tuple(hand for _, hand in by_number.values()) + unnumbered
    _remember(table, players, by_number, hands)
    return hands


def _player_count(table: LedgerTable) -> int:
    """How many players the table's hands are read against (a list of players it cannot read: the most)."""
    return len(table.players) if _names(table.players) else MAX_PEOPLE


def _unnumbered(count: int) -> tuple[StoredHand, ...]:
    """The hands whose number is not a whole number (no query finds them by number)."""
    return (StoredHand(0, None, (t("局号读不出", "its number cannot be read"),)),) * count


def _checked_columns():
    return (LedgerHand.number, _input_is_object(), LedgerHand.deltas, LedgerHand.seats, LedgerHand.created_at,
            LedgerHand.updated_at, LedgerHand.changed_version, LedgerHand.rules)


def _checked(row, players: int, seat_range: tuple[int, int], rules_read: RulesRead) -> tuple[int, StoredHand]:
    """(the version that wrote it, the hand as far as it can be read) of a row of :func:`_checked_columns`."""
    deltas, problems = _hand_problems(row[:6], players, seat_range)
    problems += rules_read.problems(row[7])
    return row[6], StoredHand(row[0], deltas, tuple(problems))


def _read(table_id: str, players: int, numbers: list[int], seat_range: tuple[int, int],
          ruleset) -> dict[int, tuple[int, StoredHand]]:
    """The hands ``numbers`` checked (``[]``: every hand of the table, in one statement that lists no number: a
    fresh process's first read of a table, where naming 2,000 numbers cost more than reading their rows)."""
    out, rules_read = {}, RulesRead(ruleset)
    chosen = LedgerHand.table_id == table_id
    for chunk in range(0, max(len(numbers), 1), 500):
        where = chosen if not numbers else chosen & LedgerHand.number.in_(numbers[chunk:chunk + 500])
        for row in db.session.execute(select(*_checked_columns()).where(where)).all():
            if row[0] is not None:
                out[row[0]] = _checked(row, players, seat_range, rules_read)
    return out


def read_together(tables: list[LedgerTable]) -> None:
    """Check the hands of the ``tables`` not checked yet at their version in one query (a circle's evenings: one
    statement, not two per evening), as :func:`stored_hands` would one by one; :func:`check_readable` then finds
    them known."""
    unread = {}
    for table in tables:
        players = _player_count(table)
        with _memo_lock:
            known = _memo.get(table.id)
        if known is None or known[0] != (table.version, players):
            unread[table.id] = (table, players)
    if not unread:
        return
    found: dict[str, list] = {table_id: [] for table_id in unread}
    rows = db.session.execute(select(LedgerHand.table_id, *_checked_columns())
                              .where(LedgerHand.table_id.in_(list(unread)))
                              .order_by(LedgerHand.table_id, LedgerHand.number)).all()
    for row in rows:
        found[row[0]].append(row[1:])
    for table_id, (table, players) in unread.items():
        ruleset = get_game(table.game).ruleset if table.game in SLUGS else None
        rules_read, seat_range = RulesRead(ruleset), _seat_range(table)
        by_number = {row[0]: _checked(row, players, seat_range, rules_read)
                     for row in found[table_id] if row[0] is not None}
        unnumbered = _unnumbered(sum(row[0] is None for row in found[table_id]))
        _remember(table, players, by_number, tuple(hand for _, hand in by_number.values()) + unnumbered)


def _remember(table: LedgerTable, players: int, by_number: dict, hands: tuple[StoredHand, ...]) -> None:
    with _memo_lock:
        _memo[table.id] = ((table.version, players), by_number, hands)
        while len(_memo) > MEMO_TABLES:
            _memo.popitem(last=False)


def rules_readable(ruleset, rules: Any) -> bool:
    """Whether stored house rules are an object this version's ``ruleset`` reads."""
    try:
        return isinstance(rules, dict) and resolved(ruleset, rules) is not None
    except (PaijuError, TypeError, ValueError, KeyError):
        return False


def _rules_unread(rules: Any) -> Text:
    return t("它的规则（{r}）本版本没有", "its house rules ({r}) are not in this version", r=str(rules)[:80])


class RulesRead:
    """Whether a hand's stored house rules can be read (None, the table's, always can), each distinct value
    resolved once (a table's hands hold one or two)."""

    def __init__(self, ruleset):
        self.ruleset, self.known = ruleset, {}

    def problems(self, rules: Any) -> list[Text]:
        if rules is None or self.ruleset is None:
            return []
        key = repr(rules)
        if key not in self.known:
            self.known[key] = rules_readable(self.ruleset, rules)
        return [] if self.known[key] else [_rules_unread(rules)]


def check_readable(table: LedgerTable) -> None:
    """Refuse (:class:`TableUnreadable`) a table this version cannot read, naming what it cannot read."""
    hands = stored_hands(table)
    problems = table_problems(table)
    bad = [h for h in hands if h.problems]
    problems += [t("第{n}局：{p}", "hand {n}: {p}", n=h.number, p=join(h.problems)) for h in bad[:5]]
    if len(bad) > 5:
        problems.append(t("还有{k}局", "{k} more hands", k=len(bad) - 5))
    if problems:
        raise TableUnreadable(table.id, problems, hands, _names(table.players) or [])
