#!/bin/sh
# axe-core for the accessibility browser test (tests/browser/test_browser_axe.py), fetched from the npm
# registry with npm into .cache/axe-core/ (git-ignored). It is only ever injected into pages by the tests:
# the app never serves it and no page loads it. The tarball is checked against the registry's sha512.
set -e
cd "$(dirname "$0")/.."
VERSION=4.10.3
INTEGRITY="sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="
DIR=.cache/axe-core
if [ -f "$DIR/axe.min.js" ] && [ "$(cat "$DIR/VERSION" 2>/dev/null)" = "$VERSION" ]; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "npm is missing: the accessibility test needs axe-core $VERSION from the npm registry." >&2
        echo "Install it (sudo apt-get install npm), then run 'make test' again." >&2
        exit 1
    fi
    echo "Installing Debian's npm to fetch axe-core for the accessibility test…"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
echo "Fetching axe-core $VERSION for the accessibility test…"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tarball="$(cd "$tmp" && npm pack --silent "axe-core@$VERSION")"
got="sha512-$(openssl dgst -sha512 -binary "$tmp/$tarball" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
    echo "axe-core $VERSION: the tarball's sha512 is not the registry's ($got)" >&2
    exit 1
fi
tar -xzf "$tmp/$tarball" -C "$tmp" package/axe.min.js package/LICENSE
mkdir -p "$DIR"
cp "$tmp/package/axe.min.js" "$tmp/package/LICENSE" "$DIR/"
echo "$VERSION" > "$DIR/VERSION"
