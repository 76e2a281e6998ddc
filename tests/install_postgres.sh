#!/usr/bin/env bash
# The tests run the store and the end-to-end games on PostgreSQL too, on a throwaway server
# they start themselves (tests/helpers/postgres.py). This installs the server programs when
# they are missing: Debian's or Ubuntu's `postgresql` package (as root, or through sudo).
# Nothing is started here and no database is made.
set -euo pipefail
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null; then
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "PostgreSQL's server (initdb, pg_ctl) is needed by the tests: install it with your" \
        "system's package manager (e.g. 'brew install postgresql')." >&2
    exit 1
fi
source "$(dirname "$0")/apt_install.sh"
apt_install --no-install-recommends postgresql
