"""Helpers for the service tests: a settable clock, users, and a driver that plays a whole
game through the service the way players do (from the prompts they are sent)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.core import snapshot
from bot.core.replies import Outcome, Prompt, User
from bot.core.service import GameService, RngFactory
from bot.store import Store
from engine.game import Game

CHANNEL = 1000
GUILD = 500
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

AL = User(1, "Al")
BEA = User(2, "Bea")
CY = User(3, "Cy")
DEE = User(4, "Dee")
EVE = User(5, "Eve")
PLAYERS = (AL, BEA, CY, DEE)


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


def seeded(seed: int) -> RngFactory:
    """An rng factory giving a different but reproducible source for every key."""

    def factory(key: str) -> random.Random:
        return random.Random(f"{seed}:{key}")

    return factory


async def load(store: Store, game_id: int) -> Game:
    """The game as stored now."""
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    return snapshot.decode(record.snapshot, random.Random(0)).game


async def state(store: Store, game_id: int) -> tuple[object, ...]:
    """Everything stored about a game, to show that a refused call changed nothing."""
    record = await store.get_game(game_id)
    return (record, tuple(await store.actions(game_id)))


def make_service(
    store: Store, clock: Clock, seed: int = 1, days: float = 7, *, computer: bool = False
) -> GameService:
    """A service whose deals are reproducible from ``seed`` (and, with ``computer``, the
    computer's choices too)."""
    return GameService(
        store,
        rng_factory=seeded(seed),
        clock=clock,
        idle_expiry=timedelta(days=days),
        computer_rng=random.Random(seed) if computer else None,
    )


@dataclass
class Transcript:
    """Everything sent during one driven game, per destination."""

    channel: list[str] = field(default_factory=list)
    # user id -> every text that user was sent privately (replies and DMs)
    private: dict[int, list[str]] = field(default_factory=dict)
    outcomes: list[Outcome] = field(default_factory=list)
    latest: dict[int, Prompt] = field(default_factory=dict)

    def record(self, user_id: int | None, outcome: Outcome) -> Outcome:
        self.outcomes.append(outcome)
        assert all(len(m) <= 2000 for m in outcome.channel)
        self.channel.extend(outcome.channel)
        if user_id is not None:
            self.private.setdefault(user_id, []).append(outcome.reply.text)
            if outcome.reply.controls is not None:
                self.private[user_id].append(outcome.reply.controls.text)
        for prompt in outcome.prompts:
            self.private.setdefault(prompt.user_id, []).append(prompt.text)
            self.latest[prompt.user_id] = prompt
        return outcome


async def open_table(
    service: GameService, users: Sequence[User], target: int = 121, channel: int = CHANNEL
) -> Transcript:
    """Open a game, seat ``users`` and start it; returns what was sent so far."""
    table = Transcript()
    table.record(
        users[0].id,
        await service.new_game(GUILD, channel, users[0], players=len(users), target=target),
    )
    for user in users[1:]:
        assert table.record(user.id, await service.join(channel, user)).ok
    started = table.record(users[0].id, await service.start(channel, users[0]))
    assert started.ok, started.reply.text
    return table


Check = Callable[[Outcome, User], Awaitable[None]]


async def drive(
    service: GameService,
    table: Transcript,
    users: Sequence[User],
    *,
    max_moves: int = 2000,
    stop_after: int | None = None,
    check: Check | None = None,
) -> Transcript:
    """Answer every prompt (first cards first) until the game ends (or ``stop_after``
    moves); ``check`` looks at every outcome as it arrives."""
    by_id = {u.id: u for u in users}
    for move in range(max_moves):
        if stop_after is not None and move == stop_after:
            return table
        pending = [p for p in table.latest.values() if p.kind == "discard"]
        if not pending:
            pending = [p for p in table.latest.values() if p.kind == "play"]
        if not pending:
            return table
        prompt = pending[0]
        del table.latest[prompt.user_id]
        user = by_id[prompt.user_id]
        if prompt.kind == "discard":
            codes = [c.code for c in prompt.cards[: prompt.pick]]
            outcome = await service.click_discard(prompt.game_id, prompt.stamp, user, codes)
        else:
            code = next(c.code for c in prompt.cards if c.enabled)
            outcome = await service.click_play(prompt.game_id, prompt.stamp, user, code)
        assert outcome.ok, outcome.reply.text
        table.record(user.id, outcome)
        if check is not None:
            await check(outcome, user)
    raise AssertionError("the game did not end")
