"""A month's leaderboard and the hall of fame, as users ask for them."""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, resign, until


async def test_this_months_leaderboard_and_the_hall_of_fame(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    opened = await fd.slash(al, world.general, "/cribbage new target:61")
    assert opened.original is not None
    await fd.click(bea, opened.original, label="Join")
    await fd.slash(al, world.general, "/cribbage start")
    await until(fd, lambda: [m for m in fd.dms(al) if list(m.selects())])
    await resign(fd, al, world.general)

    month = await fd.slash(bea, world.general, "/cribbage leaderboard season:this month")
    assert not month.ephemeral
    lines = month.words().splitlines()
    assert lines[0].startswith("**Leaderboard — ")
    assert lines[1].startswith("The month's table closes <t:")
    assert lines[2].startswith("1. Bea — ") and "1 of 1 won" in lines[2]
    assert lines[3].startswith("2. Al — ") and "0 of 1 won" in lines[3]
    last = await fd.slash(bea, world.general, "/cribbage leaderboard season:last month")
    assert "No games finished that month yet." in last.words()
    rated = await fd.slash(bea, world.general, "/cribbage leaderboard season:all time (ratings)")
    assert rated.original is not None and list(rated.original.buttons())

    fame = await fd.slash(bea, world.general, "/cribbage halloffame")
    assert not fame.ephemeral
    assert "**🏛️ Hall of fame**" in fame.words() and "**28s and 29s**" in fame.words()
