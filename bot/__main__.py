"""``python -m bot``: run the bot against Discord, or the local playground without a token, or one
of the maintenance commands (``python -m bot <verb>``, listed by ``--help``).

- With ``DISCORD_TOKEN`` set (environment or ``.env``) the bot logs in and runs until stopped.
- Without a token, in an interactive terminal, it says so in one line and opens the playground
  (the real bot against ``fakediscord`` in this process); with no terminal it prints how to set a
  token and exits with status 2.
- ``--local`` always opens the playground.
- ``python -m bot ratings|compact|verify|copy|health|backup ...`` runs that maintenance command
  (:mod:`bot.tools`); ``python -m bot <verb> --help`` says what it takes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib
import logging
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot import early_stop
from bot.settings import (
    DEFAULT_WEB_HOST,
    MAX_RANKED_TURN_SECONDS,
    Settings,
    StartupError,
    load_env_file,
)

if TYPE_CHECKING:
    from bot.discord.app import CribbageBot
    from fakediscord import FakeDiscord

NO_TOKEN = (
    "No DISCORD_TOKEN is set: put DISCORD_TOKEN=<your bot token> in the environment or in a .env "
    "file (see .env.example and the README), or run `python -m bot --local` for the playground."
)


#: The maintenance commands: verb -> (its module in :mod:`bot.tools`, one line for --help).
#: Each module is imported only when its verb is asked for, so the running bot never loads one.
TOOLS = {
    "ratings": (
        "bot.tools.ratings",
        "recompute the ratings from the stored results (--check or --rebuild)",
    ),
    "compact": (
        "bot.tools.compact",
        "let an older SQLite database give back the space pruning frees",
    ),
    "verify": (
        "bot.tools.verify",
        "check a deal's shuffle from the seed and seal its table showed",
    ),
    "copy": (
        "bot.tools.copy",
        "copy a SQLite database into PostgreSQL, and prove nothing was lost",
    ),
    "health": (
        "bot.tools.health",
        "whether the bot is well: its processes, the database, the sender (no port needed)",
    ),
    "backup": (
        "bot.tools.backup",
        "a consistent copy of the SQLite database, made while the bot runs",
    ),
}


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    verbs = "\n".join(f"  {verb:<9} {line}" for verb, (_, line) in TOOLS.items())
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=(
            "Cribbage for Discord. Settings come from the environment or a .env file in the"
            " working directory."
        ),
        epilog=f"maintenance commands (python -m bot <command> --help for each):\n{verbs}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="open the local playground: the real bot against a local Discord emulator",
    )
    return parser.parse_args(argv)


#: The settings the playground makes its own (its bot's token, its scratch database, Discord
#: the emulator, one process, its game pages and Activity): what the environment or ``.env``
#: says of them is not read there.
PLAYGROUND_OWN = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "WEB_HOST",
    "WEB_PORT",
    "WEB_SECRET",
    "PUBLIC_URL",
    "CLIENT_SECRET",
)
#: The playground's lengths for the clocks that wait on a person, where the environment (or
#: ``.env``) leaves them unset: one person plays every seat there, switching with ``as NAME``,
#: and cannot make a ranked move in 60 s: the longest a ranked turn may be.
PLAYGROUND_CLOCKS = {"RANKED_TURN_SECONDS": f"{MAX_RANKED_TURN_SECONDS:g}"}


def playground_settings(env: Mapping[str, str]) -> Settings:
    """The settings of the playground's bot but for what it makes its own
    (:data:`PLAYGROUND_OWN`): the rest from ``env`` as the bot reads them (``OPS_PORT`` for
    health, readiness and metrics, the clocks, retention...), the playground's clocks
    (:data:`PLAYGROUND_CLOCKS`) where ``env`` leaves them unset. A value that cannot be used
    raises the :class:`~bot.settings.SettingsError` the bot's start would."""
    given = {name: value for name, value in env.items() if name not in PLAYGROUND_OWN}
    for name, value in PLAYGROUND_CLOCKS.items():
        if not given.get(name, "").strip():
            given[name] = value
    return Settings.from_env(given)


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


