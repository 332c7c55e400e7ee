"""GET /api/v1/tables/<id>/settle-up (docs/api.md, "Settling up"): no token, every seat pays or receives
exactly its total, whole points, amount = points × P with two decimals, the fewest transfers, 400 for a
bad per_point, the ledger's 404 for an unknown table."""
from __future__ import annotations

import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles import brute_force_fewest
from properties import examples

from webapp import create_app

PDK = ("甲", "乙", "丙", "丁")


@pytest.fixture
def app(tmp_path):
    """The app with create limits a property's many tables cannot reach (the limits have tests of their own)."""
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
                       "LEDGER_CREATE_LIMIT": "10000 per minute", "LEDGER_WRITE_LIMIT": "10000 per minute"})


def open_table(api, game="paodekuai", players=PDK, rules=None):
    body = {"game": game, "players": list(players), **({"rules": rules} if rules else {})}
    status, out = api("tables", body)
    assert status == 201, out
    return out["id"], out["edit_token"]


def record(api, tid, token, hand):
    status, out = api(f"tables/{tid}/hands", hand, headers={"X-Edit-Token": token})
    assert status == 201, out
    return out


def pdk_hand(winner: int, left: list[int]) -> dict:
    """A 跑得快 hand: ``left`` are the three losers' cards in seat order."""
    cards = list(left)
    cards.insert(winner, 0)
    return {"winner": winner, "cards_left": cards}


def settle_up(api, tid, per_point=None, lang=None):
    query = "" if per_point is None else f"?per_point={per_point}"
    return api(f"tables/{tid}/settle-up{query}", method="GET", lang=lang)


def moved(transfers, seats):
    net = [0] * seats
    for tr in transfers:
        net[tr["from"]] -= tr["points"]
        net[tr["to"]] += tr["points"]
    return net


@pytest.fixture
def evening(api):
    """A 跑得快 table of four after three hands: totals [+54, −7, +18, −65]."""
    tid, token = open_table(api)
    for winner, left in ((0, [1, 5, 13]), (2, [1, 3, 4]), (0, [2, 2, 1])):
        record(api, tid, token, pdk_hand(winner, left))
    return tid


def test_settling_up_needs_no_token_and_moves_exactly_each_total(api, evening):
    status, out = settle_up(api, evening)
    assert status == 200
    totals = out["totals"]
    assert sum(totals) == 0 and any(totals)
    assert moved(out["transfers"], 4) == totals
    assert all(isinstance(tr["points"], int) and tr["points"] > 0 for tr in out["transfers"])
    assert all(tr["from"] != tr["to"] for tr in out["transfers"])
    assert out["per_point"] == "1.00"  # the default is 1


def test_the_totals_are_the_tables_totals(api, evening):
    _, table = api(f"tables/{evening}", method="GET")
    _, out = settle_up(api, evening)
    assert out["totals"] == table["totals"]


@pytest.mark.parametrize("per_point", ["0.1", "0.5", "0.33", "2", "5", "1.5", "10", "0.01"])
def test_each_amount_is_its_points_times_the_money_per_point_with_two_decimals(api, evening, per_point):
    status, out = settle_up(api, evening, per_point)
    assert status == 200
    assert out["per_point"] == str(Decimal(per_point).quantize(Decimal("0.01")))
    for tr in out["transfers"]:
        assert tr["amount"] == str((Decimal(per_point) * tr["points"]).quantize(Decimal("0.01")))
        assert len(tr["amount"].split(".")[1]) == 2


def test_a_table_with_no_hands_needs_no_transfer(api):
    tid, _ = open_table(api)
    status, out = settle_up(api, tid, "0.5")
    assert status == 200
    assert out == {**out, "totals": [0, 0, 0, 0], "transfers": []}


@pytest.mark.parametrize("bad", ["0", "-1", "abc", "1.234", "1e2", "NaN", "Infinity", "１", "0.00", " ",
                                 "1,5", "99999999999999", "0x10", "%E2%80%AE1"])
def test_a_bad_money_per_point_is_a_400_naming_the_field(api, evening, bad):
    status, out = settle_up(api, evening, bad)
    assert status == 400
    assert out["error"]["field"] == "per_point"
    assert out["error"]["code"] == "invalid_per_point"
    assert "两位小数" in out["error"]["message"]


def test_the_per_point_message_is_english_with_accept_language_en(api, evening):
    status, out = settle_up(api, evening, "abc", lang="en")
    assert status == 400
    assert "at most two decimals" in out["error"]["message"]


