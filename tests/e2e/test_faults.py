"""Failures that trying again will not mend, through Discord (issue 21, item 6): each click is
answered with what is wrong and what helps, and the log has one line per cause and game, not a
traceback per click. A game whose saved state is damaged can still be ended by a moderator,
and its hands lose their controls; a full store and a database out of reach say the move was
not recorded."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.core.base import refusals
from bot.core.base.faults import Cause
from bot.store import Store
from fakediscord import FakeDiscord, Interaction, Message
from fakediscord.testing import BotLauncher, BotProcess, RunningBot
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import latest_game_id, rows
from tests.helpers.in_process import in_club
from tests.helpers.postgres import PostgresServer
from tests.helpers.store_faults import fill_up
from tests.helpers.table_driver import World, confirmed, dealt, hand_of, start_again, until


async def _choose_first(fd: FakeDiscord, user: Any, hand: Message) -> Interaction:
    """Choose the first cards of the hand's crib select (as many as it asks for)."""
    menu = next(iter(hand.selects()))
    values = [o["value"] for o in menu["options"]][: int(menu.get("min_values", 1))]
    return await fd.select(user, hand, menu["custom_id"], values)


async def _throw(fd: FakeDiscord, user: Any, hand: Message) -> str:
    """Choose the first cards of the hand's crib select; the bot's answer."""
    used = await _choose_first(fd, user, hand)
    reply = await used.wait_settled()
    assert reply is not None and reply.ephemeral, used
    return reply.words()


def _closed(fd: FakeDiscord, user: Any) -> bool:
    """Whether every message of the user's DMs is without controls, and the hand says the
    game ended."""
    dms = fd.dms(user)
    live = [m for m in dms if list(m.buttons()) or list(m.selects())]
    return not live and any("No result is recorded" in m.words() for m in dms)


def _said(bot: RunningBot, cause: Cause) -> list[str]:
    return [line for line in bot.allowed if cause.value in line]


async def _dealt_in(fd: FakeDiscord, general: Any, store: Store, al: Any, bea: Any) -> int:
    """A game between Al and Bea dealt in #general by the bot running on ``store``: its id."""
    await dealt(fd, general, al, bea)
    game = await store.open_game_in_channel(general.id)
    assert game is not None
    return game.id


async def _throws_refused(
    fd: FakeDiscord, users: tuple[Any, ...], rounds: int, refusal: str
) -> None:
    """Each of ``users`` tries ``rounds`` times to throw to the crib, and every try is
    answered with ``refusal``."""
    for _ in range(rounds):
        for user in users:
            hand = hand_of(fd, user)
            assert hand is not None
            assert await _throw(fd, user, hand) == refusal


@BOTH_DATABASES
async def test_a_damaged_game_says_so_and_a_moderator_ends_it(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    await dealt(fd, world.general, al, bea)
    game_id = latest_game_id(world.database, world.general.id)
    await bot.stop()
    rows(
        world.database, "UPDATE games SET snapshot = ? WHERE id = ?", ('{"format": 3, "ga', game_id)
    )
    bot.allow_errors(re.escape(Cause.DAMAGED.value))
    await start_again(fd, bot)

    await _throws_refused(fd, (al, bea), 2, refusals.DAMAGED_GAME)
    for line in ("/cribbage hand", "/cribbage status", "/cribbage discard cards:5H JD"):
        answered = await fd.slash(al, world.general, line)
        assert answered.ephemeral and answered.words() == refusals.DAMAGED_GAME, line

    refused = await fd.slash(al, world.general, "/cribbage cancel")
    assert refused.ephemeral and "only a moderator" in refused.words()
    cancelled = await confirmed(fd, world.moderator, world.general, "/cribbage cancel")
    assert cancelled.original is not None and "cancelled" in cancelled.original.words().lower()
    await until(
        fd, lambda: [m for m in fd.messages(world.general) if "A moderator cancelled" in m.words()]
    )
    # No hand keeps live controls: each says the game ended.
    await until(fd, lambda: _closed(fd, al) and _closed(fd, bea))
    # A new game can be opened in the channel.
    opened = await fd.slash(al, world.general, "/cribbage new")
    assert opened.original is not None and not opened.ephemeral
    [line] = _said(bot, Cause.DAMAGED)
    assert f"game {game_id}" in line and "/cribbage cancel" in line
    assert "Traceback" not in "\n".join(bot.allowed)


@BOTH_DATABASES
async def test_a_full_store_says_the_move_was_not_recorded(
    bots: BotLauncher, tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    target: str | Path = tmp_path / "bot.db"
    if backend == "postgres":
        target = request.getfixturevalue("postgres_url")
    opening = in_club(bots, target, "Al", "Bea")
    async with opening as (fd, _, general, (al, bea), store, running):
        game_id = await _dealt_in(fd, general, store, al, bea)
        running.allow_errors(re.escape(Cause.FULL.value))
        await fill_up(store)
        await _throws_refused(fd, (al, bea), 3, refusals.STORAGE_FULL)
        # Resigning asks first (nothing written), and Yes is refused: nothing is recorded.
        asked = await fd.slash(al, general, "/cribbage resign")
        assert asked.ephemeral and asked.original is not None
        resigned = await fd.click(al, asked.original, label="Yes, resign")
        said = [resigned.words(), *(f.words() for f in resigned.followups)]
        assert refusals.STORAGE_FULL in said, said
        [(status, actions)] = rows(
            target,
            "SELECT status, (SELECT COUNT(*) FROM actions WHERE game_id = games.id)"
            " FROM games WHERE id = ?",
            (game_id,),
        )
        assert status == "active" and actions == 0, "nothing was recorded"
        [line] = _said(running, Cause.FULL)
        assert f"game {game_id}" in line


async def test_a_database_out_of_reach_says_the_move_was_not_recorded(
    bots: BotLauncher, own_server: PostgresServer
) -> None:
    opening = in_club(bots, own_server.url(), "Al", "Bea")
    async with opening as (fd, _, general, (al, bea), store, running):
        game_id = await _dealt_in(fd, general, store, al, bea)
        running.allow_errors(re.escape(Cause.UNREACHABLE.value))
        own_server.halt()
        await _throws_refused(fd, (al, bea), 3, refusals.DATABASE_UNREACHABLE)
        status = await fd.slash(al, general, "/cribbage status")
        assert status.ephemeral and status.words() == refusals.DATABASE_UNREACHABLE
        # A list that needs the store (the cards to discard, the players to block) offers
        # nothing rather than failing: an autocomplete has no answer that could say why.
        assert await fd.autocomplete(al, general, "/cribbage discard cards:") == []
        assert await fd.autocomplete(al, general, "/cribbage ranked block player:") == []
        assert 1 <= len(_said(running, Cause.UNREACHABLE)) <= 2  # the game's; the bot's
        assert running.take_errors() == []
        # Back: the next click is the move, answered by updating the hand.
        own_server.resume()
        hand = hand_of(fd, al)
        assert hand is not None
        used = await _choose_first(fd, al, hand)
        assert used.response is not None and used.response.type == 7, used
        assert len(await store.actions(game_id)) == 1
