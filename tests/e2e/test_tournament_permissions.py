"""The bot loses Send Messages in a tournament's channel as the next round is to be dealt: the
tournament's message says what it needs, the round's clock stops, and once a moderator gives
the permission back the round's games are dealt and the message no longer says it. (Nothing
was said but a warning in the log every five seconds, and the round's deadline went on.)"""

from __future__ import annotations

from fakediscord.model import SEND_MESSAGES
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, until
from tests.helpers.tournament_steps import (
    last_round_played,
    resign_round,
    round_threads,
    swiss_dealt,
)


async def test_a_round_waits_for_the_permission_to_post_it(world: World, bot: BotProcess) -> None:
    fd = world.fd
    board, by_name = await swiss_dealt(world)
    world.general.deny(SEND_MESSAGES)
    await resign_round(world, 1, by_name)
    await until(fd, lambda: "Discord refuses me this round's games here" in board.words())
    assert "**Round 2 of 2**" in board.words() and not round_threads(world, 2)
    assert "**Send Messages**" in board.words()

    world.general.allow(SEND_MESSAGES)
    starts = await last_round_played(world, board, by_name)
    assert "Discord refuses me" not in board.words()
    assert len(starts) == 2
