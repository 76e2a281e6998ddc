#!/usr/bin/env bash
# Build fakediscord/discord_api.json (or the file given) from Discord's OpenAPI description as
# the locked npm package discord-api-spec carries it (npm ci, then build.mjs). Needs Node.js and
# npm (tests/install_node.sh installs them). To move to a newer description: bash refresh.sh.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
node build.mjs "$@"
