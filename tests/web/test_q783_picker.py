"""The card picker offers only the cards a field can hold (issue 26): a Q783 hand never holds a score card (5, 10,
K, jokers; A too under ace_scores), so its picker leaves them out; a play's picker keeps them."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest


def pickers(html: str) -> dict[str, dict]:
    out = {}
    for tag in re.findall(r"<(?:input|textarea)[^>]*data-picker=[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag).group(1)
        out[name] = json.loads(unescape(re.search(r'data-picker="([^"]*)"', tag).group(1)))
    return out


@pytest.mark.parametrize("tab", ["check", "hint"])
def test_a_q783_hand_is_offered_no_score_card_and_a_play_is_offered_every_card(client, tab):
    found = pickers(client.get(f"/q783/{tab}").get_data(as_text=True))
    hand = found["hand"]
    assert not {"5", "10", "K"} & set(hand["ranks"]) and hand["jokers"] == []
    assert {"Q", "7", "8", "3", "A"} <= set(hand["ranks"])
    if "play" in found:
        assert {"5", "10", "K"} <= set(found["play"]["ranks"]) and found["play"]["jokers"]


def test_under_ace_scores_a_q783_hand_is_offered_no_ace_either(app, client):
    app.config["WTF_CSRF_ENABLED"] = False  # the rules refresh's own post; CSRF has tests of its own
    html = client.post("/q783/hint", data={"action": "refresh", "rules-ace_scores": "on"}).get_data(as_text=True)
    assert "A" not in pickers(html)["hand"]["ranks"]


def test_other_games_offer_a_hand_every_card_of_their_deck(client):
    hand = pickers(client.get("/paodekuai/hint").get_data(as_text=True))["hand"]
    assert {"5", "10", "K", "A", "2"} <= set(hand["ranks"])
