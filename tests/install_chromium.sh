#!/usr/bin/env bash
# The game pages are tested in a real browser (tests/e2e/test_web_pages.py): Chromium from
# Debian's or Ubuntu's packages, driven by Playwright (whose own browser download is not
# reachable everywhere the tests run). This installs the browser when it is missing.
set -euo pipefail
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "Chromium is needed by the game pages' tests: install it with your system's package" \
        "manager, or set CHROMIUM to a Chromium or Chrome executable." >&2
    exit 1
fi
source "$(dirname "$0")/apt_install.sh"
apt_install chromium
