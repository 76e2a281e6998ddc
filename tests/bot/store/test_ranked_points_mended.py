"""Migration 029, on both databases: the ranked games recorded before 235e575c (with the
engine's game points, a lurch or a skunk, where a ranked match's game is one game won or lost)
are mended, and every figure derived from their results reads as if they had been recorded
right: the results, each player's standing (their stats and the leaderboards), the head to
head, and ``python -m bot ratings --check``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.base.replies import User
from bot.core.standings.words import OUTSIDE_SERVERS, head_to_head_text, stats_text
from bot.store import Dialect, Store, migrations
from bot.store.database import Migration
from bot.tools import DONE
from bot.tools import ratings as ratings_tool
from engine.outcome import Scoring
from tests.helpers.cast import AL, BEA
from tests.helpers.migrated import migrations_before, people_for_todays_code, people_taken_away
from tests.helpers.results import finish_game, result_row

MENDING = "029_ranked_game_points"

#: The games, in the order they finished: where (a server, None for outside servers), the
#: channel (below zero: a ranked match's game, played apart), the winner and loser, their
#: scores, the rule the game was played under, and the game points the engine's result gave
#: (past 1: a lurch or a skunk by that rule).
GAMES: tuple[tuple[int | None, int, User, User, int, int, Scoring, int], ...] = (
    # A game in Bea's DM with Al that she won by a lurch: a lurch it stays.
    (None, 700, BEA, AL, 121, 55, Scoring.LURCH, 2),
    # Two ranked games Al lost on the clock at 0-0 (the engine's result: a lurch).
    (None, -1, BEA, AL, 0, 0, Scoring.LURCH, 2),
    (None, -2, BEA, AL, 0, 0, Scoring.LURCH, 2),
    # A ranked game on the skunk scale that Al won by a double skunk (3 game points).
    (None, -3, AL, BEA, 121, 50, Scoring.SKUNK, 3),
    # A ranked game won by one game, as the engine said it too.
    (None, -4, AL, BEA, 121, 100, Scoring.LURCH, 1),
    # A game on a server that Al won by a skunk: it stays.
    (500, 800, AL, BEA, 121, 80, Scoring.SKUNK, 2),
)


async def _play(store: Store, *, as_before: bool) -> list[int]:
    """Finish :data:`GAMES` through ``store``; ``as_before``: each ranked game's rows as the
    releases before 235e575c wrote them (``result_rows`` gave every game the engine's game
    points, and a lurch or skunk past 1), else as today's write them (one game). The store
    derives the standings and head to head from those rows as it always has. The games' ids."""
    ids = []
    for n, (guild, channel, winner, loser, won_by, lost_by, rule, points) in enumerate(GAMES):
        if channel < 0 and not as_before:
            points = 1
        beyond = rule if points > 1 else None
        rows = [
            result_row(0, winner, won=True, score=won_by, beyond=beyond, game_points=points),
            result_row(1, loser, won=False, score=lost_by, beyond=beyond, game_points=points),
        ]
        rows = [replace(r, scoring=rule, final_scores=f"{won_by}-{lost_by}") for r in rows]
        ids.append(await finish_game(store, rows, guild=guild, channel=channel, now=1000.0 + n))
    return ids


@pytest.fixture(params=["sqlite", "postgres"])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str | Path, str | Path]:
    """Two new, empty databases of one kind: one the release before 029 makes, one for today's."""
    if request.param == "postgres":
        return request.getfixturevalue("postgres_url"), request.getfixturevalue(
            "migrated_postgres_url"
        )
    return tmp_path / "old.db", tmp_path / "right.db"


async def test_ranked_games_recorded_with_the_engines_game_points_are_mended(
    databases: tuple[str | Path, str | Path], tmp_path: Path
) -> None:
    old, right = databases
    dialect = Dialect.POSTGRES if isinstance(old, str) else Dialect.SQLITE
    async with await Store.open(
        old, migrations_dir=migrations_before(dialect, 29, tmp_path / "m")
    ) as store:
        await people_for_todays_code(store)
        games = await _play(store, as_before=True)
        bea = (await store.standing(None, BEA.id))[False].standing
        assert (bea.game_points, bea.lurches_given) == (6, 3)  # the wrong figures, as kept
        await people_taken_away(store)
    async with await Store.open(right) as store:
        assert await _play(store, as_before=False) == games
        expected = await store.stored_ratings()
        expected_results = [await store.results(game) for game in games]
    async with await Store.open(old) as store:
        assert store.migrated[0] == MENDING
        assert [await store.results(game) for game in games] == expected_results
        assert await store.stored_ratings() == expected
        # What Bea reads: her stats outside servers and her head to head with Al.
        bea = (await store.standing(None, BEA.id))[False].standing
        stats = stats_text("Bea", bea, None, place=OUTSIDE_SERVERS)
        assert "Against people: 5 games, 3 wins (60%); lurches given 1, taken 0." in stats
        head = head_to_head_text("Bea", "Al", await store.rival(None, BEA.id, AL.id))
        assert "Bea won 3, Al won 2." in head and "Game points: Bea: 4, Al: 2." in head, head
        # The server's game is its own: its skunk stands.
        al = (await store.standing(500, AL.id))[False].standing
        assert (al.game_points, al.skunks_given) == (2, 1)
        # Mending again finds nothing to mend.
        again = next(m for m in migrations(dialect.migrations_dir) if m.name == MENDING)
        await _apply(store, again)
        assert await store.stored_ratings() == expected
    assert await ratings_tool.run(old, write=False) == DONE


async def _apply(store: Store, migration: Migration) -> None:
    async with store.db.migrating() as tx:
        await tx.script(migration.sql())


#: The lock the releases before issue 66 took to record a game's results (``RESULTS_LOCK``,
#: gone since: a result is recorded with one snapshot of the standings it reads).
RESULTS_LOCK = 0x0C1B_0002


def test_the_migration_waits_for_the_game_being_recorded_on_postgresql() -> None:
    """A process of the release before, recording a game's results beside it, holds the
    results' lock (:data:`RESULTS_LOCK`): the migration takes the same one."""
    mending = next(m for m in migrations(Dialect.POSTGRES.migrations_dir) if m.name == MENDING)
    assert f"pg_advisory_xact_lock({RESULTS_LOCK})" in mending.sql()
