"""Stopping the bot process mid-game, cleanly or not, and starting it again loses nothing and
repeats nothing.

The state is in the database, the messages a game owns are a view of it (their ids and what
they last showed are stored too), and the components carry the game id: so the DM controls
sent before a restart still work afterwards, a restart sends nothing that was already shown,
and whatever a killed bot had not sent yet is sent when it starts again.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from engine.phase import Phase
from fakediscord import User
from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.table_driver import CATCH_UP, TableDriver, World, start_again, until

pytestmark = BOTH_DATABASES

#: What the bot logs once it has looked at every open game after starting.
RECONCILED = re.compile(r"caught up: the messages of \d+ games show what they should")


def _shown(world: World, users: list[User]) -> dict[int, int]:
    """Every message the users and the channel have, with how many versions it has had."""
    messages = [*world.fd.messages(world.general), *(m for u in users for m in world.fd.dms(u))]
    return {m.id: len(m.history) for m in messages}


async def _reconciled(world: World, bot: BotProcess, since: int) -> None:
    # The bot says so once every message reconciled shows what it should (its sends made).
    await until(
        world.fd,
        lambda: any(RECONCILED.search(line) for line in bot.output[since:]),
        timeout=CATCH_UP,
    )


async def _restart_keeping_prompts(world: World, bot: BotProcess, driver: TableDriver) -> None:
    actions = driver.snapshot().actions
    await bot.stop()  # as Ctrl-C: what is owed is sent before the process ends
    before = _shown(world, driver.players)
    mark = len(bot.output)
    await start_again(world.fd, bot)
    await _reconciled(world, bot, mark)
    assert driver.snapshot().actions == actions, "no action lost or applied twice"
    # Nothing was sent again: the players act on the messages they already had.
    assert _shown(world, driver.players) == before


async def test_restart_mid_game_sends_nothing_again_and_old_buttons_work(
    world: World, bot: BotProcess
) -> None:
    # Every action by a DM control (command_rate 0), so old controls are what gets used.
    driver = world.driver(world.players[:2], 7, spectators=[world.spectator], command_rate=0.0)
    await driver.open(target=61)

    # Restart in the discard phase: the crib select menus were sent before it.
    await _restart_keeping_prompts(world, bot, driver)
    assert driver.snapshot().game.state.phase is Phase.DISCARD  # type: ignore[union-attr]
    await driver.play_out(stop_after=driver.steps + 2)

    # Restart in the play, after a few cards: the turn's buttons were sent before it.
    await driver.play_out(stop_after=driver.steps + 3)
    assert driver.snapshot().game.state.phase is Phase.PLAY  # type: ignore[union-attr]
    await _restart_keeping_prompts(world, bot, driver)
    end = await driver.play_deal()
    assert end.game is not None and end.game.state.deal_number == 2


async def test_killed_at_random_moments_the_bot_loses_nothing(
    world: World, bot: BotProcess
) -> None:
    """SIGKILL (no clean shutdown) at random moments across the first 24 moves of a game: just
    after a move was answered and before anything else was sent, and while a move is on its
    way in. Each time, started again, the bot brings every player's table and prompt to the
    stored game at once (it reconciles every game as it starts: waiting for a later look would
    leave it idle, see STALL); and the game finishes."""
    fd = world.fd
    rng = random.Random(13)
    driver = world.driver(world.players[:2], rng, spectators=[world.spectator], command_rate=0.2)
    await driver.open(target=61)
    answered_kills = random_kills = 0
    for move in range(24):
        snap = driver.snapshot()
        assert snap.status == "active" and snap.game is not None
        seat, prompt, action = await driver.next_move(snap)
        if move % 3 != 2:
            await driver.after(snap, action, await driver.act(snap, seat, action, prompt))
            continue
        if move % 6 == 2:
            # Killed the moment its answer is out: the move is saved and answered, and
            # nothing else (the table, the other player's prompt) was sent. Nothing waits on
            # the answer, so the edits (with the bot's token, or through the tokens that
            # reach the table and the hands) are held back (429) to keep them behind it.
            fd.rate_limit(
                r"/channels/\d+/messages|^PATCH /webhooks/\d+/[^/]+/messages/\d+$",
                times=20,
                retry_after=2.0,
            )
            hook = fd.after_request(r"/callback$", lambda _: bot.kill_now())
            sent = await driver.send(snap, seat, action, prompt)
            await sent.wait_for(lambda i: i.response is not None)
            assert hook.routes, "the bot was killed the moment the move was answered"
            answered_kills += 1
            await bot.kill()
            stored = driver.sync()
            assert stored.version == snap.version + 1
            assert driver.behind(stored), "the kill left the table and the prompt behind"
            fd.faults.clear()
        else:
            # Killed at a random moment while the move is on its way in, or being answered.
            await driver.send(snap, seat, action, prompt)
            await asyncio.sleep(rng.uniform(0.0, 0.15))
            random_kills += 1
            await bot.kill()
        await start_again(fd, bot)
        await driver.expect_current()
    assert answered_kills == 4 and random_kills == 4
    final = await driver.play_out()
    assert final.status == "finished"
    assert final.game is not None and final.game.state.result is not None


async def test_sigterm_answers_the_move_in_flight_sends_what_is_owed_and_exits_0(
    world: World, bot: BotProcess
) -> None:
    """A host stopping the worker (SIGTERM) while a move is being answered: the move is
    answered, every message it changed is sent, then the process exits with status 0."""
    fd = world.fd
    driver = world.driver(world.players[:2], 3, command_rate=0.0)
    await driver.open(target=61)
    await driver.play_out(stop_after=3)  # both discards and a card played
    snap = driver.snapshot()
    seat, prompt, action = await driver.next_move(snap)
    # The answer to the click is refused once with a 429: discord.py waits a second and sends
    # it again, so the move is saved but still being answered when SIGTERM comes.
    fd.rate_limit(r"/callback$", times=1, retry_after=1.0)
    click = await driver.send(snap, seat, action, prompt)
    await until(fd, lambda: any(r.status == 429 for r in fd.requests))
    stored = driver.sync()
    assert stored.version == snap.version + 1, "the move is saved, not yet answered"
    assert click.response is None and driver.behind(stored)
    assert await bot.terminate() == 0
    assert click.response is not None and click.response.type == 7, click
    assert not any("still owed" in line for line in bot.output)
    # Nothing more can come: what the move changed was sent before the process ended.
    await driver.expect_current(timeout=0.5)
    await start_again(fd, bot)
    await driver.play_out(stop_after=driver.steps + 2)


async def test_dropped_gateway_connections_lose_no_clicks(world: World, bot: BotProcess) -> None:
    """The connection to Discord drops (and Discord asks for a reconnect) mid-game: the client
    resumes, and clicks made meanwhile are replayed to it and applied once."""
    driver = world.driver(world.players[:2], 17)
    await driver.open(target=61)
    for turn in range(6):
        if turn % 2:
            await world.fd.request_reconnect()
        else:
            await world.fd.drop_gateway()
        await driver.play_out(stop_after=driver.steps + 2)
    deal = driver.snapshot().game.state.deal_number  # type: ignore[union-attr]
    end = await driver.play_deal()
    assert end.game is not None and end.game.state.deal_number == deal + 1


@pytest.mark.parametrize(
    ("made", "lapsed"),
    [
        pytest.param(r"^POST /webhooks/\d+/[^/]+$", False, id="a table or a hand by follow-up"),
        pytest.param(
            r"^POST /channels/\d+/messages$", True, id="a table or a hand by the bot token"
        ),
    ],
)
async def test_killed_between_a_post_and_keeping_its_id_the_bot_keeps_that_message(
    world: World, bot: BotProcess, made: str, lapsed: bool
) -> None:
    """SIGKILL the moment Discord made a new message of the game (the next deal's hand or
    table), before the bot kept its id. Started again, the bot finds that message (a post by the
    bot token is made again with the same nonce, which gives it back; a follow-up is looked for
    in the DM or the channel) and keeps it: no second table, no second hand with live controls.
    The table goes through the Start's token and the hands through the players' clicks' while
    they live: with ``lapsed``, Discord takes them no more (15 minutes on its clock), and the
    bot posts with its own."""
    fd = world.fd
    driver = world.driver(world.players[:2], 21, command_rate=0.0)
    await driver.open(target=61)
    snap = driver.snapshot()
    assert snap.game is not None
    while sum(len(snap.game.hand(s)) for s in range(snap.game.state.num_players)) != 1:
        snap = await driver.step(snap)
        assert snap.game is not None and snap.status == "active"
    if lapsed:
        fd.clock.advance(fd.token_lifetime)
    # The last card of the deal: its answer is followed by the next deal's table and hands.
    assert snap.game is not None
    dealt = snap.game.state.deal_number
    hook = fd.after_request(made, lambda _: bot.kill_now())
    seat = driver.actor(snap)
    prompt = await driver.prompt(snap, seat)
    await driver.send(snap, seat, driver.choose(snap, seat), prompt)
    await until(fd, lambda: hook.routes)
    await bot.kill()
    await start_again(fd, bot)
    moved = await driver.expect_current()
    assert moved.game is not None and moved.game.state.deal_number == dealt + 1
    deal = moved.game.state.deal_number
    tables = [m for m in fd.messages(world.general) if m.words().startswith(f"**Deal {deal}**")]
    assert len(tables) == 1, "one table for the new deal"
    for user in driver.players:
        hands = [m for m in fd.dms(user) if f"deal {deal}" in m.words().lower()]
        assert len(hands) == 1, f"{user.name} has one hand message for deal {deal}: {hands}"
    await driver.play_deal()
