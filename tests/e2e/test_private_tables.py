"""Games where the bot is not a member (a DM between people, a group DM), reached through a
user install: the table is the answer to `/cribbage new`, everything after goes through the
interactions' tokens, and the bot's own token is never used there."""

from __future__ import annotations

import random

import aiohttp

from bot.discord.places import NO_LEADERBOARD_HERE
from fakediscord.counters import Counters
from fakediscord.model import Channel, User
from fakediscord.testing import BotLauncher
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import latest_game_id, owned_messages
from tests.helpers.private_driver import PrivateDriver, bot_token_requests
from tests.helpers.table_driver import World, start_again, until
from tests.helpers.wire import call


async def test_a_lobby_in_a_dm_between_two_people_lives_on_its_interactions(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    dm = await _conversation(world, bots, al, bea)
    fd.counters = Counters()
    opened = await fd.slash(al, dm, "/cribbage new")
    table = opened.original
    assert table is not None and not opened.ephemeral, opened.words()
    game = latest_game_id(world.database, dm.id)
    joined = await fd.click(bea, table, f"crib:{game}:lobby:join")
    assert joined.response is not None and joined.response.type == 7
    started = await fd.click(al, table, f"crib:{game}:lobby:start")
    assert started.response is not None and started.response.type == 7
    await until(fd, lambda: [b for b in table.buttons() if b["label"] == "Your hand"])
    hand = await fd.click(bea, table, label="Your hand")
    assert hand.response is not None and hand.response.type == 6
    [mine] = await hand.wait_followups(1)
    assert mine.ephemeral and mine.selects(), mine
    await fd.quiet(0.3)
    assert fd.counters.rest_total == 0, fd.counters.rest
    assert owned_messages(world.database, game)["lobby"].message_id == table.id


@BOTH_DATABASES
async def test_a_whole_game_in_a_dm_between_friends_never_uses_the_bots_token(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    dm = await _conversation(world, bots, al, bea)
    since = len(fd.requests)
    driver = PrivateDriver(fd, dm, [al, bea], world.database, random.Random(24))
    await driver.open(target=61)
    final = await driver.play_out()
    assert final.status == "finished" and final.game is not None
    table = await driver.settled()
    assert final.game.result is not None
    assert table.attachments, "the final board"
    assert not list(table.buttons()), f"a finished table has no controls: {table.words()}"
    await fd.quiet(0.3)
    driver.check_now()
    assert driver.cards_seen > 100
    assert bot_token_requests(fd, since) == []
    # One public message in the whole game: the table, the answer to /cribbage new.
    assert fd.counters.private_messages == {dm.id: 1}
    assert all(c.response is not None and c.response.type == 7 for c in driver.clicks)
    # The game counts in each player's record outside servers, and in their head to head.
    result = final.game.result
    winner, loser = (al, bea) if result.winner == final.game.side_of(0) else (bea, al)
    record = await fd.slash(winner, dm, "/cribbage stats")
    assert record.words().startswith(f"**{winner.name}** outside servers"), record.words()
    assert "1 game" in record.words() and record.original is not None
    # Rated, but ranked among nobody: games outside servers are each player's own.
    rating = next(line for line in record.words().splitlines() if "Rating " in line)
    assert "#" not in rating, rating
    assert record.original.attachments, "the rating chart"
    h2h = await fd.slash(loser, dm, f"/cribbage stats against:{winner.name}")
    assert h2h.words().startswith(f"**{loser.name}** against **{winner.name}**: 1 game")
    assert f"{winner.name} won 1" in h2h.words()
    board = await fd.slash(al, dm, "/cribbage leaderboard")
    assert board.ephemeral and board.words() == NO_LEADERBOARD_HERE


async def test_against_the_computer_in_a_dm_with_a_friend_watching(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    dm = await _conversation(world, bots, al, bea)
    since = len(fd.requests)
    driver = PrivateDriver(fd, dm, [al], world.database, random.Random(8))
    await driver.open_against_computer("hard", watchers=(bea,))
    final = await driver.play_out()
    assert final.status == "finished"
    await _settled_unseen_and_tokens_only(
        driver, since
    )  # Bea, watching, never saw a card of a hand
    hands = [m for m in fd.visible_to(bea, dm) if m.ephemeral]
    assert hands == [], "Bea opened no hand, so none is hers to see"


async def test_a_whole_game_in_a_group_dm_of_three(world: World, bots: BotLauncher) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    group = await _conversation(world, bots, al, bea, cy)
    since = len(fd.requests)
    driver = PrivateDriver(fd, group, [bea, cy, al], world.database, random.Random(3))
    driver.hand_command_rate = 0.5  # some open their hand with /cribbage hand instead
    await driver.open(target=61)
    final = await driver.play_out()
    assert driver.typed_hands > 0 and driver.opened > driver.typed_hands
    assert final.status == "finished" and final.game is not None
    assert final.game.num_players == 3
    await _settled_unseen_and_tokens_only(driver, since)
    assert driver.cards_seen > 100
    assert fd.counters.private_messages == {group.id: 1}


async def test_tokens_that_all_lapse_halfway_leave_a_game_that_resumes_on_the_next_click(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    dm = await _conversation(world, bots, al, bea)
    since = len(fd.requests)
    driver = PrivateDriver(fd, dm, [al, bea], world.database, random.Random(7))
    first = await driver.open(target=61)
    halfway = await driver.play_out(moves=14)
    assert halfway.status == "active"
    await fd.quiet(0.5)
    fd.clock.advance(15 * 60 + 1)  # every interaction's token is dead now
    # The next move, from a hand: its click's answer updates the hand, and since no token
    # reaches the table any more, the table is posted again as that click's follow-up, saying
    # where the game stands; it is the table from then on.
    click = await driver.move(driver.snapshot())
    again = await until(fd, lambda: driver.table() if driver.table().id != first.id else None)
    assert again in click.followups and not again.ephemeral
    assert "**Deal " in again.words()
    # Later, a second pause: this time a move typed as a command resumes the game, and the
    # table comes back as that command's follow-up.
    later = await driver.play_out(moves=8)
    assert later.status == "active"
    await fd.quiet(0.5)
    fd.clock.advance(15 * 60 + 1)
    typed = await driver.type_move(driver.snapshot())
    third = await until(fd, lambda: driver.table() if driver.table().id != again.id else None)
    assert third in typed.followups and not third.ephemeral
    final = await driver.play_out()
    assert final.status == "finished"
    table = await driver.settled()
    assert table.id == third.id
    assert "game point" not in first.words() and "game point" not in again.words()
    await fd.quiet(0.3)
    driver.check_now()
    assert bot_token_requests(fd, since) == []
    lapsed = [r for r in fd.requests[since:] if r.status == 401]
    assert lapsed, "the bot tried a token Discord took as dead, once"
    assert fd.counters.private_messages[dm.id] == 3


async def test_the_bots_own_token_is_refused_there_and_never_tried(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    dm = await _conversation(world, bots, al, bea)
    since = len(fd.requests)
    driver = PrivateDriver(fd, dm, [al, bea], world.database, random.Random(5))
    table = await driver.open(target=61)
    await driver.play_out(moves=6)
    await fd.quiet(0.3)
    assert bot_token_requests(fd, since) == []
    # What the bot never tries, Discord refuses: a post, or an edit of the table, with its token.
    headers = {"Authorization": f"Bot {fd.bot_token}"}
    async with aiohttp.ClientSession(fd.api_base + "/", headers=headers) as http:
        base = f"/channels/{dm.id}/messages"
        status, error = await call(http, "POST", base, {"content": "hello"})
        assert (status, error["code"]) == (403, 50001)
        status, error = await call(http, "PATCH", f"{base}/{table.id}", {"content": "x"})
        assert (status, error["code"]) == (403, 50001)
    assert [r.status for r in fd.requests[since:] if "/channels/" in r.route] == [403, 403]


async def test_a_server_that_did_not_invite_the_bot_plays_the_same_and_survives_a_restart(
    world: World, bots: BotLauncher
) -> None:
    bot = await bots.process(database=world.database)
    fd = world.fd
    al, bea, _, _ = world.players
    elsewhere = fd.add_guild("Elsewhere", bot_member=False)
    lounge = elsewhere.add_text_channel("lounge")
    for user in (al, bea):
        elsewhere.add_member(user)
        fd.install_app(user)
    since = len(fd.requests)
    driver = PrivateDriver(fd, lounge, [al, bea], world.database, random.Random(11))
    table = await driver.open(target=61)
    await driver.play_out(moves=9)
    await fd.quiet(0.3)
    # A restart loses nothing: the game is stored like any other, and its tokens are kept.
    await bot.stop()
    await start_again(fd, bot)
    since_restart = len(fd.requests)
    final = await driver.play_out()
    assert final.status == "finished"
    assert (await driver.settled()).id == table.id
    await fd.quiet(0.3)
    driver.check_now()
    # Nothing on the bot's token there (the restart's own start-up requests aside).
    assert bot_token_requests(fd, since_restart) == []
    assert [r for r in bot_token_requests(fd, since) if str(lounge.id) in r] == []


async def _conversation(world: World, bots: BotLauncher, *people: User) -> Channel:
    """The bot started, and a DM (two people) or group DM between ``people``, each of whom
    installed the app: a place the bot is not a member of."""
    await bots.process(database=world.database)
    for user in people:
        world.fd.install_app(user)
    return world.fd.private_channel(*people)


async def _settled_unseen_and_tokens_only(driver: PrivateDriver, since: int) -> None:
    """Once every message shows the game: no viewer ever saw a card not theirs to see, and
    no request since ``since`` used the bot's own token."""
    await driver.settled()
    await driver.fd.quiet(0.3)
    driver.check_now()
    assert bot_token_requests(driver.fd, since) == []
