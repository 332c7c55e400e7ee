"""The examples a rules page quotes in its reading notes are the engine's answers: each is sent through the
HTTP API (the binding examples of docs/rules for those readings), and the page shows the same deltas, in zh
and en, inside a reading note."""
from __future__ import annotations

import re

import pytest

Q783_SOLO = {"players": 4, "teams": False, "banks": [100] * 4}

# (game, API body, deltas): the examples of the readings new in issue 27 that the pages quote.
QUOTED = [
    ("q783", {**Q783_SOLO, "finish_order": [3], "rules": {"winner": "points", "penalty": 50},
              "rounds": [{"winner": 1, "cards": "♠Q"}, {"winner": 2, "cards": "♠4 ♥4 ♣4 ♦4"}]},
     [-95, -75, 265, -95]),
    ("q783", {**Q783_SOLO, "finish_order": [3], "rules": {"winner": "points", "penalty": 50},
              "rounds": [{"winner": 1, "cards": "♠Q"}, {"winner": 2, "cards": "♠Q ♥Q"}]},
     [-10, 10, 10, -10]),
    ("q783", {**Q783_SOLO, "banks": [10, 100, 100, 100], "finish_order": [1],
              "rounds": [{"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4"}]},
     [-10, 90, -40, -40]),
    ("erqiwang", {"declarer": 0, "bid": 80, "defender_points": 50, "rules": {"sides": "solo"},
                  "chongguan": [{"seat": 1, "jokers": 3, "trump7_pairs": 1}]},
     [1, 5, -3, -3]),
    ("erqiwang", {"declarer": 0, "bid": 80, "defender_points": 50, "surrender": True, "bottom_points": 20,
                  "last_trick": "pair", "rules": {"bottom_bonus": "on"}},
     [-1, 1, -1, 1]),
    ("hongwu", {"declarer": 0, "bid": 120, "declarer_points": 205, "rules": {"preset": "tiers_321", "decks": 3,
                                                                             "base": 2}},
     [6, -2, -2, -2]),
    ("hongwu", {"declarer": 0, "bid": 120, "declarer_points": 210, "rules": {"preset": "tiers_321", "decks": 3,
                                                                             "base": 2}},
     [12, -4, -4, -4]),
    ("hongwu", {"declarer": 0, "bid": 120, "declarer_points": 100, "red_fives": [{"owner": 1, "captured_by": 0}],
                "rules": {"preset": "tiers_321", "base": 2}},
     [8, -4, -2, -2]),
]
NOTE = re.compile(r'<span class="reading-note">(.*?)</span>', re.DOTALL)
JOIN = {"zh": "、", "en": ", "}


def as_page_writes(deltas: list[int], lang: str) -> str:
    """Deltas the way the prose writes them: +265, −95 (a real minus sign), 0."""
    return JOIN[lang].join(f"+{d}" if d > 0 else f"−{-d}" if d < 0 else "0" for d in deltas)


def test_page_writing_of_deltas():
    assert as_page_writes([-95, 0, 265], "zh") == "−95、0、+265"
    assert as_page_writes([1, -3], "en") == "+1, −3"


@pytest.mark.parametrize(("slug", "body", "deltas"), QUOTED)
def test_an_example_quoted_in_a_reading_is_what_the_api_answers(api, slug, body, deltas):
    status, out = api(f"{slug}/settle", body)
    assert status == 200, out
    assert out["deltas"] == deltas


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("slug", "body", "deltas"), QUOTED)
def test_the_rules_page_quotes_the_same_deltas_in_a_reading(client, slug, body, deltas, lang):
    client.get(f"/lang/{lang}")
    notes = NOTE.findall(client.get(f"/{slug}/rules").get_data(as_text=True))
    assert any(as_page_writes(deltas, lang) in note for note in notes), as_page_writes(deltas, lang)
