"""The bot's metrics (issue 54, items 8 and 9), on both databases: what a process serves is
what ``docs/running.md`` lists, both ways, each with its type and labels; ranked play's queue
is read from the database (so every process of a bot says the same); every move is counted
once, the computer's discards made as a game against it opens included."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, cast

import pytest

from bot.core.base.replies import TableAsked
from bot.core.ledger import Pacer
from bot.core.services import Services
from bot.discord.operations import Operations
from bot.ops.health import Readiness
from bot.ops.metrics import Metrics, Served
from bot.settings import Settings
from bot.store import Store
from bot.store.cluster import Cluster
from tests.helpers.cast import AL, BEA, CHANNEL, CY, GUILD
from tests.helpers.service_driver import Clock, Transcript, drive, make_service, search_ranked

RUNNING = Path(__file__).resolve().parents[3] / "docs" / "running.md"
#: A row of the docs' table of metrics: | `name{label,label}` | type | what |
_ROW = re.compile(r"^\| `(cribbage_[a-z_]+)(?:\{([a-z_, ]+)\})?` \| (\w+) \|")


class _Client:
    """What operations asks of the Discord client: to hear every interaction."""

    def add_listener(self, listener: object, name: str) -> None:
        assert name == "on_interaction"


class _Pages:
    """The game pages' server as operations reads it (the Activity's on it too)."""

    def __init__(self) -> None:
        self.watching = 3
        self.activity = self


async def _nothing() -> None:
    return None


async def wired(service: Services, store: Store) -> Metrics:
    """The metrics of a process put together as the bot puts them (the game pages and the
    Activity on), the figures read from the database read once."""
    metrics = Metrics()
    cluster = Cluster(store, service.feed, service.ledger.answers, became_sender=_nothing)
    readiness = Readiness(
        holder=cluster.holder,
        shards=lambda: {0: True},
        migrated=lambda: True,
        release="test",
        ping=store.ping,
        sender=_none,
        started=time.time(),
        background=lambda: {"clock": "running", "referee": "off"},
    )
    operations = Operations(metrics, readiness, store, cluster, Settings.from_env({}))
    operations.watch(cast(Any, _Client()), Pacer(), cast(Any, _Pages()))
    await metrics.refresh()
    return metrics


async def _none() -> str | None:
    return None


def documented() -> set[Served]:
    """The metrics ``docs/running.md``'s table lists."""
    text = RUNNING.read_text(encoding="utf-8")
    section = text.split("### The metrics", 1)[1].split("\n### ", 1)[0]
    found = set()
    for line in section.splitlines():
        match = _ROW.match(line)
        if match:
            labels = tuple(n.strip() for n in (match[2] or "").split(",") if n.strip())
            found.add(Served(match[1], match[3], labels))
    return found


def _samples(metrics: Metrics) -> dict[str, tuple[str, set[frozenset[str]]]]:
    """Each family the registry serves, by its scraped name: its type, and the label names
    of its samples (a histogram's ``le`` left out)."""
    found: dict[str, tuple[str, set[frozenset[str]]]] = {}
    for family in metrics.registry.collect():
        name = f"{family.name}_total" if family.type == "counter" else family.name
        labels = {frozenset(s.labels) - {"le"} for s in family.samples}
        found[name] = (family.type, labels)
    return found


async def test_the_docs_list_every_metric_served_with_its_type_and_labels(
    service: Services, store: Store
) -> None:
    metrics = await wired(service, store)
    # Each labelled figure counted once, so that its samples name their labels.
    metrics.interaction("component")
    metrics.requested("GET", "/channels/{id}", "429", "shared")
    metrics.database_unit("read", 0.001)
    metrics.answered(0.2)
    metrics.moved(1)
    served = set(metrics.served())
    # What the process says it serves is what its registry serves: names, types, labels.
    registry = _samples(metrics)
    assert {s.name: s.kind for s in served} == {n: kind for n, (kind, _) in registry.items()}
    for one in served:
        for labels in registry[one.name][1]:
            assert labels == set(one.labels), one
    # Both ways: every one served is documented, every one documented is served.
    docs = documented()
    assert served - docs == set(), "served but not in docs/running.md's table"
    assert docs - served == set(), "in docs/running.md's table but not served"


