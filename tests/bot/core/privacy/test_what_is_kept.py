"""What is kept about a person, checked against the one inventory that says it
(:mod:`bot.core.privacy.inventory`, issue 54, item 7), on both databases.

Zed does a bit of everything the bot keeps something of (games played and being played, a
review, a setting, his DM channel, a server that saw him, the discard of the day, a
tournament he ran and played in, ranked matches, blocks both ways). Then every table and
column of the database is read: wherever his id is, the inventory says it is his; his file
holds every row naming him that the inventory sends, and none that does not; and once he has
his data deleted, neither his id nor his name is anywhere in the database, in any column,
inside the games' saved states and compressed archive records too. The inventory hangs
together, ``/cribbage privacy`` says it within one message, and docs/running.md shows it."""

from __future__ import annotations

import doctest
import io
import json
import zipfile
import zlib
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

from bot.core.base.replies import User
from bot.core.base.views import MAX_MESSAGE, DailyPick
from bot.core.ledger.records import DmLink
from bot.core.privacy import inventory
from bot.core.privacy.inventory import (
    INVENTORY,
    Holds,
    Request,
    docs_table,
    file_tables,
    person_columns,
    request_of,
)
from bot.core.services import Services
from bot.core.tournaments import records as tr
from bot.store import Store
from tests.helpers.cast import BEA, CY, GUILD
from tests.helpers.service_driver import (
    Clock,
    drive,
    finished_game,
    make_service,
    open_table,
    search_ranked,
)
from tests.helpers.views import controls

#: Someone whose id and name cannot be mistaken for any other value in the database.
ZED = User(987_654_321_012_345_678, "Zelda Quill")
RUNNING = Path(__file__).resolve().parents[4] / "docs" / "running.md"


async def _everything(service: Services, store: Store, clock: Clock) -> None:
    """Zed does a bit of everything the bot keeps something of."""
    _, first = await finished_game(service, (ZED, BEA))
    record = await store.get_game(first)
    assert record is not None and await service.reviews.review_all(record)
    playing = await open_table(service, (ZED, CY), channel=2000)
    await drive(service, playing, (ZED, CY), stop_after=3)
    await service.coach.coach(ZED, on=False)
    now = clock.now.timestamp()
    await store.set_dm_link(DmLink(ZED.id, 31_337, "an interaction's token", now))
    await store.saw_member(GUILD, ZED.id, now)
    view = (await service.daily.daily(GUILD, ZED)).reply.view
    assert view is not None
    pick = controls(view, DailyPick)
    assert (await service.daily.choose(GUILD, ZED, pick.stamp, pick.cards[:2])).ok
    # A tournament he ran, played in and won.
    assert (await service.tournaments.new(GUILD, 4000, ZED, moderator=True)).ok
    for user in (ZED, BEA, CY):
        assert (await service.tournaments.join(4000, user)).ok
    tournament = await store.tournament_in_channel(4000)
    assert tournament is not None
    done = tr.TournamentStatus.FINISHED
    assert await store.start_tournament(tournament.id)
    assert await store.pair_round(tournament.id, 1, [(ZED.id, BEA.id), (CY.id, None)], now=now)
    assert await store.decide(tournament.id, 1, 1, tr.Verdict(tr.Decided.GAME, ZED.id))
    assert await store.end_tournament(tournament.id, done, champion=ZED.id, now=now)
    # A club he scheduled, and its night he marked Interested.
    scheduled = await service.nights.schedule(
        GUILD, 4100, ZED, moderator=True, when="tomorrow 20:00", events_refusal=None
    )
    assert scheduled.ok, scheduled.reply.text
    club = await store.club_in_channel(4100)
    night = None if club is None else await store.latest_night(club.id)
    assert night is not None
    assert await store.interest(night, ZED.id, ZED.name, True)
    # Ranked: a match won against Bea, blocks both ways, and a search of his waiting.
    for user, place in ((ZED, 7001), (BEA, 7002)):
        await search_ranked(service, user, place, guild_id=GUILD, avatar="https://cdn.x/z.png")
    entry = await store.live_entry(ZED.id)
    assert entry is not None and entry.match_id is not None
    assert await store.finish_match(
        entry.match_id, winner=ZED.id, how="games", abandoned_by=None, now=now
    )
    await store.block_player(ZED.id, CY.id, CY.name, now=now)
    await store.block_player(CY.id, ZED.id, ZED.name, now=now)
    for user, place in ((BEA, 7002), (ZED, 7001)):
        await search_ranked(service, user, place)


def _holds(value: Any, user: User) -> bool:
    """Whether a value of the database holds ``user``'s id or name (inside text, JSON or a
    compressed record too)."""
    if isinstance(value, memoryview | bytes):
        try:
            value = zlib.decompress(bytes(value)).decode()
        except (zlib.error, UnicodeDecodeError):
            value = bytes(value).decode("latin-1")
    if isinstance(value, str):
        return str(user.id) in value or user.name in value
    return bool(value == user.id)


