"""schemathesis hooks for the CLI run against a server (.ci/schemathesis.toml): in the stateful phase, a hand
recorded or edited is a game's worked hand, and a hand recorded on a table the run made fits that table's game
(tests/web/stateful_hands.py says why: the OpenAPI document cannot say which game a table plays). The unit
phases draw every body from the document, untouched. Load them with
``SCHEMATHESIS_HOOKS=.ci/schemathesis_hooks.py``."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

import schemathesis
from schemathesis.generation.meta import TestPhase
from stateful_hands import Tables, walk_bodies

TABLES = Tables()
#: whether the stateful phase has begun (the phases run one after the other; a hook sees no phase while drawing)
WALKING = []


@schemathesis.hook
def before_generate_body(context, strategy):
    if not WALKING:
        return strategy
    return walk_bodies((context.operation.method.upper(), context.operation.path), strategy)


@schemathesis.hook
def before_call(context, case, kwargs):
    if not WALKING and case.meta is not None and case.meta.phase.name == TestPhase.STATEFUL:
        WALKING.append(True)
    TABLES.fit(case)


@schemathesis.hook
def after_call(context, case, response):
    TABLES.learn(case, response)
