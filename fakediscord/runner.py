"""Running a discord.py bot against the emulator: in this process or as a child process.

Both kinds collect the bot's errors (ERROR/CRITICAL log records in-process; ERROR/CRITICAL lines
and tracebacks on a process's output) and notice a client task or process that dies on its own;
registered as an emulator health check, that makes the next `slash`/`click`/`wait_for` raise
`BotFailure`. The pytest fixtures in `fakediscord.testing` build on these; so does the
playground, which must not need pytest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import re
import signal
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from fakediscord.discordpy import point_discord_py_at
from fakediscord.server import FakeDiscord
from fakediscord.warm import WarmProcess, WarmStarts

REPO_ROOT = Path(__file__).resolve().parent.parent
#: The longest line of a bot's output read whole (bytes).
LINE_LIMIT = 16 * 1024 * 1024

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
ERROR_LINE = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback \(most recent call last\)")


#: Where the ports :func:`free_port` hands out come from: below the range the system takes
#: the local ports of outgoing connections from (Linux's ``ip_local_port_range``, 32768-60999
#: by default), where a port a probe found free could be taken by any connection the moment
#: after (a bot's game pages then failed to start, "address already in use", on a busy run).
_OUTGOING = Path("/proc/sys/net/ipv4/ip_local_port_range")
_LOWEST = 10000
_PICK = random.SystemRandom()  # (not the random module's: a test may seed it, in every worker)


def free_port() -> int:
    """A TCP port free on this machine now (for a server a bot or a test starts beside the
    emulator: the game pages, a PostgreSQL cluster), outside the range of outgoing
    connections' ports where the system has one below which there is room; else one the
    system picks."""
    try:
        outgoing = int(_OUTGOING.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        outgoing = 0
    for _ in range(50 if outgoing > _LOWEST + 1000 else 0):
        port = _PICK.randrange(_LOWEST, outgoing)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RunningBot:
    """What both kinds of bot share: error collection, readiness and restart."""

    def __init__(self, fd: FakeDiscord) -> None:
        self.fd = fd
        self.errors: list[str] = []
        self.allowed: list[str] = []  # errors that matched allow_errors, kept for inspection
        self._allowed: list[re.Pattern[str]] = []
        self._stopping = False
        self._remove_check: Callable[[], None] | None = None
        # When True, the bot's problems make emulator calls raise; the playground turns it off
        # and shows them instead.
        self.watched = True

    def allow_errors(self, pattern: str) -> None:
        """Errors matching `pattern` (a regex searched in the message) do not fail the test."""
        self._allowed.append(re.compile(pattern))

    def _report(self, text: str) -> None:
        if any(p.search(text) for p in self._allowed):
            self.allowed.append(text)
        else:
            self.errors.append(text)

    def take_errors(self) -> list[str]:
        """The errors collected so far; they no longer count against the test."""
        taken, self.errors = self.errors, []
        return taken

    def problem(self) -> str | None:
        """A description of what went wrong in the bot, or None if nothing did."""
        if self.errors:
            return "the bot reported an error:\n" + "\n".join(self.errors)
        return self._death()

    def _death(self) -> str | None:
        raise NotImplementedError

    async def _wait_ready(self, identifies_before: int, timeout: float) -> None:
        fd = self.fd

        def ready() -> bool:
            return (
                fd.gateway.identify_count > identifies_before
                and fd.gateway.connected
                and fd.gateway.ready.is_set()
                and fd.commands.sync_count > 0
            )

        await fd.wait_for(ready, timeout=timeout)

    async def start(self) -> None:
        """Start the bot and wait until it is ready."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Stop the bot (cleanly: it closes its gateway connection)."""
        raise NotImplementedError

    async def restart(self) -> None:
        """Stop the bot, then start it again against the same emulator (and database)."""
        await self.stop()
        await self.start()


