"""A throwaway PostgreSQL server for the tests and benchmarks: Debian's ``postgresql`` package,
a fresh cluster in a temporary folder, listening on 127.0.0.1 only, trusting local connections.

``initdb`` refuses to run as root, so when the tests run as root (as CI does) the cluster is
made and run as the ``postgres`` user the package creates; otherwise as the current user. A
machine without PostgreSQL is an error, not a skip: ``.ci/run`` installs the package.

    with PostgresServer.start() as server:
        url = server.create_database("bot")     # postgresql://postgres@127.0.0.1:PORT/bot

A test run shares one server among its processes (pytest-xdist's workers) through a
:class:`SharedServer`: the first process that needs it starts it, the others find it, and the
run's main process stops it at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import glob
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import asyncpg

from fakediscord.runner import free_port
from tests.helpers.timeline import process_cpu

__all__ = ["PostgresMissing", "PostgresServer", "SharedServer", "postgres_bin"]

#: The superuser of the throwaway cluster (and the system user that runs it as root).
SUPERUSER = "postgres"
#: A folder in memory (tmpfs) for the clusters, where the machine has one with room
#: (:func:`cluster_folder`).
MEMORY = Path("/dev/shm")
#: The room a cluster may take in :data:`MEMORY`: the template and the databases of the tests
#: under way (each test's is dropped as it ends, see ``tests/conftest.py``), some 7 MB each,
#: and up to ``max_wal_size`` of WAL.
MEMORY_ROOM = 2 << 30


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed on this machine."""


def postgres_bin() -> Path:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres`` (Debian keeps them by version)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise PostgresMissing(
        "PostgreSQL is not installed: `apt-get install postgresql` (what .ci/run does)."
    )


def cluster_folder() -> str | None:
    """Where a throwaway cluster is made: :data:`MEMORY` when it is there, writable and has
    :data:`MEMORY_ROOM` free, else the system's temporary folder (None). On disk, even with
    fsync off, a new database copied from the template took 0.3-0.5 s on the shared 2-core
    test machine (the kernel writing its 7 MB back, behind everyone else's writes), in
    memory 0.01-0.03 s; a suite run makes some 600 (``benchmarks/fixture_databases.py``)."""
    try:
        room = os.statvfs(MEMORY)
    except OSError:
        return None
    if room.f_bavail * room.f_frsize < MEMORY_ROOM or not os.access(MEMORY, os.W_OK):
        return None
    return str(MEMORY)


