"""Health and readiness over HTTP (issue 54, item 10): the operator's port (``OPS_PORT``) says
each part of the answer, the process's name, the lease's holder and the database's error
among them; the game pages' port, which faces the players, says alive, and ready or not, and
nothing more, with the same status codes, and serves no metrics. What ``docs/running.md``
lists of both is what they serve."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core.services import Services
from bot.discord.operations import PARTS
from bot.ops.health import Readiness
from bot.ops.metrics import Metrics
from bot.ops.server import OpsServer
from bot.store import Store
from bot.web.links import PageLinks
from bot.web.server import WebServer

RUNNING = Path(__file__).resolve().parents[3] / "docs" / "running.md"
HOLDER = "host-a:4121:9f2c01aa"
#: What the database said when it failed (a sentence the public must not read).
FAILED = "connection to server at db.internal (10.0.0.7), port 5432 failed"


def _readiness(*, database_up: bool) -> Readiness:
    async def ping() -> None:
        if not database_up:
            raise OSError(FAILED)

    async def sender() -> str | None:
        return HOLDER

    return Readiness(
        holder=HOLDER,
        shards=lambda: {0: True, 1: True},
        migrated=lambda: True,
        release="022_ranked",
        ping=ping,
        sender=sender,
        started=time.time(),
        background=lambda: dict.fromkeys(PARTS, "running"),
    )


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    async with session.get(url) as response:
        text = await response.text()
        return response.status, json.loads(text) if response.status != 404 else text


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
@pytest.mark.parametrize("database_up", [True, False])
async def test_the_public_port_says_ready_or_not_and_nothing_more(
    service: Services, store: Store, database_up: bool
) -> None:
    readiness = _readiness(database_up=database_up)
    ops = OpsServer(readiness, Metrics(), host="127.0.0.1", port=0)
    pages = WebServer(
        service.pages,
        service.feed,
        PageLinks("one secret that is long enough"),
        health=readiness,
    )
    await ops.start()
    await pages.start()
    try:
        async with aiohttp.ClientSession() as session:
            operator = f"http://127.0.0.1:{ops.port}"
            status, ready = await _get(session, f"{operator}/readyz")
            assert status == (200 if database_up else 503)
            assert ready["process"] == HOLDER
            if database_up:
                assert ready["sender"] == {"holder": HOLDER, "this_process": True}
            else:
                assert FAILED in ready["database"]["error"]
            status, alive = await _get(session, f"{operator}/healthz")
            assert status == 200 and alive["process"] == HOLDER

            status, said = await _get(session, f"{pages.address}/readyz")
            assert status == (200 if database_up else 503)
            assert said == {"ready": database_up}
            assert await _get(session, f"{pages.address}/healthz") == (200, {"alive": True})
            status, _ = await _get(session, f"{pages.address}/metrics")
            assert status == 404
    finally:
        await pages.stop()
        await ops.stop()


def _section() -> str:
    text = RUNNING.read_text(encoding="utf-8")
    return text.split("## Health and metrics", 1)[1].split("\n### ", 1)[0]


async def test_the_docs_list_the_operators_paths_and_show_readyz_as_it_answers() -> None:
    """The table of paths is what the operator's port serves, and the example of ``/readyz``
    has the shape of its answer: the same keys, at every level."""
    section = _section()
    documented = set(re.findall(r"^\| `(/[a-z]+)` \|", section, flags=re.MULTILINE))
    ops = OpsServer(_readiness(database_up=True), Metrics(), host="127.0.0.1", port=0)
    served = {resource.canonical for resource in ops.app().router.resources()}
    assert served == documented
    example = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    _, answered = await _readiness(database_up=True).ready()
    assert _shape(example) == _shape(answered)
    # Every part a process runs in the background, in the order it names them (and the
    # metric's row names each).
    assert tuple(example["background"]["parts"]) == PARTS
    whole = RUNNING.read_text(encoding="utf-8").split("## Health and metrics", 1)[1]
    row = next(line for line in whole.splitlines() if "`cribbage_background{part}`" in line)
    assert all(f"`{part}`" in row for part in PARTS)


async def test_a_part_failing_or_stopped_is_said_but_leaves_the_process_ready() -> None:
    said = {"clock": "stopped", "director": "failing: OSError: no database", "referee": "off"}
    readiness = dataclasses.replace(_readiness(database_up=True), background=lambda: said)
    ready, body = await readiness.ready()
    assert ready and body["background"] == {"ok": False, "parts": said}
    assert readiness.running() == {"clock": False, "director": False, "referee": False}
    # What the heartbeat writes of it, for python -m bot health.
    assert readiness.unwell() == "clock: stopped; director: failing: OSError: no database"
    said = {"clock": "running", "director": "starting", "referee": "off"}
    _, body = await readiness.ready()
    assert body["background"]["ok"] and readiness.unwell() == ""


def _shape(value: Any) -> Any:
    """A JSON value's keys, at every level (a mapping of shard numbers counts as one)."""
    if isinstance(value, dict):
        if value and all(key.isdigit() for key in value):
            return "shards"
        return {key: _shape(inner) for key, inner in value.items()}
    return type(value).__name__ if value is not None else "str"
