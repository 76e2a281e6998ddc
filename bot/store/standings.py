"""The tables derived from the results: each player's standing (rating and totals), each
seat's rating change, and head to head between people (migration 006).

They are written in the transaction that records a game's results (:meth:`Store.save`) and
can be recomputed from the results alone (:func:`replay`, ``python -m bot ratings --rebuild``),
in ``rated_order``: the order the results were recorded in.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.games.records import RatingChange, ResultRecord, is_former, ordinal_sql
from bot.core.standings.ratings import RatedGame, player_id, rate_game
from bot.core.standings.records import TREND_GAMES, Rival, RivalGame, Standing
from bot.store.database import Row

__all__ = [
    "CHANGE_COLUMNS",
    "NEXT_ORDER",
    "RIVAL_COLUMNS",
    "STANDING_COLUMNS",
    "TREND_FROM",
    "Finished",
    "Replayed",
    "change",
    "computers_rated",
    "rate",
    "replay",
    "rival",
    "rivals_query",
    "standing",
    "standings_query",
    "writes",
]

#: The game's server (0 for none) and the rated_order its results take.
NEXT_ORDER = (
    "SELECT COALESCE(guild_id, 0),"
    " (SELECT COALESCE(MAX(rated_order), 0) + 1 FROM results) FROM games WHERE id = ?"
)

_STANDING_FIELDS = tuple(f.name for f in dataclasses.fields(Standing))
STANDING_COLUMNS = ", ".join(_STANDING_FIELDS)
_RIVAL_FIELDS = tuple(f.name for f in dataclasses.fields(Rival))
RIVAL_COLUMNS = ", ".join(_RIVAL_FIELDS)
CHANGE_COLUMNS = (
    "game_id, seat, guild_id, vs_computer, player_id, rated_order,"
    " mu_before, sigma_before, mu_after, sigma_after, finished_at, variant"
)


def computers_rated(results: Iterable[ResultRecord]) -> set[int]:
    """The ids the computers' levels among ``results`` are rated under (each a row of
    ``people`` for the standings to refer to, as a person's is)."""
    return {player_id(r) for r in results if r.is_computer}


def _marks(count: int) -> str:
    return ", ".join("?" for _ in range(count))


def _upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """Insert a row, or replace the one with the same ``key`` (SQL both databases speak)."""
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({_marks(len(columns))})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}"
    )


_INSERT_STANDING = _upsert(
    "standings",
    (*_STANDING_FIELDS, "ordinal"),
    ("guild_id", "variant", "vs_computer", "player_id"),
)
_INSERT_RIVAL = _upsert("rivals", _RIVAL_FIELDS, ("guild_id", "user_id", "opponent_id"))
_INSERT_CHANGE = f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({_marks(12)})"


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game's results as the ratings read them."""

    game_id: int
    order: int
    guild_id: int
    finished_at: float
    results: tuple[ResultRecord, ...]

    @property
    def vs_computer(self) -> bool:
        """Whether a computer sat at the table (then it is rated in the computer's table)."""
        return any(r.is_computer for r in self.results)

    @property
    def variant(self) -> str:
        """The variant it was played in (each variant is rated in tables of its own)."""
        return self.results[0].variant

    @property
    def people(self) -> list[int]:
        """The user ids of the people seated."""
        return [r.user_id for r in self.results if not r.is_computer and r.user_id is not None]


def standing(row: Row) -> Standing:
    """A Standing from a row of its columns."""
    values = {name: row[name] for name in _STANDING_FIELDS}
    values["vs_computer"] = bool(values["vs_computer"])
    return Standing(**values)


def _standing_row(s: Standing) -> tuple[Any, ...]:
    values = [getattr(s, name) for name in _STANDING_FIELDS]
    return (*values, s.ordinal)


def rival(row: Row) -> Rival:
    """A Rival from a row of its columns (``recent`` is JSON)."""
    values = {name: row[name] for name in _RIVAL_FIELDS}
    values["recent"] = tuple(RivalGame(*game) for game in json.loads(values["recent"]))
    return Rival(**values)


def _rival_row(r: Rival) -> tuple[Any, ...]:
    values: list[Any] = [getattr(r, name) for name in _RIVAL_FIELDS]
    values[-1] = json.dumps([dataclasses.astuple(game) for game in r.recent])
    return tuple(values)


def change(row: Row) -> RatingChange:
    """A RatingChange from a row of :data:`CHANGE_COLUMNS`."""
    values = list(row)
    values[3] = bool(values[3])
    return RatingChange(*values)


