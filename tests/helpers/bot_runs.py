"""`python -m bot` as a host runs it, against fakediscord: its environment, started as a
process, and run to its end (for the start-up tests, which read its exit status and output)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.runner import GUILD_READY_SECONDS, spawn
from fakediscord.warm import WarmProcess, WarmStarts

__all__ = ["REPO", "bot_environment", "run_to_end", "spawn_bot"]

REPO = Path(__file__).resolve().parents[2]


def bot_environment(fd: FakeDiscord, database: Path, **extra: str) -> dict[str, str]:
    """The environment of a bot pointed at ``fd`` with its database at ``database`` (no other
    Discord setting from the test's own environment), and ``extra`` settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_"))}
    env.update(
        PYTHONPATH=str(REPO),
        PYTHONUNBUFFERED="1",
        DATABASE_PATH=str(database),
        DISCORD_TOKEN=fd.bot_token,
        DISCORD_API_BASE=fd.api_base,
        DISCORD_GATEWAY_URL=fd.gateway_url,
        # on_ready without discord.py's 2 s wait for more servers (they all come at once).
        GUILD_READY_SECONDS=GUILD_READY_SECONDS,
    )
    env.update(extra)
    return env


async def spawn_bot(
    env: dict[str, str], cwd: Path, prefix: Sequence[str] = ()
) -> asyncio.subprocess.Process:
    """``python -m bot`` started (after ``prefix``, a command that runs it), its output and
    errors in one pipe."""
    return await asyncio.create_subprocess_exec(
        *prefix,
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def run_to_end(
    fd: FakeDiscord,
    database: Path,
    prefix: Sequence[str] = (),
    *,
    warm: WarmStarts | None = None,
    **extra: str,
) -> tuple[int, list[str]]:
    """Run ``python -m bot`` in the database's folder until it exits; its exit status and its
    output's lines. It is forked by ``warm`` where that serves the start (not after a
    ``prefix``, which runs the interpreter itself)."""
    where = database.parent if database.parent.is_dir() else database.parent.parent
    env = bot_environment(fd, database, **extra)
    proc: asyncio.subprocess.Process | WarmProcess
    if prefix:
        proc = await spawn_bot(env, where, prefix)
    else:
        proc = await spawn(["-m", "bot"], env, where, warm)
    assert proc.stdout is not None
    out = await asyncio.wait_for(proc.stdout.read(), timeout=60)
    status = await asyncio.wait_for(proc.wait(), timeout=60)
    return status, out.decode().splitlines()
