"""The table inside Discord where it meets other features, end to end in Chromium.

In a group DM the bot is not in, with a game being played at its private table: the table
inside Discord shows that game, each player's own hand and a watcher none (every frame checked
for hidden cards), moves made there reach the chat's table and moves typed in the chat reach
the pages, to the result; a newcomer takes a lobby's seat there in one tap, and whoever else
has the table open is named as watching. In a tournament match's thread, it shows the match's
game, and once the match is over it offers neither a rematch nor a game of one's own (the
tournament deals the thread's games, and ends one opened there), saying why; after a lesson in
the bot's own DM, it offers no game that DM refuses. A player who deletes their data while the
table is open: every page shows a former player in their seat, and no rematch."""

from __future__ import annotations

import random
from typing import Any

import aiohttp
import pytest

from engine.phase import Phase
from fakediscord import Channel, Message
from fakediscord.testing import BotLauncher
from tests.helpers.activity_pages import (
    SHOWN_WITHIN,
    Knowledge,
    Person,
    Players,
    all_checked,
    button,
    dealt_at_the_table,
    launched,
    open_page,
    pages_showing,
    shows,
    shows_saved,
    with_the_activity,
)
from tests.helpers.bot_db import Database, read_game, rows
from tests.helpers.browser import open_browser
from tests.helpers.private_driver import PrivateDriver, conversation
from tests.helpers.table_driver import World, resign, until

#: The chat's button that opens the table inside Discord.
TABLE = "Play at the table"


@pytest.fixture
async def group(world: World, bots: BotLauncher) -> Channel:
    """The bot with the Activity on, its commands global, and a group DM of Al, Bea and Cy,
    each of whom installed the app: a place the bot is not in."""
    al, bea, cy = world.players[:3]
    await with_the_activity(world.fd, bots, world.database, None)
    return conversation(world.fd, al, bea, cy)


def _dealt(db: Database, channel_id: int) -> int | None:
    """The game being played in the channel, once dealt (None: none yet)."""
    found = rows(
        db, "SELECT MAX(id) FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
    )
    game = found[0][0]
    return None if game is None else int(game)


async def _offers_no_game(page: Person, why: str, *buttons: str) -> None:
    """``page`` offers no game of its own (no new game's choices, no *Open*, none of
    ``buttons``) and its closed line says ``why``; no error on the page."""
    assert await page.table.locator(".new-game").count() == 0
    for key in ("open", *buttons):
        assert await page.table.locator(f'[data-key="{key}"]').count() == 0, key
    said = await page.table.locator('[data-key="closed"]').inner_text()
    assert why in said, said
    assert not page.errors, page.errors


async def test_a_group_dms_private_table_is_played_at_the_table_and_in_the_chat_alike(
    world: World, group: Channel
) -> None:
    fd, db = world.fd, world.database
    al, bea, cy = world.players[:3]
    driver = PrivateDriver(fd, group, [al, bea], db, random.Random(11))
    table = await driver.open(target=61)
    game_id = driver.game_id
    # Al opens the table inside Discord there; Bea and Cy join him (Cy to watch).
    instance = await launched(fd, al, group, bea, cy)
    async with open_browser() as browser:
        al_page = await open_page(browser, fd, al, instance, phone=True)
        bea_page = await open_page(browser, fd, bea, instance, phone=False)
        cy_page = await open_page(browser, fd, cy, instance, phone=True)
        people = [al_page, bea_page, cy_page]
        snap = read_game(db, game_id)
        knowledge = Knowledge({al.id: 0, bea.id: 1})
        players = Players(fd, db, game_id, group, {0: al, 1: bea}, {0: al_page, 1: bea_page})
        await shows(cy_page, game_id, snap.version)
        assert await al_page.table.locator(".hand [data-card]").count() == 6
        assert await cy_page.table.locator(".hand [data-card]").count() == 0
        moves = cards = 0
        while snap.game is not None and snap.game.state.phase is not Phase.OVER:
            cards += await all_checked(people, knowledge, game_id, snap)
            snap = await players.make(snap, players.next(snap), chat=moves % 3 == 2)
            moves += 1
        cards += await all_checked(people, knowledge, game_id, snap)
        assert moves > 20 and cards > 100, (moves, cards)
        # The chat's table followed: it says how the game ended, as every page does.
        over = await until(fd, lambda: "🏆" in table.words() or None)
        assert over
        line = next(ln for ln in table.words().splitlines() if "🏆" in ln)
        for person in people:
            result = person.table.locator(".over .result")
            await result.wait_for(timeout=SHOWN_WITHIN)
            assert (await result.inner_text()).split(" — ")[0] in line, line
            assert person.errors == [], (person.user.name, person.errors)


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

    game_id = await until(fd, lambda: _dealt(db, match.id))
    instance = await launched(fd, al, match)
    async with open_browser() as browser:
        [page] = await pages_showing(browser, fd, db, instance, game_id, (al, "phone"))
        assert await page.table.locator(".hand").count() == 1, "Al's hand, at his table"
        # His opponent concedes in the chat: the match is over.
        names = match.name.split(" · ")[-1].split(" vs ")
        opponent = next(u for u in entrants if u.name in names and u is not al)
        conceded = await resign(fd, opponent, match)
        assert conceded.original is not None
        await page.table.locator(".over").wait_for(timeout=SHOWN_WITHIN)
        # (The result and what follows it are drawn together.)
        await _offers_no_game(page, "tournament", "rematch", "everyone")


