"""`python -m bot copy`: a SQLite database copied into PostgreSQL loses nothing, checked by
comparing every row and replaying every game; a copy that lost something is caught."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.base.replies import User
from bot.core.tournaments.records import Format, TournamentPlan
from bot.store import Store
from bot.store.copy import copy_database, verify_copy
from bot.store.ops_tables import ProcessRow
from bot.tools import ToFix
from bot.tools.copy import main
from engine.outcome import Scoring
from tests.helpers.service_driver import (
    Clock,
    drive,
    load,
    make_service,
    open_table,
    search_ranked,
)

AL, BEA, CY = User(1, "Al"), User(2, "Bea"), User(3, "Cy")
DEE, EVE = User(4, "Dee"), User(5, "Eve")


def _plan(channel_id: int) -> TournamentPlan:
    """A Swiss tournament Al opens in ``channel_id``."""
    return TournamentPlan(
        guild_id=5,
        channel_id=channel_id,
        organiser_id=AL.id,
        format=Format.SWISS,
        target=121,
        scoring=Scoring.LURCH,
        round_hours=24.0,
    )


async def _bot_database(path: Path) -> list[int]:
    """A SQLite database as a bot leaves it: finished games (2 and 3 players, the first pruned
    after its retention period), one in play, an open lobby, message records and settings;
    the ids of the started games that were not pruned."""
    clock = Clock()
    async with await Store.open(path) as store:
        started = []
        for seed, users, stop in [(1, [AL, BEA], None), (2, [BEA, CY, AL], None), (3, [AL, CY], 9)]:
            service = make_service(store, clock, seed=seed)
            table = await open_table(service, users, channel=100 + seed)
            await drive(service, table, users, stop_after=stop)
            game_id = table.outcomes[0].game_id
            assert game_id is not None
            started.append(game_id)
            clock.advance(minutes=20)
        lobby = make_service(store, clock, seed=9)
        assert (await lobby.lobbies.new_game(5, 200, CY)).ok
        await store.set_coach(BEA.id, False, now=1.0)
        # A process killed outright leaves its heartbeat: the SQLite file's, not the copy's.
        await store.heartbeat(
            ProcessRow("host-a:1:aa", "host-a", 1, "all", "r", 1.0, 2.0, True, True)
        )
        keeper = make_service(store, clock, retention=timedelta(minutes=50))
        assert await keeper.housekeeping.prune() == 1
        assert await store.archived(started[0]) is not None
    return started[1:]


async def test_a_copy_into_postgresql_has_every_row_and_replays_every_game(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "bot.db"
    started = await _bot_database(path)
    assert await main_async([str(path), postgres_url]) == 0
    async with await Store.open(path) as lite, await Store.open(postgres_url) as postgres:
        report = await verify_copy(lite, postgres)
        # The pruned game replays from its archive record; the others from their snapshots.
        assert report.differences == [] and report.games_replayed == 3
        assert (await postgres.db.fetch("SELECT COUNT(*) FROM game_archives"))[0][0] == 1
        assert await postgres.db.fetch("SELECT holder FROM bot_processes") == []
        for game_id in started:
            assert (await load(postgres, game_id)).to_dict() == (
                await load(lite, game_id)
            ).to_dict()
            assert await postgres.results(game_id) == await lite.results(game_id)
            assert await postgres.actions(game_id) == await lite.actions(game_id)
        assert await postgres.stored_ratings() == await lite.stored_ratings()
        # The game in play goes on from the copy, and new games take new numbers.
        service = make_service(postgres, Clock(), seed=3)
        assert (await service.lobbies.new_game(5, 300, BEA)).ok
        newest = await postgres.open_game_in_channel(300)
        assert newest is not None and newest.id > max(started)


async def test_every_numbered_table_goes_on_numbering_after_the_copied_rows(
    tmp_path: Path, postgres_url: str
) -> None:
    """Not the games alone: a tournament, a ranked search and a ranked match made on the
    copy take numbers after the copied ones (PostgreSQL's identities), not ones taken."""
    path = tmp_path / "bot.db"
    async with await Store.open(path) as lite:
        before = await lite.create_tournament(_plan(400), now=1.0)
        service = make_service(lite, Clock())
        for user, place in ((AL, 7001), (BEA, 7002)):
            await search_ranked(service, user, place)
        paired = await lite.live_entry(BEA.id)
        assert paired is not None and paired.match_id is not None
    assert await main_async([str(path), postgres_url]) == 0
    async with await Store.open(postgres_url) as postgres:
        made = await postgres.create_tournament(_plan(401), now=2.0)
        assert made.id > before.id
        service = make_service(postgres, Clock())
        for user, place in ((DEE, 7004), (EVE, 7005)):
            await search_ranked(service, user, place)
        entry = await postgres.live_entry(EVE.id)
        assert entry is not None and entry.id > paired.id
        assert entry.match_id is not None and entry.match_id > paired.match_id


async def test_a_copy_that_lost_something_is_caught(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "bot.db"
    game = (await _bot_database(path))[0]
    async with await Store.open(path) as lite, await Store.open(postgres_url) as postgres:
        report = await copy_database(lite, postgres)
        assert report.rows["games"] == 4 and report.rows["actions"] > 100
        async with postgres.db.transaction() as tx:
            await tx.execute(
                "DELETE FROM actions WHERE seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?)"
                " AND game_id = ?",
                (game, game),
            )
            await tx.execute("UPDATE standings SET wins = wins + 1 WHERE player_id = ?", (AL.id,))
        found = await verify_copy(lite, postgres)
    said = "\n".join(found.differences)
    assert "actions: " in said and f"game {game}: its action log differs" in said
    assert "standings: " in said and "ratings recomputed" in said


async def test_a_copy_goes_only_into_an_empty_database(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "bot.db"
    await _bot_database(path)
    assert await main_async([str(path), postgres_url]) == 0
    with pytest.raises(ToFix, match="empty"):
        await main_async([str(path), postgres_url])


def test_the_command_names_what_it_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"
    assert main([str(missing), "postgresql://db/x"]) == 2
    assert capsys.readouterr().err == f"No database at {missing}: give the bot's SQLite file.\n"
    # A folder, or a file that is not SQLite: one sentence, as every maintenance command says.
    assert main([str(tmp_path), "postgresql://db/x"]) == 2
    assert "it is a directory, not a file" in capsys.readouterr().err
    (tmp_path / "notes.db").write_text("not a database")
    assert main([str(tmp_path / "notes.db"), "postgresql://db/x"]) == 2
    assert "it is not a SQLite database" in capsys.readouterr().err
    (tmp_path / "bot.db").write_bytes(b"")
    assert main([str(tmp_path / "bot.db"), "sqlite:///other.db"]) == 2
    assert "postgresql://" in capsys.readouterr().err


async def main_async(argv: list[str]) -> int:
    """The command, run on this test's event loop (``main`` starts one of its own)."""
    from bot.tools.copy import run

    return await run(argv[0], argv[1])
