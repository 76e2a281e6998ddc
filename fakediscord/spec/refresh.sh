#!/usr/bin/env bash
# Move to the newest description Discord has published: lock the newest release of the npm
# package discord-api-spec (generated daily from github.com/discord/discord-api-spec), then
# build fakediscord/discord_api.json from it. Run the suite after it: a request the new
# description refuses fails the test that makes it. Needs Node.js and npm: the test tools'
# (.venv/bin, made by tests/setup.sh), else the path's.
set -euo pipefail
cd "$(dirname "$0")"
if [ -x ../../.venv/bin/npm ]; then PATH="$(cd ../.. && pwd)/.venv/bin:$PATH"; fi
npm install --save-exact --no-audit --no-fund --loglevel=error discord-api-spec@latest
npm ls discord-api-spec
bash build.sh
