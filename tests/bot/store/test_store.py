"""The store, on both databases: migrations, WAL, one open game per channel, one transaction
per accepted action with an optimistic version check, and the messages a game owns."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.base.delivery import AnswerKept
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked, User
from bot.core.base.store_errors import ChannelBusy, VersionConflict
from bot.core.base.views import MessageRecord
from bot.core.games.records import GameChange, GameStatus, NewGame, Options, SeatRecord
from bot.store import Dialect, Store, migrations
from bot.store.database import UniqueViolation
from bot.store.sqlite import SqliteDatabase
from engine.counting import Counting
from engine.outcome import Scoring
from engine.variants import FIVE_HAND
from tests.helpers.forgetting import known
from tests.helpers.migrated import migrations_before
from tests.helpers.results import result_row

SQLITE_MIGRATIONS = Dialect.SQLITE.migrations_dir

_INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer, computer_level)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
AL = SeatRecord(0, 1, "Al")
BEA = SeatRecord(1, 2, "Bea")


async def _lobby(store: Store, channel: int = 10) -> int:
    record = await store.create_game(NewGame(5, channel, AL, Options(2, 121)), now=100.0)
    return record.id


def _moved(snapshot: str | None, *actions: str) -> GameChange:
    """A move of a game being played: its new snapshot, if any, and its log entries."""
    return GameChange(GameStatus.ACTIVE, snapshot=snapshot, actions=actions)


def _skunk(won: int, lost: int) -> GameChange:
    """The game finished, user 1 in seat ``won`` having skunked user 2 in seat ``lost`` (2 game
    points, 121-80)."""
    rows = [
        result_row(won, User(1, "P1"), won=True, score=121, beyond=Scoring.SKUNK, final="121-80"),
        result_row(lost, User(2, "P2"), won=False, score=80, beyond=Scoring.SKUNK, final="121-80"),
    ]
    return GameChange(GameStatus.FINISHED, results=rows)


async def test_migrations_set_the_schema_version_to_the_last_file(store: Store) -> None:
    last = migrations(store.dialect.migrations_dir)[-1][0]
    assert await store.user_version() == last
    assert last == migrations(SQLITE_MIGRATIONS)[-1][0]  # one number, one schema


async def test_sqlite_keeps_its_journal_in_wal_mode(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "wal.db") as store:
        assert isinstance(store.db, SqliteDatabase)
        assert await store.db.journal_mode() == "wal"


async def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "again.db"
    first = await Store.open(path)
    game_id = await _lobby(first)
    await first.close()
    second = await Store.open(path)
    try:
        record = await second.get_game(game_id)
        assert record is not None and record.seats == (AL,)
        assert await second.user_version() == migrations(SQLITE_MIGRATIONS)[-1][0]
    finally:
        await second.close()


async def test_a_new_numbered_migration_is_applied_once(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    base = SQLITE_MIGRATIONS / "001_base.sql"
    (folder / "001_base.sql").write_text(base.read_text())
    path = tmp_path / "grow.db"
    await (await Store.open(path, migrations_dir=folder)).close()
    (folder / "002_note.sql").write_text("ALTER TABLE games ADD COLUMN note TEXT;")
    store = await Store.open(path, migrations_dir=folder)
    try:
        assert await store.user_version() == 2
    finally:
        await store.close()
    # Opening again must not try to add the column a second time.
    store = await Store.open(path, migrations_dir=folder)
    await store.close()


async def test_a_failing_migration_leaves_the_version_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER); THIS IS NOT SQL;")
    with pytest.raises(Exception, match="syntax"):
        await Store.open(tmp_path / "bad.db", migrations_dir=folder)
    (folder / "002_bad.sql").unlink()
    store = await Store.open(tmp_path / "bad.db", migrations_dir=folder)
    try:
        assert await store.user_version() == 1
    finally:
        await store.close()


async def test_one_open_game_per_channel(store: Store) -> None:
    await _lobby(store, channel=10)
    with pytest.raises(ChannelBusy):
        await _lobby(store, channel=10)
    await _lobby(store, channel=11)  # another channel is free


async def test_a_closed_game_frees_its_channel(store: Store) -> None:
    game_id = await _lobby(store)
    await store.save(game_id, 0, GameChange(GameStatus.CANCELLED), now=200.0)
    await _lobby(store)
    assert (await store.open_game_in_channel(10)) is not None


async def test_save_appends_the_log_and_updates_the_snapshot(store: Store) -> None:
    game_id = await _lobby(store)
    version = await store.save(game_id, 0, _moved('{"n": 1}'), now=101.0)
    action = json.dumps({"type": "play", "seat": 0, "card": "5H"})
    version = await store.save(game_id, version, _moved('{"n": 2}', action), now=102.0)
    record = await store.get_game(game_id)
    assert record is not None
    assert (record.version, record.snapshot, record.updated_at) == (2, '{"n": 2}', 102.0)
    assert await store.actions(game_id) == [action]


async def test_version_conflict_changes_nothing(store: Store) -> None:
    game_id = await _lobby(store)
    await store.save(game_id, 0, _moved('{"n": 1}'), now=101.0)
    with pytest.raises(VersionConflict, match="already made"):
        await store.save(game_id, 0, _moved('{"n": 9}', '{"x": 1}'), now=102.0)
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot == '{"n": 1}' and record.version == 1
    assert await store.actions(game_id) == []


async def test_two_connections_racing_one_write_wins(tmp_path: Path) -> None:
    path = tmp_path / "race.db"
    first = await Store.open(path)
    second = await Store.open(path)
    try:
        game_id = await _lobby(first)
        loaded = await second.get_game(game_id)
        assert loaded is not None
        await first.save(game_id, loaded.version, _moved(None, '{"a": 1}'), now=1.0)
        with pytest.raises(VersionConflict):
            await second.save(game_id, loaded.version, _moved(None, '{"b": 1}'), now=1.0)
        assert await second.actions(game_id) == ['{"a": 1}']
    finally:
        await first.close()
        await second.close()


async def test_finished_game_writes_results_in_the_same_transaction(store: Store) -> None:
    game_id = await _lobby(store)
    await store.set_seats(game_id, 0, [AL, BEA], now=100.0)
    # Two rows for the same seat break the primary key: the whole save must roll back.
    with pytest.raises(UniqueViolation):
        await store.save(game_id, 1, _skunk(0, 0), now=300.0)
    record = await store.get_game(game_id)
    assert record is not None and record.status == "lobby" and record.version == 1
    assert await store.ranking(5) == (0, [])
    await store.save(game_id, 1, _skunk(0, 1), now=300.0)
    _, board = await store.ranking(5)
    rows = [r.standing for r in board]
    assert [(r.player_id, r.wins, r.games, r.skunks_given, r.skunks_taken) for r in rows] == [
        (1, 1, 1, 1, 0),
        (2, 0, 1, 0, 1),
    ]


async def test_a_lobby_reseated_is_played_by_the_options_it_is_given(store: Store) -> None:
    game_id = await _lobby(store)
    five = Options(
        5, 121, scoring=Scoring.SKUNK, counting=Counting.MANUAL, variant=FIVE_HAND.name, hints=True
    )
    version = await store.set_seats(game_id, 0, [AL, BEA], now=100.0, options=five)
    record = await store.get_game(game_id)
    assert record is not None and (record.version, record.options) == (version, five)
    # Without options, the lobby keeps those it had.
    await store.set_seats(game_id, version, [AL], now=100.0)
    record = await store.get_game(game_id)
    assert record is not None and record.options == five


async def test_seats_replace_and_version_check(store: Store) -> None:
    game_id = await _lobby(store)
    version = await store.set_seats(game_id, 0, [AL, BEA], now=100.0)
    with pytest.raises(VersionConflict):
        await store.set_seats(game_id, 0, [AL], now=100.0)
    record = await store.get_game(game_id)
    assert record is not None and record.version == version and record.seats == (AL, BEA)
    assert record.seat_of(2) == 1 and record.seat_of(99) is None


async def test_idle_games_lists_open_games_older_than_the_cutoff(store: Store) -> None:
    old = await _lobby(store, channel=1)
    await store.create_game(NewGame(5, 2, AL, Options(2, 61)), now=500.0)
    done = await _lobby(store, channel=3)
    await store.save(done, 0, GameChange(GameStatus.CANCELLED), now=50.0)
    assert [g.id for g in await store.idle_games(before=200.0)] == [old]


async def test_foreign_keys_are_enforced(store: Store) -> None:
    if isinstance(store.db, SqliteDatabase):
        # SQLite checks them only where the connection asks (PostgreSQL always does).
        assert await store.db.foreign_keys()
    with pytest.raises(Exception, match=r"(?i)foreign key"):
        async with store.db.transaction() as tx:
            await tx.execute(_INSERT_SEAT, (12345, 0, 1, "Al", 0, None))
    assert await store.get_game(12345) is None


@pytest.mark.parametrize("level", ["medium", "expert"])
async def test_a_computer_seat_keeps_its_level(store: Store, level: str) -> None:
    game_id = await _lobby(store)
    record = await store.get_game(game_id)
    assert record is not None
    computer = SeatRecord(1, None, f"Computer ({level})", True, level)
    await store.set_seats(game_id, record.version, [AL, computer], now=101.0)
    again = await store.get_game(game_id)
    assert again is not None and again.seats == (AL, computer)


async def test_a_computer_seat_refuses_an_unknown_level(store: Store) -> None:
    game_id = await _lobby(store)
    with pytest.raises(Exception, match=r"(?i)check"):
        async with store.db.transaction() as tx:
            await tx.execute(_INSERT_SEAT, (game_id, 1, None, "Computer (godlike)", 1, "godlike"))


async def test_migration_009_makes_seats_again_keeping_every_row(tmp_path: Path) -> None:
    # A database from before 009 (SQLite rebuilds the table to change its CHECK).
    folder = migrations_before(Dialect.SQLITE, 9, tmp_path / "migrations")
    db = tmp_path / "old.db"
    old = await Store.open(db, migrations_dir=folder)
    computer = SeatRecord(1, None, "Computer (hard)", True, "hard")
    try:
        # Its rows as that release wrote them (today's store seats a person only where it can
        # read their ranked entries, a table from 022).
        async with old.db.transaction() as tx:
            rows = await tx.fetch(
                "INSERT INTO games (guild_id, channel_id, creator_id, num_players, target,"
                " version, created_at, updated_at) VALUES (5, 10, ?, 2, 121, 1, 100.0, 101.0)"
                " RETURNING id",
                (AL.user_id,),
            )
            game_id = int(rows[0][0])
            await tx.executemany(
                _INSERT_SEAT,
                [
                    (game_id, 0, AL.user_id, AL.name, 0, None),
                    (game_id, 1, None, computer.name, 1, "hard"),
                ],
            )
        with pytest.raises(sqlite3.IntegrityError):
            async with old.db.transaction() as tx:
                await tx.execute(_INSERT_SEAT, (game_id, 2, None, "Computer (expert)", 1, "expert"))
    finally:
        await old.close()
    new = await Store.open(db)
    try:
        again = await new.get_game(game_id)
        assert again is not None and again.seats == (AL, computer)
        expert = SeatRecord(2, None, "Computer (expert)", True, "expert")
        await new.set_seats(game_id, again.version, [AL, computer, expert], now=102.0)
        assert (await new.get_game(game_id)).seats[2] == expert  # type: ignore[union-attr]
        # The keys came back with the table: one seat number, one user per game; and
        # deleting the game still deletes its seats.
        with pytest.raises(UniqueViolation):
            async with new.db.transaction() as tx:
                await tx.execute(_INSERT_SEAT, (game_id, 0, 9, "Cy", 0, None))
        with pytest.raises(UniqueViolation):
            async with new.db.transaction() as tx:
                await tx.execute(_INSERT_SEAT, (game_id, 3, 1, "Al again", 0, None))
        async with new.db.transaction() as tx:
            await tx.execute("DELETE FROM games WHERE id = ?", (game_id,))
        assert await new.db.fetch("SELECT * FROM seats") == []
    finally:
        await new.close()


async def test_migration_003_reads_old_computer_levels_from_their_names(tmp_path: Path) -> None:
    # A database made before 003: the level was only in the name shown at the table.
    folder = migrations_before(Dialect.SQLITE, 3, tmp_path / "migrations")
    db = tmp_path / "old.db"
    await (await Store.open(db, migrations_dir=folder)).close()
    # A lobby as the old bot wrote it (today's store would write the new column).
    with sqlite3.connect(db) as conn:
        game_id = conn.execute(
            "INSERT INTO games (channel_id, creator_id, num_players, target, created_at,"
            " updated_at) VALUES (10, 1, 2, 121, 100.0, 100.0)"
        ).lastrowid
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer)"
            " VALUES (?, ?, ?, ?, ?)",
            [(game_id, 0, 1, "Al", 0), (game_id, 1, None, "Computer (easy)", 1)],
        )
    assert game_id is not None
    new = await Store.open(db)
    try:
        again = await new.get_game(game_id)
        assert again is not None
        assert [(s.name, s.level) for s in again.seats] == [
            ("Al", None),
            ("Computer (easy)", "easy"),
        ]
    finally:
        await new.close()


async def test_migration_005_keeps_the_skunk_scale_for_games_made_before_it(
    tmp_path: Path,
) -> None:
    # Games made before 005 were scored on the skunk scale and counted automatically; a game
    # made after it gets the rules documents' lurch unless the table chooses otherwise.
    folder = migrations_before(Dialect.SQLITE, 5, tmp_path / "migrations")
    db = tmp_path / "old.db"
    await (await Store.open(db, migrations_dir=folder)).close()
    with sqlite3.connect(db) as conn:  # a game as the old bot wrote it
        before = conn.execute(
            "INSERT INTO games (channel_id, creator_id, num_players, target, created_at,"
            " updated_at) VALUES (10, 1, 2, 121, 100.0, 100.0)"
        ).lastrowid
    assert before is not None
    async with await Store.open(db) as new:
        kept = await new.get_game(before)
        assert kept is not None
        assert (kept.options.scoring, kept.options.counting) == (Scoring.SKUNK, Counting.AUTO)
        made = await new.get_game(await _lobby(new, channel=11))
        assert made is not None and made.options.scoring is Scoring.LURCH


async def _answered(store: Store, owner: Owner, message: MessageRecord) -> None:
    """A click on the game's message answered with ``message``, kept as a move keeps it."""
    game = await store.get_game(owner.id)
    assert game is not None and message.token is not None and message.token_at is not None
    clicked = Clicked(message.channel_id, message.message_id, message.token)
    answer = AnswerKept(message.key, clicked, message.digest, message.version, message.token_at)
    await store.save(game.id, game.version, GameChange(game.status), now=2.0, answered=answer)


