#!/usr/bin/env bash
# Build the Activity's front end: install the locked packages (npm ci: the SDK and esbuild),
# then bundle activity/src into bot/web/activity/static/app.js and app.css (or into the
# directory given). Needs Node.js and npm (tests/install_node.sh installs them).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
node build.mjs "$@"
