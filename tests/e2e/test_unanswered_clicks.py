"""A saved move always reaches the player whose click made it (issue 21, item 1).

The click's answer (the hand message updated in place) may never land: Discord refuses it with
404 "Unknown interaction" after 3 s, answers 500 or 503 until the window is past, or the bot is
killed while it waits to send it again after a 429. The move is saved before it is answered,
so it stands; what the clicked message shows is then not known to be the saved state, and the
keeper brings it there (through the interaction's token while it may, else with the bot's own
token), after a restart too. No DM of the game keeps live controls for a state that has passed,
no new hand message is posted beside the old one, and nothing waits on the answer that failed:
the table and the next player's turn go out at once.
"""

from __future__ import annotations

import random

import pytest

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import TableDriver, World, start_again, until

#: The issue's promise: every player sees the saved game within a few seconds.
BACK_WITHIN = 8.0

#: The faults, each with the bot on SQLite; the first and the last on PostgreSQL too. The
#: database's part is the same whichever way Discord refused the answer (the move saved, its
#: answer kept as unconfirmed, read back by the keeper), so one refusal proves it there; the
#: kill proves it across a restart.
FAULTS = ["404 unknown interaction", "500 until too late", "503 until too late", "429, then killed"]
ON_POSTGRES = (FAULTS[0], FAULTS[-1])


@pytest.mark.parametrize(
    ("backend", "fault"),
    [("sqlite", fault) for fault in FAULTS] + [("postgres", fault) for fault in ON_POSTGRES],
    indirect=["backend"],
)
async def test_a_move_whose_answer_never_landed_reaches_the_player(
    world: World, bot: BotProcess, fault: str
) -> None:
    fd = world.fd
    driver = TableDriver(
        fd, world.general, world.players[:2], world.database, random.Random(5), command_rate=0.0
    )
    await driver.open(target=61)
    await driver.play_out(stop_after=2)  # both discards: the play begins
    snap = driver.snapshot()
    seat, prompt, action = await driver.next_move(snap)
    dms_before = {u.id: len(fd.dms(u)) for u in driver.players}
    if fault.startswith("404"):
        fd.fail(r"/callback$", status=404, code=10062, message="Unknown interaction")
    elif fault.startswith("429"):
        fd.rate_limit(r"/callback$", times=1, retry_after=30.0)
    else:
        fd.fail(r"/callback$", status=int(fault[:3]), times=20)
    click = await driver.send(snap, seat, action, prompt)
    # The move is saved whatever happens to its answer.
    stored = await until(fd, lambda: driver._moved(snap), timeout=10)
    assert stored.version == snap.version + 1
    if fault.startswith("429"):
        await fd.wait_for(lambda: any(r.status == 429 for r in fd.requests), timeout=5)
        await bot.kill()  # while discord.py waits to send the answer again
        assert click.response is None
        await start_again(fd, bot)
    # The clicked hand shows the saved state (no live controls for the turn that passed), the
    # table and the other player's turn too, and no older DM keeps live controls.
    await driver.expect_current(timeout=BACK_WITHIN)
    assert click.response is None or click.response.type != 7
    assert {u.id: len(fd.dms(u)) for u in driver.players} == dms_before, "no second hand"
    # The game goes on from the messages the players have (Discord taking answers again).
    fd.faults.clear()
    await driver.play_out(stop_after=driver.steps + 4)
