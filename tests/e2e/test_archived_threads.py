"""A game in a thread that was archived under it (by a moderator, or by Discord after a day
without messages): an archived thread takes no edit, so the bot reopens it and the table is
kept up to date all the same."""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World


async def test_the_table_is_kept_in_a_thread_archived_under_it(
    world: World, bot: BotProcess
) -> None:
    al, bea = world.players[:2]
    thread = world.general.add_thread("cribbage night")
    driver = world.driver([al, bea], 4, channel=thread)
    await driver.open(target=121)
    reopened = 0
    snap = driver.snapshot()
    for _ in range(6):
        thread.set_archived(True)
        snap = await driver.step(snap)  # checks the table shows the move
        reopened += not thread.archived
    # Reopened by a new message (a deal's table), or, for an edit, by the bot: an edit
    # refused (50083), the thread reopened, the edit made.
    assert reopened > 0
    refused = [r for r in world.fd.requests if r.code == 50083]
    reopen = [r for r in world.fd.requests if r.route == f"PATCH /channels/{thread.id}"]
    assert reopen and all(r.status == 200 for r in reopen)
    assert len(refused) >= len(reopen)
