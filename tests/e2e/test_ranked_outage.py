"""A ranked match the bot was down too long to reach a player of, end to end: the bot stops in
the middle of a game, is down for longer than an interaction's token lives (the emulator's clock
and the bot's move on), and starts again. Bea plays from a server that did not invite the bot,
reached through her own tokens alone, none alive any more: the match ends without a result,
nothing is rated, and each player is told where they next use it (Bea by a click on her stale
table, Al by his next search)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.base.refusals import GAME_CANCELLED
from bot.core.ranked.words import MATCH_NOT_RATED, not_rated
from fakediscord import Message
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import rows
from tests.helpers.in_process import clocked_service, everywhere
from tests.helpers.ranked_driver import RankedDriver, matched_across_servers
from tests.helpers.table_driver import World, until

#: How long the bot is down: past every token's 15 minutes.
DOWN = timedelta(minutes=20)


def _saying(driver: RankedDriver, seat: int, words: str, game_id: int) -> Message | None:
    table = driver.table_now(seat, game_id)
    return table if table is not None and words in table.words() else None


async def test_a_match_the_bot_was_down_too_long_to_reach_is_not_rated_and_both_are_told(
    world: World, bots: BotLauncher
) -> None:
    fd, al = world.fd, world.players[0]
    now = [datetime.now(UTC)]
    async with everywhere(bots, world.database, lambda store: clocked_service(store, now)):
        driver = await matched_across_servers(world)
        await driver.next_game()
        game_id = driver.game_id
        stale = driver.table_now(0)  # Bea's table, in the server without the bot
        assert stale is not None and "Your hand" in [b["label"] for b in stale.buttons()]
    now[0] += DOWN
    fd.clock.advance(DOWN.total_seconds())
    async with everywhere(bots, world.database, lambda store: clocked_service(store, now)):

        def ended() -> tuple[Any, ...] | None:
            # The match ends first, its game on the referee's next step (referee._out_of_reach).
            found = rows(
                world.database,
                "SELECT status, winner, how, abandoned_by, season FROM ranked_matches WHERE id = ?",
                (driver.match_id,),
            )
            (game,) = rows(world.database, "SELECT status FROM games WHERE id = ?", (game_id,))
            if found and found[0][0] == "finished" and game[0] != "active":
                return (*found[0], game[0])
            return None

        assert await until(fd, ended) == ("finished", None, "cancelled", None, None, "cancelled")
        assert rows(world.database, "SELECT COUNT(*) FROM ranked_changes")[0][0] == 0
        assert rows(world.database, "SELECT COUNT(*) FROM ranked_ratings")[0][0] == 0
        # Bea presses Your hand on her stale table: its token brings the table back saying the
        # match was not rated.
        bea_place = driver.places[0]
        clicked = await fd.click(bea_place.user, stale, label="Your hand")
        assert clicked.ephemeral and clicked.words() == GAME_CANCELLED, clicked.words()
        told = await until(fd, lambda: _saying(driver, 0, MATCH_NOT_RATED, game_id))
        assert told.channel is stale.channel and not told.ephemeral
        assert told in clicked.followups or told is stale, "brought back by Bea's own click"
        # Al searches again: no wait (nobody abandoned anything), and his card tells him.
        searched = await fd.slash(al, world.general, "/cribbage ranked play")
        assert searched.original is not None, searched.words()
        assert not_rated("Bea") in searched.original.words(), searched.original.words()
