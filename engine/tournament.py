"""Tournament pairings and standings, as club cribbage keeps them: pure, no I/O.

Scoring follows the American Cribbage Congress's club practice: a win is 2 game points, a win
with a lurch (or a skunk, by the table's rule) 3; a bye counts as a plain win (2 points, one
game won, no spread). Ties are broken by games won, then spread (the sum of winning margins
minus losing margins), then head to head between the two tied players.

Three ways of pairing a round are here (the formats that use them, one strategy each, are in
:mod:`engine.formats`):

- Swiss (:func:`swiss_round`): players on equal game points meet, never the same two twice
  while that can be avoided, and with an odd number the lowest standing player who has not had
  a bye gets it (never a second bye while someone has had none).
- Round robin (:func:`round_robin_round`): the circle method, every pair exactly once.
- Knockout (:func:`knockout_first_round`, :func:`knockout_next_round`): seeded 1 against the
  lowest, byes to the top seeds when the field is not a power of two.

>>> swiss_round([1, 2, 3, 4], points={}, played=set(), byes=set())
SwissRound(pairs=((1, 2), (3, 4)), bye=None)
>>> round_robin_round([1, 2, 3], 0)
((2, 3), (1, None))
>>> knockout_first_round([1, 2, 3, 4])
((1, 4), (2, 3))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "BYE_POINTS",
    "LURCH_POINTS",
    "WIN_POINTS",
    "MatchResult",
    "Standing",
    "SwissRound",
    "default_swiss_rounds",
    "knockout_first_round",
    "knockout_next_round",
    "knockout_rounds",
    "playoff_rounds",
    "round_robin_round",
    "round_robin_rounds",
    "standings",
    "swiss_round",
]

#: Game points for a win, a win with a lurch (or skunk), and a bye.
WIN_POINTS = 2
LURCH_POINTS = 3
BYE_POINTS = WIN_POINTS
#: The most Swiss rounds an event plays (the ACC's club session is 9 games).
MAX_SWISS_ROUNDS = 9
#: How many pairings the Swiss search tries before it settles for a rematch: enough for any
#: field where a rematch-free round exists in practice, and a bound on the time a round takes.
SEARCH_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One decided pairing: ``a`` against ``b`` (``b`` None: a bye for ``a``).

    ``winner`` is ``a``, ``b``, or None when both lost (a deadline's tie, a double forfeit);
    ``lurch`` a win by a lurch or skunk; ``margin`` the winner's points over the loser's (0 for
    a forfeit or a bye)."""

    a: int
    b: int | None
    winner: int | None
    lurch: bool = False
    margin: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the table."""

    player: int
    points: int = 0
    won: int = 0
    played: int = 0
    spread: int = 0
    byes: int = 0
    opponents: tuple[int, ...] = field(default=())


def _credit(table: dict[int, Standing], player: int, **more: int) -> None:
    old = table.setdefault(player, Standing(player))
    table[player] = Standing(
        player,
        points=old.points + more.get("points", 0),
        won=old.won + more.get("won", 0),
        played=old.played + more.get("played", 0),
        spread=old.spread + more.get("spread", 0),
        byes=old.byes + more.get("byes", 0),
        opponents=old.opponents + ((more["opponent"],) if "opponent" in more else ()),
    )


def standings(players: Sequence[int], results: Iterable[MatchResult]) -> list[Standing]:
    """Every player's line, best first: game points, games won, spread, then head to head
    (between two players level on all three), then the order of ``players`` (the seeding).

    >>> [s.player for s in standings([1, 2, 3], [MatchResult(1, 2, 2, margin=10)])]
    [2, 3, 1]
    """
    table: dict[int, Standing] = {p: Standing(p) for p in players}
    beat: set[tuple[int, int]] = set()
    for r in results:
        if r.b is None:
            _credit(table, r.a, points=BYE_POINTS, won=1, played=1, byes=1)
            continue
        for me, them in ((r.a, r.b), (r.b, r.a)):
            if r.winner == me:
                points = LURCH_POINTS if r.lurch else WIN_POINTS
                _credit(table, me, points=points, won=1, played=1, spread=r.margin, opponent=them)
                beat.add((me, them))
            else:
                _credit(table, me, played=1, spread=-r.margin if r.winner else 0, opponent=them)
    seed = {p: i for i, p in enumerate(players)}
    ordered = sorted(
        table.values(),
        key=lambda s: (-s.points, -s.won, -s.spread, seed.get(s.player, len(seed))),
    )

    # Head to head: of exactly two players level on everything above, the one who beat the
    # other first (three or more level stay in seeding order: a circle has no answer).
    def level(s: Standing) -> tuple[int, int, int]:
        return (s.points, s.won, s.spread)

    for i in range(len(ordered) - 1):
        x, y = ordered[i], ordered[i + 1]
        alone = (i == 0 or level(ordered[i - 1]) != level(x)) and (
            i + 2 >= len(ordered) or level(ordered[i + 2]) != level(y)
        )
        won_theirs = (y.player, x.player) in beat and (x.player, y.player) not in beat
        if alone and level(x) == level(y) and won_theirs:
            ordered[i], ordered[i + 1] = y, x
    return ordered


def default_swiss_rounds(entrants: int) -> int:
    """Enough rounds to leave one unbeaten player (the base-2 logarithm, rounded up), capped at
    :data:`MAX_SWISS_ROUNDS`, and never more than there are opponents.

    >>> default_swiss_rounds(7), default_swiss_rounds(16), default_swiss_rounds(3000)
    (3, 4, 9)
    """
    rounds = max(1, (entrants - 1).bit_length())
    return min(rounds, MAX_SWISS_ROUNDS, max(1, entrants - 1))


@dataclass(frozen=True, slots=True)
class SwissRound:
    """A Swiss round: its pairs (the better placed player first) and who has the bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def swiss_round(
    ranking: Sequence[int],
    *,
    points: Mapping[int, int],
    played: set[frozenset[int]],
    byes: set[int],
) -> SwissRound:
    """Pair the next Swiss round of the players in ``ranking`` (best first).

    ``points`` are their game points so far, ``played`` the pairs that met already, ``byes``
    who had one. Players meet others on equal points where they can, the top of a score group
    the next one down; nobody meets the same player twice while a round without a rematch
    exists (searched up to :data:`SEARCH_BUDGET` steps, then the fewest rematches the greedy
    order gives); an odd player out, the lowest placed who has had no bye (while anyone has
    had none) gets the bye.
    """
    players = list(ranking)
    if len(players) < 2:
        return SwissRound((), players[0] if players else None)
    candidates: list[int | None] = [None]
    if len(players) % 2:
        fewest = min(1 if p in byes else 0 for p in players)
        candidates = [p for p in reversed(players) if (1 if p in byes else 0) == fewest]
    for avoid in (True, False):
        for bye in candidates:
            rest = [p for p in players if p != bye]
            budget = [SEARCH_BUDGET]
            found = _pair(rest, points, played if avoid else set(), budget)
            if found is not None:
                return SwissRound(tuple(found), bye)
    raise AssertionError("a round without the rematch rule always pairs")  # pragma: no cover


