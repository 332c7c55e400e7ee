"""The hands held on a table page are settled in the phone (offline mode, issue 29 item 3; issue 39 item 3) by the
phone's engine as the ledger settles them: the table page's data-phone-settle gives the game, its house rules, the
players, their seating and what the next hand carries, and ``offline_page.held_hands`` chains the held hands (what
each carries to the next, the players followed to new seats, a series ended) with the ledger's own functions
(``scoring.series``). Here, in CPython, the phone's answers are compared with what the ledger records for the same
forms posted through the table page."""
from __future__ import annotations

import html
import itertools
import json
import re

import pytest
from offline_forms import form_pairs
from werkzeug.datastructures import MultiDict

from scoring.i18n import signed
from scoring.registry import all_games, get_game
from webapp.offline_page import held_hands, held_recorded, resolved_rules

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
KEYS = (f"held-{n}" for n in itertools.count())


def table_page(client, url: str) -> str:
    return client.get(url, follow_redirects=True).get_data(as_text=True)


def phone_settle(client, edit_url: str) -> dict:
    page = table_page(client, edit_url)
    return json.loads(html.unescape(re.search(r'data-phone-settle="([^"]*)"', page).group(1)))


def one_rule_changed(game):
    """Each house rule set to a value other than its default (under a preset it applies to), one table each."""
    for option in game.ruleset.options:
        other = next((v for v in option.values if v != option.default), None)
        if other is not None:
            preset = {"preset": option.only_presets[0]} if option.only_presets else {}
            yield option.name, {**preset, option.name: other.value if hasattr(other, "value") else other}


CASES = [(game.slug, name, rules) for game in all_games() for name, rules in one_rule_changed(game)]


@pytest.mark.parametrize(("slug", "name", "rules"), CASES, ids=[f"{s}-{n}" for s, n, _ in CASES])
def test_the_phone_reads_the_tables_own_house_rules(client, api, slug, name, rules):
    game = get_game(slug)
    players = ["甲", "乙", "丙", "丁"][:max(3, game.seats[0])]
    status, created = api("tables", {"game": slug, "players": players, "rules": rules})
    assert status == 201, created
    given = phone_settle(client, created["edit_url"])
    assert given["slug"] == slug
    phone = resolved_rules(game, given["rules"])
    assert phone == game.ruleset.resolve(rules)
    assert phone != game.ruleset.resolve({})


def test_the_phone_is_given_the_banks_the_next_q783_hand_carries(client, api):
    status, created = api("tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    token = {"X-Edit-Token": created["edit_token"]}
    status, _ = api(f"tables/{created['id']}/hands", {"banks": [80, 80, 80], "finish_order": [2]}, headers=token)
    assert status == 201
    given = phone_settle(client, created["edit_url"])
    assert given["carried"] == {"banks": [30, 30, 180]}
    assert given["players"] == ["甲", "乙", "丙"] and given["seats"] == [0, 1, 2]
    assert given["api"] == f"/api/v1/tables/{created['id']}"


# -- held hands chained by the phone's engine, against what the ledger records ---------------------------------------

def held_form(game, payload: dict, seated: list[str]) -> list[tuple[str, str]]:
    """What the table page's form posts for a hand: its fields and the seating it was filled against."""
    return form_pairs(game, "settle", payload) + [("seated", name) for name in seated]


def csrf_of(client, edit: str) -> str:
    return CSRF.search(table_page(client, edit)).group(1)


def record_through_the_page(client, table: dict, pairs) -> None:
    edit = f"/tables/{table['id']}/edit"
    resp = client.post(edit, data=MultiDict([("csrf_token", csrf_of(client, edit)), ("idempotency_key", next(KEYS)),
                                             *pairs]))
    assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]


def swap_first_two(client, table: dict) -> None:
    edit = f"/tables/{table['id']}/edit"
    resp = client.post(f"{edit}/seats", data={"csrf_token": csrf_of(client, edit), "kind": "swap", "seat": "1", "other": "2"})
    assert resp.status_code == 303


def recorded_deltas(api, table: dict) -> list[list[int]]:
    _, read = api(f"tables/{table['id']}", method="GET")
    return [hand["deltas"] for hand in read["hands"]]


def open_table(client, api, slug: str, players: list[str], first: dict | None = None) -> dict:
    _, created = api("tables", {"game": slug, "players": players})
    if first is not None:
        status, _ = api(f"tables/{created['id']}/hands", first, headers={"X-Edit-Token": created["edit_token"]})
        assert status == 201
    table_page(client, created["edit_url"])  # the edit cookie
    return created


def settled_in_the_phone(given: dict, forms: list, totals=None) -> dict:
    held = [{"pairs": pairs, "phone": None} for pairs in forms]
    return held_hands(given, held, totals or [0] * len(given["players"]), "zh")


Q783_HANDS = [{"finish_order": [1]}, {"finish_order": [2, 0]}, {"finish_order": [0]}]


