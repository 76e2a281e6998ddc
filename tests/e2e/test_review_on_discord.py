"""The review of a game through Discord: the result's Review button and `/cribbage review`,
private, paged with Previous / Next; refused for a game still going to those who do not play
it; accuracy in `/cribbage stats`, from reviews made by themselves as games end."""

from __future__ import annotations

import json
import random
import sqlite3

from bot.core.messages.table import NOT_SEALED
from bot.core.review.report import UNSEALED_LINE
from bot.core.review.verify import not_sealed
from fakediscord.testing import BotProcess
from tests.helpers.bot_db import rows
from tests.helpers.table_driver import World, resign, start_again, until


async def test_review_by_button_and_command_paged_and_private(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    rng = random.Random(23)
    driver = world.driver([al, bea], rng)
    await driver.open(target=61)
    await driver.play_deal()

    # While the game goes on, someone who does not play it is refused, and no card is shown.
    going = await fd.slash(cy, world.general, "/cribbage review")
    assert going.ephemeral and "still going" in going.words(), going.words()

    resigned = await resign(fd, al, world.general)
    assert resigned.original is not None and resigned.original.words() == "You resigned."
    final = await driver.expect_current()
    assert final.status == "finished"

    result = driver.message("result")
    assert result is not None
    opened = await fd.click(bea, result, label="🔍 Review")
    # The first review starts the review worker: the answer may follow a deferral.
    await opened.wait_for(
        lambda i: any("Review of game" in m.words() for m in i.messages()), timeout=60
    )
    messages = opened.messages()
    assert messages and all(m.ephemeral for m in messages), messages
    summary = next(m for m in messages if "Review of game" in m.words())
    assert "— Bea**" in summary.words() and "Page 1 of" in summary.words(), summary.words()

    # Next, then Previous, on the private message itself.
    turned = await fd.click(bea, summary, label="Next ▶")
    assert turned.response is not None and turned.response.type == 7
    assert "**Deal 1**" in summary.words() and "Page 2 of" in summary.words(), summary.words()
    assert summary.attachments, "the board as the deal began"
    back = await fd.click(bea, summary, label="◀ Previous")
    assert back.response is not None and "Page 1 of" in summary.words()

    # The command, for a game by number; another player's review once the game is over.
    game = driver.game_id
    # (A review not made yet is made first: its answer may follow a deferral.)
    mine = await fd.slash(al, world.general, f"/cribbage review game:{game}")
    await mine.wait_settled(timeout=60)
    assert mine.ephemeral and "— Al**" in mine.words(), mine.words()
    theirs = await fd.slash(cy, world.general, f"/cribbage review game:{game} player:{bea.name}")
    await theirs.wait_settled(timeout=60)
    assert theirs.ephemeral and "— Bea**" in theirs.words(), theirs.words()
    missing = await fd.slash(al, world.general, f"/cribbage review game:{game + 1000}")
    assert missing.ephemeral and missing.words() == "I can't find that game in this server."

    stats = await fd.slash(al, world.general, "/cribbage stats")
    assert "**Accuracy**" in stats.words(), stats.words()


def _reviewed(world: World, game_id: int) -> list[tuple[object, ...]]:
    """The game's kept final reviews (seat, user), once its automatic review is noted done."""
    done = rows(world.database, "SELECT outcome FROM auto_reviews WHERE game_id = ?", (game_id,))
    if done != [("reviewed",)]:
        return []
    return rows(
        world.database,
        "SELECT seat, user_id FROM reviews WHERE game_id = ? AND final = 1 ORDER BY seat",
        (game_id,),
    )


async def test_a_finished_game_is_reviewed_by_itself_and_again_after_a_restart(
    world: World, bot: BotProcess
) -> None:
    """Nobody presses Review: the game that ends is reviewed in the background, and `/cribbage
    stats` shows the accuracy; a game left unreviewed when the bot stopped (its review cut
    short) is reviewed after the next start."""
    fd, (al, bea), driver = await world.open_for_two(random.Random(5), target=61)
    await driver.play_deal()
    resigned = await resign(fd, bea, world.general)
    assert resigned.original is not None and resigned.original.words() == "You resigned."
    game = driver.game_id
    assert (await driver.expect_current()).status == "finished"
    # The first review starts the review worker.
    made = await until(fd, lambda: _reviewed(world, game), stall=None)
    assert made == [(0, al.id), (1, bea.id)]
    stats = await fd.slash(al, world.general, "/cribbage stats")
    assert "**Accuracy**" in stats.words() and "last 1 reviewed game" in stats.words(), (
        stats.words()
    )

    # Stopped, as if the reviews had been cut short: nothing kept of them.
    await bot.stop()
    with sqlite3.connect(world.database) as db:
        db.execute("DELETE FROM reviews WHERE game_id = ?", (game,))
        db.execute("DELETE FROM auto_reviews WHERE game_id = ?", (game,))
    await start_again(fd, bot)
    again = await until(fd, lambda: _reviewed(world, game), stall=None)
    assert again == made


async def test_a_game_begun_before_sealed_shuffles_says_its_deals_cant_be_checked(
    world: World, bot: BotProcess
) -> None:
    """A game the bot began before it sealed its shuffles (made so here: its seeds taken out
    of its snapshot while the bot was stopped) plays on after the upgrade: every deal's table
    says, where a sealed game shows its seal, that its deals can't be checked, and so does its
    review, and `/cribbage verify` (which checks a sealed deal against its seal)."""
    fd, (al, bea), driver = await world.open_for_two(random.Random(11), target=61)
    await driver.play_deal()
    first = driver.message("table:1")
    assert first is not None
    assert "🔒 Shuffle sealed: SHA-256" in first.words(), first.words()
    # While the game is sealed, /cribbage verify checks the shown deal against its seal.
    # (Its answer may follow a deferral: the review worker may be busy beside it.)
    checked = await fd.slash(bea, world.general, "/cribbage verify")
    await checked.wait_settled(timeout=60)
    assert checked.ephemeral and "Deal 1: ✅ SHA-256 of seed" in checked.words(), checked.words()
    assert "Deal 2: sealed" in checked.words(), checked.words()
    # It names deal 1's starter, which deal 2 may have dealt to anyone since.
    answer = checked.original
    assert answer is not None
    driver.about_deal(answer, 1)

    await bot.stop()
    game = driver.game_id
    with sqlite3.connect(world.database) as db:
        (text,) = db.execute("SELECT snapshot FROM games WHERE id = ?", (game,)).fetchone()
        data = json.loads(text)
        del data["seeds"]
        db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(data), game))
    await start_again(fd, bot)
    await driver.play_deal()
    # Every table as the stored (unsealed) game says, the one drawn before it too.
    await driver.expect_current()
    for key in ("table:1", "table:2"):
        table = driver.message(key)
        assert table is not None and table.words().count(NOT_SEALED) == 1, table
        assert "Shuffle sealed" not in table.words() and "Shuffle seed" not in table.words()

    await resign(fd, al, world.general)
    assert (await driver.expect_current()).status == "finished"
    result = driver.message("result")
    assert result is not None
    opened = await fd.click(bea, result, label="🔍 Review")
    await opened.wait_for(
        lambda i: any("Review of game" in m.words() for m in i.messages()), timeout=60
    )
    summary = next(m for m in opened.messages() if "Review of game" in m.words())
    assert summary.ephemeral and UNSEALED_LINE in summary.words(), summary.words()
    old = await fd.slash(bea, world.general, f"/cribbage verify game:{game}")
    await old.wait_settled(timeout=60)
    assert old.ephemeral and old.words() == not_sealed(game), old.words()
    missing = await fd.slash(bea, world.general, f"/cribbage verify game:{game + 1000}")
    assert missing.ephemeral and missing.words() == "I can't find that game in this server."


async def test_a_review_with_nothing_to_judge_arrives_and_says_so(
    world: World, bot: BotProcess
) -> None:
    """Resigned before the first discard: the review is one page, with no button to turn it
    (Discord refuses two buttons of one id), and it says there was nothing to judge."""
    fd = world.fd
    al = world.players[0]
    opened = await fd.slash(al, world.general, "/cribbage new vs_computer:True")
    assert opened.original is not None, opened.words()
    await resign(fd, al, world.general)
    asked = await fd.slash(al, world.general, "/cribbage review")
    await asked.wait_for(
        lambda i: any("Review of game" in m.words() for m in i.messages()), timeout=60
    )
    review = next(m for m in asked.messages() if "Review of game" in m.words())
    assert review.ephemeral and "Nothing to judge" in review.words(), review.words()
    assert "Page" not in review.words() and not list(review.buttons())
    refused = [r for r in fd.requests if r.status >= 400]
    assert refused == [], refused
