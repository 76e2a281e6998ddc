"""A player's data on request, and a server's once the bot is removed from it, through
Discord (issue 50, item 4), on both databases.

Al, in the middle of a game against the computer, types ``/cribbage privacy``: it says,
privately, what is kept and for how long, with two buttons. *Send me my data* sends him a ZIP
file only he sees, holding his game; *Delete my data* asks first, and Yes resigns his game (the
table says so) and deletes what is his: the game stays, with a former player in his seat. A
click on someone else's privacy buttons is refused. The bot removed from a server notes it
(its data goes after the grace period: the core's tests) and a start finds it gone too.
"""

from __future__ import annotations

import io
import json
import zipfile

from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import read_game, rows
from tests.helpers.table_driver import World, start_again, until

pytestmark = BOTH_DATABASES


async def test_a_player_gets_a_copy_then_has_it_deleted(world: World, bot: BotProcess) -> None:
    fd, al = world.fd, world.players[0]
    player = world.driver([al], 17, command_rate=0.0)
    snap = await player.open_against_computer("easy", target=61)
    snap = await player.step(snap)
    await player.settle(snap)

    asked = await fd.slash(al, world.general, "/cribbage privacy")
    assert asked.ephemeral and asked.original is not None
    said = asked.words()
    assert "What this bot keeps about you" in said and "30 days" in said, said
    # Bea cannot use Al's buttons (were she to forge one on her own privacy message).
    bea = world.players[1]
    hers = await fd.slash(bea, world.general, "/cribbage privacy")
    assert hers.original is not None
    for action in ("data", "delete"):
        refused = await fd.forged_click(bea, hers.original, f"crib:privacy:{al.id}:{action}")
        assert refused.ephemeral and "someone else's" in refused.words(), refused.words()

    sent = await fd.click(al, asked.original, label="Send me my data")
    # (A deferred reply: Discord puts the first follow-up in the reply itself.)
    reply = sent.original
    assert reply is not None and sent.ephemeral, sent.response
    assert "Everything this bot keeps about you" in reply.content
    [attached] = reply.attachments
    assert attached.filename == f"cribbage-data-{al.id}.zip"
    with zipfile.ZipFile(io.BytesIO(attached.data)) as archive:
        data = json.loads(archive.read("cribbage-data.json"))
    assert data["user_id"] == al.id
    assert [g["id"] for g in data["games"]] == [player.game_id]

    question = await fd.click(al, asked.original, label="Delete my data")
    assert "can't be taken back" in question.words()
    done = await fd.click(al, asked.original, label="Yes, delete my data")
    assert "Your data is deleted" in done.words() and "1 game was ended first" in done.words()
    record = read_game(world.database, player.game_id)
    assert record.status == "finished"
    seats = rows(
        world.database,
        "SELECT user_id, display_name FROM seats WHERE game_id = ?",
        (player.game_id,),
    )
    assert al.id not in [s[0] for s in seats] and "Former player" in [s[1] for s in seats]
    # The table told the channel why his game ended (issue 54): his data was deleted.
    ended = "data was deleted — 🏆 Easy bot wins"
    await until(fd, lambda: any(ended in m.words() for m in fd.messages(world.general)))
    tables = [m for m in fd.messages(world.general) if not m.ephemeral]
    assert not any("resigned" in m.words() for m in tables)
    assert rows(
        world.database, "SELECT COUNT(*) FROM user_settings WHERE user_id = ?", (al.id,)
    ) == [(0,)]


async def test_a_server_the_bot_is_removed_from_is_noted(world: World, bot: BotProcess) -> None:
    fd = world.fd
    player = world.driver(world.players[:1], 19, command_rate=0.0)
    await player.open_against_computer("easy", target=61)
    fd.remove_bot(world.guild)
    left = "SELECT guild_id FROM servers_left"
    await until(fd, lambda: rows(world.database, left) == [(world.guild.id,)], stall=None)
    # Found again at a start, had it been missed (the row is taken away to see it come back).
    await bot.stop()
    rows(world.database, "DELETE FROM servers_left")
    bot.dev_guild = None  # (it is no longer in that server: its commands go global)
    await start_again(fd, bot)
    await until(fd, lambda: rows(world.database, left) == [(world.guild.id,)], stall=None)
