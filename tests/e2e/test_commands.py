"""The `/cribbage` commands and the lobby as users meet them: where they work, what they
answer, and the one-sentence refusals that change nothing."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.replies import Outcome
from bot.core.replies import User as Player
from bot.core.service import GameService
from bot.discord.app import CribbageBot
from bot.discord.commands import NEEDS_A_CHANNEL, NEEDS_A_SERVER
from bot.discord.interactions import SORRY
from bot.settings import Settings
from bot.store import Store
from engine.phase import Phase
from fakediscord import FakeDiscord, Message
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.table_driver import Snapshot, TableDriver, World, read_game, until


def _one_sentence(text: str) -> bool:
    return bool(text) and "\n" not in text and len(text) < 200


async def test_lobby_by_commands_and_buttons(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    opened = await fd.slash(al, world.general, "/cribbage new players:3 target:61")
    assert opened.ephemeral
    lobby: Message = await until(
        fd, lambda: next((m for m in fd.messages(world.general) if list(m.buttons())), None)
    )
    assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "Cancel"]
    assert "3 players, to 61" in lobby.content

    second = await fd.slash(bea, world.general, "/cribbage new")
    assert second.ephemeral and "already a game" in second.content

    too_early = await fd.slash(al, world.general, "/cribbage start")
    assert too_early.ephemeral and _one_sentence(too_early.content)

    joined = await fd.slash(bea, world.general, "/cribbage join")
    assert joined.ephemeral
    await until(fd, lambda: "Bea" in lobby.content)  # the lobby message is edited
    again = await fd.slash(bea, world.general, "/cribbage join")
    assert again.ephemeral and _one_sentence(again.content)
    left = await fd.click(bea, lobby, label="Leave")
    assert left.response is not None and left.response.type == 7
    assert "Bea" not in lobby.content.split("Seated")[1]

    # Only the creator or a moderator may cancel.
    refused = await fd.click(cy, lobby, label="Cancel")
    assert refused.ephemeral and _one_sentence(refused.content)
    assert list(lobby.buttons())
    cancelled = await fd.slash(world.moderator, world.general, "/cribbage cancel")
    assert cancelled.response is not None
    await until(fd, lambda: not list(lobby.buttons()))
    status = await fd.slash(cy, world.general, "/cribbage status")
    assert "no game" in status.content.lower()


async def test_commands_in_a_dm_say_where_to_use_them(world: World, bots: BotLauncher) -> None:
    # Synced globally (as in production): a development guild's commands don't reach DMs.
    await bots.process(database_path=world.db_path)
    fd = world.fd
    dm = fd.dm_channel(world.players[0])
    for line in ("/cribbage new", "/cribbage join", "/cribbage hand", "/cribbage play card:5H"):
        reply = await fd.slash(world.players[0], dm, line)
        assert reply.content == NEEDS_A_CHANNEL, line
    for line in ("/cribbage leaderboard", "/cribbage stats"):
        reply = await fd.slash(world.players[0], dm, line)
        assert reply.content == NEEDS_A_SERVER, line
    rules = await fd.slash(world.players[0], dm, "/cribbage rules topic:play")
    assert "count" in rules.content and "31" in rules.content
    assert await fd.autocomplete(world.players[0], dm, "/cribbage play card:") == []


async def test_a_game_in_a_thread_with_autocomplete_status_hand_and_resign(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    thread = world.general.add_thread("cribbage night")
    driver = TableDriver(
        fd, thread, [al, bea], world.db_path, random.Random(4), spectators=[world.spectator]
    )
    await driver.open(target=121)
    snap = driver.snapshot()
    assert snap.game is not None

    # Discard autocomplete offers Al's own cards; play autocomplete nothing yet.
    choices = await fd.autocomplete(al, thread, "/cribbage discard cards:")
    offered = {c["value"] for c in choices}
    assert offered == {c.code for c in snap.game.hand(0)}
    assert await fd.autocomplete(al, thread, "/cribbage play card:") == []
    # The spectator is offered nothing and cannot see a hand.
    assert await fd.autocomplete(world.spectator, thread, "/cribbage discard cards:") == []
    peek = await fd.slash(world.spectator, thread, "/cribbage hand")
    assert peek.ephemeral and _one_sentence(peek.content)

    while (snap := driver.snapshot()).game is not None and snap.game.phase is Phase.DISCARD:
        await driver.step(snap)
    game = driver.snapshot().game
    assert game is not None and game.turn is not None
    on_turn, waiting = (al, bea) if game.turn == 0 else (bea, al)
    legal = {c.code for c in game.playable_cards(game.turn)}
    choices = await fd.autocomplete(on_turn, thread, "/cribbage play card:")
    assert {c["value"] for c in choices} == legal
    assert await fd.autocomplete(waiting, thread, "/cribbage play card:") == []
    early = await fd.slash(
        waiting, thread, f"/cribbage play card:{game.hand(1 - game.turn)[0].code}"
    )
    assert early.ephemeral and _one_sentence(early.content)

    status = await fd.slash(world.spectator, thread, "/cribbage status")
    assert not status.ephemeral
    assert f"Count {game.count}" in status.content or f"count {game.count}" in status.content

    hand = await fd.slash(on_turn, thread, "/cribbage hand")
    assert hand.ephemeral and hand.original is not None
    labels = [b["label"] for b in hand.original.buttons()]
    assert labels == [str(c) for c in game.hand(game.turn)]

    # Play one card from the ephemeral controls (a type 7 update of the ephemeral message).
    driver.resync()  # the answers above may echo cards their typist wrote
    driver.dm_closed = {on_turn.id}
    await driver.step(driver.snapshot())
    driver.dm_closed = set()

    resigned = await fd.slash(al, thread, "/cribbage resign")
    assert resigned.ephemeral

    def finished() -> Snapshot | None:
        snap = read_game(world.db_path, driver.game_id)
        return snap if snap.status == "finished" else None

    final = await until(fd, finished)
    assert final.game is not None and final.game.result is not None
    assert final.game.result.reason == "resigned" and final.game.result.winner == 1
    await until(fd, lambda: any("resign" in m.content for m in driver.table_messages()))


async def test_old_controls_get_a_clear_answer(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    # Everyone acts by slash command, so the DM controls stay behind, unused and out of date.
    driver = TableDriver(
        fd, world.general, [al, bea], world.db_path, random.Random(8), command_rate=1.0
    )
    await driver.open(target=61)
    await driver.play_out(stop_after=5)  # both discards and three cards played
    await fd.quiet(0.05)
    snap = driver.snapshot()
    checked = 0
    for user in (al, bea):
        for dm in fd.dms(user):
            for menu in dm.selects():
                values = [o["value"] for o in menu["options"]][: menu["min_values"]]
                stale = await fd.select(user, dm, menu["custom_id"], values)
                assert stale.ephemeral and _one_sentence(stale.content), stale.content
                checked += 1
            current = f":play:{snap.version}:"
            for button in dm.buttons():
                if button.get("disabled") or current in button["custom_id"]:
                    continue
                stale = await fd.click(user, dm, button["custom_id"])
                assert stale.ephemeral and _one_sentence(stale.content), stale.content
                checked += 1
    assert checked >= 3
    after = driver.snapshot()
    assert (after.version, after.actions) == (snap.version, snap.actions)


class _SlowService(GameService):
    """A real service whose status takes longer than the bot waits before deferring."""

    async def status(self, channel_id: int) -> Outcome:
        await asyncio.sleep(0.4)
        return await super().status(channel_id)

    async def click_lobby(
        self, game_id: int, button: str, user: Player, *, moderator: bool = False
    ) -> Outcome:
        await asyncio.sleep(0.4)
        return await super().click_lobby(game_id, button, user, moderator=moderator)

    async def leaderboard(self, guild_id: int | None) -> Outcome:
        raise RuntimeError("the leaderboard query broke")


async def test_slow_calls_are_deferred_and_bugs_answer_briefly(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fd = fake_discord
    guild = fd.add_guild("Club")
    general = guild.add_text_channel("general")
    al, bea = fd.add_user("Al"), fd.add_user("Bea")
    guild.add_member(al)
    guild.add_member(bea)
    async with await Store.open(tmp_path / "bot.db") as store:
        service = _SlowService.create(store, idle_expiry=timedelta(days=7))
        settings = Settings(
            discord_token=fd.bot_token,
            database_path=str(tmp_path / "bot.db"),
            dev_guild_id=guild.id,
        )

        def make() -> CribbageBot:
            bot = CribbageBot(settings, service=service)
            bot.io.defer_after = 0.1
            return bot

        running = await bots.in_process(make)
        slow = await fd.slash(al, general, "/cribbage status")
        assert slow.response is not None and slow.response.type == 5, "deferred"
        settled = await slow.wait_settled()
        assert settled is not None and "no game" in settled.content.lower()

        # A slow click is deferred (type 6), then its message is edited all the same.
        await fd.slash(al, general, "/cribbage new")
        lobby: Message = await until(
            fd, lambda: next((m for m in fd.messages(general) if list(m.buttons())), None)
        )
        join = await fd.click(bea, lobby, label="Join")
        assert join.response is not None and join.response.type == 6
        await until(fd, lambda: "Al, Bea" in lobby.content)

        running.allow_errors("leaderboard query broke|error handling an interaction")
        broken = await fd.slash(al, general, "/cribbage leaderboard")
        assert broken.ephemeral and broken.content == SORRY
        logged = [r for r in caplog.records if r.levelname == "ERROR"]
        assert any(r.exc_info and "leaderboard query broke" in str(r.exc_info[1]) for r in logged)
        await running.stop()


async def test_idle_games_expire_without_a_result(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    fd = fake_discord
    guild = fd.add_guild("Club")
    general = guild.add_text_channel("general")
    al = fd.add_user("Al")
    guild.add_member(al)
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    async with await Store.open(tmp_path / "bot.db") as store:
        service = GameService(
            store,
            rng_factory=lambda key: random.Random(key),
            clock=lambda: now[0],
            idle_expiry=timedelta(days=7),
        )
        settings = Settings(discord_token=fd.bot_token, dev_guild_id=guild.id)
        running = await bots.in_process(lambda: CribbageBot(settings, service=service))
        await fd.slash(al, general, "/cribbage new")
        lobby: Message = await until(
            fd, lambda: next((m for m in fd.messages(general) if list(m.buttons())), None)
        )
        now[0] += timedelta(days=6)
        await running.client.expire_idle_games()
        await fd.quiet(0.05)
        assert list(lobby.buttons()), "six days idle is not too long"
        now[0] += timedelta(days=2)
        await running.client.expire_idle_games()
        await until(fd, lambda: not list(lobby.buttons()))
        said = await until(
            fd, lambda: [m for m in fd.messages(general) if "Nobody moved" in m.content]
        )
        assert not said[0].ephemeral
        fresh = await fd.slash(al, general, "/cribbage new")
        assert "already" not in fresh.content, "the channel is free again"
        await running.stop()
