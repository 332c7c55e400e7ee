"""The document is no stricter than the server: schemathesis draws requests the OpenAPI document allows (card
text in the notation's pattern, rows that give what they need …) for every calculator operation, and the server
takes each or refuses it only for a rule of the game the document cannot state (positive_data_acceptance: a 2xx
or a 422, never a 400 or a 5xx), and answers as the document's closed answer schemas say (no undeclared field, a
reading of cards included: response_schema_conformance). Its other half is tests/web/test_openapi_negative.py."""
from __future__ import annotations

import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from properties import examples
from schemathesis.specs.openapi.checks import response_schema_conformance

from webapp import create_app

DB_DIR = tempfile.TemporaryDirectory(prefix="paiju-positive-")
APP = create_app({"TESTING": True, "SECRET_KEY": "positive", "DATABASE_URL": f"sqlite:///{DB_DIR.name}/p.db",
                  "COMPRESS_REGISTER": False})


@pytest.fixture(scope="module")
def positive_schema():
    """The document, read when the test runs: schemathesis draws its coverage cases then, on the one worker
    that runs the test, not while every worker collects the tests."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)
    schema.config.generation.update(modes=["positive"])
    schema.config.phases.update(phases=["examples", "fuzzing"])  # its coverage cases: test_openapi_fuzz.py
    return schema


schema = schemathesis.pytest.from_fixture("positive_schema")


# the games' operations (cards appear in all of them but bidding); the ledger's need a table made first and
# have their own tests
@pytest.mark.slow  # the whole document walked: left out of `make check`
@schema.include(path_regex=r"^/api/v1/(?!tables|games|openapi|circles)[a-z0-9]+/").parametrize()
@settings(max_examples=examples(20), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_request_the_document_allows_is_taken_or_refused_by_a_rule_of_the_game_as_the_document_answers(case):
    response = case.call()
    # a rule of the game the document cannot state answers 422 (docs/api.md, "Errors"); nothing else is refused
    assert response.status_code in {200, 422}, (response.status_code, case.body, response.text)
    case.validate_response(response, checks=[response_schema_conformance])
