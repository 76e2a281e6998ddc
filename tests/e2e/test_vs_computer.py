"""A whole game against the computer through Discord, as a player sees it.

Al opens `/cribbage new vs_computer:True difficulty:hard` and plays random legal moves from
his hand message by DM (crib select and card buttons) through the table driver, which checks
after every move, from the bot's database and Discord: the computer has already answered (only
Al is ever owed a move), every computer move is its own action in the log, Al's click is
answered with his hand as it stands after the computer's answers, the table message says what
the actions say, no card the computer holds (or threw) reaches Al before it is played or shown,
and after each show the coach's line rides on Al's hand messages. At the end the result is
recorded apart from games between people, and the lobby's "Add computer" menu is tried too.
"""

from __future__ import annotations

import dataclasses
import functools

from engine.game import Game
from fakediscord.model import words_of
from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.table_driver import TableDriver, World, after_action, start_again, until

pytestmark = BOTH_DATABASES


def against_computer(world: World, seed: int) -> TableDriver:
    """Al's side of a game against the computer, every move from his hand messages."""
    return world.driver(world.players[:1], seed, command_rate=0.0)


async def test_a_whole_game_against_hard(world: World, bot: BotProcess) -> None:
    # To 61: a game to 121 would only play more deals of the same (one between people is
    # played to 121 in test_whole_games).
    player = against_computer(world, 11)
    await player.open_against_computer("hard", target=61)
    snap = await player.play_out(max_steps=250)
    assert snap.status == "finished" and snap.game is not None
    result = snap.game.state.result
    assert result is not None and max(result.scores) >= 61
    table = player.table_messages()
    assert "game point" in table[-1].words()
    shows = sum(1 for m in table if "Al's hand:" in m.words())
    al = player.players[0]
    coached = [d for d, seat in player.replay.coach_lines if seat == 0] if player.replay else []
    assert shows >= 2 and len(coached) >= shows
    # Each deal's line rode on the next deal's hand message (seen while that deal was played).
    said = {
        line
        for m in world.fd.dms(al)
        for text in [*(v.words() for v in m.history), m.words()]
        for line in text.splitlines()
        if line.startswith("Coach, deal")
    }
    assert len(said) >= shows
    assert player.cards_seen > 200, "the hidden-card check looked at the cards"
    # Every click was answered by updating its own message, the computer's moves included.
    assert player.clicks and all(c.response and c.response.type == 7 for c in player.clicks)

    found = rows(
        world.database,
        "SELECT user_id, is_computer, vs_computer, won FROM results WHERE game_id = ?"
        " ORDER BY seat",
        (player.game_id,),
    )
    assert [r[:3] for r in found] == [(al.id, 0, 1), (None, 1, 1)]
    assert bool(found[0][3]) == (result.winner == 0)

    stats = await world.fd.slash(al, world.general, "/cribbage stats")
    assert "Against the computer: 1 game" in stats.words() and "Against people" not in stats.words()
    board = await world.fd.slash(al, world.general, "/cribbage leaderboard table:computer")
    # Against the computer, the computer's level is a rated player beside Al.
    assert "games against the computer" in board.words()
    assert "Hard bot" in board.words() and al.name in board.words()
    people = await world.fd.slash(al, world.general, "/cribbage leaderboard")
    assert "No games between people have finished" in people.words()
    status = await world.fd.slash(al, world.general, "/cribbage status")
    assert status.ephemeral
    assert status.original is not None
    shown = status.original.text()
    assert "The last game here is over." in shown and "/cribbage new" in shown


async def test_a_short_game_against_expert(world: World, bot: BotProcess) -> None:
    # The top level through Discord: offered by `/cribbage new`, it deals, answers every
    # move and finishes a 61-point game, rated as a player of its own.
    player = against_computer(world, 12)
    await player.open_against_computer("expert", target=61)
    snap = await player.play_out(max_steps=250)
    assert snap.status == "finished" and snap.game is not None
    assert snap.game.state.result is not None and max(snap.game.state.result.scores) >= 61
    assert player.clicks and all(c.response and c.response.type == 7 for c in player.clicks)
    al = player.players[0]
    board = await world.fd.slash(al, world.general, "/cribbage leaderboard table:computer")
    # Whole in the table's 15 characters (the old "Computer (expert)" was cut).
    assert "Expert bot" in board.words() and "…" not in board.words().split("```")[1]


async def test_the_lobby_seats_a_computer_for_three(world: World, bot: BotProcess) -> None:
    al, bea, _, _ = world.players
    fd = world.fd
    opened = await fd.slash(al, world.general, "/cribbage new players:3 target:61")
    game_id = latest_game_id(world.database, world.general.id)
    lobby = opened.original
    menu_id = f"crib:{game_id}:lobby:computer"
    assert lobby is not None and lobby.component(menu_id) is not None
    await fd.click(bea, lobby, f"crib:{game_id}:lobby:join")
    refused = await fd.select(bea, lobby, menu_id, ["easy"])
    assert "Only the player who opened this game" in refused.words()
    added = await fd.select(al, lobby, menu_id, ["medium"])
    assert added.response is not None and added.response.type == 7
    assert "Medium bot" in lobby.words()
    assert lobby.component(menu_id) is None, "a full table offers no more computers"
    await fd.click(al, lobby, f"crib:{game_id}:lobby:start")

    def started() -> Game | None:
        return read_game(world.database, game_id).game

    game = await until(fd, started)
    assert game.pending_discards() == (0, 1)
    # Both people get their hands by DM; the computer's single card is already in the crib.
    await until(fd, lambda: all(any(m.selects() for m in fd.dms(u)) for u in (al, bea)))


async def test_expert_answers_after_the_click_and_even_after_a_kill(
    world: World, bot: BotProcess
) -> None:
    # Expert thinks for milliseconds: the click is answered with the person's own move, and the
    # computer's play follows as an edit of the same hand. Killed the moment such a click is
    # answered (its play not yet made), the bot makes the play once started again (after the
    # click's answer can no longer be on its way), and everyone sees the game as stored.
    driver = against_computer(world, 12)
    await driver.open_against_computer("expert", target=61)
    fd = world.fd
    for _ in range(60):
        snap = driver.snapshot()
        assert snap.status == "active" and snap.game is not None
        seat, prompt, action = await driver.next_move(snap)
        then = dataclasses.replace(snap, game=after_action(snap.game, action))
        if not driver.computer_owes(then):
            await driver.after(snap, action, await driver.act(snap, seat, action, prompt))
            continue
        hook = fd.after_request(r"/callback$", lambda _: bot.kill_now())
        sent = await driver.send(snap, seat, action, prompt)
        await sent.wait_for(lambda i: i.response is not None)
        assert hook.routes, "the bot was killed the moment the move was answered"
        await bot.kill()
        stored = driver.sync()
        assert stored.version == snap.version + 1 and driver.computer_owes(stored)
        # The answer went out with the computer still to play: Al's hand shows his move.
        assert sent.response is not None and sent.response.type == 7
        data = sent.response.data
        content = words_of(data.get("content") or "", data.get("components") or [])
        assert "Expert bot to play." in content, content
        await start_again(fd, bot)
        # The answer owed is made once the click's answer can no longer be on its way
        # (COMPUTER_ANSWER_AFTER, 3 s, after the move: a pause well within STALL).
        await until(fd, functools.partial(lambda v: driver.snapshot().version > v, stored.version))
        current = await driver.expect_current()
        assert current.version == stored.version + 1
        assert current.game is not None and not driver.computer_owes(current)
        # And the deal plays on to its end.
        await driver.play_deal()
        return
    raise AssertionError("no click left the computer's answer owed")
