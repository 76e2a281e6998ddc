"""The next player's turn never waits on the channel's pacing (issue 21, item 5).

The table in the channel is edited at most 5 times in 5 s (Discord's per-channel limit, kept by
the bot's pacer), and discord.py holds an edit that spends that allowance until the channel's
window resets (some 4.6 s), the edit keeping its place in the bot's global window of requests
all the while. A move must still bring the next player's controls at once: the DM goes, with
the bot's own token when the interaction's token has expired, while the table's edit is still
held, not together with it.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from bot import assembly
from bot.core.base.timing import CHANNEL_PERIOD
from bot.core.ledger.pacer import CHANNEL_LIMIT, GLOBAL_LIMIT
from bot.core.ledger.transport import RequestKind
from bot.settings import Settings
from bot.store import Store
from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.testing import BotLauncher
from tests.helpers.in_process import club

#: How long the test keeps the channel's edit allowance spent: far longer than the test.
HELD = 3600.0
#: Channels (made up) whose table edits fill the global window, held back by discord.py.
ELSEWHERE = 10**18


def _live(message: Message) -> bool:
    """Whether a hand message offers controls the player can use now."""
    return bool(list(message.selects())) or any(
        not button.get("disabled") for button in message.buttons()
    )


def _prompt(fd: FakeDiscord, user: User) -> Message | None:
    """The user's newest DM with live controls, if any."""
    return next((m for m in reversed(fd.dms(user)) if _live(m)), None)


def _table_edits(fd: FakeDiscord, channel: Channel) -> int:
    """Edits of the channel's messages made with the bot's own token, so far."""
    edit = re.compile(rf"PATCH /channels/{channel.id}/messages/\d+")
    return sum(1 for r in fd.requests if edit.search(r.route))


async def test_the_next_turn_comes_while_the_channels_edits_are_spent(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    fd = fake_discord
    guild, general, (al, bea) = club(fd, "Al", "Bea")
    async with await Store.open(tmp_path / "bot.db") as store:
        # Every move by DM asks Discord whether the player is still in the server (as one does
        # in a long game, once the last sighting is older than the check's 10 minutes).
        settings = Settings(
            discord_token=fd.bot_token, dev_guild_id=guild.id, member_check_seconds=0.0
        )
        running = await bots.in_process(lambda: assembly.client(settings, store=store))
        client = running.client
        pacer = client.parts.pacer

        def lobby() -> Message | None:
            joinable = (
                m for m in general.messages if any(b.get("label") == "Join" for b in m.buttons())
            )
            return next(joinable, None)

        await fd.slash(al, general, "/cribbage new target:61")
        found = await fd.wait_for(lobby)
        assert found is not None
        await fd.click(bea, found, label="Join")
        await fd.click(al, found, label="Start")
        for user in (al, bea):
            discard = await fd.wait_for(lambda u=user: _prompt(fd, u))  # type: ignore[misc]
            assert discard is not None
            menu = next(iter(discard.selects()))
            values = [o["value"] for o in menu["options"]][: int(menu["min_values"])]
            await fd.select(user, discard, menu["custom_id"], values)

        # The play has begun: someone's hand has live card buttons.
        def whose_turn() -> tuple[User, Message] | None:
            for user in (al, bea):
                found = _prompt(fd, user)
                if found is not None and not list(found.selects()):
                    return user, found
            return None

        turn = await fd.wait_for(whose_turn)
        assert turn is not None
        mover, hand = turn
        other = bea if mover is al else al
        await fd.wait_for(lambda: not client.parts.sending.keeper.busy)

        # The channel's edits are spent, and stay so for the rest of the test.
        bucket = pacer._channel(general.id, RequestKind.EDIT)
        bucket.period = HELD
        while pacer.channel_delay(general.id, RequestKind.EDIT) == 0:
            await pacer.slot(general.id, RequestKind.EDIT, global_limit=False)
        assert len(bucket.times) >= CHANNEL_LIMIT
        # Other channels' table edits, each held back by discord.py until its channel's
        # window resets, hold every place in the global window they may take.
        returned = asyncio.Event()

        async def held_back(channel_id: int) -> None:
            async with pacer.turn(channel_id, RequestKind.EDIT):
                await returned.wait()

        holding = [asyncio.create_task(held_back(ELSEWHERE + n)) for n in range(GLOBAL_LIMIT)]

        def only_held_back() -> bool:
            # Once the requests answered in the last second have left the window, its places
            # are all held by the table edits discord.py holds back (as many as may go).
            window = pacer._global
            window.wait_for(time.monotonic())  # (forgets what left the window)
            return not window.times and window.in_flight > 0

        await fd.wait_for(only_held_back)
        # The interactions' tokens have expired (a game longer than 15 minutes): the hands go
        # with the bot's own token, through its global window.
        fd.clock.advance(16 * 60)
        try:
            # The play's first card: the other player can always answer it (at most 10 + 10).
            shown = {(m.id, len(m.history)) for m in fd.dms(other)}
            edits_before = _table_edits(fd, general)
            requests_before = len(fd.requests)
            card = next(b for b in hand.buttons() if not b.get("disabled"))
            await fd.click(mover, hand, card["custom_id"])

            # The other player's controls arrive while the table's edit is still held by the
            # channel's pacing, and every table edit held back elsewhere is still out.
            def next_turn() -> Message | None:
                found = _prompt(fd, other)
                if found is None or (found.id, len(found.history)) in shown:
                    return None
                return found

            await fd.wait_for(next_turn)
            assert pacer.channel_delay(general.id, RequestKind.EDIT) > 0
            assert not returned.is_set() and not any(task.done() for task in holding)
            assert _table_edits(fd, general) == edits_before, (
                "the table was edited although the channel's edits were spent",
                [r.route for r in fd.requests[requests_before:]],
            )
        finally:
            # Let everything go again, so the bot can stop with nothing owed.
            returned.set()
            await asyncio.gather(*holding)
            bucket.period = CHANNEL_PERIOD
            bucket.times.clear()
