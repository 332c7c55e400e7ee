"""Every reading of cards an action answers holds the fields its core and its game declare (``ActionTable.reading``,
``Game.reading_fields``: ``scoring/answers.py``) and no other, and every declared field is answered by some
play: the closed answer schemas of the API document (``Game.answer_of``) say what the engine answers."""
from __future__ import annotations

import random

import jsonschema
import pytest

from scoring.cards import format_cards
from scoring.errors import PaijuError
from scoring.i18n import render
from scoring.registry import all_games, get_game

#: plays that give each field a game's patterns add (a bomb's kickers, a straight flush's suit, a short airplane,
#: 双扣's four jokers, wild jokers and chain bombs, Q783's 正 and a Q783 whose suits a hint does not know, a
#: trick game's pair and throw), as (game, action, payload)
RARE = [
    ("paodekuai", "classify", {"cards": "♠3 ♥3 ♣3 ♦3"}),
    ("paodekuai", "classify", {"cards": "♥3 ♥4 ♥5 ♥6 ♥7", "rules": {"preset": "zhengshangyou108"}}),
    ("paodekuai", "classify", {"cards": "♠9 ♥9 ♣9 ♦9 ♠3 ♥4",
                               "rules": {"preset": "zhengshangyou108", "bomb_kickers": True}}),
    ("paodekuai", "classify", {"cards": "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5", "rules": {"full_kickers": True}}),
    ("shuangkou", "classify", {"cards": "大王 大王 小王 小王"}),
    ("shuangkou", "check", {"previous": "4 4 5 5 6 6", "play": "7 7 8 9 9 大王"}),
    ("shuangkou", "classify", {"cards": "5 5 5 5 6 6 6 6 7 7 7 7"}),
    ("q783", "check", {"previous": "♠9 ♥9 ♣9 ♦9", "play": "♦Q ♦7 ♦8 ♦3"}),
    ("q783", "hint", {"hand": "Q 7 8 3 4", "previous": "9 9 9"}),
    ("q783", "classify", {"cards": "♠9 ♥9"}),
    ("hongwu", "classify", {"cards": "♠6 ♠6", "trump": "♥"}),
    ("hongwu", "classify", {"cards": "♠A ♠K ♠K", "trump": "♥"}),
    ("erqiwang", "classify", {"cards": "♠6 ♠6", "trump": "♥"}),
    ("erqiwang", "classify", {"cards": "♠A ♠K ♠K", "trump": "♥"}),
]
READING_FIELDS = ("reading", "readings", "table", "smallest_reading")


def readings_in(answer: dict) -> list[dict]:
    found = []
    for name in READING_FIELDS:
        value = answer.get(name)
        found += value if isinstance(value, list) else [value] if value else []
    return found


def declared_reading_fields(game) -> set[str]:
    return {f.name for f in game.actions().reading.fields + game.reading_fields.fields}


def answered(slug: str, action: str, payload: dict) -> dict:
    """The answer, as the API writes it (in English), after it validated against its closed declaration."""
    game = get_game(slug)
    answer = render(game.run(action, payload), "en")
    jsonschema.Draft202012Validator(game.answer_of(action).json_schema()).validate(answer)
    return answer


def tried(slug: str, action: str, payload: dict) -> dict:
    """:func:`answered`, or {} for an input the game refuses (a random hand's score cards in Q783, a bare Q783
    classified …): a refusal says nothing of readings."""
    try:
        return answered(slug, action, payload)
    except PaijuError:
        return {}


def leads(game, seed: int) -> list[tuple[str, dict]]:
    """Hints for the lead from random hands under each preset, and each hinted play classified and checked."""
    rng, out = random.Random(seed), []
    for rules in [None, *({"preset": p.name} for p in game.ruleset.presets)]:
        cards = game.deck_of(game.ruleset.resolve(rules)).all_cards()
        for _ in range(3):
            hand = format_cards(rng.sample(cards, 14))
            extra = {"trump": "♥"} if game.kind == "trick" else {}
            out.append(("hint", {"hand": hand, "previous" if game.kind != "trick" else "lead": None, **extra,
                                 "rules": rules}))
            out.append(("classify", {"cards": hand, **extra, "rules": rules}))
    return out


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_every_reading_a_game_answers_has_only_its_declared_fields_and_each_is_answered(slug):
    game, seen = get_game(slug), set()
    cases = [(action, payload) for s, action, payload in RARE if s == slug] + leads(game, 39)
    for action, payload in cases:
        answer = tried(slug, action, payload)
        kept = {k: payload[k] for k in ("trump", "rules") if k in payload}
        plays = [tried(slug, "classify", {"cards": play, **kept}) for play in (answer.get("plays") or [])[:40]]
        for reading in [r for a in (answer, *plays) for r in readings_in(a)]:
            seen |= set(reading)
    assert seen == declared_reading_fields(game)


def test_a_reading_with_a_field_its_game_does_not_declare_is_refused():
    schema = get_game("q783").answer_of("check").json_schema()
    answer = answered("q783", "check", {"previous": "♠9 ♥9 ♣9 ♦9", "play": "♦Q ♦7 ♦8 ♦3"})
    jsonschema.validate(answer, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**answer, "reading": {**answer["reading"], "lines": 7}}, schema)
