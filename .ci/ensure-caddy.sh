#!/bin/sh
# Caddy, the HTTPS proxy of `make serve-https` and its test (issue 40): Debian's caddy package, installed with
# apt-get when missing and we may (as .ci/ensure-chromium.sh does chromium).
set -e
command -v caddy >/dev/null 2>&1 || sh "$(dirname "$0")/apt-install.sh" "the HTTPS proxy (make serve-https)" caddy