class _Admin:
    """One connection to a server's ``postgres`` database, kept for the process, in a thread
    with an event loop of its own (a fixture may use it while a test's loop runs): a test's
    new database is one statement on it, where ``psql`` cost a process of its own and a
    server process for its connection, some 30 ms of CPU, for each of some 500 a run."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._connection: asyncpg.Connection | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="postgres-admin", daemon=True
        )
        self._thread.start()

    def execute(self, sql: str) -> None:
        """Run ``sql`` (connecting again if the server was stopped and started since)."""
        asyncio.run_coroutine_threadsafe(self._execute(sql), self._loop).result()

    async def _execute(self, sql: str) -> None:
        if self._connection is None or self._connection.is_closed():
            self._connection = await asyncpg.connect(self._url)
        await self._connection.execute(sql)

    def close(self) -> None:
        """Close the connection and stop the thread."""

        async def close() -> None:
            if self._connection is not None:
                with contextlib.suppress(Exception):
                    await self._connection.close(timeout=5)

        asyncio.run_coroutine_threadsafe(close(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


@dataclass
class PostgresServer:
    """A running throwaway cluster; :meth:`stop` (or leaving the ``with``) removes it."""

    folder: Path
    port: int
    bin: Path
    as_user: str | None
    _admin: _Admin | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def start(cls) -> PostgresServer:
        """Make a fresh cluster and start it (a few seconds)."""
        bin_dir = postgres_bin()
        as_user = SUPERUSER if os.geteuid() == 0 else None
        folder = Path(tempfile.mkdtemp(prefix="crib-pg-", dir=cluster_folder()))
        if as_user is not None:
            shutil.chown(folder, user=as_user)
        server = cls(folder, free_port(), bin_dir, as_user)
        try:
            server._run(
                "initdb",
                "-D",
                str(folder / "data"),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            )
            server._start()
        except BaseException:
            server._remove()
            raise
        return server

    def describe(self) -> dict[str, str | int | None]:
        """What another process needs to use (and stop) this server: see :meth:`described`."""
        return {
            "folder": str(self.folder),
            "port": self.port,
            "bin": str(self.bin),
            "as_user": self.as_user,
        }

    @classmethod
    def described(cls, found: dict[str, str | int | None]) -> PostgresServer:
        """The running server that :meth:`describe` told of."""
        return cls(
            Path(str(found["folder"])),
            int(str(found["port"])),
            Path(str(found["bin"])),
            None if found["as_user"] is None else str(found["as_user"]),
        )

    def _run(self, program: str, *args: str) -> str:
        command = [str(self.bin / program), *args]
        if self.as_user is not None:
            command = ["runuser", "-u", self.as_user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd="/")
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed: {done.stderr or done.stdout}\n{tail}")
        return done.stdout

    def url(self, database: str = "postgres") -> str:
        """The connection URL of a database on this server, through the server's Unix socket
        in its own folder: a one-row query cost the client some 8% and the server some 20%
        less CPU than through TCP on the loopback (``benchmarks/fixture_databases.py``), and a
        run makes hundreds of thousands."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={self.port}"

    def cpu(self) -> float | None:
        """The CPU (seconds) the server's processes have spent: the postmaster's own, the
        processes it reaped (each connection's) and those still there; None once stopped."""
        try:
            postmaster = (self.folder / "data" / "postmaster.pid").read_text().split()[0]
        except (OSError, IndexError):
            return None
        return process_cpu(postmaster)

    def tcp_url(self, database: str = "postgres") -> str:
        """The connection URL of a database on this server through TCP (for what must reach it
        by an address and port: a proxy between, a message naming where it was looked for)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(
        self, name: str, template: str | None = None, strategy: str = "FILE_COPY"
    ) -> str:
        """A new database, empty or a copy of the database ``template`` (which nobody may be
        connected to meanwhile); its URL.

        Copied file by file (``strategy``, PostgreSQL 15 and later), not block by block
        through the write-ahead log (``WAL_LOG``) as PostgreSQL does by default: on the shared
        2-core test machine a test's database, copied, opened, closed and dropped, cost the
        server 27.5-34 ms of CPU that way and 23.5 ms this one, the copy's two checkpoints
        included (this server neither syncs nor keeps its files past the run;
        ``benchmarks/fixture_databases.py``), and each test on PostgreSQL makes one."""
        copied = "" if template is None else f' TEMPLATE "{template}"'
        self._execute(f'CREATE DATABASE "{name}"{copied} STRATEGY {strategy}')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop the database ``name`` if it is there, ending any connection still to it."""
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _execute(self, sql: str) -> None:
        """Run ``sql`` on the server's ``postgres`` database (one connection per process)."""
        if self._admin is None:
            self._admin = _Admin(self.url())
        self._admin.execute(sql)

    def _start(self) -> None:
        folder = self.folder
        self._run(
            "pg_ctl",
            "-D",
            str(folder / "data"),
            "-l",
            str(folder / "server.log"),
            "-w",
            "-t",
            "60",
            "-o",
            # Loopback only, the socket in our own folder; fsync off: a test database need
            # not survive a power cut, and tests should not wait on the disk. No autovacuum:
            # a test's database lives seconds, and its workers visited each of them in turn
            # (the server's CPU on the store's and the games' tests, 28 -> 26 s).
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {folder}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=400 -c max_wal_size=256MB -c autovacuum=off",
            "start",
        )

    def halt(self) -> None:
        """Stop the server, keeping its folder (an outage: :meth:`resume` ends it). Its
        connections are dropped at once; what was committed is kept (a fast shutdown: with
        the test server's asynchronous commits an immediate one may lose the last)."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server again after :meth:`halt`, on the same port."""
        self._start()

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        self._remove()

    def _remove(self) -> None:
        for _ in range(3):
            shutil.rmtree(self.folder, ignore_errors=True)
            if not self.folder.exists():
                return
            time.sleep(0.2)

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


class SharedServer:
    """One server for every process of a test run, found through a folder they share.

    The first process to ask starts the server and writes where it is (``server.json``) while
    it holds the folder's lock, so the others wait for it and then use the same server. The
    process that made the folder (the run's main one) calls :meth:`stop` at the end; the others
    never stop it.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @property
    def _info(self) -> Path:
        return self.folder / "server.json"

    def server(self) -> PostgresServer:
        """The run's server, started if no process has started it yet."""
        with (self.folder / "lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self._info.exists():
                return PostgresServer.described(json.loads(self._info.read_text()))
            server = PostgresServer.start()
            self._info.write_text(json.dumps(server.describe()))
            return server

    def stop(self) -> None:
        """Stop the server if one was started, and remove the folder."""
        with (self.folder / "lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self._info.exists():
                PostgresServer.described(json.loads(self._info.read_text())).stop()
                self._info.unlink()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running() -> Iterator[PostgresServer]:
    """A server for the length of a ``with`` block."""
    server = PostgresServer.start()
    try:
        yield server
    finally:
        server.stop()
