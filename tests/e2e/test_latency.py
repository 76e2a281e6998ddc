"""The bot on the internet (issue 46): every request to Discord takes 40-250 ms, split at random
between its way there and its way back, and every gateway event arrives late
(``fakediscord.latency``; each test's draws are seeded, so a run can be repeated). On the
internet two requests on two connections land in either order and an answer shows on Discord
before the bot hears it went: the races a quiet machine's emulator almost never shows are the
common case.

One of each kind of game, kept lean: a channel game with a kill of the bot process, a DM game
through a user install, a tournament round in threads, and a deal through the Activity; and a
private table's start, its last Join heard late. What
each checks elsewhere still holds: no message ever shows a moment older than one it showed, no
hand offers a control for a move already made, every interaction is answered within Discord's
3 s counted from when Discord sent it, and nothing is lost or posted twice
(``tests/helpers/delivery_checks.py``).
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
from pathlib import Path

import pytest

from engine.phase import Phase
from fakediscord import Channel, Message
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.activity_pages import (
    Knowledge,
    Players,
    all_checked,
    button,
    dealt_at_the_table,
    launched,
    open_page,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id
from tests.helpers.browser import open_browser
from tests.helpers.delivery_checks import answered_in_time
from tests.helpers.private_driver import PrivateDriver, bot_token_requests, conversation
from tests.helpers.table_driver import World, resign, start_again, until

# Every test here runs on the internet.
pytestmark = pytest.mark.latency(seed=46)

#: A pairing's thread: "Round 1 · Al vs Di".
PAIRING = re.compile(r"Round \d+ · (.+) vs (.+)$")


async def test_a_channel_game_with_a_kill(world: World, bot: BotProcess) -> None:
    """Al and Bea to 61 in #general, Bea moving from `/cribbage hand` now and then with her
    DMs open; the bot killed once the moment a move's answer reached Discord (before it heard
    so), and once while a move is on its way in. The game finishes with every check of the
    driver, nothing posted twice."""
    fd = world.fd
    rng = random.Random(46)
    al, bea = world.players[:2]
    driver = world.driver([al, bea], rng, spectators=[world.spectator], command_rate=0.2)
    await driver.open(target=61)
    kills = moves = 0
    while (snap := driver.snapshot()).status == "active" and snap.game is not None:
        driver.by_hand_command = {bea.id} if rng.random() < 0.3 else set()
        seat, prompt, action = await driver.next_move(snap)
        moves += 1
        if moves not in (7, 14):
            await driver.after(snap, action, await driver.act(snap, seat, action, prompt))
            continue
        if moves == 7:
            # Killed the moment its answer is in Discord's hands, on its way back to the bot.
            hook = fd.after_request(r"/callback$", lambda _: bot.kill_now())
            sent = await driver.send(snap, seat, action, prompt)
            await sent.wait_for(lambda i: i.response is not None, timeout=10)
            assert hook.routes
        else:
            # Killed while the move is on the wire, or being answered.
            await driver.send(snap, seat, action, prompt)
            await asyncio.sleep(rng.uniform(0.0, 0.3))
        await bot.kill()
        kills += 1
        await start_again(fd, bot)
        await driver.expect_current()
    assert kills == 2
    final = await driver.expect_current()
    assert final.status == "finished" and final.game is not None and final.game.state.result
    assert driver.check_nothing_doubled() >= 3
    # (A move sent as the bot is killed may be lost with it, as Discord would fail it.)
    fd.at_the_end(lambda: answered_in_time(fd, lost=1))


async def test_a_dm_game_through_a_user_install(world: World, bots: BotLauncher) -> None:
    """Al and Bea to 61 in their own DM, the bot not in it: the table and each hand live on
    interactions' tokens alone. Nobody is called to press *Your hand* while theirs is in
    front of them, and the bot's own token is never used."""
    fd = world.fd
    al, bea = world.players[:2]
    await bots.process(database=world.database)
    dm = conversation(fd, al, bea)
    since = len(fd.requests)
    driver = PrivateDriver(fd, dm, [al, bea], world.database, random.Random(46))
    driver.alternate_hand_command = True
    await driver.open(target=61)
    final = await driver.play_out()
    assert final.status == "finished"
    await driver.settled()
    driver.check_now()
    assert driver.check_mentions() >= 1, "the first deal calls whoever has not opened a hand"
    assert bot_token_requests(fd, since) == []
    fd.at_the_end(lambda: answered_in_time(fd))


#: A click's answer, as the bot sends it (``POST /interactions/{id}/{token}/callback``).
CALLBACK = r"^POST /interactions/\d+/[^/]+/callback$"