async def test_what_a_message_shows_is_never_replaced_by_an_older_look(store: Store) -> None:
    # Two processes keep records of one message: the one answering a click on it and the one
    # sending. A record drawn at an older version of the game never replaces a newer one.
    owner = Owner.game(await _lobby(store))
    keep = MessageRecord(MessageKey.parse("hand:1:0"), 7, 70, "v5", version=5)
    await store.set_messages([(owner, keep)])
    answered = MessageRecord(MessageKey.parse("hand:1:0"), 7, 70, "v6", "tok", 1.0, True, 6)
    await _answered(store, owner, answered)
    await store.set_messages([(owner, replace(keep, digest="v5 again"))])
    kept = (await store.messages(owner))[MessageKey.parse("hand:1:0")]
    assert (kept.digest, kept.version, kept.token, kept.original) == ("v6", 6, "tok", True)
    await _answered(store, owner, replace(answered, digest="v4", token="old", version=4))
    assert (await store.messages(owner))[MessageKey.parse("hand:1:0")].digest == "v6"
    # The same version again (a reminder, a notice: the game did not move) is taken.
    await store.set_messages([(owner, replace(keep, digest="v6 + reminder", version=6))])
    assert (await store.messages(owner))[MessageKey.parse("hand:1:0")].digest == "v6 + reminder"
    # A message posted again (the old one was deleted) is taken whatever it shows.
    await store.set_messages(
        [(owner, MessageRecord(MessageKey.parse("hand:1:0"), 7, 71, "new", version=1))]
    )
    assert (await store.messages(owner))[MessageKey.parse("hand:1:0")].message_id == 71


