"""A round's deadline that passed while the bot was down (killed, then started again later) is
decided as soon as the bot is back: the director looks at every tournament being played when
it starts, so no deadline waits for the next change."""

from __future__ import annotations

import sqlite3

from fakediscord import Channel
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, start_again, until
from tests.helpers.tournament_steps import deals_in, open_and_fill, pair_of, round_threads


async def test_a_deadline_passed_while_the_bot_was_down(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al = world.players[0]
    board = await open_and_fill(
        world,
        "/cribbage tournament new format:swiss rounds:2 target:61 round_hours:1",
        world.players,
    )

    def dealt() -> list[Channel] | None:
        found = round_threads(world, 1)
        return found if len(found) == 2 and all(deals_in(t) for t in found) else None

    threads = await until(fd, dealt)
    # Al throws his cards; nobody else moves.
    hand = await until(fd, lambda: [m for m in fd.dms(al) if list(m.selects())])
    menu = next(hand[-1].selects())
    await fd.select(al, hand[-1], menu["custom_id"], [o["value"] for o in menu["options"][:2]])
    his = next(t for t in threads if al.name in pair_of(t))
    other = next(t for t in threads if t is not his)
    await until(fd, lambda: "Round 1 of 2" in board.words())

    await bot.kill()
    # The bot stays down past the round's hour: its start is moved back by more than that.
    with sqlite3.connect(world.database) as db:
        db.execute("UPDATE tournaments SET round_started = round_started - 3660")
    await start_again(fd, bot)

    def told(thread: Channel, why: str) -> bool:
        # The thread's own message saying why, and its deal's table saying how it ended.
        said = [m for m in thread.messages if m.words().startswith("The round's time is up")]
        tables = [m for m in thread.messages if "Cut for deal" in m.words()]
        return bool(said) and why in said[0].words() and why in tables[-1].words()

    await until(fd, lambda: told(his, "only Al moved"))
    await until(fd, lambda: told(other, "neither player moved"))
    await until(fd, lambda: "**Round 2 of 2**" in board.words())
    # Decided once: each thread was told once.
    for thread in (his, other):
        said = [m for m in thread.messages if m.words().startswith("The round's time is up")]
        assert len(said) == 1
