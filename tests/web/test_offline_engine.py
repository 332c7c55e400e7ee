"""Offline mode (issue 29): Paiju serves the Pyodide runtime from its own address, only the runtime's files."""
from __future__ import annotations

import pytest

from webapp.pwa import RUNTIME_DIR

needs_runtime = pytest.mark.skipif(not (RUNTIME_DIR / "pyodide.asm.wasm").is_file(),
                                   reason="run .ci/ensure-pyodide.sh (make pyodide) first")


@needs_runtime
def test_the_runtime_is_served_from_paiju_itself(client):
    resp = client.get("/offline-engine/pyodide/pyodide.asm.wasm")
    assert resp.status_code == 200
    assert resp.get_data()[:4] == b"\0asm"


@pytest.mark.parametrize("name", ["package.json", "VERSION", "..%2F..%2Fpyproject.toml", "nothing.js"])
def test_only_the_runtime_files_are_served(client, name):
    assert client.get(f"/offline-engine/pyodide/{name}").status_code == 404
