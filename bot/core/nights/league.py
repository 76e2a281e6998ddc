"""A club's league: the nights that recur add up, season by season, to a table and a champion.

How a night scores, from the American Cribbage Congress's club practice (its *Grass Roots*
clubs, which meet weekly for a tournament of their own):

- **A night's places** are its tournament's final standings, ranked as the ACC ranks a club
  tournament and as every tournament of the bot already is: game points (2 for a win, 3 for a
  win by a lurch or skunk, a bye as a plain win), then games won, then spread (the net points
  pegged across the games) ("Each player will report their game points (2 points for a win, 3
  points for a skunk, 0 points for a loss), and their spread points", michigancribbage.com,
  *Grass Roots — General Information*; ties by "the tie-breaking net point spread", the
  Graeagle Peggers' reports in plumasnews.com).
- **League points** go to every player of the night by their place: as many as the players
  they finished level with or ahead of, themselves included (the winner of a night of N
  players gets N, the last 1). A bigger night is worth more to its winner, as the ACC's points
  grow with the field, and turning up is worth a point. (A Grass Roots club awards "Grass Roots
  Points" for a qualifying score card, by a table the ACC keeps for its members; that table is
  not public, so the bot scores by place, the part of the practice every report gives.)
- **The season** is a calendar quarter in the club's time zone, and **its champion** is who has
  the most league points when it ends ("The GRPs are used to determine the club champion at
  the end of the season", Grass Roots Cribbage Club #43's report in tricityvoice.com), ties
  broken by nights won, then game points over the season.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.core.tournaments.view import Event, table_of
from engine.tournament import Standing

__all__ = [
    "LeagueLine",
    "NightPlace",
    "league_points",
    "league_table",
    "night_places",
    "places_of",
]


def league_points(place: int, field: int) -> int:
    """The league points of ``place`` (from 1) in a night of ``field`` players.

    >>> [league_points(p, 5) for p in range(1, 6)]
    [5, 4, 3, 2, 1]
    """
    return max(0, field - place + 1)


@dataclass(frozen=True, slots=True)
class NightPlace:
    """One player's night: their place in its field, its league points and game points."""

    user_id: int
    name: str
    place: int
    field: int
    points: int
    game_points: int


def places_of(event: Event) -> list[NightPlace]:
    """A played night's places (its tournament's final standings), best first."""
    return night_places(table_of(event), {e.user_id: e.name for e in event.entrants})


def night_places(table: Sequence[Standing], names: Mapping[int, str]) -> list[NightPlace]:
    """The places of a night whose final standings are ``table`` (best first): players level
    on everything it ranks by (game points, games won, spread) share a place, and so their
    league points (as many as the players they finished level with or ahead of).

    >>> level = [Standing(1, 4, 2), Standing(2, 2, 1), Standing(3, 2, 1), Standing(4)]
    >>> [(p.place, p.points) for p in night_places(level, {})]
    [(1, 4), (2, 3), (2, 3), (4, 1)]
    """
    field = len(table)
    places: list[NightPlace] = []
    for at, s in enumerate(table, 1):
        level = places and _ranked_by(s) == _ranked_by(table[at - 2])
        place = places[-1].place if level else at
        points = league_points(place, field)
        places.append(
            NightPlace(s.player, names.get(s.player, "?"), place, field, points, s.points)
        )
    return places


def _ranked_by(standing: Standing) -> tuple[int, int, int]:
    return (standing.points, standing.won, standing.spread)


@dataclass(frozen=True, slots=True)
class LeagueLine:
    """One player's season: league points, nights played and won, game points."""

    user_id: int
    name: str
    points: int
    nights: int
    won: int
    game_points: int


def league_table(nights: Iterable[Sequence[NightPlace]]) -> list[LeagueLine]:
    """The season's table from its played nights' places: most league points first, then
    nights won, then game points (a player's latest name shown)."""
    lines: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for places in nights:
        for p in places:
            line = lines.setdefault(p.user_id, [0, 0, 0, 0])
            line[0] += p.points
            line[1] += 1
            line[2] += int(p.place == 1)
            line[3] += p.game_points
            names[p.user_id] = p.name
    found = [LeagueLine(user, names[user], *line) for user, line in lines.items()]
    return sorted(found, key=lambda x: (-x.points, -x.won, -x.game_points, x.name, x.user_id))
