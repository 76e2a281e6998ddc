"""Game night in a voice channel (issue 46): a game in the text chat of a voice channel and one
in a stage channel's, from ``/cribbage new`` to the result, with the table in the chat and the
hands by DM as in a text channel; one played at the table (the Activity) launched in a voice
channel; and what cannot be done there (a tournament, whose games are threads; the Activity on
a stage) refused in one sentence that says what to do instead.

fakediscord holds Discord's rules there (fakediscord/README.md, "Voice and stage channels"): the
chat is for those who may Connect, no thread is started in it, and a stage runs no Activity.
"""

from __future__ import annotations

import asyncio

from bot.core.base.places import NO_THREADS_IN_VOICE
from bot.discord.game_io import NO_TABLE_ON_STAGE
from engine.phase import Phase
from fakediscord import Channel, Message, User
from fakediscord.model import walk_components
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.activity_pages import (
    Players,
    dealt_at_the_table,
    launched,
    open_page,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import World

TABLE = "Play at the table"


async def _a_game_to_the_end(world: World, channel: Channel, people: list[User], seed: int) -> None:
    driver = world.driver(people, seed, channel=channel, spectators=[world.spectator])
    await driver.open(target=61)
    final = await driver.play_out()
    assert final.status == "finished" and final.game is not None
    assert final.game.state.result is not None and max(final.game.state.result.scores) >= 61
    assert driver.cards_seen > 100, "the hidden-card check looked"
    # The table was the channel's chat, the hands each player's DMs.
    last = driver.table_messages()[-1]
    assert last.channel is channel and "game point" in last.words() and last.attachments
    assert all(world.fd.dms(person) for person in people)


async def test_games_in_the_chat_of_a_voice_and_of_a_stage_channel(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    voice = world.guild.add_voice_channel("Game night")
    stage = world.guild.add_stage_channel("Finals")
    al, bea, cy, di = world.players
    # A tournament's games are threads, which Discord has not in a voice or stage channel.
    for channel in (voice, stage):
        refused = await fd.slash(world.moderator, channel, "/cribbage tournament new")
        assert refused.ephemeral and refused.words() == NO_THREADS_IN_VOICE
    await asyncio.gather(
        _a_game_to_the_end(world, voice, [al, bea], 1),
        _a_game_to_the_end(world, stage, [cy, di], 2),
    )
    assert not any("/threads" in r.route for r in fd.requests), "no thread was asked for"
    assert not fd.counters.rate_limited, fd.counters.rate_limited


async def test_a_game_at_the_table_launched_in_a_voice_channel(
    world: World, bots: BotLauncher
) -> None:
    fd, db = world.fd, world.database
    voice = world.guild.add_voice_channel("Game night")
    stage = world.guild.add_stage_channel("Finals")
    al, bea = world.players[:2]
    await with_the_activity(fd, bots, db, world.guild)
    # Al opens the table from the App Launcher in the voice channel; Bea joins him there.
    instance = await launched(fd, al, voice, bea)
    assert instance.channel is voice

    async with open_browser() as browser:
        al_page = await open_page(browser, fd, al, instance, phone=False)
        bea_page = await open_page(browser, fd, bea, instance, phone=True)
        # No game at this table yet: Al opens one to 61 from the table, posted in the chat.
        await al_page.table.locator('[data-choice="target-61"]').check()
        await al_page.table.locator('[data-key="open"]').click()
        newest = "SELECT MAX(id) FROM games WHERE channel_id = ?"
        await fd.wait_for(lambda: rows(db, newest, (voice.id,))[0][0], timeout=30, stall=20)
        game_id = latest_game_id(db, voice.id)
        lobby = await fd.wait_for(
            lambda: next((m for m in fd.messages(voice) if "Join" in m.text()), None),
            timeout=30,
            stall=20,
        )
        assert lobby is not None and _offers_table(lobby)
        await dealt_at_the_table(fd, db, game_id, al_page, bea_page)
        players = Players(fd, db, game_id, voice, {0: al, 1: bea}, {0: al_page, 1: bea_page})
        snap, moves = read_game(db, game_id), 0
        while snap.game is not None and snap.game.state.phase is not Phase.OVER:
            snap, moves = await players.make(snap, players.next(snap)), moves + 1
        assert moves > 20 and snap.game is not None and snap.game.state.result is not None
        await al_page.table.locator(".over .result").wait_for()
        for person in (al_page, bea_page):
            assert person.errors == [], (person.user.name, person.errors)

    # Every move showed in the voice channel's chat (each deal's table, which opens the
    # Activity too) and in the players' DMs, as for a game opened in a text channel.
    tables = [m for m in fd.messages(voice) if "Deal 1" in m.words()]
    assert tables and _offers_table(tables[0])
    assert fd.dms(al) and fd.dms(bea)
    # A stage has no Activity: its lobby offers no table, and a click Discord would never
    # send (on a table button drawn where the stage was not known) is told so.
    opened = await fd.slash(al, stage, "/cribbage new")
    assert opened.original is not None and "Join" in opened.original.text()
    assert not _offers_table(opened.original)
    on_stage = latest_game_id(db, stage.id)
    forged = await fd.forged_click(bea, opened.original, f"crib:{on_stage}:lobby:table")
    assert forged.ephemeral and forged.words() == NO_TABLE_ON_STAGE
    assert forged.activity_instance is None


def _offers_table(message: Message) -> bool:
    """Whether any version of ``message`` had *Play at the table*."""
    shown = [message.components, *(version.components for version in message.history)]
    return any(c.get("label") == TABLE for made in shown for c in walk_components(made))
