"""The lobby (new, join, leave, start, cancel, its buttons and message) and idle expiry."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.base import refusals
from bot.core.base.keys import LOBBY
from bot.core.base.replies import Click, TableAsked
from bot.core.base.store_errors import ChannelBusy
from bot.core.base.views import LobbyControls
from bot.core.games.housekeeping import EXPIRE_BATCH
from bot.core.games.records import GameRecord, Options, Round
from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, EVE, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    game_owner,
    make_service,
    open_table,
    state,
)
from tests.helpers.views import controls


async def test_new_game_answers_with_the_lobby_in_the_channel(service: Services) -> None:
    outcome = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=3, target=61))
    view = outcome.reply.view
    assert outcome.ok and not outcome.reply.ephemeral and view is not None
    assert outcome.sequel is not None
    assert str(outcome.sequel.key) == "lobby" and outcome.sequel.channel_id == CHANNEL
    assert view.controls_of(LobbyControls) is not None
    assert controls(view, LobbyControls).buttons == ("join", "leave", "start", "cancel")
    assert controls(view, LobbyControls).levels == ("easy", "medium", "hard", "expert")
    assert "3 players, to 61" in view.content and "Seated (1/3): Al" in view.content


async def test_the_lobby_message_follows_the_seats(store: Store, service: Services) -> None:
    table = Transcript(service)
    opened = await table.record(AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL))
    assert opened.game_id is not None
    sent = await store.messages(game_owner(opened.game_id))
    assert set(sent) == {LOBBY}, "the answer to /cribbage new is the game's lobby message"
    await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
    lobby = table.messages[(opened.game_id, "lobby")]
    assert "Seated (2/2): Al, Bea" in lobby.view.content and "Start" in lobby.view.content
    await table.record(BEA.id, await service.lobbies.start(CHANNEL, BEA))
    assert (
        lobby.view.controls_of(LobbyControls) is not None
        and controls(lobby.view, LobbyControls).buttons == ()
    )
    assert "started" in lobby.view.content


async def test_lobby_buttons_answer_by_updating_the_lobby(service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    game_id = opened.game_id
    assert game_id is not None
    joined = await service.lobbies.click(game_id, "join", BEA, guild_id=GUILD)
    assert joined.ok and joined.sequel is not None and str(joined.sequel.key) == "lobby"
    assert joined.update is not None
    assert "Seated (2/2): Al, Bea" in joined.update.content
    assert (await service.lobbies.click(game_id, "leave", BEA, guild_id=GUILD)).ok
    assert (await service.lobbies.click(game_id, "join", CY, guild_id=GUILD)).ok
    started = await service.lobbies.click(game_id, "start", CY, guild_id=GUILD)
    assert started.ok
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    hands = {o.user_id for o in owing.owed if str(o.key).startswith("hand:1:")}
    assert hands == {AL.id, CY.id}


async def test_a_full_lobby_grows_a_seat_when_its_opener_adds_one(
    store: Store, service: Services
) -> None:
    # Cy pressing Join on a full two-seat lobby is told how it can grow (issue 47: "This
    # game is full." and nothing more); the opener's Add a seat makes it a 3-player game,
    # then a 4-player game of partners, and no more: standard cribbage seats four.
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    game_id = opened.game_id
    assert game_id is not None
    joined = await service.lobbies.click(game_id, "join", BEA, guild_id=GUILD)
    assert joined.update is not None
    assert "add_seat" in controls(joined.update, LobbyControls).buttons
    refused = await service.lobbies.click(game_id, "join", CY, guild_id=GUILD)
    assert not refused.ok
    assert refused.reply.text == (
        "This game is full (2 of 2 seats). Al, who opened it, can press **Add a seat** on the "
        "lobby to make it a 3-player game; then press **Join**."
    )
    assert not (await service.lobbies.click(game_id, "add_seat", BEA, guild_id=GUILD)).ok
    grown = await service.lobbies.click(game_id, "add_seat", AL, guild_id=GUILD)
    assert grown.ok and grown.update is not None, grown.reply.text
    assert "3 players" in grown.update.content and "Seated (2/3): Al, Bea" in grown.update.content
    assert "add_seat" not in controls(grown.update, LobbyControls).buttons
    assert not (await service.lobbies.click(game_id, "add_seat", AL, guild_id=GUILD)).ok
    assert (await service.lobbies.join(CHANNEL, CY)).ok
    assert (await service.lobbies.click(game_id, "add_seat", AL, guild_id=GUILD)).ok
    assert (await service.lobbies.join(CHANNEL, DEE)).ok
    record = await store.open_game_in_channel(CHANNEL)
    assert record is not None and record.options.num_players == 4 and record.options.rules.partners
    full = await service.lobbies.join(CHANNEL, EVE)
    assert full.reply.text == (
        "This game is full: all 4 seats are taken, and standard cribbage seats no more."
    )
    assert (await service.lobbies.start(CHANNEL, AL)).ok
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    hands = {o.user_id for o in owing.owed if str(o.key).startswith("hand:1:")}
    assert hands == {AL.id, BEA.id, CY.id, DEE.id}


async def test_leaving_frees_the_seat_and_renumbers(store: Store, service: Services) -> None:
    await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=3))
    await service.lobbies.join(CHANNEL, BEA)
    await service.lobbies.join(CHANNEL, CY)
    left = await service.lobbies.leave(CHANNEL, BEA)
    assert left.ok and left.update is not None and "Seated (2/3): Al, Cy" in left.update.content
    record = await store.open_game_in_channel(CHANNEL)
    assert record is not None
    assert [(s.seat, s.name) for s in record.seats] == [(0, "Al"), (1, "Cy")]


async def test_leaving_a_game_dealt_tells_its_player_to_resign_and_anyone_else_they_sit_out(
    service: Services,
) -> None:
    await open_table(service, [AL, BEA])
    played = await service.lobbies.leave(CHANNEL, BEA)
    assert not played.ok and played.reply.text == refusals.LEAVE_STARTED
    # Not "use /cribbage resign to concede" to someone not playing: the game isn't theirs.
    watching = await service.lobbies.leave(CHANNEL, CY)
    assert not watching.ok and watching.reply.text == refusals.NOT_SEATED


async def test_creator_leaving_closes_the_lobby(store: Store, service: Services) -> None:
    table = Transcript(service)
    opened = await table.record(AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL))
    await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
    outcome = await table.record(AL.id, await service.lobbies.leave(CHANNEL, AL))
    assert (
        outcome.ok
        and outcome.update is not None
        and outcome.update.controls_of(LobbyControls) is not None
    )
    assert controls(outcome.update, LobbyControls).buttons == ()
    assert await store.open_game_in_channel(CHANNEL) is None
    assert table.channel(opened.game_id)[-1] == "Al left and closed the lobby."


async def test_cancel_by_moderator_records_nothing(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    outcome = await table.record(CY.id, await service.lobbies.cancel(CHANNEL, CY, moderator=True))
    game_id = table.outcomes[0].game_id or 0
    assert outcome.ok
    assert table.channel(game_id)[-1] == "A moderator cancelled the game. No result is recorded."
    record = await store.get_game(game_id)
    assert record is not None and record.status == "cancelled"
    assert await store.results(game_id) == []
    assert await store.ranking(GUILD) == (0, [])
    assert (await service.lobbies.new_game(GUILD, CHANNEL, BEA)).ok  # the channel is free


async def test_start_deals_and_sends_every_player_a_hand(service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    lobby, deal = table.channel(game_id)
    assert "The game has started." in lobby
    assert deal.startswith("Cut for deal —") and "**Deal 1**" in deal
    assert set(table.latest) == {AL.id, BEA.id}
    for user in (AL, BEA):
        hand = table.hand(game_id, user.id)
        assert hand is not None and hand.hand is not None
        assert hand.hand.kind == "discard" and hand.hand.pick == 2
        assert len(hand.hand.cards) == 6 and f"<#{CHANNEL}>" in hand.content


async def test_one_game_per_channel_but_threads_are_separate(service: Services) -> None:
    assert (await service.lobbies.new_game(GUILD, CHANNEL, AL)).ok
    assert not (await service.lobbies.new_game(GUILD, CHANNEL, BEA)).ok
    assert (await service.lobbies.new_game(GUILD, CHANNEL + 1, BEA)).ok


async def test_idle_games_expire_without_stats(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, days=7)
    table = await open_table(service, [AL, BEA])
    prompt = table.latest[AL.id]
    await table.record(CY.id, await service.lobbies.new_game(GUILD, CHANNEL + 1, CY))  # idle lobby
    clock.advance(days=6)
    await service.lobbies.new_game(GUILD, CHANNEL + 2, BEA)  # opened later: not idle yet
    assert await service.housekeeping.expire_idle() == []
    clock.advance(days=1, seconds=1)
    expired = await service.housekeeping.expire_idle()
    records = [await store.get_game(game_id) for game_id in expired]
    assert sorted(r.channel_id for r in records if r is not None) == [CHANNEL, CHANNEL + 1]
    # Each game's end went out on the change feed: the table's messages follow it.
    assert set(expired) <= table.changed
    for game_id in expired:
        await table.settle(game_id)
        ended = table.channel(game_id)[-1]
        assert "7 days" in ended and "No result" in ended
    lobby_game = next(r.id for r in records if r is not None and r.channel_id == CHANNEL + 1)
    lobby = table.messages[(lobby_game, "lobby")].view
    assert (
        lobby.controls_of(LobbyControls) is not None
        and controls(lobby, LobbyControls).buttons == ()
        and "too long" in lobby.content
    )
    game_id = table.outcomes[0].game_id or 0
    record = await store.get_game(game_id)
    assert record is not None and record.status == "expired"
    assert await store.results(game_id) == []
    assert AL.id not in table.latest, "an ended game's hands keep no live controls"
    refused = await service.moves.click(
        Click(prompt.game_id, "discard", prompt.stamp, tuple(["5H", "6H"])), AL, guild_id=None
    )
    assert not refused.ok and "idle" in refused.reply.text
    assert await service.housekeeping.expire_idle() == []  # nothing twice
    assert (await store.open_game_in_channel(CHANNEL + 2)) is not None


async def test_a_move_keeps_a_game_alive(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, days=1)
    table = await open_table(service, [AL, BEA])
    clock.advance(hours=20)
    prompt = table.latest[AL.id]
    codes = [c.code for c in prompt.cards[:2]]
    assert (
        await service.moves.click(
            Click(prompt.game_id, "discard", prompt.stamp, tuple(codes)), AL, guild_id=None
        )
    ).ok
    clock.advance(hours=20)
    assert await service.housekeeping.expire_idle() == []
    clock.advance(hours=5)
    assert len(await service.housekeeping.expire_idle()) == 1


async def test_once_dealt_only_a_moderator_can_cancel(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    before = await state(store, game_id)
    for user in (AL, BEA):  # the creator too: a player losing must not dodge the loss
        refused = await service.lobbies.cancel(CHANNEL, user)
        assert not refused.ok and "moderator" in refused.reply.text
        assert "/cribbage resign" in refused.reply.text
        assert await state(store, game_id) == before
    # Someone not playing is not sent to /cribbage resign, which would tell them just that.
    refused = await service.lobbies.cancel(CHANNEL, CY)
    assert not refused.ok and "moderator" in refused.reply.text
    assert "resign" not in refused.reply.text and "not playing" in refused.reply.text
    assert await state(store, game_id) == before
    # The lobby's Cancel button (closed once dealt, but an old click may still come).
    clicked = await service.lobbies.click(game_id, "cancel", AL, guild_id=GUILD)
    assert not clicked.ok and "moderator" in clicked.reply.text
    assert await state(store, game_id) == before
    cancelled = await service.lobbies.cancel(CHANNEL, CY, moderator=True)
    assert cancelled.ok
    record = await store.get_game(game_id)
    assert record is not None and record.status == "cancelled"
    assert await store.results(game_id) == []


async def test_against_the_computer_the_creator_resigns_instead_of_cancelling(
    store: Store, service: Services
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
    game_id = opened.game_id or 0
    before = await state(store, game_id)
    refused = await service.lobbies.cancel(CHANNEL, AL)
    assert not refused.ok and "/cribbage resign" in refused.reply.text
    assert await state(store, game_id) == before
    assert (await service.moves.resign(CHANNEL, AL)).ok
    results = await store.results(game_id)
    assert [r.won for r in results] == [False, True], "the loss is recorded"


async def test_in_the_lobby_its_creator_may_still_cancel(store: Store, service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    assert not (await service.lobbies.cancel(CHANNEL, BEA)).ok
    assert (await service.lobbies.cancel(CHANNEL, AL)).ok
    record = await store.get_game(opened.game_id or 0)
    assert record is not None and record.status == "cancelled"


class _CountingStore(Store):
    """The store, noting how many idle games each read hands back."""

    batches: list[int]

    async def idle_games(
        self, before: float, *, after: int = 0, limit: int | None = None
    ) -> list[GameRecord]:
        found = await super().idle_games(before, after=after, limit=limit)
        self.batches.append(len(found))
        return found


async def test_idle_games_are_ended_a_batch_at_a_time(tmp_path: Path, clock: Clock) -> None:
    store = await _CountingStore.open(tmp_path / "batches.db")
    store.batches = []
    try:
        service = make_service(store, clock, days=1)
        lobbies = 2 * EXPIRE_BATCH + 3
        for channel in range(lobbies):
            assert (await service.lobbies.new_game(GUILD, CHANNEL + channel, AL)).ok
        clock.advance(days=2)
        seen: list[int] = []
        service.feed.subscribe(lambda change: seen.append(change.owner.id))
        expired = await service.housekeeping.expire_idle()
        assert len(expired) == lobbies and seen == expired
        # Never every idle game at once: a pass over thousands must not hold the loop.
        assert store.batches == [EXPIRE_BATCH, EXPIRE_BATCH, 3, 0]
        for channel in range(lobbies):
            assert await store.open_game_in_channel(CHANNEL + channel) is None
    finally:
        await store.close()


async def test_a_seated_game_is_found_again_by_its_seats_and_table_not_its_occasions_words(
    service: Services,
) -> None:
    """A pairing's game asked for again (after a restart) is the one already open, even where
    a newer release words its round otherwise; a game with other seats, another table, or a
    game of no occasion (someone's own) in its thread is not it."""
    opened = await service.lobbies.open_seated(
        GUILD, CHANNEL, (AL, BEA), Options(2, 121), occasion=Round("Round 1 of the cup")
    )
    again = await service.lobbies.open_seated(
        GUILD, CHANNEL, (AL, BEA), Options(2, 121), occasion=Round("Round 1, the cup")
    )
    assert again.id == opened.id
    for players, target, occasion in (
        ((BEA, AL), 121, Round("Round 1 of the cup")),
        ((AL, CY), 121, Round("Round 1 of the cup")),
        ((AL, BEA), 61, Round("Round 1 of the cup")),
        ((AL, BEA), 121, None),
    ):
        with pytest.raises(ChannelBusy):
            await service.lobbies.open_seated(
                GUILD, CHANNEL, players, Options(2, target), occasion=occasion
            )
    their_own = await service.lobbies.open_seated(GUILD, CHANNEL + 1, (AL, BEA), Options(2, 121))
    with pytest.raises(ChannelBusy):
        await service.lobbies.open_seated(
            GUILD, CHANNEL + 1, (AL, BEA), Options(2, 121), occasion=Round("Round 1")
        )
    assert (
        await service.lobbies.open_seated(GUILD, CHANNEL + 1, (AL, BEA), Options(2, 121))
    ).id == their_own.id
