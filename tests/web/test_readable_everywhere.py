"""Nothing a player can't read, on every page and export of a table of every game (issue 26, item 3): no enum or
Python repr, no snake_case key, no None/True/False, no "N号位" where the table knows the player's name, and in
English no full-width punctuation. What a page shows is its text and the words a screen reader speaks (labels,
titles, placeholders); scripts, styles, the advanced raw-data box and the rules pages' API requests (JSON, each
said to be so in words) are not shown as words."""
from __future__ import annotations

import pytest
from readable_words import NAMES, shown, unreadable

from scoring.registry import SLUGS, get_game
from stateful_hands import Table, fitting_hands

pytestmark = pytest.mark.slow  # every page of a table of every game read: left out of `make check`


def evening(client, slug: str) -> tuple[str, str, int]:
    """A table of the game with every worked hand it takes recorded, one undone; its id, token and hands."""
    fewest, most = get_game(slug).seats
    seats, hands = max(((n, fitting_hands(Table(slug, n, None))) for n in range(fewest, most + 1)),
                       key=lambda found: len(found[1]))
    created = client.post("/api/v1/tables", json={"game": slug, "players": NAMES[:seats]}).get_json()
    tid, token = created["id"], created["edit_token"]
    assert hands, slug
    for hand in hands:
        answer = client.post(f"/api/v1/tables/{tid}/hands", json=hand, headers={"X-Edit-Token": token})
        assert answer.status_code == 201, answer.get_json()
    client.get(f"/tables/{tid}/edit/{token}")
    return tid, token, len(hands)


def table_pages(client, tid: str, hands: int) -> list[str]:
    circle = client.get(f"/api/v1/tables/{tid}").get_json()["circle"]
    pages = [f"/tables/{tid}", f"/tables/{tid}/edit", f"/tables/{tid}/settle-up", f"/tables/{tid}/live?v=0",
             f"/tables/{tid}/edit/live?v=0", f"/tables/{tid}/edit/delete", f"/circles/{circle}", "/"]
    for number in range(1, hands + 1):
        pages += [f"/tables/{tid}/edit/hands/{number}", f"/tables/{tid}/edit/hands/{number}/delete"]
    return pages


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_and_export_of_a_table_shows_only_words_a_player_reads(app, client, slug, lang):
    app.config["WTF_CSRF_ENABLED"] = False
    tid, _token, hands = evening(client, slug)
    client.get(f"/lang/{lang}")
    version = client.get(f"/api/v1/tables/{tid}").get_json()["version"]
    undo = client.post(f"/tables/{tid}/edit/undo", data={"version": str(version), "number": str(hands)})
    assert undo.status_code < 400  # the undone hand's banner is shown too
    found = {}
    for path in table_pages(client, tid, hands - 1):
        answer = client.get(path)
        assert answer.status_code == 200, path
        found[path] = unreadable(shown(answer.get_data(as_text=True)), lang)
    refused = client.post(f"/tables/{tid}/edit", data={})  # a next hand saved with nothing filled in
    assert refused.status_code == 422
    found["a failed save"] = unreadable(shown(refused.get_data(as_text=True)), lang)
    circle = client.get(f"/api/v1/tables/{tid}").get_json()["circle"]
    for path in (f"/tables/{tid}/export.csv", f"/circles/{circle}/export.csv"):
        # the circle's export names each evening's table by its id, a random token that may read like snake_case
        found[path] = unreadable(client.get(path).get_data(as_text=True).replace(tid, " "), lang)
    assert not {path: words for path, words in found.items() if words}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_of_a_game_shows_only_words_a_player_reads(client, slug, lang):
    client.get(f"/lang/{lang}")
    game = get_game(slug)
    found = {}
    for path in [f"/{slug}/{tab}" for tab in game.tabs]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        found[path] = unreadable(shown(answer.get_data(as_text=True)), lang, names_known=False)
    assert not {path: words for path, words in found.items() if words}
