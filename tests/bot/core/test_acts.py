"""The acts the core offers the outer layers (issue 69): a person's command, in a place, run on
the game it acts on for them there, or refused as the command's scope says; the outer layer
only translates (``bot/discord`` composes no resolver of its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.base.places import (
    GAMES_NOT_IN_MY_DMS,
    NO_GAME_IN_MY_DMS,
    NO_LEADERBOARD_HERE,
    TOURNAMENTS_NEED_A_CHANNEL,
    Place,
    Spot,
)
from bot.core.base.refusals import nothing_to_look_up
from bot.core.base.replies import TableAsked, User
from bot.core.games.records import GameStatus
from bot.core.services import Services
from bot.core.tournaments.tournaments import MODERATORS_ONLY
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


async def test_a_tournament_is_opened_entered_and_read_where_its_commands_find_it(
    service: Services,
) -> None:
    tours = service.tournament_acts
    refused = await tours.new(GENERAL, AL, moderator=False, lacking=None)
    assert not refused.ok and refused.reply.text == MODERATORS_ONLY
    opened = await tours.new(GENERAL, AL, moderator=True, lacking=None, rounds=2)
    assert opened.ok, opened.reply.text
    assert (await tours.join(GENERAL, BEA)).ok
    standings = await tours.standings(GENERAL, BEA)
    assert standings.ok and "Bea" in standings.reply.text
    assert (await tours.leave(GENERAL, BEA)).ok
    elsewhere = await tours.join(ALS_DM, BEA)
    assert not elsewhere.ok and elsewhere.reply.text == TOURNAMENTS_NEED_A_CHANNEL


async def test_what_the_bot_lacks_for_threads_is_said_only_where_a_tournament_could_be(
    service: Services,
) -> None:
    tours, club = service.tournament_acts, service.club_acts
    lacking = "I need threads."
    in_a_dm = await tours.new(ALS_DM, AL, moderator=True, lacking=lacking)
    assert in_a_dm.reply.text == TOURNAMENTS_NEED_A_CHANNEL
    here = await tours.new(GENERAL, AL, moderator=True, lacking=lacking)
    assert not here.ok and here.reply.text == lacking
    night = await club.night(
        GENERAL, AL, moderator=True, lacking=lacking, when="Friday 20:00", events_refusal=None
    )
    assert not night.ok and night.reply.text == lacking


async def test_the_club_commands_keep_their_moderators_checks(service: Services) -> None:
    club = service.club_acts
    refused = await club.timezone(GENERAL, BEA, moderator=False, zone="Europe/London")
    assert not refused.ok and refused.reply.text == MODERATORS_ONLY
    assert (await club.timezone(GENERAL, AL, moderator=True, zone="Europe/London")).ok
    said = await club.timezone(GENERAL, BEA, moderator=False, zone=None)
    assert said.ok and "Europe/London" in said.reply.text
    assert not (await club.checkin(ALS_DM, BEA)).ok


async def test_a_game_named_by_its_number_is_looked_at_wherever_the_command_is_used(
    service: Services,
) -> None:
    features = service.feature_acts
    by_place = await features.review(ALS_DM, AL, None, None)
    in_my_dms = nothing_to_look_up(ALS_DM.named)
    assert not by_place.ok and by_place.reply.text == in_my_dms
    named = await features.verify(ALS_DM, AL, 4242)
    assert not named.ok and named.reply.text != in_my_dms, "no place decides it"
    board = await features.leaderboard(ALS_DM, AL, table="people", month=None, variant="standard")
    assert not board.ok and board.reply.text == NO_LEADERBOARD_HERE
    assert (await features.stats(GENERAL, AL, BEA, None)).ok


async def test_a_game_is_opened_where_new_may_open_one(
    service: Services,
) -> None:
    acts = service.acts
    refused = await acts.new(ALS_DM, AL, TableAsked(players=2), token=None)
    assert not refused.ok and refused.reply.text == GAMES_NOT_IN_MY_DMS
    opened = await acts.new(GENERAL, AL, TableAsked(players=2, target=61), token=None)
    assert opened.ok, opened.reply.text
    assert not (await acts.new(GENERAL, BEA, TableAsked(), token=None)).ok, "one game in a place"
    group_dm = Place(Spot.PRIVATE, 30)
    at_a_private_table = await acts.new(group_dm, BEA, TableAsked(players=2), token="its token")
    assert at_a_private_table.ok and at_a_private_table.game_id is not None
    record = await service.games.record(at_a_private_table.game_id)
    assert record is not None and record.channel_id == 30


async def test_a_rematch_on_a_hand_is_refused_where_the_bot_can_no_longer_post(
    service: Services,
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
    assert opened.game_id is not None
    assert (await service.moves.resign(CHANNEL, AL)).ok
    cannot = "I can't post there any more."

    def lacking(channel_id: int, guild_id: int | None) -> str | None:
        return cannot if (channel_id, guild_id) == (CHANNEL, GUILD) else None

    refused = await service.acts.rematch_on_hand(AL, opened.game_id, lacking)
    assert not refused.ok and refused.reply.text == cannot
    pressed = await service.acts.rematch_on_hand(AL, opened.game_id, lambda _c, _g: None)
    assert pressed.ok, pressed.reply.text
