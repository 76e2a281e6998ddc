"""What a ranked game's table says of its match: the score above, and below it the turn clock
while a move is owed, then (below the game's own result, which says how it ended) what comes
next: the next game, or the match's winner, both players' ranked ratings before and after, and
where the place's own player stands on the ladder now.

A ranked game's channel (no Discord channel: its seats play apart, :mod:`bot.core.base.seating`)
names its match and its number in it: :func:`game_channel` and :func:`match_of_channel`.
"""

from __future__ import annotations

from bot.core.base.recent import Newest
from bot.core.base.text import and_list, escape, ratings_text
from bot.core.games.endings import Ending, said
from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord, Match, ordinal
from bot.core.ranked.rating import PLACEMENT_MATCHES
from bot.core.ranked.records import (
    MatchGame,
    MatchRecord,
    MatchStatus,
    RatingRecord,
    unrated_why,
)
from bot.core.ranked.storage import CardStore
from bot.core.ranked.turns import TurnClock
from bot.core.ranked.words import ladder_standing, match_not_rated

__all__ = ["GAMES_A_MATCH", "WINS_NEEDED", "MatchView", "game_channel", "match_of_channel"]

#: A match is the best of this many games.
GAMES_A_MATCH = 3
#: Games a player must win to take the match.
WINS_NEEDED = GAMES_A_MATCH // 2 + 1
#: The games of a match get numbers 1 to 3 of the match's block of four.
_PER_MATCH = 4
#: Matches kept in memory for drawing their tables.
MATCHES_KEPT = 1024

#: A player's standing after a match: their season's rating, their place on the ladder (None:
#: not ranked yet) and how many it ranks (:func:`~bot.core.ranked.words.ladder_standing`).
Standing = tuple[RatingRecord, int | None, int]
#: A match as its tables are drawn from it: the match, its games, and once it is rated each
#: player's rating change (mu and sigma before, then after) and standing after it.
Read = tuple[
    MatchRecord,
    list[MatchGame],
    dict[int, tuple[float, float, float, float]],
    dict[int, Standing],
]


def game_channel(match_id: int, number: int) -> int:
    """The channel of game ``number`` (1 to 3) of match ``match_id``: no Discord channel (a
    number below zero; Discord's ids are positive), the key its game is stored by.

    >>> game_channel(7, 2), match_of_channel(game_channel(7, 2))
    (-30, (7, 2))
    """
    if not 1 <= number <= GAMES_A_MATCH:
        raise ValueError(f"A match has no game {number}.")
    return -(match_id * _PER_MATCH + number)


def match_of_channel(channel_id: int) -> tuple[int, int] | None:
    """The match and game number a ranked game's channel names (None: not a ranked game's)."""
    if channel_id >= 0:
        return None  # (a Discord channel's)
    match_id, number = divmod(-channel_id, _PER_MATCH)
    return (match_id, number) if 1 <= number <= GAMES_A_MATCH else None


