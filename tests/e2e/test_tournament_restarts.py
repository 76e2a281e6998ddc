"""A tournament's round over a stop longer than Discord remembers a message's nonce: the bot
killed the moment a pairing's message is posted (before its id is kept), and started again
later than that, finds the message it posted and starts the pairing's thread from it, rather
than posting it a second time (the first then stood in the channel with no thread, its
players called to it twice)."""

from __future__ import annotations

from fakediscord.nonces import NONCE_WINDOW
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, start_again
from tests.helpers.tournament_steps import (
    killed_posting_round_two,
    last_round_played,
    round_threads,
    tournament_board,
)


async def test_a_pairing_posted_before_a_long_stop_is_posted_once(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    board, by_name = await killed_posting_round_two(world, bot)
    fd.clock.advance(NONCE_WINDOW + 1)  # (down longer than Discord keeps the nonce)
    await start_again(fd, bot)
    starts = await last_round_played(world, board, by_name)
    assert len(starts) == 2, [m.words() for m in starts]
    assert {m.id for m in starts} == {t.id for t in round_threads(world, 2)}
    assert tournament_board(world) is board
