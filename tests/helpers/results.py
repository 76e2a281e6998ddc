"""Finished games written straight through the store (rated as the service's would be), for
tests that need many results quickly."""

from __future__ import annotations

import itertools
from dataclasses import replace

from bot.core.base.replies import User
from bot.core.games.records import (
    GameChange,
    GameStatus,
    NewGame,
    Options,
    ResultRecord,
    SeatRecord,
)
from bot.core.tournaments.records import Format, TournamentPlan, TournamentStatus
from bot.store import Store
from engine.outcome import Scoring
from engine.variants import STANDARD, listed
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO


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
    guild: int | None = 500,
    channel: int | None = None,
    now: float = 500.0,
    variant: str = STANDARD.name,
    target: int = 121,
) -> int:
    """A game of ``variant`` to ``target`` with these seats, finished with these results (in
    ``channel``, or a channel of its own); its id."""
    results = [replace(r, variant=variant) for r in results]
    seats = [
        SeatRecord(r.seat, r.user_id, r.display_name, r.is_computer, r.computer_level)
        for r in results
    ]
    options = Options(len(seats), target, scoring=results[0].scoring, variant=variant)
    channel = next(CHANNELS) if channel is None else channel
    record = await store.create_game(NewGame(guild, channel, seats[0], options), now=now)
    version = await store.set_seats(record.id, record.version, seats, now=now)
    await store.save(record.id, version, GameChange(GameStatus.FINISHED, results=results), now=now)
    return record.id


#: The people of :func:`a_league`: the cast, thirteen more (two pages of a leaderboard), and
#: one whose name is as long as Discord's and made of what Markdown reads (and a mention).
LEAGUE = tuple(User(100 + n, f"P{n:02d}") for n in range(13))
ODD = User(99, "*_~`|>@everyone <@1> Zoë ﷽ **x**"[:32])
#: When its games finished: last month's (December 2025), this month's and older ones, as
#: the tests' clock (1 January 2026, noon) counts them.
DECEMBER = 1_764_547_200.0 + 86_400 * 10  # 11 December 2025
JANUARY = 1_767_225_600.0 + 3_600  # 1 January 2026, 1 am
JUNE = 1_748_736_000.0 + 86_400 * 5  # 6 June 2025


async def a_league(store: Store, guild: int = 500) -> None:
    """A server's few months of finished games, of every variant and table, written once
    (nothing more when its standings are there already): the cast's games between people and
    against the computer (a skunk, a 29 and a 24 among their hands), a game of each variant
    (in teams too) with the odd name seated, thirteen people who beat one another in order,
    two games outside servers, and a finished tournament's champion."""
    total, _ = await store.ranking(guild)
    if total:
        return
    al, bea, cy = AL, BEA, CY
    two = [
        (al, bea, DECEMBER, None, 29),
        (bea, cy, DECEMBER + 3_600, Scoring.SKUNK, 24),
        (cy, al, JANUARY, None, 12),
        (ODD, al, JUNE, None, 28),
        (al, ODD, JANUARY + 60, None, 16),
    ]
    for winner, loser, when, beyond, best in two:
        rows = [
            result_row(0, winner, won=True, score=121, beyond=beyond),
            result_row(1, loser, won=False, score=80 if beyond else 100, beyond=beyond),
        ]
        rows[0] = replace(rows[0], best_hand=best, best_hand_cards="5♣ 5♦ 5♥ J♠ + 5♠")
        await finish_game(store, rows, guild=guild, now=when)
    for person, level, won in ((al, "hard", True), (cy, "easy", False), (ODD, "expert", False)):
        rows = [
            result_row(0, person, won=won, score=121 if won else 90),
            result_row(1, None, won=not won, score=90 if won else 121, level=level),
        ]
        await finish_game(store, rows, guild=guild, now=DECEMBER + 7_200)
    # A game of each other variant at each of its tables, the odd name in the first seat, its
    # side winning (partners win together), and one against the computer.
    others = (AL, BEA, CY, DEE, EVE, FLO)
    for variant in listed():
        for players in variant.seats:
            rules = variant.rules(players)
            winners = rules.sides[0]
            people = (ODD, *others)[:players]
            rows = [
                result_row(seat, person, won=seat in winners, score=rules.target - 10 * seat)
                for seat, person in enumerate(people)
            ]
            await finish_game(
                store,
                rows,
                guild=guild,
                now=JANUARY + players,
                variant=variant.name,
                target=rules.target,
            )
        if 2 in variant.seats:
            rows = [
                result_row(0, ODD, won=True, score=variant.default_target),
                result_row(1, None, won=False, score=1, level="easy"),
            ]
            await finish_game(
                store,
                rows,
                guild=guild,
                now=JANUARY,
                variant=variant.name,
                target=variant.default_target,
            )
    for i, winner in enumerate(LEAGUE):
        for loser in LEAGUE[i + 1 : i + 3]:
            rows = [
                result_row(0, winner, won=True, score=121),
                result_row(1, loser, won=False, score=100),
            ]
            await finish_game(store, rows, guild=guild, now=DECEMBER + i)
    for winner, loser in ((al, bea), (bea, al)):
        rows = [
            result_row(0, winner, won=True, score=121),
            result_row(1, loser, won=False, score=99),
        ]
        await finish_game(store, rows, guild=None, now=JANUARY)
    plan = TournamentPlan(
        guild_id=guild,
        channel_id=next(CHANNELS),
        organiser_id=al.id,
        format=Format.SWISS,
        target=121,
        scoring=Scoring.LURCH,
        round_hours=24.0,
    )
    made = await store.create_tournament(plan, now=DECEMBER)
    for person in (al, bea, ODD):
        await store.enter(made.id, person.id, person.name)
    await store.start_tournament(made.id, rounds=1)
    await store.end_tournament(made.id, TournamentStatus.FINISHED, now=DECEMBER, champion=ODD.id)
