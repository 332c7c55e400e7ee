"""An edit early in a long Q783 series settles every later hand again (issue 42 item 4): each hand ends up exactly as
settling it from scratch after the edited one gives, whether the ledger settled it in full or, where no bank caps a
payment, told it by what it gave before (:meth:`scoring.games.Game.quiet_moved`), on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest
from sqlalchemy import select, update
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_tables_api import led  # noqa: F401 - the API helper's fixture

from bench.large_tables import varied_q783_rounds
from webapp import ledger as m
from webapp.ledger import settling
from webapp.ledger.db import db

HANDS = 24


def series_of(teams: bool, banks: list[int]) -> list[dict]:
    """A series of hands each with its own rounds with cards, hand 1 starting from ``banks``."""
    hands = [{"teams": teams, "rounds": varied_q783_rounds(i), "finish_order": [i % 4, (i + 2 if teams else i + 1) % 4]}
             for i in range(HANDS)]  # in teams, partners (opposite) out first and second: the hand is decided
    hands[0]["banks"] = banks
    return hands


def numbers(led, table_id):
    """What settling gave each hand: its deltas, the banks it started from and ended with, whether it ended the 大局."""
    return [(h["deltas"], h["banks_before"], h["banks"], h["game_over"]) for h in led.table(table_id)["hands"]]


def recorded(led, hands, rules):
    """A new table's id and token, the hands recorded at it one by one: each settled from scratch after the one
    before."""
    table_id, token = led.create(rules=rules)
    for hand in hands:
        assert led.add(table_id, token, hand)[0] == 201
    return table_id, token


def from_scratch(led, hands, rules):
    return recorded(led, hands, rules)[0]


def edit_first(led, monkeypatch, table_id, token, edited):
    """Hand 1 edited to ``edited``: the answer, and the inputs of the hands the ledger settled in full meanwhile."""
    settled = []
    real = settling._settled  # every hand the ledger settles in full, loud or quiet
    monkeypatch.setattr(settling, "_settled", lambda *args, **kw: settled.append(args[2]) or real(*args, **kw))
    status, out = led.call("PUT", f"tables/{table_id}/hands/1", {"version": HANDS + 1, "input": edited}, token=token)
    assert status == 200, out
    monkeypatch.undo()
    return out, settled


@pytest.mark.parametrize("teams", [False, True], ids=["solo", "teams"])
@pytest.mark.parametrize("negative_banks", [True, False], ids=["negative banks", "capped banks"])
def test_every_hand_an_edit_settles_again_is_what_settling_it_from_scratch_gives(led, monkeypatch, teams,
                                                                                 negative_banks):
    rules = {"negative_banks": negative_banks}
    hands = series_of(teams, [100, 150, 100, 150])
    table_id, token = recorded(led, hands, rules)
    edited = {**hands[0], "banks": [95, 155, 95, 155] if teams else [95, 155, 100, 150]}
    out, settled = edit_first(led, monkeypatch, table_id, token, edited)
    again = numbers(led, table_id)
    assert again == numbers(led, from_scratch(led, [edited, *hands[1:]], rules))
    assert led.table(table_id)["totals"] == [sum(h[0][p] for h in again) for p in range(4)]
    if negative_banks:  # nothing caps a payment: the edited hand is settled, the later ones told by what they gave
        assert out["resettled"] == list(range(2, HANDS + 1)) and len(settled) == 1
    else:
        assert len(settled) == 1 + len(out["resettled"])


def test_a_later_hand_whose_stored_numbers_were_changed_by_hand_is_settled_in_full_and_put_right(ledger_app, led,
                                                                                                 monkeypatch):
    rules = {"negative_banks": True}
    hands = series_of(False, [100, 150, 100, 150])
    table_id, token = recorded(led, hands, rules)
    with ledger_app.app_context():  # hand 5's deltas no longer what its result says
        hand = db.session.execute(select(m.LedgerHand).where(m.LedgerHand.table_id == table_id,
                                                             m.LedgerHand.number == 5)).scalar_one()
        db.session.execute(update(m.LedgerHand).where(m.LedgerHand.id == hand.id)
                           .values(deltas=[d + 5 * (1 - 2 * (p % 2)) for p, d in enumerate(hand.deltas)]))
        db.session.commit()
    edited = {**hands[0], "banks": [95, 155, 100, 150]}
    _out, settled = edit_first(led, monkeypatch, table_id, token, edited)
    assert settled == [edited, hands[4]]  # the edited hand, and the one changed by hand
    assert numbers(led, table_id) == numbers(led, from_scratch(led, [edited, *hands[1:]], rules))
