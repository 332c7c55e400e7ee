"""Every binding example of the rules that is one request (tests/binding_examples.py), through the HTTP API: the
answer holds what the rules say."""
from __future__ import annotations

from collections import Counter

import pytest
from binding_examples import EXAMPLES, NOT_ONE_REQUEST, Example

from scoring.registry import all_games

pytestmark = pytest.mark.shared_app

MISSING = object()


def at(body, path: str):
    """The field of ``body`` that ``path`` names (``readings.0.lines``), or MISSING."""
    node = body
    for key in path.split("."):
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            return MISSING
    return node


def status_matches(expected, status: int) -> bool:
    return status in (400, 422) if expected == "4xx" else status == expected


def mismatches(example: Example, status: int, body) -> list[str]:
    wanted = dict(example.expected)
    want_status = wanted.pop("status", 200)
    out = [] if status_matches(want_status, status) else [f"status {status}, the rules say {want_status}"]
    for path, value in wanted.items():
        got = at(body, path)
        if got is MISSING or got != value or type(got) is not type(value):
            out.append(f"{path}: {got if got is not MISSING else 'missing'!r}, the rules say {value!r}")
    return out


def example_id(example: Example) -> str:
    return f"{example.slug}-{example.action}-{EXAMPLES.index(example)}"


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_each_binding_example_gives_what_the_rules_say(api, example):
    status, body = api(f"{example.slug}/{example.action}", example.payload)
    assert not mismatches(example, status, body), (example.source, body)


def test_every_example_names_a_rules_file_a_game_and_one_of_its_actions():
    actions = {game.slug: set(game.action_names()) for game in all_games()}
    files = {"common.md", "paodekuai.md", "shuangkou.md", "q783.md", "hongwu.md", "erqiwang.md", "variants.md"}
    for example in EXAMPLES:
        assert example.action in actions[example.slug], example.source
        assert example.rules_file in files and "§" in example.source, example.source
        assert example.expected, example.source


def test_the_catalogue_holds_each_example_once():
    seen = Counter((e.slug, e.action, repr(sorted(e.payload.items()))) for e in EXAMPLES)
    assert [key for key, n in seen.items() if n > 1] == []


def test_every_rules_file_gives_examples_and_the_rest_say_where_they_are_tested():
    assert {e.rules_file for e in EXAMPLES} == {"common.md", "paodekuai.md", "shuangkou.md", "q783.md",
                                               "hongwu.md", "erqiwang.md", "variants.md"}
    assert all(what and where for what, where in NOT_ONE_REQUEST)


@pytest.mark.parametrize(("expected", "body", "wrong"), [
    ({"deltas": [1, -1]}, {"deltas": [1, -1, 0]}, True),
    ({"legal": False}, {"legal": None}, True),
    ({"legal": True}, {"legal": 1}, True),
    ({"readings.0.lines": 9}, {"readings": []}, True),
    ({"readings.0.lines": 9}, {"readings": [{"lines": 9}]}, False),
])
def test_an_answer_that_differs_from_the_rules_is_caught(expected, body, wrong):
    example = Example("paodekuai", "check", {}, expected, "paodekuai.md §x")
    assert bool(mismatches(example, 200, body)) is wrong
