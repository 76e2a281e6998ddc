"""A club night's steps in end-to-end tests: the bot in this process on a clock it shares
with the emulator (Discord's wall clock, ``fd.clock.wall()``: the time a scheduled event starts
by), so that a test moves both a week on at once; its restart; a night's message, reminder and
event."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.core.services import Services
from bot.store import Store
from fakediscord import Channel, FakeDiscord, Guild, Message
from fakediscord.events import ScheduledEvent
from fakediscord.testing import BotLauncher, InProcessBot
from tests.helpers.core_build import build_core
from tests.helpers.in_process import start_in_process
from tests.helpers.table_driver import until

__all__ = ["NightBot", "board_after", "event_of", "night_board", "reminders"]


def shared_clock(fd: FakeDiscord) -> datetime:
    """Discord's date and time now, as the emulator keeps it (moved on by ``fd.clock``)."""
    return datetime.fromtimestamp(fd.clock.wall(), UTC)


@dataclass
class NightBot:
    """The bot in this process on ``store``, its core's clock the emulator's wall clock."""

    bots: BotLauncher
    fd: FakeDiscord
    guild: Guild
    store: Store
    running: InProcessBot | None = None
    services: Services | None = None
    starts: int = field(default=0)

    async def start(self) -> None:
        """Start (or start again) the bot: a new core, as a new process would make."""
        fd = self.fd
        self.services = build_core(
            self.store,
            rng_factory=lambda key: random.Random(key),
            clock=lambda: shared_clock(fd),
            idle_expiry=timedelta(days=30),
        )
        self.running = await start_in_process(self.bots, fd, self.guild, self.store, self.services)
        self.starts += 1

    async def stop(self) -> None:
        """Stop the bot (as a host stops it: what it owes is sent first)."""
        assert self.running is not None
        await self.running.stop()
        self.running = None

    async def restart(self) -> None:
        """Stop the bot and start it again on the same database."""
        await self.stop()
        await self.start()

    async def jump(self, seconds: float) -> None:
        """Move Discord's clock, and so the bot's, ``seconds`` on, as if that time had passed
        (the nights' director looks at every night again: its timers were set for the time
        before)."""
        self.fd.clock.advance(seconds)
        assert self.services is not None
        await self.services.night_director.again()

    async def jump_to(self, at: float, *, before: float = 0.0) -> None:
        """Move the clocks on to ``before`` seconds before the Unix time ``at``."""
        await self.jump(at - before - self.fd.clock.wall())


def night_board(channel: Channel) -> Message | None:
    """A club night's message in a channel (its latest, the night to come)."""
    found = [m for m in channel.messages if m.author.bot and "🃏" in m.words() and not m.deleted]
    return found[-1] if found else None


def board_after(channel: Channel, before: Message) -> Message | None:
    """The night's message posted after ``before`` (the next night's), once it is there."""
    found = night_board(channel)
    return found if found is not None and found.id > before.id else None


def reminders(channel: Channel) -> list[Message]:
    """The reminders posted in a channel."""
    return [m for m in channel.messages if m.author.bot and m.words().startswith("🔔")]


async def event_of(fd: FakeDiscord, guild: Guild) -> ScheduledEvent:
    """The server's one scheduled event, once the bot has made it."""
    [event] = await until(fd, lambda: fd.scheduled.of(guild) or None)
    return event
