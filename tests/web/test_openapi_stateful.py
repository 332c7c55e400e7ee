"""Schemathesis's stateful phase in process: sequences of requests that follow the document's links (a table
made, its edit token, a hand written, a new token) run every check on every answer, and the walk reaches the
table's own steps through those links: read it, rotate its token, open the next evening, settle up, delete it.
(Recording, editing and deleting a hand are not reached this way yet: a drawn hand body seldom fits the game
the drawn table plays, and the links cannot tie the two; their answers are checked by the other OpenAPI tests.)"""
from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from webapp import create_app

DB_DIR = tempfile.TemporaryDirectory(prefix="paiju-stateful-")
APP = create_app({"TESTING": True, "SECRET_KEY": "stateful", "DATABASE_URL": f"sqlite:///{DB_DIR.name}/s.db",
                  "COMPRESS_REGISTER": False, "LEDGER_CREATE_LIMIT": "1000000 per minute",
                  "LEDGER_WRITE_LIMIT": "1000000 per minute"})
# the CI run's own configuration: a 422 answers schema-valid input that breaks a rule the schema cannot state
CONFIG = schemathesis.config.SchemathesisConfig.from_path(str(Path(__file__).parents[2] / ".ci" / "schemathesis.toml"))
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP, config=CONFIG)

#: the table's own steps, by the operation that takes each
TABLE_STEPS = {"read it": ("GET", "/api/v1/tables/{table_id}"),
               "rotate its token": ("POST", "/api/v1/tables/{table_id}/token"),
               "open the next evening": ("POST", "/api/v1/tables/{table_id}/next-evening"),
               "settle up": ("GET", "/api/v1/tables/{table_id}/settle-up"),
               "delete it": ("DELETE", "/api/v1/tables/{table_id}")}


def test_requests_that_follow_the_links_pass_every_check_and_reach_each_of_a_table_s_own_steps():
    answered: set[tuple[str, str]] = set()

    class Workflow(schema.as_state_machine()):
        def after_call(self, response, case):
            if 200 <= response.status_code < 300:
                answered.add((case.method.upper(), case.path))

    run_state_machine_as_test(Workflow, settings=settings(
        max_examples=60, stateful_step_count=10, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck)))
    missing = [step for step, operation in TABLE_STEPS.items() if operation not in answered]
    assert missing == [], f"never answered 2xx through a link: {missing}; answered: {sorted(answered)}"
