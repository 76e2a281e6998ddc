"""The `/cribbage` commands and the lobby as users meet them: where they work, what they
answer, and the one-sentence refusals that change nothing."""

from __future__ import annotations

import functools
import itertools
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.base.places import (
    DAILY_NEEDS_A_SERVER,
    GAMES_NOT_IN_MY_DMS,
    NO_GAME_IN_MY_DMS,
    NO_HALL_OF_FAME_HERE,
    NO_LEADERBOARD_HERE,
)
from bot.core.base.refusals import nothing_to_look_up
from bot.core.base.replies import Answer
from bot.core.base.text import escape
from bot.core.services import Services
from bot.discord.interactions import RESTARTING, SORRY
from bot.store import Store
from engine.phase import Phase
from fakediscord import Message, User
from fakediscord.limits import COMPONENTS_V2
from fakediscord.mentions import Pings
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.bot_db import Snapshot, latest_game_id, owned_messages, read_game
from tests.helpers.card_leaks import cards_in_text, hidden_from
from tests.helpers.expected_views import controls_of, live_controls
from tests.helpers.in_process import bot_core, clocked_service, in_club, slowed
from tests.helpers.table_driver import World, resign, start_again, until


def _one_sentence(text: str) -> bool:
    return bool(text) and "\n" not in text and len(text) < 200


async def test_lobby_by_commands_and_buttons(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    opened = await fd.slash(al, world.general, "/cribbage new players:3 target:61")
    # The answer is the lobby itself, in the channel: the one message the lobby needs.
    lobby = opened.original
    assert lobby is not None and not opened.ephemeral
    assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "Cancel"]
    assert "3 players, to 61" in lobby.words()

    second = await fd.slash(bea, world.general, "/cribbage new")
    assert second.ephemeral and "already a game" in second.words()

    too_early = await fd.slash(al, world.general, "/cribbage start")
    assert too_early.ephemeral and _one_sentence(too_early.words())

    joined = await fd.slash(bea, world.general, "/cribbage join")
    assert joined.ephemeral
    await until(fd, lambda: "Bea" in lobby.words())  # the lobby message is edited
    again = await fd.slash(bea, world.general, "/cribbage join")
    assert again.ephemeral and _one_sentence(again.words())
    left = await fd.click(bea, lobby, label="Leave")
    assert left.response is not None and left.response.type == 7
    assert "Bea" not in lobby.words().split("Seated")[1]

    # Only the creator or a moderator may cancel.
    refused = await fd.click(cy, lobby, label="Cancel")
    assert refused.ephemeral and _one_sentence(refused.words())
    assert list(lobby.buttons())
    cancelled = await fd.slash(world.moderator, world.general, "/cribbage cancel")
    assert cancelled.response is not None
    await until(fd, lambda: not list(lobby.buttons()))
    # Status shows how the last game ended, in the words the channel was told, as a move
    # there sends you to it.
    status = await fd.slash(cy, world.general, "/cribbage status")
    said = [m for m in fd.messages(world.general) if "cancelled the game" in m.words()]
    ended = [m for m in said if not m.ephemeral]
    assert len(ended) == 1 and [m for m in said if m.ephemeral] == [status.original]
    assert status.ephemeral and ended[0].words() in status.words(), status.words()


async def test_commands_in_a_dm_say_where_to_use_them(world: World, bots: BotLauncher) -> None:
    # Synced globally (as in production): a development guild's commands don't reach DMs.
    await bots.process(database=world.database)
    fd = world.fd
    dm = fd.dm_channel(world.players[0])
    for line in ("/cribbage new", "/cribbage join"):
        reply = await fd.slash(world.players[0], dm, line)
        assert reply.words() == GAMES_NOT_IN_MY_DMS, line
    for line in ("/cribbage hand", "/cribbage play card:5H"):
        reply = await fd.slash(world.players[0], dm, line)
        assert reply.words() == NO_GAME_IN_MY_DMS, line
    # The record of the games outside servers (ranked games played from here count in it).
    stats = await fd.slash(world.players[0], dm, "/cribbage stats")
    assert "has not finished a game outside servers yet" in stats.words(), stats.words()
    # What a server has alone says what it is.
    for line, said in (
        ("/cribbage leaderboard", NO_LEADERBOARD_HERE),
        ("/cribbage daily", DAILY_NEEDS_A_SERVER),
        ("/cribbage halloffame", NO_HALL_OF_FAME_HERE),
        ("/cribbage review", nothing_to_look_up("my DMs")),
    ):
        reply = await fd.slash(world.players[0], dm, line)
        assert reply.ephemeral and reply.words() == said, line
    rules = await fd.slash(world.players[0], dm, "/cribbage rules topic:play")
    assert "count" in rules.words() and "31" in rules.words()
    assert await fd.autocomplete(world.players[0], dm, "/cribbage play card:") == []


