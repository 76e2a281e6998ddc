"""The acts the core offers the outer layers (issue 69): a person's command, in a place, run on
the game it acts on for them there, or refused as the command's scope says; the outer layer
only translates (``bot/discord`` composes no resolver of its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.base.places import NO_GAME_IN_MY_DMS, Place, Spot
from bot.core.base.replies import TableAsked, User
from bot.core.games.records import GameStatus
from bot.core.services import Services
from tests.helpers.service_driver import CHANNEL, GUILD

AL, BEA = User(1001, "Al"), User(1002, "Bea")
GENERAL = Place(Spot.CHANNEL, CHANNEL, GUILD)
ALS_DM = Place(Spot.BOT_DM, 20)


@pytest.fixture(autouse=True)
async def _done(service: Services) -> AsyncIterator[None]:
    yield
    service.ranked_play.stop()
    await service.ledger.writes.flush()


async def test_the_lobby_commands_act_on_the_places_game(service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=2, target=121))
    assert opened.ok and opened.game_id is not None
    joined = await service.acts.join(GENERAL, BEA)
    assert joined.ok, joined.reply.text
    assert not (await service.acts.join(GENERAL, BEA)).ok, "a second seat is refused"
    started = await service.acts.start(GENERAL, AL)
    assert started.ok, started.reply.text
    record = await service.games.record(opened.game_id)
    assert record is not None and record.status is GameStatus.ACTIVE
    status = await service.acts.status(GENERAL, BEA, public=False)
    assert status.ok and status.reply.ephemeral


async def test_a_game_command_where_no_game_is_refused_as_its_scope_says(
    service: Services,
) -> None:
    refused = await service.acts.discard(ALS_DM, AL, "5H 5D")
    assert not refused.ok and refused.reply.text == NO_GAME_IN_MY_DMS
    assert await service.acts.offer_discard(ALS_DM, AL.id, "5") == []
    assert not (
        await service.acts.leaderboard_page(
            ALS_DM, AL.id, table="people", page=0, variant="standard"
        )
    ).ok
