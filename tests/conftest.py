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

from tests.helpers.bot_db import close_sqlite_readers  # noqa: E402
from tests.helpers.first_compile import (  # noqa: E402
    UNCOMPILED_AT_MOST,
    compile_modules,
    keep_emulator_checks,
    uncompiled,
)
from tests.helpers.migrated import copy_migrated_sqlite, migrated_template  # noqa: E402
from tests.helpers.postgres import PostgresServer, SharedServer  # noqa: E402
from tests.helpers.scheduling import KindsScheduling, measured  # noqa: E402

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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests longest first, by their time in a run before (tests.durations): the run's
    workers take them so, each kind apart (tests.helpers.scheduling), and the longest never
    start last. A stable sort: every process collects the same order."""
    items.sort(key=lambda item: -measured(item.nodeid)[0])


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """No garbage collection while the tests are collected: importing every test module and
    making 3,600 items only adds objects that live for the run, and each full collection
    walked them all again (a third of a process's collection CPU, some 3 s of its 9, in each
    of the run's six processes)."""
    gc.disable()


#: How many objects made (less those freed) start a collection of the youngest generation in
#: a test process, where Python's default is 700: the tests make objects by the million, and a
#: process of tests/bot and tests/engine collected some 6,000 times in 45 s of CPU, 1.3 s of
#: it (0.5 s at this threshold, in some 250 collections).
YOUNGEST_COLLECTED_AT = 10_000


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Collect once, then set aside what collection made (:func:`gc.freeze`): the run's later
    collections walk only what the tests make, and less often
    (:data:`YOUNGEST_COLLECTED_AT`)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNGEST_COLLECTED_AT, older, oldest)
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


def _compile_first(config: pytest.Config) -> None:
    """Before the run's workers start (pytest-xdist), compile what they will import, where
    most test modules have no bytecode yet (tests.helpers.first_compile)."""
    if config.getoption("dist", "no") == "no" or config.getoption("collectonly"):
        return
    modules = uncompiled(Path(given.partition("::")[0]).resolve() for given in config.args)
    if len(modules) > UNCOMPILED_AT_MOST:
        compile_modules(modules, config.invocation_params.dir)
        keep_emulator_checks()


def pytest_unconfigure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None and _folder_key in config.stash:
        SharedServer(Path(config.stash[_folder_key])).stop()


#: Worker processes for ``-n auto``: 12 (each may run a bot, PostgreSQL connections and a
#: browser at once). Most of the tests' time is spent waiting (on a bot process, Discord's
#: limits, the emulator), so the run lasts as long as its test time over the workers, until
#: the cores are full: past twelve they were no busier on the two-core test machine, and the
#: crowding cost CPU (eight, ten, twelve and sixteen timed on the same code:
#: docs/performance-history.md, "The suite, 29 November 2026 (the fifth stop)").
WORKERS = 12


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """(pytest-xdist) How many workers ``-n auto`` starts: see :data:`WORKERS`."""
    return WORKERS


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> KindsScheduling | None:
    """(pytest-xdist) ``--dist loadgroup`` (the project's) hands out the tests by kind, as
    each worker asks (tests.helpers.scheduling)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return KindsScheduling(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist) Tell a worker where the run's shared folder is."""
    node.workerinput[_SHARED] = node.config.stash[_folder_key]


@pytest.fixture(scope="session")
def run_folder(request: pytest.FixtureRequest) -> Path:
    """The folder every process of the run shares (made by the main process, removed as the run
    ends): what one test makes there, a test in another worker finds."""
    return _shared_folder(request.config)


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
