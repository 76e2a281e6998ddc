#!/usr/bin/env bash
# The Activity's front end is built from activity/ with Node.js and npm (the Embedded App SDK
# and esbuild, from the npm registry), and the suite builds it again to check that the bundle
# the bot serves matches its sources (tests/bot/web/test_activity_bundle.py). This installs
# Node.js and npm when they are missing.
set -euo pipefail
if command -v node >/dev/null && command -v npm >/dev/null; then
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "Node.js and npm are needed to check the Activity's bundle: install them with your" \
        "system's package manager." >&2
    exit 1
fi
source "$(dirname "$0")/apt_install.sh"
apt_install nodejs npm
