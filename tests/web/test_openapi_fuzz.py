"""schemathesis against the app in process: every operation of /api/v1/openapi.json, bounded examples,
strings over the whole of Unicode (lone surrogates included); zero 5xx, answers that match the document."""
from __future__ import annotations

import functools
import re
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from properties import examples
from schemathesis import checks
from schemathesis.specs.openapi import checks as openapi_checks

from webapp import create_app

#: every code point, lone surrogates and control characters included (schemathesis leaves surrogates out)
ANY_CHARACTER = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
NASTY_TEXT = st.one_of(st.text(ANY_CHARACTER, max_size=12),
                       st.sampled_from(["\ud800", "a\udfff", "²", "¹", "--1", "+-1", "\x00", "\u202e", "1e400",
                                        "NaN", " 1 ", "٣", "１"]))
CHECKS = [checks.not_a_server_error, openapi_checks.status_code_conformance,
          openapi_checks.content_type_conformance, openapi_checks.response_schema_conformance]


def with_nasty_strings(value, choices):
    """``value`` with each string replaced by the matching drawn choice (None: kept)."""
    if isinstance(value, str):
        drawn = next(choices)
        return value if drawn is None else drawn
    if isinstance(value, dict):
        return {k: with_nasty_strings(v, choices) for k, v in value.items()}
    if isinstance(value, list):
        return [with_nasty_strings(v, choices) for v in value]
    return value


def count_strings(value) -> int:
    if isinstance(value, str):
        return 1
    if isinstance(value, dict):
        return sum(count_strings(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_strings(v) for v in value)
    return 0


#: the app on a fresh SQLite file, for the whole module (schemathesis loads its document at import)
DB_DIR = tempfile.TemporaryDirectory(prefix="paiju-fuzz-")
# the in-process client does not undo gzip: the document is checked on the bodies as the views produce them
APP = create_app({"TESTING": True, "SECRET_KEY": "fuzz", "DATABASE_URL": f"sqlite:///{DB_DIR.name}/fuzz.db",
                  "COMPRESS_REGISTER": False})


@functools.cache
def ledger_table() -> tuple[str, str]:
    """One 跑得快 table with a hand: its id and edit token (made on first use, inside a test)."""
    client = APP.test_client()
    resp = client.post("/api/v1/tables", json={"game": "paodekuai", "players": ["甲", "乙", "丙", "丁"]})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    created = resp.get_json()
    client.post(f"/api/v1/tables/{created['id']}/hands", json={"winner": 0, "cards_left": [0, 3, 4, 5]},
                headers={"X-Edit-Token": created["edit_token"]})
    return created["id"], created["edit_token"]


def flatmap_body(context, body):
    n = count_strings(body)
    if not n:
        return st.just(body)
    picks = st.lists(st.one_of(st.none(), NASTY_TEXT), min_size=n, max_size=n)
    return picks.map(lambda drawn: with_nasty_strings(body, iter(drawn)))


def flatmap_path_parameters(context, path_parameters):
    """Mostly the real table, sometimes the generated id."""
    if "table_id" not in (path_parameters or {}):
        return st.just(path_parameters)
    table_id, _ = ledger_table()
    return st.sampled_from([table_id, table_id, path_parameters["table_id"]]).map(
        lambda chosen: {**path_parameters, "table_id": chosen})


def flatmap_headers(context, headers):
    """Mostly the real edit token on the ledger's writes, sometimes the generated one."""
    headers = dict(headers or {})
    if "X-Edit-Token" not in headers:
        return st.just(headers)
    _, token = ledger_table()
    return st.sampled_from([token, token, headers["X-Edit-Token"]]).map(
        lambda chosen: {**headers, "X-Edit-Token": chosen})


@pytest.fixture(scope="module")
def fuzz_schema():
    """The document with the hooks above, read when the test runs: schemathesis draws its coverage cases then,
    on the one worker that runs the test, not while every worker collects the tests."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)
    for hook in (flatmap_body, flatmap_path_parameters, flatmap_headers):
        schema.hook(hook)
    return schema


schema = schemathesis.pytest.from_fixture("fuzz_schema")


#: the operations test_openapi_positive.py and test_openapi_negative.py ask (their docstrings say why)
GAME_OPERATION = re.compile(r"^/api/v1/(?!tables|games|openapi|circles)[a-z0-9]+/")
TAKES_ANY_STRINGS = {"table_delete", "table_rotate_token"}


def is_coverage(case, mode: str) -> bool:
    return case.meta.phase.name == "coverage" and case.meta.generation.mode.value == mode


def asked_by_the_negative_module(case) -> bool:
    return (is_coverage(case, "negative") and case.method.upper() != "GET"
            and case.operation.definition.raw.get("operationId") not in TAKES_ANY_STRINGS)


def asked_by_the_positive_module(case) -> bool:
    return is_coverage(case, "positive") and GAME_OPERATION.match(case.operation.path) is not None


@pytest.mark.slow  # the whole document walked: left out of `make check`
@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_api_operation_answers_a_server_error_or_leaves_the_document(case):
    """Also the coverage cases' half of the positive and negative modules' rules (schemathesis draws its coverage
    cases once, here; those modules fuzz): a forbidden request is refused, an allowed one on a game's operation
    is taken or refused by a rule of the game (422)."""
    negative = [openapi_checks.negative_data_rejection] if asked_by_the_negative_module(case) else []
    response = case.call_and_validate(checks=CHECKS + negative)
    if asked_by_the_positive_module(case):
        assert response.status_code in {200, 422}, (response.status_code, case.body, response.text)
