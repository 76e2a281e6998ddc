"""Games where the bot is not a member (a DM between people, a group DM), reached through a
user install: the table is the answer to `/cribbage new`, everything after goes through the
interactions' tokens, and the bot's own token is never used there."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp

from bot.core.base.places import NO_LEADERBOARD_HERE
from bot.core.base.refusals import GAME_EXPIRED, game_over
from bot.core.base.text import plural
from bot.core.base.views import HAND_BUTTON
from bot.core.games.endings import cancelled_note
from bot.core.messages.private_table import MOVED_ON
from engine.cards import Card
from engine.phase import Phase
from fakediscord import FakeDiscord
from fakediscord.counters import Counters
from fakediscord.interactions import Interaction
from fakediscord.model import USE_EXTERNAL_APPS, Channel, Message, User
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import (
    Snapshot,
    latest_game_id,
    logged_actions,
    owned_messages,
    shown_versions,
)
from tests.helpers.in_process import clocked_service, everywhere
from tests.helpers.pair import start_pair
from tests.helpers.private_driver import (
    PrivateDriver,
    bot_token_requests,
    conversation,
    uninvited_server,
)
from tests.helpers.private_hands import newest_control
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
    assert owned_messages(world.database, game)["lobby"].message_id == table.id
    counters = fd.counters

    def tokens_only() -> None:
        assert counters.rest_total == 0, counters.rest

    fd.at_the_end(tokens_only)


@BOTH_DATABASES
async def test_a_whole_game_in_a_dm_between_friends_never_uses_the_bots_token(
    world: World, bots: BotLauncher
) -> None:
    driver, since, _ = await _playing_in_a_dm(world, bots, 24)
    fd, dm, (al, bea) = driver.fd, driver.channel, driver.players
    final = await driver.play_out()
    assert final.status == "finished" and final.game is not None
    table = await _settled_unseen_and_tokens_only(driver, since)
    assert final.game.state.result is not None
    assert table.attachments, "the final board"
    labels = [b["label"] for b in table.buttons()]
    assert labels == ["🔍 Review", "🔁 Rematch"], f"a finished table offers its result's: {labels}"
    assert driver.cards_seen > 100
    # One public message in the whole game: the table, the answer to /cribbage new.
    assert fd.counters.private_messages == {dm.id: 1}
    assert all(c.response is not None and c.response.type == 7 for c in driver.clicks)
    result = final.game.state.result
    winner, loser = (al, bea) if result.winner == final.game.side_of(0) else (bea, al)

    # The review, as in a server: the clicker's own, privately, paged in place; and the
    # shuffles checked; all through the interactions, and no card of another's hand shown.
    asked = len(fd.requests)
    opened = await fd.click(winner, table, label="🔍 Review")
    # (The first review starts the review worker: its answer may follow a deferral.)
    await opened.wait_for(
        lambda i: any("Review of game" in m.words() for m in i.messages()), timeout=60
    )
    summary = next(m for m in opened.messages() if "Review of game" in m.words())
    assert summary.ephemeral_for is winner and f"— {winner.name}**" in summary.words()
    turned = await fd.click(winner, summary, label="Next ▶")
    assert turned.response is not None and turned.response.type == 7
    assert "**Deal 1**" in summary.words() and "Page 2 of" in summary.words(), summary.words()
    back = await fd.click(winner, summary, label="◀ Previous")
    assert back.response is not None and back.response.type == 7
    assert "Page 1 of" in summary.words()
    checked = await fd.slash(loser, dm, "/cribbage verify")
    await checked.wait_settled(timeout=60)
    assert checked.ephemeral and "Deal 1: ✅ SHA-256 of seed" in checked.words(), checked.words()
    driver.check_now()
    _never_the_bots_token(fd, asked)
    assert fd.counters.private_messages == {dm.id: 1}

    # The game counts in each player's record outside servers, and in their head to head,
    # with the accuracy of the reviewed game.
    record = await fd.slash(winner, dm, "/cribbage stats")
    assert record.words().startswith(f"**{winner.name}** outside servers"), record.words()
    assert "**Accuracy**" in record.words() and "last 1 reviewed game" in record.words()
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


async def test_with_two_processes_a_game_in_a_dm_goes_through_both(
    fake_discord: FakeDiscord, bots: BotLauncher, postgres_url: str
) -> None:
    """The process that answers the clicks (every one of this DM's, on shard 0) is not the
    one that sends the other messages (on shard 1): the game still plays out on interactions'
    tokens alone, every message brought up to date, no card seen that is not one's own."""
    world = (await start_pair(fake_discord, bots, postgres_url, everywhere=True)).world
    fd = world.fd
    al, bea = world.players[:2]
    dm = conversation(fd, al, bea)
    driver = PrivateDriver(fd, dm, [al, bea], world.database, random.Random(29))
    since = len(fd.requests)
    await driver.open(target=61)
    final = await driver.play_out()
    assert final.status == "finished" and final.game is not None
    await _settled_unseen_and_tokens_only(driver, since)
    assert fd.counters.private_messages == {dm.id: 1}, "one table, answering /cribbage new"


async def test_against_the_computer_in_a_dm_with_a_friend_watching(
    world: World, bots: BotLauncher
) -> None:
    driver, since = await _two_in_a_dm(world, bots, 8, seated=1)
    fd, dm, bea = driver.fd, driver.channel, world.players[1]
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
    driver.alternate_hand_command = True  # every other hand is opened by /cribbage hand
    await driver.open(target=61)
    final = await driver.play_out()
    assert driver.typed_hands > 0 and driver.opened > driver.typed_hands
    assert final.status == "finished" and final.game is not None
    assert final.game.state.num_players == 3
    await _settled_unseen_and_tokens_only(driver, since)
    assert driver.cards_seen > 100
    assert fd.counters.private_messages == {group.id: 1}


async def test_tokens_that_all_lapse_over_a_restart_leave_a_game_that_resumes_on_the_next_click(
    world: World, bots: BotLauncher
) -> None:
    driver, start, first = await _playing_in_a_dm(world, bots, 7)
    fd, dm = driver.fd, driver.channel
    await _pause_after(driver, 14)  # every interaction's token is dead now
    # And the bot restarts meanwhile: all it has of the game is what it stored, tokens that
    # no longer reach anything.
    bot = bots.bots[-1]
    assert isinstance(bot, BotProcess)
    await bot.stop()
    assert bot_token_requests(fd, start) == []
    await start_again(fd, bot)
    since = len(fd.requests)  # (the restart's own start-up requests aside)
    # The next move, from a hand: its click's answer updates the hand, and since no token
    # reaches the table any more, the table is posted again as a follow-up of that click (or
    # of Your hand, pressed before it), saying where the game stands; it is the table from
    # then on.
    before = set(fd.interactions)
    await driver.move(driver.snapshot())
    again = await until(fd, lambda: driver.table() if driver.table().id != first.id else None)
    fresh = [i for key, i in fd.interactions.items() if key not in before]
    assert any(again in i.followups for i in fresh) and not again.ephemeral
    assert "**Deal " in again.words()
    # Later, a second pause: this time a move typed as a command resumes the game, and the
    # table comes back as that command's follow-up.
    await _pause_after(driver, 8)
    typed = await driver.type_move(driver.snapshot())
    third = await until(fd, lambda: driver.table() if driver.table().id != again.id else None)
    assert third in typed.followups and not third.ephemeral
    final = await driver.play_out()
    assert final.status == "finished"
    table = await _settled_unseen_and_tokens_only(driver, since)
    assert table.id == third.id
    assert "game point" not in first.words() and "game point" not in again.words()
    lapsed = [r for r in fd.requests[start:] if r.status == 401]
    assert lapsed, "the bot tried a token Discord took as dead, once"
    assert fd.counters.private_messages[dm.id] == 3
    assert [r for r in bot_token_requests(fd, start) if str(dm.id) in r] == []


async def test_a_token_whose_follow_ups_are_used_up_carries_no_table_and_is_not_tried_again(
    world: World, bots: BotLauncher
) -> None:
    """Discord takes 5 follow-ups per interaction here (a sixth: 400 / 40094). After a pause,
    the next move's token is the only one alive; if it has had its follow-ups, the table waits
    for the next interaction, which brings it back, and the full token is not tried again."""
    driver, since, first = await _playing_in_a_dm(world, bots, 7)
    fd = driver.fd
    await _pause_after(driver, 14)  # every interaction's token is dead now
    # (The first interaction after the pause: the move, or Your hand pressed before it.)
    full = _follow_ups_used_up(fd)
    await driver.move(driver.snapshot())

    def tried() -> list[tuple[int, int | None]]:
        return _posted_through(fd, full[0], since)

    # Nobody acts until the bot has found that no token reaches the table and tried the only
    # live one (a player's next interaction, were it first, would rightly be used instead).
    assert await until(fd, tried) == [(400, 40094)]
    assert driver.table().id == first.id, "no other token could post the table again"
    # The next interactions bring it back (a move's token posting it again, or a Your hand
    # pressed on it editing it), and it follows the game to its end.
    final = await driver.play_out()
    assert final.status == "finished"
    await _settled_unseen_and_tokens_only(driver, since)
    assert tried() == [(400, 40094)], "tried once, then never again"


async def test_after_a_used_up_token_a_player_nothing_reaches_brings_the_table_back(
    world: World, bots: BotLauncher
) -> None:
    """As above, with the game then waiting on someone nothing can reach: after a pause Bea
    makes a deal's last discard through a token whose follow-ups are used up, and Al leads
    the play. No token reaches his hands or the table, so nothing tells him; the copy of his
    hand he left behind (he opened it twice) still shows the first deal's crib menu. He
    presses Your hand on the table as it was: that click's token brings the table up to date
    where it is, his hand follows, and the game goes on to its end."""
    driver, since, first = await _playing_in_a_dm(world, bots, 7)
    fd, (al, _) = driver.fd, driver.players
    older = await _hand_opened_twice(driver, al)
    first_menu = f"crib:{driver.game_id}:discard:1"
    # On to the discard of a later deal Bea deals (Al leads its play): Al discards first.
    snap = driver.snapshot()
    while not _bea_deals_and_both_discard(snap):
        snap = await driver.play_out(moves=1)
        assert snap.status == "active", "the game ended before Bea dealt again"
    await driver.move(snap, seat=0)
    await _pause_after(driver, 0)  # every interaction's token is dead now
    full = _follow_ups_used_up(fd)
    await driver.move(driver.snapshot())  # Bea's, the deal's last discard
    assert await until(fd, lambda: _posted_through(fd, full[0], since)) == [(400, 40094)]
    snap = driver.snapshot()
    assert (
        snap.game is not None and snap.game.state.phase is Phase.PLAY and snap.game.state.turn == 0
    )

    def this_deal() -> str:
        return first.words().rsplit("**Deal ", 1)[-1]

    assert driver.table().id == first.id and "Al plays" not in this_deal()
    assert newest_control([older], first_menu), "the copy left behind shows its menu still"
    # Al presses Your hand (his older copy offers him nothing he can do) and plays.
    opened = driver.opened
    await driver.play_out(moves=1)
    assert driver.opened == opened + 1
    await until(fd, lambda: "Al plays" in this_deal())
    final = await driver.play_out()
    assert final.status == "finished"
    assert (await _settled_unseen_and_tokens_only(driver, since)).id == first.id
    assert _posted_through(fd, full[0], since) == [(400, 40094)], "tried once, no more"


async def test_a_table_posted_again_that_discord_makes_private_is_not_kept(
    world: World, bots: BotLauncher
) -> None:
    """In a server that did not install the app, without Use External Apps every answer is
    ephemeral: the table posted again through such a token would be its mover's alone. It is
    deleted, that token carries nothing more, and the table stays the one everyone sees."""
    await bots.process(database=world.database)
    fd = world.fd
    al, bea, _, _ = world.players
    lounge = uninvited_server(fd, al, bea)
    assert lounge.guild is not None
    since = len(fd.requests)
    driver = PrivateDriver(fd, lounge, [al, bea], world.database, random.Random(7))
    first = await driver.open(target=61)
    await _pause_after(driver, 14)  # every interaction's token is dead now
    lounge.guild.deny(USE_EXTERNAL_APPS)  # by a moderator
    before = set(fd.interactions)
    await driver.move(driver.snapshot())

    def copies() -> list[tuple[Interaction, Message]]:
        # (The first interaction after the pause is the move, or Your hand pressed before it
        # when the table's mention came first: either one's token carries the table.)
        fresh = [i for key, i in fd.interactions.items() if key not in before]
        return [(i, m) for i in fresh for m in i.followups if "**Deal " in m.words()]

    # Nobody acts until the bot has posted the table again and deleted that private copy.
    await until(fd, lambda: all(m.deleted for _, m in copies()) and copies())
    [(carrier, copy)] = copies()
    assert copy.ephemeral and copy.deleted, copy
    assert driver.table().id == first.id and not first.deleted
    hook = f"POST /webhooks/{fd.application_id}/{carrier.token}"

    def nothing_tried_again() -> None:
        posts = [r for r in fd.requests[since:] if r.route.startswith(hook)]
        assert len(posts) == len(carrier.followups), "nothing tried through it again"

    fd.at_the_end(nothing_tried_again)
    _never_the_bots_token(fd, since)


async def test_after_a_long_pause_a_refused_click_or_command_brings_the_table_back(
    world: World, bots: BotLauncher
) -> None:
    driver, since, first = await _playing_in_a_dm(world, bots, 12)
    fd, dm, (al, bea) = driver.fd, driver.channel, driver.players
    # Al opens his hand twice: the first copy is left behind, its crib menu soon stale.
    stale = await _hand_opened_twice(driver, al)
    await _pause_after(driver, 6)  # both have discarded, and the play is under way
    menu = next(iter(stale.selects()))
    picked = [str(o["value"]) for o in menu["options"][: int(menu["min_values"])]]

    # A stale menu, refused: the refusal goes to Al alone, and since no token reaches the
    # table any more, the table comes back as that click's follow-up.
    asked = len(fd.requests)
    refused = await fd.select(al, stale, str(menu["custom_id"]), picked)
    again = await _table_back(driver, first, refused)

    # Each token Discord says is dead is tried once (the table's own first), no more.
    def dead() -> list[str]:
        return [
            r.route.split("/webhooks/")[1].split("/")[1]
            for r in fd.requests[asked:]
            if r.status == 401
        ]

    assert dead()

    def each_dead_token_tried_once() -> None:
        assert len(dead()) == len(set(dead())), dead()

    fd.at_the_end(each_dead_token_tried_once)
    # A bad command after a second pause, refused: the same.
    await _pause_after(driver, 4)
    typed = await fd.slash(bea, dm, "/cribbage play card:ZZ")
    third = await _table_back(driver, again, typed)
    # Two refused at once after a third pause: the table comes back once.
    await _pause_after(driver, 4)
    posted = fd.counters.private_messages[dm.id]
    both = await asyncio.gather(
        fd.select(al, stale, str(menu["custom_id"]), picked),
        fd.slash(bea, dm, "/cribbage join"),
    )
    fourth = await until(fd, lambda: driver.table() if driver.table().id != third.id else None)
    assert any(fourth in i.followups for i in both)
    assert fd.counters.private_messages[dm.id] == posted + 1, "one table, not two"
    assert all(i.ephemeral and i.response is not None for i in both)

    final = await driver.play_out()
    assert final.status == "finished"
    assert (await _settled_unseen_and_tokens_only(driver, since)).id == fourth.id
    assert fd.counters.private_messages[dm.id] == 4


async def test_a_game_that_expired_after_a_long_pause_is_brought_back_once_by_the_next_click(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    # Nobody moved for a week: the game ends with no interaction at its table to carry that,
    # and no token reaches it. The next click there is refused, and its token brings the
    # table back saying how the game ended (it kept saying whose turn it was), once: later
    # commands there post it no more.
    fd = fake_discord
    al, bea, cy = (fd.add_user(name) for name in ("Al", "Bea", "Cy"))
    now = [datetime.now(UTC)]
    database = tmp_path / "bot.db"
    async with everywhere(bots, database, lambda store: clocked_service(store, now)) as core:
        group = conversation(fd, al, bea, cy)
        driver = PrivateDriver(fd, group, [al, bea], database, random.Random(5))
        first = await driver.open(target=61)
        await _pause_after(driver, 5)
        now[0] += timedelta(days=8)
        assert await core.housekeeping.expire_idle() == [driver.game_id]
        refused = await fd.click(cy, first, label="Your hand")
        back = await _table_back(driver, first, refused, "Nobody moved in this game for")
        assert refused.words() == GAME_EXPIRED
        assert not list(back.buttons()), "an expired table offers nothing"
        posted = fd.counters.private_messages[group.id]
        fd.clock.advance(15 * 60 + 1)
        for line in ("/cribbage status", "/cribbage hand"):
            later = await fd.slash(bea, group, line)
            assert later.ephemeral and later.followups == [], later.words()
        assert fd.counters.private_messages[group.id] == posted


async def test_a_game_resigned_for_a_player_who_deleted_their_data_elsewhere_comes_back_with_it(
    world: World, bots: BotLauncher
) -> None:
    # Bea deletes her data from her DM with the bot, after a long pause at the table: her game
    # is resigned for her there, where no token reaches. The next command at the table brings
    # it back with the result.
    driver, _, first = await _playing_in_a_dm(world, bots, 9)
    fd, dm, (al, bea) = driver.fd, driver.channel, driver.players
    await _pause_after(driver, 5)
    asked = await fd.slash(bea, fd.dm_channel(bea), "/cribbage privacy")
    assert asked.original is not None
    await fd.click(bea, asked.original, label="Delete my data")
    done = await fd.click(bea, asked.original, label="Yes, delete my data")
    assert "1 game was ended first" in done.words(), done.words()
    status = await fd.slash(al, dm, "/cribbage status")
    back = await _table_back(driver, first, status, "data was deleted — 🏆 Al wins")
    assert "data was deleted — 🏆 Al wins" in status.words()
    # No Rematch: Bea's seat is a former player's now (a seat kept for her would wait for
    # nobody), as series.no_rematch says; the table offered one its click then refused.
    assert [b["label"] for b in back.buttons()] == ["🔍 Review"]


async def test_a_resignation_confirmed_long_after_it_was_asked_reaches_the_table(
    world: World, bots: BotLauncher
) -> None:
    # Bea types /cribbage resign after a long pause (its token brings the table back), then
    # presses Yes more than 15 minutes later: no token the game keeps reaches the table, and
    # her Yes is answered on the question, a message the game does not keep. Its token
    # carries the result to the table, which kept saying whose turn it was.
    driver, _, first = await _playing_in_a_dm(world, bots, 9)
    fd, dm, bea = driver.fd, driver.channel, driver.players[1]
    await _pause_after(driver, 5)
    asked = await fd.slash(bea, dm, "/cribbage resign")
    question = asked.original
    assert question is not None and question.ephemeral
    back = await _table_back(driver, first, asked)
    fd.clock.advance(15 * 60 + 1)
    yes = await fd.click(bea, question, label="Yes, resign")
    assert yes.response is not None and yes.response.type == 7
    assert question.words() == "You resigned."
    result = await until(fd, lambda: driver.table() if driver.table().id != back.id else None)
    assert result in yes.followups
    await until(fd, lambda: "Bea resigned — 🏆 Al wins" in result.words())
    assert [b["label"] for b in result.buttons()] == ["🔍 Review", "🔁 Rematch"]


async def test_someone_without_the_app_resigns_from_the_tables_resign_button(
    world: World, bots: BotLauncher
) -> None:
    # Bea never added the app: she plays from the table's buttons alone, and can type no
    # /cribbage command, /cribbage resign included. The table's Resign asks her privately
    # (a watcher is told it is not theirs), and her Yes ends the game on the table.
    fd = world.fd
    al, bea, cy, _ = world.players
    await bots.process(database=world.database)
    fd.install_app(al)
    group = fd.private_channel(al, bea, cy)
    driver = PrivateDriver(fd, group, [al, bea], world.database, random.Random(4))
    await driver.open(target=61)
    await driver.play_out(moves=3)
    table = await driver.settled(lambda t: "Resign" in [b["label"] for b in t.buttons()])
    assert [b["label"] for b in table.buttons()] == ["Your hand", "Resign"]
    watching = await fd.click(cy, table, label="Resign")
    assert watching.ephemeral and watching.words() == "You're not playing in this game."
    asked = await fd.click(bea, table, label="Resign")
    assert asked.response is not None and asked.response.type == 4 and asked.ephemeral
    question = asked.original
    assert question is not None and question.words().startswith("Resign this game?")
    yes = await fd.click(bea, question, label="Yes, resign")
    assert yes.response is not None and yes.response.type == 7
    final = await driver.settled()
    assert "Bea resigned — 🏆 Al wins" in final.words()
    assert driver.snapshot().status == "finished"
    driver.check_now()


async def test_a_whole_game_counted_by_hand_in_a_dm_claims_and_muggins_go_to_each_alone(
    world: World, bots: BotLauncher
) -> None:
    # (A long muggins window: each claim is answered by a click, never by the clock.)
    driver, since = await _two_in_a_dm(world, bots, 31, env={"MUGGINS_SECONDS": "600"})
    fd, dm = driver.fd, driver.channel
    driver.count_plan = ["over", "short", "typed", "wrong-call", "short-pass"]
    await driver.open(target=61, options="counting:manual")
    final = await driver.play_out()
    assert final.status == "finished" and final.game is not None
    assert driver.count_plan == [], "every kind of claim was made"
    assert driver.answers.count("muggins") >= 2 and "pass" in driver.answers
    await _settled_unseen_and_tokens_only(driver, since)
    # The count menus went to whoever counted, Muggins! and No muggins to their opponent,
    # each on a message only they see.
    assert driver.check_count_controls() > len(driver.claims)
    # The table said every claim, and the points a short one missed, as the show went.
    said = _said_in(driver)
    names = [u.name for u in driver.players]
    for claim in driver.claims:
        assert f"{names[claim.seat]} claims {claim.points} " in said, claim
    over = next(c for c in driver.claims if c.plan == "over")
    points_over = plural(over.points - over.worth, "point")
    owner, taker = names[over.seat], names[1 - over.seat]
    assert f"Too many! {taker} pegs the {points_over} {owner} claimed over" in said
    taken = next(c for c in driver.claims if c.plan == "short")
    caller = names[1 - taken.seat]
    missed = plural(taken.worth - taken.points, "point")
    assert f"Muggins! {caller} takes the {missed} {names[taken.seat]} missed" in said
    assert fd.counters.private_messages == {dm.id: 1}


async def test_a_count_left_too_long_in_a_dm_is_made_by_the_clock(
    world: World, bots: BotLauncher
) -> None:
    driver, since = await _two_in_a_dm(world, bots, 41, env={"COUNT_TIMEOUT_SECONDS": "5"})
    await driver.open(target=61, options="counting:manual")
    snap = driver.snapshot()
    while snap.game is not None and snap.game.state.phase is not Phase.SHOW:
        await driver.move(snap)
        snap = driver.snapshot()
    # Nobody counts: each hand in turn is counted for its owner, in full, without muggins.
    while snap.game is not None and snap.game.state.phase is Phase.SHOW:
        snap = await driver.left_alone(snap)
    assert snap.status == "active" and snap.game is not None and snap.game.state.deal_number == 2
    actions = logged_actions(world.database, driver.game_id)
    counted = [a["type"] for a in actions if a["type"] in ("claim", "auto_count")]
    assert counted == ["auto_count"] * 3, "nobody claimed"
    # The table, while the next crib is made, shows the deal before's show as the clock made it.
    table = await driver.settled(lambda table: "**Deal 2**" in table.words())
    assert table.words().count("Time ran out") == 3, "two hands and the crib"
    await _settled_unseen_and_tokens_only(driver, since)


async def test_the_bots_own_token_is_refused_there_and_never_tried(
    world: World, bots: BotLauncher
) -> None:
    """Nothing of a game in a DM goes through the bot's own token, the autocomplete of each
    player's own cards included; and what it never tries, Discord would refuse."""
    driver, since = await _two_in_a_dm(world, bots, 5)
    fd, dm = driver.fd, driver.channel
    table = await driver.open()
    # Autocomplete offers each player their own cards, answered on the interaction itself.
    dealt = driver.snapshot().game
    assert dealt is not None
    for seat, user in enumerate(driver.players):
        offered = await fd.autocomplete(user, dm, "/cribbage discard cards:")
        pairs = {frozenset(Card.parse(code) for code in c["value"].split()) for c in offered}
        assert pairs == {frozenset(p) for p in itertools.combinations(dealt.hand(seat), 2)}
    snap = await driver.play_out(moves=6)
    game = snap.game
    assert game is not None and game.state.phase is Phase.PLAY and game.state.turn is not None
    mover, other = driver.players[game.state.turn], driver.players[1 - game.state.turn]
    offered = await fd.autocomplete(mover, dm, "/cribbage play card:")
    assert [c["value"] for c in offered] == [c.code for c in game.playable_cards(game.state.turn)]
    assert await fd.autocomplete(other, dm, "/cribbage play card:") == []
    assert bot_token_requests(fd, since) == []
    # What the bot never tries, Discord refuses: a post, or an edit of the table, with its token.
    headers = {"Authorization": f"Bot {fd.bot_token}"}
    async with aiohttp.ClientSession(fd.api_base + "/", headers=headers) as http:
        base = f"/channels/{dm.id}/messages"
        status, error = await call(http, "POST", base, {"content": "hello"})
        assert (status, error["code"]) == (403, 50001)
        status, error = await call(http, "PATCH", f"{base}/{table.id}", {"content": "x"})
        assert (status, error["code"]) == (403, 50001)

    def the_tests_own_two_alone() -> None:
        assert [r.status for r in fd.requests[since:] if "/channels/" in r.route] == [403, 403]

    the_tests_own_two_alone()
    fd.at_the_end(the_tests_own_two_alone)


async def test_a_server_that_did_not_invite_the_bot_plays_the_same_and_survives_a_restart(
    world: World, bots: BotLauncher
) -> None:
    bot = await bots.process(database=world.database)
    fd = world.fd
    al, bea, _, _ = world.players
    lounge = uninvited_server(fd, al, bea)
    since = len(fd.requests)
    driver = PrivateDriver(fd, lounge, [al, bea], world.database, random.Random(11))
    table = await driver.open(target=61)
    await driver.play_out(moves=9)
    # A restart loses nothing: the game is stored like any other, and its tokens are kept.
    await bot.stop()
    await start_again(fd, bot)
    since_restart = len(fd.requests)
    final = await driver.play_out()
    assert final.status == "finished"
    # Nothing on the bot's token there (the restart's own start-up requests aside).
    assert (await _settled_unseen_and_tokens_only(driver, since_restart)).id == table.id
    assert [r for r in bot_token_requests(fd, since) if str(lounge.id) in r] == []


async def test_a_game_cancelled_in_a_group_dm_is_shown_by_status_where_a_move_sends_you(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    group = await _conversation(world, bots, al, bea, cy)
    opened = await fd.slash(al, group, "/cribbage new")
    assert opened.original is not None
    await fd.click(bea, opened.original, label="Join")
    cancelled = await fd.click(al, opened.original, label="Cancel")
    assert cancelled.response is not None and cancelled.response.type == 7
    # A move there says the game is over and sends Bea to /cribbage status, which shows how
    # it ended (it said "There's no game in this channel", in a conversation).
    moved = await fd.slash(bea, group, "/cribbage play card:5H")
    assert moved.ephemeral and moved.words() == game_over("this conversation"), moved.words()
    status = await fd.slash(bea, group, "/cribbage status")
    assert status.ephemeral and cancelled_note("Al") in status.words(), status.words()
    assert "`/cribbage new`" in status.words()


async def _conversation(
    world: World, bots: BotLauncher, *people: User, env: dict[str, str] | None = None
) -> Channel:
    """The bot started (with ``env``), and a DM (two people) or group DM between ``people``,
    each of whom installed the app: a place the bot is not a member of."""
    await bots.process(database=world.database, env=env)
    return conversation(world.fd, *people)


async def _two_in_a_dm(
    world: World,
    bots: BotLauncher,
    seed: int,
    env: dict[str, str] | None = None,
    *,
    seated: int = 2,
) -> tuple[PrivateDriver, int]:
    """A driver for Al and Bea in their DM (the bot started with ``env``), playing with the
    random choices of ``seed`` (``seated`` 1: Al alone plays, Bea watches); and how many
    requests had been made by then."""
    al, bea, _, _ = world.players
    dm = await _conversation(world, bots, al, bea, env=env)
    players = [al, bea][:seated]
    driver = PrivateDriver(world.fd, dm, players, world.database, random.Random(seed))
    return driver, len(world.fd.requests)


async def _playing_in_a_dm(
    world: World, bots: BotLauncher, seed: int
) -> tuple[PrivateDriver, int, Message]:
    """Al and Bea's game to 61 opened and started in their DM (:func:`_two_in_a_dm`): its
    driver, how many requests had been made before it opened, and its table."""
    driver, since = await _two_in_a_dm(world, bots, seed)
    return driver, since, await driver.open(target=61)


async def _pause_after(driver: PrivateDriver, moves: int) -> None:
    """``moves`` more moves, then a pause longer than an interaction's token lives (the
    emulator's clock is moved on): no token reaches any message of the game any more."""
    snap = await driver.play_out(moves=moves)
    assert snap.status == "active"

    def table_shows_the_last_move() -> bool:
        # (The table, kept as the answer to /cribbage new or a copy posted since, is edited
        # last of a move's messages: each prompt goes first.)
        shown = shown_versions(driver.database, driver.game_id)
        tables = [v for key, (v, _) in shown.items() if key == "lobby" or key.startswith("table")]
        unconfirmed = any(pending for _, pending in shown.values())
        return bool(tables) and max(tables) >= snap.version and not unconfirmed

    await until(driver.fd, table_shows_the_last_move)
    driver.fd.clock.advance(15 * 60 + 1)


async def _hand_opened_twice(driver: PrivateDriver, user: User) -> Message:
    """``user`` presses Your hand twice on the table, once it offers the button: the first
    copy of their hand is left behind, its controls soon stale; that copy."""
    hand_button = f"crib:{driver.game_id}:lobby:{HAND_BUTTON}"
    table = await driver.settled(lambda t: any(b["custom_id"] == hand_button for b in t.buttons()))
    copies = []
    for _ in range(2):
        opened = await driver.fd.click(user, table, hand_button)
        copies += await opened.wait_followups(1)
    return copies[0]


def _follow_ups_used_up(fd: FakeDiscord) -> list[str]:
    """The next interaction answered is made to have had its five follow-ups, as if the bot
    had sent them through its token already; that token, in the list given back, once it is."""
    full: list[str] = []

    def used_up(route: str) -> None:
        token = route.split("/")[3]
        next(i for i in fd.interactions.values() if i.token == token).followups_made = 5
        full.append(token)

    fd.after_request(r"^POST /interactions/\d+/[^/]+/callback", used_up)
    return full


def _posted_through(fd: FakeDiscord, token: str, since: int) -> list[tuple[int, int | None]]:
    """What Discord answered (status, code) to each follow-up posted through ``token`` among
    the requests from ``since`` on."""
    hook = f"POST /webhooks/{fd.application_id}/{token}"
    return [(r.status, r.code) for r in fd.requests[since:] if r.route.startswith(hook)]


def _bea_deals_and_both_discard(snap: Snapshot) -> bool:
    """Whether ``snap`` is at the discard of a deal after the first that Bea (seat 1) deals,
    neither player having discarded yet."""
    game = snap.game
    return (
        game is not None
        and game.state.phase is Phase.DISCARD
        and game.state.deal_number > 1
        and game.state.dealer == 1
        and len(game.pending_discards()) == 2
    )


async def _table_back(
    driver: PrivateDriver, before: Message, refused: Interaction, says: str = "**Deal "
) -> Message:
    """After a pause, ``refused`` (a click or a command) was answered privately, and the
    table (``before``, out of any token's reach) came back as its follow-up, saying where the
    game stands (``says``): the table from then on."""
    assert refused.response is not None and refused.response.type == 4, refused
    assert refused.ephemeral and refused.words(), refused
    fd = driver.fd
    again = await until(fd, lambda: driver.table() if driver.table().id != before.id else None)
    assert again in refused.followups and not again.ephemeral
    await until(fd, lambda: says in again.words())
    assert again.words() != refused.words()
    return again


def _said_in(driver: PrivateDriver) -> str:
    """Every version of every message the whole conversation saw."""
    messages = [m for m in driver.fd.messages(driver.channel) if not m.ephemeral]
    return "\n".join(v.words() for m in messages for v in [*m.history, m.version()])


async def _settled_unseen_and_tokens_only(driver: PrivateDriver, since: int) -> Message:
    """Once every message shows the game: no viewer ever saw a card not theirs to see, and
    no request since ``since`` used the bot's own token. The table then."""
    table = await driver.settled()
    driver.check_now()
    _never_the_bots_token(driver.fd, since)
    return table


def _never_the_bots_token(fd: FakeDiscord, since: int) -> None:
    """No request from ``since`` to the end of the test uses the bot's own token (checked now,
    and again once the bot has stopped)."""
    assert bot_token_requests(fd, since) == []

    def tokens_only() -> None:
        assert bot_token_requests(fd, since) == []

    fd.at_the_end(tokens_only)


#: What the table says of whoever it waits on whose hand no token reaches.
CALLED = "— your turn: press **Your hand**"


async def test_a_player_a_live_token_reaches_is_never_called_to_press_your_hand(
    world: World, bots: BotLauncher
) -> None:
    """Issue 32, item 6: at each deal's start the bot brings every hand to the new deal's crib
    select through the token of its player's hand of the deal before. Those players are not
    awaited at the table: once each has opened their hand in the first deal (no token lapses
    in a game played at once), no version of the table calls them to press *Your hand*."""
    driver, _, _ = await _playing_in_a_dm(world, bots, 33)
    fd = driver.fd
    # Every edit through a token reaches Discord a moment late, as over a slow network: at
    # each deal's start the table is drawn again while the hands are still on their way.
    fd.delay(r"^PATCH /webhooks/", 0.02, times=100_000)
    final = await driver.play_out()
    assert final.status == "finished"
    table = await driver.settled()
    later = re.compile(r"\*\*Deal (?:[2-9]|\d\d+)\*\*")
    called = [v.words() for v in [*table.history, table.version()] if CALLED in v.words()]
    assert called, "the first deal calls whoever has not opened a hand yet"
    assert not [c for c in called if later.search(c)], [c[-200:] for c in called]
    assert driver.check_mentions() == len(called)


async def test_a_player_whose_hand_is_on_its_way_is_not_called_to_press_your_hand(
    world: World, bots: BotLauncher
) -> None:
    """Issue 46: on the internet, a hand shows on Discord a moment before the bot hears that
    it went. Bea presses *Your hand*, and her hand (its crib select) shows while the answer
    saying so is held on its way back to the bot; Al discards meanwhile. The table drawn for
    his discard waits on Bea and does not call her to press *Your hand*, which she just did:
    the mention is drawn from what is certain, not from what the bot has heard back."""
    driver, _, table = await _playing_in_a_dm(world, bots, 5)
    fd = driver.fd
    al, bea = driver.players
    await until(fd, lambda: any(b["label"] == "Your hand" for b in table.buttons()))
    mine = await fd.click(al, table, label="Your hand")
    [hand] = await mine.wait_followups(1)
    await until(fd, lambda: f"<@{al.id}>" not in table.words())
    assert f"<@{bea.id}>" in table.words(), "Bea has not opened her hand yet"
    fd.delay(r"^POST /webhooks/", 2.0, back=True)
    hers = await fd.click(bea, table, label="Your hand")
    [shown] = await hers.wait_followups(1)
    assert any(shown.selects()), "her hand is in front of her"
    snap = driver.snapshot()
    assert snap.game is not None
    cards = [c.code for c in snap.game.hand(0)[:2]]
    await fd.select(al, hand, f"crib:{driver.game_id}:discard:1", cards)
    await until(fd, lambda: "Waiting for Bea to put cards in the crib." in table.words())
    driver.check_now()
    driver.check_mentions()


async def test_a_player_awaited_whom_no_token_reaches_is_called_in_a_message_that_notifies(
    world: World, bots: BotLauncher
) -> None:
    """The table's call to press *Your hand* comes by an edit, and Discord notifies the
    mentions of a message as it is sent, not of an edit; the player's own tokens reach nothing
    of theirs (Bea never opened her hand; after a long think, a player's have lapsed). Once the
    table has waited on her for the reminder's delay, the call is posted as a message of its
    own through a token that still reaches the conversation (Al's), which notifies her: once
    for the turn, never through the bot's own token."""
    driver, since = await _two_in_a_dm(world, bots, 5, env={"TURN_REMINDER_SECONDS": "5"})
    table = await driver.open(target=61)
    fd, dm, (al, bea) = driver.fd, driver.channel, driver.players
    await until(fd, lambda: any(b["label"] == "Your hand" for b in table.buttons()))
    mine = await fd.click(al, table, label="Your hand")
    [hand] = await mine.wait_followups(1)
    snap = driver.snapshot()
    assert snap.game is not None
    cards = [c.code for c in snap.game.hand(0)[:2]]
    await fd.select(al, hand, f"crib:{driver.game_id}:discard:1", cards)

    def calls() -> list[Message]:
        return [m for m in fd.messages(dm) if bea.id in m.pinged.users]

    [call] = await until(fd, calls)
    assert not call.ephemeral and call.words() == f"<@{bea.id}> {CALLED}.", call.words()
    assert call.id != table.id and al.id not in call.pinged.users
    assert f"<@{bea.id}> {CALLED}" in table.words(), "the table still says whom it waits on"
    driver.check_now()

    def once_for_the_turn() -> None:
        assert calls() == [call]

    fd.at_the_end(once_for_the_turn)
    _never_the_bots_token(fd, since)


async def test_a_player_whose_tokens_lapsed_while_the_other_thought_is_called_through_her_move(
    world: World, bots: BotLauncher
) -> None:
    """Bea thinks over a card for more than a quarter of an hour: every token of Al's has
    lapsed, and his hand cannot be brought to his turn. No token reaches the table either: it
    comes back through her move's token, a new message that calls him and notifies him, the
    one message that does (issue 67: where a call of its own followed it, saying it again);
    he presses *Your hand* and plays on."""
    driver, since = await _two_in_a_dm(world, bots, 21, env={"TURN_REMINDER_SECONDS": "5"})
    await driver.open(target=61)
    fd, dm, (al, _) = driver.fd, driver.channel, driver.players
    snap = driver.snapshot()
    while not (
        snap.game is not None
        and snap.game.state.phase is Phase.PLAY
        and snap.game.state.turn == 1
        and len(snap.game.hand(0)) > 1
    ):
        await driver.move(snap)
        snap = driver.snapshot()
    await _pause_after(driver, 0)  # Bea thinks
    before = set(fd.interactions)
    await driver.move(snap)
    after = driver.snapshot()
    assert after.game is not None and after.game.state.turn == 0, "Al's turn: pick another seed"
    [hers] = [i for key, i in fd.interactions.items() if key not in before]

    def calls() -> list[Message]:
        return [m for m in fd.messages(dm) if al.id in m.pinged.users]

    [call] = await until(fd, calls)
    assert call in hers.followups and not call.ephemeral, call
    assert f"<@{al.id}> {CALLED}" in call.words(), call.words()
    await until(fd, lambda: driver.table_now() == call or None)  # (kept as the table)
    assert call.pinged.users == {al.id}
    assert [m for m in hers.followups if not m.ephemeral] == [call], "the one message"
    final = await driver.play_out()
    assert final.status == "finished"
    await _settled_unseen_and_tokens_only(driver, since)


async def test_an_older_copy_of_the_table_clicked_again_says_it_moved_on(
    world: World, bots: BotLauncher
) -> None:
    """Issue 32, item 5: after a pause longer than any token's life the table is posted again
    as a follow-up; the older copy cannot be edited then (no token reaches it) and still shows
    *Your hand*. Pressed there, its click's answer gives a token that reaches it: it is edited
    at once to say the table moved on, with no control left, while the click opens the hand
    as anywhere."""
    driver, _, first = await _playing_in_a_dm(world, bots, 12)
    fd, dm, (al, bea) = driver.fd, driver.channel, driver.players
    await _pause_after(driver, 3)
    typed = await fd.slash(bea, dm, "/cribbage play card:ZZ")
    again = await _table_back(driver, first, typed)
    assert any(b["label"] == "Your hand" for b in first.buttons()), "the older copy, stale"
    opened = await fd.click(al, first, label="Your hand")
    assert opened.response is not None and opened.response.type == 6
    [hand] = await opened.wait_followups(1)
    assert hand.ephemeral_for is al and list(hand.walk())

    def moved_on() -> Message | None:
        return first if MOVED_ON in first.words() else None

    closed = await until(fd, moved_on)
    assert not list(closed.buttons()) and not list(closed.selects()), closed.components
    assert "**Deal " in closed.words(), "the table as it stands, above the line"
    assert driver.table().id == again.id, "the newer copy stays the table"
    final = await driver.play_out()
    assert final.status == "finished"


async def test_a_refusal_after_a_lapse_in_a_group_dm_posts_one_table_that_calls_each_once(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    """Issue 67, item 3: in a group DM of three, everyone opened their hand and Al threw to the
    crib; a quarter of an hour later no token reaches the table nor Bea's and Cy's hands, and
    Al types `/cribbage play` (refused: it is the discard). Its token brings the table back, a
    new message, which names Bea and Cy and notifies each of them, and nothing else is posted:
    one public message for the refusal, each called once, where the table came back naming
    them and two more messages called them again."""
    fd = fake_discord
    al, bea, cy = (fd.add_user(name) for name in ("Al", "Bea", "Cy"))
    now = [datetime.now(UTC)]
    database = tmp_path / "bot.db"
    async with everywhere(bots, database, lambda store: clocked_service(store, now)):
        group = conversation(fd, al, bea, cy)
        driver = PrivateDriver(fd, group, [al, bea, cy], database, random.Random(7))
        await _called_once_after_a_lapse(driver, now)


async def _called_once_after_a_lapse(driver: PrivateDriver, now: list[datetime]) -> None:
    fd, group = driver.fd, driver.channel
    al, bea, cy = driver.players
    table = await driver.open(target=61)
    await until(fd, lambda: any(b["label"] == "Your hand" for b in table.buttons()) or None)
    for user in (bea, cy):
        opened = await fd.click(user, table, label="Your hand")
        await opened.wait_followups(1)
    snap = driver.snapshot()
    assert snap.game is not None
    await driver.move(snap, seat=0)  # Al throws to the crib (from his hand, opened to do so)
    await until(fd, lambda: "Waiting for Bea and Cy" in table.words() or None)
    assert CALLED not in table.words(), "everyone's hand is within a token's reach"
    public = [m for m in fd.messages(group) if not m.ephemeral]

    def called(user: User) -> list[Message]:
        return [m for m in fd.messages(group) if user.id in m.pinged.users]

    assert not called(bea) and not called(cy)
    fd.clock.advance(16 * 60)  # (Discord's clock, and the bot's)
    now[0] += timedelta(minutes=16)
    refused = await fd.slash(al, group, "/cribbage play card:5H")
    back = await _table_back(driver, table, refused)
    assert f"<@{bea.id}> <@{cy.id}> {CALLED}" in back.words(), back.words()
    assert back.pinged.users == {bea.id, cy.id}, "the table that came back calls them"

    def one_table_each_called_once() -> None:
        posted = [m for m in fd.messages(group) if not m.ephemeral and m not in public]
        assert posted == [back], [m.words() for m in posted]
        assert called(bea) == called(cy) == [back]

    fd.at_the_end(one_table_each_called_once)
