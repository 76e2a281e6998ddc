"""A club that runs itself (issue 70), end to end on both databases: a weekly cribbage night
scheduled as a Discord event for a time typed as people say it, people entering by marking it
Interested (one while the bot is down) or with Join, one reminder when check-in opens, check-in
deciding who is dealt in, a late arrival taken by the next round, the bot restarted before the
start and during a round, the night played out and its event told who won, the next week's
night made with the interested entered, and the league table after two nights.

The bot runs in this process on a clock it shares with the emulator (Discord's wall clock), so
a week passes in a moment (tests/helpers/night_steps.py)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

from bot.store import Store
from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.events import ACTIVE, SCHEDULED
from fakediscord.mentions import Pings
from fakediscord.model import CREATE_EVENTS
from fakediscord.testing import BotLauncher
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.night_steps import NightBot, board_after, event_of, night_board, reminders
from tests.helpers.table_driver import World, resign, until
from tests.helpers.tournament_steps import PAIRING, deals_in

pytestmark = BOTH_DATABASES

#: How long before its start a night's check-in opens (and the reminder goes).
CHECK_IN = 15 * 60


def threads_since(world: World, round_: int, since: int) -> list[Channel]:
    """Round ``round_``'s threads made after message ``since`` (this night's, not an earlier
    night's of the same round)."""
    return [
        c
        for c in world.guild.channels.values()
        if c.is_thread and c.id > since and c.name.startswith(f"Round {round_} ·")
    ]


async def play_round(
    world: World, round_: int, tables: int, people: dict[str, User], since: int
) -> list[Channel]:
    """Wait for the round's games; each pairing's first named player resigns."""
    fd = world.fd

    def dealt() -> list[Channel] | None:
        found = threads_since(world, round_, since)
        return found if len(found) == tables and all(deals_in(t) for t in found) else None

    threads = await until(fd, dealt)
    for thread in threads:
        names = PAIRING.match(thread.name)
        assert names is not None
        resigned = await resign(fd, people[names.group(2)], thread)
        assert resigned.original is not None
    return threads


def listed(message: Message, heading: str) -> set[str]:
    """The names a night's message lists under ``heading`` ("Entrants", "Checked in")."""
    for line in message.words().splitlines():
        if line.startswith(f"**{heading} ("):
            return {name.strip() for name in line.split(":** ", 1)[1].split(",")}
    return set()


def a_friday(fd: FakeDiscord) -> datetime:
    """A Friday a few days on whose next Friday is in the same calendar quarter (the two
    nights in one league season), at 20:00 in London."""
    day = datetime.fromtimestamp(fd.clock.wall(), UTC).date() + timedelta(days=3)
    while day.weekday() != 4 or (day.month - 1) // 3 != ((day + timedelta(days=7)).month - 1) // 3:
        day += timedelta(days=1)
    return datetime(day.year, day.month, day.day, 20, 0)


