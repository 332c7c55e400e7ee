#!/bin/sh
# Browser tests drive Debian's Chromium (/usr/bin/chromium); browsers cannot be
# downloaded by Playwright here. Install it with apt-get when we may.
set -e
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -i "cjk" >/dev/null; then
    exit 0
fi
sh "$(dirname "$0")/apt-install.sh" "the browser tests (make test)" chromium fonts-noto-cjk
