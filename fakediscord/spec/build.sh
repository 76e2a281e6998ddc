#!/usr/bin/env bash
# Build fakediscord/discord_api.json (or the file given) from Discord's OpenAPI description as
# the locked npm package discord-api-spec carries it (npm ci, then build.mjs). Needs Node.js and
# npm: the test tools' (.venv/bin, made by tests/setup.sh), else the path's. To move to a newer
# description: bash refresh.sh.
set -euo pipefail
cd "$(dirname "$0")"
if [ -x ../../.venv/bin/npm ]; then PATH="$(cd ../.. && pwd)/.venv/bin:$PATH"; fi
npm ci --no-audit --no-fund --loglevel=error
node build.mjs "$@"
