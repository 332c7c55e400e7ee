#!/usr/bin/env bash
# Start a throwaway Redis server (shared rate limits across app servers) and print its URL.
#
#   export PAIJU_TEST_REDIS_URL="$(bash .ci/redis.sh)"     # start
#   bash .ci/redis.sh stop DIR                             # stop
#   PAIJU_REDIS_WATCH_PID=$$ bash .ci/redis.sh             # … and stop it when process $$ ends
#
# Installs Debian's redis-server with apt-get when it is missing (needs root). The server keeps nothing on
# disk, lives in a fresh temp dir and listens on 127.0.0.1 on a free port. stdout carries only the URL
# (redis://127.0.0.1:PORT/0); the temp dir is written to the file named by $PAIJU_REDIS_DIR_FILE, if set.
set -euo pipefail

log() { echo "redis.sh: $*" >&2; }

if [ "${1:-}" = "watch" ]; then
    while kill -0 "$2" 2>/dev/null; do sleep 2; done
    exec bash "$0" stop "$3"
fi

if [ "${1:-}" = "stop" ]; then
    dir="${2:?usage: redis.sh stop DIR}"
    [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
    rm -rf "$dir"
    exit 0
fi

if ! command -v redis-server >/dev/null 2>&1; then
    log "installing redis-server"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq redis-server >/dev/null
fi

dir="$(mktemp -d /tmp/paiju-redis.XXXXXX)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >&2
for _ in $(seq 1 50); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
done
redis-cli -p "$port" ping >/dev/null || { log "redis did not answer: $(cat "$dir/redis.log")"; exit 1; }
[ -n "${PAIJU_REDIS_DIR_FILE:-}" ] && echo "$dir" > "$PAIJU_REDIS_DIR_FILE"
if [ -n "${PAIJU_REDIS_WATCH_PID:-}" ]; then
    nohup bash "$0" watch "$PAIJU_REDIS_WATCH_PID" "$dir" >/dev/null 2>&1 &
fi
log "redis on port $port in $dir"
echo "redis://127.0.0.1:$port/0"
