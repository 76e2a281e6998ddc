"""Reviews made by themselves (bot.core.review.automatic): every finished game's people are
reviewed without anyone asking, once, the latest games first; games that cannot be reviewed
are noted and left; a new start (a restart) picks up the finished games still owed."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from pathlib import Path

import pytest

import bot.core.games.games
import bot.core.review.review
from bot.core.base.replies import TableAsked, User
from bot.core.base.text import period
from bot.core.games.records import GameChange, GameStatus, NewGame, Options, SeatRecord
from bot.core.review.automatic import LOOKBACK, AutoReviews
from bot.core.services import Services
from bot.core.worker.review_work import ReviewRequest, make_review
from bot.store import Store
from engine.coach import review_view
from engine.review import GameReview
from tests.helpers.cast import AL, BEA, CHANNEL, CY, GUILD, in_server
from tests.helpers.kept import Kept
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    drive,
    make_service,
    open_table,
)

#: The most a test waits for the reviewer running in the background (it is done long before).
WAIT = 120.0


async def _finished(service: Services, users: list[User], channel: int = CHANNEL) -> int:
    table = await open_table(service, users, target=61, channel=channel)
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, users)
    return game_id


async def _against_computer(service: Services, channel: int) -> int:
    table = Transcript(service)  # first: it follows the feed from the game's first change
    opened = await service.lobbies.new_game(
        GUILD, channel, AL, TableAsked(target=61, vs_computer=True, level="easy")
    )
    await table.record(AL.id, opened)
    await drive(service, table, [AL])
    return opened.game_id or 0


async def _owed(store: Store) -> list[int]:
    return await store.reviews_owed(0.0, limit=100)


async def _done(store: Store) -> dict[int, str]:
    rows = await store.db.fetch("SELECT game_id, outcome FROM auto_reviews")
    return {int(r[0]): str(r[1]) for r in rows}


async def test_finished_games_are_reviewed_once_without_anyone_asking(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, sealing=True, retention=timedelta(days=1))
    # A game pruned already (within the days looked back) is left to be reviewed when asked,
    # from its archive record.
    pruned = await _finished(service, [AL, BEA], channel=CHANNEL + 5)
    clock.advance(days=2)
    assert await service.housekeeping.prune() == 1
    people = await _finished(service, [AL, BEA])
    clock.advance(minutes=1)
    computer = await _against_computer(service, CHANNEL + 1)
    going = await open_table(service, [AL, CY], target=121, channel=CHANNEL + 2)
    going_id = going.outcomes[0].game_id or 0
    await drive(service, going, [AL, CY], stop_after=6)
    cancelled = await service.lobbies.new_game(GUILD, CHANNEL + 3, BEA)
    assert (await service.lobbies.cancel(CHANNEL + 3, BEA)).ok
    # A game begun before shuffles were recorded cannot be dealt again: noted, never made.
    old = await _finished(service, [BEA, CY], channel=CHANNEL + 4)
    record = await store.get_game(old)
    assert record is not None and record.snapshot is not None
    data = json.loads(record.snapshot)
    del data["shuffles"], data["seeds"]
    data["format"] = 2
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(data), old))
    service.games.loaded.drop(old)  # as drawn before, with its shuffles
    # The latest first; not the game going on, the cancelled one or the pruned one.
    assert await _owed(store) == [old, computer, people]
    assert pruned not in (going_id, cancelled.game_id)

    made: list[ReviewRequest] = []
    maker = service.reviews._make

    async def counting(request: ReviewRequest) -> GameReview:
        made.append(request)
        return await maker(request)

    service.reviews._make = counting
    reviewer = service.auto_reviews
    assert await reviewer.review_owed() == 3
    done = await _done(store)
    assert done == {people: "reviewed", computer: "reviewed", old: "too old"}
    # Every person's seat, none of the computer's, the latest game first.
    assert [(r.seed, r.seat) for r in made] == [(computer, 0), (people, 0), (people, 1)]
    for game_id, seat, user in ((people, 0, AL), (people, 1, BEA), (computer, 0, AL)):
        kept = await store.review(game_id, seat)
        assert kept is not None and kept.final and kept.user_id == user.id
    assert await store.review(computer, 1) is None
    assert await store.review(old, 0) is None

    # Nothing is owed now: another look makes nothing.
    assert await _owed(store) == []
    assert await reviewer.review_owed() == 0
    assert len(made) == 3
    line = await service.reviews.stats_line(GUILD, AL.id)
    assert line is not None and "over the last 2 reviewed games" in line, line


async def test_stats_count_the_games_that_ended_last_whenever_they_were_reviewed(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, sealing=True)
    first = await _finished(service, [AL, BEA])
    clock.advance(minutes=5)
    second = await _finished(service, [AL, CY], channel=CHANNEL + 1)
    # Reviewed in the other order (the latest game first, as the reviewer does).
    for game_id in (second, first):
        record = await store.get_game(game_id)
        assert record is not None
        assert await service.reviews.review_all(record)
        clock.advance(minutes=1)
    totals = await store.review_totals(GUILD, AL.id, last=10)
    assert [t[0] for t in totals] == [second, first]
    assert [t[0] for t in await store.review_totals(GUILD, AL.id, last=1)] == [second]


async def test_a_game_that_ends_is_reviewed_and_a_new_start_picks_up_what_was_owed(
    store: Store, clock: Clock
) -> None:
    # Before the stop: a game finished and nobody reviewed it (the bot went down first).
    before = make_service(store, clock, sealing=True)
    owed = await _finished(before, [AL, BEA])
    assert await _owed(store) == [owed]

    # Started again: the reviewer picks it up by itself, then reviews each game that ends.
    service = make_service(store, clock, sealing=True)
    stamp = lambda: clock().timestamp()  # noqa: E731
    reviewer = AutoReviews(
        service.reviews, service.games, store, service.feed, clock=stamp, gap=0.0
    )
    reviewer.start()
    try:
        await _until(store, lambda done: done.get(owed) == "reviewed")
        assert (await store.review(owed, 1)) is not None
        ended = await _finished(service, [BEA, CY], channel=CHANNEL + 1)
        record = await store.get_game(ended)
        assert record is not None and record.status is GameStatus.FINISHED
        await _until(store, lambda done: done.get(ended) == "reviewed")
        kept = await store.review(ended, 0)
        assert kept is not None and kept.final and kept.user_id == BEA.id
    finally:
        reviewer.stop()
    assert not reviewer.running
    line = await service.reviews.stats_line(GUILD, BEA.id)
    assert line is not None and "over the last 2 reviewed games" in line, line


async def _until(store: Store, done: Callable[[dict[int, str]], bool]) -> None:
    """Wait (at most WAIT seconds) until ``done`` holds of the games noted done."""
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while not done(await _done(store)):
        assert loop.time() < end, await _done(store)
        await asyncio.sleep(0.05)


async def test_a_review_that_fails_is_tried_again_on_a_later_look(
    store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    service = make_service(store, clock, sealing=True)
    game_id = await _finished(service, [AL, BEA])
    maker = service.reviews._make

    async def broken(_request: ReviewRequest) -> GameReview:
        raise BrokenProcessPool("the review worker died")

    service.reviews._make = broken
    with caplog.at_level(logging.WARNING):
        assert await service.auto_reviews.review_owed() == 0
    assert await _owed(store) == [game_id] and await store.review(game_id, 0) is None
    assert any("could not review game" in r.getMessage() for r in caplog.records)
    service.reviews._make = maker
    assert await service.auto_reviews.review_owed() == 1
    assert (await _done(store)) == {game_id: "reviewed"}


async def test_a_finished_game_with_nothing_kept_to_deal_again_is_passed_over(
    store: Store, clock: Clock
) -> None:
    # A finished game written without its snapshot (as an import or an old release might).
    now = clock().timestamp()
    opener = SeatRecord(0, AL.id, AL.name)
    record = await store.create_game(NewGame(GUILD, CHANNEL, opener, Options(2, 121)), now=now)
    version = await store.set_seats(
        record.id,
        record.version,
        [SeatRecord(0, AL.id, AL.name), SeatRecord(1, BEA.id, BEA.name)],
        now=now,
    )
    await store.save(record.id, version, GameChange(GameStatus.FINISHED), now=now)
    assert await _owed(store) == []
    service = make_service(store, clock, sealing=True)
    assert await service.auto_reviews.review_owed() == 0
    # Asked anyway (a race with pruning), it is noted as such, not tried for ever.
    assert await service.auto_reviews._review(record.id)
    assert (await _done(store)) == {record.id: "nothing kept"}


async def test_the_stats_accuracy_counts_only_the_games_the_record_counts(
    store: Store, clock: Clock
) -> None:
    """``/cribbage stats``' accuracy line adds up the reviewed games its record counts: a
    lesson (practice, no result) and a game cancelled mid-deal (no result) are reviewed all
    the same, and left out of it, where the stats said "Al has not finished a game outside
    servers yet" over "Accuracy 67% over the last 1 reviewed game"."""
    service = make_service(store, clock, sealing=True)
    dm = 7000

    async def reach(_text: str) -> bool:
        return True

    table = Transcript(service)
    learn = await service.lessons.learn(AL, dm, here=False, in_server=True, reach=reach)
    assert learn.ok, learn.reply.text
    lesson = await store.open_lesson(AL.id)
    assert lesson is not None
    await table.settle(lesson.id)
    await drive(service, table, [AL])
    assert await service.auto_reviews.review_owed() == 1
    assert (await store.review(lesson.id, 0)) is not None  # (its review is there to open)
    stats = await service.feature_acts.record(None, AL, None, here=dm)
    assert "has not finished a game outside servers yet" in stats.reply.text, stats.reply.text
    assert "Accuracy" not in stats.reply.text, stats.reply.text

    # A game cancelled by a moderator mid-deal, reviewed by its player: no result, not counted.
    going = await open_table(service, [AL, BEA], target=61)
    cancelled = going.outcomes[0].game_id or 0
    await drive(service, going, [AL, BEA], stop_after=16)  # (into deal 2)
    assert (await service.lobbies.cancel(CHANNEL, CY, moderator=True)).ok
    review = await service.reviews.review(in_server(), CHANNEL, AL, cancelled)
    assert review.ok and review.reply.view is not None, review.reply.text
    kept = await store.review(cancelled, 0)
    assert kept is not None and kept.final and kept.decisions
    assert await service.reviews.stats_line(GUILD, AL.id) is None

    # A game played out is counted, alone.
    counted = await _finished(service, [AL, BEA], channel=CHANNEL + 1)
    assert await service.auto_reviews.review_owed() == 1
    line = await service.reviews.stats_line(GUILD, AL.id)
    assert line is not None and "over the last 1 reviewed game " in line, line
    assert [t[0] for t in await store.review_totals(GUILD, AL.id, last=10)] == [counted]


def test_the_docs_say_how_far_back_games_are_reviewed_as_the_sweep_looks() -> None:
    """players.md and bot-service.md say the games reviewed in the background are those that
    ended in the last :data:`LOOKBACK`, in the words the bot says periods with."""
    docs = Path(__file__).resolve().parents[4] / "docs"
    said = f"ended in the last {period(timedelta(seconds=LOOKBACK))}"
    for name in ("players.md", "bot-service.md"):
        assert said in " ".join((docs / name).read_text(encoding="utf-8").split()), name


def test_the_reviews_and_coach_lines_here_are_worked_out_once_a_run_for_each_question() -> None:
    # tests/bot/conftest.py: both backends' runs of a test review the same games and coach
    # the same shows; the core calls the engine's own functions through the stand-ins.
    for module, name, made_by in (
        (bot.core.review.review, "make_review", make_review),
        (bot.core.games.games, "review_view", review_view),
    ):
        kept = vars(module)[name]
        assert isinstance(kept, Kept) and kept.made_by is made_by, name
