"""Fixtures for the bot's Discord-free tests: a fresh database on each backend, a clock and the
service. Every test that takes `store` (or `service`) runs twice: on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.services import Services
from bot.store import Store
from tests.helpers.service_driver import Clock, make_service


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "postgres":
        target: str | Path = request.getfixturevalue("postgres_url")
    else:
        target = tmp_path / "test.db"
    opened = await Store.open(target)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> Services:
    return make_service(store, clock)
