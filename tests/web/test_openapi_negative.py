"""The document is no looser than the server: schemathesis draws requests the OpenAPI document forbids (a wrong
type, a value outside an enum or a pattern, a missing required field) and the server must refuse every one
(negative_data_rejection: a 4xx, never a 2xx). Its other half, that a request the document allows is taken or
refused only for a rule the document cannot state (422), is run against a server in docs/api.md."""
from __future__ import annotations

import tempfile

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi import checks as openapi_checks

from webapp import create_app

DB_DIR = tempfile.TemporaryDirectory(prefix="paiju-negative-")
APP = create_app({"TESTING": True, "SECRET_KEY": "negative", "DATABASE_URL": f"sqlite:///{DB_DIR.name}/n.db",
                  "COMPRESS_REGISTER": False})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)
schema.config.generation.update(modes=["negative"])


# the GETs, deleting a table and a new token read only a table id and a token, any strings: no request of
# theirs is forbidden by the document (each refused one has its own test: an unknown table, a wrong token)
@schema.exclude(method="GET").exclude(operation_id=["table_delete", "table_rotate_token"]).parametrize()
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_request_the_document_forbids_is_refused(case):
    case.call_and_validate(checks=[openapi_checks.negative_data_rejection])
