"""A game in an announcement channel's thread (type 10, the kind a thread started from a
message there is): the bot posts in it with Send Messages in Threads, as in any thread, so a
channel where only its threads are open to the bot's posts still has its games there.

fakediscord holds Discord's rule (fakediscord/README.md, "Voice and stage channels": an
announcement channel's thread is posted in with Send Messages in Threads)."""

from __future__ import annotations

from fakediscord.model import ANNOUNCEMENT_THREAD, SEND_MESSAGES
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World


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
    assert played.game is not None and played.game.deal_number == 2, played.status
    assert driver.table_messages()[-1].channel is thread
