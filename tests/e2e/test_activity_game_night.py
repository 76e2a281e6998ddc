"""Game night at the table inside Discord (issue 57), end to end: the bot as it runs, fakediscord
as Discord, and its stand-in client answering the Embedded App SDK in Chromium, on phones and
desktops.

In a voice channel, four friends open the table: with no game yet, it lists them and offers
*Deal everyone in*, which opens the game for four (partners, as the chat's lobby seats four)
and deals. Each one's Discord status says what is played and where it stands ("Cribbage · deal
1 · 0–0", four of four seats, since the game opened), kept to the game as it moves, never faster
than Discord takes it, and cleared when the game ends. Cy refuses to let his status show it
(the table works, one line says so, and he allows it later); Di's Discord app lacks the status
command (one line says so). Eve opens the table later: she sees the seats, every page names
her as watching, and her status says she watches.

In a text channel, a lobby with a free seat offers *Invite* (Discord's dialog); Bea opens the
table later and takes the free seat; after the game, *Share* posts the result and the game's
page where Al chooses, and says what Bea's app cannot do. In a DM between people, where the bot
can only answer, the table says in one line that invites are not for DMs, and shows the command
to type.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, User
from fakediscord.testing import BotLauncher
from tests.helpers.activity_pages import (
    SHOWN_WITHIN,
    Person,
    Players,
    button,
    fits,
    launched,
    open_page,
    pages_showing,
    shows_saved,
    tapped,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import World, confirmed, resign

#: How long a presence may take to follow the game (Discord takes five updates in 20 s).
PRESENCE_WITHIN = 60
PUBLIC = "https://crib.example"


def _presence(fd: FakeDiscord, user: User) -> dict[str, Any] | None:
    return fd.activities.commands.presence(user)


async def _status_says(fd: FakeDiscord, user: User, **wanted: Any) -> dict[str, Any]:
    """Wait until ``user``'s status has every field of ``wanted``; answer it."""

    def matches() -> dict[str, Any]:
        shown = _presence(fd, user) or {}
        return shown if all(shown.get(k) == v for k, v in wanted.items()) else {}

    return await fd.wait_for(matches, timeout=PRESENCE_WITHIN)


async def _cleared(fd: FakeDiscord, *people: User) -> None:
    """Wait until no status of ``people`` says a game is on."""

    def cleared() -> bool:
        return all(_presence(fd, person) is None for person in people)

    await fd.wait_for(cleared, timeout=PRESENCE_WITHIN)


async def _text(person: Person, key: str) -> str:
    locator = person.table.locator(f'[data-key="{key}"]')
    await locator.wait_for(timeout=SHOWN_WITHIN)
    return await locator.inner_text()


def _updates_are_changes(fd: FakeDiscord, user: User) -> int:
    """``user``'s status was set only when it changed; answers how often it was set."""
    theirs = [activity for who, activity in fd.activities.commands.presence_log if who is user]
    assert all(a != b for a, b in itertools.pairwise(theirs)), theirs
    return len(theirs)


