#!/usr/bin/env bash
# The game pages are tested in a real browser (tests/e2e/test_web_pages.py): Chromium from
# Debian's or Ubuntu's packages, driven by Playwright (whose own browser download is not
# reachable everywhere the tests run). This installs it when it is missing: Chromium's headless
# shell where the system's packages have it (what Playwright runs for headless Chromium, a
# fifth of the whole browser's CPU a launch: tests/helpers/browser.py), else the whole browser.
set -euo pipefail
if command -v chromium-headless-shell >/dev/null; then
    exit 0
fi
has_chromium() {
    command -v chromium >/dev/null || command -v chromium-browser >/dev/null
}
if ! command -v apt-get >/dev/null; then
    has_chromium && exit 0
    echo "Chromium is needed by the game pages' tests: install it with your system's package" \
        "manager, or set CHROMIUM to a Chromium or Chrome executable." >&2
    exit 1
fi
source "$(dirname "$0")/apt_install.sh"
if ! apt_install chromium-headless-shell; then
    has_chromium || apt_install chromium
fi
