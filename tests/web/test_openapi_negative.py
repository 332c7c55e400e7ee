"""The document is no looser than the server: schemathesis draws requests the OpenAPI document forbids (a wrong
type, a value outside an enum or a pattern, a missing required field) and the server must refuse every one
(negative_data_rejection: a 4xx, never a 2xx). Its other half, that a request the document allows is taken or
refused only for a rule the document cannot state (422), is run against a server in docs/api.md."""
from __future__ import annotations

import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from properties import examples
from schemathesis.specs.openapi import checks as openapi_checks

from webapp import create_app

DB_DIR = tempfile.TemporaryDirectory(prefix="paiju-negative-")
APP = create_app({"TESTING": True, "SECRET_KEY": "negative", "DATABASE_URL": f"sqlite:///{DB_DIR.name}/n.db",
                  "COMPRESS_REGISTER": False})


@pytest.fixture(scope="module")
def negative_schema():
    """The document, read when the test runs (its coverage cases drawn on one worker, not at every collection)."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)
    schema.config.generation.update(modes=["negative"])
    schema.config.phases.update(phases=["examples", "fuzzing"])  # its coverage cases: test_openapi_fuzz.py
    return schema


schema = schemathesis.pytest.from_fixture("negative_schema")


# the GETs, deleting a table and a new token read only a table id and a token, any strings: no request of
# theirs is forbidden by the document (each refused one has its own test: an unknown table, a wrong token)
@pytest.mark.slow  # the whole document walked: left out of `make check`
@schema.exclude(method="GET").exclude(operation_id=["table_delete", "table_rotate_token"]).parametrize()
@settings(max_examples=examples(20), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_request_the_document_forbids_is_refused(case):
    case.call_and_validate(checks=[openapi_checks.negative_data_rejection])


def test_a_lead_is_refused_a_previous_reading_that_is_not_a_whole_number():
    """schemathesis found it: with no play on the table the reading of that play was never read, so an array
    there was a 200 though the document allows only a whole number."""
    client = APP.test_client()
    for slug in ("paodekuai", "shuangkou", "q783"):
        for action, body in (("check", {"play": "♠3"}), ("hint", {"hand": "♠3 ♥4"})):
            for previous in ({}, {"previous": None}):
                out = client.post(f"/api/v1/{slug}/{action}", json={**body, **previous, "previous_reading": [1]})
                assert out.status_code == 400, (slug, action, previous)
                assert out.get_json()["error"]["field"] == "previous_reading"
