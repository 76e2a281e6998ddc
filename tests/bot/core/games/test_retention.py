"""Retention (issue 10, item 13): a game that ended more than the retention period ago keeps its
results, its ratings and one compact record that replays it; its snapshot, action rows and
messages are dropped, in batches, and the space is given back a little at a time. A pruned
game replays to the very state (and result) it ended in, and `/cribbage status` still shows it.
"""

from __future__ import annotations

import contextlib
import doctest
import json
import random
import sqlite3
import zlib
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.base.replies import TableAsked
from bot.core.deck import shuffles
from bot.core.games import archive, snapshot
from bot.core.games.housekeeping import PRUNE_BATCH
from bot.core.games.records import GameStatus
from bot.core.privacy.inventory import Lasts, tables_lasting
from bot.core.services import Services
from bot.store import Store
from bot.store.sqlite import SqliteDatabase
from bot.tools import compact as compact_cli
from tests.helpers.cast import AL, BEA, CHANNEL, CY, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    finished_game,
    first_choice,
    game_owner,
    make_service,
    open_table,
    ranked_game,
    search_ranked,
)

RETENTION = timedelta(days=30)


def _service(store: Store, clock: Clock, seed: int = 1) -> Services:
    return make_service(store, clock, seed, computer=True, retention=RETENTION)


