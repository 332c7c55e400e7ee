#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the ledger tests and print its URL.
#
#   export PAIJU_TEST_POSTGRES_URL="$(bash .ci/postgres.sh)"      # start
#   bash .ci/postgres.sh stop [DATADIR]                            # stop
#   PAIJU_PG_WATCH_PID=$$ bash .ci/postgres.sh    # … and stop it when process $$ ends
#
# Installs Debian's postgresql with apt-get when no server binaries are found
# (needs root). The cluster lives in a fresh temp dir (or $PAIJU_PG_DIR) and
# listens on 127.0.0.1 on a free port, with trust authentication; the server
# runs as the "postgres" user when we are root (PostgreSQL refuses root).
# stdout carries only the URL (postgresql+psycopg://…); progress goes to stderr.
# The temp dir is written to the file named by $PAIJU_PG_DIR_FILE, if set,
# so that `stop` can find it (it is also in the last stderr line).
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

find_bindir() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
    done
    if command -v pg_config >/dev/null 2>&1; then
        d="$(pg_config --bindir)"
        if [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
    fi
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
    return 1
}

as_owner() {  # run a command as the cluster owner
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

if [ "${1:-}" = "watch" ]; then
    while kill -0 "$2" 2>/dev/null; do sleep 2; done
    exec bash "$0" stop "$3"
fi

if [ "${1:-}" = "stop" ]; then
    dir="${2:-${PAIJU_PG_DIR:-}}"
    [ -n "$dir" ] || { log "usage: postgres.sh stop DATADIR"; exit 2; }
    bindir="$(find_bindir)"
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    rm -rf "$dir"
    exit 0
fi

if ! bindir="$(find_bindir)"; then
    log "no PostgreSQL server found: installing it with apt-get"
    if [ "$(id -u)" != 0 ]; then
        log "not root: cannot apt-get install postgresql; install it (or set PAIJU_TEST_POSTGRES_URL)"
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    bindir="$(find_bindir)" || { log "postgresql installed but initdb not found"; exit 1; }
fi

if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    log "creating the postgres system user"
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres >&2
fi

dir="${PAIJU_PG_DIR:-$(mktemp -d /tmp/paiju-pg.XXXXXX)}"
mkdir -p "$dir"
chmod 755 "$dir"
if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi

port="$(python3 - <<'EOF'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
EOF
)"

log "initdb in $dir/data (port $port) with $bindir"
as_owner "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || as_owner "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { log "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }

if ! as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >&2; then
    log "the server did not start:"; cat "$dir/server.log" >&2; exit 1
fi

as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres paiju_test >&2

if [ -n "${PAIJU_PG_DIR_FILE:-}" ]; then echo "$dir" > "$PAIJU_PG_DIR_FILE"; fi
if [ -n "${PAIJU_PG_WATCH_PID:-}" ]; then
    # stop the server when that process (a test run) ends, even if it crashed
    setsid bash "$0" watch "$PAIJU_PG_WATCH_PID" "$dir" </dev/null >/dev/null 2>&1 &
fi
log "running; stop with: bash .ci/postgres.sh stop $dir"
echo "postgresql+psycopg://postgres@127.0.0.1:$port/paiju_test"
