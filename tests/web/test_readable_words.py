"""Nothing a player can't read: no enum, code name or Python repr on any page or export of a table, in either
language (issue 26)."""
from __future__ import annotations

import json
import re

import pytest

from scoring.registry import SLUGS, get_game

CODE_NAME = re.compile(r"\b[A-Z][a-z]+\.[A-Z][A-Z_]+\b")  # Suit.SPADES, Payout.TIERS_321


@pytest.fixture
def erqiwang_table(app, client):
    app.config["WTF_CSRF_ENABLED"] = False
    created = client.post("/api/v1/tables", json={"game": "erqiwang", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    tid, token = created["id"], created["edit_token"]
    hand = {"declarer": 0, "bid": 60, "defender_points": 40, "trump": "♠",
            "chongguan": [{"seat": 1, "trump": "♥", "jokers": 1}]}
    assert client.post(f"/api/v1/tables/{tid}/hands", json=hand, headers={"X-Edit-Token": token}).status_code == 201
    client.get(f"/tables/{tid}/edit/{token}")
    return tid


@pytest.mark.parametrize("lang,suit", [("zh", "黑桃"), ("en", "spades")])
def test_a_chosen_trump_suit_shows_in_words_on_every_page_and_export(client, erqiwang_table, lang, suit):
    tid = erqiwang_table
    client.get(f"/lang/{lang}")
    for path in (f"/tables/{tid}", f"/tables/{tid}/edit", f"/tables/{tid}/export.csv", f"/tables/{tid}/live?v=0",
                 f"/tables/{tid}/edit/hands/1", f"/tables/{tid}/settle-up"):
        text = client.get(path).get_data(as_text=True)
        assert not CODE_NAME.findall(text), (path, CODE_NAME.findall(text))
    csv = client.get(f"/tables/{tid}/export.csv").get_data(as_text=True)
    assert suit in csv.lower()
    version = client.get(f"/api/v1/tables/{tid}").get_json()["version"]
    assert client.post(f"/tables/{tid}/edit/undo", data={"version": str(version), "number": "1"}).status_code < 400
    undone = client.get(f"/tables/{tid}/edit").get_data(as_text=True)
    assert not CODE_NAME.findall(undone)


def test_the_english_header_names_the_app_once(client):
    client.get("/lang/en")
    header = re.search(r'<a class="brand"[^>]*>(.*?)</a>', client.get("/").get_data(as_text=True), re.S).group(1)
    assert re.sub(r"<[^>]+>", "", header).split() == ["Paiju"]
    client.get("/lang/zh")
    header = re.search(r'<a class="brand"[^>]*>(.*?)</a>', client.get("/").get_data(as_text=True), re.S).group(1)
    assert re.sub(r"<[^>]+>", "", header).split() == ["牌局", "Paiju"]


def test_the_english_undo_banner_uses_english_brackets(client, erqiwang_table):
    tid = erqiwang_table
    client.get("/lang/en")
    version = client.get(f"/api/v1/tables/{tid}").get_json()["version"]
    assert client.post(f"/tables/{tid}/edit/undo", data={"version": str(version), "number": "1"}).status_code < 400
    banner = re.search(r"Hand 1 undone.*?</p>", client.get(f"/tables/{tid}/edit").get_data(as_text=True), re.S)
    assert banner and "（" not in banner.group(0) and "）" not in banner.group(0) and " (" in banner.group(0)


@pytest.mark.parametrize("path", ["/hongwu/settle", "/erqiwang/settle", "/hongwu/rules", "/erqiwang/rules",
                                  "/hongwu/rounds"])
def test_english_pages_name_the_roles_in_english_with_the_chinese_term_beside(client, path):
    client.get("/lang/en")
    text = client.get(path).get_data(as_text=True)
    assert "the 庄家" not in text and "the 闲家" not in text
    assert "declarer (庄家)" in text or "defenders (闲家)" in text


BARE_TERM = re.compile(r"(?<!\()(庄家|闲家)")


@pytest.mark.parametrize("slug", SLUGS)
def test_english_answers_name_the_declarer_and_the_defenders_in_english_with_the_chinese_in_brackets(client, slug):
    """"the declarer (庄家)", "each defender (闲家)": never a bare 庄家 or 闲家 in an English answer."""
    game = get_game(slug)
    words = []
    for action, _title, payload in game.examples:
        resp = client.post(f"/api/v1/{slug}/{action}", json=payload, headers={"Accept-Language": "en"})
        words.append(json.dumps(resp.get_json(), ensure_ascii=False))
    if "bidding" in game.action_names():
        for bids in ([60, "pass", "pass", "pass"], ["pass", "pass", "pass", "pass"], [100]):
            resp = client.post(f"/api/v1/{slug}/bidding", json={"bids": bids}, headers={"Accept-Language": "en"})
            words.append(json.dumps(resp.get_json(), ensure_ascii=False))
    bare = [m.group(0) for text in words for m in BARE_TERM.finditer(text)]
    assert not bare, [text for text in words if BARE_TERM.search(text)][:2]
