"""Fixtures for the bot's Discord-free tests: a fresh database, a clock and the service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.service import GameService
from bot.store import Store
from tests.helpers.service_driver import Clock, make_service


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "test.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> GameService:
    return make_service(store, clock)