async def test_a_message_s_id_once_learned_is_kept_over_its_answer_s_token_alone(
    store: Store,
) -> None:
    # /cribbage new's answer is kept before its id is known (0); another process that edits it
    # through that answer's token writes it without the id, after this one learned it.
    owner = Owner.game(await _lobby(store))
    answer = MessageRecord(
        MessageKey.parse("lobby"), 7, 0, "lobby", "tok", 1.0, True, 1, unconfirmed_since=1.0
    )
    await store.set_messages([(owner, answer)])
    await _answered(store, owner, replace(answer, message_id=70, unconfirmed_since=None))
    await store.set_messages([(owner, replace(answer, digest="dealt", version=2))])
    kept = (await store.messages(owner))[MessageKey.parse("lobby")]
    assert (kept.message_id, kept.digest, kept.version) == (70, "dealt", 2)
    # Another interaction's answer without its id is another message.
    await store.set_messages([(owner, replace(answer, token="other", digest="x", version=3))])
    assert (await store.messages(owner))[MessageKey.parse("lobby")].message_id == 0


async def test_when_a_member_was_last_seen_is_kept_for_every_process(store: Store) -> None:
    await known(store, 1)
    assert await store.member_seen(5, 1) is None
    await store.saw_member(5, 1, 100.0)
    await store.saw_member(5, 1, 90.0)  # an older note (another process, late) changes nothing
    assert await store.member_seen(5, 1) == 100.0
    await store.saw_member(5, 1, 130.5)
    assert await store.member_seen(5, 1) == 130.5
    assert await store.member_seen(6, 1) is None  # another server knows nothing of it
    # Nor is anything kept of someone the bot keeps nothing of (their data deleted, say).
    await store.saw_member(5, 2, 140.0)
    assert await store.member_seen(5, 2) is None
