"""Skill ratings and per-player totals, from the results of one finished game.

The ratings are openskill's Plackett–Luce model with the library's defaults (a new player is
mu 25, sigma 25/3): it rates a 2-player game, a 3-player free-for-all (the winner first, the
others by their final scores) and two partnerships alike, and its ordinal ``mu - 3 sigma`` is a
conservative figure that only rises as the system grows sure of a player. Players see it as
:func:`shown`: 1,000 for a newcomer, about 20 a point of ordinal.

Each server keeps two tables apart: games between people, and games with a computer seat, in
which each computer level is a rated player of its own (so "rated above Hard bot" means
something) and never appears among the people. And each variant (:mod:`engine.variants`) keeps
its two tables apart from the others': a win at five-card cribbage, or at a table of six,
says little of a player's standard game (docs/players.md). Everything here is a pure function of the
results and the standings before the game, so a rebuild that replays the results in the order
they were recorded gets the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import fmean

from openskill.models import PlackettLuce

from bot.core.games.records import RatingChange, ResultRecord
from bot.core.games.tally import tallied
from bot.core.standings.records import Rival, RivalGame, Standing
from engine.outcome import Scoring
from engine.variants import STANDARD, named

__all__ = [
    "COMPUTER_IDS",
    "MODEL",
    "PROVISIONAL_GAMES",
    "RECENT_RIVAL_GAMES",
    "RatedGame",
    "fresh",
    "player_id",
    "rate_game",
]

#: The rating model: the library's defaults, so anyone can check a number with openskill.
MODEL = PlackettLuce()
#: A player with fewer rated games than this is marked provisional.
PROVISIONAL_GAMES = 5
#: Computer levels as players (Discord's ids are positive, so these never meet a person's).
COMPUTER_IDS = {"easy": -1, "medium": -2, "hard": -3, "expert": -4}
#: Head to head keeps this many of the latest games between two people.
RECENT_RIVAL_GAMES = 5


def player_id(result: ResultRecord) -> int:
    """Who a result row rates: the user, or the computer's level."""
    if result.is_computer:
        return COMPUTER_IDS[result.computer_level or "hard"]
    if result.user_id is None:
        raise ValueError("A person's result has no user id.")
    return result.user_id


def fresh(
    guild_id: int, vs_computer: bool, player: int, name: str, variant: str = STANDARD.name
) -> Standing:
    """A player with no games yet in ``variant``'s table: the model's starting rating."""
    return Standing(guild_id, vs_computer, player, name, MODEL.mu, MODEL.sigma, variant=variant)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What one game changes: each seat's rating, its players' standings and the head to
    head of every two people on opposite sides."""

    changes: tuple[RatingChange, ...]
    standings: tuple[Standing, ...]
    rivals: tuple[Rival, ...]


def _side(result: ResultRecord, players: int) -> int:
    """The side a seat scored for, as its variant's rules for that many players make the
    sides (partners sit opposite with four players; six sit as two teams of three, or three
    of two). A result row keeps its game's players and variant: its sides follow from them."""
    return named(result.variant).rules(players).side_of(result.seat)


def _ranks(results: Sequence[ResultRecord], sides: Sequence[int]) -> list[float]:
    """Plackett–Luce ranks of the sides (1 is best): the winner, then the rest by score."""
    key = {_side(r, len(results)): (r.won, r.score) for r in results}
    return [1.0 + sum(other > key[side] for other in key.values()) for side in sides]


def _totals(before: Standing, mine: Sequence[ResultRecord], order: int) -> Standing:
    """``before`` with one more game: ``mine`` are the player's seats in it (two for a
    computer level that sits twice)."""
    won = any(r.won for r in mine)
    # A game's points past one are a lurch or a skunk by the rule it was played under.
    lurch = mine[0].scoring == Scoring.LURCH
    return replace(
        before,
        name=mine[0].display_name,
        games=before.games + 1,
        wins=before.wins + won,
        game_points=before.game_points + (mine[0].game_points if won else 0),
        skunks_given=before.skunks_given + any(r.skunk_given and not lurch for r in mine),
        skunks_taken=before.skunks_taken + any(r.skunk_taken and not lurch for r in mine),
        lurches_given=before.lurches_given + any(r.skunk_given and lurch for r in mine),
        lurches_taken=before.lurches_taken + any(r.skunk_taken and lurch for r in mine),
        **tallied(before.plus(*mine)),
        last_order=order,
    )


