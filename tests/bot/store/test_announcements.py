"""What a change's announcement says on PostgreSQL, and who reads it: a move saved with a
click's answer is heard by another process of this release with the answer's record and the
version of the look the click was made on (``MessageRecord.seen``), and by a process of the
previous release (an upgrade: the two run side by side) with the answer's record, which it
reads by the fields it knows. Before, the record carried ``seen`` in its JSON and that release
dropped the whole announcement: it never heard of the moves made through this release, and
once it sent again it drew the hands as they were before them (tests/e2e/test_upgrade.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core.base.delivery import AnswerKept
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked
from bot.core.base.views import MessageRecord
from bot.core.games.records import GameChange, GameStatus, NewGame, Options, SeatRecord
from bot.core.ledger.life import answer_record
from bot.store import Store
from bot.store.cluster import Cluster, change_of
from bot.store.store import ANNOUNCE_CHANNEL
from tests.helpers.news import NewsHeard, Told
from tests.helpers.previous_release import checked_out, previous_release

#: Only stops a broken announcement from hanging the test.
WITHIN = 30.0

#: Run in the previous release's checkout: its parser's reading of each payload on stdin.
_READ_AS_THE_PREVIOUS_RELEASE = """
import json, sys
from bot.store.cluster import change_of
for payload in json.load(sys.stdin):
    # (A release's parser hands back the change carrying the answer, or, since the answer
    # is told to the ledger apart from the change, what was announced: the change beside it.)
    heard = change_of(payload)
    change = getattr(heard, "change", heard)
    answered = getattr(heard, "answered", None)
    print(json.dumps(None if change is None else {
        "owner": str(change.owner), "version": change.version,
        # (A key is text in releases before keys were values, a MessageKey since.)
        "key": None if answered is None else str(answered.key),
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
        NewGame(5, 10, SeatRecord(0, 1, "Al"), Options(2, 121)), now=100.0
    )
    answer = AnswerKept(
        MessageKey.hand(1, 0),
        Clicked(77, 88, "tok"),
        "2:abc",
        game.version + 1,
        101.0,
        seen=game.version,
    )
    change = GameChange(GameStatus.LOBBY, actions=['{"type": "x"}'])
    await store.save(game.id, game.version, change, now=101.0, answered=answer)
    return game.id, answer_record(answer)


async def test_another_process_hears_a_clicks_answer_and_the_look_it_was_made_on(
    postgres_url: str, store: Store
) -> None:
    other = await Store.open(postgres_url)
    feed = ChangeFeed()
    news = NewsHeard()
    heard: list[tuple[Change, int]] = []  # (each change, and how much was told before it)
    feed.subscribe(lambda change: heard.append((change, len(news.told))))
    cluster = Cluster(other, feed, news, became_sender=_nothing)
    await cluster.start()
    try:
        game_id, answer = await _a_move_with_a_clicks_answer(store)
        await _until(lambda: any(t.record is not None for t in news.told))
        await _until(lambda: any(c.version == answer.version for c, _ in heard))
    finally:
        await cluster.stop()
        await other.close()
    [told] = [t for t in news.told if t.record is not None]
    assert told == Told("elsewhere", Owner.game(game_id), answer)
    [(change, before)] = [(c, n) for c, n in heard if c.version == answer.version]
    assert change == Change(Owner.game(game_id), answer.version, 10)
    assert news.told[before - 1] == told, "the ledger is told before the change is published"


_ANSWER = MessageRecord(MessageKey.parse("hand:12:1"), 77, 88, "2:abc", version=8)


def test_an_answer_at_a_game_played_apart_is_told_for_the_place_of_its_hand() -> None:
    said = {**dataclasses.asdict(_ANSWER), "key": str(_ANSWER.key)}  # (a key goes as its text)
    payload = f"game:12:8:-5|{json.dumps(said)}"
    announced = change_of(payload)
    places = (Owner.place(12, 0), Owner.place(12, 1))
    assert announced is not None and announced.change == Change(
        Owner.game(12), 8, -5, places=places
    )
    news = NewsHeard()
    announced.tell(news)
    assert news.told == [Told("elsewhere", Owner.place(12, 1), _ANSWER)]
    # In a channel, the game keeps its hands' messages itself.
    announced = change_of(payload.replace(":-5|", ":345|"))
    assert announced is not None
    announced.tell(news)
    assert news.told[1:] == [Told("elsewhere", Owner.game(12), _ANSWER)]


def test_an_announcement_without_a_version_is_heard_late_by_every_owner_of_the_game() -> None:
    news = NewsHeard()
    for payload in ("12:-5", "12:345"):  # (an earlier release: a game and its channel)
        announced = change_of(payload)
        assert announced is not None and announced.change.version == 0
        announced.tell(news)
    late = [Owner.game(12), Owner.place(12, 0), Owner.place(12, 1), Owner.game(12)]
    assert news.told == [Told("late", owner) for owner in late]


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
        "key": str(answer.key),
        "digest": answer.digest,
    }
    assert move in read, (payloads, read)
    assert all(r is None or r["owner"] == f"game:{game_id}" for r in read), read


async def _nothing() -> None:
    """Becoming the sender does nothing here."""
