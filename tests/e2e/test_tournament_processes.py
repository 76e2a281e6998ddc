"""A tournament on two processes sharing PostgreSQL: one directs it (the one that sends); when
that process dies at a round's turn, the other takes over and pairs the next round once."""

from __future__ import annotations

from fakediscord import Channel
from tests.helpers.pair import Pair
from tests.helpers.pair import sends as _sends
from tests.helpers.table_driver import resign, start_again, until
from tests.helpers.tournament_steps import (
    PAIRING,
    deals_in,
    finished,
    round_posts,
    round_threads,
    tournament_board,
)


async def test_the_other_process_takes_over_directing_at_a_rounds_turn(
    pair: Pair,
) -> None:
    world, fd = pair.world, pair.world.fd
    players = list(world.players)
    by_name = {u.name: u for u in players}
    assert _sends(pair.server) and not _sends(pair.dms)
    line = "/cribbage tournament new format:swiss rounds:2 target:61"
    assert (await fd.slash(world.moderator, world.general, line)).ephemeral
    board = await until(fd, lambda: tournament_board(world))
    for user in players:
        await fd.click(user, board, label="Join")
    await until(fd, lambda: "Entrants (4)" in board.words())
    await fd.slash(world.moderator, world.general, "/cribbage tournament start")

    def dealt(round_: int) -> list[Channel] | None:
        found = round_threads(world, round_)
        return found if len(found) == 2 and all(map(deals_in, found)) else None

    round_one = await until(fd, lambda: dealt(1))
    # The sender is killed the moment the round's last game is answered: the other process
    # takes over sending, and pairs and deals round 2 alone.
    *first, last = round_one
    for thread in first:
        names = PAIRING.match(thread.name)
        assert names is not None
        await resign(fd, by_name[names.group(2)], thread)
    server = pair.server
    names = PAIRING.match(last.name)
    assert names is not None
    asked = await fd.slash(by_name[names.group(2)], last, "/cribbage resign")
    assert asked.original is not None
    hook = fd.after_request(r"/callback$", lambda _: server.kill_now())
    await fd.click(by_name[names.group(2)], asked.original, label="Yes, resign", wait=False)
    await until(fd, lambda: bool(hook.routes), stall=None)
    await server.kill()
    await until(fd, lambda: _sends(pair.dms), stall=None)
    await until(
        fd, lambda: len(t := round_threads(world, 2)) == 2 and all(map(deals_in, t)), stall=None
    )
    await start_again(fd, server)
    for thread in round_threads(world, 2):
        names = PAIRING.match(thread.name)
        assert names is not None
        await resign(fd, by_name[names.group(2)], thread)
    await finished(world, board)
    await until(fd, lambda: [m for m in world.general.messages if "wins the Swiss" in m.words()])

    def said_once_each() -> None:
        champions = [m for m in world.general.messages if "wins the Swiss" in m.words()]
        assert len(champions) == 1
        rounds = round_posts(world, 2)
        assert len(rounds) == 2

    said_once_each()
    fd.at_the_end(said_once_each)
    assert all(deals_in(t) == 1 for t in round_threads(world, 2))
