"""The part of Pyodide's standard library the engine in the phone runs on (offline mode, issue 42).

Pyodide's ``python_stdlib.zip`` (2.5 MB, already deflated: served compressed it is barely smaller) holds all of
CPython's library; the engine needs about a sixth of it. The phone is given ``/offline-engine/stdlib.zip``: the
same modules, only those of :data:`MODULES`, made from the runtime's own zip when first asked for (the worker
passes its address to ``loadPyodide`` as ``stdLibURL``).

Each module goes compiled where ``python_stdlib_pyc.zip`` (beside the runtime's zip: .ci/compile-for-phone.mjs,
run by .ci/ensure-pyodide.sh, compiles them with the runtime's own CPython) has it, else as its source: Pyodide's
start then compiles none of what it imports, about half of its CPU time (issue 42: ready ≤ 3 s after the tap).
The zip is stored, not deflated: it goes compressed on the wire as a whole (brotli finds what the files share:
1.2 MB compiled, 0.6 MB of sources, where each file deflated alone was 1.5 MB and 0.8 MB), and Python reads it
without inflating anything.

:data:`MODULES` is what Pyodide itself has in ``sys.modules`` once the worker has loaded, unpacked scoring/,
imported the page glue and compiled scoring/ (measured under Node with the runtime in .cache/pyodide/: Pyodide's
own start imports most of it, the engine adds little: scoring/ imports nothing lazily).
tests/web/test_offline_stdlib.py keeps it whole: every module of the standard library that CPython imports to
answer every binding example through the glue must be in it.
"""
from __future__ import annotations

import contextlib
import gzip
import io
import zipfile
from functools import lru_cache
from pathlib import Path

import brotli  # the app's own dependency (webapp/serving.py)

MODULES = frozenset({
    "__future__", "_collections_abc", "_colorize", "_opcode_metadata", "_py_warnings", "_pyodide", "_pyodide._base",
    "_pyodide._core_docs", "_pyodide._future_helper", "_pyodide._importhook", "_pyodide.docs_argspec",
    "_pyodide.docstring", "_pyodide.jsbind", "_sitebuiltins", "_ssl", "_weakrefset", "abc", "annotationlib", "ast",
    "asyncio", "asyncio.base_events", "asyncio.base_futures", "asyncio.base_subprocess", "asyncio.base_tasks",
    "asyncio.constants", "asyncio.coroutines", "asyncio.events", "asyncio.exceptions", "asyncio.format_helpers",
    "asyncio.futures", "asyncio.graph", "asyncio.locks", "asyncio.log", "asyncio.mixins", "asyncio.protocols",
    "asyncio.queues", "asyncio.runners", "asyncio.selector_events", "asyncio.sslproto", "asyncio.staggered",
    "asyncio.streams", "asyncio.subprocess", "asyncio.taskgroups", "asyncio.tasks", "asyncio.threads",
    "asyncio.timeouts", "asyncio.transports", "asyncio.trsock", "asyncio.unix_events", "base64", "bisect", "bz2",
    "codecs", "codeop", "collections", "compileall", "compression", "compression._common",
    "compression._common._streams", "compression.zstd", "compression.zstd._zstdfile", "concurrent",
    "concurrent.futures", "concurrent.futures._base", "contextlib", "contextvars", "copy", "copyreg", "dataclasses",
    "dis", "encodings", "encodings.aliases", "encodings.cp437", "encodings.utf_8", "enum", "filecmp", "fnmatch",
    "functools", "genericpath", "glob", "heapq", "importlib", "importlib._abc", "importlib._bootstrap",
    "importlib._bootstrap_external", "importlib.abc", "importlib.machinery", "importlib.util", "inspect", "io",
    "json", "json.decoder", "json.encoder", "json.scanner", "keyword", "linecache", "locale", "logging", "lzma",
    "ntpath", "opcode", "operator", "os", "pathlib", "pathlib._os", "posixpath", "py_compile", "pyodide",
    "pyodide._package_loader", "pyodide._state", "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.webloop",
    "random", "re", "re._casefix", "re._compiler", "re._constants", "re._parser", "reprlib", "selectors", "shutil",
    "signal", "site", "socket", "ssl", "stat", "string", "struct", "subprocess", "tempfile", "textwrap", "threading",
    "token", "tokenize", "traceback", "types", "typing", "warnings", "weakref", "zipfile", "zipfile._path",
    "zipfile._path.glob", "zipimport",
})


def module_of(name: str) -> str | None:
    """The module a file of the zip holds (``json/decoder.py`` → ``json.decoder``), None for other files."""
    if not name.endswith(".py"):
        return None
    module = name[:-3].replace("/", ".")
    return module.removesuffix(".__init__")


#: the runtime's standard library compiled by itself (.ci/compile-for-phone.mjs), beside python_stdlib.zip
COMPILED = "python_stdlib_pyc.zip"


def stamp(full: Path) -> tuple[float, float]:
    """What the phone's zip is made from, as :func:`stdlib_zip`'s cache key: the times the runtime's zip and its
    compiled twin were written (0: none)."""
    compiled = full.with_name(COMPILED)
    return full.stat().st_mtime, compiled.stat().st_mtime if compiled.is_file() else 0.0


@lru_cache(maxsize=2)
def stdlib_zip(full: Path, made: tuple[float, float]) -> bytes:
    """The runtime's ``python_stdlib.zip`` with only the modules of :data:`MODULES`, each compiled where the
    compiled twin has it (``made``: :func:`stamp`, so a new runtime makes a new zip), stored."""
    buffer = io.BytesIO()
    compiled_path = full.with_name(COMPILED)
    with zipfile.ZipFile(full) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as kept, \
            (zipfile.ZipFile(compiled_path) if made[1] else contextlib.nullcontext()) as compiled:
        have = set(compiled.namelist()) if compiled else set()
        for info in source.infolist():
            if module_of(info.filename) not in MODULES:
                continue
            if info.filename + "c" in have:
                kept.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), compiled.read(info.filename + "c"))
            else:
                kept.writestr(zipfile.ZipInfo(info.filename, info.date_time), source.read(info))
    return buffer.getvalue()


def _brotli(body: bytes) -> bytes:
    return brotli.compress(body, quality=5)  # 0.1 s of CPU, once; 11 saves 15 % for 8 s


#: the encodings the zip goes in (webapp/pwa.py sends the first the browser accepts), each made when first asked for
PACKERS = {"br": _brotli, "gzip": lambda body: gzip.compress(body, 6, mtime=0)}


@lru_cache(maxsize=4)
def stdlib_packed(full: Path, made: tuple[float, float], coding: str) -> bytes:
    """:func:`stdlib_zip` compressed as ``coding`` ("br", "gzip")."""
    return PACKERS[coding](stdlib_zip(full, made))
