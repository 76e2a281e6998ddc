"""Health, readiness and metrics of the bot as it runs (issue 50, items 1 and 2).

The bot runs as ``python -m bot`` with ``OPS_PORT`` set; Al plays the computer while the test
reads ``/metrics`` after each move and checks the figures move as the game does: one more
interaction and one more answer timed per click, the moves counted exactly as the game's log
grows, Discord's requests counted by route, the open game counted while it lasts. ``/readyz``
says the process is ready and that it holds the sender's lease; ``python -m bot health`` says
the same from the database, with no port.
"""

from __future__ import annotations

import asyncio
import json
import sys

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.discord.operations import PARTS
from fakediscord.runner import free_port
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import logged_actions
from tests.helpers.bot_runs import REPO
from tests.helpers.table_driver import World, resign, until

pytestmark = BOTH_DATABASES

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def _metrics(base: str) -> Samples:
    status, text = await _get(f"{base}/metrics")
    assert status == 200
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


def _sum(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value
        for (found, have), value in samples.items()
        if found == name and set(labels.items()) <= set(have)
    )


async def _start(world: World, bots: BotLauncher) -> tuple[BotProcess, str]:
    port = free_port()
    bot = await bots.process(
        database=world.database, dev_guild=world.guild.id, env={"OPS_PORT": str(port)}
    )
    return bot, f"http://127.0.0.1:{port}"


async def test_metrics_move_as_the_game_does(world: World, bots: BotLauncher) -> None:
    bot, base = await _start(world, bots)
    status, body = await _get(f"{base}/healthz")
    assert status == 200 and json.loads(body)["alive"] is True
    status, body = await _get(f"{base}/readyz")
    ready = json.loads(body)
    assert status == 200 and ready["ready"], ready
    assert ready["gateway"]["ok"] and ready["database"]["ok"] and ready["migrations"]["ok"]
    assert ready["sender"]["this_process"] and ready["sender"]["holder"] == ready["process"]
    # The sender runs every part of the background (the director's and the referee's start
    # may still be reading the store).
    parts = ready["background"]["parts"]
    assert ready["background"]["ok"] and tuple(parts) == PARTS, ready
    assert set(parts.values()) <= {"running", "starting"}, parts

    before = await _metrics(base)
    assert _sum(before, "cribbage_games", state="active") == 0
    assert _sum(before, "cribbage_sender") == 1
    assert _sum(before, "cribbage_background", part="clock") == 1
    assert _sum(before, "cribbage_background", part="housekeeping") == 1
    assert _sum(before, "cribbage_sender_lease", holder=ready["process"]) == 1

    player = world.driver(world.players[:1], 41, command_rate=0.0)
    snap = await player.open_against_computer("easy", target=61)
    opened = await _metrics(base)
    assert _sum(opened, "cribbage_games", state="active") == 1
    assert _sum(opened, "cribbage_interactions_total", type="application_command") >= 1
    assert _sum(opened, "cribbage_discord_requests_total", route="/channels/{id}/messages") >= 1
    # The computer's discard, made as the game opened, is a move of the log like any other.
    opening = len(logged_actions(world.database, player.game_id))
    assert opening == 1 and _sum(opened, "cribbage_moves_total") == opening

    last = opened
    for _ in range(4):
        logged = len(logged_actions(world.database, player.game_id))
        snap = await player.step(snap)
        await player.settle(snap)
        now = await _metrics(base)
        moved = len(logged_actions(world.database, player.game_id)) - logged
        # Exactly the moves the game's log gained (Al's and the computer's answers).
        moves = _sum(now, "cribbage_moves_total") - _sum(last, "cribbage_moves_total")
        assert moved > 0 and moves == moved
        # The click: one more interaction, and its answer timed (well within Discord's 3 s
        # here, on 127.0.0.1).
        clicks = _sum(now, "cribbage_interactions_total", type="component")
        assert clicks == _sum(last, "cribbage_interactions_total", type="component") + 1
        answered = _sum(now, "cribbage_interaction_answer_seconds_count")
        assert answered > _sum(last, "cribbage_interaction_answer_seconds_count")
        assert _sum(now, "cribbage_database_round_trips_total") > _sum(
            last, "cribbage_database_round_trips_total"
        )
        # (A move is one statement on PostgreSQL, a transaction on SQLite: timed either way.)
        assert _sum(now, "cribbage_database_seconds_count") > _sum(
            last, "cribbage_database_seconds_count"
        )
        last = now
    callbacks = _sum(
        last, "cribbage_discord_requests_total", route="/interactions/{id}/{token}/callback"
    )
    assert callbacks >= 5
    # Every interaction answered is timed once (the callbacks that were answers).
    assert _sum(last, "cribbage_interaction_answer_seconds_count") == callbacks
    assert _sum(last, "cribbage_discord_rate_limited_total") == 0
    # Discord answers the next edit 429 (a shared limit): counted, by its scope. (The table is
    # edited through the token of the command that opened the game while it lives.)
    limited = world.fd.rate_limit(
        r"^PATCH /(channels/\d+|webhooks/\d+/[^/]+)/messages/\d+$", scope="shared"
    )
    snap = await player.step(snap)
    await player.settle(snap)
    assert limited.hits == 1
    now = await _metrics(base)
    assert _sum(now, "cribbage_discord_rate_limited_total", scope="shared") == 1
    assert _sum(now, "cribbage_discord_requests_total", status="429") == 1

    # It ends (a resignation: what follows a game's end is the same however it ends).
    await resign(world.fd, world.players[0], world.general)
    await until(world.fd, lambda: player.snapshot().status == "finished")
    over = await _metrics(base)
    assert _sum(over, "cribbage_games", state="active") == 0
    assert _sum(over, "cribbage_pacer_waiting") >= 0

    # With no port: python -m bot health reads the process's heartbeat from the database.
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        "--database",
        str(world.database),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    said = out.decode()
    assert proc.returncode == 0, said
    assert ready["process"] in said and "sends" in said
    assert bot.proc is not None and bot.proc.returncode is None