def _pair(
    rest: list[int],
    points: Mapping[int, int],
    played: set[frozenset[int]],
    budget: list[int],
) -> list[tuple[int, int]] | None:
    """Pair ``rest`` (in standing order) without a pair in ``played``: the first unpaired
    player with the nearest on points that keeps the rest pairable (depth first)."""
    if not rest:
        return []
    top, others = rest[0], rest[1:]
    mine = points.get(top, 0)
    # Nearest on points first, then in standing order (a stable sort keeps that).
    order = sorted(range(len(others)), key=lambda i: abs(points.get(others[i], 0) - mine))
    for i in order:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        rival = others[i]
        if frozenset((top, rival)) in played:
            continue
        after = _pair(others[:i] + others[i + 1 :], points, played, budget)
        if after is not None:
            return [(top, rival), *after]
    return None


def round_robin_rounds(entrants: int) -> int:
    """How many rounds a round robin of ``entrants`` takes (one more with an odd number, the
    bye going round)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def round_robin_round(players: Sequence[int], index: int) -> tuple[tuple[int, int | None], ...]:
    """Round ``index`` (from 0) of a round robin by the circle method: the first player stays,
    the others turn one place a round. A pair ``(p, None)`` is ``p``'s bye.

    >>> round_robin_round([1, 2, 3, 4], 1)
    ((1, 3), (4, 2))
    """
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    if n < 2:
        return ()
    fixed, turning = circle[0], circle[1:]
    shift = index % (n - 1)
    turning = turning[-shift:] + turning[:-shift] if shift else turning
    seats = [fixed, *turning]
    pairs: list[tuple[int, int | None]] = []
    for i in range(n // 2):
        x, y = seats[i], seats[n - 1 - i]
        if x is None:
            x, y = y, None
        assert x is not None
        pairs.append((x, y))
    # Byes last, so tables are numbered by games played.
    return tuple(sorted(pairs, key=lambda pair: pair[1] is None))


def _bracket(size: int) -> list[int]:
    """Seed numbers (from 1) in bracket order for a bracket of ``size`` (a power of two), so
    that 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(seeds: Sequence[int]) -> tuple[tuple[int, int | None], ...]:
    """The first round of a knockout of ``seeds`` (best first): 1 against the lowest, 2 against
    the next lowest, ...; in a field short of a power of two the top seeds have byes
    (``(p, None)``). Pairs come in bracket order: the winners of pairs 1 and 2 meet next.

    >>> knockout_first_round([1, 2, 3])
    ((1, None), (2, 3))
    """
    size = 1
    while size < len(seeds):
        size *= 2
    order = _bracket(size)
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    pairs: list[tuple[int, int | None]] = []
    for i in range(0, size, 2):
        x, y = slots[i], slots[i + 1]
        if x is None:
            x, y = y, x
        if x is not None:
            pairs.append((x, y))
    return tuple(pairs)


def knockout_rounds(entrants: int) -> int:
    """How many rounds a knockout of ``entrants`` takes: until one is left (at least one).

    >>> knockout_rounds(2), knockout_rounds(5), knockout_rounds(8)
    (1, 3, 3)
    """
    return max(1, (entrants - 1).bit_length())


def playoff_rounds(playoff: int) -> int:
    """The knockout rounds of a playoff of ``playoff`` players (0: no playoff, no rounds).

    >>> playoff_rounds(0), playoff_rounds(4), playoff_rounds(8)
    (0, 2, 3)
    """
    return knockout_rounds(playoff) if playoff else 0


def knockout_next_round(winners: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The next knockout round: the winners of the last round's pairs, in bracket order, meet
    in twos (an empty tuple once one is left: the champion).

    >>> knockout_next_round([1, 3, 2, 7])
    ((1, 3), (2, 7))
    """
    return tuple((winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2))