async def test_a_weekly_club_night_runs_itself_and_makes_a_league(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    people = {u.name: u for u in (*world.players, world.spectator)}
    world.guild.give_bot(CREATE_EVENTS)
    async with await Store.open(world.database) as store:
        bot = NightBot(bots, fd, world.guild, store)
        await bot.start()
        try:
            await _a_weekly_club(world, bot, people)
        finally:
            if bot.running is not None:
                # (Stopped before its store closes.)
                await bot.stop()


async def _a_weekly_club(world: World, bot: NightBot, people: dict[str, User]) -> None:
    fd, general, mo = world.fd, world.general, world.moderator
    al, bea, cy, di = world.players
    eve = world.spectator
    # The server's time zone, chosen from what the list offers.
    offered = await fd.autocomplete(mo, general, "/club timezone zone:london")
    assert "Europe/London" in [c["value"] for c in offered]
    said = await fd.slash(mo, general, "/club timezone zone:Europe/London")
    assert said.ephemeral and "Europe/London" in said.words()
    # The dates offered as "fri" is typed: the coming Fridays, in London's time.
    offered = await fd.autocomplete(mo, general, "/club night when:fri 8pm")
    assert offered and all("Friday" in c["name"] and "Europe/London" in c["name"] for c in offered)

    friday = a_friday(fd)
    when = friday.strftime("%Y-%m-%d %H:%M")
    answer = await fd.slash(
        mo,
        general,
        f"/club night when:{when} repeat:weekly format:swiss rounds:2 target:61",
    )
    assert answer.ephemeral and "is scheduled for" in answer.words(), answer.words()
    assert "Events" in answer.words() and "Create Events" not in answer.words()
    board = await until(fd, lambda: night_board(general))
    assert "Friday cribbage night" in board.words() and "night 1" in board.words()
    event = await event_of(fd, world.guild)
    assert event.name == "Friday cribbage night" and event.status == SCHEDULED
    assert event.recurrence is not None and event.recurrence["frequency"] == 2
    start = event.start.timestamp()
    assert board.words().count(f"<t:{int(start)}:F>") == 1

    # Interested enters; taking it back leaves; Join still works.
    await fd.scheduled.interested(al, event)
    await fd.scheduled.interested(bea, event)
    await fd.scheduled.interested(eve, event)
    await fd.scheduled.uninterested(eve, event)
    await fd.click(cy, board, label="Join")
    await until(fd, lambda: listed(board, "Entrants") == {"Al", "Bea", "Cy"})

    # Restarted before the start: Di marked it Interested while the bot was down.
    await bot.stop()
    await fd.scheduled.interested(di, event)
    await bot.start()
    await until(fd, lambda: listed(board, "Entrants") == {"Al", "Bea", "Cy", "Di"})

    # Check-in opens: one reminder, naming everyone entered, with Check in.
    await bot.jump_to(start, before=10 * 60)
    [reminder] = await until(fd, lambda: reminders(general) or None)
    assert reminder.pinged == Pings(frozenset(u.id for u in (al, bea, cy, di)))
    await until(fd, lambda: "Check-in is open" in board.words())
    await fd.click(al, reminder, label="Check in")
    await fd.click(bea, board, label="Check in")
    checked = await fd.slash(cy, general, "/club checkin")
    assert "checked in" in checked.words()
    await until(fd, lambda: listed(board, "Checked in") == {"Al", "Bea", "Cy"})
    assert "Not yet: Di" in board.words()

    # Its time: it starts with those checked in (Di, absent, is not paired).
    since = max(m.id for m in general.messages)
    await bot.jump_to(start)
    await until(fd, lambda: "**Round 1 of 2**" in board.words())
    assert "Di" not in board.words().split("**Round 1 of 2**")[1]
    await until(fd, lambda: event.status == ACTIVE)
    # Di comes late: the next round takes her.
    late = await fd.click(di, board, label="Check in")
    assert "round 2 of 2 takes you" in late.words(), late.words()
    assert len(reminders(general)) == 1  # (one reminder, and nothing more)

    # Restarted during a round; round 1 played, then round 2 with Di.
    await bot.restart()
    await play_round(world, 1, 1, people, since)
    await play_round(world, 2, 2, people, since)
    await until(fd, lambda: "**Final standings**" in board.words())
    # The event says who won, and moves on to next week's night, scheduled again.
    await until(fd, lambda: any("won night 1" in (h["description"] or "") for h in event.history))
    await until(fd, lambda: event.status == SCHEDULED and event.start.timestamp() > start)
    week = event.start.timestamp()
    assert week - start == 7 * 24 * 3600
    second = await until(fd, lambda: board_after(general, board))
    assert "night 2" in second.words()
    # Those still interested are entered for it (Cy joined with the button: not).
    await until(fd, lambda: listed(second, "Entrants") == {"Al", "Bea", "Di"})

    # The second night: Cy walks in at check-in; Di never checks in.
    since = max(m.id for m in general.messages)
    await bot.jump_to(week, before=5 * 60)
    await until(fd, lambda: "Check-in is open" in second.words())
    for person in (al, bea, cy):
        await fd.click(person, second, label="Check in")
    await until(fd, lambda: listed(second, "Checked in") == {"Al", "Bea", "Cy"})
    await bot.jump_to(week)
    await until(fd, lambda: "**Round 1 of 2**" in second.words())
    await play_round(world, 1, 1, people, since)
    await play_round(world, 2, 1, people, since)
    await until(fd, lambda: "**Final standings**" in second.words())
    # (Recorded as played, as its event says: the league counts it from then on.)
    await until(fd, lambda: any("won night 2" in (h["description"] or "") for h in event.history))

    # The league after two nights: a night of N players gives its winner N, the last 1.
    table = await fd.slash(eve, general, "/club league")
    assert not table.ephemeral, table.words()
    text = table.words()
    assert "Friday cribbage night league" in text and "2 nights played" in text
    rows = [line for line in text.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")]
    points = {row.split(" — ")[0][3:]: int(row.split(" — ")[1].split()[0]) for row in rows}
    assert set(points) == {"Al", "Bea", "Cy", "Di"}
    assert points == dict(Counter(_league_points(board)) + Counter(_league_points(second)))
    stats = await fd.slash(al, general, "/cribbage stats")
    assert "Friday cribbage night league" in stats.words()


def _league_points(board: Message) -> dict[str, int]:
    """A night's league points, worked out from its final standings as its message shows them:
    each player as many as the players they finished level with or ahead of, themselves
    included (docs/players.md), level meaning equal game points, games won and spread."""
    rows = []
    for line in board.words().split("**Final standings**")[1].splitlines():
        found = re.match(r"\d+\. (.+?) — (\d+) pts, (\d+) won, spread ([+−±]?)(\d+)", line)
        if found:
            name, pts, won, sign, spread = found.groups()
            rows.append((name, (int(pts), int(won), -int(spread) if sign == "−" else int(spread))))
    assert rows, board.words()
    return {name: sum(1 for _, other in rows if other <= key) for name, key in rows}
