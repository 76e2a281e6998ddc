"""Failures that trying again will not mend say what is wrong and what helps, and are noted in
the log once per cause and game: a game whose saved state is damaged or of an unknown format
(a moderator can still end it), a store whose storage is full, a database out of reach."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.core.base import refusals
from bot.core.base.faults import Cause
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.base.store_errors import StoreUnavailable
from bot.core.base.views import HandControls, MessageRecord
from bot.core.games.records import GameStatus
from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, EVE, GUILD
from tests.helpers.postgres import PostgresServer
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    first_choice,
    make_service,
    open_table,
    state,
)
from tests.helpers.store_faults import fill_up

Call = Callable[[Services], Awaitable[Answer]]

#: What a stored snapshot is replaced with, the cause it is, and the player's sentence.
UNREADABLE = {
    "damaged": ('{"format": 3, "game": {"players": ["Al", "Be', Cause.DAMAGED),
    "not a game": ('{"format": 3, "game": {}, "tally": []}', Cause.DAMAGED),
    "unknown format": ('{"format": 99, "game": {}}', Cause.UNKNOWN_FORMAT),
}


def fault_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the faults put in the log (and any traceback logged anywhere)."""
    return [r for r in caplog.records if r.name == "bot.core.base.faults" or r.exc_info]


def click(controls: HandControls, user: User) -> Call:
    """The plainest click on ``controls``, by ``user``, in the game's server."""
    return lambda s: s.moves.click(first_choice(controls), user, None, guild_id=GUILD)


def calls_of(table: Transcript, user_id: int) -> list[Call]:
    """Every way a seated player asks something of the game: a click on their hand, the
    commands, the hand and the table."""
    controls = table.latest.get(user_id) or next(iter(table.latest.values()))
    user = AL if user_id == AL.id else BEA
    return [
        click(controls, user),
        lambda s: s.moves.discard(CHANNEL, user, "5H JD"),
        lambda s: s.moves.play(CHANNEL, user, "5H"),
        lambda s: s.moves.resign(CHANNEL, user),
        lambda s: s.table.hand(CHANNEL, user),
        lambda s: s.table.status(CHANNEL),
    ]


async def assert_said(service: Services, call: Call, sentence: str) -> None:
    answer = await call(service)
    assert not answer.ok and answer.reply.ephemeral
    assert answer.reply.text == sentence
    assert answer.sequel is None and answer.update is None


async def set_snapshot(store: Store, game_id: int, text: str) -> None:
    await store.db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (text, game_id))


async def _al_and_bea(store: Store, clock: Clock) -> tuple[Transcript, int]:
    """Al and Bea at a table in the channel, and the id of their game there."""
    table = await open_table(make_service(store, clock), [AL, BEA])
    found = await store.open_game_in_channel(CHANNEL)
    assert found is not None
    return table, found.id


@pytest.mark.parametrize("damage", list(UNREADABLE))
async def test_a_game_that_cannot_be_read_says_so_and_a_moderator_ends_it(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    caplog.set_level(logging.INFO)
    table, game_id = await _al_and_bea(store, clock)
    text, cause = UNREADABLE[damage]
    await set_snapshot(store, game_id, text)
    # A restart: the game is read from the store again.
    service = table.service = make_service(store, clock)
    before = await state(store, game_id)

    for _ in range(2):
        for user_id in (AL.id, BEA.id):
            for call in calls_of(table, user_id):
                await assert_said(service, call, cause.sentence)
    assert await service.table.autocomplete_discard(CHANNEL, AL.id, "") == []
    assert await service.table.autocomplete_play(CHANNEL, AL.id, "") == []
    # The keeper finds nothing to send for it (and nothing to fail on every pass).
    assert await service.ledger.owed(Owner.game(game_id)) is None
    assert await state(store, game_id) == before

    [line] = fault_lines(caplog)
    assert line.levelno == logging.ERROR and line.exc_info is None
    assert f"game {game_id}: {cause.value}" in line.getMessage()
    assert "/cribbage cancel" in line.getMessage()

    # A player may not cancel a dealt game; a moderator may, without reading it.
    await assert_said(service, lambda s: s.lobbies.cancel(CHANNEL, AL), refusals.CANCEL_DEALT)
    by_moderator = await service.lobbies.cancel(CHANNEL, EVE, moderator=True)
    cancelled = await table.record(EVE.id, by_moderator)
    assert cancelled.ok, cancelled.reply.text
    ended = await store.get_game(game_id)
    assert ended is not None and ended.status is GameStatus.CANCELLED
    assert any("A moderator cancelled the game" in said for said in table.channel(game_id))
    # Every hand it sent is closed: no live controls stay in a DM.
    assert table.hands() == []
    for user in (AL, BEA):
        hand = table.hand(game_id, user.id)
        assert hand is not None
        assert "A moderator cancelled the game. No result is recorded." in hand.content
    # The channel is free for a new game.
    assert (await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=2))).ok
    assert len(fault_lines(caplog)) == 1