class InProcessBot(RunningBot):
    """A discord.py client running in the test's own event loop."""

    def __init__(
        self,
        fd: FakeDiscord,
        factory: Callable[[], Any],
        *,
        ready_timeout: float = 30.0,
        guild_ready_timeout: float | None = 0.05,
    ) -> None:
        super().__init__(fd)
        self.factory = factory
        self.ready_timeout = ready_timeout
        self.guild_ready_timeout = guild_ready_timeout
        self.client: Any = None
        self.task: asyncio.Task[None] | None = None
        self._undo: Callable[[], None] | None = None
        self._handler = _ErrorHandler(self)

    def _death(self) -> str | None:
        if self.task is not None and self.task.done() and not self._stopping:
            error = None if self.task.cancelled() else self.task.exception()
            return f"the bot's client task ended on its own: {error!r}"
        return None

    async def start(self) -> None:
        """Create the client with the factory, log it in and wait for on_ready."""
        self._stopping = False
        self._undo = point_discord_py_at(self.fd)
        logging.getLogger().addHandler(self._handler)
        self.client = self.factory()
        if self.guild_ready_timeout is not None and hasattr(self.client, "_connection"):
            # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before
            # on_ready; tests need not.
            self.client._connection.guild_ready_timeout = self.guild_ready_timeout
        if self._remove_check is None and self.watched:
            self._remove_check = self.fd.add_health_check(self.problem)
        before = self.fd.gateway.identify_count
        self.task = asyncio.create_task(self.client.start(self.fd.bot_token))
        await self._wait_ready(before, self.ready_timeout)
        await self.fd.wait_for(self.client.is_ready, timeout=self.ready_timeout)

    async def stop(self) -> None:
        """Close the client and wait for its task."""
        self._stopping = True
        if self.client is not None:
            await self.client.close()
        if self.task is not None:
            # A task that died was reported by problem(); stopping must not raise it again.
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.task, timeout=10)
        logging.getLogger().removeHandler(self._handler)
        if self._undo is not None:
            self._undo()
            self._undo = None


class _ErrorHandler(logging.Handler):
    def __init__(self, bot: RunningBot) -> None:
        super().__init__(level=logging.ERROR)
        self.bot = bot

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self.bot._report(text)


#: What a bot process is given as ``GUILD_READY_SECONDS`` (the bot's setting for discord.py's
#: ``guild_ready_timeout``), as an in-process bot's ``guild_ready_timeout``.
GUILD_READY_SECONDS = "0.05"