class _LocalBot:
    """The real bot running in this process against the playground's emulator."""

    def __init__(self, bot: CribbageBot, task: asyncio.Task[None], scratch: Path) -> None:
        self.bot = bot
        self.task = task
        self.scratch = scratch

    async def settled(self) -> None:
        """Wait until the bot has done what the interactions so far set going: each handled
        (answered, what follows the answer done), and every message they changed sent (the
        playground awaits it after each line it sends the bot)."""
        parts = self.bot.parts
        if parts is None:
            return
        await parts.io.idle()
        await parts.sending.caught_up()

    async def close(self) -> None:
        """Stop the bot and remove its scratch database."""
        await self.bot.close()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self.task, timeout=10)
        shutil.rmtree(self.scratch, ignore_errors=True)


async def _start_local_bot(fd: FakeDiscord, base: Settings) -> _LocalBot:
    """Start the real bot in this process against ``fd`` (already pointed at by discord.py),
    on ``base`` (:func:`playground_settings`) with the playground's own settings."""
    from bot import assembly
    from fakediscord.runner import free_port

    scratch = Path(tempfile.mkdtemp(prefix="cribbage-playground-"))
    port = free_port()
    # The Activity too: the emulator's proxy serves it from the pages' server, and its
    # stand-in client opens in a browser (the playground prints the address at each launch).
    await fd.enable_activity(f"127.0.0.1:{port}/activity")
    settings = dataclasses.replace(
        base,
        discord_token=fd.bot_token,
        database_path=str(scratch / "playground.db"),
        database_url=None,
        # Synced as global commands, as in production: they reach the DMs and group DMs
        # the playground makes, through its users' installs.
        dev_guild_id=None,
        web_host=DEFAULT_WEB_HOST,
        web_port=port,
        web_secret=secrets.token_urlsafe(32),
        public_url=f"http://127.0.0.1:{port}",
        client_secret=fd.activities.client_secret,
    )
    # The game pages are on in the playground: each table message links to its game's page.
    print(f"Game pages: http://127.0.0.1:{port}/ (each table message links to its game's page)")
    if settings.ops_port:
        ops = f"http://{settings.ops_host}:{settings.ops_port}"
        print(f"Health and metrics (OPS_PORT): {ops}/healthz, {ops}/readyz, {ops}/metrics")
    print(f"Ranked turns: {settings.ranked_turn_seconds:g} s a move (RANKED_TURN_SECONDS)")
    bot = assembly.client(settings)
    task = asyncio.create_task(bot.start(fd.bot_token), name="cribbage-bot")
    return _LocalBot(bot, task, scratch)


def _open_playground() -> int:
    # Imported here so that a production worker never loads the emulator.
    from bot.discord.logs import quiet_voice_warnings
    from fakediscord.playground import run_playground

    load_env_file()
    try:
        base = playground_settings(os.environ)
    except StartupError as err:
        print(err, file=sys.stderr)
        return err.status
    quiet_voice_warnings()
    # Only warnings and errors reach the terminal, so the chat stays readable.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    return run_playground(lambda fd: _start_local_bot(fd, base))


def main(argv: Sequence[str] | None = None) -> int:
    """Run what the command line and the settings ask for; return the exit status."""
    given = list(sys.argv[1:] if argv is None else argv)
    if given and given[0] in TOOLS:
        tool = importlib.import_module(TOOLS[given[0]][0])
        status: int = tool.main(given[1:])
        return status
    args = _parse_args(given)
    if args.local:
        return _open_playground()
    try:
        settings = Settings.from_env()
    except StartupError as err:
        print(err, file=sys.stderr)
        return err.status
    if not settings.discord_token:
        if _interactive():
            print("No DISCORD_TOKEN is set, so opening the local playground (no network needed).")
            return _open_playground()
        print(NO_TOKEN, file=sys.stderr)
        return 2

    import discord

    from bot.launch import run_bot

    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_bot(settings))
    except StartupError as err:
        print(err, file=sys.stderr)
        return err.status
    except discord.LoginFailure:
        print(
            "Discord refused the token: check DISCORD_TOKEN (Bot page, Reset Token).",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the gateway intents the bot asked for.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    early_stop.install()
    sys.exit(early_stop.run(main))
