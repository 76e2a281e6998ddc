"""Nothing goes late (issue 32, items 1 and 3).

A sender that lost its lease while one of its requests waited inside discord.py (after a 429,
for its turn in a bucket) must not write it when the wait ends: another process may have sent a
newer look meanwhile, and the late request would go back over it. The lease is checked right
before each request is written, not only before it is handed to discord.py.

An interaction that reaches the bot after Discord's answer window (the process was frozen, its
event loop held up) has already been shown to its user as failed: it changes nothing, so the
user's retry is not refused for something they never saw happen, and it logs one line, never a
traceback.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bot.core.ledger.transport import RequestKind
from bot.store.cluster import Cluster
from fakediscord import Message
from fakediscord.testing import BotLauncher
from tests.helpers.in_process import in_club
from tests.helpers.table_driver import dealt, hand_of, until


async def _choose(fd: Any, user: Any, hand: Message, **kwargs: Any) -> Any:
    menu = next(iter(hand.selects()))
    values = [o["value"] for o in menu["options"]][: int(menu.get("min_values", 1))]
    return await fd.select(user, hand, menu["custom_id"], values, **kwargs)


async def test_an_edit_that_waited_while_the_lease_was_lost_is_never_written(
    bots: BotLauncher, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lease = [True]
    # (Both the lease's epoch and its validity come from here, as from a renewal's answer.)
    monkeypatch.setattr(Cluster, "may_send", lambda self: lease[0])
    async with in_club(bots, tmp_path / "bot.db", "Al", "Bea") as club:
        fd, general, (al, bea) = club.fd, club.general, club.members
        await dealt(fd, general, al, bea)
        table = re.escape(f"PATCH /channels/{general.id}/messages/")
        # The table is edited through the Start's token while it lives: on Discord's clock its
        # 15 minutes are over, so the bot's own token edits it. That edit is refused with a
        # 429: discord.py waits a second and tries again. The lease is lost while it waits.
        fd.clock.advance(fd.token_lifetime)
        fault = fd.rate_limit(table + r"\d+", retry_after=1.0)
        mark = len(fd.requests)
        hand = hand_of(fd, al)
        assert hand is not None
        await _choose(fd, al, hand)
        await fd.wait_for(lambda: fault.hits == 1)
        lease[0] = False
        keeper = club.running.client.parts.sending.keeper

        def outcome() -> str | None:
            edits = [r for r in fd.requests[mark:] if re.match(table, r.route)]
            if any(r.status < 300 for r in edits):
                return "written after the lease was lost"
            if keeper._held_back:
                return "held back"
            return None

        assert await fd.wait_for(outcome) == "held back"
        # Renewed, nobody else having taken over: what was held back goes, as it is now.
        lease[0] = True
        keeper.resume()
        await until(
            fd, lambda: any(r.status < 300 for r in fd.requests[mark:] if re.match(table, r.route))
        )
        words = next(m for m in general.messages if "Deal 1" in m.words()).words()
        assert "Waiting for Bea" in words


async def test_a_command_discord_already_failed_opens_nothing(
    bots: BotLauncher, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with in_club(bots, tmp_path / "bot.db", "Al", "Bea") as club:
        fd, general, (al, _) = club.fd, club.general, club.members
        # Typed 11 s before the bot heard of it: Discord showed Al "This interaction failed".
        stale = await fd.slash(al, general, "/cribbage new", wait=False, made_ago=11.0)
        # The bot's answer to Al's retry proves it has read (and dropped) the stale one: the
        # gateway delivers them in order.
        retry = await fd.slash(al, general, "/cribbage new")
        assert stale.response is None, "nothing is answered past Discord's window"
        assert retry.original is not None and "Join" in {
            b.get("label") for b in retry.original.buttons()
        }, retry.words()
        said = [r for r in caplog.records if "past Discord's answer window" in r.getMessage()]
        assert len(said) == 1 and said[0].levelname == "INFO" and not said[0].exc_info


async def test_a_click_discord_already_failed_is_not_played(
    bots: BotLauncher, tmp_path: Path
) -> None:
    async with in_club(bots, tmp_path / "bot.db", "Al", "Bea") as club:
        fd, general, (al, bea) = club.fd, club.general, club.members
        await dealt(fd, general, al, bea)
        hand = hand_of(fd, al)
        assert hand is not None
        game = await club.store.open_game_in_channel(general.id)
        assert game is not None
        stale = await _choose(fd, al, hand, wait=False, made_ago=9.0)
        # Bea's throw, answered, comes after the stale one on the gateway: it was read first.
        bea_hand = hand_of(fd, bea)
        assert bea_hand is not None
        thrown = await _choose(fd, bea, bea_hand)
        assert thrown.response is not None
        assert stale.response is None
        after = await club.store.open_game_in_channel(general.id)
        assert after is not None and after.version == game.version + 1, "Bea's throw alone"


def _live(message: Message) -> bool:
    return bool(list(message.selects())) or any(
        not button.get("disabled") for button in message.buttons()
    )


async def test_the_turn_reaches_a_player_moving_by_command_where_they_typed(
    bots: BotLauncher, tmp_path: Path
) -> None:
    """Issue 32, item 7: a player moving by command is answered with their hand, and that
    answer is kept up to date through the command's token, so their next turn reaches them
    where they typed at once, even while their DM's count of edits is spent (Discord takes 5
    in 5 s a channel: by DM alone the fifth quick turn would wait for the window)."""
    async with in_club(bots, tmp_path / "bot.db", "Al", "Bea") as club:
        fd, general, (al, bea) = club.fd, club.general, club.members
        await dealt(fd, general, al, bea)
        hands = {u.id: hand_of(fd, u) for u in (al, bea)}
        thrown = {}
        for user in (al, bea):
            hand = hands[user.id]
            assert hand is not None
            menu = next(iter(hand.selects()))
            codes = [str(o["value"]) for o in menu["options"]][:2]
            thrown[user.id] = await fd.slash(
                user, general, f"/cribbage discard cards:{' '.join(codes)}"
            )
        # Each answer showed its player's hand (with the reply above it), and is kept up to
        # date since.
        for user in (al, bea):
            answer = thrown[user.id].original
            assert answer is not None and answer.ephemeral_for is user
            first = (answer.history or [answer.version()])[0]
            assert first.words().startswith("You put"), first.words()
            assert "Cribbage in <#" in first.words(), "and then the hand"
        game = await club.store.open_game_in_channel(general.id)
        assert game is not None and game.snapshot is not None
        # Whoever plays first: their DM's edits are all spent for the next five seconds.
        dms = {u.id: fd.dm_channel(u).id for u in (al, bea)}
        for user in (al, bea):
            club.running.client.parts.pacer.spent_before(dms[user.id], RequestKind.EDIT, [0.0] * 5)

        def turn() -> tuple[Any, Message] | None:
            for user in (al, bea):
                answer = thrown[user.id].original
                if answer is not None and _live(answer):
                    return user, answer
            return None

        mover, shown = await until(fd, turn)
        assert "to play" in shown.words() or "Your turn" in shown.words(), shown.words()
        assert mover in (al, bea)
