"""A game in a thread that was archived under it (by Discord after a day without messages, or
by a moderator): an archived thread takes no edit, so the bot reopens it and the table is kept
up to date all the same. (Nobody types a command in an archived thread: the players move from
their hands by DM.)"""

from __future__ import annotations

from fakediscord import Message, User
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, until


async def test_the_table_is_kept_in_a_thread_archived_under_it(
    world: World, bot: BotProcess
) -> None:
    fd, players, driver = await world.open_for_two(4, target=121, thread="cribbage night")
    thread = driver.channel
    table = await until(
        fd, lambda: next((m for m in thread.messages if "Deal 1" in m.words()), None)
    )
    for player in players:
        await driver.expect_current()  # the deal's messages all show the stored game
        edits = len(table.history)
        thread.set_archived(True)

        def hand(player: User = player) -> list[Message]:
            return [m for m in fd.dms(player) if list(m.selects())]

        def edited(edits: int = edits) -> bool:
            return len(table.history) > edits

        shown = await until(fd, hand)
        menu = next(shown[-1].selects())
        cards = [o["value"] for o in menu["options"][:2]]
        await fd.select(player, shown[-1], menu["custom_id"], cards)
        await until(fd, edited)
        assert not thread.archived
    # Each time: the edit refused (50083), the thread reopened by the bot, the edit made.
    reopen = [r for r in fd.requests if r.route == f"PATCH /channels/{thread.id}"]
    assert len(reopen) == 2 and all(r.status == 200 for r in reopen)
    assert any(r.code == 50083 for r in fd.requests)


async def test_a_thread_locked_under_a_game_stops_its_table_and_not_the_game(
    world: World, bot: BotProcess
) -> None:
    # A moderator locks the thread: it takes no edit from the bot, which lacks Manage Threads
    # (403 / 160005, through an interaction's token or the bot's). The table stays as it was,
    # said once in the log as a permission the bot lacks there, and the players go on from
    # their hands by DM; no error, no edit tried again.
    fd, players, driver = await world.open_for_two(4, target=121, thread="cribbage night")
    thread = driver.channel
    await driver.expect_current()
    thread.set_archived(False, locked=True)
    for player in players:

        def hand(player: User = player) -> list[Message]:
            return [m for m in fd.dms(player) if list(m.selects())]

        shown = await until(fd, hand)
        menu = next(shown[-1].selects())
        cards = [o["value"] for o in menu["options"][:2]]
        await fd.select(player, shown[-1], menu["custom_id"], cards)
    await until(fd, lambda: any(r.code == 160005 for r in fd.requests))
    # The play's first turn reaches its player by DM all the same.
    await until(fd, lambda: any("Your turn" in m.words() for p in players for m in fd.dms(p)))
    refused = [r.template for r in fd.requests if r.code == 160005]
    assert refused == [
        "PATCH /webhooks/{id}/{token}/messages/{id}",
        "PATCH /channels/{id}/messages/{id}",
    ], "the table's edit through the click's token, then the bot's: nothing more is tried"
