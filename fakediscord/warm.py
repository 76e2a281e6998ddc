"""Bot processes started warm: forked from a process that has imported the bot already.

A ``python -m bot`` start spends most of its CPU importing (discord.py, aiohttp and the bot's
own modules: about 0.5 s of a start's 0.7 s on the 2-core test machine), and the end-to-end
tests start several hundred bots. :class:`WarmStarts` keeps one process per test process (a
zygote) that has imported what ``python -m bot`` imports, and forks a child for each start: the
child takes the start's environment, folder, arguments and output pipe, and runs the module as
the interpreter runs ``-m`` (:func:`runpy.run_module` as ``__main__``, ``sys.path[0]`` the
folder), so the bot runs as it runs started cold, from its first line on. A start it cannot
make the same is left to a cold start (:meth:`WarmStarts.serves`): other arguments, an
environment that differs from the zygote's in what a process reads before its first line runs:
the interpreter's and the C libraries' settings (``PYTHON*``: another ``PYTHONPATH`` is another
release's code; the locale, ``TZ``, the loader's, OpenSSL's), and every variable the zygote's
imports looked up (it notes them as it imports: aiohttp's and Pillow's switches,
``SSLKEYLOGFILE``...); or another folder than the zygote's where that folder is not the same to
the zygote's imports. A folder is first on ``sys.path``: one that holds a module or package
named as one the zygote imported (``json.py``, ``bot/``) would have been imported instead, cold;
and an import that asked for the folder (the zygote notes who calls ``os.getcwd``) keeps the
zygote's, unless the child sets it right (:data:`_FOLDER_KEPT`: multiprocessing's
``ORIGINAL_DIR``). Another folder is judged once the zygote runs (it starts in its own).
What the bot reads as it runs (its token, its database, Discord's address) is the start's own.

The zygote has no threads and no event loop; its garbage collector is off while it imports and
what it imported is frozen before it forks (:func:`gc.freeze`, as Python's documentation
advises for a process that forks without exec: a child's collections neither scan nor copy
those pages). It is its children's parent, so it reaps each and writes its exit status to a
pipe of that start's own; :class:`WarmProcess` reads it, and gives a
:class:`~fakediscord.runner.BotProcess` the rest of what ``asyncio.subprocess.Process`` gives
(pid, returncode, signals, wait, stdout).

This file is run as a script for the zygote (``python warm.py FD MODULE...``; ``MODULE:FUNCTION``
also calls the function once imported) and imports only
the standard library, so that the bots forked from it hold nothing the bot would not import.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import importlib.machinery
import json
import os
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import threading
import traceback
from collections.abc import ItemsView, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["COLD_ENV", "WarmProcess", "WarmStarts"]

#: Set (to anything), every bot process is started cold, as ``python -m bot`` (to compare).
COLD_ENV = "FAKEDISCORD_COLD_STARTS"
#: The largest message between a test process and its zygote (a start's environment).
_MESSAGE = 1 << 20


#: Variables the interpreter and the C libraries read as a process starts (or as the zygote
#: imports, below Python's ``os.environ``), which a fork cannot take on.
_STARTING = ("PYTHON", "LC_", "LD_", "MALLOC_", "OPENSSL_", "SSL_CERT_")
_STARTING_NAMES = ("LANG", "LANGUAGE", "TZ", "GLIBC_TUNABLES")
#: The modules that note the folder as they are imported, and the name they keep it under: a
#: child started in another folder sets it as a cold start's import would have.
_FOLDER_KEPT = {"multiprocessing.process": "ORIGINAL_DIR"}
#: Modules that ask for the folder on behalf of their caller (``os.path.abspath``, ``Path.cwd``).
_ON_BEHALF = ("os", "posixpath", "genericpath", "pathlib")


def _settings(env: Mapping[str, str]) -> dict[str, str]:
    """The variables that shape the interpreter itself, which a fork cannot take on."""
    return {k: v for k, v in env.items() if k.startswith(_STARTING) or k in _STARTING_NAMES}


def _shadows(folder: Path, modules: set[str]) -> bool:
    """Whether ``folder``, first on ``sys.path``, holds something an import of one of the
    top-level ``modules`` would find there (a package, a namespace folder, a module of any
    suffix the interpreter imports)."""
    suffixes = tuple(importlib.machinery.all_suffixes())
    try:
        names = os.listdir(folder)
    except OSError:
        return True
    return any(
        name in modules or any(name.endswith(s) and name[: -len(s)] in modules for s in suffixes)
        for name in names
    )


class _Noting(MutableMapping[str, str]):
    """``os.environ`` while the zygote imports: the names looked up are noted (a module that
    reads a variable as it is imported keeps the zygote's value in every fork)."""

    def __init__(self, real: MutableMapping[str, str]) -> None:
        self.real = real
        self.names: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.names.add(key)
        return self.real[key]

    def __contains__(self, key: object) -> bool:
        self.names.add(str(key))
        return key in self.real

    def __setitem__(self, key: str, value: str) -> None:
        self.real[key] = value

    def __delitem__(self, key: str) -> None:
        del self.real[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.real)

    def __len__(self) -> int:
        return len(self.real)

    def items(self) -> ItemsView[str, str]:
        """Every variable: a copy of the whole environment, not a look at any one of them
        (wsgiref's handlers keep one, for the CGI programs they run)."""
        return self.real.items()

    def copy(self) -> dict[str, str]:
        """A plain copy, as ``os.environ.copy()``."""
        return dict(self.real)


class WarmProcess:
    """A bot forked by the zygote, seen from the test process (as asyncio's ``Process``)."""

    def __init__(self, pid: int, stdout: asyncio.StreamReader, status: int) -> None:
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None
        self._loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[int] = self._loop.create_future()
        self._status = status
        self._loop.add_reader(status, self._read_status)

    def _read_status(self) -> None:
        """The zygote wrote the exit status (or died: then the status is unknown, -1)."""
        data = os.read(self._status, 64)
        self._loop.remove_reader(self._status)
        os.close(self._status)
        self.returncode = int(data) if data.strip() else -1
        if not self._exited.done():
            self._exited.set_result(self.returncode)

    def send_signal(self, signum: int) -> None:
        """Send ``signum`` unless the process has exited."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        """SIGTERM."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        """Wait for the process to exit; its exit status (minus the signal that ended it)."""
        return await asyncio.shield(self._exited)


class WarmStarts:
    """Starts ``python -m <module>`` in ``folder`` by forking a zygote that imported
    ``preload`` already (started at the first start it serves, with that start's environment;
    one per test process, for the whole session). An entry ``module:function`` is imported,
    then its function called with no argument: work every start of the program does first, the
    same each time, and keeps (a pure function's cache), done once for all of them."""

    def __init__(self, module: str, preload: Sequence[str], folder: str | os.PathLike[str]) -> None:
        self.module = module
        self.preload = list(preload)
        self.folder = Path(folder).resolve()
        self._control: socket.socket | None = None
        self._zygote: subprocess.Popen[bytes] | None = None
        self._settings: dict[str, str] = {}
        #: The variables the zygote's imports looked up, with its values (None: unset).
        self._read: dict[str, str | None] = {}
        #: The top-level modules the zygote imported, and whether any of them kept its folder
        #: where a child cannot set it right.
        self._modules: set[str] = set()
        self._folder_kept = True
        self._lock = threading.Lock()
        self._broken = bool(os.environ.get(COLD_ENV))

    def serves(
        self, args: Sequence[str], env: Mapping[str, str], cwd: str | os.PathLike[str]
    ) -> bool:
        """Whether a start with these arguments, environment and folder runs warm (before the
        zygote runs, a start in another folder may: :meth:`start` judges it once it does)."""
        if self._broken or list(args[:2]) != ["-m", self.module]:
            return False
        if self._zygote is None:
            return True
        if not self._same_folder(cwd):
            return False
        read = all(env.get(name) == value for name, value in self._read.items())
        return read and _settings(env) == self._settings

    async def start(
        self, args: Sequence[str], env: Mapping[str, str], cwd: str | os.PathLike[str], limit: int
    ) -> WarmProcess | None:
        """Fork a bot for this start (None: the zygote could not, or its imports would not be
        the same in this folder; start it cold)."""
        out_read, out_write = os.pipe()
        status_read, status_write = os.pipe()
        request = {"args": list(args[1:]), "env": dict(env), "cwd": str(cwd)}
        try:
            pid = await asyncio.to_thread(self._fork, request, out_write, status_write)
        finally:
            os.close(out_write)
            os.close(status_write)
        if pid is None:
            os.close(out_read)
            os.close(status_read)
            return None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=limit, loop=loop)
        # The transport owns the pipe from here, and closes it at its end.
        pipe = open(out_read, "rb", 0)  # noqa: SIM115
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), pipe)
        return WarmProcess(pid, reader, status_read)

    def _fork(self, request: dict[str, Any], out: int, status: int) -> int | None:
        with self._lock:
            try:
                if self._control is None:
                    self._start_zygote(request["env"])
                if not self._same_folder(request["cwd"]):
                    return None
                assert self._control is not None
                socket.send_fds(self._control, [json.dumps(request).encode()], [out, status])
                answer = json.loads(self._control.recv(_MESSAGE) or b"{}")
            except (OSError, ValueError, RuntimeError):
                answer = {}
            if "pid" not in answer:
                self._broken = True  # the rest of the session starts cold
                return None
            return int(answer["pid"])

    def _same_folder(self, cwd: str | os.PathLike[str]) -> bool:
        """Whether the zygote's imports are those of a cold start in ``cwd`` (once it runs)."""
        folder = Path(cwd).resolve()
        if folder == self.folder:
            return True
        return not self._folder_kept and not _shadows(folder, self._modules)

    def _start_zygote(self, env: Mapping[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self._zygote = subprocess.Popen(
                [sys.executable, __file__, str(theirs.fileno()), *self.preload],
                env=dict(env),
                cwd=self.folder,
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        self._control = ours
        self._settings = _settings(env)
        ready = ours.recv(_MESSAGE)
        if not ready.startswith(b"ready "):
            raise RuntimeError(f"the warm bot process did not start: {ready.decode()}")
        noted = json.loads(ready[len(b"ready ") :])
        self._read = {name: env.get(name) for name in noted["variables"]}
        self._modules = set(noted["modules"])
        self._folder_kept = not set(noted["folder_readers"]) <= set(_FOLDER_KEPT)

    def close(self) -> None:
        """Stop the zygote (the bots it started are the tests' to stop)."""
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._zygote is not None:
            try:
                self._zygote.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._zygote.kill()
                self._zygote.wait()
            self._zygote = None


# The zygote: what runs in ``python warm.py FD MODULE...``.


def _zygote(control: socket.socket, preload: Sequence[str]) -> dict[str, Any] | None:
    """Import ``preload``, then fork a child for each request until the test process goes.
    Returns in a child only, with its request (None in the zygote, once it is done)."""
    gc.disable()
    noting = _Noting(os.environ)
    folder_readers: set[str] = set()
    getcwd = os.getcwd

    def noting_getcwd() -> str:
        caller = sys._getframe(1)
        while caller.f_back is not None and caller.f_globals.get("__name__") in _ON_BEHALF:
            caller = caller.f_back
        folder_readers.add(str(caller.f_globals.get("__name__")))
        return getcwd()

    # Replaced, not cleared (B003): os.getenv and os.environ.get read the replacement.
    os.environ = noting  # type: ignore[assignment]  # noqa: B003
    os.getcwd = noting_getcwd
    try:
        for name in preload:
            # ("module:function": the module imported, then the function called, as the
            # program would call it, the same in every start: work its starts share.)
            module, _, function = name.partition(":")
            imported = importlib.import_module(module)
            if function:
                getattr(imported, function)()
    except BaseException:
        control.send(traceback.format_exc().encode()[-60_000:])
        return None
    finally:
        os.environ = noting.real  # type: ignore[assignment]  # noqa: B003
        os.getcwd = getcwd
    gc.freeze()
    noted = {
        "variables": sorted(noting.names),
        "modules": sorted({name.partition(".")[0] for name in sys.modules}),
        "folder_readers": sorted(folder_readers),
    }
    control.send(b"ready " + json.dumps(noted).encode())
    children: dict[int, tuple[int, int]] = {}  # pidfd -> (pid, status pipe)
    with selectors.DefaultSelector() as selector:
        selector.register(control, selectors.EVENT_READ)
        while True:
            for key, _ in selector.select():
                if key.fileobj is control:
                    message, fds, _flags, _address = socket.recv_fds(control, _MESSAGE, 2)
                    if not message:
                        return None  # the test process is gone
                    out, status = fds
                    pid = os.fork()
                    if pid == 0:  # the child (the selector is closed as the block ends)
                        control.close()
                        for pidfd, (_pid, kept) in children.items():
                            os.close(pidfd)
                            os.close(kept)
                        os.close(status)
                        request: dict[str, Any] = json.loads(message)
                        request["out"] = out
                        return request
                    os.close(out)
                    pidfd = os.pidfd_open(pid)
                    children[pidfd] = (pid, status)
                    selector.register(pidfd, selectors.EVENT_READ)
                    control.send(json.dumps({"pid": pid}).encode())
                else:
                    pidfd = int(key.fd)
                    pid, status = children.pop(pidfd)
                    selector.unregister(pidfd)
                    os.close(pidfd)
                    _, code = os.waitpid(pid, 0)
                    os.write(status, f"{os.waitstatus_to_exitcode(code)}\n".encode())
                    os.close(status)


def _run(request: dict[str, Any]) -> None:
    """In a forked child: become ``python -m <module> <args>`` with the request's standard
    streams, folder and environment, and run it (its exit is the interpreter's, as cold)."""
    out = request["out"]
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    gc.enable()
    os.chdir(request["cwd"])
    for name, attribute in _FOLDER_KEPT.items():
        if name in sys.modules:  # as the module's import would have noted it, cold
            setattr(sys.modules[name], attribute, os.path.abspath(os.getcwd()))
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[0] = os.getcwd()
    module, *rest = request["args"]
    sys.argv = ["-m", *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    # As ``python -m`` has it: the folder first on the path (not this script's).
    sys.path[0] = os.getcwd()
    _request = _zygote(socket.socket(fileno=int(sys.argv[1])), sys.argv[2:])
    if _request is not None:
        _run(_request)
