"""Starting the bot (``python -m bot`` runs :func:`run_bot`): the store opened and checked before
logging in, the client the composition root makes (:func:`bot.assembly.client`) logged in and
connected, the store closed on every way out.

:func:`run_bot` (as discord.py's ``examples/advanced_startup.py`` does) opens the store (which
checks the file, refuses a newer schema or a read-only file, and changes nothing) before
logging in, and closes it on every way out; the migrations are applied once Discord has taken
the token (the bot's ``setup_hook``), so a start that Discord refuses or cannot be reached for
leaves a database an older release made exactly as it was. A stop signal once the bot is set
up closes it cleanly; during start-up it stops the start-up where it is. What stops start-up
(the database, ``DEV_GUILD_ID``, Discord out of reach) is a
:class:`~bot.settings.StartupError`: one line for whoever runs the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import discord
import yarl

from bot import assembly, early_stop
from bot.core.base.store_errors import UnusableStore
from bot.discord.app import CribbageBot
from bot.discord.logs import HeldLog, configure_logging
from bot.settings import Settings, StartupError
from bot.store import Store
from bot.store.postgres import OutOfReach, out_of_reach
from bot.web.capacity import raise_open_files

__all__ = ["open_store", "point_at_api", "run_bot"]

log = logging.getLogger(__name__)

#: The signals that stop the bot (a host stopping the worker, Ctrl-C).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def point_at_api(api_base: str | None, gateway_url: str | None) -> None:
    """Send the client's REST calls and gateway connection elsewhere (e.g. to fakediscord).

    discord.py reads these class attributes at login, so this must run before ``start``.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def open_store(settings: Settings) -> Store:
    """The store ``DATABASE_PATH`` (or ``DATABASE_URL``) names, checked but not yet brought
    to this release's schema (the bot does that once Discord has taken its token, see
    :func:`bot.assembly.assemble`); a
    :class:`StartupError` naming the setting when it cannot be used (nothing on disk changed
    then)."""
    try:
        return await Store.open(settings.database, upgrade=False)
    except UnusableStore as error:
        raise StartupError(f"{settings.database_label}: {error}") from None
    except OutOfReach as error:
        # (Said as copy and health say it: one sentence, bot.store.postgres.out_of_reach.)
        raise StartupError(str(error)) from None
    except OSError as error:
        # A PostgreSQL server out of reach otherwise (SQLite's problems are UnusableStore).
        raise StartupError(out_of_reach(settings.database, error)) from None


async def _log_in(bot: CribbageBot, token: str, settings: Settings) -> None:
    """Log in (which runs ``setup_hook``); Discord out of reach is a :class:`StartupError`."""
    try:
        await bot.login(token)
    except (aiohttp.ClientConnectionError, OSError) as error:
        where = settings.discord_api_base or f"{discord.http.Route.BASE} (Discord)"
        fix = "check DISCORD_API_BASE" if settings.discord_api_base else "check the network"
        raise StartupError(
            f"Cannot reach the Discord API at {where} ({error or type(error).__name__}): {fix},"
            " then start the bot again.",
            status=1,
        ) from None


def _new_database_file(settings: Settings) -> Path | None:
    """The SQLite file this start will create (None: PostgreSQL, or the file is there)."""
    if settings.database_url:
        return None
    path = Path(settings.database_path)
    return None if os.path.lexists(path) else path


def _remove_database_file(path: Path) -> None:
    """Remove a database file this start created, and SQLite's files beside it."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm", f"{path.name}-journal"):
        # Not there (or not ours to remove): leave it.
        with contextlib.suppress(OSError):
            (path.parent / name).unlink()


async def run_bot(settings: Settings) -> None:
    """Run the bot until it is closed or the process gets SIGTERM/SIGINT.

    The store is opened (and checked, changing nothing) before logging in, brought to this
    release's schema once Discord has taken the token, and closed on every way out. A stop
    signal once the bot is set up and its shards launched closes it cleanly (no new moves,
    what is owed is sent); during start-up it stops the start-up where it is. Raises
    :class:`StartupError` for what stops start-up (the database, ``DEV_GUILD_ID``, Discord out
    of reach).

    A start that ends before the gateway said READY leaves no new file: a SQLite file it
    created is removed again; one that ends before Discord took the token leaves an existing
    database exactly as it was. Its log lines wait until it is logged in and set up; a start
    that fails shows only its warnings and errors, so its reason is the one line that counts.
    """
    token = settings.discord_token
    if not token:
        raise ValueError("DISCORD_TOKEN is not set.")
    point_at_api(settings.discord_api_base, settings.discord_gateway_url)
    configure_logging(settings.log_level)
    # Every connection is a file: a low soft limit (a service manager's 1,024) would let the
    # game pages starve Discord and the database (bot.web.capacity).
    raise_open_files()
    held = HeldLog()
    new_file = _new_database_file(settings)
    starting = asyncio.current_task()
    assert starting is not None
    bot: CribbageBot | None = None
    stopping = False
    closing: list[asyncio.Task[None]] = []  # held, so the task is not collected mid-way

    def stop() -> None:
        nonlocal stopping
        if stopping:
            return
        stopping = True
        if bot is not None and bot.started:
            # A host stopping the worker gets a clean shutdown: queued messages go out first.
            closing.append(asyncio.ensure_future(bot.close()))
        else:
            # Closing the client halfway through logging in breaks it ("Connector is closed");
            # cancelling unwinds whatever was opened so far, the store included.
            starting.cancel()

    with _on_stop_signals(stop):
        if early_stop.requested():
            # A stop signal came before these handlers, and Python dropped the SystemExit it
            # raised (inside an import's weakref callback, say): stop now, as it asked.
            stop()
        try:
            store = await open_store(settings)
            try:
                bot = assembly.client(settings, store=store)
                async with bot:
                    await _log_in(bot, token, settings)
                    held.release()
                    await bot.connect()
            finally:
                log.info("database round trips: %d", store.db.round_trips)
                # The store's worker thread would keep the process alive: close it whatever
                # happened (shielded, so a stop signal now cannot leave it half closed).
                await asyncio.shield(store.close())
        except asyncio.CancelledError:
            if not stopping:
                raise
            held.release()
            log.info("stopped during start-up")
        finally:
            held.drop()
            if new_file is not None and not (bot is not None and bot.reached_gateway):
                _remove_database_file(new_file)


@contextlib.contextmanager
def _on_stop_signals(stop: Callable[[], None]) -> Iterator[None]:
    """Inside the block, :data:`STOP_SIGNALS` call ``stop``; the handlers before are put back
    after it."""
    loop = asyncio.get_running_loop()
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop)
    try:
        yield
    finally:
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)
            handler = previous[sig]
            if handler is not None:
                signal.signal(sig, handler)