@pytest.mark.parametrize("people", [2, 3], ids=["dm", "group-dm"])
async def test_a_private_table_starts_on_its_lobby_though_the_last_join_is_heard_late(
    world: World, bots: BotLauncher, people: int
) -> None:
    """A DM (or group DM) game through user installs, started the moment the last Join shows
    on Discord, before the bot hears that Join's answer landed, as the internet makes common:
    that landing does not stand for the Start's answer, still on its way. The lobby itself
    becomes the table, through the Start click's token once its answer has landed; nothing
    is asked of a webhook Discord does not know yet (404 / 10015), and no second table is
    posted below the lobby."""
    fd = world.fd
    users = world.players[:people]
    await bots.process(database=world.database)
    place = conversation(fd, *users)
    opened = await fd.slash(users[0], place, f"/cribbage new players:{people}")
    lobby = opened.original
    assert lobby is not None and not opened.ephemeral, opened.words()
    game = latest_game_id(world.database, place.id)
    since = len(fd.requests)
    for user in users[1:]:
        if user is users[-1]:
            # The last Join's answer shows on Discord at once, and reaches the bot late ...
            fd.delay(CALLBACK, 1.2, back=True)
        joined = await fd.click(user, lobby, f"crib:{game}:lobby:join")
        assert joined.response is not None and joined.response.type == 7
    # ... after the Start, made meanwhile, whose own answer reaches Discord later still.
    fd.delay(CALLBACK, 1.8)
    started = await fd.click(users[0], lobby, f"crib:{game}:lobby:start")
    assert started.response is not None and started.response.type == 7

    def table() -> Message | None:
        return next(
            (
                m
                for m in place.messages
                if not m.ephemeral and any(b["label"] == "Your hand" for b in m.buttons())
            ),
            None,
        )

    dealt = await until(fd, table)
    assert dealt is lobby, [m.words()[:60] for m in place.messages]
    # The Start's answer, then the table over it.
    answered, first = lobby.history[-1].words(), lobby.words()
    assert "The game has started." in answered and "Deal 1" in first, (answered, first)
    assert [m for m in place.messages if not m.ephemeral] == [lobby]
    refused = [f"{r.route} -> {r.status}/{r.code}" for r in fd.requests[since:] if r.status >= 400]
    assert refused == []
    fd.at_the_end(lambda: answered_in_time(fd))


def _round_threads(world: World, round_: int) -> list[Channel]:
    return [
        c
        for c in world.guild.channels.values()
        if c.is_thread and c.parent is world.general and c.name.startswith(f"Round {round_} ·")
    ]


def _dealt(thread: Channel) -> bool:
    """Whether the game in a pairing's thread has been dealt (its first deal's table is
    there)."""
    return any("Deal 1" in m.words() for m in thread.messages)


def _board(world: World) -> Message | None:
    return next(
        (m for m in world.general.messages if m.author.bot and "tournament**" in m.words()),
        None,
    )


async def test_a_tournament_round_in_threads(world: World, bot: BotProcess) -> None:
    """A knockout of four: the round's two pairings are played in threads the bot opens, one
    deal of one of them through its players' hands (every check of the driver), then each
    game resigned; the next round is paired in a thread of its own."""
    fd = world.fd
    players = list(world.players)
    opened = await fd.slash(
        world.moderator, world.general, "/cribbage tournament new format:knockout target:61"
    )
    assert opened.ephemeral
    board = await until(fd, lambda: _board(world))
    for user in players:
        await fd.click(user, board, label="Join")
    await until(fd, lambda: "Entrants (4)" in board.words())
    await fd.slash(world.moderator, world.general, "/cribbage tournament start")
    threads = await until(fd, lambda: r if len(r := _round_threads(world, 1)) == 2 else None)
    by_name = {u.name: u for u in players}
    paired = {}
    for thread in threads:
        found = PAIRING.match(thread.name)
        assert found is not None, thread.name
        paired[thread.id] = [by_name[found.group(1)], by_name[found.group(2)]]
    first, second = sorted(threads, key=lambda t: t.id)
    driver = world.driver(paired[first.id], 46, channel=first, command_rate=0.2)
    await driver.take_seats()
    await driver.play_deal()
    await driver.expect_current()
    assert driver.check_nothing_doubled() >= 1
    for thread in (first, second):
        await until(fd, functools.partial(_dealt, thread))
        await resign(fd, paired[thread.id][0], thread)
    await until(fd, lambda: len(_round_threads(world, 2)) == 1)
    await until(fd, lambda: _dealt(_round_threads(world, 2)[0]))
    fd.at_the_end(lambda: answered_in_time(fd))


async def test_a_deal_through_the_activity(world: World, bots: BotLauncher, tmp_path: Path) -> None:
    """Al and Bea open the table inside Discord and play a deal there, some moves typed in
    the chat: each page shows every move, names no card its person may not know, and the
    channel's table and the players' hands follow the game as in any game (the driver's
    checks, without its moves)."""
    fd, general = world.fd, world.general
    al, bea = world.players[:2]
    await with_the_activity(fd, bots, world.database, world.guild)
    opened = await fd.slash(al, general, "/cribbage new players:2 target:61")
    lobby = opened.original
    assert lobby is not None
    instance = await launched(fd, bea, general)
    await fd.click(al, lobby, button(lobby, "Play at the table"))
    db = world.database
    game_id = latest_game_id(db, general.id)
    async with open_browser() as browser:
        al_page = await open_page(browser, fd, al, instance, phone=False)
        bea_page = await open_page(browser, fd, bea, instance, phone=True)
        pages = {0: al_page, 1: bea_page}
        await dealt_at_the_table(fd, db, game_id, al_page, bea_page)
        driver = world.driver([al, bea], 46, launch=True)
        snap = await driver.take_seats()
        knowledge = Knowledge({al.id: 0, bea.id: 1})
        players = Players(fd, db, game_id, general, {0: al, 1: bea}, pages)
        moves = 0
        assert snap.game is not None
        while snap.game is not None and snap.game.state.deal_number == 1:
            await all_checked(list(pages.values()), knowledge, game_id, snap)
            await players.make(snap, players.next(snap), chat=moves % 4 == 3)
            moves += 1
            snap = await driver.expect_current()
        assert moves >= 8 and snap.game is not None
        assert snap.game.state.phase is not Phase.OVER
        await all_checked(list(pages.values()), knowledge, game_id, snap)
        for page in pages.values():
            assert page.errors == [], (page.user.name, page.errors)
    assert driver.check_nothing_doubled() >= 1
    fd.at_the_end(lambda: answered_in_time(fd))
