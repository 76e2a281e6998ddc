"""Project-wide pytest setup: the fakediscord fixtures (`fake_discord`, `bots`), one throwaway
PostgreSQL server for the whole run (`postgres_server`), on which each test that asks for
`postgres_url` gets a database of its own (`migrated_postgres_url`: one at today's schema, as
`migrated_sqlite_path` on SQLite), and the order the tests start in.

The suite runs in several processes at once (pytest-xdist: ``-n`` in pyproject.toml): most of
its time is end-to-end games waiting on a bot process, which leaves the cores free for other
tests. The processes share one PostgreSQL server (started by the first that needs it, stopped
by the main process at the end, see tests.helpers.postgres.SharedServer), name their databases
apart, and listen on ports the system hands out (fakediscord and PostgreSQL bind port 0).
"""

from __future__ import annotations

import gc
import itertools
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# `pytest` run directly (not `python -m pytest`) does not put the project on sys.path.
ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.durations import SECONDS  # noqa: E402
from tests.helpers.bot_db import close_sqlite_readers  # noqa: E402
from tests.helpers.migrated import copy_migrated_sqlite, migrated_template  # noqa: E402
from tests.helpers.postgres import PostgresServer, SharedServer  # noqa: E402

pytest_plugins = ["fakediscord.testing"]

# Hypothesis judges what a test finds, never how fast the machine is: no deadline per example
# and no health check on slow data generation (on a busy machine, with four test processes and
# their bots on two cores, a draw took 2 s and failed a scoring test that was right).
settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("suite")

#: The names of the databases made for tests (one per test that asks), apart per process.
_NUMBERS = itertools.count(1)
#: How the main process tells its workers where the run's shared folder is.
_SHARED = "crib_shared_folder"
_folder_key = pytest.StashKey[str]()

#: A test that spends less CPU than this per second of its wall time mostly waits (on a bot,
#: Discord's pace, the emulator, a browser): the end-to-end tests, most of the benchmarks'.
WAITING = 0.25


