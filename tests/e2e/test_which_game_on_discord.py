"""Which game a command acts on, end to end (issue 54): in the bot's DM a ranked player's
commands act on their ranked game (and review or verify it by number), and `/cribbage stats`
shows the games outside servers; a
ranked search is refused where its player sits at a game, and where their match is played they
open or join no other game, while their commands in the game's thread stay that game's; and
someone pressing *Your hand* or *Review* on a ranked table above them is told it is someone
else's ranked game. The bot runs as `python -m bot`, its commands global (DMs reach them)."""

from __future__ import annotations

import random

from bot.core.base.places import (
    OTHERS_RANKED,
    RANKED_HERE,
    RANKED_NOT_A_LOBBY,
    SEARCHING_HERE,
    SEATED_HERE,
)
from bot.core.base.views import HAND_BUTTON
from bot.core.review.review import NOT_IN_MY_DMS
from engine.phase import Phase
from fakediscord import Channel, Message, User
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import rows
from tests.helpers.ranked_driver import Place, RankedDriver, entry_of, left_the_match, match_games
from tests.helpers.table_driver import World, resign, until


async def _match(world: World, first: Place, second: Place) -> RankedDriver:
    """``first`` searches, then ``second`` (paired with them at once): the driver of their
    match once its first game is dealt and its tables reached both places."""
    fd = world.fd
    searching = await fd.slash(first.user, first.channel, "/cribbage ranked play")
    assert "looking for a ranked opponent" in searching.words(), searching.words()
    paired = await fd.slash(second.user, second.channel, "/cribbage ranked play")
    assert "Ranked match" in paired.words(), paired.words()
    _, _, match_id = entry_of(world.database, first.user)
    assert match_id is not None
    driver = RankedDriver(fd, world.database, [first, second], match_id, rng=random.Random(5))
    await driver.next_game()
    return driver


def _games_named(message: Message) -> set[int]:
    """The games a message's controls name (``crib:<game>:...``)."""
    found = set()
    for item in message.walk():
        parts = str(item.get("custom_id", "")).split(":")
        if len(parts) > 2 and parts[0] == "crib" and parts[1].isdigit():
            found.add(int(parts[1]))
    return found


async def _pressed_by(world: World, user: User, table: Message, custom_id: str) -> str:
    """``user`` presses ``custom_id`` on ``table``: what they alone are told (nothing else is
    sent)."""
    click = await world.fd.click(user, table, custom_id)
    assert click.ephemeral and not click.followups, click
    return click.words()


async def _cy_in_her_dm_against_di(world: World, bots: BotLauncher) -> tuple[Channel, RankedDriver]:
    """The bot started; Cy searches from her DM with the bot, Di from #general (Eve watching):
    Cy's DM and the match's driver, its first game dealt."""
    await bots.process(database=world.database)
    fd, (_, _, cy, di) = world.fd, world.players
    dm = fd.dm_channel(cy)
    driver = await _match(world, Place(cy, dm), Place(di, world.general, [world.spectator]))
    return dm, driver


async def test_in_the_bots_dm_a_ranked_players_commands_act_on_their_ranked_game(
    world: World, bots: BotLauncher
) -> None:
    fd, cy = world.fd, world.players[2]
    dm, driver = await _cy_in_her_dm_against_di(world, bots)
    # Cy's hand, her game's table and her cards, asked for in her DM with the bot, where she
    # searched: her ranked game's (issue 54: "No game is played in my DMs").
    hand = await fd.slash(cy, dm, "/cribbage hand")
    assert hand.ephemeral and hand.original is not None, hand.words()
    assert _games_named(hand.original) == {driver.game_id}, hand.words()
    status = await fd.slash(cy, dm, "/cribbage status")
    assert status.ephemeral and "Deal 1" in status.words() and "Di" in status.words()
    offered = await fd.autocomplete(cy, dm, "/cribbage discard cards:")
    dealt = driver.snapshot().game
    assert dealt is not None and dealt.state.phase is Phase.DISCARD
    held = {card.code for card in dealt.hand(0)}
    assert offered and all(set(c["value"].split()) <= held for c in offered), offered
    version = driver.snapshot().version
    thrown = await fd.slash(cy, dm, f"/cribbage discard cards:{offered[0]['value']}")
    assert thrown.ephemeral, thrown.words()
    await until(fd, lambda: driver.snapshot().version > version)
    said = await resign(fd, cy, dm)
    assert said.original is not None and "You resigned" in said.original.words()
    await until(fd, lambda: driver.snapshot().status == "finished")
    # Its shuffles and its review, by number, from there too.
    checked = await fd.slash(cy, dm, f"/cribbage verify game:{driver.game_id}")
    assert f"The shuffles of game {driver.game_id}" in checked.words(), checked.words()
    reviewed = await fd.slash(cy, dm, f"/cribbage review game:{driver.game_id}")
    assert f"Review of game {driver.game_id} — Cy" in reviewed.words(), reviewed.words()
    # A game not found there is not found "in my DMs" (issue 54: "in this server").
    for command in ("review", "verify"):
        missing = await fd.slash(cy, dm, f"/cribbage {command} game:{driver.game_id + 1000}")
        assert missing.ephemeral and missing.words() == NOT_IN_MY_DMS, missing.words()


