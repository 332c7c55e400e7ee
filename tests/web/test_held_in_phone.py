"""A hand held on a table page is settled in the phone (offline mode, issue 29 item 3) with what the ledger adds
to the form: the table page's data-phone-settle gives the phone the table's house rules, the number of players
and what the next hand carries, as posted pairs the phone's form reader (webapp/offline_page.py) reads."""
from __future__ import annotations

import html
import json
import re

import pytest

from scoring.registry import all_games, get_game
from webapp.offline_page import Posted, resolved_rules, rules_payload


def phone_settle(client, edit_url: str) -> dict:
    page = client.get(edit_url, follow_redirects=True).get_data(as_text=True)
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
    phone = resolved_rules(game, rules_payload(game, Posted(given["pairs"])))
    assert phone == game.ruleset.resolve(rules)
    assert phone != game.ruleset.resolve({})


def test_the_phone_is_given_the_banks_the_next_q783_hand_carries(client, api):
    status, created = api("tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    token = {"X-Edit-Token": created["edit_token"]}
    status, _ = api(f"tables/{created['id']}/hands", {"banks": [80, 80, 80], "finish_order": [2]}, headers=token)
    assert status == 201
    given = phone_settle(client, created["edit_url"])
    assert given["carried"] == ["banks"]
    assert [p for p in given["pairs"] if p[0].startswith("banks-")] == [["banks-0", "30"], ["banks-1", "30"],
                                                                         ["banks-2", "180"]]
    assert ["players", "3"] in given["pairs"]
    assert given["players"] == ["甲", "乙", "丙"] and given["seats"] == [0, 1, 2]
    assert given["api"] == f"/api/v1/tables/{created['id']}"