async def test_moves_typed_in_the_dm_act_on_the_game_whose_hand_is_there(
    world: World, bots: BotLauncher
) -> None:
    """Issue 68, item 7: ``/cribbage discard`` and ``/cribbage play`` typed in the bot's DM,
    where the hand comes and where ``/cribbage help`` suggests typing them, were refused
    ("You have no game in my DMs"): they act on the game whose hand is there, its autocomplete
    offering that hand's cards."""
    await bots.process(database=world.database)
    fd, al = world.fd, world.players[0]
    await fd.slash(al, world.general, "/cribbage new vs_computer:True")
    dm = fd.dm_channel(al)
    await until(fd, lambda: any("Your hand" in m.words() for m in fd.dms(al)) or None)
    game_id = latest_game_id(world.database, world.general.id)
    before = read_game(world.database, game_id)
    assert before.game is not None
    choices = await fd.autocomplete(al, dm, "/cribbage discard cards:")
    held = {c.code for c in before.game.hand(0)}
    assert choices and all(set(c["value"].split()) <= held for c in choices), choices
    thrown = await fd.slash(al, dm, f"/cribbage discard cards:{choices[0]['value']}")
    assert thrown.words().startswith("You put "), thrown.words()
    # (A sentence: the hand it changed is right there, not copied again below it.)
    assert thrown.original is not None and not list(thrown.original.buttons())
    await until(fd, lambda: read_game(world.database, game_id).version > before.version or None)
    after = read_game(world.database, game_id).game
    assert after is not None and len(after.hand(0)) == 4


