#!/bin/sh
# Browser tests drive Debian's Chromium (/usr/bin/chromium); browsers cannot be
# downloaded by Playwright here. Install it with apt-get when we may.
set -e
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -i "cjk" >/dev/null; then
    exit 0
fi
if [ "$(id -u)" = "0" ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    echo "Chromium (/usr/bin/chromium) or CJK fonts are missing and I may not install them." >&2
    echo "Install them, then run 'make test' again:" >&2
    echo "    sudo apt-get install chromium fonts-noto-cjk" >&2
    exit 1
fi
echo "Installing Debian's chromium and CJK fonts for the browser tests…"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