async def test_once_a_match_is_over_its_players_look_back_at_its_last_game_where_they_played(
    world: World, bots: BotLauncher
) -> None:
    # Any game over at a place is what /cribbage status and review there show; a ranked
    # match's last game was forgotten at both its places once the match was decided ("You
    # have no game in my DMs", "There's no game in this channel to review or check").
    fd, (_, _, cy, di) = world.fd, world.players
    dm, driver = await _cy_in_her_dm_against_di(world, bots)
    await left_the_match(fd, cy, dm)
    # (The match is decided as she leaves, its game ended by the referee a moment later.)
    await until(fd, lambda: entry_of(world.database, di)[1] != "matched" or None)
    await until(fd, lambda: driver.snapshot().status == "finished")
    for user, place in ((cy, dm), (di, world.general)):
        status = await fd.slash(user, place, "/cribbage status")
        assert status.ephemeral and "Cy left the match" in status.words(), status.words()
        assert "`/cribbage ranked play`" in status.words(), status.words()
        reviewed = await fd.slash(user, place, "/cribbage review")
        assert f"Review of game {driver.game_id} — {user.name}" in reviewed.words()
    # Eve, watching Di's place, played no game there.
    watched = await fd.slash(world.spectator, world.general, "/cribbage review")
    assert "There's no game in this channel" in watched.words(), watched.words()


async def test_someone_pressing_a_ranked_tables_buttons_is_told_whose_game_it_is(
    world: World, bots: BotLauncher
) -> None:
    fd, di = world.fd, world.players[3]
    _, driver = await _cy_in_her_dm_against_di(world, bots)
    game_id = driver.game_id
    # Eve watches #general, where Di plays: Di's table's buttons are not hers (issue 54: "I
    # can't find that game in this server").
    table = driver.table_now(1)
    assert table is not None
    your_hand = f"crib:{game_id}:lobby:{HAND_BUTTON}"
    assert await _pressed_by(world, world.spectator, table, your_hand) == OTHERS_RANKED
    # Di resigns: its result's Review is the players' too.
    await resign(fd, di, world.general)
    review = f"crib:review:{game_id}"

    def reviewed() -> Message | None:
        final = driver.table_now(1, game_id)
        return final if final is not None and review in _ids(final) else None

    final = await until(fd, reviewed)
    assert await _pressed_by(world, world.spectator, final, review) == OTHERS_RANKED


async def test_stats_in_the_bots_dm_count_the_ranked_games_played_from_there(
    world: World, bots: BotLauncher
) -> None:
    fd, (_, _, cy, di) = world.fd, world.players
    dm, driver = await _cy_in_her_dm_against_di(world, bots)
    await resign(fd, di, world.general)
    counted = "SELECT 1 FROM results WHERE game_id = ?"
    await until(fd, lambda: rows(world.database, counted, (driver.game_id,)))
    # Her record in the bot's DM: the games outside servers, this ranked game among them
    # (issue 54: "Leaderboards and stats are kept per server").
    stats = await fd.slash(cy, dm, "/cribbage stats")
    assert not stats.ephemeral and "outside servers" in stats.words(), stats.words()
    assert "not finished a game" not in stats.words(), stats.words()


