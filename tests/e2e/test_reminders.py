"""Turn reminders: a player the table has waited on for TURN_REMINDER_SECONDS is reminded by
DM (one message a deal, edited for a later turn, and to say the table moved on once the turn
is over), with no controls and no card; a fast game
sends none (the whole games in test_whole_games.py are played well inside the default delay
and count every DM)."""

from __future__ import annotations

from fakediscord import Message, User
from fakediscord.testing import BotLauncher
from tests.helpers.table_driver import TableDriver, World, until

#: The reminder delay the test runs the bot with (the least the setting takes).
REMIND_AFTER = 5
WAITING = "the table is waiting for your"
TURN = "it's your turn"
MOVED_ON = "done, the table has moved on"


def _reminders(driver: TableDriver, user: User) -> list[Message]:
    return [m for m in driver.fd.dms(user) if WAITING in m.words() or TURN in m.words()]


async def test_reminders_by_dm_after_the_delay_once_per_turn(
    world: World, bots: BotLauncher
) -> None:
    await bots.process(
        database=world.database,
        dev_guild=world.guild.id,
        env={"TURN_REMINDER_SECONDS": str(REMIND_AFTER)},
    )
    fd, (al, bea), driver = await world.open_for_two(4, target=61, command_rate=0.0)
    # Both owe their cards for the crib: after the delay each is reminded, once.
    await until(fd, lambda: all(_reminders(driver, u) for u in (al, bea)))
    for user in (al, bea):
        (reminder,) = _reminders(driver, user)
        assert "2 cards for the crib" in reminder.words()
        assert not reminder.components, "the hand message keeps the only live controls"
    # The reminders are checked with every other message: no card, no live controls.
    snap = await driver.expect_current()
    # Into the play: whoever is on turn is reminded that it is their turn, with the count;
    # the other player, who owes nothing, is not.
    while snap.game is not None and snap.game.state.turn is None:
        snap = await driver.step(snap)
    assert snap.game is not None and snap.game.state.turn is not None
    on_turn, waiting = (al, bea) if snap.game.state.turn == 0 else (bea, al)
    nudged = await until(fd, lambda: [m for m in _reminders(driver, on_turn) if TURN in m.words()])
    assert len(_reminders(driver, on_turn)) == 1, "the deal's reminder, edited"
    assert f"count {snap.game.state.count}" in nudged[0].words()
    assert not [m for m in _reminders(driver, waiting) if TURN in m.words()]
    # Once per turn: the nudge came at least the delay after the crib's reminders, and the
    # player who owes nothing now was not reminded of the crib again meanwhile.
    reminded = [
        m
        for m in driver.fd.dms(waiting)
        if MOVED_ON in m.words() or m in _reminders(driver, waiting)
    ]
    assert len(reminded) == 1, "the crib's reminder, said to be done with, and no other"
    await driver.expect_current()
    # Once they play, their reminder says the table has moved on: no DM is left saying it
    # waits on them when it does not.
    (reminder,) = _reminders(driver, on_turn)
    snap = await driver.step(snap)
    await until(fd, lambda: MOVED_ON in reminder.words())
    assert not reminder.components
    # One reminder message a deal: the turn's reminder brought the discard's up to date, and
    # acting right away after that is not reminded again.
    await driver.play_out(stop_after=driver.steps + 2)
    assert [m for m in fd.dms(on_turn) if m is reminder or m in _reminders(driver, on_turn)] == [
        reminder
    ]
