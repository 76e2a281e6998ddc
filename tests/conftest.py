"""Project-wide pytest setup: the fakediscord fixtures (`fake_discord`, `bots`) and one
throwaway PostgreSQL server for the session (`postgres_server`), on which each test that asks
for `postgres_url` gets a database of its own."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# `pytest` run directly (not `python -m pytest`) does not put the project on sys.path.
ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.helpers.postgres import PostgresServer  # noqa: E402

pytest_plugins = ["fakediscord.testing"]

#: The names of the databases made for tests (one per test that asks).
_NUMBERS = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session (started on first use, about a second).
    Without PostgreSQL installed this fails: the tests of the second backend never skip."""
    with PostgresServer.start() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the session's server."""
    return postgres_server.create_database(f"test_{next(_NUMBERS)}")