def _measured(item: pytest.Item) -> tuple[float, float]:
    """(wall, CPU) seconds ``item`` took in the run :mod:`tests.durations` measured: its own
    function's, else its module's median test's, else nothing (a test newer than the list)."""
    name = item.nodeid.split("@")[0].split("[")[0]
    found = SECONDS.get(name) or SECONDS.get(name.split("::")[0])
    return found or (0.0, 0.0)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The order the tests start in: the tests that mostly wait (:data:`WAITING`) beside those
    that work, each kind longest first, taken from each in step with its share of the wall
    time, so that the two kinds end together and both cores stay busy throughout (a run that
    began with the waiting tests alone, the longest, left the cores half idle for its first
    minutes, and crowded its last ones). A stable sort: every process collects the same order.
    """
    measured = {item.nodeid: _measured(item) for item in items}
    kinds: tuple[list[pytest.Item], list[pytest.Item]] = ([], [])
    for item in items:
        wall, cpu = measured[item.nodeid]
        kinds[wall > 0 and cpu < WAITING * wall].append(item)
    for kind in kinds:
        kind.sort(key=lambda item: -measured[item.nodeid][0])
    totals = [sum(measured[i.nodeid][0] for i in kind) or 1.0 for kind in kinds]
    done, taken, ordered = [0.0, 0.0], [0, 0], []
    while left := [k for k in (0, 1) if taken[k] < len(kinds[k])]:
        # The kind least far through its share of the time (the working kind on a tie).
        side = min(left, key=lambda k: done[k] / totals[k])
        item = kinds[side][taken[side]]
        ordered.append(item)
        done[side] += measured[item.nodeid][0]
        taken[side] += 1
    items[:] = ordered


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """No garbage collection while the tests are collected: importing every test module and
    making 3,600 items only adds objects that live for the run, and each full collection
    walked them all again (a third of a process's collection CPU, some 3 s of its 9, in each
    of the run's six processes)."""
    gc.disable()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Collect once, then set aside what collection made (:func:`gc.freeze`): the run's later
    collections walk only what the tests make."""
    gc.collect()
    gc.freeze()
    gc.enable()


def _shared_folder(config: pytest.Config) -> Path:
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        return Path(workerinput[_SHARED])
    return Path(config.stash[_folder_key])


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None:
        # The run's main process (or the only one): the folder its workers share.
        config.stash[_folder_key] = tempfile.mkdtemp(prefix="crib-tests-")
        _share_bytecode(Path(config.stash[_folder_key]) / "bytecode")
        _compile_first(config)


def _share_bytecode(folder: Path) -> None:
    """Where the environment says to write no bytecode beside the sources
    (``PYTHONDONTWRITEBYTECODE``, as in the project's containers), the run's processes keep
    it in its shared folder instead (``PYTHONPYCACHEPREFIX``, gone with the folder): else
    each of the run's thousand or so Python processes (six workers, every bot started) compiled
    the project again, 0.2 s of a bot start's 0.7 s of CPU and 8 s of a worker's collection.
    The workers and every process started from them inherit it; this process, started
    already, caches what it imports from now on (a run in one process: its test modules)."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = str(folder)
    sys.dont_write_bytecode = False


#: How many test modules may lack their bytecode before a run's workers are started (with
#: assertions rewritten: 20 ms of CPU a module) and every worker still compiles them itself,
#: rather than one collection compiling them for all first (some 3 s of CPU once they are).
UNCOMPILED_AT_MOST = 30
#: The collection that compiles first, in this process alone, the run's paths and ini
#: settings its own (its options on the command line aside: it runs nothing).
_COLLECTION = ("-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider")
#: The collections that compile first, side by side: one a core.
COMPILERS = max(1, min(2, os.cpu_count() or 1))


def _compile_first(config: pytest.Config) -> None:
    """Before the run's workers start (pytest-xdist), compile what they will import, in one
    collection in a process of its own, where most test modules have no bytecode yet (a clean
    clone, or the run's own folder for it: :func:`_share_bytecode`).

    The workers start together and each collects every test: each found no bytecode and
    compiled everything it imported, the standard library and the installed packages too when
    the bytecode is kept in the run's folder, and rewrote the test modules' assertions, some
    11 s of CPU a worker of which 7 the rewriting (2.8 s a worker once they are compiled)."""
    if config.getoption("dist", "no") == "no" or config.getoption("collectonly"):
        return
    from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

    modules = [
        found
        for given in config.args
        for path in [Path(given.partition("::")[0]).resolve()]
        for found in (path.rglob("test_*.py") if path.is_dir() else [path])
    ]
    uncompiled = [m for m in modules if not (get_cache_dir(m) / (m.stem + PYC_TAIL)).exists()]
    if len(uncompiled) <= UNCOMPILED_AT_MOST:
        return
    # One collection a core, each of every other module: each compiles what they all import
    # (the same bytecode, whichever writes a file last) and rewrites the assertions of half of
    # the test modules (most of the time): on the 2-core test machine one collection of the
    # 336 took 13.3 s, one core idle, where two take 8.3 s.
    collections = [
        subprocess.Popen(
            [sys.executable, *_COLLECTION, *map(str, uncompiled[start::COMPILERS])],
            cwd=config.invocation_params.dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for start in range(COMPILERS)
    ]
    for collection in collections:
        collection.wait()


def pytest_unconfigure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None and _folder_key in config.stash:
        SharedServer(Path(config.stash[_folder_key])).stop()


#: Worker processes for ``-n auto``: 8 (each may run a bot, PostgreSQL connections and a
#: browser at once). Most of the tests' time is spent waiting (on a bot process, Discord's
#: limits, the emulator): the end-to-end tests waited some 1,900 s of a run's 3,300 s of test
#: time for 220 s of CPU, so the run lasts as long as its test time over the workers. On the
#: two-core test machine, 28 November 2026: six workers took 573 s with the cores 80% busy,
#: eight 498 s, 91% busy, for the same CPU (docs/performance-history.md, "The suite (issue
#: 69, item 7), 28 November 2026").
WORKERS = 8


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """(pytest-xdist) How many workers ``-n auto`` starts: see :data:`WORKERS`."""
    return WORKERS


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist) Tell a worker where the run's shared folder is."""
    node.workerinput[_SHARED] = node.config.stash[_folder_key]


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> PostgresServer:
    """The run's PostgreSQL server (started on first use, a few seconds; shared by every
    worker process). Without PostgreSQL installed this fails: the tests of the second backend
    never skip."""
    return SharedServer(_shared_folder(request.config)).server()


#: The databases made for the test under way (by `postgres_url`, `migrated_postgres_url`),
#: dropped once its fixtures are torn down (:func:`pytest_runtest_teardown`).
_made: list[tuple[PostgresServer, str]] = []


def _test_database(server: PostgresServer, template: str | None = None) -> str:
    """A new database of the test's own on ``server`` (named apart per worker), its URL."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"test_{worker}_{next(_NUMBERS)}"
    url = server.create_database(name, template)
    _made.append((server, name))
    return url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    """Once a test's fixtures are torn down (its bots stopped, its stores closed), the
    connections its reads of SQLite files kept are closed (tests.helpers.bot_db) and its
    databases are dropped: the run's server keeps only those of the tests under way, which
    lets it live in memory (tests.helpers.postgres.cluster_folder).

    Then, when the next test is another module's (or none comes), the garbage is collected
    once and what is left set aside (:func:`gc.freeze`; the module's fixtures are gone by
    then): what stays is the run's (the caches, the session's fixtures), and the later
    collections walk only what the tests make after it. Else every full collection walked
    all that the process had gathered: in a whole run 52 s of the workers' 565 s of CPU went
    on collecting garbage, 41 s of it on full collections (in 645 tests of tests/bot and
    tests/engine on two workers: 9.2 s of collecting, 3.9 s with this)."""
    try:
        return (yield)
    finally:
        close_sqlite_readers()
        while _made:
            server, name = _made.pop()
            server.drop_database(name)
        if nextitem is None or nextitem.path != item.path:
            gc.collect()
            gc.freeze()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the run's server (dropped after the test)."""
    return _test_database(postgres_server)


@pytest.fixture
def migrated_postgres_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> str:
    """Like `postgres_url`, a new database of the test's own, but with every migration
    applied already: a copy of a database migrated once per run (tests.helpers.migrated)."""
    template = migrated_template(postgres_server, _shared_folder(request.config))
    return _test_database(postgres_server, template)


@pytest.fixture
def migrated_sqlite_path(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new SQLite file in the test's folder with every migration applied already: a copy of
    one migrated once per process (tests.helpers.migrated)."""
    return copy_migrated_sqlite(tmp_path_factory.getbasetemp(), tmp_path / "test.db")


@pytest.fixture
async def own_server() -> AsyncIterator[PostgresServer]:
    """A PostgreSQL server of the test's own, to stop and start again."""
    server = PostgresServer.start()
    try:
        yield server
    finally:
        server.stop()