async def test_a_game_in_a_thread_with_autocomplete_status_hand_and_resign(
    world: World, bot: BotProcess
) -> None:
    fd, (al, bea), driver = await world.open_for_two(
        4, target=121, thread="cribbage night", spectators=[world.spectator]
    )
    thread = driver.channel
    snap = driver.snapshot()
    assert snap.game is not None

    # Discard autocomplete offers whole discards of Al's own cards; play autocomplete nothing
    # yet.
    choices = await fd.autocomplete(al, thread, "/cribbage discard cards:")
    offered = {frozenset(c["value"].split()) for c in choices}
    held = [c.code for c in snap.game.hand(0)]
    assert offered == {frozenset(p) for p in itertools.combinations(held, 2)}
    assert await fd.autocomplete(al, thread, "/cribbage play card:") == []
    # The spectator is offered nothing and cannot see a hand.
    assert await fd.autocomplete(world.spectator, thread, "/cribbage discard cards:") == []
    peek = await fd.slash(world.spectator, thread, "/cribbage hand")
    assert peek.ephemeral and _one_sentence(peek.words())

    while (snap := driver.snapshot()).game is not None and snap.game.state.phase is Phase.DISCARD:
        await driver.step(snap)
    game = driver.snapshot().game
    assert game is not None and game.state.turn is not None
    on_turn, waiting = (al, bea) if game.state.turn == 0 else (bea, al)
    legal = {c.code for c in game.playable_cards(game.state.turn)}
    choices = await fd.autocomplete(on_turn, thread, "/cribbage play card:")
    assert {c["value"] for c in choices} == legal
    assert await fd.autocomplete(waiting, thread, "/cribbage play card:") == []
    early = await fd.slash(
        waiting, thread, f"/cribbage play card:{game.hand(1 - game.state.turn)[0].code}"
    )
    assert early.ephemeral and _one_sentence(early.words())

    status = await fd.slash(world.spectator, thread, "/cribbage status")
    assert status.ephemeral, "looking at the table adds nothing to the channel"
    assert status.original is not None
    said = status.original.text()
    assert f"Count {game.state.count}" in said or f"count {game.state.count}" in said

    hand = await fd.slash(on_turn, thread, "/cribbage hand")
    assert hand.ephemeral and hand.original is not None
    copy = hand.original
    # (Its controls come with the bot's first edit, once the copy is written down.)
    await until(fd, lambda: live_controls(copy))
    labels = [b["label"] for b in hand.original.buttons()]
    assert labels == [str(c) for c in game.hand(game.state.turn)]

    # Play one card from the ephemeral controls (a type 7 update of the ephemeral message):
    # the hand message by DM loses its buttons all the same.
    driver.resync()  # the answers above may echo cards their typist wrote
    driver.by_hand_command = {on_turn.id}
    driver.command_rate = 0.0
    await driver.step(driver.snapshot())
    driver.by_hand_command = set()
    await driver.settle(driver.resync())

    resigned = await resign(fd, al, thread)
    assert resigned.response is not None and resigned.response.type == 7

    def finished() -> Snapshot | None:
        snap = read_game(world.database, driver.game_id)
        return snap if snap.status == "finished" else None

    final = await until(fd, finished)
    assert final.game is not None and final.game.state.result is not None
    assert final.game.state.result.reason == "resigned" and final.game.state.result.winner == 1
    # The table and both hands show the end: "Al resigned — ..." with the board, hands closed
    # (no control left on them but the rematch the result offers).
    await driver.expect_current()
    result = driver.message("result")
    assert result is not None and result.words().startswith("Al resigned") and result.attachments
    rematch = f"crib:{driver.game_id}:rematch:hand"
    assert [
        control[1]
        for user in (al, bea)
        for m in fd.dms(user)
        for control in controls_of(m.components)
        if not control[-1]
    ] == [rematch, rematch]


async def test_a_discard_from_the_private_hand_takes_the_select_off_the_dm_hand_at_once(
    world: World, bot: BotProcess
) -> None:
    """A discard made on the private copy of the hand (`/cribbage hand`) is answered there,
    and the hand message by DM loses its crib select at once: not with the next move, which
    may be minutes away (issue 46: it offered the discard already made until the other player
    discarded)."""
    fd, (al, _), driver = await world.open_for_two(3, target=61, command_rate=0.0)
    snap = driver.snapshot()
    assert snap.game is not None
    dm = driver.message("hand:1:0")
    assert dm is not None and list(dm.selects())
    reply = await fd.slash(al, world.general, "/cribbage hand")
    assert reply.ephemeral and reply.original is not None
    copy = reply.original
    await until(fd, lambda: live_controls(copy))
    cards = [c.code for c in snap.game.hand(0)[:2]]
    made = await fd.select(al, reply.original, f"crib:{driver.game_id}:discard:1", cards)
    assert made.response is not None and made.response.type == 7
    assert not live_controls(reply.original)
    # Bea has not discarded: nothing else moves the game, and Al's DM hand is brought to the
    # discard made all the same.
    await until(fd, lambda: not live_controls(dm))
    driver.resync()
    await driver.settle(driver.snapshot())


async def test_a_private_copy_of_the_hand_is_kept_up_to_date_across_a_restart(
    world: World, bot: BotProcess
) -> None:
    """`/cribbage hand` answers with the hand, kept up to date through the command's token: by
    the process that starts after a restart too, which reads the copy where it was written
    down (issue 46: restarted, the bot forgot it, and it kept offering the crib select of a
    discard already made)."""
    fd, (al, _), driver = await world.open_for_two(5, target=61, command_rate=0.0)
    reply = await fd.slash(al, world.general, "/cribbage hand")
    copy = reply.original
    assert copy is not None
    # Its select comes with the bot's first edit of it, once the copy is written down.
    await until(fd, lambda: list(copy.selects()))
    await bot.stop()
    await start_again(fd, bot)
    snap = driver.snapshot()
    assert snap.game is not None
    dm = driver.message("hand:1:0")
    assert dm is not None
    cards = [c.code for c in snap.game.hand(0)[:2]]
    await fd.select(al, dm, f"crib:{driver.game_id}:discard:1", cards)
    # Discarded from the DM: the copy in the channel loses its select too.
    await until(fd, lambda: not live_controls(copy))
    driver.resync()
    await driver.settle(driver.snapshot())