async def test_after_a_lesson_in_the_bots_dm_the_table_offers_no_game_it_refuses(
    world: World, bots: BotLauncher
) -> None:
    fd, db = world.fd, world.database
    al = world.players[0]
    await with_the_activity(fd, bots, db, None)
    dm = fd.dm_channel(al)
    learn = await fd.slash(al, dm, "/cribbage learn")
    assert learn.response is not None, learn.words()

    def deal_table() -> Message | None:
        return next(
            (m for m in fd.messages(dm) if any(b.get("label") == TABLE for b in m.buttons())),
            None,
        )

    table = await until(fd, deal_table)
    clicked = await fd.click(al, table, label=TABLE)
    instance = clicked.activity_instance
    assert instance is not None
    # The App Launcher opens it there too (its Entry Point command was refused in the bot's
    # DM, which was said to hold no game: it holds a lesson, and a ranked match).
    assert await launched(fd, al, dm) is instance
    async with open_browser() as browser:
        page = await open_page(browser, fd, al, instance, phone=True)
        await page.table.locator(".hand [data-card]").first.wait_for(timeout=SHOWN_WITHIN)
        resigned = await resign(fd, al, dm)
        assert resigned.original is not None
        await page.table.locator(".over").wait_for(timeout=SHOWN_WITHIN)
        # No new game's choices, nor the command to type: /cribbage new is refused here.
        await _offers_no_game(page, "only a ranked match is played")


async def test_a_player_who_deletes_their_data_while_the_table_is_open(
    world: World, bots: BotLauncher
) -> None:
    fd, db, general = world.fd, world.database, world.general
    al, bea, cy = world.players[:3]
    await with_the_activity(fd, bots, db, world.guild)
    opened = await fd.slash(al, general, "/cribbage new players:2 target:61")
    assert opened.original is not None
    assert (await fd.slash(bea, general, "/cribbage join")).response is not None
    await fd.click(al, opened.original, label="Start")

    game_id = await until(fd, lambda: _dealt(db, general.id))
    instance = await launched(fd, bea, general, cy, al)
    async with open_browser() as browser:
        pages = await pages_showing(
            browser, fd, db, instance, game_id, (bea, "phone"), (cy, "phone"), (al, "phone")
        )
        # Al deletes his data mid-game (his game is ended first, for him).
        asked = await fd.slash(al, general, "/cribbage privacy")
        assert asked.original is not None
        await fd.click(al, asked.original, label="Delete my data")
        done = await fd.click(al, asked.original, label="Yes, delete my data")
        assert "Your data is deleted" in done.words()
        for page in pages:
            # Each table shows the game over, with a former player in his seat, and no
            # rematch: one would keep a seat for nobody.
            over = page.table.locator(".over .result", has_text="Former player")
            await over.first.wait_for(timeout=SHOWN_WITHIN)
            seats = await page.table.locator(".seats").inner_text()
            assert "Former player" in seats and "Al" not in seats.split(), seats
            assert await page.table.locator('[data-key="rematch"]').count() == 0
            assert not page.errors, (page.user.name, page.errors)


