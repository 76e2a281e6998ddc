"""Whole games from `/cribbage new` to the result, through Discord as players see it.

Every step is checked by the driver: the hand messages' controls against the engine's hand,
the table message against the engine's events, the database moving by one action, and no card
reaching anyone who may not see it (players and a spectator, every version of every message).
The three games (two players to 121, three and four to 61) are played at once, each in its own
channel by its own people, against one bot: the bot paces its edits per channel, so games side
by side take no longer than the longest of them, and with Discord's limits on in the emulator
it is never refused (no 429). The game for two is also the budget of issue 9: how many
messages the bot posts for a game.
"""

from __future__ import annotations

import asyncio
import statistics

from fakediscord import Channel, User
from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import Snapshot, rows
from tests.helpers.table_driver import TableDriver, World

pytestmark = BOTH_DATABASES


def _results(world: World, game_id: int) -> list[tuple[int, int, int]]:
    return rows(
        world.database,
        "SELECT seat, won, game_points FROM results WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )


def _table(world: World, name: str, players: int) -> tuple[Channel, list[User]]:
    """A channel of its own and `players` people of its own (so their DMs are theirs too)."""
    channel = world.guild.add_text_channel(name)
    people = [world.fd.add_user(f"{name.capitalize()}{i}") for i in range(players)]
    for user in people:
        world.guild.add_member(user)
    return channel, people


async def _whole_game(world: World, driver: TableDriver, target: int) -> Snapshot:
    await driver.open(target=target)
    final = await driver.play_out()
    assert final.status == "finished"
    assert final.game is not None and final.game.state.result is not None
    result = final.game.state.result
    assert max(result.scores) >= target
    rows = _results(world, driver.game_id)
    assert [seat for seat, _, _ in rows] == list(range(len(driver.players)))
    for seat, won, points in rows:
        assert bool(won) == (final.game.side_of(seat) == result.winner)
        assert points == result.game_points
    assert driver.cards_seen > 50 * len(driver.players), "the hidden-card check looked"
    # The last message of the channel is the result, with the board.
    last = driver.table_messages()[-1]
    assert "game point" in last.words() and last.attachments
    return final


def _budget(driver: TableDriver) -> None:
    """Issue 9's budget for a game between people who play promptly: at most 2 new channel
    messages per deal (median) besides the lobby and the result, at most 1.5 new DMs per
    player per deal (median), every click answered by updating its own message."""
    owned = driver.owned()
    apart = {owned["lobby"].message_id, owned["result"].message_id}
    deals = sorted(driver.created)
    channel = [
        sum(1 for where, mid in driver.created[d] if where == "channel" and mid not in apart)
        for d in deals
    ]
    assert statistics.median(channel) <= 2, channel
    for user in driver.players:
        dms = [sum(1 for where, _ in driver.created[d] if where == user.id) for d in deals]
        assert statistics.median(dms) <= 1.5, (user.name, dms)
    assert len(deals) >= 5 and len(driver.clicks) > 40
    assert all(c.response is not None and c.response.type == 7 for c in driver.clicks)
    # Some moves were made by slash command: the driver saw the hand message they left behind
    # lose its controls each time (and, at every new deal, the last deal's hand closed).
    assert driver.commands > 5


async def test_whole_games_for_two_three_and_four_at_once(world: World, bot: BotProcess) -> None:
    drivers = []
    for name, players, seed in (("two", 2, 1), ("three", 3, 2), ("four", 4, 3)):
        channel, people = _table(world, name, players)
        drivers.append(world.driver(people, seed, channel=channel, spectators=[world.spectator]))
    two, three, four = drivers
    await asyncio.gather(
        _whole_game(world, two, 121), _whole_game(world, three, 61), _whole_game(world, four, 61)
    )
    _budget(two)
    # Under Discord's limits (on in the emulator) the bot paced itself: it was never refused.
    assert not world.fd.counters.rate_limited, world.fd.counters.rate_limited
