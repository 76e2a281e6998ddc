"""What a game's opening and its first move cost against the bot token's global limit (50
requests a second in all), counted through fakediscord's request counts.

An opening is `/cribbage new`, Join and Start (each answered through its interaction) and then
the table in the channel and each player's hand by DM. The hands need the bot's token: a DM
opened per player, and a post in it (no interaction of theirs reaches their DM yet). The table
does not: the Start was pressed in the channel, so it is posted as that click's follow-up, and
the token then edits it while it lives (15 minutes), outside the global limit. With the bot's
token the table was one request more per opening and one more per move
(docs/performance.md: 1.23 requests per action in a paced run of openings, against 1.2).
"""

from __future__ import annotations

from fakediscord import Message
from fakediscord.counters import Counters
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, start_again

#: An opening's requests with the bot's token: each player's DM opened and their hand posted.
OPENING = {"POST /users/@me/channels": 2, "POST /channels/{id}/messages": 2}


async def test_an_opening_posts_the_table_through_the_start_and_a_move_edits_it_there(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    fd.counters = Counters()
    driver = (await world.open_for_two(1, target=121, command_rate=0.0)).driver
    al, bea = driver.players
    lobby = driver.message("lobby")
    assert lobby is not None

    def table() -> Message | None:
        posted = [m for m in driver.table_messages() if m is not lobby]
        return posted[0] if posted else None

    def opened() -> Message | None:
        return table() if fd.dms(al) and fd.dms(bea) else None

    shown = await fd.wait_for(opened, stall=10)
    assert shown is not None
    assert shown.interaction_user is al and shown.original_response_id == lobby.id, (
        "the table is a follow-up of Al's Start on the lobby"
    )
    assert dict(fd.counters.rest) == OPENING
    assert fd.counters.channel_messages[driver.channel.id] == 2  # the lobby and the table

    # A discard: the click's answer is the hand, and the table says so, edited through the
    # Start's token.
    await driver.step(driver.snapshot())
    await fd.wait_for(lambda: shown.history, stall=10)
    assert dict(fd.counters.rest) == OPENING
    assert fd.counters.edits["webhook"] >= 1


async def test_a_table_posted_through_the_start_and_never_kept_is_found_after_a_kill(
    world: World, bot: BotProcess
) -> None:
    """A follow-up takes no nonce: the bot notes the table's post first, and killed the moment
    Discord made it (before its id was kept), the bot started again finds it in the channel,
    a follow-up of the Start on the lobby it keeps, and brings it up to date: one table."""
    fd = world.fd
    al, bea = world.players[:2]
    posted = fd.after_request(r"^POST /webhooks/\d+/[^/]+$", lambda _: bot.kill_now())
    lobby = (await fd.slash(al, world.general, "/cribbage new players:2 target:121")).original
    assert lobby is not None
    await fd.click(bea, lobby, label="Join")
    await fd.click(al, lobby, label="Start")
    await fd.wait_for(lambda: posted.routes, stall=10)
    await bot.kill()
    await start_again(fd, bot)

    def tables() -> list[Message]:
        return [m for m in fd.messages(world.general) if m is not lobby and not m.ephemeral]

    def settled() -> bool:
        found = tables()
        brought_up = len(found) > 1 or bool(found and found[0].history)
        return brought_up and bool(fd.dms(al)) and bool(fd.dms(bea))

    await fd.wait_for(settled, timeout=30, stall=10)
    assert len(tables()) == 1, [m.words()[:40] for m in tables()]


async def test_a_token_discord_calls_expired_is_tried_once_and_the_bot_token_edits_after(
    world: World, bot: BotProcess
) -> None:
    """Discord's clock ahead of the bot's: the Start's token is past its 15 minutes there and
    not yet here. Discord refuses the first edit through it; the bot's own token makes that
    edit, and the table is kept as that edit left it, without the token: every later edit
    goes with the bot's token, and the refused token costs one request, not one a move."""
    fd = world.fd
    driver = (await world.open_for_two(2, target=121, command_rate=0.0)).driver
    driver.settle_rate = 1.0  # each move's table checked before the next
    lobby = driver.message("lobby")
    posted = [m for m in driver.table_messages() if m is not lobby]
    assert len(posted) == 1 and posted[0].interaction_user is not None
    table = posted[0]
    fd.clock.advance(fd.token_lifetime)
    start = len(fd.requests)
    snap = driver.snapshot()
    for _ in range(4):
        snap = await driver.step(snap)

    edits = [r for r in fd.requests[start:] if r.route.endswith(f"/messages/{table.id}")]
    through_token = [r for r in edits if r.route.startswith("PATCH /webhooks/")]
    by_bot = [r for r in edits if r.route.startswith(f"PATCH /channels/{driver.channel.id}/")]
    assert [(r.status, r.code) for r in through_token] == [(401, 50027)], through_token
    assert len(by_bot) >= 3 and all(r.status == 200 for r in by_bot), by_bot
