"""Who may end a game, and from where a move may come, through Discord (issue 10, items 7, 9
and 10): once the cards are dealt only a moderator cancels (a player resigns, and that is a
loss), against the computer too; a component naming a game of another server, or a game id no
database holds, gets a clear private refusal and changes nothing; a member who left the server
cannot move by DM, and the table is told how to end the game."""

from __future__ import annotations

import sqlite3

from fakediscord.testing import BotProcess
from tests.helpers.bot_db import latest_game_id, read_game
from tests.helpers.table_driver import World, until


def _results(world: World, game_id: int) -> list[tuple[int | None, int]]:
    with sqlite3.connect(world.db_path) as db:
        rows = db.execute(
            "SELECT user_id, won FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
    return [(row[0], row[1]) for row in rows]


async def test_after_the_deal_only_a_moderator_cancels(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    opened = await fd.slash(al, world.general, "/cribbage new")
    assert opened.original is not None
    await fd.click(bea, opened.original, label="Join")
    await fd.slash(al, world.general, "/cribbage start")
    game_id = latest_game_id(world.db_path, world.general.id)
    await until(fd, lambda: read_game(world.db_path, game_id).status == "active")
    before = read_game(world.db_path, game_id).version
    for user in (al, bea):
        refused = await fd.slash(user, world.general, "/cribbage cancel")
        assert refused.ephemeral and "only a moderator" in refused.content
        assert "/cribbage resign" in refused.content
    assert read_game(world.db_path, game_id).version == before, "nothing changed"
    cancelled = await fd.slash(world.moderator, world.general, "/cribbage cancel")
    assert cancelled.ephemeral and "cancelled" in cancelled.content.lower()
    await until(fd, lambda: read_game(world.db_path, game_id).status == "cancelled")
    said = await until(
        fd, lambda: [m for m in fd.messages(world.general) if "Mo cancelled" in m.content]
    )
    assert not said[0].ephemeral and "No result" in said[0].content
    assert _results(world, game_id) == []


async def test_against_the_computer_the_creator_resigns(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al = world.players[0]
    await fd.slash(al, world.general, "/cribbage new vs_computer:True difficulty:easy")
    game_id = latest_game_id(world.db_path, world.general.id)
    await until(fd, lambda: read_game(world.db_path, game_id).status == "active")
    refused = await fd.slash(al, world.general, "/cribbage cancel")
    assert refused.ephemeral and "/cribbage resign" in refused.content
    resigned = await fd.slash(al, world.general, "/cribbage resign")
    assert resigned.ephemeral and "resigned" in resigned.content
    await until(fd, lambda: read_game(world.db_path, game_id).status == "finished")
    assert _results(world, game_id) == [(al.id, 0), (None, 1)], "the loss is recorded"
