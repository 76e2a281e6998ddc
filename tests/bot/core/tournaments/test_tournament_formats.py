"""Tournament formats come from the engine's registry (issue 34, item 3), on both databases: a
format registered by one new module is offered, checked, stored, paired by the director and
decided without a change to the core; the formats' CHECK left the schema (018), and the
tournaments stored before it load unchanged."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.core.base.feed import Change
from bot.core.base.owners import OwnerKind
from bot.core.base.replies import User
from bot.core.services import Services
from bot.core.tournaments import records as tr
from bot.core.tournaments.tournaments import read_event
from bot.core.tournaments.view import board_text, champion_text
from bot.discord.tournament_commands import format_choices, format_described
from bot.store import Dialect, Store
from engine import formats
from engine.formats import Pairs, Progress, TournamentFormat
from tests.helpers.migrated import people_for_todays_code, people_taken_away

GUILD, CHANNEL = 5, 50
MO = User(1, "Mo")
PEOPLE = [User(10 + n, name) for n, name in enumerate(("Al", "Bea", "Cy", "Di", "Ed"))]


class Gauntlet(TournamentFormat):
    """A test's own format, in one class: one round, each seed against the next (1 v 2,
    3 v 4, ...), an odd one out has a bye; the last seed to win a game (a bye is none) is
    the champion."""

    name = "gauntlet"
    title = "Gauntlet"
    summary = "one round, each seed against the next"
    rank = 99

    def rounds(self, entrants: int, *, asked: int = 0, playoff: int = 0) -> int:
        return 1

    def pair(self, progress: Progress) -> Pairs:
        seeds = progress.active
        pairs: Pairs = tuple(zip(seeds[::2], seeds[1::2], strict=False))
        return pairs + (((seeds[-1], None),) if len(seeds) % 2 else ())

    def champion(self, progress: Progress) -> int:
        won = [m.winner for m in progress.last if m.b is not None and m.winner is not None]
        return won[-1]


@pytest.fixture
def gauntlet() -> Iterator[TournamentFormat]:
    formats.register(Gauntlet)
    try:
        yield formats.named("gauntlet")
    finally:
        formats.unregister("gauntlet")


class Threads:
    """Discord's side of a pairing, as the director asks for it: each post and thread a new id."""

    def __init__(self) -> None:
        self.posts: list[str] = []
        self.archived: list[int] = []

    async def post(self, channel_id: int, text: str, nonce: str, mentions: tuple[int, ...]) -> int:
        self.posts.append(text)
        return 9000 + len(self.posts)

    async def find_post(self, channel_id: int, since: float, opening: str) -> int | None:
        found = (n for n, text in enumerate(self.posts, 9001) if text.startswith(opening))
        return next(found, None)

    async def start_thread(
        self, channel_id: int, message_id: int, name: str, members: tuple[int, ...]
    ) -> int:
        return message_id + 1000

    async def archive(self, thread_id: int) -> None:
        self.archived.append(thread_id)


def test_the_commands_format_choices_are_the_registry() -> None:
    assert [(c.name, c.value) for c in format_choices()] == [
        ("Swiss: players on equal points meet, no rematches", "swiss"),
        ("Round robin: everyone plays everyone", "round_robin"),
        ("Knockout: seeded, the loser is out", "knockout"),
    ]
    assert format_described() == "swiss (default), round_robin or knockout"


