"""Fixtures for the bot's Discord-free tests: a fresh database on each backend (at today's
schema, copied from one migrated once: tests.helpers.migrated), a clock and the
service. Every test that takes `store` (or `service`) runs twice: on SQLite and on PostgreSQL.
A review the core makes (in a thread) and the coach's line after a show are worked out once a
run for each question (tests.helpers.kept)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.core.games.games
import bot.core.review.review
from bot.core.services import Services
from bot.store import Store
from tests.helpers.kept import Kept
from tests.helpers.service_driver import Clock, make_service


@pytest.fixture(autouse=True)
def _kept(monkeypatch: pytest.MonkeyPatch, run_folder: Path) -> None:
    # Both backends' runs of a test review the same games and coach the same shows: see
    # tests.helpers.kept.
    for module, name in (
        (bot.core.review.review, "make_review"),
        (bot.core.games.games, "review_view"),
    ):
        kept = Kept(getattr(module, name), run_folder / name)
        monkeypatch.setattr(module, name, kept)


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    # A database at today's schema, copied rather than migrated again for every test.
    if request.param == "postgres":
        target: str | Path = request.getfixturevalue("migrated_postgres_url")
    else:
        target = request.getfixturevalue("migrated_sqlite_path")
    opened = await Store.open(target)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a new, empty database is, on each backend (for the tests of migrations)."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "test.db"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> Services:
    return make_service(store, clock)
