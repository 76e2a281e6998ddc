"""The lobby (new, join, leave, start, cancel, its buttons and message) and idle expiry."""

from __future__ import annotations

from bot.core.service import GameService
from bot.store import Store
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    GUILD,
    Clock,
    make_service,
    open_table,
)


async def test_new_game_posts_a_lobby_with_buttons(service: GameService) -> None:
    outcome = await service.new_game(GUILD, CHANNEL, AL, players=3, target=61)
    assert outcome.ok and outcome.reply.ephemeral
    lobby = outcome.lobby
    assert lobby is not None and lobby.message_id is None and lobby.channel_id == CHANNEL
    assert lobby.buttons == ("join", "leave", "start", "cancel")
    assert lobby.levels == ("easy", "medium", "hard")
    assert "3 players, to 61" in lobby.text and "Seated (1/3): Al" in lobby.text


async def test_lobby_message_id_is_remembered(service: GameService) -> None:
    opened = await service.new_game(GUILD, CHANNEL, AL)
    assert opened.game_id is not None
    await service.lobby_posted(opened.game_id, 777)
    joined = await service.join(CHANNEL, BEA)
    assert joined.lobby is not None and joined.lobby.message_id == 777
    assert "Seated (2/2): Al, Bea" in joined.lobby.text and "Start" in joined.lobby.text
    started = await service.start(CHANNEL, BEA)
    assert started.lobby is not None and started.lobby.buttons == ()
    assert started.lobby.message_id == 777 and "started" in started.lobby.text


async def test_buttons_by_game_id(service: GameService) -> None:
    opened = await service.new_game(GUILD, CHANNEL, AL)
    game_id = opened.game_id
    assert game_id is not None
    assert (await service.click_lobby(game_id, "join", BEA)).ok
    assert (await service.click_lobby(game_id, "leave", BEA)).ok
    assert (await service.click_lobby(game_id, "join", CY)).ok
    started = await service.click_lobby(game_id, "start", CY)
    assert started.ok and [p.user_id for p in started.prompts] == [AL.id, CY.id]


async def test_leaving_frees_the_seat_and_renumbers(store: Store, service: GameService) -> None:
    await service.new_game(GUILD, CHANNEL, AL, players=3)
    await service.join(CHANNEL, BEA)
    await service.join(CHANNEL, CY)
    left = await service.leave(CHANNEL, BEA)
    assert left.ok and left.lobby is not None and "Seated (2/3): Al, Cy" in left.lobby.text
    record = await store.open_game_in_channel(CHANNEL)
    assert record is not None
    assert [(s.seat, s.name) for s in record.seats] == [(0, "Al"), (1, "Cy")]


async def test_creator_leaving_closes_the_lobby(store: Store, service: GameService) -> None:
    await service.new_game(GUILD, CHANNEL, AL)
    await service.join(CHANNEL, BEA)
    outcome = await service.leave(CHANNEL, AL)
    assert outcome.ok and outcome.lobby is not None and outcome.lobby.buttons == ()
    assert await store.open_game_in_channel(CHANNEL) is None


async def test_cancel_by_moderator_records_nothing(store: Store, service: GameService) -> None:
    table = await open_table(service, [AL, BEA])
    outcome = await service.cancel(CHANNEL, CY, moderator=True)
    assert outcome.ok and "cancelled" in outcome.channel[0]
    game_id = table.outcomes[0].game_id or 0
    record = await store.get_game(game_id)
    assert record is not None and record.status == "cancelled"
    assert await store.results(game_id) == []
    assert await store.leaderboard(GUILD) == []
    assert (await service.new_game(GUILD, CHANNEL, BEA)).ok  # the channel is free


async def test_start_deals_and_prompts_every_player(service: GameService) -> None:
    table = await open_table(service, [AL, BEA])
    started = table.outcomes[-1]
    assert started.channel[0].startswith("Cut for deal:")
    assert started.channel[1].startswith("**Deal 1**")
    assert {p.user_id for p in started.prompts} == {AL.id, BEA.id}
    assert all(p.kind == "discard" and p.pick == 2 and len(p.cards) == 6 for p in started.prompts)
    assert all(f"<#{CHANNEL}>" in p.text for p in started.prompts)


async def test_one_game_per_channel_but_threads_are_separate(service: GameService) -> None:
    assert (await service.new_game(GUILD, CHANNEL, AL)).ok
    assert not (await service.new_game(GUILD, CHANNEL, BEA)).ok
    assert (await service.new_game(GUILD, CHANNEL + 1, BEA)).ok


async def test_idle_games_expire_without_stats(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, days=7)
    table = await open_table(service, [AL, BEA])
    await service.new_game(GUILD, CHANNEL + 1, CY)  # a lobby, idle too
    clock.advance(days=6)
    await service.new_game(GUILD, CHANNEL + 2, BEA)  # opened later: not idle yet
    assert await service.expire_idle() == []
    clock.advance(days=1, seconds=1)
    expired = await service.expire_idle()
    assert sorted(o.channel_id or 0 for o in expired) == [CHANNEL, CHANNEL + 1]
    for outcome in expired:
        assert outcome.ok and "7 days" in outcome.channel[0] and "No result" in outcome.channel[0]
    lobby = next(o.lobby for o in expired if o.channel_id == CHANNEL + 1)
    assert lobby is not None and lobby.buttons == () and "too long" in lobby.text
    game_id = table.outcomes[0].game_id or 0
    record = await store.get_game(game_id)
    assert record is not None and record.status == "expired"
    assert await store.results(game_id) == []
    prompt = table.latest[AL.id]
    refused = await service.click_discard(prompt.game_id, prompt.stamp, AL, ["5H", "6H"])
    assert not refused.ok and "idle" in refused.reply.text
    assert await service.expire_idle() == []  # nothing twice
    assert (await store.open_game_in_channel(CHANNEL + 2)) is not None


async def test_a_move_keeps_a_game_alive(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, days=1)
    table = await open_table(service, [AL, BEA])
    clock.advance(hours=20)
    prompt = table.latest[AL.id]
    codes = [c.code for c in prompt.cards[:2]]
    assert (await service.click_discard(prompt.game_id, prompt.stamp, AL, codes)).ok
    clock.advance(hours=20)
    assert await service.expire_idle() == []
    clock.advance(hours=5)
    assert len(await service.expire_idle()) == 1
