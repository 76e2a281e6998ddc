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
#: ``--durations=60`` on a loaded machine, 25 November 2026; a test's parameters share its
#: figure, a module's path names the rest of its tests). They start first, longest
#: first, so that none of them is left to start last, with the other workers idle meanwhile.
#: A test missing here only starts later (in file order): this list costs time when it is
#: stale, never a failure.
LONGEST = {
    "tests/e2e/test_chaos.py::test_chaos_on_postgres_with_two_processes": 64,
    "tests/e2e/test_whole_games.py::test_whole_games_for_two_three_and_four_at_once": 61,
    "tests/e2e/test_restart.py::test_killed_at_random_moments_the_bot_loses_nothing": 50,
    "tests/engine/test_game_properties.py::test_many_random_games_keep_the_invariants": 47,
    "tests/e2e/test_startup.py::test_sigterm_at_any_moment_of_start_up_ends_it_cleanly": 46,
    "tests/test_static_checks.py::test_the_code_type_checks": 43,
    "tests/e2e/test_activity.py::test_a_whole_game_at_the_table_inside_discord": 41,
    # With the internet's latency (measured alone at load 14, 26 November 2026).
    "tests/e2e/test_latency.py::test_a_channel_game_with_a_kill": 45,
    "tests/e2e/test_latency.py::test_a_deal_through_the_activity": 36,
    "tests/e2e/test_two_processes.py::test_a_whole_game_is_served_by_both_processes": 40,
    "tests/e2e/test_upgrade.py::test_the_previous_release_and_this_one_side_by_side": 41,
    "tests/benchmarks/test_bot_load_runs.py::test_the_load_benchmark_plays_a_game_to_its_end": 36,
    "tests/e2e/test_review_on_discord.py::test_a_game_begun_before_sealed_shuffles_says_its_": 33,
    "tests/e2e/test_tournaments.py::test_a_knockout_of_eight_with_best_of_three": 33,
    "tests/e2e/test_two_processes.py::test_restarting_one_process_at_a_time_never_stops_a_game": 32,
    "tests/e2e/test_ranked_processes.py::test_two_hundred_queue_within_a_second_and_each_is_": 30,
    "tests/e2e/test_web_pages.py::test_a_watched_game_live_then_replayed": 26,
    "tests/e2e/test_tournaments.py::test_a_swiss_event_with_a_top_four_playoff": 26,
    "tests/e2e/test_tournaments.py::test_a_swiss_event_of_seven_over_three_rounds": 26,
    "tests/e2e/test_chaos.py::test_chaos_on_sqlite": 25,
    "tests/e2e/test_restart.py::test_restart_mid_game_sends_nothing_again_and_old_buttons_work": 25,
    # 181 points at two, on PostgreSQL: measured alone on a shared machine, 42 s.
    "tests/e2e/test_variant_games.py::test_a_whole_game_of_each_variant[seven_card": 40,
    "tests/e2e/test_variant_games.py::test_a_whole_game_of_each_variant": 25,
    "tests/bot/store/test_store_legacy.py::test_every_sqlite_database_an_earlier_release_made_": 24,
    "tests/bot/core/standings/test_ratings.py::test_the_rebuild_reproduces_the_stored_numbers": 24,
    "tests/e2e/test_restart.py::test_killed_between_a_post_and_keeping_its_id_the_bot_keeps_": 22,
    "tests/benchmarks/test_soak_runs.py::test_the_soak_plays_games_one_after_another_and_": 22,
    "tests/engine/test_variant_shows.py::test_every_show_of_every_variant_scores_as_the_": 21,
    "tests/e2e/test_private_tables.py::test_a_whole_game_counted_by_hand_in_a_dm_claims_and_": 21,
    "tests/e2e/test_vs_computer.py::test_a_whole_game_against_hard": 21,
    "tests/e2e/test_review_on_discord.py::test_a_finished_game_is_reviewed_by_itself_and_": 20,
    "tests/e2e/test_dm_fallback_and_rate_limits.py::test_closed_dms_are_told_once_per_deal_": 18,
    "tests/e2e/test_two_processes.py::test_killing_either_process_loses_nothing_owed": 17,
    "tests/e2e/test_private_tables.py::test_a_count_left_too_long_in_a_dm_is_made_by_the_clock": 17,
    "tests/engine/test_players.py::test_never_an_illegal_choice_in_many_games": 17,
    "tests/e2e/test_web_pages.py::test_a_page_follows_moves_made_in_another_process": 17,
    "tests/e2e/test_private_tables.py::test_with_two_processes_a_game_in_a_dm_goes_through_": 16,
    "tests/e2e/test_private_tables.py::test_tokens_that_all_lapse_over_a_restart_leave_a_game_": 16,
    "tests/e2e/test_vs_computer.py::test_a_short_game_against_expert": 16,
    "tests/e2e/test_tournaments.py::test_deadline_forfeits_withdrawal_and_a_moderators_result": 16,
    "tests/e2e/test_tournaments.py::test_a_round_robin_of_four": 15,
    "tests/e2e/test_laid_out_messages.py::test_tables_results_and_hands_are_laid_out": 15,
    "tests/e2e/test_tournament_deadline_restart.py::test_a_deadline_passed_while_the_bot_was_": 15,
    "tests/e2e/test_private_tables.py::test_a_whole_game_in_a_group_dm_of_three": 14,
    "tests/e2e/test_ranked.py::test_three_places_queue_and_a_whole_best_of_three_is_played_": 14,
    "tests/bot/core/standings/test_standings_core.py::test_stats_match_the_shows": 14,
    "tests/e2e/test_private_tables.py::test_a_whole_game_in_a_dm_between_friends_never_uses_": 13,
    "tests/e2e/test_restart.py::test_sigterm_answers_the_move_in_flight_sends_what_is_owed_": 13,
    "tests/e2e/test_review_on_discord.py::test_review_by_button_and_command_paged_and_private": 13,
    "tests/e2e/test_tournament_processes.py::test_the_other_process_takes_over_directing_at_a_": 12,
    "tests/e2e/test_reminders.py::test_reminders_by_dm_after_the_delay_once_per_turn": 12,
    "tests/e2e/test_ranked_processes.py::test_a_kill_mid_match_loses_nothing_and_the_match_": 10,
    # The rest of each slow module: its other tests take a few seconds to 10.
    "tests/e2e/test_variant_games.py": 10,
    "tests/e2e/test_tournaments.py": 10,
    "tests/e2e/test_restart.py": 10,
    "tests/e2e/test_two_processes.py": 10,
    "tests/e2e/test_private_tables.py": 8,
    "tests/e2e/test_activity.py": 10,
    "tests/e2e/test_latency.py": 15,
    "tests/e2e/test_activity_layouts.py": 12,
    "tests/bot/web/test_activity_bundle.py": 8,
    "tests/e2e/test_review_on_discord.py": 8,
    "tests/e2e/test_web_pages.py": 8,
    "tests/e2e/test_vs_computer.py": 8,
    "tests/e2e/test_chaos.py": 8,
    "tests/e2e/test_reminders.py": 8,
    "tests/e2e/test_dm_fallback_and_rate_limits.py": 8,
    "tests/e2e/test_standings.py": 8,
    "tests/e2e/test_coach_by_dm.py": 8,
    "tests/e2e/test_tournament_processes.py": 8,
}