def test_the_check_reads_the_docs_table() -> None:
    docs = {s.name: s for s in documented()}
    assert docs["cribbage_games"] == Served("cribbage_games", "gauge", ("state",))
    assert docs["cribbage_moves_total"].kind == "counter"
    assert docs["cribbage_discord_requests_total"].labels == ("method", "route", "status")
    assert len(docs) >= 15


def test_every_metric_the_docs_name_is_served() -> None:
    """Beyond the table: every ``cribbage_`` figure the section on health and metrics names
    (its alerts' expressions, its advice) is one served, or a sample of one."""
    text = RUNNING.read_text(encoding="utf-8")
    section = text.split("## Health and metrics", 1)[1].split("\n## ", 1)[0]
    names = {s.name for s in documented()}
    samples = {f"{n}{end}" for n in names for end in ("", "_bucket", "_count", "_sum")}
    named = set(re.findall(r"\bcribbage_[a-z_]+", section))
    assert named and named - samples == set()


def test_every_metric_any_page_of_the_docs_names_is_served() -> None:
    """Every page of the docs and the README: a ``cribbage_`` figure named in its prose (in
    backticks, outside its code blocks: a database's name in a shell example is none) is one
    served, or a sample of one."""
    names = {s.name for s in documented()}
    samples = {f"{n}{end}" for n in names for end in ("", "_bucket", "_count", "_sum")}
    pages = [RUNNING.parents[1] / "README.md", *sorted(RUNNING.parent.glob("*.md"))]
    named = set()
    for page in pages:
        prose = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        named |= set(re.findall(r"`(cribbage_[a-z_]+)", prose))
    assert named and named - samples == set()


async def test_the_ranked_queue_is_read_from_the_database(service: Services, store: Store) -> None:
    """Players searching for a ranked match, counted from the database: what any process
    serves, whichever process took the searches; a search paired or stopped leaves it."""
    metrics = await wired(service, store)
    queue = {"queue": "ranked"}
    assert metrics.registry.get_sample_value("cribbage_queue_length", queue) == 0
    for user, place in ((AL, 7001), (BEA, 7002), (CY, 7003)):
        await search_ranked(service, user, place)
    # Al and Bea were paired at once; Cy waits.
    await metrics.refresh()
    assert metrics.registry.get_sample_value("cribbage_queue_length", queue) == 1
    # Another process's scrape says the same.
    other = await wired(make_service(store, Clock()), store)
    assert other.registry.get_sample_value("cribbage_queue_length", queue) == 1
    waiting = await store.live_entry(CY.id)
    assert waiting is not None
    assert (await service.ranked.stop(waiting.id, CY, None)).ok
    await metrics.refresh()
    assert metrics.registry.get_sample_value("cribbage_queue_length", queue) == 0
    service.ranked_play.stop()
    await service.ledger.writes.flush()


def _moves(metrics: Metrics) -> float:
    return metrics.registry.get_sample_value("cribbage_moves_total") or 0.0


async def _logged(store: Store) -> int:
    [(count,)] = await store.db.fetch("SELECT COUNT(*) FROM actions")
    return int(count)


@pytest.mark.parametrize("players", [2, 3])
async def test_every_move_is_counted_once_the_computers_first_discards_too(
    store: Store, clock: Clock, players: int
) -> None:
    """A game against the computer opens dealt, the computer seats' discards in its log (one
    each): counted as they are saved, like every move after them, so the count is the log's
    length at every step (it was one short a computer seat)."""
    metrics = Metrics()
    service = make_service(store, clock, computer=True, meters=metrics)
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(players=players, vs_computer=True, level="easy")
    )
    await table.record(AL.id, opened)
    assert opened.ok, opened.reply.text
    assert await _logged(store) == players - 1 == _moves(metrics)
    for stop in range(1, 6):
        await drive(service, table, (AL,), stop_after=1)
        assert await _logged(store) == _moves(metrics), f"after move {stop}"
    await service.ledger.writes.flush()
