"""Hints and ``/cribbage learn`` through Discord (issue 56, items 2 and 3).

A newcomer is offered the lesson once by ``/cribbage help``; ``/cribbage learn`` in a server
says privately that the game is dealt in the bot's DM, and there the tables explain each rule
the first time it comes up, with the counts said as players say them. The learner asks for a
hint (answered to them alone, the game unchanged), leaves after the first deal and picks the
lesson up again from the server (their hand, privately) and with a command typed in the DM,
then plays it to its end, whose result says the rules the game never showed (so each rule is
taught once) and points at ``/cribbage new`` and ``/cribbage help`` (the game it suggests,
typed as it says, is against the lesson's gentle computer). A *Hint* on a ranked game's hand
is refused in one sentence. A learner whose DMs are closed to
the bot is told so, and what helps, and nothing is dealt; one who closes them during a lesson
plays on from its private hand, and the bot tries the DM once.
"""

from __future__ import annotations

import re

from bot.core.base.refusals import HINTS_RANKED, LESSON_DMS_CLOSED, LESSON_DMS_CLOSED_ELSEWHERE
from bot.core.messages.lesson import HINT_FIGURES, LESSON_END, RULES
from bot.core.play.lessons import LESSON_OFFER
from engine.phase import Phase
from fakediscord import FakeDiscord, Message, User
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import Database, latest_game_id, read_game, rows
from tests.helpers.in_process import everywhere
from tests.helpers.ranked_driver import matched_across_servers
from tests.helpers.table_driver import World, refused_dms, until


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


class _Learner:
    """Al at his lesson, moving on the hand in his DM with the bot."""

    def __init__(self, fd: FakeDiscord, db: Database, al: User, game_id: int) -> None:
        self.fd, self.db, self.al, self.game_id = fd, db, al, game_id

    async def move(self) -> None:
        """Al's move now (two cards to the crib, or his first card that may go)."""
        fd, db, al, game_id = self.fd, self.db, self.al, self.game_id
        snap = read_game(db, game_id)
        game = snap.game
        assert game is not None
        if game.state.phase is Phase.DISCARD:
            select = f"crib:{game_id}:discard:{game.state.deal_number}"
            prompt = await until(fd, lambda: _newest(fd.dms(al), select))
            options = next(s for s in prompt.selects() if s["custom_id"] == select)["options"]
            await fd.select(al, prompt, select, [o["value"] for o in options[:2]])
        else:
            prefix = f"crib:{game_id}:play:{snap.version}:"
            prompt = await until(fd, lambda: _newest(fd.dms(al), prefix))
            await fd.click(al, prompt, _first_enabled(prompt, prefix))
        await until(fd, lambda: read_game(db, game_id).version > snap.version or None)

    def my_turn_or_over(self) -> bool | None:
        """True once Al has a move to make, or the lesson is over."""
        snap = read_game(self.db, self.game_id)
        game = snap.game
        if snap.status != "active" or game is None or game.state.phase is Phase.OVER:
            return True
        if game.state.phase is Phase.DISCARD:
            return 0 in game.pending_discards() or None
        return (game.state.phase is Phase.PLAY and game.state.turn == 0) or None

    def deal_now(self) -> int:
        """The lesson's deal number now."""
        game = read_game(self.db, self.game_id).game
        assert game is not None
        return game.state.deal_number

    async def play_deal(self, *, shown: bool = True) -> int:
        """Al's moves until the deal is over; then, while the game goes on and ``shown``, its
        table, once it shows its show (a player reads it: the DM's pace keeps the table a few
        edits behind the moves, and one three deals behind is no longer drawn)."""
        fd, db, al, game_id = self.fd, self.db, self.al, self.game_id
        deal = self.deal_now()
        while True:
            await until(fd, self.my_turn_or_over)
            if read_game(db, game_id).status != "active" or self.deal_now() > deal:
                break
            await self.move()

        def table_shown() -> Message | None:
            return next(
                (
                    m
                    for m in fd.dms(al)
                    if f"**Deal {deal}**" in m.words() and "Scores —" in m.words()
                ),
                None,
            )

        if shown and read_game(db, game_id).status == "active":
            await until(fd, table_shown)  # (the last deal's show is followed by the result)
        return deal


async def _al(world: World, bots: BotLauncher) -> tuple[FakeDiscord, Database, User]:
    """The bot started, with its commands synced globally (as in production: a development
    guild's commands don't reach DMs); Discord, the bot's database and Al."""
    await bots.process(database=world.database)
    return world.fd, world.database, world.players[0]


