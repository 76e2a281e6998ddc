#!/usr/bin/env bash
# Sets up what the whole suite needs, on a fresh machine or an old checkout alike:
# - the system's programs, when missing (as root or through sudo, on Debian or Ubuntu):
#   PostgreSQL's server (tests/install_postgres.sh) and Chromium (tests/install_chromium.sh);
# - .venv, with the bot and its test tools (the `dev` extra, Node.js and npm among them, which
#   build the Activity's bundle again: a wheel of its own, where Debian's npm was 422 packages),
#   installed by uv: it fetches the packages side by side and compiles their bytecode on every
#   core, where pip does one thing at a time (10 s against 22 s with nothing cached:
#   docs/testing.md).
# - the type check's first run (tests/helpers/type_check.py), begun in the background as soon
#   as .venv is made (the suite's check waits for it, then reads its cache), and the run's
#   first collection (tests/helpers/first_compile.py), which compiles what the tests import,
#   both made while the system's programs are still installing.
# Both mostly wait on downloads, so the system's programs install while .venv is made and the
# tests compiled; the script ends when both have, failing if either did.
set -euo pipefail
cd "$(dirname "$0")/.."
(bash tests/install_postgres.sh && bash tests/install_chromium.sh) &
system=$!
python=0
{
    # (No pip in .venv: uv installs, itself fetched by the system's pip into .venv/uv; pip's
    # own installation into a new venv took 4.5 s of the set-up's 34 on the test machine.)
    python3 -m venv --without-pip .venv &&
        PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
            --upgrade --target .venv/uv uv==0.13.9 &&
        .venv/uv/bin/uv pip install -q --python .venv/bin/python --compile-bytecode -e '.[dev]' &&
        .venv/bin/python -m tests.helpers.type_check &&
        .venv/bin/python -m tests.helpers.first_compile
} || python=$?
wait "$system" || exit $?
exit "$python"
