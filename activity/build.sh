#!/usr/bin/env bash
# Build the Activity's front end: install the locked packages (npm ci: the SDK and esbuild),
# then bundle activity/src into bot/web/activity/static/app.js and app.css (or into the
# directory given). Needs Node.js and npm: the test tools' (.venv/bin, made by tests/setup.sh),
# else the path's.
set -euo pipefail
cd "$(dirname "$0")"
if [ -x ../.venv/bin/npm ]; then PATH="$(cd .. && pwd)/.venv/bin:$PATH"; fi
npm ci --no-audit --no-fund --loglevel=error
node build.mjs "$@"
