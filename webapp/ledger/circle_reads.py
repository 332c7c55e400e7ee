"""A circle (牌友圈) read from the ledger, and its aliases written: the evenings of one circle, their season
(:mod:`scoring.circle`) and the merged spellings of a name (``ledger_circle_aliases``, migration 0008).

A circle is the ``circle`` of its tables; a table from before migration 0007 is a circle of its own, named by its
id (:attr:`.models.LedgerTable.circle_id`). An evening this version cannot read (:mod:`.integrity`) is left out of
the season and named, so the circle's other evenings still add up."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, or_, select

from scoring.circle import Evening, Season, canonical, has_sides, season
from scoring.errors import InvalidInput
from scoring.evening import has_declarer
from scoring.i18n import t
from scoring.registry import get_game

from .answers import _utc
from .cleaning import clean_name, name_key
from .db import db
from .errors import TableError, TableNotFound, forbidden
from .integrity import TableUnreadable, check_readable, read_together
from .models import LedgerCircleAlias, LedgerTable
from .queries import evenings_facts, valid_id
from .table_rules import HandRules
from .writes import write


def circle_not_found(circle_id: Any) -> TableError:
    return TableNotFound(t("没有这个牌友圈（编号「{id}」）", "there is no circle “{id}”", id=str(circle_id)[:40]),
                         code="circle_not_found", field="circle")


def circle_tables(circle_id: Any) -> list[LedgerTable]:
    """The circle's evenings, the first first; none for an id that is not one (or not an id at all)."""
    if not valid_id(circle_id):
        return []
    query = (select(LedgerTable).where(or_(LedgerTable.circle == circle_id,
                                           and_(LedgerTable.id == circle_id, LedgerTable.circle.is_(None))))
             .order_by(LedgerTable.created_at, LedgerTable.id))
    return list(db.session.execute(query).scalars())


def circle_aliases(circle_id: str) -> dict[str, str]:
    rows = db.session.execute(select(LedgerCircleAlias.name, LedgerCircleAlias.same_as)
                              .where(LedgerCircleAlias.circle == circle_id).order_by(LedgerCircleAlias.name))
    return {name: same_as for name, same_as in rows}


@dataclass
class CircleRead:
    id: str
    game: str
    tables: list[LedgerTable]      # the evenings read, in order
    unreadable: list[str]          # the ids of the evenings this version cannot read (left out)
    aliases: dict[str, str]
    season: Season


def read_circle(circle_id: Any) -> CircleRead:
    tables = circle_tables(circle_id)
    if not tables:
        raise circle_not_found(circle_id)
    readable, unreadable = [], []
    read_together(tables)
    for table in tables:
        try:
            check_readable(table)
            readable.append(table)
        except TableUnreadable:
            unreadable.append(table.id)
    game_slug = readable[0].game if readable else str(tables[0].game)
    aliases = circle_aliases(circle_id)
    if not readable:
        return CircleRead(circle_id, game_slug, readable, unreadable, aliases, Season([], [], [], []))
    game = get_game(game_slug)
    # only a 庄家's record and the sides of a hand read its input (and only a 庄家's its result)
    facts = evenings_facts([table.id for table in readable], inputs=has_declarer(game) or has_sides(game),
                           made=has_declarer(game))
    evenings = [_evening(table, facts[table.id]) for table in readable]
    played = season(game, evenings, same_people(readable, aliases))
    return CircleRead(circle_id, game_slug, readable, unreadable, aliases, played)


def same_people(tables: list[LedgerTable], aliases: dict[str, str]) -> dict[str, str]:
    """The spellings the season counts as one person: each name equal to one seen at an earlier evening (or seat)
    under NFKC and case folding (:func:`.cleaning.name_key`: ``a``, ``A``, ``ａ``) counts as that first one; the
    circle's own aliases come on top."""
    first: dict[str, str] = {}
    merged: dict[str, str] = {}
    for name in (n for table in tables for n in table.players if isinstance(n, str)):
        earliest = first.setdefault(name_key(name), name)
        if earliest != name:
            merged[name] = earliest
    return {**merged, **aliases}


def started_at(table: LedgerTable) -> str | None:
    return _utc(table.created_at).isoformat() if table.created_at else None


def _evening(table: LedgerTable, facts: list[tuple]) -> Evening:
    """The evening of its hands' ``facts`` (:func:`.queries.evenings_facts`), each hand with the rules it was played
    with (a change during the evening applies from the next hand on: the hands before it keep theirs, and so do
    the sides they were played on); its totals the sums of the hands' points (read as the integrity check read
    them: whole numbers, no more than the players)."""
    book = HandRules(table)
    hands = [(*hand[:5], book.of(hand[5])) for hand in facts]
    totals = [0] * len(table.players)
    for hand in hands:
        for player, points in enumerate(hand[2]):
            totals[player] += points
    return Evening(table.id, started_at(table), list(table.players), hands, totals, book.of(None))


def circle_json(read: CircleRead) -> dict:
    """The API's answer (docs/api.md, "Evenings in a row and circles"); ``aliases`` and ``unreadable`` are
    additions beyond the contract."""
    played = read.season
    return {"id": read.id, "game": read.game,
            "evenings": [{"table": e.table, "started_at": e.started_at, "hands": e.hands, "totals": e.totals}
                         for e in played.evenings],
            "standings": [{"name": s.name, "evenings": s.evenings, "hands": s.hands, "total": s.total, "won": s.won,
                           "declarer_made": s.declarer_made, "declarer_failed": s.declarer_failed}
                          for s in played.standings],
            "partners": [{"a": p.a, "b": p.b, "hands": p.hands, "total": p.total} for p in played.partners],
            "aliases": read.aliases, "unreadable": read.unreadable}


# --- merging two spellings of one person ----------------------------------------------

def _names_in(tables: list[LedgerTable]) -> set[str]:
    return {name for table in tables if isinstance(table.players, list) for name in table.players
            if isinstance(name, str)}


def _alias_name(raw: Any, field: str, known: set[str]) -> str:
    name = clean_name(raw, 0, [], field=field)
    if name not in known:
        raise InvalidInput(t("这个牌友圈里没有叫「{n}」的人", "nobody in this circle is called “{n}”", n=name),
                           field=field, code="unknown_player")
    return name


def set_alias(circle_id: Any, token: str | None, name: Any, same_as: Any) -> dict[str, str]:
    """Count ``name`` as ``same_as`` in the circle (``same_as`` None: count it as itself again); needs the edit
    token of any of its evenings. Returns the circle's aliases."""
    tables = circle_tables(circle_id)
    if not tables:
        raise circle_not_found(circle_id)
    if not any(table.token_ok(token) for table in tables):
        raise forbidden()
    known = _names_in(tables)
    name = _alias_name(name, "name", known)
    target = None if same_as is None else _alias_name(same_as, "same_as", known)
    others = {k: v for k, v in circle_aliases(circle_id).items() if k != name}
    if target is not None and canonical(target, others) == name:
        raise InvalidInput(t("「{b}」已经算作「{a}」了", "“{b}” already counts as “{a}”", a=name, b=target),
                           field="same_as", code="alias_loop")

    def store() -> dict[str, str]:
        db.session.execute(delete(LedgerCircleAlias).where(LedgerCircleAlias.circle == circle_id,
                                                           LedgerCircleAlias.name == name))
        if target is not None:
            db.session.add(LedgerCircleAlias(circle=circle_id, name=name, same_as=target))
        db.session.flush()
        return circle_aliases(circle_id)
    return write(store)
