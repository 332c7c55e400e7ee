"""What .ci/ensure-pyodide.sh prepares for the phone beside the runtime (``python -m webapp.offline_compiled``,
issue 42): the engine's sources as the phone unpacks them, for the runtime's CPython to compile, and the standard
library's part as the server makes it, for the script to compress at its best; and the standard library's part
compressed by the server itself where the script did not (no Node, or a new runtime since)."""
from __future__ import annotations

import gzip
import zipfile

import brotli
import pytest

from webapp import offline_compiled, pwa
from webapp.offline_stdlib import stamp, stdlib_packed, stdlib_zip


@pytest.fixture
def script(tmp_path, monkeypatch):
    """The script writing into ``tmp_path`` instead of the runtime's directory; the kept standard library's file."""
    kept = tmp_path / "stdlib-test.zip"
    monkeypatch.setattr(offline_compiled, "RUNTIME_DIR", tmp_path)
    monkeypatch.setattr(offline_compiled, "stdlib_path", lambda: kept)
    return kept


def test_the_script_writes_the_engine_sources_the_phone_unpacks_and_names_the_compiled_engine_first(
        script, tmp_path, capsys):
    assert offline_compiled.main() == 0
    with zipfile.ZipFile(tmp_path / "engine-src.zip") as archive:
        names = set(archive.namelist())
    assert {"paiju_offline.py", "scoring/__init__.py", "scoring/cards.py"} <= names  # the glue, where the worker puts it
    assert script.read_bytes() == pwa.engine_stdlib()
    assert capsys.readouterr().out.split() == [pwa.compiled_engine_path().name, script.name]


def test_a_standard_library_part_the_script_kept_before_is_not_written_again(script):
    script.write_bytes(b"kept, perhaps compressed beside it already")
    offline_compiled.main()
    assert script.read_bytes() == b"kept, perhaps compressed beside it already"


@pytest.mark.parametrize(("coding", "unpack"), [("br", brotli.decompress), ("gzip", gzip.decompress)])
def test_where_nothing_was_compressed_beforehand_the_server_compresses_the_standard_library_part_itself(coding,
                                                                                                       unpack):
    made = stamp(pwa.FULL_STDLIB)
    assert unpack(stdlib_packed(pwa.FULL_STDLIB, made, coding)) == stdlib_zip(pwa.FULL_STDLIB, made)


def test_a_standard_library_part_cut_off_while_written_is_not_kept_and_the_next_run_writes_it_whole(
        script, monkeypatch):
    real_write = type(script).write_bytes

    def cut_off(path, data):  # the process killed halfway through writing the standard library's part
        if not path.name.startswith(script.name):
            return real_write(path, data)
        real_write(path, data[:len(data) // 2])
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(type(script), "write_bytes", cut_off)
        with pytest.raises(KeyboardInterrupt):
            offline_compiled.main()
    assert not script.exists()
    offline_compiled.main()
    assert script.read_bytes() == pwa.engine_stdlib()
