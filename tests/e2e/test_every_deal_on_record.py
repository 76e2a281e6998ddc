"""Every deal on the record at any pace (issue 67, item 1).

A game against the computer played as fast as the bot answers: a *Hint* before each decision,
then each move the moment it is offered. The computer answers at once, so deals go by faster
than a channel takes new messages (Discord: 5 in 5 s), and the table of a deal three behind is
no longer in the game's deal log. A newer deal may supersede a table's *live* look; never the
deal's own final table: once the bot has caught up, every deal's table shows what the game's
own record says of it (replayed from its shuffles and its action log), its calls and its show,
in a server's channel, at a private table in a DM between people (its one message, each deal's
table a look of it), and in a lesson in the learner's DM (with the rules each deal explains).
"""

from __future__ import annotations

from collections.abc import Callable

from fakediscord import FakeDiscord, Message
from fakediscord.interactions import STALL
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.bot_db import Database, latest_game_id, read_game
from tests.helpers.final_tables import (
    FullSpeed,
    Recorded,
    lesson_problems,
    private_problems,
    recorded_deals,
    table_problems,
)
from tests.helpers.private_driver import conversation
from tests.helpers.table_checks import why_unmet
from tests.helpers.table_driver import World, until


def _over(database: Database, game_id: int) -> bool:
    return read_game(database, game_id).status != "active"


async def _caught_up(
    fd: FakeDiscord, problems: Callable[[], list[str]], recorded: Recorded
) -> None:
    """Wait until the bot shows every deal's final table; fail naming each deal it does not."""
    try:
        await until(fd, lambda: not problems() or None)
    except TimeoutError as waited:
        found = "\n".join(problems())
        raise AssertionError(
            f"{len(recorded.finished())} deals, and {why_unmet(waited, STALL)}:\n{found}"
        ) from None


async def test_every_deals_final_table_in_a_channel_at_full_speed(
    world: World, bot: BotProcess
) -> None:
    fd, al = world.fd, world.players[0]
    opened = await fd.slash(al, world.general, "/cribbage new vs_computer:True difficulty:easy")
    assert opened.original is not None and not opened.ephemeral
    game_id = latest_game_id(world.database, world.general.id)
    player = FullSpeed(fd, al, lambda: fd.dms(al), lambda: _over(world.database, game_id))
    await player.play()
    recorded = recorded_deals(world.database, game_id)
    assert len(recorded.finished()) >= 5, "deals enough to outrun the channel's pace"
    await _caught_up(fd, lambda: table_problems(fd, world.general, recorded), recorded)


async def test_every_deals_final_table_in_a_lesson_at_full_speed(
    world: World, bots: BotLauncher
) -> None:
    await bots.process(database=world.database)
    fd, al = world.fd, world.players[0]
    dealt = await fd.slash(al, world.general, "/cribbage learn")
    assert dealt.ephemeral and "in our DM" in dealt.words(), dealt.words()
    dm = fd.dm_channel(al)
    game_id = await until(fd, lambda: latest_game_id(world.database, dm.id))
    player = FullSpeed(fd, al, lambda: fd.dms(al), lambda: _over(world.database, game_id))
    await player.play()
    recorded = recorded_deals(world.database, game_id)
    assert len(recorded.finished()) >= 4, "deals enough to outrun the DM's pace"

    def problems() -> list[str]:
        return [*table_problems(fd, dm, recorded), *lesson_problems(fd, dm, recorded)]

    await _caught_up(fd, problems, recorded)


async def test_every_deals_final_table_at_a_private_table_at_full_speed(
    world: World, bots: BotLauncher
) -> None:
    await bots.process(database=world.database)
    fd = world.fd
    al, bea = world.players[:2]
    dm = conversation(fd, al, bea)
    opened = await fd.slash(al, dm, "/cribbage new vs_computer:True difficulty:easy")
    table = opened.original
    assert table is not None and not opened.ephemeral, opened.words()
    game_id = latest_game_id(world.database, dm.id)
    await until(fd, lambda: [b for b in table.buttons() if b["label"] == "Your hand"] or None)
    hand = await fd.click(al, table, label="Your hand")
    await hand.wait_followups(1)

    def hands() -> list[Message]:
        return [m for m in fd.messages(dm) if m.ephemeral_for is al]

    player = FullSpeed(fd, al, hands, lambda: _over(world.database, game_id))
    await player.play()
    recorded = recorded_deals(world.database, game_id)
    assert len(recorded.finished()) >= 5
    await _caught_up(fd, lambda: private_problems(table, recorded), recorded)
