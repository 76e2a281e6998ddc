"""A club night's other paths (issue 70): a server where the bot may not make events still
gets its night at its time, the moderator told in one sentence what the Events entry needs; a
night with too few checked in is called off in one sentence, and its event says so; a
moderator skips and moves a weekly club's nights, and the event's occurrences follow."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store import Store
from fakediscord.events import CANCELED, COMPLETED, SCHEDULED
from fakediscord.model import CREATE_EVENTS
from fakediscord.testing import BotLauncher
from tests.helpers.night_steps import NightBot, board_after, event_of, night_board, reminders
from tests.helpers.table_driver import World, until

#: The answer's sentence for a server whose bot may not make events.
NEEDS = "the Events entry needs the **Create Events** permission"


def in_days(world: World, days: int, hour: int = 20) -> str:
    """A time ``days`` on, at ``hour`` (UTC: the server has set no time zone), as typed."""
    day = datetime.fromtimestamp(world.fd.clock.wall(), UTC) + timedelta(days=days)
    return day.replace(hour=hour, minute=0).strftime("%Y-%m-%d %H:%M")


async def test_a_server_without_the_permission_gets_its_night_all_the_same(
    world: World, bots: BotLauncher
) -> None:
    fd, general, mo = world.fd, world.general, world.moderator
    async with await Store.open(world.database) as store:
        bot = NightBot(bots, fd, world.guild, store)
        await bot.start()
        try:
            answer = await fd.slash(mo, general, f"/club night when:{in_days(world, 2)}")
            said = answer.words()
            assert answer.ephemeral and "is scheduled for" in said and NEEDS in said, said
            # One sentence says what it needs; another that times are read in UTC.
            assert said.count("Create Events") == 1 and "UTC" in said
            board = await until(fd, lambda: night_board(general))
            assert "Press **Join** to enter" in board.words()
            assert "Interested" not in board.words()
            for user in world.players[:3]:
                await fd.click(user, board, label="Join")
            start = datetime.strptime(in_days(world, 2), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
            await bot.jump_to(start.timestamp(), before=60)
            [reminder] = await until(fd, lambda: reminders(general) or None)
            for user in world.players[:3]:
                await fd.click(user, reminder, label="Check in")
            await bot.jump_to(start.timestamp())
            await until(fd, lambda: "**Round 1 of" in board.words())
        finally:
            await bot.stop()
    assert fd.scheduled.of(world.guild) == []
    # It never asked Discord for an event it knew it may not make.
    assert not [r for r in fd.requests if "scheduled-events" in r.route]


async def test_too_few_checked_in_call_it_off_and_the_event_says_so(
    world: World, bots: BotLauncher
) -> None:
    fd, general, mo = world.fd, world.general, world.moderator
    world.guild.give_bot(CREATE_EVENTS)
    async with await Store.open(world.database) as store:
        bot = NightBot(bots, fd, world.guild, store)
        await bot.start()
        try:
            await fd.slash(mo, general, f"/club night when:{in_days(world, 3)}")
            board = await until(fd, lambda: night_board(general))
            event = await event_of(fd, world.guild)
            al, bea, cy, _ = world.players
            for user in (al, bea, cy):
                await fd.scheduled.interested(user, event)
            await until(fd, lambda: "**Entrants (3)" in board.words())
            await bot.jump_to(event.start.timestamp(), before=60)
            [reminder] = await until(fd, lambda: reminders(general) or None)
            for user in (al, bea):
                await fd.click(user, reminder, label="Check in")
            await until(fd, lambda: "**Checked in (2)" in board.words())
            await bot.jump_to(event.start.timestamp())
            called = "Called off: 2 players checked in (3 needed)."
            await until(fd, lambda: called in board.words())
            await until(fd, lambda: event.status in (CANCELED, COMPLETED))
            assert event.description == called
            # Its message keeps no button; the reminder's Check in, pressed now, says it is over.
            assert list(board.buttons()) == []
            late = await fd.click(cy, reminder, label="Check in")
            assert late.ephemeral and "This night is over" in late.words(), late.words()
        finally:
            await bot.stop()


async def test_a_moderator_skips_and_moves_a_weekly_clubs_nights(
    world: World, bots: BotLauncher
) -> None:
    fd, general, mo = world.fd, world.general, world.moderator
    world.guild.give_bot(CREATE_EVENTS)
    async with await Store.open(world.database) as store:
        bot = NightBot(bots, fd, world.guild, store)
        await bot.start()
        try:
            line = f"/club night when:{in_days(world, 2)} repeat:weekly name:Thursday club"
            await fd.slash(mo, general, line)
            first = await until(fd, lambda: night_board(general))
            event = await event_of(fd, world.guild)
            start = event.start
            refused = await fd.slash(world.players[0], general, "/club skip")
            assert refused.ephemeral and "moderator" in refused.words()
            skipped = await fd.slash(mo, general, "/club skip")
            assert not skipped.ephemeral and "is skipped" in skipped.words(), skipped.words()
            await until(fd, lambda: "Skipped by a moderator." in first.words())
            second = await until(fd, lambda: board_after(general, first))
            assert "night 2" in second.words()
            # The skipped occurrence is an exception of the event: it stays scheduled.
            await until(fd, lambda: any(e.get("is_canceled") for e in event.exceptions.values()))
            assert event.status == SCHEDULED

            # Night 2 moves a day later, and its occurrence with it.
            week = start + timedelta(weeks=1)
            moved_to = (week + timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
            too_far = (week + timedelta(days=8)).strftime("%Y-%m-%d %H:%M")
            refused = await fd.slash(mo, general, f"/club move when:{too_far}")
            assert refused.ephemeral and "night after it" in refused.words()
            moved = await fd.slash(mo, general, f"/club move when:{moved_to}")
            assert "moves to" in moved.words(), moved.words()
            target = int((week + timedelta(days=1)).timestamp())
            await until(fd, lambda: f"<t:{target}:F>" in second.words())

            def moved_occurrence() -> bool:
                found = [e for e in event.exceptions.values() if e.get("scheduled_start_time")]
                return any(
                    datetime.fromisoformat(e["scheduled_start_time"]).timestamp() == target
                    for e in found
                )

            await until(fd, moved_occurrence)
            ended = await fd.slash(mo, general, "/club end")
            assert "no more nights" in ended.words()
            await until(fd, lambda: event.status == CANCELED)
        finally:
            await bot.stop()