async def test_a_newcomer_joins_a_group_dms_lobby_at_the_table_in_one_tap(
    world: World, group: Channel
) -> None:
    fd, db = world.fd, world.database
    al, bea, cy = world.players[:3]
    opened = await fd.slash(al, group, "/cribbage new players:2 target:61")
    table = opened.original
    assert table is not None and not opened.ephemeral, opened.words()
    [(game_id,)] = rows(db, "SELECT MAX(id) FROM games WHERE channel_id = ?", (group.id,))
    instance = await launched(fd, al, group, bea, cy)
    async with open_browser() as browser:
        al_page, bea_page, cy_page = await pages_showing(
            browser, fd, db, instance, game_id, (al, "desktop"), (bea, "phone"), (cy, "phone")
        )
        # Who is at the table: Bea and Cy named as watching the lobby, on Al's page.
        watching = await al_page.table.locator('[data-key="watching"]').inner_text()
        assert "Bea" in watching and "Cy" in watching, watching
        # Bea joins with one tap; the game deals (Al starts it at the table) and the chat's
        # table follows.
        await dealt_at_the_table(fd, db, game_id, al_page, bea_page)
        await until(fd, lambda: "Deal 1" in table.words() or None)
        await bea_page.table.locator(".hand [data-card]").first.wait_for(timeout=SHOWN_WITHIN)
        # Cy, who came late, watches: no hand, and no Join once the table is full.
        await shows_saved(cy_page, db, game_id)
        assert await cy_page.table.locator(".hand [data-card]").count() == 0
        assert await cy_page.table.locator('[data-key="join"]').count() == 0
        for page in (al_page, bea_page, cy_page):
            assert not page.errors, (page.user.name, page.errors)


async def _at_the_table(port: int, session: str, body: dict[str, object]) -> dict[str, Any]:
    """A move made at the table inside Discord (``POST api/act``): no interaction of Discord's,
    so no token reaches the chat's table by it."""
    async with aiohttp.ClientSession() as client:
        url = f"http://127.0.0.1:{port}/activity/api/act"
        headers = {"Authorization": f"Bearer {session}"}
        async with client.post(url, json=body, headers=headers) as answer:
            found: dict[str, Any] = await answer.json()
    assert found.get("ok"), found
    return found


async def _signed_in(fd: Any, port: int, user: Any, instance: Any) -> str:
    """The session the table's page gets for ``user`` in ``instance`` (the SDK's code
    exchanged by the bot's server, as the page does it)."""
    code = fd.activities.authorize(user, str(fd.application_id), ["identify"])
    async with aiohttp.ClientSession() as client:
        url = f"http://127.0.0.1:{port}/activity/api/token"
        body = {"code": code, "instance_id": instance.id}
        async with client.post(url, json=body) as answer:
            found = await answer.json()
    assert found.get("ok"), found
    return str(found["session"])


def _with_table_button(driver: PrivateDriver) -> Message | None:
    """The game's table once it offers *Play at the table*."""
    found = driver.table_now()
    labels = [] if found is None else [b.get("label") for b in found.buttons()]
    return found if "Play at the table" in labels else None


async def test_opening_the_table_brings_a_group_dms_chat_table_back_after_a_pause(
    world: World, bots: BotLauncher
) -> None:
    """Issue 67, item 5: in a group DM the game is played at the table inside Discord, whose
    moves are no interactions of Discord's: the chat's table follows them through the token of
    the latest interaction on it, for its 15 minutes. After a longer pause nothing reaches it;
    opening the table again (*Play at the table*, an interaction) brings it back, saying where
    the game stands, and it follows the table's moves again, where it stayed as it was."""
    fd, db = world.fd, world.database
    al, bea, cy = world.players[:3]
    port = await with_the_activity(fd, bots, db, None)
    group = conversation(fd, al, bea, cy)
    driver = PrivateDriver(fd, group, [al, bea], db, random.Random(3))
    table = await driver.open(target=61)
    game_id = driver.game_id
    play = button(await until(fd, lambda: _with_table_button(driver)), "Play at the table")
    opened = await fd.click(al, driver.table(), play)
    instance = opened.activity_instance
    assert instance is not None and fd.activities.join(bea, group) is instance
    sessions = {u.id: await _signed_in(fd, port, u, instance) for u in (al, bea)}
    fd.clock.advance(16 * 60)  # (no click in the chat meanwhile: no token reaches its table)
    snap = read_game(db, game_id)
    assert snap.game is not None
    for seat, user in enumerate((al, bea)):
        cards = [c.code for c in snap.game.hand(seat)[:2]]
        body = {"action": "discard", "game": game_id, "stamp": 1, "values": cards}
        await _at_the_table(port, sessions[user.id], body)
    again = await fd.click(al, driver.table(), play)  # the table opened again, a click
    assert again.response is not None and again.response.type == 12

    def back() -> Message | None:
        found = driver.table_now()
        shown = found is not None and found.id != table.id and "Starter:" in found.words()
        return found if shown else None

    copy = await until(fd, back)
    assert copy in again.followups, "posted again through the opening's token"
    snap = read_game(db, game_id)
    assert snap.game is not None and snap.game.state.turn is not None
    turn = snap.game.state.turn
    card = snap.game.playable_cards(turn)[0]
    body = {"action": "play", "game": game_id, "stamp": snap.version, "values": [card.code]}
    await _at_the_table(port, sessions[(al, bea)[turn].id], body)
    await until(fd, lambda: f"plays {card}" in copy.words() or None)  # it follows again