async def test_old_controls_get_a_clear_answer(world: World, bot: BotProcess) -> None:
    """`/cribbage hand` answers with the hand, privately, kept up to date through the
    command's token while it lives: the newest such answer shows the current controls, an
    older one is closed (no control left, saying the hand moved on) once a newer one comes.
    HandControls of a moment that has passed (as those answers showed them then) answer in one
    sentence and change nothing."""
    fd, _, driver = await world.open_for_two(8, target=61, command_rate=1.0)
    shown: list[tuple[User, Message, list[dict[str, Any]]]] = []
    for _ in range(5):  # both discards and three cards played, each by slash command
        snap = driver.snapshot()
        seat = driver.actor(snap)
        user = driver.seats[seat]
        reply = await fd.slash(user, world.general, "/cribbage hand")
        assert reply.ephemeral and reply.original is not None
        copy = reply.original
        await until(fd, functools.partial(live_controls, copy))
        controls = [*reply.original.selects(), *reply.original.buttons()]
        shown.append((user, reply.original, controls))
        await driver.step(snap)
    snap = driver.snapshot()
    await driver.settle(snap)
    checked = 0
    for user, copy, controls in shown:
        for control in controls:
            custom_id = str(control["custom_id"])
            if control.get("disabled"):
                continue
            if control.get("type") == 3:
                values = [str(o["value"]) for o in control["options"]][: control["min_values"]]
                stale = await fd.forged_click(user, copy, custom_id, values=values)
            else:
                stale = await fd.forged_click(user, copy, custom_id)
            assert stale.ephemeral and _one_sentence(stale.words()), stale.words()
            checked += 1
    assert checked >= 5
    after = driver.snapshot()
    assert (after.version, after.actions) == (snap.version, snap.actions)
    # Of each player's answers, only the newest still offers controls: the current ones; an
    # older one says that the hand moved on, not a count and a turn long gone (issue 47).
    for user in {user for user, _, _ in shown}:
        answers = [copy for who, copy, _ in shown if who is user]
        *older, newest = answers

        def closed(older: list[Message] = older) -> bool | None:
            return all(not live_controls(c) and MOVED_ON in c.words() for c in older) or None

        await until(fd, closed)
        assert newest.components
    # The hand messages by DM kept no live controls but the current player's.
    await driver.settle(after)


#: What an older private copy of a hand says once a newer one took over.
MOVED_ON = "↓ this copy of your hand moved on; your newest copy of it is below."


def _is_a_panel(message: Message) -> None:
    """The answer is laid out with Components V2: no content, one container holding the
    words and the board picture (shown from its attachment) below them."""
    assert message.flags & COMPONENTS_V2 and message.content == ""
    (container,) = message.components
    assert container["type"] == 17
    words, gallery = container["components"]
    assert words["type"] == 10 and words["content"]
    (item,) = gallery["items"]
    assert item["media"]["url"] == f"attachment://{message.attachments[0].filename}"


def _board_says(message: Message, sides: dict[str, int]) -> None:
    """The message carries the board picture, whose description names every side's score."""
    assert len(message.attachments) == 1, message.attachments
    picture = message.attachments[0]
    assert picture.filename.endswith(".png") and picture.data.startswith(b"\x89PNG")
    said = picture.description or ""
    for name, score in sides.items():
        assert f"{name}: {score}" in said, (name, score, said)