class BotProcess(RunningBot):
    """A bot started as its own process (by default `python -m bot`) against the emulator."""

    def __init__(
        self,
        fd: FakeDiscord,
        args: Sequence[str] = ("-m", "bot"),
        *,
        database: str | os.PathLike[str] | None = None,
        dev_guild: int | None = None,
        env: dict[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        ready_timeout: float = 60.0,
        ready_text: str | None = None,
        warm: WarmStarts | None = None,
    ) -> None:
        super().__init__(fd)
        self.args = list(args)
        #: What forks the process from one that imported the bot already, when it can
        #: (fakediscord.warm); else, and when None, the process is started cold.
        self.warm = warm
        #: A SQLite file's path, or a ``postgresql://`` URL (passed as DATABASE_URL).
        self.database = database
        self.dev_guild = dev_guild
        self.extra_env = env or {}
        self.cwd = cwd or REPO_ROOT
        self.ready_timeout = ready_timeout
        self.ready_text = re.compile(ready_text) if ready_text else None
        self.output: list[str] = []
        self.proc: asyncio.subprocess.Process | WarmProcess | None = None
        self._reader: asyncio.Task[None] | None = None
        self._traceback: list[str] | None = None

    def environment(self) -> dict[str, str]:
        """The environment the process gets."""
        env = dict(os.environ)
        env.update(
            DISCORD_TOKEN=self.fd.bot_token,
            DISCORD_API_BASE=self.fd.api_base,
            DISCORD_GATEWAY_URL=self.fd.gateway_url,
            PYTHONUNBUFFERED="1",
            PYTHONPATH=os.pathsep.join(
                p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
            # The bot's discord.py waits this long after the last GUILD_CREATE before on_ready
            # (2 s by default); the emulator sends every one at once, so tests need not (as
            # InProcessBot's guild_ready_timeout). A test's `env` may say otherwise.
            GUILD_READY_SECONDS=GUILD_READY_SECONDS,
        )
        if self.database is not None:
            # The database given here is the only one: one inherited from the environment
            # would be refused by the bot's settings as a second choice.
            env.pop("DATABASE_PATH", None)
            env.pop("DATABASE_URL", None)
            where = str(self.database)
            if where.startswith(("postgresql://", "postgres://")):
                env["DATABASE_URL"] = where
            else:
                env["DATABASE_PATH"] = where
        if self.dev_guild is not None:
            env["DEV_GUILD_ID"] = str(self.dev_guild)
        env.update(self.extra_env)
        return env

    def _death(self) -> str | None:
        if self.proc is not None and self.proc.returncode is not None and not self._stopping:
            tail = "\n".join(self.output[-20:])
            return f"the bot process exited with {self.proc.returncode}:\n{tail}"
        return None

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            # discord.py colours its log lines even into a pipe (inside containers); "\x1b[31mERROR"
            # has no word boundary before ERROR, so strip the colours first.
            line = ANSI_ESCAPE.sub("", raw.decode(errors="replace").rstrip("\n"))
            self.output.append(line)
            if self._stopping:
                continue
            if self._traceback is not None:
                # Collect a traceback until its last line (the exception), then report it whole.
                self._traceback.append(line)
                if line and not line.startswith((" ", "Traceback")):
                    self._report("\n".join(self._traceback))
                    self._traceback = None
            elif "Traceback (most recent call last)" in line:
                self._traceback = [line]
            elif ERROR_LINE.search(line):
                self._report(line)
            self.fd._notify()

    async def start(self) -> None:
        """Start the process and wait until it is connected, synced (and printed `ready_text`)."""
        self._stopping = False
        before = self.fd.gateway.identify_count
        mark = len(self.output)
        self.proc = await self._spawn()
        self._reader = asyncio.create_task(self._read())
        if self._remove_check is None and self.watched:
            self._remove_check = self.fd.add_health_check(self.problem)
        await self._wait_ready(before, self.ready_timeout)
        if self.ready_text is not None:
            pattern = self.ready_text
            await self.fd.wait_for(
                lambda: any(pattern.search(line) for line in self.output[mark:]),
                timeout=self.ready_timeout,
            )

    async def _spawn(self) -> asyncio.subprocess.Process | WarmProcess:
        return await spawn(self.args, self.environment(), self.cwd, self.warm)

    async def stop(self, timeout: float = 20.0) -> None:
        """Interrupt the process (SIGINT, as Ctrl-C), then kill it if it lingers (the bot gives
        itself 10 s to finish what it owes; the rest is for a busy machine)."""
        self._stopping = True
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        proc.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(proc.wait(), timeout=timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        if self._reader is not None:
            await self._reader

    def kill_now(self) -> None:
        """SIGKILL the process at once (no clean shutdown; usable from a synchronous hook such
        as `FakeDiscord.after_request`); `await kill()` also waits for it to be gone."""
        self._stopping = True
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()

    async def kill(self) -> None:
        """SIGKILL the process and wait until it is gone."""
        self.kill_now()
        await self._gone()

    async def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM the process (as a host stopping a worker) and wait for it to exit on its
        own; its exit status."""
        self._stopping = True
        assert self.proc is not None
        self.proc.terminate()
        code = await asyncio.wait_for(self.proc.wait(), timeout=timeout)
        await self._gone()
        return code

    async def _gone(self) -> None:
        if self.proc is not None:
            await self.proc.wait()
        if self._reader is not None:
            await self._reader


async def spawn(
    args: Sequence[str],
    env: Mapping[str, str],
    cwd: str | os.PathLike[str],
    warm: WarmStarts | None = None,
) -> asyncio.subprocess.Process | WarmProcess:
    """``python <args>`` in ``cwd``, its output and errors in one pipe: forked by ``warm``
    when it serves the start (fakediscord.warm), else started cold."""
    if warm is not None and warm.serves(args, env, cwd):
        forked = await warm.start(args, env, cwd, LINE_LIMIT)
        if forked is not None:
            return forked
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        env=dict(env),
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        # A line of any length is read whole (asyncio's 64 KiB default made a long one
        # stop the reading, and with it the run, with LimitOverrunError).
        limit=LINE_LIMIT,
    )


class BotLauncher:
    """Starts bots against one emulator and stops them all when the test ends (processes warm
    through ``warm`` when it can start them so)."""

    def __init__(self, fd: FakeDiscord, warm: WarmStarts | None = None) -> None:
        self.fd = fd
        self.warm = warm
        self.bots: list[RunningBot] = []

    async def in_process(self, factory: Callable[[], Any], **options: Any) -> InProcessBot:
        """Start `factory()` (a `discord.Client` / `commands.Bot`) in this process."""
        bot = InProcessBot(self.fd, factory, **options)
        self.bots.append(bot)
        await bot.start()
        return bot

    async def process(self, args: Sequence[str] = ("-m", "bot"), **options: Any) -> BotProcess:
        """Start `python <args>` as a process pointed at the emulator (see `BotProcess`)."""
        options.setdefault("warm", self.warm)
        bot = BotProcess(self.fd, args, **options)
        self.bots.append(bot)
        await bot.start()
        return bot

    async def close(self) -> list[str]:
        """Stop every bot; return the problems found (errors, deaths), what the checks the test
        left for the end (:meth:`FakeDiscord.at_the_end`) found once they had stopped, and each
        request Discord's OpenAPI description refused (:meth:`FakeDiscord.refusals`)."""
        problems = [p for p in (b.problem() for b in self.bots) if p]
        for bot in self.bots:
            await bot.stop()
        return problems + self.fd.end_checks() + self.fd.refusals()
