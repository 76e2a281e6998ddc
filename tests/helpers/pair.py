"""The bot as two processes sharing one PostgreSQL database, as it runs sharded: shard 0 (every
DM, so nearly every click) in one, shard 1 (the server, so the slash commands) in the other,
which sends (the first to start does; the one with shard 0 leaves sending to another)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.table_driver import NAMES, World

__all__ = [
    "BECAME",
    "READY",
    "SENDS",
    "STOPPED",
    "Pair",
    "said_it_sends",
    "sends",
    "shard_world",
    "start_pair",
    "start_shard",
]

#: Each process says, once its store is open, whether it sends (the first to start does).
READY = r"this process (is the sender|does not send)"
#: What a process says when it starts sending, and when it does not (or no longer) send.
SENDS = "this process is the sender"
BECAME = (SENDS, "this process is now the sender")
STOPPED = ("this process does not send", "this process is no longer the sender")


@dataclass
class Pair:
    """The two processes of one bot and the world they play in."""

    world: World
    dms: BotProcess  # shard 0: DMs (and no server); it leaves sending to the other
    server: BotProcess  # shard 1: the server, its channels, its slash commands; the sender
    url: str

    @property
    def processes(self) -> tuple[BotProcess, BotProcess]:
        return (self.server, self.dms)

    def sender(self) -> BotProcess | None:
        """The process that last said it sends (None: neither, for now)."""
        return next((p for p in self.processes if sends(p)), None)


def sends(process: BotProcess) -> bool:
    """Whether the process is running and last said it is the sender."""
    running = process.proc is not None and process.proc.returncode is None
    return running and said_it_sends(process.output)


def said_it_sends(output: list[str]) -> bool:
    """Whether, of these lines of a process's output, the last that says its role says it is
    the sender."""
    said = [line for line in output if any(w in line for w in (*BECAME, *STOPPED))]
    return bool(said) and any(w in said[-1] for w in BECAME)


async def start_shard(
    bots: BotLauncher, url: str, guild: int | None, shard: int, release: Path | None = None
) -> BotProcess:
    """One of the bot's two processes: shard ``shard`` (0 or 1) of two on the database at
    ``url``, its commands synced for ``guild`` (None: globally), run from ``release`` (a
    checkout of another release; None: this one); started once it says whether it sends."""
    env = {"SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
    if release is not None:
        env["PYTHONPATH"] = str(release)
    return await bots.process(database=url, dev_guild=guild, env=env, ready_text=READY, cwd=release)


def shard_world(fd: FakeDiscord, url: str) -> World:
    """A server on shard 1 of two with #general, the players, Eve watching and Mo the
    moderator, for the bot's two processes on the database at ``url``."""
    guild = fd.add_guild("Cribbage Club", shard=(1, 2))
    general = guild.add_text_channel("general")
    players = [fd.add_user(name) for name in NAMES]
    for user in players:
        guild.add_member(user)
    spectator, moderator = fd.add_user("Eve"), fd.add_user("Mo")
    guild.add_member(spectator)
    guild.add_member(moderator, moderator=True)
    return World(fd, guild, general, players, spectator, moderator, url)


async def start_pair(
    fd: FakeDiscord, bots: BotLauncher, url: str, *, everywhere: bool = False
) -> Pair:
    """A server on shard 1 with #general, the players, Eve watching and Mo the moderator, and
    the bot's two processes on the database at ``url``; their commands synced for that server
    alone, or (``everywhere``) globally, as for places the bot is not in (user installs)."""
    world = shard_world(fd, url)
    dev_guild = None if everywhere else world.guild.id
    server = await start_shard(bots, url, dev_guild, 1)
    dms = await start_shard(bots, url, dev_guild, 0)
    assert any(SENDS in line for line in server.output)
    assert not any(SENDS in line for line in dms.output)
    return Pair(world, dms, server, url)
