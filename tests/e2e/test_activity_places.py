"""The table inside Discord where it meets other features, end to end in Chromium: opened in a
tournament match's thread, it shows the match's game, and once the match is over it offers
neither a rematch nor a game of one's own (the tournament deals the thread's games, and ends
one opened there), saying why."""

from __future__ import annotations

from fakediscord import Channel, Message
from fakediscord.testing import BotLauncher
from tests.helpers.activity_pages import (
    SHOWN_WITHIN,
    launched,
    open_page,
    shows,
    version_of,
    with_the_activity,
)
from tests.helpers.bot_db import rows
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import World, resign, until


async def test_a_tournament_threads_table_shows_the_match_and_opens_no_game_of_its_own(
    world: World, bots: BotLauncher
) -> None:
    fd, db, general = world.fd, world.database, world.general
    al = world.players[0]
    entrants = world.players[:4]
    await with_the_activity(fd, bots, db, world.guild)
    opened = await fd.slash(world.moderator, general, "/cribbage tournament new target:61")
    assert opened.ephemeral, opened.words()

    def board() -> Message | None:
        return next((m for m in general.messages if "tournament**" in m.words()), None)

    live = await until(fd, board)
    for user in entrants:
        await fd.click(user, live, label="Join")
    started = await fd.slash(world.moderator, general, "/cribbage tournament start")
    assert not started.ephemeral, started.words()

    def thread() -> Channel | None:
        # Al's pairing's thread ("Round 1 · Al vs Bea"), once its game is dealt.
        found = [
            c
            for c in world.guild.channels.values()
            if c.is_thread and al.name in c.name.split(" · ")[-1].split(" vs ")
        ]
        return found[0] if found and any("Deal 1" in m.words() for m in found[0].messages) else None

    match = await until(fd, thread)

    def dealt() -> int | None:
        [(game,)] = rows(db, "SELECT MAX(id) FROM games WHERE channel_id = ?", (match.id,))
        return None if game is None else int(game)

    game_id = await until(fd, dealt)
    instance = await launched(fd, al, match)
    async with open_browser() as browser:
        page = await open_page(browser, fd, al, instance, phone=True)
        await shows(page, game_id, version_of(db, game_id))
        assert await page.table.locator(".hand").count() == 1, "Al's hand, at his table"
        # His opponent concedes in the chat: the match is over.
        names = match.name.split(" · ")[-1].split(" vs ")
        opponent = next(u for u in entrants if u.name in names and u is not al)
        conceded = await resign(fd, opponent, match)
        assert conceded.original is not None
        await page.table.locator(".over").wait_for(timeout=SHOWN_WITHIN)
        # (The result and what follows it are drawn together.)
        for key in ("open", "rematch", "everyone"):
            assert await page.table.locator(f'[data-key="{key}"]').count() == 0, key
        assert await page.table.locator(".new-game").count() == 0
        said = await page.table.locator('[data-key="match-thread"]').inner_text()
        assert "tournament" in said, said
        assert not page.errors, page.errors