async def _count(store: Store, table: str, game_id: int) -> int:
    if table in ("messages", "pending_posts"):  # kept by owner
        rows = await store.db.fetch(
            f"SELECT COUNT(*) FROM {table} WHERE owner = ?", (f"game:{game_id}",)
        )
    else:
        rows = await store.db.fetch(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
    return int(rows[0][0])


async def test_every_shuffle_is_recorded_with_the_game(store: Store, clock: Clock) -> None:
    service = _service(store, clock)
    _, game_id = await finished_game(service)
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    data = json.loads(record.snapshot)
    game = snapshot.decode(record.snapshot, random.Random(0)).game
    # One shuffle per round of the cut for deal, one per deal.
    assert len(data["shuffles"]) == len(game.state.cut_rounds) + game.state.deal_number
    assert all(len(deck) == 52 for deck in data["shuffles"])


async def test_a_pruned_game_replays_to_the_same_result(store: Store, clock: Clock) -> None:
    service = _service(store, clock)
    _, game_id = await finished_game(service)
    before = await store.get_game(game_id)
    assert before is not None and before.snapshot is not None
    ended = snapshot.decode(before.snapshot, random.Random(0))
    results = await store.results(game_id)
    ranking = await store.ranking(GUILD)
    status = (await service.table.status(CHANNEL, public=True)).reply.text
    assert await _count(store, "actions", game_id) > 20
    assert await _count(store, "messages", game_id) > 0

    clock.advance(days=29)
    assert await service.housekeeping.prune() == 0, "not before the retention period is over"
    clock.advance(days=2)
    assert await service.housekeeping.prune() == 1
    after = await store.get_game(game_id)
    assert after is not None and after.snapshot is None and after.status is GameStatus.FINISHED
    # Every table the inventory of what is kept says lasts only while a game is whole.
    for pruned in tables_lasting(Lasts.GAME):
        assert await _count(store, pruned.name, game_id) == 0, pruned.name
    assert await store.results(game_id) == results
    assert await store.ranking(GUILD) == ranking
    kept = await store.archived(game_id)
    assert kept is not None and len(kept) < 2500
    replayed = archive.restore(kept)
    assert replayed.game.to_dict() == ended.game.to_dict()
    assert replayed.tally.to_list() == ended.tally.to_list()
    assert replayed.game.state.result == ended.game.state.result
    assert "actions" in json.loads(zlib.decompress(kept)), "the replay, not the snapshot"
    # /cribbage status still shows how it ended, replayed from the record.
    assert (await service.table.status(CHANNEL, public=True)).reply.text == status
    assert await service.ledger.owed(game_owner(game_id)) is None, (
        "nothing of it is drawn or sent any more"
    )
    assert await service.housekeeping.prune() == 0, "nothing twice"


async def test_pruning_leaves_open_and_recent_games_alone(store: Store, clock: Clock) -> None:
    service = _service(store, clock)
    _, finished = await finished_game(service)
    lobby = await service.lobbies.new_game(GUILD, CHANNEL + 1, CY)
    assert (await service.lobbies.cancel(CHANNEL + 1, CY)).ok  # a lobby that never dealt
    clock.advance(days=40)
    playing = await open_table(service, [AL, BEA], channel=CHANNEL + 2)
    _, recent = await finished_game(service, channel=CHANNEL + 3)
    assert await service.housekeeping.prune() == 2
    cancelled = await store.get_game(lobby.game_id or 0)
    assert cancelled is not None and cancelled.status is GameStatus.CANCELLED
    assert await store.archived(lobby.game_id or 0) is None, "nothing to replay"
    assert await store.archived(finished) is not None
    for kept in (playing.outcomes[0].game_id or 0, recent):
        record = await store.get_game(kept)
        assert record is not None and record.snapshot is not None
        assert await store.archived(kept) is None


async def test_a_game_begun_before_shuffles_were_recorded_keeps_its_snapshot(
    store: Store, clock: Clock
) -> None:
    service = _service(store, clock)
    _, game_id = await finished_game(service)
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    data = json.loads(record.snapshot)
    del data["shuffles"]
    data["format"] = 2
    old = json.dumps(data)
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE games SET snapshot = ? WHERE id = ?", (old, game_id))
    clock.advance(days=31)
    assert await service.housekeeping.prune() == 1
    kept = await store.archived(game_id)
    assert kept is not None
    restored = archive.restore(kept)
    assert restored.game.to_dict() == snapshot.decode(old, random.Random(0)).game.to_dict()


async def test_pruning_goes_a_batch_at_a_time(store: Store, clock: Clock) -> None:
    service = _service(store, clock)
    games = PRUNE_BATCH + 5
    for channel in range(games):
        assert (await service.lobbies.new_game(GUILD, CHANNEL + channel, AL)).ok
        assert (await service.lobbies.cancel(CHANNEL + channel, AL)).ok
    asked: list[int] = []
    prunable = store.prunable

    async def counted(before: float, *, limit: int) -> list[tuple[int, str | None]]:
        found = await prunable(before, limit=limit)
        asked.append(len(found))
        return found

    store.prunable = counted  # type: ignore[method-assign]
    clock.advance(days=31)
    assert await service.housekeeping.prune() == games
    assert asked == [PRUNE_BATCH, 5, 0]


async def test_a_game_against_the_computer_with_manual_counting_replays(
    store: Store, clock: Clock
) -> None:
    service = _service(store, clock, seed=4)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(target=61, vs_computer=True, level="easy", counting="manual")
    )
    game_id = opened.game_id or 0
    table = Transcript(service)
    await table.record(AL.id, opened)
    for _ in range(400):
        record = await store.get_game(game_id)
        assert record is not None
        if record.status is not GameStatus.ACTIVE:
            break
        controls = table.latest.get(AL.id)
        if controls is None:
            # At a manual show the bot counts a person who does not claim in time.
            clock.advance(minutes=5)
            await table.settle(game_id)
            continue
        outcome = await service.moves.click(first_choice(controls), AL, guild_id=None)
        await table.record(AL.id, outcome)
    record = await store.get_game(game_id)
    assert record is not None and record.status is GameStatus.FINISHED and record.snapshot
    ended = snapshot.decode(record.snapshot, random.Random(0)).game
    actions = {a["type"] for a in ended.actions}
    assert {"claim", "discard", "play"} <= actions
    replayed = archive.restore(archive.compact(record.snapshot))
    assert replayed.game.to_dict() == ended.to_dict()
    assert replayed.shuffles is not None, "a replay, not the snapshot kept as it was"


def test_a_record_that_does_not_replay_is_refused() -> None:
    with pytest.raises(archive.ArchiveError):
        archive.restore(b"not zlib")
    with pytest.raises(shuffles.ShufflesExhausted):
        shuffles.ScriptedRandom([]).shuffle([])


