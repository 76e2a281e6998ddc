"""`python -m bot copy`: a SQLite database copied into PostgreSQL loses nothing, checked by
comparing every row and replaying every game; a copy that lost something is caught. A bot's
database with a row in every table (every reference between them used) is copied whole, parents
before the rows that refer to them; references in a circle too; a row PostgreSQL refuses fails
the copy in one line and copies nothing."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.base.replies import User
from bot.core.tournaments.records import Format, TournamentPlan
from bot.store import Store
from bot.store.copy import Reference, copy_database, copy_order, verify_copy
from bot.store.database import MissingReference
from bot.store.ops_tables import ProcessRow
from bot.tools import ToFix
from bot.tools.copy import main
from engine.outcome import Scoring
from tests.bot.test_backup_tables import _every_kind_of_row
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


#: The SQLite file's tables the copy leaves behind (the bot's bookkeeping: bot.store.copy).
_BOOKKEEPING = {"leases", "bot_processes", "schema_migrations", "sqlite_sequence"}


async def _filled(path: Path) -> list[str]:
    """A bot's database at ``path`` with a row in every table (as players leave it, every
    reference between tables used: a ranked match's games and rating changes, a tournament's
    entrants and pairings...): the tables the copy takes."""
    clock = Clock()
    async with await Store.open(path) as lite:
        await _every_kind_of_row(make_service(lite, clock), lite, clock)
        tables = sorted(await lite.db.table_names() - _BOOKKEEPING)
        empty = [t for t in tables if not await lite.db.fetch(f"SELECT 1 FROM {t} LIMIT 1")]
    # A table a new migration adds fails here until tests/bot/test_backup_tables.py gives it a
    # row: the copy is proved on every table, every reference, or on none.
    assert empty == [], "give these tables a row in _every_kind_of_row"
    return tables


async def test_a_bots_database_with_a_row_in_every_table_is_copied_whole(
    migrated_sqlite_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Children were copied before their parents (alphabetically: ranked_changes before
    ranked_matches), which PostgreSQL refused with a traceback on any bot that had had a
    ranked match or a tournament."""
    tables = await _filled(migrated_sqlite_path)
    assert {"ranked_games", "ranked_changes", "tournament_entrants"} <= set(tables)
    assert await main_async([str(migrated_sqlite_path), postgres_url]) == 0
    assert capsys.readouterr().out.startswith("Copied ")
    async with (
        await Store.open(migrated_sqlite_path) as lite,
        await Store.open(postgres_url) as postgres,
    ):
        # Every row of every table compared, value for value, every game replayed.
        assert (await verify_copy(lite, postgres)).differences == []
        for table in tables:
            assert (await postgres.db.fetch(f"SELECT 1 FROM {table} LIMIT 1")) != [], table


async def _pg_rows(url: str) -> dict[str, int]:
    """The rows of each table of the PostgreSQL database at ``url``."""
    async with await Store.open(url) as postgres:
        names = sorted(await postgres.db.table_names())
        return {t: (await postgres.db.fetch(f"SELECT COUNT(*) FROM {t}"))[0][0] for t in names}


