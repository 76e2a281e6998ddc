"""A server's data once the bot has left it (issue 50, item 4), through the core on both
databases: noted when the bot is removed, deleted only once the grace period has passed, kept
when the bot is back in time; what other servers keep is untouched, and a replay of every
result left still gives the stored ratings. A server left while the bot was away is found at
the next start."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.core.base.replies import TableAsked, User
from bot.core.daily.records import DailyAnswer
from bot.core.privacy.servers import GRACE, ServerData
from bot.core.services import Services
from bot.store import Dialect, Store, privacy_tables
from bot.tools.ratings import differences
from tests.helpers.cast import AL, BEA, CY, GUILD
from tests.helpers.forgetting import locks_waited_on
from tests.helpers.service_driver import Clock, drive, finished_game, open_table, search_ranked

OTHER = 600


async def _games(store: Store, guild: int) -> int:
    [(count,)] = await store.db.fetch("SELECT COUNT(*) FROM games WHERE guild_id = ?", (guild,))
    return int(count)


async def test_a_server_s_data_goes_after_the_grace_period(
    service: Services, store: Store, clock: Clock
) -> None:
    await finished_game(service, (AL, BEA))
    other = await open_table(service, (BEA, CY), channel=2000)
    assert (await service.lobbies.new_game(OTHER, 3000, CY, TableAsked(players=2))).ok
    await drive(service, other, (BEA, CY), stop_after=2)
    await store.db.execute("UPDATE games SET guild_id = ? WHERE channel_id = 3000", (OTHER,))
    assert await _games(store, GUILD) == 2 and await _games(store, OTHER) == 1

    await service.servers.left(GUILD)
    clock.advance(days=29)
    assert await service.servers.forget_due() == []
    # Invited back within the grace period: nothing goes.
    await service.servers.present(GUILD)
    clock.advance(days=2)
    assert await service.servers.forget_due() == []
    assert await _games(store, GUILD) == 2

    # One of its games was played through people's own user installs (the bot no member):
    # theirs, it stays, and the server's standings are worked out from it alone.
    _, theirs = await finished_game(service, (BEA, CY))
    await store.db.execute("UPDATE games SET private_table = 1 WHERE id = ?", (theirs,))
    await service.servers.left(GUILD)
    clock.advance(days=30, seconds=1)
    assert await service.servers.forget_due() == [GUILD]
    [(kept,)] = await store.db.fetch("SELECT id FROM games WHERE guild_id = ?", (GUILD,))
    assert kept == theirs
    for table in ("results", "standings", "rating_changes"):
        players = await store.db.fetch(
            f"SELECT DISTINCT {'player_id' if table != 'results' else 'user_id'} FROM {table}"
            " WHERE guild_id = ?",
            (GUILD,),
        )
        assert {r[0] for r in players} == {BEA.id, CY.id}, table
    [(seen,)] = await store.db.fetch(
        "SELECT COUNT(*) FROM members_seen WHERE guild_id = ?", (GUILD,)
    )
    assert seen == 0
    assert await _games(store, OTHER) == 1
    assert await store.servers_left() == {}
    assert differences(await store.stored_ratings(), await store.replay_ratings()) == []


async def test_a_server_left_while_the_bot_was_away_is_found_at_the_start(
    service: Services, store: Store, clock: Clock
) -> None:
    await finished_game(service, (AL, BEA))
    assert (await service.lobbies.new_game(OTHER, 3000, CY, TableAsked(players=2))).ok
    await store.db.execute("UPDATE games SET guild_id = ? WHERE channel_id = 3000", (OTHER,))
    # This process runs only OTHER's shard: GUILD is another process's to notice.
    noted = await service.servers.gone_while_away(set(), lambda guild: guild == OTHER)
    assert noted == 1 and set(await store.servers_left()) == {OTHER}
    # Back at the next start: kept.
    assert await service.servers.gone_while_away({OTHER}, lambda guild: True) == 1
    assert set(await store.servers_left()) == {GUILD}


#: What stays of a server once its data went, by table: a ranked search made from one of its
#: channels is its player's (it goes when they delete their data), and the note that the bot
#: left goes only once all the rest is done.
KEPT = {"ranked_entries", "servers_left"}


async def _tables_with_a_server(store: Store) -> list[str]:
    """Every table of the schema with a server's id (``guild_id``), from the database."""
    if store.db.dialect is Dialect.SQLITE:
        found = []
        for table in sorted(await store.db.table_names()):
            columns = await store.db.fetch(f"PRAGMA table_info({table})")
            if any(column["name"] == "guild_id" for column in columns):
                found.append(table)
        return found
    rows = await store.db.fetch(
        "SELECT table_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND column_name = 'guild_id'"
    )
    return sorted(str(r[0]) for r in rows)


