"""A result's *Rematch* on Discord (issue 58): in a server's channel, in a DM through a user
install, at the table inside Discord and on a finished game's last hand message by DM, one
press each, who deals first, the series on each lobby and result, and one sentence for every
press that opens nothing."""

from __future__ import annotations

from bot.core.base import refusals
from bot.core.games.rules_help import FOLLOWING_DEAL
from fakediscord import FakeDiscord, Message
from fakediscord.model import SEND_MESSAGES, Channel, User
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.activity_pages import (
    Players,
    launched,
    open_page,
    pages_showing,
    shows,
    shows_saved,
    tapped,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.browser import open_browser
from tests.helpers.delivery_checks import live_ids
from tests.helpers.private_driver import bot_token_requests, conversation
from tests.helpers.table_driver import World, dealt, hand_of, resign, start_again, until

REMATCH = "🔁 Rematch"


def _result(world: World, channel: Channel, game: int) -> Message | None:
    """Game ``game``'s result in ``channel``, once it offers its rematch."""
    found = [
        m
        for m in world.fd.messages(channel)
        if any(b.get("custom_id") == f"crib:{game}:rematch" for b in m.buttons())
    ]
    return found[-1] if found else None


async def test_a_rematch_in_a_channel_one_press_each_and_the_series(
    world: World, bot: BotProcess
) -> None:
    fd, channel = world.fd, world.general
    al, bea = world.players[:2]
    await dealt(fd, channel, al, bea)
    first = latest_game_id(world.database, channel.id)
    await resign(fd, bea, channel)
    result = await until(fd, lambda: _result(world, channel, first))
    assert [b["label"] for b in result.buttons()] == ["🔍 Review", REMATCH]

    # Al's press: the rematch's lobby is the click's answer, a message of its own (the result
    # stays as it was), and the bot makes no request of its own for it.
    since = len(fd.requests)
    opened = await fd.click(al, result, label=REMATCH)
    assert opened.response is not None and opened.response.type == 4 and not opened.ephemeral
    lobby = opened.original
    assert lobby is not None and lobby.id != result.id
    said = lobby.words()
    assert "Rematch opened by Al" in said and "Seated (1/2): Al" in said, said
    assert "Bea's seat is kept for them until <t:" in said, said
    # Bea resigned at 0-0: Al won by a lurch, 2 game points.
    assert "Al leads the series 2–0 in game points (1–0 in games)." in said, said
    second = latest_game_id(world.database, channel.id)
    assert second != first
    assert bot_token_requests(fd, since) == []

    # Pressed again, by Al or by someone who did not play: one sentence, nothing opened.
    twice = await fd.click(al, result, label=REMATCH)
    assert twice.ephemeral and twice.words() == refusals.REMATCH_SEATED
    stranger = await fd.click(world.spectator, result, label=REMATCH)
    assert stranger.ephemeral and stranger.words() == refusals.REMATCH_JOIN

    # Bea's one press seats her and, the table full, deals: answered privately, the lobby
    # edited once, through Al's press's token (its answer), never the bot's own.
    since, edits = len(fd.requests), len(lobby.history)
    taken = await fd.click(bea, result, label=REMATCH)
    assert taken.ephemeral and taken.words() == (
        "You're in: seat 2 of 2. Dealing — your hand is on its way by DM."
    )
    await until(fd, lambda: "The game has started." in lobby.words())
    assert "Seated (2/2): Al, Bea" in lobby.words() and len(lobby.history) == edits + 1
    assert not [r for r in bot_token_requests(fd, since) if str(lobby.id) in r]
    # The loser of the game before deals first: Bea, without a cut.
    table = await until(
        fd, lambda: next((m for m in fd.messages(channel) if "No cut for deal" in m.words()), None)
    )
    assert "Bea lost the game before, so Bea deals first." in table.words()

    # A restart between the second game's end and the next press loses nothing.
    await resign(fd, al, channel)
    second_result = await until(fd, lambda: _result(world, channel, second))
    assert "The series is level at 2–2 in game points (1–1 in games)." in second_result.words()
    await bot.stop()
    await start_again(fd, bot)
    again = await fd.click(bea, second_result, label=REMATCH)
    assert again.response is not None and again.response.type == 4, again.words()
    third = again.original
    assert third is not None and "The series is level at 2–2" in third.words()
    # Its opener leaves, closing it: the table has moved on from both results.
    await fd.click(bea, third, label="Leave")
    for old in (result, second_result):
        moved = await fd.click(al, old, label=REMATCH)
        assert moved.ephemeral and moved.words() == refusals.MOVED_ON
    [(rematches,)] = rows(
        world.database, "SELECT COUNT(*) FROM games WHERE rematch_of IS NOT NULL", ()
    )
    assert rematches == 2, "one lobby a press that opened one"
    rules = await fd.slash(al, channel, "/cribbage rules topic:deal")
    assert FOLLOWING_DEAL.split("(")[0] in rules.words()


async def test_play_again_against_the_computer_deals_at_once(world: World, bot: BotProcess) -> None:
    fd, channel = world.fd, world.general
    al = world.players[0]
    opened = await fd.slash(al, channel, "/cribbage new vs_computer:True difficulty:easy")
    assert opened.original is not None
    first = latest_game_id(world.database, channel.id)
    await resign(fd, al, channel)
    result = await until(fd, lambda: _result(world, channel, first))
    assert [b["label"] for b in result.buttons()] == ["🔍 Review", "🔁 Play again"]
    again = await fd.click(al, result, label="🔁 Play again")
    assert again.response is not None and again.response.type == 4
    assert again.original is not None and "The game has started." in again.original.words()
    # Al lost the game before: Al deals the first hand, his crib.
    table = await until(
        fd, lambda: next((m for m in fd.messages(channel) if "No cut for deal" in m.words()), None)
    )
    assert "Al lost the game before, so Al deals first." in table.words()


async def test_a_rematch_in_a_dm_through_a_user_install(world: World, bots: BotLauncher) -> None:
    """Where the bot is not a member the rematch's table is the press's answer, and every
    message after it goes through the interactions' tokens: never the bot's own."""
    await bots.process(database=world.database)
    fd = world.fd
    al, bea = world.players[:2]
    dm = conversation(fd, al, bea)
    since = len(fd.requests)
    opened = await fd.slash(al, dm, "/cribbage new")
    table = opened.original
    assert table is not None
    first = latest_game_id(world.database, dm.id)
    await fd.click(bea, table, f"crib:{first}:lobby:join")
    await fd.click(al, table, f"crib:{first}:lobby:start")
    await until(fd, lambda: [b for b in table.buttons() if b["label"] == "Your hand"])
    await resign(fd, bea, dm)
    await until(fd, lambda: REMATCH in [b["label"] for b in table.buttons()])
    assert [b["label"] for b in table.buttons()] == ["🔍 Review", REMATCH]

    opened_again = await fd.click(al, table, label=REMATCH)
    assert opened_again.response is not None and opened_again.response.type == 4
    rematch = opened_again.original
    assert rematch is not None and not rematch.ephemeral and rematch.id != table.id
    assert "Al leads the series 2–0" in rematch.words() and "kept for them until" in rematch.words()
    taken = await fd.click(bea, table, label=REMATCH)
    assert taken.ephemeral and "seat 2 of 2" in taken.words(), taken.words()
    # Her press filled the table, which is dealt: the rematch's table is brought up to date
    # through Al's press's token.
    await until(fd, lambda: "Bea lost the game before, so Bea deals first." in rematch.words())
    assert bot_token_requests(fd, since) == [], "the bot's own token is never used there"
    # Two tables in the conversation, one a game: the first, and its rematch's.
    assert fd.counters.private_messages[dm.id] == 2


async def test_a_rematch_from_the_table_inside_discord(world: World, bots: BotLauncher) -> None:
    """The result at the table offers the chat's *Rematch*: tapped there, the rematch opens
    (its lobby in the chat, as the table's new game's is), both tables go to it, and Bea's
    kept seat is hers with one tap, which deals; someone who did not play is offered none."""
    fd, general = world.fd, world.general
    al, bea, eve = world.players[0], world.players[1], world.spectator
    await with_the_activity(fd, bots, world.database, world.guild)
    db = world.database
    await dealt(fd, general, al, bea)
    first = latest_game_id(db, general.id)
    await resign(fd, bea, general)
    await until(fd, lambda: _result(world, general, first))
    instance = await launched(fd, al, general, bea, eve)
    async with open_browser() as browser:
        al_page, bea_page, eve_page = await pages_showing(
            browser, fd, db, instance, first, (al, "phone"), (bea, "desktop"), (eve, "desktop")
        )
        for person in (al_page, bea_page):
            rematch = person.table.locator('[data-key="rematch"]')
            assert await rematch.inner_text() == "Rematch"
        assert "Al leads" not in await al_page.table.locator(".over").inner_text()
        # Eve watched: her result offers no Rematch (its press would only be refused her),
        # as the lobby offers nobody a button its rules would refuse them.
        assert await eve_page.table.locator('.over [data-key="rematch"]').count() == 0
        assert await eve_page.table.locator('.over [data-key="review"]').count() == 1
        await al_page.table.locator('[data-key="rematch"]').click()
        second = await until(fd, lambda: _newer(db, general, first))
        lobby = await until(
            fd,
            lambda: next(
                (m for m in fd.messages(general) if "Rematch opened by Al" in m.words()), None
            ),
        )
        assert "Bea's seat is kept for them until" in lobby.words()
        await shows_saved(bea_page, db, second)
        # The lobby at the table is the chat's, the series it continues and all.
        said = await bea_page.table.locator('[data-key="lobby-text"]').inner_text()
        assert "Al leads the series 2–0" in said and "kept for them until" in said, said
        # Bea's one tap takes her kept seat and, the table full, deals: no Start to wait for.
        await tapped(fd, db, second, bea_page, "join")
        await until(fd, lambda: "The game has started." in lobby.words())
        assert "Seated (2/2): Al, Bea" in lobby.words()
        game = read_game(db, second).game
        assert game is not None and game.state.dealer == 1 and game.state.given_dealer == 1
        # Over, its result at the table says the series, as the chat's does.
        await resign(fd, al, general)
        await until(fd, lambda: _result(world, general, second))
        series = eve_page.table.locator('.over [data-key="series"]')
        await series.wait_for()
        assert (
            await series.inner_text() == "The series is level at 2–2 in game points (1–1 in games)."
        )
        for person in (al_page, bea_page, eve_page):
            assert person.errors == [], (person.user.name, person.errors)


async def test_the_table_through_a_kill_and_a_restart_then_a_rematch_in_one_tap_each(
    world: World, bots: BotLauncher
) -> None:
    """The bot killed mid-game with the table open: its pages come back to the game by
    themselves (a move typed in the chat after the restart reaches Al's), moves are made at
    the table again, and once it is over the rematch is one tap each, no error on a page."""
    fd, general, db = world.fd, world.general, world.database
    al, bea = world.players[:2]
    await with_the_activity(fd, bots, db, world.guild)
    bot = bots.bots[-1]
    assert isinstance(bot, BotProcess)
    await dealt(fd, general, al, bea)
    first = latest_game_id(db, general.id)
    instance = await launched(fd, al, general, bea)
    async with open_browser() as browser:
        al_page = await open_page(browser, fd, al, instance, phone=True)
        bea_page = await open_page(browser, fd, bea, instance, phone=False)
        await shows_saved(al_page, db, first)
        await bot.kill()
        await start_again(fd, bot)
        players = Players(fd, db, first, general, {0: al, 1: bea}, {0: al_page, 1: bea_page})
        snap = read_game(db, first)
        for _ in range(2):
            # Al's discard at the table, Bea's typed in the chat: both pages follow.
            move = players.next(snap)
            snap = await players.make(snap, move, chat=move.seat == 1)
        for person in (al_page, bea_page):
            await shows(person, first, snap.version)
        await resign(fd, bea, general)
        await shows_saved(al_page, db, first)
        await al_page.table.locator('[data-key="rematch"]').click()
        second = await until(fd, lambda: _newer(db, general, first))
        await shows_saved(bea_page, db, second)
        await bea_page.table.locator('[data-key="join"]').click()
        await until(fd, lambda: read_game(db, second).game is not None)
        for person in (al_page, bea_page):
            # While the bot was down, Discord's proxy answered a page's reconnecting 502, which
            # the browser itself logs: the outage, not an error of the page's (it came back).
            errors = [e for e in person.errors if not _outage(e)]
            assert errors == [], (person.user.name, person.errors)


def _outage(error: str) -> bool:
    """Whether a page's console error is the browser's own line for its live connection's
    handshake refused by the proxy while the bot's server was down."""
    return "/api/live' failed" in error and "Unexpected response code: 502" in error


def _last_hand(fd: FakeDiscord, user: User, game: int) -> Message | None:
    """``user``'s last hand message of game ``game`` by DM, once it offers the rematch."""
    offered = f"crib:{game}:rematch:hand"
    found = [m for m in fd.dms(user) if any(b.get("custom_id") == offered for b in m.buttons())]
    return found[-1] if found else None


def _lobby_of(fd: FakeDiscord, channel: Channel, opener: str) -> Message | None:
    """The lobby of the rematch ``opener`` opened in ``channel``, once posted."""
    said = f"Rematch opened by {opener}"
    return next((m for m in fd.messages(channel) if said in m.words()), None)


async def test_rematch_from_the_last_hand_by_dm_one_tap_each(world: World, bot: BotProcess) -> None:
    """The game over, each player's last hand message by DM offers the rematch: Al's tap there
    opens it in the channel (the bot posts its lobby), answered privately with where it is;
    Bea's tap on hers takes her kept seat and deals; after a restart the next game's last
    hand still opens the next rematch, and the hand messages tapped stay as they were."""
    fd, channel, db = world.fd, world.general, world.database
    al, bea = world.players[:2]
    await dealt(fd, channel, al, bea)
    first = latest_game_id(db, channel.id)
    await resign(fd, bea, channel)
    al_hand = await until(fd, lambda: _last_hand(fd, al, first))
    bea_hand = await until(fd, lambda: _last_hand(fd, bea, first))
    assert "The game is over: Bea resigned" in al_hand.words(), al_hand.words()
    assert [b["label"] for b in al_hand.buttons()] == [REMATCH]
    # The result in the channel offers it as before.
    await until(fd, lambda: _result(world, channel, first))

    said = al_hand.words()
    opened = await fd.click(al, al_hand, label=REMATCH)
    assert opened.response is not None and opened.response.type == 4 and opened.ephemeral
    assert opened.words() == (
        f"Rematch opened in <#{channel.id}>, your seat taken: the cards are dealt as the "
        "others take theirs."
    ), opened.words()
    lobby = await until(fd, lambda: _lobby_of(fd, channel, "Al"))
    assert not lobby.ephemeral and lobby.interaction_id is None, "posted by the bot itself"
    assert "Bea's seat is kept for them until <t:" in lobby.words(), lobby.words()
    assert "Al leads the series 2–0 in game points (1–0 in games)." in lobby.words()
    assert al_hand.words() == said and [b["label"] for b in al_hand.buttons()] == [REMATCH]
    second = latest_game_id(db, channel.id)
    assert second != first

    # Tapped again: the one sentence, nothing opened.
    twice = await fd.click(al, al_hand, label=REMATCH)
    assert twice.ephemeral
    assert twice.words() == f"{refusals.REMATCH_SEATED} It's in <#{channel.id}>."
    # Bea's one tap on her own last hand: her kept seat, and the table full, dealt.
    taken = await fd.click(bea, bea_hand, label=REMATCH)
    assert taken.ephemeral and taken.words() == (
        "You're in: seat 2 of 2. Dealing — your hand is on its way by DM. "
        f"The rematch is in <#{channel.id}>."
    ), taken.words()
    await until(fd, lambda: "The game has started." in lobby.words())
    assert "Seated (2/2): Al, Bea" in lobby.words()
    await until(fd, lambda: all(hand_of(fd, user) is not None for user in (al, bea)))
    assert read_game(db, second).game is not None

    # A restart between the second game's end and the next tap loses nothing.
    await resign(fd, al, channel)
    again = await until(fd, lambda: _last_hand(fd, bea, second))
    await bot.stop()
    await start_again(fd, bot)
    third = await fd.click(bea, again, label=REMATCH)
    assert third.ephemeral and third.words().startswith(f"Rematch opened in <#{channel.id}>")
    await until(fd, lambda: _lobby_of(fd, channel, "Bea"))
    [(rematches,)] = rows(db, "SELECT COUNT(*) FROM games WHERE rematch_of IS NOT NULL", ())
    assert rematches == 2


async def test_play_again_from_the_last_hand_and_a_table_the_bot_can_no_longer_post_at(
    world: World, bot: BotProcess
) -> None:
    """Against the computer the last hand offers *Play again*, which deals at once in the
    channel; where the bot may no longer post, the tap gets one sentence naming what it
    lacks there, and nothing is opened."""
    fd, channel, db = world.fd, world.general, world.database
    al = world.players[0]
    opened = await fd.slash(al, channel, "/cribbage new vs_computer:True difficulty:easy")
    assert opened.original is not None
    first = latest_game_id(db, channel.id)
    await resign(fd, al, channel)
    hand = await until(fd, lambda: _last_hand(fd, al, first))
    assert [b["label"] for b in hand.buttons()] == ["🔁 Play again"]
    again = await fd.click(al, hand, label="🔁 Play again")
    assert again.ephemeral and again.words() == (
        f"Dealt again in <#{channel.id}>: your hand is on its way by DM."
    ), again.words()
    second = await until(fd, lambda: _newer(db, channel, first))
    await until(
        fd, lambda: any("Al lost the game before" in m.words() for m in fd.messages(channel))
    )

    await resign(fd, al, channel)
    last = await until(fd, lambda: _last_hand(fd, al, second))
    channel.deny(SEND_MESSAGES)
    # The bot hears of it before the tap, which the gateway sends it after the update.
    await until(fd, lambda: _announced(fd, "CHANNEL_UPDATE", channel.id))
    refused = await fd.click(al, last, label="🔁 Play again")
    assert refused.ephemeral and refused.words() == (
        f"I can't post in <#{channel.id}> any more: ask a moderator to give me **Send "
        "Messages** there, or open a game with `/cribbage new` where I can post."
    ), refused.words()
    assert latest_game_id(db, channel.id) == second, "nothing opened"


async def test_a_resignation_before_the_first_hand_went_out_still_leaves_play_again_by_dm(
    world: World, bot: BotProcess
) -> None:
    """Resigned before the first hand's DM went out (its DM channel opened, the post not yet
    made: on a busy machine the resignation came first), the player was told their hand was
    on its way: it comes all the same, as the game's last hand offering *Play again*, and
    no version of it offers the controls of the game that has ended."""
    fd, channel, db = world.fd, world.general, world.database
    al = world.players[0]
    # The bot hears that the DM it opened for the hand is there only once Al has resigned.
    opening = fd.hold(r"^POST /users/@me/channels$")
    try:
        opened = await fd.slash(al, channel, "/cribbage new vs_computer:True difficulty:easy")
        assert opened.original is not None
        await until(fd, lambda: opening.routes)
        assert not fd.dms(al), "the hand went out before the resignation"
        await resign(fd, al, channel)
    finally:
        opening.release()
    first = latest_game_id(db, channel.id)
    hand = await until(fd, lambda: _last_hand(fd, al, first))
    assert [b["label"] for b in hand.buttons()] == ["🔁 Play again"]
    assert "The game is over: Al resigned" in hand.words(), hand.words()
    offered = {
        i for m in fd.dms(al) for v in (*m.history, m.version()) for i in live_ids(v.components)
    }
    assert offered == {f"crib:{first}:rematch:hand"}, offered


def _announced(fd: FakeDiscord, event: str, about: int) -> bool:
    """Whether the gateway has sent the bot ``event`` about channel ``about``."""
    return any(
        name == event and data.get("id") == str(about)
        for session in fd.gateway.shards.values()
        for _, name, data in session.events
    )


def _newer(db: object, channel: Channel, than: int) -> int | None:
    newest = latest_game_id(db, channel.id)  # type: ignore[arg-type]
    return newest if newest != than else None
