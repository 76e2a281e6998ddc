"""Which database the bot runs on in an end-to-end test.

A module whose tests should run with the bot on both databases sets
``pytestmark = BOTH_DATABASES``: each test then runs twice, on a SQLite file and on a
PostgreSQL database of its own (the `backend` fixture of tests/e2e/conftest.py).
"""

from __future__ import annotations

import pytest

__all__ = ["BOTH_DATABASES"]

BOTH_DATABASES = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