async def test_a_registered_format_is_offered_stored_paired_and_decided_without_a_core_change(
    service: Services, store: Store, gauntlet: TournamentFormat
) -> None:
    assert ("Gauntlet: one round, each seed against the next", "gauntlet") in [
        (c.name, c.value) for c in format_choices()
    ]
    t = service.tournaments
    assert (await t.new(GUILD, CHANNEL, MO, moderator=True, format="gauntlet")).ok
    for user in PEOPLE:
        assert (await t.join(CHANNEL, user)).ok
    record = await store.tournament_in_channel(CHANNEL)
    assert record is not None and record.format is gauntlet
    assert "**🏆 Gauntlet tournament**" in board_text(await read_event(store, record))

    finished: list[Change] = []
    service.feed.subscribe(finished.append)
    threads = Threads()
    await service.director.start(threads)
    try:
        assert (await t.start(CHANNEL, MO, moderator=True)).ok
        await service.director.idle()
        event = await read_event(store, (await store.tournament(record.id)) or record)
        assert event.record.rounds == 1
        al, bea, cy, di, ed = (u.id for u in PEOPLE)
        assert [(p.player_a, p.player_b) for p in event.current()] == [
            (al, bea),
            (cy, di),
            (ed, None),
        ]
        assert len(threads.posts) == 2 and all(p.game_id for p in event.current()[:2])
        # Bea and Di win: the champion is Di, the last seed to win a game (the top of the
        # standings, level on points with Di and Ed's bye, would be Bea).
        for winner, loser in ((PEOPLE[1], PEOPLE[0]), (PEOPLE[3], PEOPLE[2])):
            answer = await t.set_result(CHANNEL, MO, moderator=True, winner=winner, loser=loser)
            assert answer.ok
            await service.director.idle()
        done = await store.tournament(record.id)
        assert done is not None and done.status is tr.TournamentStatus.FINISHED
        event = await read_event(store, done)
        assert champion_text(event).startswith(f"🏆 <@{di}> wins the gauntlet tournament")
        champions = await store.tournament_champions(GUILD, limit=5)
        assert [(c.user_id, c.format) for c in champions] == [(di, gauntlet)]
    finally:
        service.director.stop()
    tournament_changes = [c for c in finished if c.owner.kind is OwnerKind.TOURNAMENT]
    assert tournament_changes, "the director announced its rounds"


async def test_an_unregistered_format_is_refused_naming_the_registered_ones(
    service: Services, store: Store
) -> None:
    answer = await service.tournaments.new(GUILD, CHANNEL, MO, moderator=True, format="gauntlet")
    assert not answer.ok
    assert answer.reply.text == "`format` must be swiss, round_robin or knockout."
    assert await store.tournament_in_channel(CHANNEL) is None


def _before_018(dialect: Dialect, tmp_path: Path) -> Path:
    """This release's migrations of ``dialect`` without 018: the schema before it. On
    PostgreSQL the later ones stay (today's store code writes their columns; each alters
    only its own). SQLite's later ones rebuild tables as 018 left them, so there the
    schema is the one before 018 alone, and :func:`_for_todays_code` adds what today's
    code writes."""
    folder = tmp_path / "before018"
    folder.mkdir()
    for path in dialect.migrations_dir.glob("*.sql"):
        later = path.name > "018_" and dialect is Dialect.SQLITE
        if not path.name.startswith("018_") and not later:
            shutil.copy(path, folder / path.name)
    return folder


async def _for_todays_code(store: Store, dialect: Dialect) -> None:
    """The columns a SQLite schema before 018 lacks that today's store code writes (020's
    variant, 'standard' for every tournament before it, as 020 makes it; 027's round_held and
    refused_since, and 031's pairings' version, which :func:`_as_before` takes away again for
    027 and 031 to add), and 040's people, which today's code writes as an organiser and the
    entrants act."""
    if dialect is Dialect.SQLITE:
        await store.db.execute(
            "ALTER TABLE tournaments ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard'"
        )
        await store.db.execute(
            "ALTER TABLE tournaments ADD COLUMN round_held REAL NOT NULL DEFAULT 0"
        )
        await store.db.execute("ALTER TABLE tournaments ADD COLUMN refused_since REAL")
        await store.db.execute(
            "ALTER TABLE tournament_pairings ADD COLUMN version INTEGER NOT NULL DEFAULT 0"
        )
        await people_for_todays_code(store)


async def _as_before(store: Store, dialect: Dialect) -> None:
    """A SQLite schema before 018 again, but for 020's variant (which 020's rebuild of the
    table keeps): without the columns 027 and 031 add (ALTERs, not rebuilds), nor 040's people."""
    if dialect is Dialect.SQLITE:
        await store.db.execute("ALTER TABLE tournaments DROP COLUMN round_held")
        await store.db.execute("ALTER TABLE tournaments DROP COLUMN refused_since")
        await store.db.execute("ALTER TABLE tournament_pairings DROP COLUMN version")
        await people_taken_away(store)