async def test_no_table_keeps_a_row_of_a_server_whose_data_went(
    service: Services, store: Store, clock: Clock
) -> None:
    """Every table that names a server (drawn from the schema, not a list), filled in it: once
    its data went, none holds a row of it but what :data:`KEPT` says."""
    await finished_game(service, (AL, BEA))
    await service.auto_reviews.review_owed()
    assert (await service.tournaments.new(GUILD, 4000, User(9, "Mo"), moderator=True)).ok
    assert (await service.tournaments.join(4000, AL)).ok
    # A club night (with the server's time zone) in another channel.
    assert (await service.nights.time_zone(GUILD, AL, moderator=True, zone="Europe/Paris")).ok
    night = await service.nights.schedule(
        GUILD, 4001, User(9, "Mo"), moderator=True, when="tomorrow 20:00", events_refusal=None
    )
    assert night.ok, night.reply.text
    await store.daily_secret(GUILD, "a secret of the day")
    await store.save_daily(
        DailyAnswer(GUILD, "2026-11-27", AL.id, "Al", "5H 5S", 4.5, 5.0, 2, answered_at=6.0)
    )
    await store.db.execute(
        "INSERT INTO members_seen (guild_id, user_id, seen_at) VALUES (?, ?, ?)",
        (GUILD, BEA.id, 1.0),
    )
    await search_ranked(service, CY, 7003, guild_id=GUILD)
    tables = await _tables_with_a_server(store)
    for table in tables:
        [(count,)] = await store.db.fetch(
            f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (GUILD,)
        )
        assert count > 0 or table == "servers_left", f"give {table} a row of the server here"
    await service.servers.left(GUILD)
    clock.advance(days=30, seconds=1)
    assert await service.servers.forget_due() == [GUILD]
    left = {}
    for table in tables:
        [(count,)] = await store.db.fetch(
            f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (GUILD,)
        )
        left[table] = count
    assert {table for table, count in left.items() if count} == KEPT - {"servers_left"}


class _InvitedBackMeanwhile:
    """The store as the process that sends sees it, where another process hears the bot
    invited back to the server just after this one read which servers it left, before it
    deletes their data."""

    def __init__(self, store: Store, other: ServerData) -> None:
        self._store = store
        self._other = other

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def servers_left(self) -> dict[int, float]:
        left = await self._store.servers_left()
        await self._other.present(GUILD)
        return left


def _servers(store: Any, clock: Clock) -> ServerData:
    """A process's part that deletes the data of the servers the bot left."""
    return ServerData(store, grace=GRACE, clock=clock, forget=lambda owner: None)


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_server_the_bot_is_invited_back_to_as_its_data_is_due_keeps_it(
    service: Services, store: Store, clock: Clock, migrated_postgres_url: str
) -> None:
    """The grace period is over and the process that sends has read that the server's data is
    due, when another process hears the bot invited back: nothing goes (before, all of it
    went, and the note of a later removal too)."""
    await finished_game(service, (AL, BEA))
    await service.servers.left(GUILD)
    clock.advance(days=30, seconds=1)
    async with await Store.open(migrated_postgres_url) as other:
        sender = _servers(_InvitedBackMeanwhile(store, _servers(other, clock)), clock)
        assert await sender.forget_due() == []
    assert await _games(store, GUILD) == 1
    assert await store.servers_left() == {}


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_server_the_bot_is_invited_back_to_as_its_data_goes_keeps_the_rest(
    service: Services,
    store: Store,
    clock: Clock,
    migrated_postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another process hears the bot invited back while a batch of the server's games is
    being deleted: that batch goes, the next does not (before, the note went at once, and
    every batch after it too)."""
    monkeypatch.setattr(privacy_tables, "FORGET_BATCH", 1)
    await finished_game(service, (AL, BEA))
    await finished_game(service, (BEA, CY), channel=2000)
    assert await _games(store, GUILD) == 2
    await service.servers.left(GUILD)
    clock.advance(days=30, seconds=1)
    heard: list[asyncio.Task[None]] = []
    still_left = privacy_tables._still_left

    async def after_the_return(*args: Any) -> bool:
        # The next batch reads the note only once the return, waiting on the first batch's
        # lock of it, has gone through: as that batch commits, PostgreSQL lets whichever
        # locks the row first go on, and the next batch may come first (the return then
        # waits for it, one batch more goes; it came as that batch began, which is fine).
        if heard:
            await heard[0]
        return await still_left(*args)

    monkeypatch.setattr(privacy_tables, "_still_left", after_the_return)
    async with await Store.open(migrated_postgres_url) as other:
        async with store.db.transaction() as hold:
            # The first batch stops, uncommitted, where it deletes its game.
            await hold.fetch("SELECT id FROM games WHERE guild_id = ? FOR UPDATE", (GUILD,))
            deleting = asyncio.create_task(service.servers.forget_due())
            await locks_waited_on(store, 1)
            back = asyncio.create_task(_servers(other, clock).present(GUILD))
            heard.append(back)
            await locks_waited_on(store, 2)
        assert await deleting == []
        await back
    assert await _games(store, GUILD) == 1
    assert await store.servers_left() == {}
    assert differences(await store.stored_ratings(), await store.replay_ratings()) == []
