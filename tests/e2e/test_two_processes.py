"""The bot as two processes sharing one PostgreSQL database: shard 0 (every DM, so nearly every
click) in one, shard 1 (the server, so the slash commands) in the other.

Any process serves any game; a click on one and a command on the other for the same game at
the same moment apply once; a finished game is reviewed by the sender alone; killing either
process loses nothing owed (the other takes over sending when the sender dies); restarting one
process at a time never stops a game; and the two never IDENTIFY together beyond Discord's
limit.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from typing import Any

import pytest

from fakediscord import Channel, Interaction, User
from fakediscord.runner import BotProcess
from tests.helpers.bot_db import latest_game_id, logged_actions, owned_messages, read_game, rows
from tests.helpers.final_tables import (
    FullSpeed,
    channel_tables,
    recorded_deals,
    table_problems,
)
from tests.helpers.pair import Pair, said_it_sends, sends
from tests.helpers.table_driver import TableDriver, start_again, until

#: How the bot answers a move made by slash command.
MOVED = ("You put", "You played")
#: Long enough for the other process to take over as the sender and bring the game up to date.
TAKEOVER = 20.0


def _driver(pair: Pair, seed: int, command_rate: float) -> TableDriver:
    world = pair.world
    return world.driver(
        world.players[:2], seed, spectators=[world.spectator], command_rate=command_rate
    )


async def test_a_whole_game_is_served_by_both_processes(pair: Pair) -> None:
    fd = pair.world.fd
    driver = _driver(pair, 5, command_rate=0.4)
    await driver.open(target=61)
    final = await driver.play_out()
    assert final.status == "finished"
    # Both did their part: the clicks came by DM (shard 0), the commands in the server.
    shards = {shard: len(s.events) for shard, s in fd.gateway.shards.items()}
    assert set(shards) == {0, 1} and driver.clicks and driver.commands
    assert fd.gateway.identify_refused == 0, "the two never identified together"
    assert fd.counters.rate_limited["global"] == 0
    # The finished game is reviewed by itself, by the process that sends and by it alone.
    game = driver.game_id
    done = "SELECT outcome FROM auto_reviews WHERE game_id = ?"
    await until(fd, lambda: rows(pair.url, done, (game,)) == [("reviewed",)], stall=None)
    said = f"game {game}'s automatic review: reviewed"
    # The line is logged just after the row is kept, so wait for it too.
    await until(fd, lambda: [p for p in pair.processes if _said(p, said)], stall=None)
    reviewers = [p for p in pair.processes if _said(p, said)]
    assert len(reviewers) == 1, "one process reviewed the game"
    assert _sending_when(reviewers[0], said), "the reviewer was the sender when it reviewed"


def _said(process: BotProcess, line: str) -> bool:
    return any(line in out for out in process.output)


def _sending_when(process: BotProcess, line: str) -> bool:
    """Whether ``process`` had last said it sends before it said ``line`` (the sender may
    change later, under load, when its lease lapses)."""
    said_at = next(i for i, out in enumerate(process.output) if line in out)
    return said_it_sends(process.output[:said_at])


def _play_line(action: dict[str, Any]) -> str:
    if action["type"] == "discard":
        return f"/cribbage discard cards:{' '.join(action['cards'])}"
    return f"/cribbage play card:{action['card']}"


async def _race(driver: TableDriver, channel: Channel) -> tuple[Interaction, Interaction]:
    """The player to act clicks their DM control and types the same move in the server at
    the same moment: the click reaches one process, the command the other."""
    fd = driver.fd
    snap = driver.snapshot()
    assert snap.game is not None
    seat = driver.actor(snap)
    user: User = driver.seats[seat]
    prompt = await driver.prompt(snap, seat)
    action = driver.choose(snap, seat)
    if action["type"] == "discard":
        control = f"crib:{driver.game_id}:discard:{snap.game.state.deal_number}"
        click = fd.select(user, prompt, control, action["cards"], wait=False)
    else:
        control = f"crib:{driver.game_id}:play:{snap.version}:{action['card']}"
        click = fd.click(user, prompt, control, wait=False)
    typed = fd.slash(user, channel, _play_line(action), wait=False)
    by_click, by_command = await asyncio.gather(click, typed)
    await asyncio.gather(
        by_click.wait_for(lambda i: i.response is not None),
        by_command.wait_for(lambda i: i.response is not None),
    )
    new = logged_actions(driver.database, driver.game_id)[snap.actions :]
    assert new[:1] == [action] and len(new) == 1, "the move applied once"
    return by_click, by_command


def _first_said(interaction: Interaction) -> str:
    """What the answer said when it came (not a deferral's placeholder): a move by command is
    answered with a copy of the hand under the move's line, which the bot's first edit of the
    copy (its controls) draws as the hand is, without that line."""
    message = interaction.original
    if message is None:
        return interaction.words()
    return next((v.words() for v in [*message.history, message.version()] if v.words()), "")


async def test_a_click_on_one_process_and_a_command_on_the_other_apply_once(pair: Pair) -> None:
    driver = _driver(pair, 9, command_rate=0.0)
    await driver.open(target=61)
    clicked = typed = 0
    for _ in range(12):
        by_click, by_command = await _race(driver, pair.world.general)
        won_click = by_click.response is not None and by_click.response.type == 7
        won_command = _first_said(by_command).startswith(MOVED)
        # Exactly one of the two was the move; the other was told why not, privately.
        assert won_click != won_command, (by_click.words(), _first_said(by_command))
        loser = by_command if won_click else by_click
        assert loser.ephemeral and not _first_said(loser).startswith(MOVED), loser.words()
        clicked += won_click
        typed += won_command
        await driver.expect_current()
    assert clicked + typed == 12
    # The game goes on from there (a whole game on both processes is the first test's).
    await driver.play_out(stop_after=driver.steps + 2)


@pytest.mark.parametrize("which", ["the sender", "the other"])
async def test_killing_either_process_loses_nothing_owed(pair: Pair, which: str) -> None:
    """SIGKILL a process the moment it answered a move (nothing else sent yet): the other
    process, or the same one started again, sends what the move owes."""
    fd = pair.world.fd
    driver = _driver(pair, 13, command_rate=0.0)
    await driver.open(target=61)
    for _ in range(3):
        await driver.play_out(stop_after=driver.steps + 2)
        sender = pair.server if sends(pair.server) else pair.dms
        assert sends(sender)
        victim = (
            sender
            if which == "the sender"
            else (pair.dms if sender is pair.server else pair.server)
        )
        survivor = pair.dms if victim is pair.server else pair.server
        # The victim's moves: DM clicks reach the DM shard's process, commands the server's.
        driver.command_rate = 0.0 if victim is pair.dms else 1.0
        dying = victim
        hook = fd.after_request(r"/callback$", lambda _: dying.kill_now())  # noqa: B023
        snap = driver.snapshot()
        seat = driver.actor(snap)
        prompt = await driver.prompt(snap, seat)
        sent = await driver.send(snap, seat, driver.choose(snap, seat), prompt)
        await sent.wait_for(lambda i: i.response is not None)
        assert hook.routes, "the process was killed the moment it answered the move"
        await victim.kill()
        moved = driver.sync()
        assert moved.version == snap.version + 1, "the move was saved"
        # The survivor sends (taking over as the sender if the sender died, after a few
        # looks a second apart: a pause well within STALL) ...
        await driver.expect_current()
        assert survivor.proc is not None and survivor.proc.returncode is None
        # ... and the one killed comes back, and the game goes on through it (the next
        # round's first moves, and after the last round these).
        await start_again(fd, victim)
        driver.command_rate = 0.5
    await driver.play_out(stop_after=driver.steps + 4)


async def test_restarting_one_process_at_a_time_never_stops_a_game(pair: Pair) -> None:
    """A rolling restart: each process stopped (SIGTERM) and started again in turn, while the
    players go on through the other one."""
    driver = _driver(pair, 17, command_rate=0.5)
    await driver.open(target=61)
    await driver.play_out(stop_after=4)
    for stopped, rate in ((pair.dms, 1.0), (pair.server, 0.0), (pair.dms, 1.0)):
        assert await stopped.terminate() == 0
        # While it is down only the other process's shard reaches the bot.
        driver.command_rate = rate
        await driver.play_out(stop_after=driver.steps + 4)
        await start_again(pair.world.fd, stopped)
        driver.command_rate = 0.5
        await driver.play_out(stop_after=driver.steps + 2)
    assert pair.world.fd.gateway.identify_refused == 0


async def test_a_frozen_sender_is_replaced_and_sends_nothing_once_it_wakes(pair: Pair) -> None:
    """SIGSTOP the sender (its connections stay open, as in a long pause or a hung event
    loop): the other process takes over and the game goes on; woken (SIGCONT), the old sender
    finds its lease gone and stops sending, and nothing is doubled or left behind."""
    fd = pair.world.fd
    # Every move by a DM control: they reach the process with shard 0, which does not send.
    driver = _driver(pair, 15, command_rate=0.0)
    await driver.open(target=61)
    await driver.play_out(stop_after=driver.steps + 2)
    assert sends(pair.server) and not sends(pair.dms)
    frozen = pair.server.proc
    assert frozen is not None
    os.kill(frozen.pid, signal.SIGSTOP)
    try:
        # Each move's table and the next player's prompt: sent by the process that took over.
        await driver.play_out(stop_after=driver.steps + 4)
        assert sends(pair.dms)
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
    await until(fd, lambda: not sends(pair.server))
    assert not sends(pair.server) and sends(pair.dms)
    await driver.play_out(stop_after=driver.steps + 4)
    assert sends(pair.dms)


#: What a process logs when a send that waited for its turn was refused at the fence (issue 32).
FENCED = "not written: this process no longer sends"


async def test_a_follow_up_that_waited_while_the_sender_was_frozen_is_never_posted(
    pair: Pair,
) -> None:
    """Issue 32, items 1 and 2: the sender posts the next deal's hand as a follow-up of the
    player's latest DM click, Discord answers 429, and discord.py waits to try again; the
    sender is frozen meanwhile, longer than its lease. The other process takes over and posts
    the hand (there is no nonce on a follow-up, and nothing was posted: no lost post is
    found). When the old sender wakes, its retry must not be written: the DM would hold two
    hands of the deal, one of them left with live controls."""
    fd = pair.world.fd
    driver = _driver(pair, 21, command_rate=0.0)
    await driver.open(target=61)
    # (Every click of deal 1 is in a DM: deal 2's hands go as follow-ups of those clicks.)
    follow_up = fd.rate_limit(r"^POST /webhooks/\d+/[^/]+$", retry_after=2.5)
    frozen = pair.server.proc
    assert frozen is not None and sends(pair.server)
    mark = len(pair.server.output)

    async def freeze_when_refused() -> None:
        await fd.wait_for(lambda: follow_up.hits == 1, timeout=60, stall=None)
        os.kill(frozen.pid, signal.SIGSTOP)
        try:
            await until(fd, lambda: sends(pair.dms), stall=None)
        finally:
            os.kill(frozen.pid, signal.SIGCONT)

    freezing = asyncio.create_task(freeze_when_refused())
    await driver.play_deal()
    await freezing

    def outcome() -> str | None:
        if any(FENCED in line for line in pair.server.output[mark:]):
            return "refused at the fence"
        for user in driver.seats.values():
            hands = [m for m in fd.dms(user) if "deal 2." in m.words().split("\n", 1)[0]]
            if len(hands) > 1:
                return f"posted twice to {user.name}"
        return None

    assert await fd.wait_for(outcome, timeout=30, stall=None) == "refused at the fence"
    await driver.play_out(stop_after=driver.steps + 4)
    await driver.expect_current(timeout=TAKEOVER)


async def _against_the_computer(pair: Pair) -> tuple[User, int, str]:
    """Al's game against the computer in #general, opened on the process that sends, its first
    table kept: Al, the game's id, and the route of a follow-up of the command that opened it
    (the tables are: its token carries them, outside the bot's global limit)."""
    fd, world = pair.world.fd, pair.world
    al = world.players[0]
    opened = await fd.slash(al, world.general, "/cribbage new vs_computer:True target:121")
    assert opened.original is not None and sends(pair.server) and not sends(pair.dms)
    game_id = latest_game_id(world.database, world.general.id)
    await until(fd, lambda: "table:1" in owned_messages(world.database, game_id) or None)
    return al, game_id, rf"^POST /webhooks/\d+/{re.escape(opened.token)}$"


def _dealt(pair: Pair, game_id: int, deal: int) -> bool:
    """Whether the game has reached ``deal``."""
    game = read_game(pair.world.database, game_id).game
    return game is not None and game.state.deal_number >= deal


async def test_two_tables_posted_a_moment_apart_and_never_kept_are_each_kept_as_itself(
    pair: Pair,
) -> None:
    """Issue 67, item 4: the sender posts two deals' tables through the token of the command
    that opened the game a few milliseconds apart (Discord took neither post of the first for a
    while, and the game went on meanwhile) and is frozen before it keeps either id. The process
    taking over looks for both: each is found as itself (by the line that names its deal),
    where the search took the later for the earlier, deleted the real earlier table and edited
    the later one back a deal, then posted it again."""
    fd, world = pair.world.fd, pair.world
    al, game_id, posts = await _against_the_computer(pair)
    down = fd.fail(posts, status=503, times=1_000)  # deal 2's table: not taken for now
    player = FullSpeed(fd, al, lambda: fd.dms(al), lambda: _dealt(pair, game_id, 3), hints=False)
    await player.play()
    await fd.wait_for(lambda: down.hits, timeout=60)
    frozen = pair.server.proc
    assert frozen is not None
    made: list[str] = []

    def second_freezes(route: str) -> None:
        made.append(route)
        if len(made) == 2:
            os.kill(frozen.pid, signal.SIGSTOP)

    fd.after_request(posts, second_freezes, times=2)
    down.times = down.hits  # Discord takes them again: both go in the sender's next pass
    try:
        await until(fd, lambda: sends(pair.dms), stall=None)
        recorded = recorded_deals(world.database, game_id)

        def looked_for() -> bool:
            # The posts left unkept were looked for, and each kept (or posted again).
            kept = owned_messages(world.database, game_id)
            pending = rows(world.database, "SELECT key FROM pending_posts")
            return not pending and {"table:2", "table:3"} <= set(kept)

        await until(fd, lambda: looked_for() or None)
        deleted = [m for m in fd.messages(world.general) if m.deleted and not m.ephemeral]
        assert deleted == [], [m.words()[:80] for m in deleted]
        await until(fd, lambda: not table_problems(fd, world.general, recorded) or None)
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
    assert len(made) == 2, "the sender was frozen right after posting both"
    tables = channel_tables(fd, world.general)
    for deal in (1, 2, 3):
        [table] = tables[deal]
        looks = [v.words() for v in [*table.history, table.version()]]
        assert all(f"**Deal {deal}** —" in look for look in looks), (deal, looks)


async def test_a_table_posted_with_its_nonce_and_never_kept_is_not_posted_again(
    pair: Pair,
) -> None:
    """Issue 67, item 4: the token that carries the tables reaches nothing for a while, so the
    sender posts a deal's table with the bot's token and its nonce, and is frozen the moment
    Discord made it, before keeping its id (such a post leaves no pending post to look for).
    The process taking over posts it with the same nonce first, and Discord gives back the
    table it made: one table, where it was posted again through the token (which takes no
    nonce), two tables of the deal in the channel."""
    fd, world = pair.world.fd, pair.world
    al, game_id, posts = await _against_the_computer(pair)
    unreachable = fd.fail(posts, status=404, code=10015, times=1_000)
    frozen = pair.server.proc
    assert frozen is not None
    posted = fd.after_request(
        rf"^POST /channels/{world.general.id}/messages$",
        lambda _: os.kill(frozen.pid, signal.SIGSTOP),
    )

    player = FullSpeed(fd, al, lambda: fd.dms(al), lambda: _dealt(pair, game_id, 2), hints=False)
    await player.play()
    try:
        await fd.wait_for(lambda: posted.routes, timeout=60)
        unreachable.times = unreachable.hits  # the token reaches the channel again
        await until(fd, lambda: sends(pair.dms), stall=None)
        await until(fd, lambda: "table:2" in owned_messages(world.database, game_id) or None)
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
    tables = channel_tables(fd, world.general)
    assert len(tables[2]) == 1, [m.words()[:60] for m in tables[2]]
    [table] = tables[2]
    assert owned_messages(world.database, game_id)["table:2"].message_id == table.id