class MatchView:
    """Reads each match once for drawing its games' tables, kept by the match's version: read
    again once a newer version is told, and a read of an older one (a change overtook it on its
    way) is not kept over it."""

    def __init__(self, store: CardStore) -> None:
        self._store = store
        # match id -> the read, at the version of the match it read.
        self._kept: Newest[int, Read] = Newest(MATCHES_KEPT)

    def moved_to(self, match_id: int, version: int) -> None:
        """The match is at ``version`` or later (the referee read it so, or its change moved
        it on to it): what is kept of an earlier version is read again when next drawn, and
        a read of one, on its way, is not kept."""
        self._kept.told(match_id, version)

    def changed(self, match_id: int) -> None:
        """The match changed, to a version not known here (a card changed elsewhere): read
        it again when next drawn (the referee's look that follows says the version it
        reads)."""
        self._kept.drop(match_id)

    def forget(self) -> None:
        """Read every match again (another process may have changed them)."""
        self._kept.clear()

    async def read(self, match_id: int) -> Read | None:
        """The match, its games, its rating changes and its players' places on the ladder
        (None: no such match)."""
        kept = self._kept.get(match_id)
        if kept is not None:
            return kept
        # A read takes several statements, and the referee may decide the match between
        # them (its place's table drawn as the last game ended): kept, the read from before
        # the decision would stand for the match from then on, the tables redrawn for the
        # decision saying the next game comes. Kept by the version it read, it is older than
        # the one the decision told.
        read = await self._read(match_id)
        if read is not None:
            self._kept.keep(match_id, read[0].version, read)
        return read

    async def _read(self, match_id: int) -> Read | None:
        """The match as :meth:`read` says, read from the store."""
        store = self._store
        match = await store.ranked_match(match_id)
        if match is None:
            return None
        games = await store.match_games(match_id)
        changes, standings = {}, {}
        if match.status is MatchStatus.FINISHED:
            changes = await store.match_changes(match_id)
            standings = await self._standings(match)
        return (match, games, changes, standings)

    async def _standings(self, match: MatchRecord) -> dict[int, Standing]:
        """Each player's rating in the match's season, with their place and how many are
        ranked (read once, as the match is decided: the table keeps what it said then)."""
        season, store, found = match.season, self._store, {}
        if season is None:
            return {}
        size = await store.ladder_size(season, at_least=PLACEMENT_MATCHES)
        for user in (match.player_a, match.player_b):
            rating = await store.season_rating(season, user)
            if rating is not None:
                place = await store.ladder_place(season, user, at_least=PLACEMENT_MATCHES)
                found[user] = (rating, place, size)
        return found

    async def decided_by(self, record: GameRecord) -> int | None:
        """The match whose deciding game ``record`` is, once that match is decided (None:
        not a ranked game, or not its match's last game, or the match goes on)."""
        found = record.occasion
        read = await self.read(found.match_id) if isinstance(found, Match) else None
        if not isinstance(found, Match) or read is None:
            return None
        match, games, _, _ = read
        last = max((g.number for g in games), default=0)
        return match.id if match.status is MatchStatus.FINISHED and found.number == last else None

    async def lines(
        self, record: GameRecord, loaded: Loaded, turns: TurnClock, reader: int | None = None
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The lines a ranked game's table adds: above, and below (at ``reader``'s place:
        once the match is decided, where they stand on the ladder)."""
        found = record.occasion
        if not isinstance(found, Match):
            return (), ()
        read = await self.read(found.match_id)
        if read is None:
            return (), ()
        match, games, changes, standings = read
        number = found.number
        names = {s.user_id: escape(s.name) for s in record.seats if s.user_id is not None}
        a, b = names.get(match.player_a, "?"), names.get(match.player_b, "?")
        top = (
            f"⚔️ **Ranked match**, game {number} (best of three) — "
            f"{a} {match.wins_a} · {b} {match.wins_b}",
        )
        clock = _clock_lines(record, loaded, turns)
        if clock:
            return top, clock
        game = next((g for g in games if g.number == number), None)
        after = _after_game(match, games, game, names, changes)
        if reader is None or reader not in standings or match.status is not MatchStatus.FINISHED:
            return top, after
        return top, (*after, ladder_standing(names.get(reader, "?"), *standings[reader]))


def _clock_lines(record: GameRecord, loaded: Loaded, turns: TurnClock) -> tuple[str, ...]:
    """When each move owed now runs out of time (one line per deadline)."""
    by_deadline: dict[float, list[str]] = {}
    for turn in turns.turns(loaded):
        by_deadline.setdefault(turn.deadline, []).append(escape(record.seats[turn.seat].name))
    return tuple(
        f"⏱ {and_list(who)}: time runs out <t:{int(deadline)}:R>."
        for deadline, who in sorted(by_deadline.items())
    )


def _after_game(
    match: MatchRecord,
    games: list[MatchGame],
    game: MatchGame | None,
    names: dict[int, str],
    changes: dict[int, tuple[float, float, float, float]],
) -> tuple[str, ...]:
    """What the table says once its game is over, below the game's own result (which says
    how it ended: played out, resigned, a clock run out, a player leaving): the match's
    winner and ratings, or that the next game comes."""
    if match.status is MatchStatus.FINISHED:
        return tuple(_decided(match, games, names, changes))
    if game is not None and game.winner is not None:
        a, b = names.get(match.player_a, "?"), names.get(match.player_b, "?")
        return (
            f"Match: {a} {match.wins_a} · {b} {match.wins_b} — game {game.number + 1} comes "
            "next, below.",
        )
    return ()


def _decided(
    match: MatchRecord,
    games: list[MatchGame],
    names: dict[int, str],
    changes: dict[int, tuple[float, float, float, float]],
) -> list[str]:
    """The match's winner (and who left it, when that decided it: the game being played then
    counts as theirs to lose), and each player's ranked rating after it; or that it was not
    rated, and why."""
    if not match.rated:
        return [match_not_rated(unrated_why(games))]
    if match.winner is None:
        return []
    winner = names.get(match.winner, "?")
    loser = match.opponent(match.winner)
    won, lost = match.wins_of(match.winner), match.wins_of(loser)
    how = f" ({said(Ending.LEFT, names.get(loser, '?'))})" if match.how == Ending.LEFT else ""
    lines = [f"🏆 **{winner} wins the ranked match {won}–{lost}**{how}."]
    rated = [
        (names.get(user, "?"), ordinal(c[0], c[1]), ordinal(c[2], c[3]))
        for user in (match.player_a, match.player_b)
        if (c := changes.get(user)) is not None
    ]
    lines.append(ratings_text("Ranked ratings", rated, from_=True))
    return lines
