"""Housekeeping through Discord (issue 10, items 13 and 14): a game whose channel was deleted
is expired quietly (one INFO line, no warning or error with a traceback, however many times
the keeper tries), and idle games are ended in batches."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import Store
from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher
from tests.helpers.in_process import clocked_service, club, start_in_process
from tests.helpers.table_driver import until


async def test_a_game_whose_channel_is_gone_expires_quietly(
    fake_discord: FakeDiscord,
    bots: BotLauncher,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fd = fake_discord
    guild, general, (al, bea) = club(fd, "Al", "Bea")
    doomed = guild.add_text_channel("doomed")
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    async with await Store.open(tmp_path / "bot.db") as store:
        running = await start_in_process(bots, fd, guild, store, clocked_service(store, now))
        for channel in (general, doomed):
            opened = await fd.slash(al, channel, "/cribbage new")
            assert opened.original is not None
            await fd.click(bea, opened.original, label="Join")
            await fd.slash(al, channel, "/cribbage start")
        await until(fd, lambda: len([m for m in fd.dms(bea) if list(m.selects())]) == 2)
        # The deal's messages all sent: each channel's table is there.
        await until(
            fd,
            lambda: all(any("Deal 1" in m.words() for m in c.messages) for c in (general, doomed)),
        )
        doomed.delete()
        now[0] += timedelta(days=8)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            await running.client.expire_idle_games()
            # (Its own message; the deal's table says it too, where it waited for moves.)
            said = await until(
                fd,
                lambda: [m for m in fd.messages(general) if m.words().startswith("Nobody moved")],
            )
            assert len(said) == 1

            def told() -> list[logging.LogRecord]:
                return [r for r in caplog.records if str(doomed.id) in r.getMessage()]

            await until(fd, told)
            # Stopped before counting: however many times the keeper would try, it has.
            await running.stop()
        for game in (await store.recent_games(0.0))[:2]:
            assert game.status == "expired"
        loud = [
            r
            for r in caplog.records
            if r.levelno >= logging.WARNING and (r.exc_info or r.levelno >= logging.ERROR)
        ]
        assert loud == [], [r.getMessage() for r in loud]
        gone = [r for r in caplog.records if str(doomed.id) in r.getMessage()]
        assert len(gone) == 1 and gone[0].levelno == logging.INFO, [
            (r.levelname, r.getMessage()) for r in gone
        ]
