#!/usr/bin/env bash
# DOMAIN=paiju.example make serve-https (issue 40): Caddy (deploy/Caddyfile: a certificate for DOMAIN, http →
# https, HTTP/2, compression) in front of `make serve`'s gunicorn, both in the foreground; either one stopping
# (or Ctrl-C) stops both. The arguments are gunicorn's command (the Makefile's SERVE).
#   TLS=internal              Caddy's local CA instead of the ACME CA (a LAN, the tests)
#   HTTPS_PORT, HTTP_PORT     443 and 80 by default (below 1024: root, or caddy with cap_net_bind_service)
#   BIND                      where gunicorn listens, 127.0.0.1:8000
# gunicorn gets TRUSTED_HOSTS=$DOMAIN, PROXY_FIX=1 and PREFERRED_URL_SCHEME=https, and whatever else the
# environment gives (DATABASE_URL, RATELIMIT_STORAGE_URI, WEB_CONCURRENCY…: docs/deploy.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DOMAIN:-}" ]; then
    echo "DOMAIN is missing: DOMAIN=paiju.example make serve-https (the name the phones open, pointing here)" >&2
    exit 2
fi
sh .ci/ensure-caddy.sh
export TLS="${TLS:-acme}" HTTPS_PORT="${HTTPS_PORT:-443}" HTTP_PORT="${HTTP_PORT:-80}"
export BIND="${BIND:-127.0.0.1:8000}"
export UPSTREAM="$BIND" TRUSTED_HOSTS="${TRUSTED_HOSTS:-$DOMAIN}" PROXY_FIX=1 PREFERRED_URL_SCHEME=https
case "$TLS" in acme|internal) ;; *) echo "TLS=$TLS: acme or internal" >&2; exit 2 ;; esac

address="https://$DOMAIN/"
[ "$HTTPS_PORT" = 443 ] || address="https://$DOMAIN:$HTTPS_PORT/"
echo "Paiju on $address (Caddy, certificate: $TLS; http://$DOMAIN:$HTTP_PORT/ redirects there) → gunicorn on $BIND"

"$@" &
app=$!
caddy run --config deploy/Caddyfile --adapter caddyfile &
proxy=$!
trap 'kill "$app" "$proxy" 2>/dev/null || true; wait' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
status=0
wait -n "$app" "$proxy" || status=$?
echo "serve-https: $( kill -0 "$app" 2>/dev/null && echo caddy || echo gunicorn ) stopped ($status); stopping the other" >&2
exit "$status"