async def test_a_lesson_in_the_dm_explains_the_rules_and_is_left_and_picked_up_again(
    world: World, bots: BotLauncher
) -> None:
    fd, db, al = await _al(world, bots)
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
    assert HINT_FIGURES["discard"] in hinted.words(), "a learner is told what the figures mean"
    assert read_game(db, game_id).version == version

    # The DM's first line is the lesson's welcome, posted before it was dealt.
    assert fd.dms(al)[0].words().startswith("📘 Your first game is dealt below")
    learner = _Learner(fd, db, al, game_id)
    # The first deal, played out; then Al leaves, and comes back from the server.
    assert await learner.play_deal() == 1
    back = await fd.slash(al, world.general, "/cribbage learn")
    assert back.ephemeral and back.words().startswith("Your hand, deal 2."), back.words()
    typed = await fd.slash(al, dm, "/cribbage hand")
    assert typed.ephemeral and typed.words().startswith("Your hand, deal 2."), typed.words()
    # Played to its end.
    for _ in range(40):
        if read_game(db, game_id).status != "active":
            break
        await learner.play_deal()
    assert read_game(db, game_id).status == "finished"

    def ended() -> Message | None:
        return next((m for m in fd.dms(al) if LESSON_END in m.words()), None)

    result = await until(fd, ended)
    labels = [b.get("label") for b in result.buttons()]
    assert "Rematch" not in labels and "Play again" not in labels, labels
    # Each rule explained once: on the table of the deal it first came up in (the last deal's
    # table ends on the lurch, once the DM's pace lets its last edit through), or, never met,
    # on the result.
    await until(fd, lambda: _explained(fd.dms(al), RULES["lurch"][0]))
    messages = fd.dms(al)
    for rule in RULES:
        assert len(_explained(messages, RULES[rule][0])) == 1, rule
    assert any("fifteen two" in m.words() for m in messages)
    # Over, the lesson is the DM's last game: /cribbage status there shows how it ended and
    # that /cribbage learn deals another (it said Al had no game in the bot's DMs), and a
    # review there reviews it.
    status = await fd.slash(al, dm, "/cribbage status")
    said = status.words()
    assert said.startswith("The last game here is over.") and "🏆" in said, said
    assert "`/cribbage learn`" in said, said
    review = await fd.slash(al, dm, "/cribbage review")
    assert review.words().startswith(f"**Review of game {game_id}"), review.words()
    # The next game the result suggests, typed as it says, is a whole one against the
    # lesson's own gentle computer (the default level is the hard one).
    [suggested] = re.findall(r"`(/cribbage new [^`]*)`", LESSON_END)
    opened = await fd.slash(al, world.general, suggested)
    assert opened.original is not None and "The game has started." in opened.original.words()
    assert "Easy bot" in opened.original.words(), opened.original.words()


async def test_a_learner_whose_dms_are_closed_asking_in_a_group_dm_is_not_sent_to_a_server_there(
    world: World, bots: BotLauncher
) -> None:
    # A group DM has no server whose members' DMs could be allowed: the answer says where
    # that setting is (a server that invited the bot), not "this server's members".
    fd, db, al = await _al(world, bots)
    bea = world.players[1]
    for user in (al, bea):
        fd.install_app(user)
    fd.close_dms(al)
    group = fd.private_channel(al, bea)
    told = await fd.slash(al, group, "/cribbage learn")
    assert told.ephemeral and told.words() == LESSON_DMS_CLOSED_ELSEWHERE, told.words()
    assert rows(db, "SELECT COUNT(*) FROM games") == [(0,)], "nothing is dealt"


async def test_a_learner_whose_dms_are_closed_is_told_what_helps_and_nothing_is_dealt(
    world: World, bots: BotLauncher
) -> None:
    fd, db, al = await _al(world, bots)
    fd.close_dms(al)
    told = await fd.slash(al, world.general, "/cribbage learn")
    assert told.ephemeral and told.words() == LESSON_DMS_CLOSED, told.words()
    assert rows(db, "SELECT COUNT(*) FROM games") == [(0,)], "nothing is dealt"
    assert refused_dms(fd) == 1
    # Al lets the bot message him and asks again: the lesson is dealt there, welcomed first.
    fd.open_dms(al)
    dealt = await fd.slash(al, world.general, "/cribbage learn")
    assert dealt.ephemeral and "in our DM" in dealt.words(), dealt.words()
    await until(fd, lambda: _explained(fd.dms(al), RULES["deal"][0]))
    assert fd.dms(al)[0].words().startswith("📘 Your first game is dealt below")

    def tried_once() -> None:
        assert refused_dms(fd) == 1

    fd.at_the_end(tried_once)


async def test_a_lesson_whose_dm_closes_goes_on_privately_and_is_not_tried_there_again(
    world: World, bots: BotLauncher
) -> None:
    fd, db, al = await _al(world, bots)
    await fd.slash(al, world.general, "/cribbage learn")
    dm = fd.dm_channel(al)
    game_id = await until(fd, lambda: latest_game_id(db, dm.id))
    await until(fd, lambda: _explained(fd.dms(al), RULES["deal"][0]))
    learner = _Learner(fd, db, al, game_id)
    await learner.move()  # his discard, from the DM
    # Al closes his DMs to the bot: the next deal's table is refused there, once.
    fd.close_dms(al)
    assert await learner.play_deal(shown=False) == 1
    await until(fd, lambda: refused_dms(fd) or None)
    # /cribbage learn in the server: his hand of the lesson, privately, and it goes on.
    back = await fd.slash(al, world.general, "/cribbage learn")
    assert back.ephemeral and back.words().startswith("Your hand, deal 2."), back.words()
    assert back.original is not None
    hand, select = back.original, f"crib:{game_id}:discard:2"
    await until(fd, lambda: hand.component(select))  # (its controls come with an edit)
    version = read_game(db, game_id).version
    options = next(s for s in hand.selects() if s["custom_id"] == select)["options"]
    await fd.select(al, hand, select, [o["value"] for o in options[:2]])
    await until(fd, lambda: read_game(db, game_id).version > version or None)

    def tried_once() -> None:
        assert refused_dms(fd) == 1

    fd.at_the_end(tried_once)


async def test_a_hint_in_ranked_play_is_refused(world: World, bots: BotLauncher) -> None:
    async with everywhere(bots, world.database):
        fd = world.fd
        al = world.players[0]
        driver = await matched_across_servers(world)
        await driver.next_game()
        table = driver.table_now(1)
        assert table is not None
        # No Hint is offered on a ranked hand; one forged is refused, and nothing moves.
        version = read_game(world.database, driver.game_id).version
        forged = await fd.forged_click(al, table, f"crib:{driver.game_id}:hint:1")
        assert forged.ephemeral and forged.words() == HINTS_RANKED, forged.words()
        assert read_game(world.database, driver.game_id).version == version