async def _everything(store: Store, ids: list[int]) -> object:
    """All the store says of the tournaments ``ids``, and of the server's champions (each
    pairing at version 0: a pairing's version came with 031, which starts every one there)."""
    return [
        (
            await store.tournament(i),
            await store.entrants(i),
            [dataclasses.replace(p, version=0) for p in await store.pairings(i)],
        )
        for i in ids
    ] + [await store.tournament_champions(GUILD, limit=9), await store.tournaments_of(GUILD, 12)]


async def test_the_tournaments_stored_before_the_formats_check_went_load_unchanged(
    tmp_path: Path, target: str | Path
) -> None:
    dialect = Dialect.SQLITE if isinstance(target, Path) else Dialect.POSTGRES
    refused = (sqlite3.IntegrityError, asyncpg.CheckViolationError)
    monrad = (
        "INSERT INTO tournaments (guild_id, channel_id, organiser_id, format, target, scoring,"
        " round_hours, created_at) VALUES (5, 99, 1, 'monrad', 121, 'lurch', 24.0, 1.0)"
    )
    async with await Store.open(target, migrations_dir=_before_018(dialect, tmp_path)) as old:
        await _for_todays_code(old, dialect)
        # A knockout that finished, a round robin being played, and a Swiss event cancelled.
        ids = []
        for channel, kind in enumerate(
            (tr.Format.KNOCKOUT, tr.Format.ROUND_ROBIN, tr.Format.SWISS)
        ):
            plan = tr.TournamentPlan(
                guild_id=GUILD,
                channel_id=CHANNEL + channel,
                organiser_id=MO.id,
                format=kind,
                target=121,
                scoring="lurch",
                round_hours=24.0,
                match_games=3 if kind is tr.Format.SWISS else 1,
                playoff=4 if kind is tr.Format.SWISS else 0,
            )
            made = await old.create_tournament(plan, now=1.0)
            ids.append(made.id)
            for user in PEOPLE[:3]:
                assert await old.enter(made.id, user.id, user.name)
            assert await old.start_tournament(made.id, rounds=2)
            assert await old.pair_round(made.id, 1, [(10, 11), (12, None)], now=2.0)
            await old.set_thread(made.id, 1, 1, 7000 + channel)
            await old.set_game(made.id, 1, 1, 800 + channel)
        knockout, robin, swiss = ids
        await old.decide(knockout, 1, 1, tr.Verdict(tr.Decided.GAME, 11, lurch=True, margin=33))
        await old.set_archived(knockout, 1, 1)
        assert await old.pair_round(knockout, 2, [(11, 12)], now=3.0)
        await old.decide(knockout, 2, 1, tr.Verdict(tr.Decided.FORFEIT, 12))
        assert await old.end_tournament(
            knockout, tr.TournamentStatus.FINISHED, now=4.0, champion=12
        )
        await old.withdraw(robin, 10, 1)
        await old.decide(robin, 1, 1, tr.Verdict(tr.Decided.WITHDRAWN, 11))
        assert await old.count_game(swiss, 1, 1, 802, a_won=True, margin=12)
        assert await old.cancel_tournament(swiss, by=MO.id, now=5.0)
        before = await _everything(old, ids)
        with pytest.raises(refused):
            await old.db.execute(monrad)
        await _as_before(old, dialect)

    async with await Store.open(target) as new:
        assert "018_tournament_formats" in await new.applied_migrations()
        assert await _everything(new, ids) == before
        record = await new.tournament(robin)
        assert record is not None and record.format is tr.Format.ROUND_ROBIN
        # The name is the core's to check now; and the entrants and pairings still belong to
        # their tournament (deleting it deletes them).
        await new.db.execute(monrad)
        await new.db.execute("DELETE FROM tournaments WHERE id = ?", (knockout,))
        assert await new.entrants(knockout) == [] and await new.pairings(knockout) == []
        assert len(await new.pairings(robin)) == 2
