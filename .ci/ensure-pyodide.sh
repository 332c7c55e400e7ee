#!/bin/sh
# The Pyodide runtime (CPython compiled to WebAssembly) for offline mode (issue 29), fetched from the npm
# registry with npm into .cache/pyodide/ (git-ignored), which Paiju serves itself: never a CDN.
# Only the files the runtime needs are kept (314.x loads pyodide.asm.mjs, not .asm.js; package.json carries the MPL-2.0 licence field). The tarball is checked against the registry's sha512.
# --optional (make run, make serve): without npm, say so in one line and go on (offline mode is then off).
set -e
cd "$(dirname "$0")/.."
OPTIONAL="${1:-}"
VERSION=314.0.8
INTEGRITY="sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
DIR=.cache/pyodide
FILES="pyodide.js pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json package.json"
# Served precompressed (issue 42): gzip, and brotli where a Python with the brotli module is at hand (the venv's,
# a Flask-Compress dependency); webapp/pwa.py sends the one the browser accepts, else the file as it is. Brotli's
# best (quality 11, the default: 2.74 MB of wasm) costs 26 s of CPU once; CI, which starts from nothing every
# run, asks for 9 (BROTLI_QUALITY=9: 3.11 MB in 1.5 s).
BROTLI_QUALITY="${BROTLI_QUALITY:-11}"
PACKED="pyodide.asm.wasm pyodide.asm.mjs pyodide-lock.json pyodide.mjs"
# Python compiled for the phone by the runtime itself (.ci/compile-for-phone.mjs, issue 42), where Node is at hand
# (npm's): the standard library once, scoring/ whenever its sources changed (webapp/offline_compiled.py names the
# file after them); the phone's Python then compiles neither. Without them the phone compiles them, as before.
compile_for_phone() {
    command -v node >/dev/null 2>&1 || return 0
    if [ ! -f "$DIR/python_stdlib_pyc.zip" ]; then
        node .ci/compile-for-phone.mjs "$DIR" stdlib || echo "The standard library was not compiled for the phone."
    fi
    [ -x .venv/bin/python ] || return 0
    FOR_PHONE="$(.venv/bin/python -m webapp.offline_compiled)" || { FOR_PHONE=""; return 0; }
    engine="$(echo "$FOR_PHONE" | head -n 1)"
    for old in "$DIR"/engine-*.pyc.zip* "$DIR"/stdlib-*.zip*; do  # what older sources made
        case "$(basename "$old")" in $engine*|$(echo "$FOR_PHONE" | tail -n 1)*) ;; *) rm -f "$old" ;; esac
    done
    if [ ! -f "$DIR/$engine" ]; then
        node .ci/compile-for-phone.mjs "$DIR" engine "$DIR/engine-src.zip" "$DIR/$engine" \
            || echo "The engine was not compiled for the phone (the phone compiles it)."
    fi
}
compress() {
    FOR_PHONE=""
    compile_for_phone
    PY=python3
    [ -x .venv/bin/python ] && PY=.venv/bin/python
    for f in $PACKED $FOR_PHONE; do
        [ -f "$DIR/$f" ] || continue
        if [ ! -f "$DIR/$f.gz" ]; then
            gzip -9 -n -c "$DIR/$f" > "$DIR/$f.gz.tmp" && mv "$DIR/$f.gz.tmp" "$DIR/$f.gz"
        fi
        if [ ! -f "$DIR/$f.br" ] && "$PY" -c "import brotli" 2>/dev/null; then
            "$PY" -c "import brotli, sys; sys.stdout.buffer.write(brotli.compress(open(sys.argv[1], 'rb').read(), quality=int(sys.argv[2])))" \
                "$DIR/$f" "$BROTLI_QUALITY" > "$DIR/$f.br.tmp" && mv "$DIR/$f.br.tmp" "$DIR/$f.br"
        fi
    done
}
if [ -f "$DIR/pyodide.asm.wasm" ] && [ "$(cat "$DIR/VERSION" 2>/dev/null)" = "$VERSION" ]; then
    compress
    exit 0
fi
if ! command -v npm >/dev/null 2>&1 && [ "$OPTIONAL" = "--optional" ]; then
    echo "Offline mode off: npm is missing to fetch its engine (sudo apt-get install npm, then make pyodide)."
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "npm is missing: offline mode needs pyodide $VERSION from the npm registry." >&2
    echo "Install it (sudo apt-get install npm), or run 'make axe' which installs it, then again." >&2
    exit 1
fi
echo "Fetching pyodide $VERSION for offline mode (13 MB, once, into .cache/pyodide/)…"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tarball="$(cd "$tmp" && npm pack --silent "pyodide@$VERSION")"
got="sha512-$(openssl dgst -sha512 -binary "$tmp/$tarball" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
    echo "pyodide $VERSION: the tarball's sha512 is not the registry's ($got)" >&2
    exit 1
fi
members=""
for f in $FILES; do members="$members package/$f"; done
# shellcheck disable=SC2086
tar -xzf "$tmp/$tarball" -C "$tmp" $members
mkdir -p "$DIR"
rm -f "$DIR"/*.gz "$DIR"/*.br "$DIR"/python_stdlib_pyc.zip "$DIR"/engine-*.zip
for f in $FILES; do cp "$tmp/package/$f" "$DIR/"; done
echo "Compressing the runtime once (gzip, brotli): a minute or two…"
compress
echo "$VERSION" > "$DIR/VERSION"