async def test_game_night_in_a_voice_channel(
    world: World, bots: BotLauncher, tmp_path: Path
) -> None:
    fd, db = world.fd, world.database
    voice = world.guild.add_voice_channel("Game night")
    al, bea, cy, di = world.players
    eve = world.spectator
    await with_the_activity(fd, bots, db, world.guild)
    instance = await launched(fd, al, voice, bea, cy, di)
    # Cy will not let the app set his status; Di's Discord app has no such command.
    fd.activities.decline(cy, "rpc.activities.write")

    async with open_browser() as browser:
        al_page = await open_page(browser, fd, al, instance, phone=False)
        bea_page = await open_page(browser, fd, bea, instance, phone=True)
        cy_page = await open_page(browser, fd, cy, instance, phone=False)
        di_page = await open_page(
            browser, fd, di, instance, phone=True, unsupported=("SET_ACTIVITY",)
        )
        pages = [al_page, bea_page, cy_page, di_page]
        # No game yet: everyone at the table is listed, and the four would play as partners.
        for person in pages:
            offer = person.table.locator('[data-key="everyone-kind"]')
            await offer.filter(has_text="Di").wait_for(timeout=SHOWN_WITHIN)
            said = await offer.inner_text()
            assert "At the table: Al, Bea, Cy and Di." in said
            assert "Cribbage, 4 players in two teams of two, to 121" in said
        assert await _text(cy_page, "missing") == (
            "Not available here: your Discord status showing the game (you didn't allow it)."
            " Show the game in my status"
        )
        assert await al_page.table.locator('[data-key="missing"]').is_hidden()
        await fits(bea_page, tmp_path / "phone-everyone.png")
        await fits(al_page, tmp_path / "desktop-everyone.png")

        await al_page.table.locator('[data-key="everyone"]').click()
        game_id = await fd.wait_for(
            lambda: rows(db, "SELECT MAX(id) FROM games WHERE channel_id = ?", (voice.id,))[0][0],
            timeout=30,
            stall=20,
        )
        await fd.wait_for(lambda: read_game(db, game_id).status == "active", timeout=30, stall=20)
        seated = rows(
            db, "SELECT display_name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        assert [name for (name,) in seated] == ["Al", "Bea", "Cy", "Di"]
        for person in pages:
            await shows_saved(person, db, game_id)
            assert await person.table.locator(".hand [data-card]").count() == 5

        # The status: what is played and where it stands, the party, since the game opened.
        opened_at = rows(db, "SELECT created_at FROM games WHERE id = ?", (game_id,))[0][0]
        shown = await _status_says(fd, al, details="Cribbage · deal 1 · 0–0", state="Playing")
        assert shown["party"]["size"] == [4, 4] and shown["type"] == 0
        assert shown["timestamps"] == {"start": int(opened_at * 1000)}
        await _status_says(fd, bea, details="Cribbage · deal 1 · 0–0")
        assert _presence(fd, cy) is None and _presence(fd, di) is None
        assert await _text(di_page, "missing") == (
            "Not available here: your Discord status showing the game (your Discord app can't)."
        )

        # Eve opens the table late: she sees the seats; everyone sees her watching.
        fd.activities.join(eve, voice)
        [eve_page] = await pages_showing(browser, fd, db, instance, game_id, (eve, "phone"))
        names = await eve_page.table.locator(".seats .name").all_inner_texts()
        assert names == ["Al", "Bea", "Cy", "Di"]
        for person in (*pages, eve_page):
            await person.table.locator('[data-key="watching"]', has_text="Eve").wait_for(
                timeout=SHOWN_WITHIN
            )
        assert (await _status_says(fd, eve, state="Watching"))["type"] == 3

        # Cy changes his mind: his status shows the game too, from his next look.
        fd.activities.agree(cy, "rpc.activities.write")
        await cy_page.table.locator('[data-key="allow-status"]').click()
        await _status_says(fd, cy, details="Cribbage · deal 1 · 0–0", state="Playing")
        await cy_page.table.locator('[data-key="missing"]').wait_for(state="hidden")

        # The game moves (in the chat): each status follows the score, its own side first.
        snap, moves = read_game(db, game_id), 0
        players = Players(fd, db, game_id, voice, {0: al, 1: bea, 2: cy, 3: di})
        while snap.game is not None and max(snap.game.public_view().scores) == 0 and moves < 40:
            snap, moves = await players.make(snap, players.next(snap)), moves + 1
        assert snap.game is not None
        ours, theirs = snap.game.public_view().scores
        assert ours or theirs, "nobody pegged"
        await _status_says(fd, al, details=f"Cribbage · deal 1 · {ours}–{theirs}")
        await _status_says(fd, bea, details=f"Cribbage · deal 1 · {theirs}–{ours}")
        await fits(di_page, tmp_path / "phone-play.png")
        await fits(cy_page, tmp_path / "desktop-play.png")

        # The game ends (cancelled by a moderator): every status is cleared.
        await confirmed(fd, world.moderator, voice, "/cribbage cancel")
        await _cleared(fd, al, bea, cy, eve)
        assert fd.activities.commands.rate_limited == []
        assert all(_updates_are_changes(fd, p) >= 2 for p in (al, bea, cy, eve))
        for page in (*pages, eve_page):
            assert page.errors == [], (page.user.name, page.errors)


async def test_invite_share_and_a_dm_at_the_table(
    world: World, bots: BotLauncher, tmp_path: Path
) -> None:
    fd, db, general = world.fd, world.database, world.general
    al, bea = world.players[:2]
    await with_the_activity(fd, bots, db, world.guild, PUBLIC_URL=PUBLIC)
    opened = await fd.slash(al, general, "/cribbage new players:2 target:61")
    lobby = opened.original
    assert lobby is not None
    clicked = await fd.click(al, lobby, button(lobby, "Play at the table"))
    instance = clicked.activity_instance
    assert instance is not None
    game_id = latest_game_id(db, general.id)

    async with open_browser() as browser:
        [al_page] = await pages_showing(browser, fd, db, instance, game_id, (al, "desktop"))
        # The lobby is the chat's: its words, and its buttons in its words.
        assert "Seated (1/2): Al" in await _text(al_page, "lobby-text")
        labels = await al_page.table.locator(".lobby .actions button").all_inner_texts()
        assert labels == ["Leave", "Cancel", "Invite"], labels
        await al_page.table.locator('[data-key="invite"]').click()
        await fd.wait_for(lambda: fd.activities.commands.invites == [(al, instance)], timeout=30)

        # Bea opens the table later (her app has neither invites nor sharing): she sees the
        # seat taken and the free one, and takes it.
        fd.activities.join(bea, general)
        lacking = ("OPEN_INVITE_DIALOG", "SHARE_LINK")
        bea_page = await open_page(browser, fd, bea, instance, phone=True, unsupported=lacking)
        await shows_saved(bea_page, db, game_id)
        assert await bea_page.table.locator(".seats .name").all_inner_texts() == ["Al"]
        await bea_page.table.locator('[data-key="invite"]').click()
        told = bea_page.table.locator(".said-toast")
        await told.filter(has_text="your Discord app can't open them").wait_for()
        assert await _text(bea_page, "missing") == (
            "Not available here: Discord's invites (your Discord app can't open them)."
        )
        await bea_page.table.locator('[data-key="invite"]').wait_for(state="detached")
        await tapped(fd, db, game_id, bea_page, "join")
        await shows_saved(al_page, db, game_id)
        assert await al_page.table.locator('[data-key="invite"]').count() == 0
        await tapped(fd, db, game_id, al_page, "start")
        await _status_says(fd, bea, details="Cribbage · deal 1 · 0–0")
        await fits(bea_page, tmp_path / "phone-dealt.png")

        # Bea resigns: Share posts the result and the game's page where Al chooses.
        await resign(fd, bea, general)
        await al_page.table.locator('[data-key="share"]').click()
        await al_page.table.locator(".said-toast", has_text="Shared.").wait_for()
        [shared] = fd.activities.commands.shares
        assert shared.user is al and shared.outcome == "sent"
        # (The result's own line, as the table and the chat say it.)
        assert "🏆 Al wins" in shared.message and "Bea resigned" in shared.message
        assert f"\n{PUBLIC}/g/{game_id}/" in shared.message
        await fits(al_page, tmp_path / "desktop-shared.png")
        await bea_page.table.locator('[data-key="share"]').click()
        await bea_page.table.locator(".said-toast", has_text="sharing").wait_for()
        assert len(fd.activities.commands.shares) == 1
        # Over: no status says a game is on.
        await _cleared(fd, al, bea)

        # In a DM between them, where the bot only answers: no invites (one line says so),
        # and a game is opened with the command the table shows.
        fd.install_app(al)
        dm = fd.private_channel(al, bea)
        in_dm = (await fd.launch(al, dm)).activity_instance
        assert in_dm is not None
        dm_page = await open_page(browser, fd, al, in_dm, phone=True)
        assert await _text(dm_page, "missing") == (
            "Not available here: Discord's invites (they are for a server's channels)."
        )
        command = dm_page.table.locator(".new-game code")
        assert (await command.inner_text()).startswith("/cribbage new")
        assert await dm_page.table.locator('[data-key="everyone"]').count() == 0
        await fits(dm_page, tmp_path / "phone-dm.png")
        for page in (al_page, bea_page, dm_page):
            assert page.errors == [], (page.user.name, page.errors)
