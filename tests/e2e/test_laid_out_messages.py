"""The table, the result and the hand as a player sees them: Components V2 layouts.

A game against the computer is played out from Al's DMs (the table driver checks every
version of every message as it goes, hidden cards included). Then: each deal's table is a
container with the deal's calls, then one for each hand and the crib of the show and one for
the scores, the board picture inside that last one (from its attachment, with its alt text);
the result carries its Review button in a row inside its container; every hand message with
controls is laid out, its card buttons and crib select nested in it.
"""

from __future__ import annotations

from typing import Any

from fakediscord.limits import COMPONENTS_V2, CONTAINER, MEDIA_GALLERY, TEXT_DISPLAY
from fakediscord.model import Message, walk_components
from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import rows
from tests.helpers.table_driver import World, start_again, until

pytestmark = BOTH_DATABASES


def _container(message: Message) -> list[dict[str, Any]]:
    """The one container a laid-out message is, and what it holds, in order."""
    assert message.flags & COMPONENTS_V2 and message.content == "", message
    (container,) = message.components
    assert container["type"] == CONTAINER
    return list(container["components"])


async def test_tables_results_and_hands_are_laid_out(world: World, bot: BotProcess) -> None:
    player = world.driver(world.players[:1], 5, command_rate=0.0)
    await player.open_against_computer("easy", target=61)
    snap = await player.play_out(max_steps=250)
    assert snap.status == "finished"

    table = player.message("table:1")
    assert table is not None
    assert table.flags & COMPONENTS_V2 and table.content == "", table
    frames = table.components
    assert all(f["type"] == CONTAINER for f in frames)
    texts = [p["content"] for p in walk_components(frames) if p["type"] == TEXT_DISPLAY]
    # The play, the two hands and the crib, then the scores: each a frame of its own.
    assert len(frames) == len(texts) == 5
    assert [t.split(":")[0].split("'s ")[-1] for t in texts[1:4]] == ["hand", "hand", "crib"]
    assert "Scores —" in texts[4]
    assert table.words() == "\n".join(texts)
    (gallery,) = [p for p in frames[-1]["components"] if p["type"] == MEDIA_GALLERY]
    (item,) = gallery["items"]
    (board,) = table.attachments
    assert board.filename in item["media"]["url"]
    assert item["description"] == board.description and "Al" in board.description

    result = player.message("result")
    assert result is not None
    last = _container(result)[-1]
    assert last["type"] == 1 and last["components"][0]["custom_id"].startswith("crib:review:")
    assert "game point" in result.words()

    al = player.players[0]
    buttons = selects = 0
    for message in world.fd.dms(al):
        versions = [*(v.components for v in message.history), message.components]
        for components in versions:
            controls = [c for c in walk_components(components) if c["type"] == 2 or c["type"] == 3]
            if controls:
                assert components[0]["type"] == CONTAINER, "a hand's controls are in its layout"
            buttons += sum(1 for c in controls if ":play:" in c["custom_id"])
            selects += sum(1 for c in controls if ":discard:" in c["custom_id"])
    assert buttons and selects


async def test_a_table_sent_plain_before_the_upgrade_is_laid_out_when_brought_up_to_date(
    world: World, bot: BotProcess
) -> None:
    """A deal's table an older bot sent as plain text (its look kept as that) is edited into
    a layout by the first look after the upgrade, its content cleared, as Discord requires;
    it says the same."""
    fd = world.fd
    player = world.driver(world.players[:1], 5, command_rate=0.0)
    await player.open_against_computer("easy", target=61)
    await player.play_out(stop_after=3)
    await bot.stop()
    table = player.message("table:1")
    assert table is not None and table.flags & COMPONENTS_V2
    said = table.words()
    # As the older bot left it: the same words as plain content, and its digest of that.
    table.history.append(table.version())
    table.content, table.components, table.flags = said, [], 0
    rows(world.database, "UPDATE messages SET digest = ? WHERE message_id = ?", ("old", table.id))
    # (Edited with the bot's token, or through the token of the command that opened the game,
    # which posted the table and still lives.)
    edits = sum(fd.counters.edits.values())
    await start_again(fd, bot)
    await until(fd, lambda: bool(table.flags & COMPONENTS_V2))
    assert table.content == "" and table.words() == said
    assert sum(fd.counters.edits.values()) > edits and _container(table)
