#!/bin/sh
# sudo make install-service DOMAIN=paiju.example (issue 40): Paiju as two systemd services, started now and at
# boot: paiju.service (gunicorn, as the checkout's owner, from this checkout) and paiju-caddy.service (Caddy with
# deploy/Caddyfile: a certificate for DOMAIN, http → https). Settings go to /etc/paiju/paiju.env: DOMAIN, TLS
# (acme, or internal), the ports, and DATABASE_URL, RATELIMIT_STORAGE_URI, WEB_CONCURRENCY, SECRET_KEY when given.
# Running it again rewrites them (and restarts both).
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$(id -u)" != 0 ]; then
    echo "Run it as root: sudo make install-service DOMAIN=paiju.example" >&2
    exit 1
fi
if [ -z "${DOMAIN:-}" ]; then
    echo "DOMAIN is missing: sudo make install-service DOMAIN=paiju.example (its DNS pointing at this machine)" >&2
    exit 2
fi
OWNER="${SUDO_USER:-$(stat -c %U "$ROOT")}"
sh "$ROOT/.ci/ensure-caddy.sh"
# the virtualenv and the offline engine, as the checkout's owner (never root-owned files in the checkout)
su "$OWNER" -s /bin/sh -c "make -C '$ROOT' --no-print-directory install && { sh '$ROOT/.ci/ensure-pyodide.sh' --optional || echo 'Offline mode off: pyodide could not be fetched.'; }"

install -d -m 755 /etc/paiju
install -m 644 "$ROOT/deploy/Caddyfile" /etc/paiju/Caddyfile
umask 077
{
    echo "DOMAIN=$DOMAIN"
    echo "TLS=${TLS:-acme}"
    echo "HTTPS_PORT=${HTTPS_PORT:-443}"
    echo "HTTP_PORT=${HTTP_PORT:-80}"
    echo "BIND=${BIND:-127.0.0.1:8000}"
    echo "UPSTREAM=${BIND:-127.0.0.1:8000}"
    echo "TRUSTED_HOSTS=${TRUSTED_HOSTS:-$DOMAIN}"
    echo "PROXY_FIX=1"
    echo "PREFERRED_URL_SCHEME=https"
    for name in DATABASE_URL RATELIMIT_STORAGE_URI WEB_CONCURRENCY SECRET_KEY; do
        eval "value=\${$name:-}"
        [ -z "$value" ] || echo "$name=$value"
    done
} > /etc/paiju/paiju.env
# root's only (systemd reads it before starting either service): it may hold SECRET_KEY and DATABASE_URL

sed -e "s|@ROOT@|$ROOT|g" -e "s|@USER@|$OWNER|g" "$ROOT/deploy/paiju.service" > /etc/systemd/system/paiju.service
install -m 644 "$ROOT/deploy/paiju-caddy.service" /etc/systemd/system/paiju-caddy.service
# Debian's own caddy.service serves a welcome page on port 80: it would hold the ports Paiju's Caddy needs
if systemctl is-enabled --quiet caddy.service 2>/dev/null || systemctl is-active --quiet caddy.service 2>/dev/null; then
    echo "Stopping and disabling Debian's caddy.service (its welcome page holds port 80); paiju-caddy.service replaces it."
    systemctl disable --now caddy.service
fi
systemctl daemon-reload
systemctl enable paiju.service paiju-caddy.service
systemctl restart paiju.service paiju-caddy.service
echo "Paiju on https://$DOMAIN/ (systemctl status paiju paiju-caddy; journalctl -u paiju -u paiju-caddy)"
