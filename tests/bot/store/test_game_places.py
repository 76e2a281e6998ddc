"""Where a stored game's seats play, and what it is part of, read back whole (issue 69, item 2)
from the columns the store always had: a channel's game, a private table, a lesson, a
tournament's round, and a ranked match's game, each of whose seats plays where its player
searched from (a server's channel, their own conversation), on both databases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.base.places import PlaceKind
from bot.core.base.seating import (
    BOT_DM_SEATING,
    CHANNEL_SEATING,
    PRIVATE_SEATING,
    SeatPlace,
    Through,
)
from bot.core.games.records import Lesson, Match, NewGame, Options, Round, SeatRecord
from bot.core.ranked.scoreboard import game_channel
from bot.core.services import Services
from bot.store import Store
from bot.store.database import Row
from bot.store.game_places import MATCHES_A_READ, match_places
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import ranked_game, search_ranked

OPENER = SeatRecord(0, AL.id, AL.name)


async def test_each_shared_game_is_read_back_with_its_seating_and_occasion(store: Store) -> None:
    made = [
        NewGame(GUILD, CHANNEL, OPENER, Options(2, 121)),
        NewGame(None, CHANNEL + 1, OPENER, Options(2, 121), PRIVATE_SEATING),
        NewGame(None, CHANNEL + 2, OPENER, Options(2, 61), BOT_DM_SEATING, Lesson()),
        NewGame(GUILD, CHANNEL + 3, OPENER, Options(2, 121), occasion=Round("Round 1 of the cup")),
    ]
    for game in made:
        opened = await store.create_game(game, now=1.0)
        read = await store.get_game(opened.id)
        assert read is not None
        assert (read.seating, read.occasion) == (game.seating, game.occasion), game
        assert (opened.seating, opened.occasion) == (game.seating, game.occasion), game
    lesson = await store.open_game_in_channel(CHANNEL + 2)
    assert lesson is not None and lesson.in_lesson and not lesson.seating.tokens_only
    channel = await store.open_game_in_channel(CHANNEL)
    assert channel is not None and channel.seating == CHANNEL_SEATING
    assert channel.seating.in_server and not channel.seating.hands_beside_table


async def test_a_ranked_game_seats_each_player_where_they_searched(
    service: Services, store: Store
) -> None:
    await search_ranked(service, AL, CHANNEL, guild_id=GUILD)
    await search_ranked(service, BEA, CHANNEL + 50)
    record = await ranked_game(service, store, AL)
    seats = {s.user_id: s.seat for s in record.seats}
    places = record.seating.places
    assert not record.seating.shared and record.seating.tokens_only and record.in_match
    assert places[seats[AL.id]] == SeatPlace(PlaceKind.SERVER, Through.TOKENS, CHANNEL, GUILD)
    assert places[seats[BEA.id]] == SeatPlace(PlaceKind.PRIVATE, Through.TOKENS, CHANNEL + 50)
    entry = await store.live_entry(AL.id)
    assert entry is not None and entry.match_id is not None
    assert record.occasion == Match(entry.match_id, 1)
    # Its messages are its places', each seat's own.
    owners = [str(o) for o in record.seating.owners(record.id)]
    assert owners == [f"game:{record.id}", f"place:{record.id * 8}", f"place:{record.id * 8 + 1}"]


async def test_the_places_of_many_ranked_games_are_read_a_few_hundred_matches_at_a_time() -> None:
    asked: list[int] = []

    async def read(sql: str, params: Sequence[Any]) -> list[Row]:
        assert sql.count("?") == len(params) <= MATCHES_A_READ
        asked.append(len(params))
        place = {"place": "server", "channel": 7, "guild": 1}
        return [
            {"match_id": m, **{f"{x}_{k}": v for x in "ab" for k, v in place.items()}}
            for m in params
        ]

    channels = [game_channel(match, 1) for match in range(1, 1202)] + [CHANNEL, CHANNEL]
    found = await match_places(read, channels)
    assert asked == [MATCHES_A_READ, MATCHES_A_READ, 201] and len(found) == 1201
    assert await match_places(read, [CHANNEL]) == {} and len(asked) == 3  # (no read)
