"""The result rows of a finished game: one per player, from the engine's result and the
per-seat tallies kept during the game."""

from __future__ import annotations

from bot.core.games.records import GameRecord, ResultRecord
from bot.core.games.tally import Tally, tallied
from engine.game import Game

__all__ = ["result_rows"]


def result_rows(record: GameRecord, game: Game, tally: Tally) -> list[ResultRecord]:
    """One row per seat: won or lost (partners share), game points, skunks, final scores
    (winner first, e.g. ``"121-84"``) and where the seat's points came from. A ranked match's
    game (:attr:`GameRecord.in_match`) is one game won or lost, whatever the scores: 1 game
    point, never a lurch or a skunk, as its result says it (its game points count for
    nothing there), so the stats and head to head outside servers count it so too (migration
    029 mended the results recorded before this rule, and what was derived from them)."""
    result = game.state.result
    if result is None:
        raise ValueError("The game is not over, so it has no result yet.")
    order = [result.winner] + [s for s in range(len(result.scores)) if s != result.winner]
    final = "-".join(str(result.scores[s]) for s in order)
    skunk = result.kind != "win" and not record.in_match
    points = 1 if record.in_match else result.game_points
    rows = []
    for seat in record.seats:
        side = game.side_of(seat.seat)
        won = side == result.winner
        mine = tally.seats[seat.seat]
        rows.append(
            ResultRecord(
                seat=seat.seat,
                user_id=seat.user_id,
                display_name=seat.name,
                is_computer=seat.is_computer,
                won=won,
                game_points=points,
                skunk_given=won and skunk,
                skunk_taken=not won and skunk,
                score=result.scores[side],
                final_scores=final,
                reason=result.reason,
                **tallied(mine),
                computer_level=seat.level if seat.is_computer else None,
                scoring=record.options.scoring,
                variant=record.options.variant,
            )
        )
    return rows
