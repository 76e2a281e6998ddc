"""The bot loses Send Messages in a tournament's channel as the next round is to be dealt: the
tournament's message says what it needs, the round's clock stops, and once a moderator gives
the permission back the round's games are dealt and the message no longer says it. (Nothing
was said but a warning in the log every five seconds, and the round's deadline went on.)"""

from __future__ import annotations

from fakediscord.model import SEND_MESSAGES
from fakediscord.testing import BotProcess
from tests.e2e.test_tournaments import _PAIRING, _open_and_fill, _play_round, _threads
from tests.helpers.table_driver import World, resign, until


async def test_a_round_waits_for_the_permission_to_post_it(world: World, bot: BotProcess) -> None:
    fd = world.fd
    players = list(world.players)
    by_name = {u.name: u for u in players}
    board = await _open_and_fill(
        world, "/cribbage tournament new format:swiss rounds:2 target:61", players
    )
    await _play_round(world, 1, 2, by_name, games=0)  # round 1 is dealt
    world.general.deny(SEND_MESSAGES)
    for thread in _threads(world, 1):
        names = _PAIRING.match(thread.name)
        assert names is not None
        await resign(fd, by_name[names.group(2)], thread)
    await until(fd, lambda: "Discord refuses me this round's games here" in board.words())
    assert "**Round 2 of 2**" in board.words() and not _threads(world, 2)
    assert "**Send Messages**" in board.words()

    world.general.allow(SEND_MESSAGES)
    await _play_round(world, 2, 2, by_name)
    await until(fd, lambda: "**Final standings**" in board.words())
    assert "Discord refuses me" not in board.words()
    starts = [m for m in world.general.messages if m.words().startswith("**Round 2 ·")]
    assert len(starts) == 2
