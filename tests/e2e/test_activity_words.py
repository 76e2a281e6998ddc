"""The Activity's words and colours as a newcomer meets them (issue 68, items 13 and 14), end to
end in Chromium: with one card to throw, the crib's button says "Put it in the crib"; every
seat wears its side's colour, the colour of its pegs on the board, in a game of each for
themselves too (the dots were a team's alone, the pegs' colours matching nothing on a seat);
once the game is over its last call is said no more (it stayed under the result and the
rematch after it); and a *Play again* dealt at once says the series it continues on its
table, as the chat's tables do."""

from __future__ import annotations

from fakediscord.testing import BotLauncher
from tests.helpers.activity_pages import (
    SHOWN_WITHIN,
    launched,
    open_page,
    shows_saved,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id, read_game
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import World, resign, until

#: Each seat's colour dot and each side's front peg, as the browser paints them.
COLOURS = """() => ({
  seats: [...document.querySelectorAll(".seats .seat")].map((seat) => {
    const dot = seat.querySelector(".team");
    return dot ? getComputedStyle(dot).backgroundColor : null;
  }),
  pegs: [...document.querySelectorAll("svg.board .peg:not(.back)")]
    .map((peg) => getComputedStyle(peg).fill),
})"""


async def test_one_card_to_throw_the_seats_colours_the_end_and_play_again(
    world: World, bots: BotLauncher
) -> None:
    fd, general, db = world.fd, world.general, world.database
    al = world.players[0]
    await with_the_activity(fd, bots, db, world.guild)
    opened = await fd.slash(
        al, general, "/cribbage new players:3 vs_computer:True difficulty:easy target:61"
    )
    assert opened.response is not None
    game_id = latest_game_id(db, general.id)
    instance = await launched(fd, al, general)
    async with open_browser() as browser:
        page = await open_page(browser, fd, al, instance, phone=True)
        await shows_saved(page, db, game_id)
        # Three players, each for themselves: each seat's dot is its pegs' colour.
        seen = await page.table.locator("body").evaluate(COLOURS)
        assert len(seen["pegs"]) == 3 and len(set(seen["pegs"])) == 3, seen
        assert seen["seats"] == seen["pegs"], seen
        # One card to throw: "Put it in the crib", not "them".
        snap = read_game(db, game_id)
        assert snap.game is not None
        card = snap.game.view(0).hand[0].code
        await page.table.locator(f'[data-card="{card}"]').click()
        button = page.table.locator('[data-key="discard"]')
        assert await button.inner_text() == "Put it in the crib"
        await button.click()
        # The starter turned (the computers threw theirs): a call is said at the table.
        await page.table.locator(".caption").first.wait_for(timeout=SHOWN_WITHIN)
        # Over, the last call is said no more: the result stands alone.
        await resign(fd, al, general)
        await until(fd, lambda: read_game(db, game_id).status == "finished" or None)
        await shows_saved(page, db, game_id)
        await page.table.locator(".over").wait_for(timeout=SHOWN_WITHIN)
        assert await page.table.locator(".caption").count() == 0
        # Play again, dealt at once: its table says the series it continues.
        again = page.table.locator('[data-key="rematch"]')
        assert await again.inner_text() == "Play again"
        await again.click()
        second = await until(fd, lambda: (n := latest_game_id(db, general.id)) != game_id and n)
        await shows_saved(page, db, second)
        line = page.table.locator('[data-key="series-line"]')
        await line.wait_for(timeout=SHOWN_WITHIN)
        assert (await line.inner_text()).startswith("The series, in game points — ")
        assert await page.table.locator(".caption").count() == 0
        assert page.errors == [], page.errors


async def test_the_playgrounds_client_shows_the_status_the_invite_and_the_share(
    world: World, bots: BotLauncher
) -> None:
    """Issue 68, item 10: in the playground, game night's presence, *Invite* and *Share*
    showed nothing. Its stand-in client shows what Discord would around the table: the
    status line as the app sets it, the invite dialog opened, the link shared."""
    fd, general, db = world.fd, world.general, world.database
    al, bea = world.players[:2]
    fd.activity_host.shows_discord = True  # (as the playground has it)
    await with_the_activity(fd, bots, db, world.guild)
    opened = await fd.slash(al, general, "/cribbage new players:2 target:61")
    assert opened.original is not None
    instance = await launched(fd, al, general)
    game_id = latest_game_id(db, general.id)
    async with open_browser() as browser:
        page = await open_page(browser, fd, al, instance, phone=False)
        await shows_saved(page, db, game_id)
        client = page.page
        await page.table.locator('[data-key="invite"]').click()
        dialog = client.locator("#discord-dialog")
        await dialog.wait_for(timeout=SHOWN_WITHIN)
        said = await dialog.inner_text()
        assert "Discord's invite dialog, opened for Al: invite friends to #general" in said, said
        await dialog.locator("button", has_text="Close").click()
        await dialog.wait_for(state="detached")
        # Bea takes the free seat in the chat and Al deals: his status, as Discord shows it.
        assert (await fd.slash(bea, general, "/cribbage join")).response is not None
        assert (await fd.slash(al, general, "/cribbage start")).response is not None
        status = client.locator("#discord-status")
        await status.filter(has_text="Cribbage · deal 1 · 0–0").wait_for(timeout=SHOWN_WITHIN)
        assert (await status.inner_text()).startswith("Al's Discord status: Playing "), (
            await status.inner_text()
        )
        # Bea resigns: Share, and the link shared with its message.
        await resign(fd, bea, general)
        await page.table.locator('[data-key="share"]').click()
        await dialog.wait_for(timeout=SHOWN_WITHIN)
        shared = await dialog.inner_text()
        assert "Discord's share dialog, Al sent to the chat they chose" in shared, shared
        assert "🏆 Al wins" in shared and "https://discord.com/activities/" in shared, shared
        # The game over, its status goes.
        await status.filter(has_text="cleared").wait_for(timeout=60_000)
        assert page.errors == [], page.errors
