"""`/cribbage tournament cancel`: its organiser or a moderator ends the event, before it
starts or while it is played. Games being played end without a result (and unrated), the
message says who cancelled it and keeps the standings so far, and the threads are archived."""

from __future__ import annotations

from fakediscord import Channel, Message
from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import latest_game_id, rows
from tests.helpers.table_driver import World, confirmed, resign, until
from tests.helpers.tournament_steps import open_and_fill, pair_of, round_threads, tournament_board


@BOTH_DATABASES
async def test_cancelled_while_played_and_before_the_start(world: World, bot: BotProcess) -> None:
    fd = world.fd
    mo = world.moderator
    al = world.players[0]
    by_name = {u.name: u for u in world.players}
    nothing = await fd.slash(mo, world.general, "/cribbage tournament cancel")
    assert nothing.ephemeral and "no tournament" in nothing.words()

    board = await open_and_fill(
        world, "/cribbage tournament new format:swiss rounds:2 target:61", world.players
    )

    def dealt() -> list[Channel] | None:
        found = round_threads(world, 1)
        return found if len(found) == 2 and all(_game_in(world, t.id) for t in found) else None

    threads = await until(fd, dealt)
    # One match is decided; the other is still being played when the event is cancelled.
    done, playing = threads
    winner, loser = sorted(pair_of(done))
    await resign(fd, by_name[loser], done)
    await until(fd, lambda: f"{winner} wins" in board.words())

    refused = await fd.slash(al, world.general, "/cribbage tournament cancel")
    # The refusal names who may: the organiser (Mo, who opened it) or a moderator.
    assert refused.ephemeral and f"organiser, <@{mo.id}>, or a moderator" in refused.words()
    # Asked first, privately; No leaves it as it is.
    asked = await fd.slash(mo, world.general, "/cribbage tournament cancel")
    assert asked.ephemeral and asked.original is not None
    assert "The games being played end at once, without a result." in asked.words()
    kept = await fd.click(mo, asked.original, label="No, let it go on")
    assert kept.original is not None and kept.original.words() == "The tournament goes on."
    assert "**Cancelled**" not in board.words()
    cancelled = await confirmed(fd, mo, world.general, "/cribbage tournament cancel")
    assert cancelled.original is not None
    assert "The tournament is cancelled." in cancelled.original.words()

    await until(fd, lambda: f"**Cancelled** by <@{mo.id}>" in board.words())
    assert "when it was cancelled" in board.words() and f"{winner} wins" in board.words()
    assert "no result" in board.words() and "**Final standings**" not in board.words()
    await until(fd, lambda: any("tournament was cancelled" in m.words() for m in playing.messages))
    # The stopped game has no result and changed no rating; the finished one counts.
    stopped = latest_game_id(world.database, playing.id)
    assert rows(world.database, "SELECT status FROM games WHERE id = ?", (stopped,)) == [
        ("cancelled",)
    ]
    assert rows(world.database, "SELECT COUNT(*) FROM results WHERE game_id = ?", (stopped,)) == [
        (0,)
    ]
    finished = latest_game_id(world.database, done.id)
    assert rows(world.database, "SELECT COUNT(*) FROM results WHERE game_id = ?", (finished,)) == [
        (2,)
    ]
    await until(fd, lambda: all(t.archived for t in threads))
    assert not any("wins the" in m.words() for m in world.general.messages)  # no champion

    again = await fd.slash(mo, world.general, "/cribbage tournament cancel")
    assert again.ephemeral and "over" in again.words()
    late = await fd.slash(al, world.general, "/cribbage tournament withdraw")
    assert late.ephemeral and "over" in late.words()

    # A new one in the same channel, cancelled by its organiser before it starts.
    opened = await fd.slash(mo, world.general, "/cribbage tournament new")
    assert opened.ephemeral, opened.words()

    def opened_again() -> Message | None:
        found = _latest_board(world)
        return found if found is not board else None

    second = await until(fd, opened_again)
    await fd.click(al, second, label="Join")
    await until(fd, lambda: "Entrants (1)" in second.words())
    gone = await confirmed(fd, mo, world.general, "/cribbage tournament cancel")
    assert gone.original is not None and "without a result" not in gone.original.words()
    await until(fd, lambda: "**Cancelled**" in second.words() and not list(second.buttons()))
    assert tournament_board(world) is board  # the first one's message stays as it was


def _latest_board(world: World) -> Message | None:
    """The latest tournament message in #general."""
    found = [
        m
        for m in world.general.messages
        if m.author.bot and "tournament**" in m.words() and not m.deleted
    ]
    return found[-1] if found else None


def _game_in(world: World, channel_id: int) -> int | None:
    """The newest game opened in a channel, if any."""
    [(newest,)] = rows(
        world.database, "SELECT MAX(id) FROM games WHERE channel_id = ?", (channel_id,)
    )
    return None if newest is None else int(newest)
