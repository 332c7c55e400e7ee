"""Offline mode (issue 29): Paiju serves the Pyodide runtime from its own address, only the runtime's files."""
from __future__ import annotations

import pytest

from webapp.pwa import RUNTIME_DIR

def test_the_runtime_is_served_from_paiju_itself(client):
    assert (RUNTIME_DIR / "pyodide.asm.wasm").is_file(), "run .ci/ensure-pyodide.sh (make pyodide; make test does)"
    resp = client.get("/offline-engine/pyodide/pyodide.asm.wasm")
    assert resp.status_code == 200
    assert resp.get_data()[:4] == b"\0asm"


@pytest.mark.parametrize("name", ["package.json", "VERSION", "..%2F..%2Fpyproject.toml", "nothing.js"])
def test_only_the_runtime_files_are_served(client, name):
    assert client.get(f"/offline-engine/pyodide/{name}").status_code == 404


def test_the_engine_the_phone_runs_is_the_repos_scoring_package_byte_for_byte(client):
    import io
    import zipfile
    from pathlib import Path

    import scoring

    resp = client.get("/offline-engine/scoring.zip")
    assert resp.status_code == 200
    package = Path(scoring.__file__).parent
    repo_files = {f"scoring/{p.relative_to(package).as_posix()}": p.read_bytes()
                  for p in package.rglob("*.py") if "__pycache__" not in p.parts}
    with zipfile.ZipFile(io.BytesIO(resp.get_data())) as archive:
        served = {name: archive.read(name) for name in archive.namelist()}
    assert served == repo_files
    assert "scoring/registry.py" in served
