"""Tables and circles as large as the ledger accepts, built in seconds: a hand is recorded through the API once,
then copied in SQL (the same stored input, deltas, result and rules under the next numbers), and the table's kept
totals and version are set as a write would leave them. Used by ``bench/read_bounds.py`` and the tests of the read
bounds (``tests/web/test_read_bounds.py``).

* :func:`largest_q783_hand`: the largest Q783 hand the ledger accepts: six seats, as many rounds as the API
  document allows, each a line of steps per payer, banks that never end the 大局;
* :func:`ordinary_q783_hand`: a hand as a table of four plays it (a few rounds, a penalty);
* :func:`varied_q783_rounds`: a hand's rounds as real hands have them, each hand its own (bench/ledger.py's
  long edit: no two hands alike, so nothing one hand's reading learnt serves the next).
"""
from __future__ import annotations

import random
from collections import Counter

from sqlalchemy import func, select, text

from scoring.q783 import MAX_ROUNDS
from webapp.ledger.db import db
from webapp.ledger.models import LedgerHand, LedgerTable
from webapp.ledger.queries import hand_totals

#: six players with names of the longest length a name may have (16 characters): the steps name them
LONG_NAMES = [f"{'长名字的牌友' * 3}"[:15] + str(seat) for seat in range(6)]
LARGE_RULES = {"scoring": "cards", "negative_banks": True}
LIMITS = {"LEDGER_CREATE_LIMIT": "1000000 per minute", "LEDGER_WRITE_LIMIT": "1000000 per minute"}
_COPIED = ("input", "deltas", "result", "ends_series", "created_at", "updated_at", "edited_at", "input_version",
           "changed_version", "seats", "rules")


def largest_q783_hand(rounds: int = MAX_ROUNDS) -> dict:
    """Six seats, ``rounds`` rounds (the most a hand may have) of one card each, every seat paying or paid in every
    round, banks that the rounds never empty (``LARGE_RULES``: negative banks)."""
    return {"players": 6, "banks": [80] * 6, "rounds": [{"winner": i % 6, "count": 1} for i in range(rounds)],
            "finish_order": [0]}


def ordinary_q783_hand(i: int) -> dict:
    return {"banks": [125] * 4, "rounds": [{"winner": i % 4, "cards": "♠Q"}, {"winner": (i + 1) % 4, "cards": "♥7 ♣7"},
                                           {"winner": (i + 2) % 4, "cards": "♠4 ♥4 ♣4 ♦4"}],
            "finish_order": [(i + 3) % 4]}


_RANKS = ("3", "4", "6", "7", "8", "9", "J", "Q", "A", "2")  # never a score card (5, 10, K)
_SUITS = ("♠", "♥", "♣", "♦")


def _varied_play(rng: random.Random) -> list[str]:
    kind = rng.choice(("single", "pair", "pair", "triple", "q783", "bomb"))
    if kind == "q783":
        suit = rng.choice(_SUITS)
        return [suit + rank for rank in "Q783"]
    rank = rng.choice(_RANKS)
    return [suit + rank for suit in rng.sample(_SUITS, {"single": 1, "pair": 2, "triple": 3, "bomb": 4}[kind])]


def varied_q783_rounds(i: int, players: int = 4) -> list[dict]:
    """Hand ``i``'s rounds: 1 to 4 of them (``i`` decides how many), each won by a seat with a single, a pair, a
    triple, a Q783 or a 4-bomb drawn from two decks (no card more than twice in the hand); the same ``i``, the same
    rounds."""
    rng, used, rounds = random.Random(i), Counter(), []
    while len(rounds) < i % 4 + 1:
        cards = _varied_play(rng)
        if all(used[card] < 2 for card in cards):
            used.update(cards)
            rounds.append({"winner": rng.randrange(players), "cards": " ".join(cards)})
    return rounds


def new_table(client, players: list[str], rules: dict | None = None, game: str = "q783") -> tuple[str, dict]:
    """A new table's id and the headers its writes take."""
    out = client.post("/api/v1/tables", json={"game": game, "players": players, "rules": rules or {}}).get_json()
    return out["id"], {"X-Edit-Token": out["edit_token"]}


def record(client, table_id: str, headers: dict, hand: dict) -> None:
    answer = client.post(f"/api/v1/tables/{table_id}/hands", json=hand, headers=headers)
    assert answer.status_code == 201, answer.get_json()


def fill_by_copying(app, table_id: str, count: int, source: str | None = None) -> None:
    """Give the table ``count`` hands: copies of its own hands (or of table ``source``'s), numbered on from its
    last, doubling until there are enough; then its totals and version as a write leaves them."""
    with app.app_context():
        while (have := _count(table_id)) < count:
            _copy(source or table_id, table_id, shift=_last(table_id), most=count - have)
            source = None
        table = db.session.get(LedgerTable, table_id)
        table.kept_totals = hand_totals(table_id, len(table.players))
        table.version = table.version + 1
        db.session.commit()


def _count(table_id: str) -> int:
    return db.session.execute(select(func.count()).where(LedgerHand.table_id == table_id)).scalar()


def _last(table_id: str) -> int:
    return db.session.execute(select(func.coalesce(func.max(LedgerHand.number), 0))
                              .where(LedgerHand.table_id == table_id)).scalar()


def _copy(source: str, target: str, shift: int, most: int) -> None:
    columns = ", ".join(_COPIED)
    db.session.execute(text(f"INSERT INTO ledger_hands (table_id, number, {columns}) "
                            f"SELECT :target, number + :shift, {columns} FROM ledger_hands "
                            f"WHERE table_id = :source ORDER BY number LIMIT :most"),
                       {"source": source, "target": target, "shift": shift, "most": most})
    db.session.commit()


def circle_of(app, client, evenings: int, hands: int) -> tuple[str, str]:
    """A circle of ``evenings`` evenings of ``hands`` ordinary hands each (four players): its id and its first
    table's. Each next evening is asked of the API; its hands are copies of the first evening's."""
    first, headers = new_table(client, ["甲", "乙", "丙", "丁"])
    for i in range(min(hands, 4)):
        record(client, first, headers, ordinary_q783_hand(i))
    fill_by_copying(app, first, hands)
    table_id = first
    for _ in range(evenings - 1):
        out = client.post(f"/api/v1/tables/{table_id}/next-evening", json={}, headers=headers)
        assert out.status_code == 201, out.get_json()
        table_id, headers = out.get_json()["id"], {"X-Edit-Token": out.get_json()["edit_token"]}
        fill_by_copying(app, table_id, hands, source=first)
    circle = client.get(f"/api/v1/tables/{first}").get_json()["circle"]
    return circle, first