def _rivals(
    guild_id: int,
    game_id: int,
    finished_at: float,
    results: Sequence[ResultRecord],
    before: Mapping[tuple[int, int], Rival],
) -> tuple[Rival, ...]:
    people = [r for r in results if not r.is_computer and r.user_id is not None]
    players = len(results)
    updated = []
    for mine in people:
        for theirs in people:
            if _side(mine, players) == _side(theirs, players):
                continue
            assert mine.user_id is not None and theirs.user_id is not None
            pair = (mine.user_id, theirs.user_id)
            old = before.get(pair) or Rival(guild_id, *pair)
            outcome = "W" if mine.won else "L" if theirs.won else "-"
            points = mine.game_points
            game = RivalGame(
                game_id, finished_at, outcome, mine.score, theirs.score, points, mine.variant
            )
            updated.append(
                replace(
                    old,
                    games=old.games + 1,
                    wins=old.wins + mine.won,
                    losses=old.losses + theirs.won,
                    points_won=old.points_won + (points if mine.won else 0),
                    points_lost=old.points_lost + (points if theirs.won else 0),
                    margin=old.margin + mine.score - theirs.score,
                    recent=(game, *old.recent[: RECENT_RIVAL_GAMES - 1]),
                )
            )
    return tuple(updated)


def rate_game(
    *,
    game_id: int,
    order: int,
    guild_id: int,
    finished_at: float,
    results: Sequence[ResultRecord],
    standings: Mapping[int, Standing],
    rivals: Mapping[tuple[int, int], Rival],
) -> RatedGame:
    """Rate one finished game. ``standings`` holds the seated players' standings before it
    (by player id, in this game's table; a newcomer may be missing) and ``rivals`` the head
    to head of its people (by (user, opponent)); ``order`` is its ``rated_order``."""
    vs_computer = any(r.is_computer for r in results)
    variant = results[0].variant
    ids = [player_id(r) for r in results]
    before = {
        pid: standings.get(pid) or fresh(guild_id, vs_computer, pid, r.display_name, variant)
        for pid, r in zip(ids, results, strict=True)
    }
    sides = sorted({_side(r, len(results)) for r in results})
    teams = [
        [(i, r) for i, r in enumerate(results) if _side(r, len(results)) == side] for side in sides
    ]
    rated = MODEL.rate(
        [
            [MODEL.rating(mu=before[ids[i]].mu, sigma=before[ids[i]].sigma) for i, _ in team]
            for team in teams
        ],
        ranks=_ranks(results, sides),
    )
    after: dict[int, list[tuple[float, float]]] = {}
    changes = []
    for team, new in zip(teams, rated, strict=True):
        for (i, r), rating in zip(team, new, strict=True):
            old = before[ids[i]]
            after.setdefault(ids[i], []).append((rating.mu, rating.sigma))
            changes.append(
                RatingChange(
                    game_id,
                    r.seat,
                    guild_id,
                    vs_computer,
                    ids[i],
                    order,
                    old.mu,
                    old.sigma,
                    rating.mu,
                    rating.sigma,
                    finished_at,
                    variant,
                )
            )
    updated = []
    for pid, new_ratings in after.items():
        # A level seated twice (two computers at one level) moves by the mean of its seats.
        mine = [r for r, p in zip(results, ids, strict=True) if p == pid]
        totals = _totals(before[pid], mine, order)
        mu = fmean(m for m, _ in new_ratings) if len(new_ratings) > 1 else new_ratings[0][0]
        sigma = fmean(s for _, s in new_ratings) if len(new_ratings) > 1 else new_ratings[0][1]
        updated.append(replace(totals, mu=mu, sigma=sigma))
    return RatedGame(
        tuple(sorted(changes, key=lambda c: c.seat)),
        tuple(updated),
        _rivals(guild_id, game_id, finished_at, results, rivals),
    )