async def test_status_is_private_unless_shown_and_carries_the_board(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al = world.players[0]
    driver = world.driver([al], 12, spectators=[world.spectator])
    snap = await driver.open_against_computer("easy")
    while snap.game is not None and (
        snap.game.state.phase is Phase.DISCARD or not snap.game.state.series
    ):
        snap = await driver.step(snap)
    game = snap.game
    assert game is not None
    sides = {name: score for name, score in zip(game.state.players, game.state.scores, strict=True)}
    public_before = len([m for m in fd.messages(world.general) if not m.ephemeral])

    private = await fd.slash(world.spectator, world.general, "/cribbage status")
    assert private.response is not None and private.response.type == 4
    assert private.ephemeral and private.original is not None
    assert f"Count {game.state.count}" in private.original.text()
    _board_says(private.original, sides)
    _is_a_panel(private.original)
    assert len([m for m in fd.messages(world.general) if not m.ephemeral]) == public_before

    shown = await fd.slash(al, world.general, "/cribbage status show:True")
    assert not shown.ephemeral and shown.original is not None
    assert shown.original in fd.visible_to(world.spectator, world.general)
    _board_says(shown.original, sides)
    _is_a_panel(shown.original)
    for answer in (private.original.text(), shown.original.text()):
        assert not cards_in_text(answer) & hidden_from(game, None), answer


def _slow_service(store: Store) -> Services:
    """A real core whose status and lobby clicks take longer than the bot waits before
    deferring, and whose leaderboard is broken."""
    services = bot_core(store)
    slowed(services.table, "status", 0.4)
    slowed(services.lobbies, "click", 0.4)

    async def broken(*args: object, **kwargs: object) -> Answer:
        raise RuntimeError("the leaderboard query broke")

    services.standings.leaderboard = broken  # type: ignore[method-assign]
    return services


async def test_slow_calls_are_deferred_and_bugs_answer_briefly(
    bots: BotLauncher, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with in_club(
        bots, tmp_path / "bot.db", "Al", "Bea", service=_slow_service, defer_after=0.1
    ) as (fd, _, general, (al, bea), _, running):
        opened = await fd.slash(al, general, "/cribbage new")
        lobby = opened.original
        assert lobby is not None
        slow = await fd.slash(al, general, "/cribbage status")
        assert slow.response is not None and slow.response.type == 5, "deferred"
        settled = await slow.wait_settled()
        assert settled is not None
        assert "Seated (1/2): Al" in settled.words(), settled.words()

        # A slow click is deferred (type 6), then its message is edited all the same.
        join = await fd.click(bea, lobby, label="Join")
        assert join.response is not None and join.response.type == 6
        await until(fd, lambda: "Al, Bea" in lobby.words())

        running.allow_errors("leaderboard query broke|error handling an interaction")
        broken = await fd.slash(al, general, "/cribbage leaderboard")
        assert broken.ephemeral and broken.words() == SORRY
        logged = [r for r in caplog.records if r.levelname == "ERROR"]
        assert any(r.exc_info and "leaderboard query broke" in str(r.exc_info[1]) for r in logged)


async def test_idle_games_expire_without_a_result(bots: BotLauncher, tmp_path: Path) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    database = tmp_path / "bot.db"
    opening = in_club(bots, database, "Al", service=lambda store: clocked_service(store, now))
    async with opening as (fd, _, general, (al,), _, running):
        opened = await fd.slash(al, general, "/cribbage new")
        lobby = opened.original
        assert lobby is not None
        # The lobby's id is learnt from the answer after it is given: the clock jumps only once
        # it is (a token days old no longer reaches the answer, and id 0 is no message).
        game_id = latest_game_id(database, general.id)

        def lobby_id_kept() -> bool:
            kept = owned_messages(database, game_id).get("lobby")
            return kept is not None and kept.message_id == lobby.id

        await until(fd, lobby_id_kept)
        now[0] += timedelta(days=6)
        await running.client.expire_idle_games()
        # (The decision is saved before expire_idle_games returns: the lobby stays open.)
        assert read_game(database, game_id).status == "lobby", "six days idle is not too long"
        assert list(lobby.buttons())
        now[0] += timedelta(days=2)
        await running.client.expire_idle_games()
        await until(fd, lambda: not list(lobby.buttons()))
        said = await until(
            fd, lambda: [m for m in fd.messages(general) if "Nobody moved" in m.words()]
        )
        assert not said[0].ephemeral
        fresh = await fd.slash(al, general, "/cribbage new")
        assert "already" not in fresh.words(), "the channel is free again"


async def test_while_shutting_down_commands_and_clicks_are_told_to_try_again(
    bots: BotLauncher, tmp_path: Path
) -> None:
    opening = in_club(bots, tmp_path / "bot.db", "Al", "Bea")
    async with opening as (fd, _, general, (al, bea), store, running):
        opened = await fd.slash(al, general, "/cribbage new")
        lobby = opened.original
        assert lobby is not None
        before = await store.open_game_in_channel(general.id)
        # SIGTERM's first step: no new moves from here on, only the ones in flight finish.
        running.client.parts.io.closing = True
        join = await fd.click(bea, lobby, label="Join")
        assert join.ephemeral and join.words() == RESTARTING
        status = await fd.slash(bea, general, "/cribbage status")
        assert status.ephemeral and status.words() == RESTARTING
        # Nothing changed: Bea did not join, and the lobby still says so.
        after = await store.open_game_in_channel(general.id)
        assert before is not None and after is not None
        assert after.version == before.version and len(after.seats) == len(before.seats)
        assert "Bea" not in lobby.words()
        running.client.parts.io.closing = False


async def test_any_hand_is_counted_privately_or_for_the_channel(
    world: World, bot: BotProcess
) -> None:
    """`/cribbage count-hand` (issue 37): itemised as the show says it, privately unless
    `show:True`; autocomplete of its cards; a bad card answered in one line."""
    fd = world.fd
    al = world.players[0]
    counted = await fd.slash(al, world.general, "/cribbage count-hand cards:5H 5D JC QS starter:5S")
    assert counted.ephemeral and "— 20 points" in counted.words(), counted.words()
    assert "• Three of a kind: 5♦ 5♥ 5♠ — 6" in counted.words()
    shown = await fd.slash(
        al, world.general, "/cribbage count-hand cards:2H 4H 6H 8H starter:KS crib:True show:True"
    )
    assert not shown.ephemeral and "— 0 points" in shown.words()
    assert "a flush needs the starter's suit too" in shown.words()
    bad = await fd.slash(al, world.general, "/cribbage count-hand cards:5H 5H JC QS starter:5S")
    assert bad.ephemeral and _one_sentence(bad.words()) and "named twice" in bad.words()
    choices = await fd.autocomplete(al, world.general, "/cribbage count-hand cards:5H 5")
    assert [c["value"] for c in choices] == ["5H 5C", "5H 5D", "5H 5S"]
    starters = await fd.autocomplete(
        al, world.general, "/cribbage count-hand cards:5H 5D JC QS starter:5"
    )
    assert [c["value"] for c in starters] == ["5C", "5S"]


async def test_a_name_that_reads_as_a_mention_notifies_no_one(
    world: World, bot: BotProcess
) -> None:
    # People whose names are written like mentions (each within Discord's 32 characters): the
    # bot's answers name them, in text replies as in its messages, as typed (escaped: Discord
    # shows an "@everyone" highlighted, pinged or not), and notify no one.
    fd = world.fd
    bea = world.players[1]
    cy = fd.add_user(f"@everyone <@{bea.id}>")
    dee = fd.add_user(f"@here <@&{world.guild.id}>")
    for person in (cy, dee):
        world.guild.add_member(person)
        stats = await fd.slash(person, world.general, "/cribbage stats")
        assert stats.original is not None and not stats.ephemeral
        said = stats.original
        assert escape(person.name) in said.words() and said.pinged == Pings(), said.words()
        assert not re.search(r"(?<!\\)@(everyone|here)|<@", said.words()), said.words()
    opened = await fd.slash(cy, world.general, "/cribbage new players:2 target:61")
    assert opened.original is not None
    said = opened.original
    assert escape(cy.name) in said.words() and said.pinged == Pings(), said.words()
    assert not re.search(r"(?<!\\)@(everyone|here)|<@", said.words()), said.words()
