"""A game played in a private thread is its members' (issue 33): its review, its shuffles'
check and its pages reach its players and whoever can see the thread; anyone else, asking
for its number from another channel, is told what they would be told of a game that does not
exist, so that asking for every number shows nothing of it. A public answer elsewhere (the
head to head) counts it in the totals but does not name it."""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.bot_db import latest_game_id
from tests.helpers.table_driver import World, resign, until

NOT_FOUND = "I can't find that game in this server."


async def test_a_game_in_a_private_thread_is_shown_to_those_who_can_see_it_alone(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al, bea, cy, eve = world.players
    thread = world.general.add_thread("quiet game", private=True, creator=al)
    for member in (bea, cy, fd.bot_user):
        thread.join(member)
    opened = await fd.slash(al, thread, "/cribbage new")
    assert opened.original is not None, opened.words()
    await fd.click(bea, opened.original, label="Join")
    await fd.slash(al, thread, "/cribbage start")
    await until(fd, lambda: [m for m in fd.dms(bea) if list(m.selects())])
    await resign(fd, bea, thread)
    game = latest_game_id(world.database, thread.id)

    # Eve is not in the thread: from #general, its game is one that does not exist.
    missing = await fd.slash(eve, world.general, f"/cribbage review game:{game + 1000}")
    for line in (f"/cribbage review game:{game}", f"/cribbage verify game:{game}"):
        refused = await fd.slash(eve, world.general, line)
        assert refused.ephemeral and refused.words() == missing.words() == NOT_FOUND, line
    # Cy is in the thread (not a player): the finished game's review and check are his.
    review = await fd.slash(cy, world.general, f"/cribbage review game:{game}")
    await review.wait_for(lambda i: any("Review of game" in m.words() for m in i.messages()))
    checked = await fd.slash(cy, world.general, f"/cribbage verify game:{game}")
    await checked.wait_settled(timeout=60)
    assert f"The shuffles of game {game}" in checked.words(), checked.words()
    # A player asks from anywhere in the server.
    own = await fd.slash(al, world.general, f"/cribbage verify game:{game}")
    await own.wait_settled(timeout=60)
    assert f"The shuffles of game {game}" in own.words(), own.words()
    # Eve, once she joins the thread, may too.
    thread.join(eve)
    joined = await fd.slash(eve, world.general, f"/cribbage verify game:{game}")
    await joined.wait_settled(timeout=60)
    assert f"The shuffles of game {game}" in joined.words(), joined.words()

    # The head to head, public: in #general the totals count the game, but it is not named
    # (its score and date); in the thread it is.
    outside = await fd.slash(eve, world.general, "/cribbage stats user:Al against:Bea")
    await outside.wait_settled(timeout=60)
    assert "**Al** against **Bea**: 1 game" in outside.words(), outside.words()
    assert "Last" not in outside.words(), outside.words()
    inside = await fd.slash(eve, thread, "/cribbage stats user:Al against:Bea")
    await inside.wait_settled(timeout=60)
    assert "Last 1 game: W " in inside.words(), inside.words()
