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

#: The tests that take longest, with their seconds on the 2-core test machine (setup, call
#: and teardown, from ``--durations=0``: the whole suite at load 6-10, 27 November 2026; the
#: tests on PostgreSQL outside tests/e2e again once their databases were in memory, at
#: ``-n 2``; a test's parameters share its figure, a module's path names the rest of its
#: tests). They start first, longest first, so that none of them is left to start last, with
#: the other workers idle meanwhile. A test missing here only starts later (in the run's
#: order): this list costs time when it is stale, never a failure.
LONGEST = {
    "tests/e2e/test_whole_games.py::test_whole_games_for_two_three_and_four_at_once": 80,
    "tests/e2e/test_latency.py::test_a_channel_game_with_a_kill": 65,
    "tests/e2e/test_voice_channels.py::test_games_in_the_chat_of_a_voice_and_of_a_stage_channe": 55,
    "tests/e2e/test_chaos.py::test_chaos_on_postgres_with_two_processes": 54,
    "tests/e2e/test_voice_channels.py::test_a_game_at_the_table_launched_in_a_voice_channel": 53,
    "tests/e2e/test_startup.py::test_sigterm_at_any_moment_of_start_up_ends_it_cleanly": 50,
    "tests/e2e/test_learn_on_discord.py::test_a_lesson_in_the_dm_explains_the_rules_and_is_lef": 45,
    "tests/e2e/test_two_processes.py::test_a_whole_game_is_served_by_both_processes": 43,
    "tests/bot/core/review/test_review_sequences.py::test_any_request_for_a_review_is_answered": 41,
    "tests/e2e/test_restart.py::test_killed_at_random_moments_the_bot_loses_nothing": 41,
    "tests/e2e/test_two_processes.py::test_restarting_one_process_at_a_time_never_stops_a_game": 38,
    "tests/e2e/test_activity_places_on_discord.py::test_a_group_dms_private_table_is_played_at": 38,
    "tests/e2e/test_tournaments.py::test_a_knockout_of_eight_with_best_of_three": 34,
    "tests/e2e/test_tournaments.py::test_a_swiss_event_of_seven_over_three_rounds": 31,
    "tests/e2e/test_chaos.py::test_chaos_on_sqlite": 31,
    "tests/e2e/test_tournaments.py::test_a_swiss_event_with_a_top_four_playoff": 31,
    "tests/engine/test_variant_shows.py::test_every_show_of_every_variant_scores_as_the_refere": 31,
    "tests/e2e/test_private_tables.py::test_a_whole_game_counted_by_hand_in_a_dm_claims_and_mu": 28,
    "tests/e2e/test_upgrade.py::test_the_previous_release_and_this_one_side_by_side": 28,
    "tests/e2e/test_two_processes.py::test_killing_either_process_loses_nothing_owed": 27,
    "tests/e2e/test_latency.py::test_a_deal_through_the_activity": 27,
    "tests/e2e/test_activity.py::test_a_whole_game_at_the_table_inside_discord": 25,
    "tests/e2e/test_variant_games.py::test_a_whole_game_of_each_variant": 25,
    "tests/test_static_checks.py::test_the_code_type_checks": 24,
    "tests/e2e/test_latency.py::test_a_dm_game_through_a_user_install": 24,
    "tests/engine/test_game_properties.py::test_random_games_checked_at_every_step": 23,
    "tests/e2e/test_review_on_discord.py::test_a_finished_game_is_reviewed_by_itself_and_again": 22,
    "tests/e2e/test_rematch_on_discord.py::test_play_again_from_the_last_hand_and_a_table_the_": 22,
    "tests/e2e/test_tournament_processes.py::test_the_other_process_takes_over_directing_at_a_": 22,
    "tests/engine/test_play_search.py::test_a_known_hand_is_searched_by_the_games_own_rules": 21,
    "tests/e2e/test_activity_layouts.py::test_six_seats_in_two_teams_opened_and_played_at_the_": 21,
    "tests/e2e/test_activity_game_night.py::test_game_night_in_a_voice_channel": 21,
    "tests/e2e/test_discord_faults.py::test_what_discord_refuses_for_now_is_sent_once_it_takes": 19,
    "tests/e2e/test_startup.py::test_discord_unreachable_is_one_line": 19,
    "tests/e2e/test_ranked.py::test_three_places_queue_and_a_whole_best_of_three_is_played_apa": 19,
    "tests/engine/test_hint.py::test_the_hint_of_a_whole_two_player_game_is_the_experts_every_": 18,
    "tests/e2e/test_latency.py::test_a_tournament_round_in_threads": 18,
    "tests/e2e/test_rematch_on_discord.py::test_a_rematch_from_the_table_inside_discord": 18,
    "tests/e2e/test_tournaments.py::test_a_round_robin_of_four": 17,
    "tests/e2e/test_startup.py::test_a_start_discord_refuses_leaves_an_older_database_as_it_wa": 17,
    "tests/e2e/test_tournaments.py::test_deadline_forfeits_withdrawal_and_a_moderators_result": 17,
    "tests/engine/test_hint.py::test_the_hint_is_the_experts_choice_in_every_variant": 17,
    "tests/e2e/test_private_tables.py::test_a_count_left_too_long_in_a_dm_is_made_by_the_clock": 17,
    "tests/engine/test_data_builds.py::test_the_show_tables_are_what_their_builder_makes_and_a": 17,
    "tests/bot/core/review/test_auto_reviews.py::test_a_game_that_ends_is_reviewed_and_a_new_s": 17,
    "tests/benchmarks/test_private_start_runs.py::test_the_private_start_benchmark_times_start": 17,
    "tests/e2e/test_web_pages.py::test_a_watched_game_live_then_replayed": 16,
    "tests/e2e/test_activity_game_night.py::test_invite_share_and_a_dm_at_the_table": 16,
    "tests/e2e/test_private_tables.py::test_with_two_processes_a_game_in_a_dm_goes_through_bot": 16,
    "tests/e2e/test_running.py::test_the_playground_serves_metrics_on_ops_port": 16,
    "tests/e2e/test_activity_places_on_discord.py::test_a_tournament_threads_table_shows_the_m": 16,
    "tests/e2e/test_startup.py::test_a_read_only_database_is_refused_before_logging_in": 16,
    "tests/e2e/test_tournament_restarts.py::test_a_pairing_posted_before_a_long_stop_is_posted": 15,
    "tests/benchmarks/test_soak_runs.py::test_the_soak_plays_games_one_after_another_and_reads": 15,
    "tests/e2e/test_startup.py::test_a_database_on_a_read_only_mount_is_refused_saying_so": 15,
    "tests/engine/test_game_properties.py::test_many_random_games_keep_the_invariants": 15,
    "tests/e2e/test_dm_fallback_and_rate_limits.py::test_closed_dms_are_told_once_per_deal_eve": 15,
    "tests/fakediscord/test_emulator_shards.py::test_two_shard_processes_share_one_global_limi": 14,
    "tests/e2e/test_tournament_cancel.py::test_cancelled_while_played_and_before_the_start": 14,
    "tests/e2e/test_private_tables.py::test_a_whole_game_in_a_dm_between_friends_never_uses_th": 14,
    "tests/e2e/test_startup.py::test_a_dev_guild_the_bot_is_not_in_is_one_line": 14,
    "tests/engine/test_players.py::test_never_an_illegal_choice_in_many_games": 14,
    "tests/e2e/test_tournament_permissions.py::test_a_round_waits_for_the_permission_to_post_i": 14,
    "tests/e2e/test_slow_answers.py::test_with_two_processes_a_stale_click_mends_the_hand_too": 14,
    "tests/benchmarks/test_ranked_queue_runs.py::test_the_ranked_queue_benchmark_times_matches": 14,
    "tests/e2e/test_announcement_channels.py::test_a_tournament_is_held_in_an_announcement_cha": 14,
    "tests/e2e/test_tournament_privacy.py::test_a_cancelled_tournaments_message_shows_a_former": 14,
    "tests/e2e/test_vs_computer.py::test_a_short_game_against_expert": 13,
    "tests/e2e/test_startup.py::test_an_ops_port_already_taken_is_one_line": 13,
    "tests/e2e/test_private_tables.py::test_a_server_that_did_not_invite_the_bot_plays_the_sam": 13,
    "tests/e2e/test_unanswered_clicks.py::test_a_move_whose_answer_never_landed_reaches_the_pl": 13,
    "tests/e2e/test_two_processes.py::test_a_follow_up_that_waited_while_the_sender_was_frozen": 13,
    "tests/e2e/test_slow_answers.py::test_with_two_processes_a_click_on_an_edit_heard_back_lat": 13,
    "tests/engine/test_expert.py::test_a_game_of_expert_against_club_is_the_same_for_the_same_": 13,
    "tests/e2e/test_review_on_discord.py::test_a_game_begun_before_sealed_shuffles_says_its_de": 13,
    "tests/e2e/test_activity_layouts.py::test_seven_cards_at_the_table_on_a_phone_and_a_deskto": 12,
    "tests/e2e/test_two_processes.py::test_a_click_on_one_process_and_a_command_on_the_other_a": 12,
    "tests/e2e/test_vs_computer.py::test_a_whole_game_against_hard": 12,
    "tests/e2e/test_running.py::test_local_opens_the_playground_with_the_real_bot": 12,
    "tests/benchmarks/test_ranked_mend_runs.py::test_the_ranked_mend_benchmark_times_the_migra": 12,
    "tests/e2e/test_restart.py::test_dropped_gateway_connections_lose_no_clicks": 12,
    "tests/e2e/test_ranked_processes.py::test_two_hundred_queue_within_a_second_and_each_is_pa": 12,
    "tests/e2e/test_startup.py::test_a_database_from_a_newer_release_is_refused": 12,
    "tests/e2e/test_tournaments.py::test_killed_at_a_rounds_turn_nothing_is_paired_or_made_twi": 12,
    # The rest of each slow module (the median of its other tests).
    "tests/e2e/test_backups.py": 10,
    "tests/e2e/test_dm_fallback_and_rate_limits.py": 10,
    "tests/e2e/test_activity_layouts.py": 8,
    "tests/bot/core/games/test_move_sequences.py": 8,
    "tests/e2e/test_activity_places_on_discord.py": 7,
    "tests/bot/core/standings/test_standings_sequences.py": 7,
    "tests/e2e/test_rematch_on_discord.py": 7,
    "tests/e2e/test_laid_out_messages.py": 6,
    "tests/e2e/test_tournament_names.py": 6,
    "tests/e2e/test_operations.py": 6,
    "tests/e2e/test_startup.py": 6,
    "tests/bot/web/test_page_layouts.py": 6,
    "tests/bot/core/tournaments/test_tournament_sequences.py": 6,
    "tests/fakediscord/test_warm_starts.py": 6,
    "tests/e2e/test_restart.py": 5,
    "tests/e2e/test_which_game_on_discord.py": 5,
    "tests/bot/core/games/test_lobby_sequences.py": 5,
    "tests/e2e/test_discord_faults.py": 5,
    "tests/e2e/test_latency.py": 5,
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
    subprocess.run(
        [sys.executable, *_COLLECTION, *config.args],
        cwd=config.invocation_params.dir,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


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
    """Once a test's fixtures are torn down (its bots stopped, its stores closed), the
    connections its reads of SQLite files kept are closed (tests.helpers.bot_db) and its
    databases are dropped: the run's server keeps only those of the tests under way, which
    lets it live in memory (tests.helpers.postgres.cluster_folder)."""
    try:
        return (yield)
    finally:
        close_sqlite_readers()
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
