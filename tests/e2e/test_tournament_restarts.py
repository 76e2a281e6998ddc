"""A tournament's round over a stop longer than Discord remembers a message's nonce: the bot
killed the moment a pairing's message is posted (before its id is kept), and started again
later than that, finds the message it posted and starts the pairing's thread from it, rather
than posting it a second time (the first then stood in the channel with no thread, its
players called to it twice)."""

from __future__ import annotations

from fakediscord.nonces import NONCE_WINDOW
from fakediscord.testing import BotProcess
from tests.e2e.test_tournaments import _PAIRING, _board, _open_and_fill, _play_round, _threads
from tests.helpers.table_driver import World, resign, start_again, until


async def test_a_pairing_posted_before_a_long_stop_is_posted_once(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    players = list(world.players)
    by_name = {u.name: u for u in players}
    board = await _open_and_fill(
        world, "/cribbage tournament new format:swiss rounds:2 target:61", players
    )
    await _play_round(world, 1, 2, by_name, games=0)  # round 1 is dealt
    posted = fd.after_request(rf"/channels/{world.general.id}/messages$", lambda _: bot.kill_now())
    for thread in _threads(world, 1):
        names = _PAIRING.match(thread.name)
        assert names is not None
        await resign(fd, by_name[names.group(2)], thread)
    await until(fd, lambda: bool(posted.routes), stall=None)
    await bot.kill()
    fd.clock.advance(NONCE_WINDOW + 1)  # (down longer than Discord keeps the nonce)
    await start_again(fd, bot)
    await _play_round(world, 2, 2, by_name)
    await until(fd, lambda: "**Final standings**" in board.words())
    starts = [m for m in world.general.messages if m.words().startswith("**Round 2 ·")]
    assert len(starts) == 2, [m.words() for m in starts]
    assert {m.id for m in starts} == {t.id for t in _threads(world, 2)}
    assert _board(world) is board
