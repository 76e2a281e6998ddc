"""A slow call is deferred with the visibility its answer will have (issue 10, item 8): on
Discord the answer to a deferred command keeps the deferral's visibility, so a deferral made
private would keep `/cribbage leaderboard`, `stats` and `status show:True` from the channel,
and one made public would show everyone a refusal meant for one person. The emulator does as
Discord does: the first follow-up after a "thinking" deferral becomes that message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.core.services import Services
from bot.discord.interactions import SORRY
from bot.store import Store
from fakediscord import FakeDiscord, Message
from fakediscord.testing import BotLauncher
from tests.helpers.in_process import bot_core, in_club, slowed

SLOW = 0.4


def _slow(store: Store) -> Services:
    """A real core whose answers take longer than the bot waits before deferring (and whose
    stats break, after a public deferral, for a player called Bug). Which game a command acts
    on is slow too, so a refusal it says (a game open already) comes after the deferral."""
    services = bot_core(store)
    slowed(services.which, "facts", SLOW)
    slowed(services.lobbies, "new_game", SLOW)
    slowed(services.table, "status", SLOW)
    slowed(services.standings, "leaderboard", SLOW)
    slowed(
        services.standings,
        "stats",
        SLOW,
        fails=lambda guild, user, against=None, **_: against is not None and against.name == "Bug",
    )
    return services


def _seen_by_others(fd: FakeDiscord, channel: Any, viewer: Any) -> list[Message]:
    return [m for m in fd.visible_to(viewer, channel) if not m.deleted]


async def test_deferred_answers_keep_their_visibility(bots: BotLauncher, tmp_path: Path) -> None:
    opening = in_club(bots, tmp_path / "bot.db", "Al", "Bea", "Bug", service=_slow, defer_after=0.1)
    async with opening as (fd, _, general, (al, bea, _), _, running):
        # Public answers: deferred publicly, answered publicly.
        for line in (
            "/cribbage leaderboard",
            "/cribbage stats",
            "/cribbage stats user:Bea",
            "/cribbage new",
            "/cribbage status show:True",
        ):
            answer = await fd.slash(al, general, line)
            assert answer.response is not None and answer.response.type == 5, line
            settled = await answer.wait_settled()
            assert settled is not None and not settled.ephemeral, line
            assert settled in fd.visible_to(bea, general), line

        # Private answers: deferred privately.
        private = await fd.slash(bea, general, "/cribbage status")
        assert private.response is not None and private.response.type == 5
        settled = await private.wait_settled()
        assert settled is not None and settled.ephemeral

        # A refusal after a public deferral reaches only the one who asked, and leaves no
        # public "thinking" message behind.
        seen_before = _seen_by_others(fd, general, al)
        busy = await fd.slash(bea, general, "/cribbage new")
        assert busy.response is not None and busy.response.type == 5
        said = await busy.wait_for(lambda i: any(m.ephemeral for m in i.messages()))
        assert said
        refusal = next(m for m in busy.messages() if m.ephemeral)
        assert "already a game" in refusal.words() and refusal.ephemeral_for is bea
        assert _seen_by_others(fd, general, al) == seen_before, "nothing public was left"

        # So does the apology for a bug.
        running.allow_errors("stats broke|error handling an interaction")
        broken = await fd.slash(al, general, "/cribbage stats against:Bug")
        await broken.wait_for(lambda i: any(m.ephemeral for m in i.messages()))
        apology = next(m for m in broken.messages() if m.ephemeral)
        assert apology.words() == SORRY
        assert not [m for m in fd.visible_to(bea, general) if m.loading or m.words() == SORRY]
