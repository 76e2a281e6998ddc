"""Every table survives a backup and its restore, on both databases, the tables drawn from the
schema (what every migration together makes), never from a list: a bot's database with rows in
each (games played and in play, ratings, reviews, the discard of the day, tournaments, club
nights, ranked searches, matches and blocks, a deletion's keyed block and the bot's
secret...), copied as ``docs/running.md`` says (SQLite: ``python -m bot backup``'s online
copy; PostgreSQL: ``pg_dump``, then ``pg_restore`` into a new database), reads back the same,
row for row, in every table. A table a new migration adds, left empty here, fails the check
until it is given a row."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.base.replies import User
from bot.core.daily.records import DailyAnswer
from bot.core.ledger.records import DmLink
from bot.core.services import Services
from bot.store import Dialect, Store
from bot.tools.backup import copy_sqlite
from tests.helpers.cast import AL, BEA, CY
from tests.helpers.postgres import PostgresServer
from tests.helpers.service_driver import (
    Clock,
    drive,
    finished_game,
    make_service,
    open_table,
    ranked_game,
    search_ranked,
)

#: The tables the migrations' runner and the processes' coordination keep for themselves
#: (what runs now, not what the bot holds: a restored bot writes its own).
_RUNNING = {"schema_version", "sqlite_sequence", "leases", "bot_processes"}


async def _every_kind_of_row(service: Services, store: Store, clock: Clock) -> None:
    """A bot's database as players leave it."""
    mo, di = User(9, "Mo"), User(44, "Di")
    # A game pruned to its archive record, long after it ended.
    await finished_game(service, (AL, BEA))
    clock.advance(days=40)
    pruner = make_service(store, clock, retention=timedelta(days=30))
    assert await pruner.housekeeping.prune() == 1
    playing = await open_table(service, (AL, CY), channel=2000)
    await drive(service, playing, (AL, CY), stop_after=3)
    game_id = playing.outcomes[0].game_id
    assert game_id is not None
    await service.coach.coach(AL, on=False)
    assert (await service.tournaments.new(500, 4000, mo, moderator=True)).ok
    for user in (AL, BEA):
        assert (await service.tournaments.join(4000, user)).ok
    tournament = await store.tournament_in_channel(4000)
    assert tournament is not None
    await store.start_tournament(tournament.id, rounds=1)
    assert await store.pair_round(tournament.id, 1, [(AL.id, BEA.id)], now=3.0)
    # A weekly club night in the server's own time zone (its club, its night with its
    # tournament), its event made, and Al marking it Interested.
    assert (await service.nights.time_zone(500, mo, moderator=True, zone="Europe/Paris")).ok
    scheduled = await service.nights.schedule(
        500, 4100, mo, moderator=True, when="Friday 20:00", events_refusal=None, repeat="weekly"
    )
    assert scheduled.ok, scheduled.reply.text
    club = await store.club_in_channel(4100)
    assert club is not None
    await store.set_event(club.id, 9100)
    await service.attendance.interest(500, 9100, AL.id, AL.name, yes=True)
    night = await store.latest_night(club.id)
    assert night is not None and [p.user_id for p in await store.night_people(night.id)] == [AL.id]
    # A ranked match played and rated, and another being played.
    for user, place in ((AL, 7001), (BEA, 7002)):
        await search_ranked(service, user, place)
    entry = await store.live_entry(AL.id)
    assert entry is not None and entry.match_id is not None
    assert await store.finish_match(
        entry.match_id, winner=AL.id, how="games", abandoned_by=None, now=4.0
    )
    for user, place in ((BEA, 7002), (di, 7004)):
        await search_ranked(service, user, place)
    await ranked_game(service, store, BEA)
    service.ranked_play.stop()
    await store.set_dm_link(DmLink(AL.id, 8001, None, None))
    await store.daily_secret(500, "a secret of the day")
    await store.block_player(BEA.id, CY.id, CY.name, now=5.0)
    assert (await service.privacy.confirm_forget(CY.id, CY, True)).ok
    await service.auto_reviews.review_owed()  # (the game Cy's deletion resigned)
    await store.save_daily(
        DailyAnswer(500, "2026-11-27", AL.id, "Al", "5H 5S", 4.5, 5.0, 2, answered_at=6.0)
    )
    # What a longer life leaves: a server left, a deal's hand a DM refused, a hint taken, a
    # post on its way.
    await store.left_server(600, at=8.0)
    rows = {
        "members_seen (guild_id, user_id, seen_at)": (500, AL.id, 7.0),
        "dm_refusals (game_id, seat, deal)": (game_id, 0, 1),
        "hints_taken (game_id, seat, hints)": (game_id, 0, 1),
        "pending_posts (owner, key, channel_id, since)": (f"game:{game_id}", "lobby", 2000, 9.0),
    }
    for table, row in rows.items():
        await store.db.execute(f"INSERT INTO {table} VALUES (?, ?, ?{', ?' * (len(row) - 3)})", row)
    await service.ledger.writes.flush()


async def _tables(store: Store) -> list[str]:
    """The schema's tables, from the database itself."""
    if store.db.dialect is Dialect.SQLITE:
        names = await store.db.table_names()
    else:
        rows = await store.db.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
        names = {str(r[0]) for r in rows}
    return sorted(set(names) - _RUNNING)


async def _rows(store: Store, table: str) -> list[tuple[Any, ...]]:
    rows = [tuple(r) for r in await store.db.fetch(f"SELECT * FROM {table}")]
    return sorted(rows, key=repr)


def _restored(server: PostgresServer, url: str, folder: Path) -> str:
    """``url``'s database dumped and restored into a new one, as docs/running.md says: its
    URL."""
    dump = folder / "cribbage.dump"
    pg_dump = [str(server.bin / "pg_dump"), "--format=custom", f"--file={dump}", url]
    subprocess.run(pg_dump, check=True, capture_output=True)
    restored = server.create_database(f"restored_{secrets.token_hex(6)}")
    pg_restore = [str(server.bin / "pg_restore"), "--no-owner", f"--dbname={restored}", str(dump)]
    subprocess.run(pg_restore, check=True, capture_output=True)
    return restored


async def test_every_table_survives_a_backup_and_its_restore(
    service: Services,
    store: Store,
    clock: Clock,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    await _every_kind_of_row(service, store, clock)
    tables = await _tables(store)
    empty = [table for table in tables if not await _rows(store, table)]
    assert empty == [], "give these tables a row in _every_kind_of_row"
    assert {"bot_secrets", "ranked_blocks", "tournaments", "ranked_matches"} <= set(tables)
    # (The store's database, as its fixture made it.)
    if store.db.dialect is Dialect.SQLITE:
        source = request.getfixturevalue("migrated_sqlite_path")
        copy = tmp_path / "copy.db"
        await asyncio.to_thread(copy_sqlite, source, copy)
        target: str | Path = copy
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        target = _restored(server, request.getfixturevalue("migrated_postgres_url"), tmp_path)
    async with await Store.open(target) as restored:
        assert await _tables(restored) == tables
        for table in tables:
            assert await _rows(restored, table) == await _rows(store, table), table
