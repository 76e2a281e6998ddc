"""A game in an announcement channel's thread (type 10, the kind a thread started from a
message there is): the bot posts in it with Send Messages in Threads, as in any thread, so a
channel where only its threads are open to the bot's posts still has its games there; and a
tournament held in an announcement channel, its games in the announcement threads it starts.

fakediscord holds Discord's rule (fakediscord/README.md, "Voice and stage channels": an
announcement channel's thread is posted in with Send Messages in Threads)."""

from __future__ import annotations

from fakediscord.model import ANNOUNCEMENT_THREAD, SEND_MESSAGES
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World
from tests.helpers.tournament_steps import (
    last_round_played,
    resign_round,
    round_threads,
    swiss_dealt,
)


async def test_a_game_is_played_in_an_announcement_channels_thread(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    news = world.guild.add_announcement_channel("news")
    # The channel is for announcements, its threads for talk: the bot may post in those only.
    news.deny(SEND_MESSAGES)
    thread = news.add_thread("game night")
    assert thread.type == ANNOUNCEMENT_THREAD
    refused = await fd.slash(al, news, "/cribbage new")
    assert refused.ephemeral and "**Send Messages**" in refused.words(), refused.words()

    driver = world.driver([al, bea], 3, channel=thread)
    await driver.open()
    played = await driver.play_deal()
    assert played.game is not None and played.game.state.deal_number == 2, played.status
    assert driver.table_messages()[-1].channel is thread


async def test_a_tournament_is_held_in_an_announcement_channel(
    world: World, bot: BotProcess
) -> None:
    # The steps hold their tournament in the world's channel: here, an announcement channel.
    world.general = world.guild.add_announcement_channel("events")
    board, by_name = await swiss_dealt(world)
    assert [t.type for t in round_threads(world, 1)] == [ANNOUNCEMENT_THREAD] * 2
    await resign_round(world, 1, by_name)
    starts = await last_round_played(world, board, by_name)
    assert len(starts) == 2 and "**Final standings**" in board.words()
