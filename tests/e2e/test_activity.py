"""The game as an Activity, end to end (issue 36): the bot as it runs (``python -m bot`` with the
game pages and ``CLIENT_SECRET``), fakediscord as Discord (the OAuth2 code grant, the Activity's
instance, the proxy on the app's own origin) and its stand-in for the Discord client, which hosts
the Activity in an iframe in Chromium and answers the Embedded App SDK's messages.

One whole game, to 61 with manual counting: Bea opens the Activity from the Entry Point command
on her phone, Al from the lobby's *Play at the table* on a desktop, Eve joins to watch. Bea takes
her seat and Al deals from the table; they play every deal there (cards tapped, counts claimed,
muggins called; Al asks for a hint, the opener having allowed them), with some moves typed
in the chat between, while each page follows at once.
Every frame and every answer each page receives is checked for a card its person may not know;
the connections are cut once mid-game and the pages come back to the game as it stands; the
pages are photographed at a phone's size and a desktop's; the result, its review and a new
game's choices close it.
"""

from __future__ import annotations

from pathlib import Path

from engine.phase import Phase
from fakediscord import Message
from fakediscord.testing import BotLauncher
from tests.helpers.activity_pages import (
    SHOWN_WITHIN,
    Knowledge,
    Players,
    all_checked,
    button,
    dealt_at_the_table,
    fits,
    open_page,
    shows,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id, read_game
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import World


async def test_a_whole_game_at_the_table_inside_discord(
    world: World, bots: BotLauncher, tmp_path: Path
) -> None:
    fd, general = world.fd, world.general
    al, bea = world.players[0], world.players[1]
    eve = world.spectator
    # The clock never closes a muggins window here: every claim is settled by a player.
    await with_the_activity(fd, bots, world.database, world.guild, MUGGINS_SECONDS="3600")
    db = world.database

    opened = await fd.slash(
        al, general, "/cribbage new players:2 target:61 counting:manual hints:True"
    )
    lobby = opened.original
    assert lobby is not None
    # Bea opens the table from the App Launcher (the Entry Point command, the bot's to answer).
    launched = await fd.launch(bea, general)
    assert launched.response is not None and launched.response.type == 12
    instance = launched.activity_instance
    assert instance is not None
    # Al from the lobby's button: the same Activity; Eve joins to watch.
    clicked = await fd.click(al, lobby, button(lobby, "Play at the table"))
    assert clicked.response is not None and clicked.activity_instance is instance
    fd.activities.join(eve, general)
    game_id = latest_game_id(db, general.id)

    async with open_browser() as browser:
        bea_page = await open_page(browser, fd, bea, instance, phone=True)
        al_page = await open_page(browser, fd, al, instance, phone=False)
        eve_page = await open_page(browser, fd, eve, instance, phone=False)
        people = [al_page, bea_page, eve_page]
        await shows(eve_page, game_id, read_game(db, game_id).version)
        # From the table: Bea takes her seat, Al deals.
        await dealt_at_the_table(fd, db, game_id, al_page, bea_page)
        snap = read_game(db, game_id)
        assert snap.game is not None
        # The opener allowed hints: Al asks for one at the discard; it is said under his hand
        # alone, and the game does not move.
        await al_page.table.locator('[data-key="hint"]').click()
        hinted = al_page.table.locator('[data-key="hint-line"]', has_text="Hint: keep")
        await hinted.wait_for(timeout=SHOWN_WITHIN)
        assert read_game(db, game_id).version == snap.version
        assert await bea_page.table.locator('[data-key="hint-line"]').count() == 0
        # The deal's table offers the table too (the lobby's button is closed now).
        await fd.wait_for(
            lambda: any(
                "Deal 1" in m.words()
                and any(b.get("label") == "Play at the table" for b in m.buttons())
                for m in fd.messages(general)
            ),
            timeout=30,
            stall=20,
        )
        knowledge = Knowledge({al.id: 0, bea.id: 1})
        players = Players(fd, db, game_id, general, {0: al, 1: bea}, {0: al_page, 1: bea_page})
        moves = cards = 0
        cut = False
        pictures: set[str] = set()
        while snap.game is not None and snap.game.state.phase is not Phase.OVER:
            cards += await all_checked(people, knowledge, game_id, snap)
            phase = snap.game.state.phase.value
            if phase not in pictures:
                # Each phase once, on the phone and a desktop.
                pictures.add(phase)
                await fits(bea_page, tmp_path / f"phone-{phase}.png")
                await fits(al_page, tmp_path / f"desktop-{phase}.png")
            move = players.next(snap)
            if moves == 6 and not cut:
                # The line drops: a move made in the chat meanwhile is on every page once it
                # is back.
                cut = True
                await fd.activity_host.drop_connections(refuse=True)
                await eve_page.table.locator(".status", has_text="reconnecting").wait_for()
                snap = await players.make(snap, move, chat=True)
                fd.activity_host.reconnect()
            else:
                typed = moves % 5 == 4 and move.kind in ("discard", "play", "count")
                snap = await players.make(snap, move, chat=typed)
            moves += 1

        assert cut and moves > 40
        cards += await all_checked(people, knowledge, game_id, snap)
        assert cards > 200, f"only {cards} card mentions checked"
        # The coach spoke to the players alone; the chances and a muggins were seen by all.
        for person in people:
            looks = person.states()
            coached = any(s.get("coach") for s in looks)
            assert coached == (person is not eve_page), person.user.name
            assert any(s.get("chances") for s in looks)
            assert any("Muggins" in (s.get("caption") or "") for s in looks)
        # The result, its review, and a new game's choices.
        await al_page.table.locator(".over .result").wait_for()
        await fits(bea_page, tmp_path / "phone-over.png")
        await al_page.table.locator('[data-key="review"]').click()
        await al_page.table.locator(".review .msg").first.wait_for(timeout=120_000)
        await fits(al_page, tmp_path / "desktop-review.png")
        await eve_page.table.locator('[data-key="open"]').click()

        def new_lobby() -> Message | None:
            return next(
                (
                    m
                    for m in fd.messages(general)
                    if m is not lobby
                    and "Eve" in m.words()
                    and any(b.get("label") == "Play at the table" for b in m.buttons())
                ),
                None,
            )

        await fd.wait_for(new_lobby, timeout=60, stall=20)
        fresh = latest_game_id(db, general.id)
        await eve_page.table.locator(f'#app[data-game="{fresh}"][data-status="lobby"]').wait_for(
            state="attached", timeout=SHOWN_WITHIN
        )
        # Nothing went wrong in any browser: no console error (a content-policy refusal of an
        # inline style was one, for every avatar drawn), no uncaught exception.
        for person in people:
            assert person.errors == [], (person.user.name, person.errors)
