"""``DiscordIO.idle``: the word the playground waits for after each line it sends the bot
(``python -m bot --local``), that every interaction being handled is done, what follows its
answer included."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.discord.interactions import DiscordIO


async def test_idle_waits_until_every_interaction_being_handled_is_done() -> None:
    members = SimpleNamespace(saw=lambda interaction: None)
    io = DiscordIO(cast(Any, None), cast(Any, members))
    started, release = asyncio.Event(), asyncio.Event()
    said: list[str] = []

    async def handled() -> None:
        # An answer sent, and what follows it (the computer's reply, say) still to do.
        started.set()
        await release.wait()
        said.append("done")

    interaction = SimpleNamespace(created_at=discord.utils.utcnow(), user=SimpleNamespace(id=1))
    handling = asyncio.create_task(io.entered(cast(Any, interaction), handled()))
    await asyncio.wait_for(started.wait(), timeout=30)  # (a bound for a broken test)

    asked = asyncio.Event()

    async def idle() -> None:
        asked.set()
        await io.idle()
        said.append("idle")

    waiting = asyncio.create_task(idle())
    # Idle asked for: this task goes on only once that one has stopped, waiting inside idle,
    # or has said "idle" (an idle that did not wait).
    await asyncio.wait_for(asked.wait(), timeout=30)  # (a bound for a broken test)
    release.set()
    await asyncio.gather(handling, waiting)
    assert said == ["done", "idle"]
    await io.idle()  # nothing in flight: at once