async def _where(store: Store, user: User) -> dict[tuple[str, str], int]:
    """Every column of every table holding ``user``'s id or name, with how many rows."""
    found: dict[tuple[str, str], int] = {}
    for table in sorted(await store.db.table_names()):
        for row in await store.db.fetch(f"SELECT * FROM {table}"):
            # (Both drivers' rows name their columns; iterated, a sqlite3.Row gives values.)
            for column in cast(Any, row).keys():  # noqa: SIM118
                if _holds(row[column], user):
                    found[table, column] = found.get((table, column), 0) + 1
    return found


def _unzipped(data: bytes) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        [name] = archive.namelist()
        loaded: dict[str, Any] = json.loads(archive.read(name))
        return loaded


async def test_every_trace_of_a_person_is_in_the_inventory_in_the_file_and_then_gone(
    service: Services, store: Store, clock: Clock
) -> None:
    await _everything(service, store, clock)
    where = await _where(store, ZED)
    theirs = person_columns()
    # Wherever his id or name is, the inventory says what it is.
    assert {key for key in where if key[1] not in theirs.get(key[0], {})} == set()

    sent = _unzipped((await service.privacy.data_file(ZED)).data)
    about = {"user_id", "made_at", "about", "not_in_this_file"}
    # What is not sent says why: each table and column the inventory leaves out.
    assert sent["not_in_this_file"]["actions"].startswith("every player's moves")
    assert "dm_links.token" in sent["not_in_this_file"]
    assert set(sent) - about == {t.file for t in file_tables()}
    for table in file_tables():
        assert table.file is not None
        ids = [c.name for c in table.columns if c.holds is Holds.ID and not c.unsent]
        naming = sum(
            1
            for row in await store.db.fetch(f"SELECT * FROM {table.name}")
            if any(row[c] == ZED.id for c in ids)
        )
        # Every row naming him that the inventory sends, and only those.
        assert len(sent[table.file]) == naming, table.name
        left_out = {c.name for c in table.columns if c.unsent and c.holds is not Holds.ID}
        assert all(left_out.isdisjoint(row) for row in sent[table.file]), table.name
    # Every kind of thing he did is there (the scenario reaches every table sent).
    assert all(sent[t.file] for t in file_tables() if t.file), {
        t.file for t in file_tables() if t.file and not sent[t.file]
    }

    done = await service.privacy.confirm_forget(ZED.id, ZED, True)
    assert done.ok, done.reply.text
    service.ranked_play.stop()
    assert await _where(store, ZED) == {}, "his id or name is still there"
    await service.ledger.writes.flush()


def test_each_kind_of_thing_kept_goes_one_way_when_deleted() -> None:
    """What *Delete my data* does to each kind of thing is one thing (so the words that say
    it are true): deleted, kept for others with a former player in the person's place, or
    gone as each game is pruned, but for what of it outlives the deletion for another, said
    apart (a block of them: a former player, and a keyed hash of their id, in a table with
    one of each); and each column's request fits what it holds."""
    for kept in INVENTORY:
        requests = {c.request for t in kept.tables for c in t.columns} - {Request.KEYED}
        keyed = [c for t in kept.tables for c in t.columns if c.request is Request.KEYED]
        assert bool(kept.outlives) == bool(keyed), kept.what
        assert (
            requests
            <= {
                Request.DELETED: {Request.DELETED},
                Request.FORMER: {Request.FORMER, Request.CLEARED, Request.RENAMED},
                Request.PRUNED: {Request.PRUNED},
            }[request_of(kept)]
        ), kept.what
        for table in kept.tables:
            assert (table.file is None) == bool(table.unsent), table.name
            if table.file is not None:
                assert any(c.holds is Holds.ID and not c.unsent for c in table.columns)
            for column in table.columns:
                assert (column.request is Request.RENAMED) == (column.holds is Holds.INSIDE)
                if column.holds is Holds.NAME:
                    assert column.request in (Request.DELETED, Request.FORMER, Request.KEYED)
                if column.holds is Holds.KEYED:
                    assert column.request is Request.KEYED and column.unsent, column
            holds = [c.holds for c in table.columns if c.request is Request.KEYED]
            assert not holds or sorted(h for h in holds if h is not Holds.NAME) == sorted(
                [Holds.ID, Holds.KEYED]
            ), table.name


def test_the_command_says_it_all_within_one_message(store: Store, clock: Clock) -> None:
    """``/cribbage privacy`` names every kind of thing kept and who else sees what, and fits
    one message with the longest figures and contact, and a long address for the policy."""
    service = make_service(
        store,
        clock,
        days=365,
        retention=timedelta(days=3650),
        left_server_grace=timedelta(days=365),
        policy_url="https://" + "c" * 180 + ".example.org/privacy",
        contact="x" * 200,
    )
    words = service.privacy.words()
    assert len(words) <= MAX_MESSAGE, len(words)
    for kept in INVENTORY:
        assert kept.what.lower() in words.lower(), kept.what
        if kept.public:
            assert kept.public[1:] in words
    assert "where you made them" in words and "every server sees" in words


def test_docs_show_the_inventory() -> None:
    """docs/running.md's *Players' data* shows the inventory's table as it is, and the
    inventory's examples hold."""
    text = RUNNING.read_text(encoding="utf-8")
    section = text.split("## Players' data", 1)[1].split("\n## ", 1)[0]
    assert docs_table() in section, "paste bot.core.privacy.inventory.docs_table() into it"
    assert doctest.testmod(inventory).failed == 0