@pytest.mark.parametrize("module", [archive, shuffles])
def test_the_examples_in_the_docstrings_run(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


async def test_a_new_sqlite_file_gives_space_back_as_games_are_pruned(
    tmp_path: Path, clock: Clock
) -> None:
    path = tmp_path / "space.db"
    async with await Store.open(path) as store:
        assert isinstance(store.db, SqliteDatabase)
        assert await store.db.auto_vacuum() == "incremental"
        service = _service(store, clock)
        for channel in range(6):
            await finished_game(service, channel=CHANNEL + channel)
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = db.execute("PRAGMA page_count").fetchone()[0]
        clock.advance(days=31)
        assert await service.housekeeping.prune() == 6
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert db.execute("PRAGMA page_count").fetchone()[0] < pages
        assert db.execute("PRAGMA freelist_count").fetchone()[0] == 0


async def test_an_older_sqlite_file_is_switched_over_by_one_vacuum(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE made_before (x)")  # too late for auto-vacuum to be chosen
    async with await Store.open(path) as store:
        assert isinstance(store.db, SqliteDatabase)
        assert await store.db.auto_vacuum() == "none"
        await store.reclaim(100)  # nothing to do, and no error
    assert await compact_cli.run(str(path)) == 0
    async with await Store.open(path) as store:
        assert isinstance(store.db, SqliteDatabase)
        assert await store.db.auto_vacuum() == "incremental"
    assert compact_cli.main(["--database", str(tmp_path / "missing.db")]) == 2


async def test_a_rematch_dealt_first_by_its_loser_replays(store: Store, clock: Clock) -> None:
    # A following game's first deal is given, not cut: its record keeps the dealer, and its
    # replay (the archive, the page's, the review's) deals it the same.
    service = _service(store, clock, seed=6)
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
    assert opened.game_id is not None and (await service.moves.resign(CHANNEL, AL)).ok
    again = await service.rematches.press(opened.game_id, AL, guild_id=GUILD, channel_id=CHANNEL)
    assert again.game_id is not None and (await service.moves.resign(CHANNEL, AL)).ok
    record = await store.get_game(again.game_id)
    assert record is not None and record.snapshot is not None
    ended = snapshot.decode(record.snapshot, random.Random(0)).game
    assert ended.state.given_dealer == 0 and ended.state.cut_rounds == ()
    kept = archive.compact(record.snapshot)
    written = json.loads(zlib.decompress(kept))
    assert "snapshot" not in written and written["dealer"] == 0, "a replay, its dealer kept"
    assert archive.restore(kept).game.to_dict() == ended.to_dict()


async def test_a_ranked_games_places_and_cards_messages_go_with_its_pruning(
    store: Store, clock: Clock
) -> None:
    """A game played apart (a ranked match's) keeps its messages by its seats' places (each
    player's DM or where they searched from): pruned, its places' records go with the game's,
    and the cards of the searches that ended as long ago go too, where both stayed for
    ever."""
    service = _service(store, clock)
    for user, place in ((AL, 7001), (BEA, 7002)):
        await search_ranked(service, user, place)
    game = await ranked_game(service, store, AL)
    service.ranked_play.stop()
    owners = [str(owner) for owner in game.seating.owners(game.id)]
    assert len(owners) == 3, "the game, and each seat's place"
    # And each search's card, where it was made; a search still waiting keeps its own.
    entries = [r[0] for r in await store.db.fetch("SELECT id FROM ranked_entries ORDER BY id")]
    await search_ranked(service, CY, 7003)
    waiting = await store.live_entry(CY.id)
    assert waiting is not None
    cards = [f"ranked:{entry}" for entry in (*entries, waiting.id)]
    for number, owner in enumerate(owners + cards, 1):
        await store.db.execute(
            "INSERT INTO messages (owner, key, channel_id, message_id, digest)"
            " VALUES (?, 'lobby', ?, ?, 'd')",
            (owner, 7000 + number, 9000 + number),
        )
    assert (await service.moves.resign(game.channel_id, AL)).ok
    entry = await store.live_entry(AL.id)
    assert entry is not None and entry.match_id is not None
    now = clock().timestamp()
    assert await store.finish_match(
        entry.match_id, winner=BEA.id, how="games", abandoned_by=None, now=now
    )
    # The records the ledger writes behind land now, as they would forty days before the
    # prune (on a busy machine, one could land after it, and stay).
    await service.ledger.writes.flush()
    clock.advance(days=40)
    assert await service.housekeeping.prune() == 1
    rows = await store.db.fetch("SELECT owner FROM messages")
    # (The waiting search's card, landed with its token, and the row put in above.)
    assert {r[0] for r in rows} == {f"ranked:{waiting.id}"}
