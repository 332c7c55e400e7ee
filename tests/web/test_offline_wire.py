"""Offline mode on the wire (issue 42): the runtime goes precompressed in the encoding the browser accepts (else
as it is), and the standard library the phone gets is the engine's part of Pyodide's, which holds every module
the engine imports, compiled by the runtime itself."""
from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli
import pytest

from webapp import pwa
from webapp.offline_stdlib import COMPILED, MODULES, module_of, stamp, stdlib_zip
from webapp.pwa import RUNTIME_DIR

pytestmark = pytest.mark.shared_app

WASM = "/offline-engine/pyodide/pyodide.asm.wasm"
ROOT = Path(__file__).resolve().parents[2]


def runtime_wasm() -> bytes:
    return (RUNTIME_DIR / "pyodide.asm.wasm").read_bytes()


@pytest.mark.parametrize(("accepted", "coding", "unpack"), [
    ("gzip, deflate, br, zstd", "br", brotli.decompress),
    ("gzip, deflate", "gzip", gzip.decompress),
    ("", None, bytes),
])
def test_the_webassembly_goes_in_the_smallest_encoding_the_browser_accepts_else_as_it_is(client, accepted, coding,
                                                                                         unpack):
    packed = RUNTIME_DIR / f"pyodide.asm.wasm.{'br' if coding == 'br' else 'gz'}"
    # a check that quietly does not run is no check: make test (.ci/ensure-pyodide.sh) makes the packed files
    assert not coding or packed.is_file(), f"{packed} is missing: run `sh .ci/ensure-pyodide.sh` (make test does)"
    resp = client.get(WASM, headers={"Accept-Encoding": accepted})
    assert resp.status_code == 200
    assert resp.headers.get("Content-Encoding") == coding
    assert resp.mimetype == "application/wasm"
    assert "Accept-Encoding" in resp.headers.get("Vary", "")
    body = resp.get_data()
    assert unpack(body) == runtime_wasm()
    if coding:
        assert len(body) < len(runtime_wasm()) / 2


def stdlib_modules(body: bytes) -> set[str]:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        return {module_of(name) for name in archive.namelist()} - {None}


