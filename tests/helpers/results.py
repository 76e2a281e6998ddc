"""Finished games written straight through the store (rated as the service's would be), for
tests that need many results quickly."""

from __future__ import annotations

import itertools

from bot.core.base.replies import User
from bot.core.games.records import GameStatus, ResultRecord, SeatRecord
from bot.store import Store
from engine.outcome import Scoring


def result_row(
    seat: int,
    user: User | None,
    *,
    won: bool,
    score: int,
    level: str | None = None,
    beyond: Scoring | None = None,
    game_points: int | None = None,
    final: str = "121-100",
) -> ResultRecord:
    """A result row for ``user`` (None: a computer at ``level``) with made-up totals; with
    ``beyond``, the game was won by a lurch or a skunk by that rule (2 game points unless
    ``game_points`` says more: 3 for a double skunk). ``final`` is the game's final scores."""
    return ResultRecord(
        seat=seat,
        user_id=None if user is None else user.id,
        display_name=f"Computer ({level})" if user is None else user.name,
        is_computer=user is None,
        won=won,
        game_points=game_points or (1 if beyond is None else 2),
        skunk_given=beyond is not None and won,
        skunk_taken=beyond is not None and not won,
        score=score,
        final_scores=final,
        reason="target",
        pegging_points=20 + seat,
        hand_points=50 + seat,
        crib_points=10,
        deals=8,
        best_hand=12 + seat,
        best_hand_cards=f"hand {seat}",
        twenty_nines=0,
        computer_level=level,
        scoring=beyond or Scoring.LURCH,
    )


CHANNELS = itertools.count(10_000)


async def finish_game(
    store: Store,
    results: list[ResultRecord],
    *,
    guild: int = 500,
    channel: int | None = None,
    now: float = 500.0,
) -> int:
    """A game with these seats, finished with these results (in ``channel``, or a channel of
    its own); its id."""
    seats = [
        SeatRecord(r.seat, r.user_id, r.display_name, r.is_computer, r.computer_level)
        for r in results
    ]
    record = await store.create_game(
        guild_id=guild,
        channel_id=next(CHANNELS) if channel is None else channel,
        creator=seats[0],
        num_players=len(seats),
        target=121,
        now=now,
        scoring=results[0].scoring,
    )
    version = await store.set_seats(record.id, record.version, seats, now=now)
    await store.save(record.id, version, now=now, status=GameStatus.FINISHED, results=results)
    return record.id