#: For a row ``s`` of standings: the ordinal before the player's last TREND_GAMES games (the
#: oldest of their last TREND_GAMES changes, read newest first through the player's index).
TREND_FROM = (
    f"(SELECT {ordinal_sql('mu_before', 'sigma_before')} FROM"
    " (SELECT mu_before, sigma_before, rated_order"
    " FROM rating_changes c WHERE c.guild_id = s.guild_id AND c.variant = s.variant"
    " AND c.vs_computer = s.vs_computer AND c.player_id = s.player_id"
    f" ORDER BY rated_order DESC LIMIT {TREND_GAMES}) AS latest"
    " ORDER BY rated_order LIMIT 1)"
)


def _change_row(c: RatingChange) -> tuple[Any, ...]:
    return (
        c.game_id,
        c.seat,
        c.guild_id,
        int(c.vs_computer),
        c.player_id,
        c.order,
        c.mu_before,
        c.sigma_before,
        c.mu_after,
        c.sigma_after,
        c.finished_at,
        c.variant,
    )


def standings_query(game: Finished) -> tuple[str, tuple[Any, ...]]:
    """The standings of the game's players before it, in its table."""
    players = sorted({player_id(r) for r in game.results})
    return (
        f"SELECT {STANDING_COLUMNS} FROM standings WHERE guild_id = ? AND variant = ?"
        f" AND vs_computer = ? AND player_id IN ({_marks(len(players))})",
        (game.guild_id, game.variant, int(game.vs_computer), *players),
    )


def rivals_query(game: Finished) -> tuple[str, tuple[Any, ...]]:
    """The head to head of the game's people before it."""
    people = game.people
    marks = _marks(len(people))
    return (
        f"SELECT {RIVAL_COLUMNS} FROM rivals WHERE guild_id = ?"
        f" AND user_id IN ({marks}) AND opponent_id IN ({marks})",
        (game.guild_id, *people, *people),
    )


def _rated(
    game: Finished, standings: dict[int, Standing], rivals: dict[tuple[int, int], Rival]
) -> RatedGame:
    return rate_game(
        game_id=game.game_id,
        order=game.order,
        guild_id=game.guild_id,
        finished_at=game.finished_at,
        results=game.results,
        standings=standings,
        rivals=rivals,
    )


def rate(game: Finished, standing_rows: Iterable[Row], rival_rows: Iterable[Row]) -> RatedGame:
    """Rate ``game`` from the rows :func:`standings_query` and :func:`rivals_query` read."""
    before = {s.player_id: s for s in map(standing, standing_rows)}
    rivals = {(r.user_id, r.opponent_id): r for r in map(rival, rival_rows)}
    return _rated(game, before, rivals)


@dataclass
class Replayed:
    """Every derived row, recomputed from the results."""

    #: By (server, variant, vs_computer, player).
    standings: dict[tuple[int, str, bool, int], Standing] = field(default_factory=dict)
    rivals: dict[tuple[int, int, int], Rival] = field(default_factory=dict)
    changes: list[RatingChange] = field(default_factory=list)

    def kept(self) -> Replayed:
        """What is kept of it: not the standings, rating changes and head to head of former
        players (who had their data deleted; their games are rated all the same, so that
        their opponents' numbers stay as they were)."""
        return Replayed(
            {k: s for k, s in self.standings.items() if not is_former(s.player_id)},
            {
                k: r
                for k, r in self.rivals.items()
                if not (is_former(r.user_id) or is_former(r.opponent_id))
            },
            [c for c in self.changes if not is_former(c.player_id)],
        )


def replay(games: Iterable[Finished]) -> Replayed:
    """Rate every game in order, as :meth:`Store.save` did when each was recorded."""
    done = Replayed()
    for game in games:
        table = (game.guild_id, game.variant, game.vs_computer)
        before = {
            pid: found
            for pid in {player_id(r) for r in game.results}
            if (found := done.standings.get((*table, pid))) is not None
        }
        people = game.people
        rivals = {
            (a, b): rival_before
            for a in people
            for b in people
            if (rival_before := done.rivals.get((game.guild_id, a, b))) is not None
        }
        rated = _rated(game, before, rivals)
        done.changes.extend(rated.changes)
        for s in rated.standings:
            done.standings[(*table, s.player_id)] = s
        for r in rated.rivals:
            done.rivals[(game.guild_id, r.user_id, r.opponent_id)] = r
    return done.kept()


def writes(
    rated: RatedGame | Replayed,
) -> list[tuple[str, Sequence[tuple[Any, ...]]]]:
    """The statements (with their rows) that store what a game, or a replay, derived."""
    standings: Iterable[Standing]
    rivals: Iterable[Rival]
    if isinstance(rated, Replayed):
        standings, rivals = rated.standings.values(), rated.rivals.values()
    else:
        standings, rivals = rated.standings, rated.rivals
    return [
        (_INSERT_CHANGE, [_change_row(c) for c in rated.changes]),
        (_INSERT_STANDING, [_standing_row(s) for s in standings]),
        (_INSERT_RIVAL, [_rival_row(r) for r in rivals]),
    ]