def _ids(message: Message) -> set[str]:
    return {str(item.get("custom_id", "")) for item in message.walk()}


async def _status_of(world: World, user: User, channel: Channel) -> str:
    answer = await world.fd.slash(user, channel, "/cribbage status")
    assert answer.ephemeral, answer.words()
    return answer.words()


async def test_one_game_of_yours_in_a_place_and_commands_never_act_on_another(
    world: World, bots: BotLauncher
) -> None:
    await bots.process(database=world.database)
    fd, (al, bea, cy, di) = world.fd, world.players
    _, _, thread_driver = await world.open_for_two(7, target=121, thread="cribbage night")
    thread = thread_driver.channel
    # Al sits at the game in the thread: a ranked match from there would be played there too
    # (issue 54: it was, and his commands there then acted on the ranked game).
    refused = await fd.slash(al, thread, "/cribbage ranked play")
    assert refused.ephemeral and refused.words() == SEATED_HERE, refused.words()
    assert not rows(world.database, "SELECT 1 FROM ranked_entries WHERE user_id = ?", (al.id,))
    # Cy's lobby in #general: she sits there, so she searches from nowhere there either.
    opened = await fd.slash(cy, world.general, "/cribbage new")
    lobby = opened.original
    assert lobby is not None
    assert (await fd.slash(cy, world.general, "/cribbage ranked play")).words() == SEATED_HERE
    # Al searches from #general, where he sits at no game: then he joins no game there.
    searching = await fd.slash(al, world.general, "/cribbage ranked play")
    assert "looking for a ranked opponent" in searching.words(), searching.words()
    assert (await fd.slash(al, world.general, "/cribbage join")).words() == SEARCHING_HERE
    pressed = await fd.click(al, lobby, label="Join")
    assert pressed.ephemeral and pressed.words() == SEARCHING_HERE, pressed.words()
    assert "Al" not in lobby.words().split("Seated")[1]
    # Di searches from her DM with the bot: their match is played; Al's place is #general.
    di_dm = fd.dm_channel(di)
    paired = await fd.slash(di, di_dm, "/cribbage ranked play")
    assert "Ranked match" in paired.words(), paired.words()
    _, _, match_id = entry_of(world.database, al)
    assert match_id is not None
    games = await until(fd, lambda: match_games(world.database, match_id))
    ranked_game = games[0][1]
    await until(
        fd,
        lambda: rows(
            world.database, "SELECT 1 FROM games WHERE id = ? AND status = 'active'", (ranked_game,)
        ),
    )
    # In the thread Al's commands are the thread's game's; in #general, his ranked game's.
    assert "Bea" in await _status_of(world, al, thread)
    assert "Di" in await _status_of(world, al, world.general)
    hand = await fd.slash(al, thread, "/cribbage hand")
    at_thread = thread_driver.snapshot().game
    assert hand.original is not None and at_thread is not None
    assert ranked_game not in _games_named(hand.original)
    assert all(str(card) in hand.words() for card in at_thread.hand(0)), hand.words()
    assert (await fd.slash(al, world.general, "/cribbage join")).words() == RANKED_HERE
    assert (await fd.slash(al, world.general, "/cribbage cancel")).words() == RANKED_NOT_A_LOBBY
    pressed = await fd.click(al, lobby, label="Join")
    assert pressed.words() == RANKED_HERE, pressed.words()
    # Bea, at the thread's game alone, is untouched by any of it.
    assert "Al" in await _status_of(world, bea, thread)
    # Made a moderator, Al cancels Cy's lobby in #general by command, as its Cancel button
    # would: a moderator's cancel is the place's game's, not his match's (issue 54).
    world.guild.set_moderator(al)
    cancelled = await fd.slash(al, world.general, "/cribbage cancel")
    assert cancelled.words() == "Game cancelled.", cancelled.words()
    assert not rows(
        world.database,
        "SELECT 1 FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
        (world.general.id,),
    )
    gone = await fd.slash(al, world.general, "/cribbage cancel")
    assert gone.words() == RANKED_NOT_A_LOBBY, gone.words()