async def test_the_clock_and_housekeeping_skip_a_game_that_cannot_be_read(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    service = make_service(store, clock, computer=True)
    assert (
        await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=2, vs_computer=True))
    ).ok
    found = await store.open_game_in_channel(CHANNEL)
    assert found is not None and found.status is GameStatus.ACTIVE
    await set_snapshot(store, found.id, UNREADABLE["damaged"][0])
    service = make_service(store, clock, computer=True)

    service.clock.start([found.id])
    await service.clock.idle()
    service.clock.look(found.id)
    await service.clock.idle()
    service.clock.stop()
    # Idle games end (no snapshot is needed for that), and their messages say so.
    clock.advance(days=8)
    assert await service.housekeeping.expire_idle() == [found.id]
    owing = await service.ledger.owed(Owner.game(found.id))
    assert owing is not None and any(str(o.key) == "ended" for o in owing.owed)
    [line] = fault_lines(caplog)
    assert f"game {found.id}: {Cause.DAMAGED.value}" in line.getMessage()


# -- the store fails ----------------------------------------------------------------------------
async def test_a_full_store_says_the_move_was_not_recorded(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table, game_id = await _al_and_bea(store, clock)
    service = table.service
    before = await state(store, game_id)
    await fill_up(store)

    for _ in range(3):
        for user_id in (AL.id, BEA.id):
            controls = table.latest[user_id]
            user = AL if user_id == AL.id else BEA
            await assert_said(service, click(controls, user), refusals.STORAGE_FULL)
        await assert_said(service, lambda s: s.moves.resign(CHANNEL, AL), refusals.STORAGE_FULL)
    assert await state(store, game_id) == before
    [line] = fault_lines(caplog)
    assert line.levelno == logging.ERROR and line.exc_info is None
    assert f"game {game_id}: {Cause.FULL.value}" in line.getMessage()
    # What the table shows is still the game as it was: the hand's controls work once there
    # is room again.
    assert (await service.table.hand(CHANNEL, AL)).ok


async def test_a_database_out_of_reach_says_so_and_recovers(
    own_server: PostgresServer, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with await Store.open(own_server.url()) as store:
        table, _ = await _al_and_bea(store, clock)
        service = table.service
        own_server.halt()
        for _ in range(2):
            for user_id, user in ((AL.id, AL), (BEA.id, BEA)):
                controls = table.latest[user_id]
                await assert_said(service, click(controls, user), refusals.DATABASE_UNREACHABLE)
            await assert_said(
                service, lambda s: s.moves.resign(CHANNEL, AL), refusals.DATABASE_UNREACHABLE
            )
            await assert_said(
                service, lambda s: s.table.status(CHANNEL), refusals.DATABASE_UNREACHABLE
            )
        lines = fault_lines(caplog)
        assert [r.exc_info for r in lines] == [None] * len(lines)
        said = sorted(r.getMessage().split(":", 1)[0] for r in lines)
        # Once for the game (the clicks), once for what no game was known for (the commands
        # look the channel's game up first).
        assert said == ["game 1", "the bot"], said
        assert all(Cause.UNREACHABLE.value in r.getMessage() for r in lines)

        # Back: the move is made, and a later outage is said again.
        own_server.resume()
        controls = table.latest[AL.id]
        moved = await table.record(
            AL.id, await service.moves.click(first_choice(controls), AL, None, guild_id=GUILD)
        )
        assert moved.ok, moved.reply.text
        own_server.halt()
        await assert_said(
            service, lambda s: s.moves.resign(CHANNEL, BEA), refusals.DATABASE_UNREACHABLE
        )
        assert len(fault_lines(caplog)) == 3
        own_server.resume()


async def test_what_was_sent_is_written_down_once_the_store_has_room(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    service = make_service(store, clock)
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    owner = Owner.game(opened.game_id or 0)
    write = store.set_messages
    failing = [3]

    async def full(*args: Any, **kwargs: Any) -> None:
        if failing[0]:
            failing[0] -= 1
            raise StoreUnavailable(Cause.FULL, "SQLite: database or disk is full")
        await write(*args, **kwargs)

    monkeypatch.setattr(store, "set_messages", full)
    await service.ledger.shown.sent(
        owner, [MessageRecord(MessageKey.parse("lobby"), CHANNEL, 77, "drawn")]
    )
    for _ in range(10):
        if await service.ledger.writes.flush() and not failing[0]:
            break
    assert (await store.messages(owner))[MessageKey.parse("lobby")].message_id == 77
    [line] = fault_lines(caplog)
    assert line.exc_info is None and Cause.FULL.value in line.getMessage()
