#!/bin/sh
# Debian packages installed with apt-get when we may (root, or password-less sudo); otherwise say what to
# install and fail. Usage: sh .ci/apt-install.sh "what they are for" package…
set -e
why="$1"
shift
if [ "$(id -u)" = "0" ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "Missing for $why, and I may not install it: $*. Install it, then run this again:" >&2
    echo "    sudo apt-get install $*" >&2
    exit 1
fi
echo "Installing Debian's $* for $why…"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
