"""`python -m bot` as a host runs it, against fakediscord: its environment, started as a
process, and run to its end (for the start-up tests, which read its exit status and output)."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.runner import GUILD_READY_SECONDS, spawn
from fakediscord.warm import WarmProcess, WarmStarts

__all__ = ["REPO", "bot_environment", "refused_a_taken_port", "run_to_end", "spawn_bot"]

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


async def refused_a_taken_port(
    fd: FakeDiscord, database: Path, setting: str, *, warm: WarmStarts, **extra: str
) -> None:
    """A start whose ``setting`` (``WEB_PORT``, ``OPS_PORT``) names a port another program
    holds stops with one line that names it and asks for another port, and leaves no database
    behind."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, lines = await run_to_end(fd, database, warm=warm, **{setting: str(port)}, **extra)
    assert status == 2, lines
    assert len(lines) == 1 and f"{setting}={port}" in lines[0] and "another port" in lines[0]
    assert not database.exists(), "the database this start created is gone again"
