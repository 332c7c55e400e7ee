"""What .ci/ensure-pyodide.sh prepares for the phone beside the runtime (offline mode, issue 42: ready ≤ 3 s after
the tap), where Node is: ``python -m webapp.offline_compiled`` writes to .cache/pyodide/

* ``engine-src.zip``: the engine's sources as the phone unpacks them (scoring/, and the page glue as
  ``paiju_offline.py``), which .ci/compile-for-phone.mjs then compiles with the runtime's own CPython into
  ``engine-<key>.pyc.zip`` (the key names these sources and the runtime's release: webapp/pwa.py lists that file
  in the manifest while they are these; after any change it is not there until the script runs again, and the
  phone compiles the engine itself, as before). Compiling scoring/ was a third to a half of the switch's trial load in the phone;
* ``stdlib-<key>.zip``: the standard library's part the phone gets (webapp/offline_stdlib.py), as the server
  makes it, for the script to compress at its best brotli (quality 11: 15 % smaller than the server's own
  quality 5, which takes 8 s of CPU).

It prints the names of the files to compress, the compiled engine's first (the script compiles it if it is not
there yet).
"""
from __future__ import annotations

import os
import sys

from .pwa import RUNTIME_DIR, compiled_engine_path, engine_sources_zip, engine_stdlib, stdlib_path


def main() -> int:
    (RUNTIME_DIR / "engine-src.zip").write_bytes(engine_sources_zip())
    stdlib = stdlib_path()
    if not stdlib.is_file():  # written whole or not at all: a file cut off halfway would be kept and served
        partial = stdlib.with_name(stdlib.name + ".tmp")
        partial.write_bytes(engine_stdlib())
        os.replace(partial, stdlib)
    print(compiled_engine_path().name)
    print(stdlib.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
