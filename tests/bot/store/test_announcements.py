"""What a change's announcement says on PostgreSQL, and who reads it: a move saved with a
click's answer is heard by another process of this release with the answer's record and the
version of the look the click was made on (``MessageRecord.seen``), and by a process of the
previous release (an upgrade: the two run side by side) with the answer's record, which it
reads by the fields it knows. Before, the record carried ``seen`` in its JSON and that release
dropped the whole announcement: it never heard of the moves made through this release, and
once it sent again it drew the hands as they were before them (tests/e2e/test_upgrade.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.views import MessageRecord
from bot.core.games.records import GameStatus, SeatRecord
from bot.store import Store
from bot.store.cluster import Cluster
from bot.store.store import ANNOUNCE_CHANNEL
from tests.helpers.previous_release import checked_out, previous_release

#: Only stops a broken announcement from hanging the test.
WITHIN = 30.0

#: Run in the previous release's checkout: its parser's reading of each payload on stdin.
_READ_AS_THE_PREVIOUS_RELEASE = """
import json, sys
from bot.store.cluster import change_of
for payload in json.load(sys.stdin):
    change = change_of(payload)
    answered = None if change is None or change.answered is None else change.answered
    print(json.dumps(None if change is None else {
        "owner": str(change.owner), "version": change.version,
        "key": None if answered is None else answered.key,
        "digest": None if answered is None else answered.digest,
    }))
"""


async def _until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(WITHIN):
        while not condition():
            await asyncio.sleep(0.05)


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(postgres_url)
    try:
        yield opened
    finally:
        await opened.close()


async def _a_move_with_a_clicks_answer(store: Store) -> tuple[int, MessageRecord]:
    """A game and a move saved on it with a click's answer made on the look of the version
    the move was made at; the game's id and the answer's record."""
    game = await store.create_game(
        guild_id=5, channel_id=10, creator=SeatRecord(0, 1, "Al"), num_players=2, target=121,
        now=100.0,
    )  # fmt: skip
    answer = MessageRecord(
        "hand:1:0", 77, 88, "2:abc", token="tok", token_at=100.0, original=True,
        version=game.version + 1, unconfirmed_since=101.0, seen=game.version,
    )  # fmt: skip
    await store.save(
        game.id, game.version, now=101.0, status=GameStatus.LOBBY, actions=['{"type": "x"}'],
        answered=answer,
    )  # fmt: skip
    return game.id, answer


async def test_another_process_hears_a_clicks_answer_and_the_look_it_was_made_on(
    postgres_url: str, store: Store
) -> None:
    other = await Store.open(postgres_url)
    feed = ChangeFeed()
    heard: list[Change] = []
    feed.subscribe(heard.append)
    cluster = Cluster(other, feed, became_sender=_nothing)
    await cluster.start()
    try:
        game_id, answer = await _a_move_with_a_clicks_answer(store)
        await _until(lambda: any(c.answered is not None for c in heard))
    finally:
        await cluster.stop()
        await other.close()
    [change] = [c for c in heard if c.answered is not None]
    assert (str(change.owner), change.version) == (f"game:{game_id}", answer.version)
    assert change.answered == answer
    assert change.elsewhere


async def test_the_previous_release_hears_a_clicks_answer(
    postgres_url: str, store: Store, tmp_path: Path
) -> None:
    listener = await asyncpg.connect(postgres_url)
    payloads: list[str] = []

    def received(*args: Any) -> None:
        payloads.append(str(args[3]))

    await listener.add_listener(ANNOUNCE_CHANNEL, received)
    try:
        created = len(payloads)
        game_id, answer = await _a_move_with_a_clicks_answer(store)
        await _until(lambda: any("|{" in payload for payload in payloads[created:]))
    finally:
        await listener.close()
    with checked_out(previous_release(), tmp_path / "previous") as old:
        done = subprocess.run(
            [sys.executable, "-c", _READ_AS_THE_PREVIOUS_RELEASE],
            input=json.dumps(payloads),
            cwd=old,
            env={**os.environ, "PYTHONPATH": str(old)},
            capture_output=True,
            text=True,
            check=True,
        )
    read = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(read) == len(payloads), done.stderr
    # Every announcement it reads is right; the one of the move it reads with the answer.
    move = {
        "owner": f"game:{game_id}",
        "version": answer.version,
        "key": answer.key,
        "digest": answer.digest,
    }
    assert move in read, (payloads, read)
    assert all(r is None or r["owner"] == f"game:{game_id}" for r in read), read


async def _nothing() -> None:
    """Becoming the sender does nothing here."""
