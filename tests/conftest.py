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

import itertools
import os
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# `pytest` run directly (not `python -m pytest`) does not put the project on sys.path.
ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

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

#: The tests that take longest, with their seconds on the 2-core test machine (measured with
#: ``--durations=40``; a prefix names every test of a module). They start first, longest
#: first, so that none of them is left to start last, with the other workers idle meanwhile.
#: A test missing here only starts later (in file order): this list costs time when it is
#: stale, never a failure.
LONGEST = {
    "tests/engine/test_game_properties.py::test_many_random_games_keep_the_invariants": 100,
    "tests/e2e/test_whole_games.py": 50,
    "tests/e2e/test_restart.py::test_killed_at_random_moments": 40,
    "tests/e2e/test_two_processes.py::test_killing_either_process": 35,
    "tests/e2e/test_startup.py::test_sigterm_at_any_moment_of_start_up": 30,
    "tests/e2e/test_two_processes.py": 25,
    "tests/test_static_checks.py": 24,
    "tests/e2e/test_vs_computer.py": 15,
    "tests/e2e/test_reminders.py": 16,
    "tests/e2e/test_dm_fallback_and_rate_limits.py": 16,
    "tests/engine/test_game_properties.py": 14,
    "tests/e2e/test_restart.py": 13,
    "tests/e2e/test_standings.py": 10,
    "tests/e2e/test_coach_by_dm.py": 10,
    # Measured alone on a shared core: each event plays 6 to 17 games, by resignation.
    "tests/e2e/test_tournaments.py::test_a_swiss_event_of_seven_over_three_rounds": 40,
    "tests/e2e/test_tournaments.py::test_a_knockout_of_eight": 40,
    "tests/e2e/test_tournaments.py::test_a_swiss_event_with_a_top_four_playoff": 40,
    "tests/e2e/test_tournaments.py": 30,
    "tests/e2e/test_tournament_processes.py": 30,
    "tests/e2e/test_web_pages.py::test_a_watched_game_live_then_replayed": 20,
    # Measured alone on a busy machine (load 12): 85 s, against the watched page's 31 s.
    "tests/e2e/test_activity.py": 55,
    "tests/bot/web/test_activity_bundle.py": 8,
    "tests/e2e/test_activity_layouts.py": 12,
    # 181 points at two, on PostgreSQL: measured alone on a shared machine, 42 s.
    "tests/e2e/test_variant_games.py::test_a_whole_game_of_each_variant[seven_card": 40,
    "tests/e2e/test_variant_games.py::test_a_whole_game_of_each_variant[six_hand-6-61-hard-p": 10,
    # Measured alone on a busy machine (load 4 to 7), scaled by test_whole_games.py's figure
    # there against its figure above.
    "tests/e2e/test_chaos.py::test_chaos_on_postgres_with_two_processes": 40,
    "tests/e2e/test_chaos.py": 25,
    "tests/e2e/test_review_on_discord.py::test_a_finished_game_is_reviewed_by_itself": 25,
    "tests/e2e/test_review_on_discord.py": 12,
}


def _expected_seconds(item: pytest.Item) -> int:
    matches = [(len(p), s) for p, s in LONGEST.items() if item.nodeid.startswith(p)]
    return max(matches)[1] if matches else 0


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (a stable sort: every process collects the same order)."""
    items.sort(key=lambda item: -_expected_seconds(item))


def _shared_folder(config: pytest.Config) -> Path:
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        return Path(workerinput[_SHARED])
    return Path(config.stash[_folder_key])


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None:
        # The run's main process (or the only one): the folder its workers share.
        config.stash[_folder_key] = tempfile.mkdtemp(prefix="crib-tests-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None and _folder_key in config.stash:
        SharedServer(Path(config.stash[_folder_key])).stop()


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


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the run's server (named apart per worker)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return postgres_server.create_database(f"test_{worker}_{next(_NUMBERS)}")


@pytest.fixture
def migrated_postgres_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> str:
    """Like `postgres_url`, a new database of the test's own, but with every migration
    applied already: a copy of a database migrated once per run (tests.helpers.migrated)."""
    template = migrated_template(postgres_server, _shared_folder(request.config))
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return postgres_server.create_database(f"test_{worker}_{next(_NUMBERS)}", template)


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
