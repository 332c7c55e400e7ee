"""The part of Pyodide's standard library the engine in the phone runs on (offline mode, issue 42).

Pyodide's ``python_stdlib.zip`` (2.5 MB, already deflated: served compressed it is barely smaller) holds all of
CPython's library; the engine needs about a sixth of it. The phone is given ``/offline-engine/stdlib.zip``: the
same files, only those of :data:`MODULES`, made from the runtime's own zip when first asked for (the worker
passes its address to ``loadPyodide`` as ``stdLibURL``).

:data:`MODULES` is what Pyodide itself has in ``sys.modules`` once the worker has loaded, unpacked scoring/,
imported the page glue and compiled scoring/ (measured under Node with the runtime in .cache/pyodide/: Pyodide's
own start imports most of it, the engine adds little: scoring/ imports nothing lazily).
tests/web/test_offline_stdlib.py keeps it whole: every module of the standard library that CPython imports to
answer every binding example through the glue must be in it.
"""
from __future__ import annotations

import io
import zipfile
from functools import lru_cache
from pathlib import Path

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
    return module[: -len(".__init__")] if module.endswith(".__init__") else module


@lru_cache(maxsize=2)
def stdlib_zip(full: Path, stamp: float) -> bytes:
    """The runtime's ``python_stdlib.zip`` with only the files of :data:`MODULES` (``stamp``: its mtime, so a
    new runtime makes a new zip)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(full) as source, zipfile.ZipFile(buffer, "w") as kept:
        for info in source.infolist():
            if module_of(info.filename) in MODULES:
                kept.writestr(info, source.read(info), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return buffer.getvalue()
