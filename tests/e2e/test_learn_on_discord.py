"""Hints and ``/cribbage learn`` through Discord (issue 56, items 2 and 3).

A newcomer is offered the lesson once by ``/cribbage help``; ``/cribbage learn`` in a server
says privately that the game is dealt in the bot's DM, and there the tables explain each rule
the first time it comes up, with the counts said as players say them. The learner asks for a
hint (answered to them alone, the game unchanged), leaves after the first deal and picks the
lesson up again from the server (their hand, privately) and with a command typed in the DM,
then plays it to its end, whose result points at ``/cribbage new`` and ``/cribbage help``. A
*Hint* on a ranked game's hand is refused in one sentence.
"""

from __future__ import annotations

from bot.core.base.refusals import HINTS_RANKED
from bot.core.messages.lesson import LESSON_END, RULES
from bot.core.play.lessons import LESSON_OFFER
from engine.phase import Phase
from fakediscord import Message
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import latest_game_id, read_game
from tests.helpers.in_process import everywhere
from tests.helpers.private_driver import uninvited_server
from tests.helpers.ranked_driver import Place, RankedDriver, entry_of
from tests.helpers.table_driver import World, until


def _newest(messages: list[Message], custom_id: str) -> Message | None:
    """The newest of ``messages`` with an enabled component whose id starts so."""
    for message in reversed(messages):
        for item in message.walk():
            if str(item.get("custom_id", "")).startswith(custom_id) and not item.get("disabled"):
                return message
    return None


def _first_enabled(message: Message, prefix: str) -> str:
    return next(
        str(b["custom_id"])
        for b in message.buttons()
        if str(b.get("custom_id", "")).startswith(prefix) and not b.get("disabled")
    )


def _explained(messages: list[Message], title: str) -> list[Message]:
    return [m for m in messages if f"📘 **{title}**" in m.words()]


async def test_a_lesson_in_the_dm_explains_the_rules_and_is_left_and_picked_up_again(
    world: World, bots: BotLauncher
) -> None:
    # Synced globally (as in production): a development guild's commands don't reach DMs.
    await bots.process(database=world.database)
    fd, db = world.fd, world.database
    al = world.players[0]
    offered = await fd.slash(al, world.general, "/cribbage help")
    assert offered.ephemeral and LESSON_OFFER in offered.words()
    again = await fd.slash(al, world.general, "/cribbage help")
    assert "New to cribbage?" not in again.words() and "/cribbage learn" in again.words()

    dealt = await fd.slash(al, world.general, "/cribbage learn")
    assert dealt.ephemeral and "in our DM" in dealt.words(), dealt.words()
    dm = fd.dm_channel(al)
    game_id = await until(fd, lambda: latest_game_id(db, dm.id))  # the lesson, in the DM
    table = await until(fd, lambda: _explained(fd.dms(al), RULES["deal"][0]))
    assert len(table) == 1
    # A hint, asked for on the hand: to Al alone, and the game does not move.
    discard_id = f"crib:{game_id}:discard:1"
    hand = await until(fd, lambda: _newest(fd.dms(al), discard_id))
    version = read_game(db, game_id).version
    hinted = await fd.click(al, hand, label="💡 Hint")
    assert hinted.ephemeral and hinted.words().startswith("💡 Hint: keep "), hinted.words()
    assert read_game(db, game_id).version == version

    async def move() -> None:
        snap = read_game(db, game_id)
        game = snap.game
        assert game is not None
        if game.phase is Phase.DISCARD:
            select = f"crib:{game_id}:discard:{game.deal_number}"
            prompt = await until(fd, lambda: _newest(fd.dms(al), select))
            options = next(s for s in prompt.selects() if s["custom_id"] == select)["options"]
            await fd.select(al, prompt, select, [o["value"] for o in options[:2]])
        else:
            prefix = f"crib:{game_id}:play:{snap.version}:"
            prompt = await until(fd, lambda: _newest(fd.dms(al), prefix))
            await fd.click(al, prompt, _first_enabled(prompt, prefix))
        await until(fd, lambda: read_game(db, game_id).version > snap.version or None)

    def my_turn_or_over() -> bool | None:
        snap = read_game(db, game_id)
        game = snap.game
        if snap.status != "active" or game is None or game.phase is Phase.OVER:
            return True
        if game.phase is Phase.DISCARD:
            return 0 in game.pending_discards() or None
        return (game.phase is Phase.PLAY and game.turn == 0) or None

    def deal_now() -> int:
        game = read_game(db, game_id).game
        assert game is not None
        return game.deal_number

    async def play_deal() -> int:
        """Al's moves until the deal is over; then, while the game goes on, its table, once it
        shows its show (a player reads it: the DM's pace keeps the table a few edits behind
        the moves, and one three deals behind is no longer drawn)."""
        deal = deal_now()
        while True:
            await until(fd, my_turn_or_over)
            if read_game(db, game_id).status != "active" or deal_now() > deal:
                break
            await move()

        def shown() -> Message | None:
            return next(
                (
                    m
                    for m in fd.dms(al)
                    if f"**Deal {deal}**" in m.words() and "Scores —" in m.words()
                ),
                None,
            )

        if read_game(db, game_id).status == "active":
            await until(fd, shown)  # (the last deal's show is followed by the result)
        return deal

    # The first deal, played out; then Al leaves, and comes back from the server.
    assert await play_deal() == 1
    back = await fd.slash(al, world.general, "/cribbage learn")
    assert back.ephemeral and back.words().startswith("Your hand, deal 2."), back.words()
    typed = await fd.slash(al, dm, "/cribbage hand")
    assert typed.ephemeral and typed.words().startswith("Your hand, deal 2."), typed.words()
    # Played to its end.
    for _ in range(40):
        if read_game(db, game_id).status != "active":
            break
        await play_deal()
    assert read_game(db, game_id).status == "finished"

    def ended() -> Message | None:
        return next((m for m in fd.dms(al) if LESSON_END in m.words()), None)

    result = await until(fd, ended)
    labels = [b.get("label") for b in result.buttons()]
    assert "Rematch" not in labels and "Play again" not in labels, labels
    # Each rule explained once, on the table of the deal it first came up in (the last deal's
    # table ends on the lurch, once the DM's pace lets its last edit through).
    await until(fd, lambda: _explained(fd.dms(al), RULES["lurch"][0]))
    messages = fd.dms(al)
    for rule in ("deal", "starter", "play", "fifteen", "go", "show", "lurch"):
        assert len(_explained(messages, RULES[rule][0])) == 1, rule
    assert any("fifteen two" in m.words() for m in messages)


async def test_a_hint_in_ranked_play_is_refused(world: World, bots: BotLauncher) -> None:
    async with everywhere(bots, world.database):
        fd = world.fd
        al, bea, _, di = world.players
        lounge = uninvited_server(fd, bea, di)
        await fd.slash(bea, lounge, "/cribbage ranked play")
        await fd.slash(al, world.general, "/cribbage ranked play")
        _, _, match_id = entry_of(world.database, al)
        assert match_id is not None
        places = [Place(bea, lounge, [di]), Place(al, world.general, [world.spectator])]
        driver = RankedDriver(fd, world.database, places, match_id)
        await driver.next_game()
        table = driver.table_now(1)
        assert table is not None
        # No Hint is offered on a ranked hand; one forged is refused, and nothing moves.
        version = read_game(world.database, driver.game_id).version
        forged = await fd.forged_click(al, table, f"crib:{driver.game_id}:hint:1")
        assert forged.ephemeral and forged.words() == HINTS_RANKED, forged.words()
        assert read_game(world.database, driver.game_id).version == version
