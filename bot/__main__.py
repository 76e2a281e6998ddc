"""``python -m bot``: run the bot against Discord, or the local playground without a token.

- With ``DISCORD_TOKEN`` set (environment or ``.env``) the bot logs in and runs until stopped.
- Without a token, in an interactive terminal, it says so in one line and opens the playground
  (the real bot against ``fakediscord`` in this process); with no terminal it prints how to set a
  token and exits with status 2.
- ``--local`` always opens the playground.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Sequence

from bot.settings import Settings, SettingsError

NO_TOKEN = (
    "No DISCORD_TOKEN is set: put DISCORD_TOKEN=<your bot token> in the environment or in a .env "
    "file (see .env.example and the README), or run `python -m bot --local` for the playground."
)


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Cribbage for Discord. Settings come from the environment or a .env file.",
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="open the local playground: the real bot against a local Discord emulator",
    )
    return parser.parse_args(argv)


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _open_playground() -> int:
    # Imported here so that a production worker never loads the emulator.
    from fakediscord.playground import run_playground

    result = run_playground()
    return result if isinstance(result, int) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run what the command line and the settings ask for; return the exit status."""
    args = _parse_args(argv)
    if args.local:
        return _open_playground()
    try:
        settings = Settings.from_env()
    except SettingsError as err:
        print(err, file=sys.stderr)
        return 2
    if not settings.discord_token:
        if _interactive():
            print("No DISCORD_TOKEN is set, so opening the local playground (no network needed).")
            return _open_playground()
        print(NO_TOKEN, file=sys.stderr)
        return 2

    from bot.app import run_bot

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_bot(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