def test_an_unknown_table_answers_the_ledgers_404(api):
    status, out = settle_up(api, "no-such-table-at-all", "0.5")
    assert status == 404
    assert out["error"]["code"] == "table_not_found"
    assert out["error"]["field"] == "id"


def test_two_seats_up_and_two_down_by_the_same_points_settle_in_two_transfers(api):
    tid, token = open_table(api)
    record(api, tid, token, pdk_hand(0, [13, 13, 13]))   # 0: +156, each other −52
    record(api, tid, token, pdk_hand(1, [13, 13, 13]))   # 1: +156
    _, out = settle_up(api, tid)
    assert out["totals"] == [104, 104, -104, -104]
    assert len(out["transfers"]) == 2


HANDS = st.lists(st.tuples(st.integers(0, 3), st.lists(st.integers(1, 13), min_size=3, max_size=3)),
                 min_size=1, max_size=5)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands=HANDS)
def test_the_number_of_transfers_is_the_brute_force_minimum(api, hands):
    tid, token = open_table(api)
    for winner, left in hands:
        record(api, tid, token, pdk_hand(winner, left))
    status, out = settle_up(api, tid, "0.5")
    assert status == 200
    assert moved(out["transfers"], 4) == out["totals"]
    assert len(out["transfers"]) == brute_force_fewest(out["totals"])


def test_a_steps_line_says_each_transfer_in_words(api, evening):
    _, out = settle_up(api, evening, "0.5", lang="en")
    assert len(out["steps"]) == len(out["transfers"])
    first = out["transfers"][0]
    assert f"seat {first['from'] + 1} pays seat {first['to'] + 1} {first['points']} points ({first['amount']})" == out["steps"][0]


def test_a_six_seat_table_settles_in_the_brute_force_minimum(api):
    """Six seats (Q783): exact, not greedy, where the split into zero-sum groups matters."""
    tid, token = open_table(api, "q783", ("甲", "乙", "丙", "丁", "戊", "己"))
    record(api, tid, token, {"banks": [80] * 6, "rounds": [], "finish_order": [0]})
    record(api, tid, token, {"rounds": [{"winner": 2, "cards": "♠Q ♥7 ♥8 ♣3"}], "finish_order": [1]})
    status, out = settle_up(api, tid, "2")
    assert status == 200
    assert len([x for x in out["totals"] if x]) >= 5
    assert moved(out["transfers"], 6) == out["totals"]
    assert len(out["transfers"]) == brute_force_fewest(out["totals"])


def test_share_text_says_game_date_hands_each_total_and_money_then_who_pays_whom(api, evening):
    tid = evening
    status, zh = settle_up(api, tid, "0.5")
    assert status == 200
    lines = zh["share_text"].split("\n")
    assert lines[0].startswith("跑得快") and "共3局" in lines[0] and "每分0.50元" in lines[0]
    assert re.search(r"\d{4}-\d{2}-\d{2}", lines[0])
    ranked = sorted(range(4), key=lambda i: -zh["totals"][i])
    signed = lambda v: f"{v:+}".replace("-", "−")  # noqa: E731
    assert lines[1:5] == [f"{PDK[i]} {signed(zh['totals'][i])}（{signed((Decimal(zh['totals'][i]) / 2).quantize(Decimal('0.01')))}元）"
                          for i in ranked]
    assert lines[1].startswith("甲 +") and lines[4].startswith("丁 −")  # highest first
    assert lines[5:-1] == [f"{PDK[t['from']]} → {PDK[t['to']]}：{t['points']}分，{t['amount']}元" for t in zh["transfers"]]
    assert lines[-1] == f"http://localhost/tables/{tid}?stay=1"  # this evening's read-only table, last
    _, en = settle_up(api, tid, "0.5", lang="en")
    assert en["share_text"].split("\n")[0].endswith("| 3 hands | 0.50 a point")
    assert en["share_text"].split("\n")[1] == lines[1].replace("（", " (").replace("元）", ")")
    assert "，" not in en["share_text"] and "元" not in en["share_text"]


def test_share_text_of_an_evening_without_hands_says_nobody_owes_anybody(api):
    tid, _ = open_table(api)
    _, out = settle_up(api, tid, lang="en")
    assert out["share_text"].split("\n")[-2] == "nobody owes anybody" and "| 0 hands |" in out["share_text"]
