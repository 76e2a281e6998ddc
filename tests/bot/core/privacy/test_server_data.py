"""A server's data once the bot has left it (issue 50, item 4), through the core on both
databases: noted when the bot is removed, deleted only once the grace period has passed, kept
when the bot is back in time; what other servers keep is untouched, and a replay of every
result left still gives the stored ratings. A server left while the bot was away is found at
the next start."""

from __future__ import annotations

from bot.core.services import Services
from bot.store import Store
from bot.tools.ratings import differences
from tests.helpers.cast import AL, BEA, CY, GUILD
from tests.helpers.service_driver import Clock, drive, finished_game, open_table

OTHER = 600


async def _games(store: Store, guild: int) -> int:
    [(count,)] = await store.db.fetch("SELECT COUNT(*) FROM games WHERE guild_id = ?", (guild,))
    return int(count)


async def test_a_server_s_data_goes_after_the_grace_period(
    service: Services, store: Store, clock: Clock
) -> None:
    await finished_game(service, (AL, BEA))
    other = await open_table(service, (BEA, CY), channel=2000)
    assert (await service.lobbies.new_game(OTHER, 3000, CY, players=2)).ok
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
    assert (await service.lobbies.new_game(OTHER, 3000, CY, players=2)).ok
    await store.db.execute("UPDATE games SET guild_id = ? WHERE channel_id = 3000", (OTHER,))
    # This process runs only OTHER's shard: GUILD is another process's to notice.
    noted = await service.servers.gone_while_away(set(), lambda guild: guild == OTHER)
    assert noted == 1 and set(await store.servers_left()) == {OTHER}
    # Back at the next start: kept.
    assert await service.servers.gone_while_away({OTHER}, lambda guild: True) == 1
    assert set(await store.servers_left()) == {GUILD}