def test_the_standard_library_the_phone_gets_is_the_engines_part_of_the_runtimes_compiled_by_the_runtime(client):
    """Each module compiled by the runtime's own CPython (.ci/compile-for-phone.mjs) where it compiles, else
    its source; stored in the zip, compressed as a whole on the wire, to less than half the runtime's zip."""
    compiled_path = RUNTIME_DIR / COMPILED
    assert compiled_path.is_file(), f"{compiled_path} is missing: run `sh .ci/ensure-pyodide.sh` (make test does)"
    manifest = client.get("/offline-engine/manifest.json").get_json()
    assert manifest["stdlib"] in manifest["files"]
    assert not [url for url in manifest["files"] if url.endswith("python_stdlib.zip")]
    body = client.get(manifest["stdlib"], headers={"Accept-Encoding": ""}).get_data()
    full = (RUNTIME_DIR / "python_stdlib.zip").read_bytes()
    with zipfile.ZipFile(io.BytesIO(body)) as kept, zipfile.ZipFile(io.BytesIO(full)) as whole, \
            zipfile.ZipFile(compiled_path) as compiled:
        sources, pycs = set(whole.namelist()), set(compiled.namelist())
        for info in kept.infolist():
            assert info.compress_type == zipfile.ZIP_STORED
            if info.filename.endswith(".pyc"):
                assert info.filename[:-1] in sources
                assert kept.read(info) == compiled.read(info.filename)
            else:
                assert info.filename + "c" not in pycs
                assert kept.read(info) == whole.read(info.filename)
        assert any(name.endswith(".pyc") for name in kept.namelist())
        modules = {module_of(name[:-1] if name.endswith(".pyc") else name) for name in kept.namelist()}
    assert modules == MODULES & stdlib_modules(full)
    wire = client.get(manifest["stdlib"], headers={"Accept-Encoding": "gzip, deflate, br"})
    assert wire.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in wire.headers.get("Vary", "")
    assert brotli.decompress(wire.get_data()) == body
    assert len(wire.get_data()) < len(full) / 2
    gzipped = client.get(manifest["stdlib"], headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(gzipped.get_data()) == body


def test_a_module_the_compiled_library_lacks_goes_to_the_phone_as_its_source(tmp_path):
    """(a module the runtime's CPython could not compile, or a runtime whose library was not compiled: no Node)"""
    full, compiled = tmp_path / "python_stdlib.zip", tmp_path / COMPILED
    with zipfile.ZipFile(full, "w") as archive:
        for name in ("json/__init__.py", "json/decoder.py", "tkinter/__init__.py"):
            archive.writestr(name, f"# {name}\n")
    with zipfile.ZipFile(compiled, "w") as archive:
        archive.writestr("json/__init__.pyc", b"compiled")
    with zipfile.ZipFile(io.BytesIO(stdlib_zip(full, stamp(full)))) as kept:
        assert sorted(kept.namelist()) == ["json/__init__.pyc", "json/decoder.py"]
        assert kept.read("json/__init__.pyc") == b"compiled"
    compiled.unlink()
    with zipfile.ZipFile(io.BytesIO(stdlib_zip(full, stamp(full)))) as kept:
        assert sorted(kept.namelist()) == ["json/__init__.py", "json/decoder.py"]


#: run in a fresh CPython: the standard library's modules imported by importing the engine and the page glue
#: (as the phone does, outside webapp/), and then by answering every binding example through the glue
IMPORTED = """
import importlib.util, json, sys
before = set(sys.modules)
sys.path.insert(0, "ROOT")
import scoring.registry
spec = importlib.util.spec_from_file_location("paiju_offline", "ROOT/webapp/offline_page.py")
glue = importlib.util.module_from_spec(spec); spec.loader.exec_module(glue)
by_import = set(sys.modules) - before
sys.path.insert(0, "ROOT/tests")
from binding_examples import EXAMPLES
from offline_forms import as_entered, entered_pairs
helpers = set(sys.modules)
for example in EXAMPLES:
    tab, payload = as_entered(example)
    for lang in ("zh", "en"):
        glue.answer_json(example.slug, tab, json.dumps(entered_pairs(example.slug, tab, payload)), lang)
print(json.dumps(sorted(by_import | (set(sys.modules) - helpers))))
"""


def test_every_standard_module_the_engine_imports_to_answer_every_binding_example_is_kept():
    out = subprocess.run([sys.executable, "-c", IMPORTED.replace("ROOT", str(ROOT))], check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout
    imported = set(json.loads(out.splitlines()[-1]))
    with zipfile.ZipFile(RUNTIME_DIR / "python_stdlib.zip") as archive:
        standard = {module_of(name) for name in archive.namelist()} - {None}
    assert (imported & standard) - MODULES == set()


def test_the_engine_compiled_by_the_runtime_holds_each_module_and_the_manifest_lists_it_for_these_sources_only(
        client, tmp_path, monkeypatch):
    """.ci/compile-for-phone.mjs compiles scoring/ and the glue with the runtime's CPython (Node), the layout the
    phone unpacks beside the sources; the manifest lists it, and the server sends it compressed, only while it is
    the compiled form of the sources as they are (its ``?v=`` names them); without it the phone compiles them."""
    sources, compiled = tmp_path / "engine-src.zip", tmp_path / "engine.pyc.zip"
    sources.write_bytes(pwa.engine_sources_zip())
    subprocess.run(["node", str(ROOT / ".ci/compile-for-phone.mjs"), str(RUNTIME_DIR), "engine", str(sources),
                    str(compiled)], check=True, cwd=ROOT, capture_output=True)
    with zipfile.ZipFile(sources) as source, zipfile.ZipFile(compiled) as archive:
        wanted = {f"{name.rpartition('/')[0]}/__pycache__/{name.rpartition('/')[2][:-3]}.cpython-314.pyc".lstrip("/")
                  for name in source.namelist() if name.endswith(".py")}
        assert set(archive.namelist()) == wanted
        assert all(archive.read(name)[4:8] == b"\x01\x00\x00\x00" for name in wanted)  # hash-based, unchecked
    monkeypatch.setattr(pwa, "compiled_engine_path", lambda: compiled)
    manifest = client.get("/offline-engine/manifest.json").get_json()
    assert manifest["compiled"] == f"/offline-engine/engine-pyc.zip?v={pwa.compiled_engine_key()}"
    assert manifest["compiled"] in manifest["files"]
    sent = client.get(manifest["compiled"], headers={"Accept-Encoding": "br"})
    assert sent.headers["Content-Encoding"] == "br" and brotli.decompress(sent.get_data()) == compiled.read_bytes()
    assert client.get("/offline-engine/engine-pyc.zip?v=0123456789ab").status_code == 404  # other sources'
    monkeypatch.setattr(pwa, "compiled_engine_path", lambda: tmp_path / "never-made.pyc.zip")
    assert "compiled" not in client.get("/offline-engine/manifest.json").get_json()
    assert client.get(manifest["compiled"]).status_code == 404
