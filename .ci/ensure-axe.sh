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
command -v npm >/dev/null 2>&1 || sh .ci/apt-install.sh "fetching axe-core for the accessibility test" npm
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
