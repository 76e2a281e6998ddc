"""Ratings through Discord: the leaderboard's pages with Previous / Next (still working after a
restart), stats with the charts attached, head to head, and nothing from another server.
Finished games are seeded through the store (rated as the bot rates them) for speed."""

from __future__ import annotations

import time

from bot.core.base.replies import User as Player
from bot.store import Store
from fakediscord.testing import BotProcess
from tests.helpers.results import finish_game, result_row
from tests.helpers.table_driver import World, start_again, until


async def _seed(world: World) -> None:
    """Thirteen players in a chain of wins, and Al and Bea's five games (Al wins four)."""
    guild = world.guild.id
    # (Played where the stats are asked: a public answer names only games its readers can see.)
    channel = world.general.id
    chain = [Player(900 + n, f"Player {n:02d}") for n in range(13)]
    al, bea = (Player(u.id, u.name) for u in world.players[:2])
    now = time.time() - 86_400
    async with await Store.open(world.database) as store:
        for i, winner in enumerate(chain):
            for loser in chain[i + 1 : i + 2]:
                rows = [
                    result_row(0, winner, won=True, score=121),
                    result_row(1, loser, won=False, score=96),
                ]
                await finish_game(store, rows, guild=guild, channel=channel, now=now)
        for game in range(5):
            al_won = game != 1
            rows = [
                result_row(0, al, won=al_won, score=121 if al_won else 99),
                result_row(1, bea, won=not al_won, score=88 if al_won else 121),
            ]
            await finish_game(store, rows, guild=guild, channel=channel, now=now + game)


def _ranks(content: str) -> list[str]:
    return [line.split()[0] for line in content.split("```")[1].splitlines()[2:]]


async def test_leaderboard_pages_survive_a_restart(world: World, bot: BotProcess) -> None:
    fd, al = world.fd, world.players[0]
    await _seed(world)
    board = await fd.slash(al, world.general, "/cribbage leaderboard")
    assert not board.ephemeral and board.original is not None
    assert "page 1 of 2" in board.words() and _ranks(board.words()) == [
        str(n) for n in range(1, 11)
    ]
    message = board.original
    await fd.click(al, message, label="Next ▶")
    await until(fd, lambda: "page 2 of 2" in message.words())
    assert _ranks(message.words()) == ["11", "12", "13", "14", "15"]

    await bot.stop()
    await start_again(fd, bot)
    # The buttons of a message sent before the restart still work.
    await until(fd, lambda: any(c for c in message.components))
    await fd.click(world.players[1], message, label="◀ Previous", timeout=15)
    await until(fd, lambda: "page 1 of 2" in message.words())
    await fd.click(al, message, label="Against the computer")
    await until(fd, lambda: "games against the computer" in message.words())
    assert "No games against the computer have finished" in message.words()


async def test_stats_with_charts_and_head_to_head(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    await _seed(world)
    mine = await fd.slash(al, world.general, "/cribbage stats")
    assert not mine.ephemeral and mine.original is not None
    assert "Rating " in mine.words() and "of 15" in mine.words()
    assert "Best hands: 12 (hand 0)" in mine.words()
    pictures = mine.original.attachments
    assert [p.filename for p in pictures] == ["rating.png", "points.png"]
    assert all(p.data.startswith(b"\x89PNG") and p.description for p in pictures)
    assert f"{al.name}'s rating over 5 games" in (pictures[0].description or "")

    h2h = await fd.slash(al, world.general, f"/cribbage stats user:{bea.name} against:{al.name}")
    text = h2h.words()
    assert text.startswith(f"**{bea.name}** against **{al.name}**: 5 games")
    assert f"{bea.name} won 1, {al.name} won 4." in text
    assert "Last 5 games: L 88-121" in text and "W 121-99" in text
    itself = await fd.slash(al, world.general, f"/cribbage stats against:{al.name}")
    assert itself.ephemeral and "someone else" in itself.words()


async def test_another_server_sees_none_of_it(world: World, bot: BotProcess) -> None:
    fd, al = world.fd, world.players[0]
    await _seed(world)
    other = fd.add_guild("Other Club")
    room = other.add_text_channel("cards")
    other.add_member(al)
    other.add_member(world.players[1])
    # The commands as a global sync would have them everywhere (the bot syncs to its
    # development server only).
    fd.commands.global_commands = fd.commands.guild_commands[world.guild.id]
    board = await fd.slash(al, room, "/cribbage leaderboard")
    assert "No games between people have finished on this server yet." in board.words()
    stats = await fd.slash(al, room, "/cribbage stats")
    assert "has not finished a game on this server" in stats.words()
    h2h = await fd.slash(al, room, f"/cribbage stats against:{world.players[1].name}")
    assert "have not played each other on this server yet" in h2h.words()