def test_held_q783_hands_carry_their_banks_hand_to_hand_as_the_ledger_records_them(client, api):
    game = get_game("q783")
    table = open_table(client, api, "q783", ["甲", "乙", "丙"], {"banks": [80, 80, 80], "finish_order": [2]})
    given = phone_settle(client, table["edit_url"])
    forms = [held_form(game, hand, given["players"]) for hand in Q783_HANDS]
    phone = settled_in_the_phone(given, forms)
    for pairs in forms:
        record_through_the_page(client, table, pairs)
    ledger = recorded_deltas(api, table)[1:]
    assert [hand["kept"]["deltas"] for hand in phone["hands"]] == ledger
    assert {hand["say"] for hand in phone["hands"]} == {"phone"}


def test_a_held_hand_played_after_a_seat_change_carries_the_banks_with_the_players(client, api):
    game = get_game("q783")
    players = ["甲", "乙", "丙", "丁"]
    table = open_table(client, api, "q783", players, {"banks": [100, 100, 100, 100], "finish_order": [3]})
    given = phone_settle(client, table["edit_url"])
    swapped = ["乙", "甲", "丙", "丁"]
    forms = [held_form(game, {"finish_order": [2]}, players), held_form(game, {"finish_order": [1]}, swapped)]
    phone = settled_in_the_phone(given, forms)
    record_through_the_page(client, table, forms[0])
    swap_first_two(client, table)
    record_through_the_page(client, table, forms[1])
    assert [hand["kept"]["deltas"] for hand in phone["hands"]] == recorded_deltas(api, table)[1:]
    assert phone["hands"][1]["kept"]["seats"] == [1, 0, 2, 3]


def test_a_hand_that_ends_a_series_carries_nothing_to_the_next_held_hand(client, api):
    game = get_game("q783")
    table = open_table(client, api, "q783", ["甲", "乙", "丙"], {"banks": [80, 80, 80], "finish_order": [2]})
    given = phone_settle(client, table["edit_url"])
    phone = settled_in_the_phone(given, [held_form(game, {"finish_order": [0]}, given["players"])])
    assert phone["hands"][0]["kept"]["carried"] is None  # 乙's bank of 30 emptied: the 大局 is over
    assert game.ends_series({"game_over": True})


def test_a_held_hand_the_engine_refuses_says_why_in_the_forms_words_and_counts_in_no_total(client, api):
    game = get_game("paodekuai")
    table = open_table(client, api, "paodekuai", ["甲", "乙", "丙", "丁"])
    given = phone_settle(client, table["edit_url"])
    refused = held_form(game, {"winner": 0, "cards_left": [0, 99, 3, 3]}, given["players"])
    fine = held_form(game, {"winner": 0, "cards_left": [0, 1, 2, 3]}, given["players"])
    phone = settled_in_the_phone(given, [refused, fine], totals=[5, 0, 0, -5])
    first, second = phone["hands"]
    assert first["say"] == "refused" and "剩余张数" in first["values"]["message"]
    assert second["say"] == "phone" and second["values"]["deltas"].startswith("甲 +")
    totals = [a + b for a, b in zip([5, 0, 0, -5], second["kept"]["deltas"])]
    assert phone["totals"]["totals"] == " · ".join(f"{n} {signed(v)}" for n, v in zip(given["players"], totals))


def test_a_hand_answered_before_keeps_its_answer_and_the_chain_goes_on_from_it(client, api):
    game = get_game("q783")
    table = open_table(client, api, "q783", ["甲", "乙", "丙"], {"banks": [80, 80, 80], "finish_order": [2]})
    given = phone_settle(client, table["edit_url"])
    forms = [held_form(game, hand, given["players"]) for hand in Q783_HANDS[:2]]
    whole = settled_in_the_phone(given, forms)
    kept = {"pairs": forms[0], "phone": whole["hands"][0]["kept"]}
    again = held_hands(given, [kept, {"pairs": forms[1], "phone": None}], [0, 0, 0], "en")
    assert [hand["kept"] for hand in again["hands"]] == [hand["kept"] for hand in whole["hands"]]


def test_the_ledgers_answer_is_compared_with_the_phones_by_the_engine(client, api):
    game = get_game("q783")
    table = open_table(client, api, "q783", ["甲", "乙", "丙"], {"banks": [80, 80, 80], "finish_order": [2]})
    given = phone_settle(client, table["edit_url"])
    pairs = held_form(game, Q783_HANDS[0], given["players"])
    kept = settled_in_the_phone(given, [pairs])["hands"][0]["kept"]
    record_through_the_page(client, table, pairs)
    _, read = api(f"tables/{table['id']}", method="GET")
    assert held_recorded(given, kept, read, 2, "zh") is None
    other = held_recorded(given, {**kept, "deltas": [0, 0, 0]}, read, 2, "zh")
    assert other["say"] == "text" and other["values"]["n"] == 2 and other["values"]["phone"] == "甲 0 · 乙 0 · 丙 0"
    refused = held_recorded(given, {"error": "不行"}, read, None, "zh")
    assert refused == {"say": "refused", "values": {"n": 2, "server": other["values"]["server"], "phone": "不行"}}