def _expected_seconds(item: pytest.Item) -> int:
    matches = [(len(p), s) for p, s in LONGEST.items() if item.nodeid.startswith(p)]
    return max(matches)[1] if matches else 0


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (a stable sort: every process collects the same order)."""
    items.sort(key=lambda item: -_expected_seconds(item))


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


def pytest_unconfigure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None and _folder_key in config.stash:
        SharedServer(Path(config.stash[_folder_key])).stop()


#: Worker processes for ``-n auto``: at least 6 (most tests wait on a bot process, Discord's
#: limits or the emulator: on two cores, four left them 70% busy, 11 min 1 s; six, 82%,
#: 9 min 44 s), one a core beyond that, at most 8 (each may run a bot, PostgreSQL connections
#: and a browser at once).
FEWEST_WORKERS, MOST_WORKERS = 6, 8


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """(pytest-xdist) How many workers ``-n auto`` starts: see :data:`FEWEST_WORKERS`."""
    return min(MOST_WORKERS, max(FEWEST_WORKERS, os.cpu_count() or 1))


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
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    """Once a test's fixtures are torn down (its bots stopped, its stores closed), its
    databases are dropped: the run's server keeps only those of the tests under way, which
    lets it live in memory (tests.helpers.postgres.cluster_folder)."""
    try:
        return (yield)
    finally:
        while _made:
            server, name = _made.pop()
            server.drop_database(name)


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