async def test_a_row_that_refers_to_nothing_fails_the_copy_in_one_line_and_copies_nothing(
    migrated_sqlite_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SQLite file can hold a row whose parent is gone (written while SQLite did not enforce
    its references): PostgreSQL refuses it, and the command says so in one line."""
    await _filled(migrated_sqlite_path)
    before = await _pg_rows(postgres_url)
    with sqlite3.connect(migrated_sqlite_path) as raw:  # (foreign keys off, as SQLite starts)
        raw.execute("INSERT INTO hints_taken (game_id, seat, hints) VALUES (999, 0, 1)")
    assert await main_async([str(migrated_sqlite_path), postgres_url]) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err == (
        "Nothing was copied: PostgreSQL refused a row of hints_taken (Key (game_id)=(999) is"
        ' not present in table "games"); mend or delete that row in the SQLite file, then copy'
        " again.\n"
    )
    assert await _pg_rows(postgres_url) == before


def test_tables_are_ordered_parents_first_and_a_circle_is_lifted() -> None:
    refs = [
        Reference("changes_match", "ranked_changes", "ranked_matches", ""),
        Reference("games_match", "ranked_games", "ranked_matches", ""),
        Reference("match_entry", "ranked_matches", "ranked_entries", ""),
        Reference("a_b", "a", "b", ""),
        Reference("b_a", "b", "a", ""),
        Reference("c_a", "c", "a", ""),
        Reference("self", "family", "family", ""),
        Reference("elsewhere", "ranked_games", "not_copied", ""),
    ]
    tables = ["ranked_changes", "ranked_games", "ranked_matches", "ranked_entries", "a", "b"]
    order, circles = copy_order([*tables, "c", "family"], refs)
    assert sorted(order) == sorted([*tables, "c", "family"])
    for ref in refs:
        if ref.name not in {"a_b", "b_a", "self", "elsewhere"}:
            assert order.index(ref.parent) < order.index(ref.child), ref
    assert sorted(r.name for r in circles) == ["a_b", "b_a", "self"]


#: Tables that refer round to each other, and one to itself, in both databases (a schema
#: that may come: a person's table and one that names the person's latest row...).
_CIRCLE = [
    "CREATE TABLE loop_a (id BIGINT PRIMARY KEY, b_id BIGINT)",
    "CREATE TABLE loop_b (id BIGINT PRIMARY KEY, a_id BIGINT NOT NULL REFERENCES loop_a (id))",
    "CREATE TABLE family (id BIGINT PRIMARY KEY, parent_id BIGINT REFERENCES family (id))",
]
#: loop_a's reference to loop_b, which PostgreSQL takes once loop_b is there (SQLite, in its
#: table's definition).
_LOOP = "ALTER TABLE loop_a ADD CONSTRAINT loop_a_b FOREIGN KEY (b_id) REFERENCES loop_b (id)"
#: Rows no order of tables (nor of rows by their keys) puts in without lifting a reference.
_CIRCLE_ROWS = [
    "INSERT INTO loop_a VALUES (1, 2)",
    "INSERT INTO loop_b VALUES (2, 1)",
    "INSERT INTO family VALUES (1, 5), (5, NULL)",
]


async def _with_circle(path: Path, url: str, *, broken: bool = False) -> None:
    await _bot_database(path)
    async with await Store.open(url) as postgres, postgres.db.transaction() as tx:
        for statement in [*_CIRCLE, _LOOP]:
            await tx.execute(statement)
    with sqlite3.connect(path) as raw:
        loop_a = _CIRCLE[0].replace("b_id BIGINT", "b_id BIGINT REFERENCES loop_b (id)")
        for statement in [loop_a, *_CIRCLE[1:], *_CIRCLE_ROWS]:
            raw.execute(statement)
        if broken:
            raw.execute("INSERT INTO family VALUES (7, 8)")


async def test_references_in_a_circle_are_lifted_for_the_copy_and_checked_again(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "bot.db"
    await _with_circle(path, postgres_url)
    assert await main_async([str(path), postgres_url]) == 0
    async with await Store.open(postgres_url) as postgres:
        for table in ("loop_a", "loop_b", "family"):
            assert len(await postgres.db.fetch(f"SELECT * FROM {table}")) in (1, 2)
        # The references are back, and hold.
        with pytest.raises(MissingReference):
            await postgres.db.execute("INSERT INTO family VALUES (9, 10)")
        with pytest.raises(MissingReference):
            await postgres.db.execute("INSERT INTO loop_b VALUES (3, 4)")


async def test_a_broken_reference_in_a_circle_fails_the_copy_and_copies_nothing(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.db"
    await _with_circle(path, postgres_url, broken=True)
    before = await _pg_rows(postgres_url)
    assert await main_async([str(path), postgres_url]) == 1
    said = capsys.readouterr().err
    assert said.startswith("Nothing was copied: PostgreSQL refused a row of family (Key")
    assert said.count("\n") == 1
    assert await _pg_rows(postgres_url) == before
    async with await Store.open(postgres_url) as postgres:
        constraints = await postgres.db.fetch(
            "SELECT conname FROM pg_constraint WHERE conrelid = 'family'::regclass"
            " AND contype = 'f'"
        )
    assert len(constraints) == 1  # (the lifted reference is there still: nothing changed)


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
