"""What the game service needs from a store, and the refusals a store may raise.

The service is written against :class:`GameStore`; ``bot.store.Store`` (SQLite) is the one
kept today. A store's errors carry a sentence for the player and are translated, with every
other refusal, where the service call is entered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from bot.core import refusals
from bot.core.records import (
    DmLink,
    GameRecord,
    GameStatus,
    LeaderRow,
    MessageRecord,
    PendingPost,
    Ranked,
    RatingChange,
    ResultRecord,
    Rival,
    SeatRecord,
    Standing,
    StatsRow,
)
from engine.counting import Counting
from engine.outcome import Scoring

__all__ = [
    "ChannelBusy",
    "GameStore",
    "StoreError",
    "UnusableStore",
    "VersionConflict",
]


class StoreError(refusals.Refused):
    """A write the store refused (nothing was written); the message is for the player."""


class VersionConflict(StoreError):
    """The game changed since it was loaded: another action got there first."""

    def __init__(self) -> None:
        super().__init__(refusals.RACED)


class ChannelBusy(StoreError):
    """The channel already has an open game."""

    def __init__(self) -> None:
        super().__init__(refusals.CHANNEL_BUSY)


class UnusableStore(Exception):
    """The store cannot be opened for use as it is: the file is not a database, is damaged,
    cannot be written, or was made by a newer release (``bot.store.NewerSchema``). ``str()``
    says what is wrong and what to do, in words for whoever runs the bot (the caller names the
    setting). Nothing was changed."""


class GameStore(Protocol):
    """Games, seats, the action log, results and user settings, kept across restarts.

    Every write is one transaction. Writes to a game name the version they were based on and
    raise :class:`VersionConflict` (changing nothing) when the game has moved on since.
    """

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        creator: SeatRecord,
        num_players: int,
        target: int,
        now: float,
        vs_computer: bool = False,
        scoring: Scoring = Scoring.LURCH,
        counting: Counting = Counting.AUTO,
    ) -> GameRecord:
        """Open a lobby with ``creator`` in seat 0 and the table's options (the rule for game
        points, who counts the show); :class:`ChannelBusy` if one is open."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        ...

    async def game_version(self, game_id: int) -> int | None:
        """The game's version now (None for a game that does not exist)."""
        ...

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or active game in this channel, or None."""
        ...

    async def last_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The most recently opened game in this channel, whatever its status, or None."""
        ...

    async def idle_games(
        self, before: float, *, after: int = 0, limit: int | None = None
    ) -> list[GameRecord]:
        """Open games whose last change was before ``before``, by id from after ``after``, at
        most ``limit`` of them (None: all)."""
        ...

    async def set_seats(
        self, game_id: int, version: int, seats: Sequence[SeatRecord], *, now: float
    ) -> int:
        """Replace a lobby's seats; returns the new version."""
        ...

    async def save(
        self,
        game_id: int,
        version: int,
        *,
        now: float,
        status: GameStatus,
        snapshot: str | None = None,
        actions: Sequence[str] = (),
        results: Sequence[ResultRecord] = (),
        end_note: str | None = None,
        answered: MessageRecord | None = None,
    ) -> int:
        """Apply one accepted change (log, status, snapshot, results, why it ended, and what a
        clicked message of the game shows once the click is answered); returns the new
        version."""
        ...

    async def recent_games(self, since: float) -> list[GameRecord]:
        """Every lobby and active game, and every game changed since ``since``, oldest first."""
        ...

    # -- retention (none of this is a game move: the games have ended) ----------------------
    async def prunable(self, before: float, *, limit: int) -> list[tuple[int, str | None]]:
        """Ended games last changed before ``before`` and not pruned yet, oldest first, at
        most ``limit``: each game's id and last snapshot."""
        ...

    async def prune(
        self, records: Sequence[tuple[int, bytes | None]], *, before: float, now: float
    ) -> int:
        """Keep each ended game as its archive record (None: none) and drop the rest of what
        was kept to play it (snapshot, action log, messages); its results and ratings stay.
        Returns how many were pruned."""
        ...

    async def archived(self, game_id: int) -> bytes | None:
        """A pruned game's archive record, or None."""
        ...

    async def reclaim(self, pages: int) -> None:
        """Give back up to ``pages`` pages of freed space to the file system, if the store
        can do that a little at a time."""
        ...

    # -- the messages a game owns (none of this is a game move: no version change) ---------
    async def messages(self, game_id: int) -> dict[str, MessageRecord]:
        """The game's messages as last sent, by key."""
        ...

    async def set_message(
        self, game_id: int, message: MessageRecord, *, was_pending: bool = True
    ) -> None:
        """Remember a message sent (or edited) for the game (and, ``was_pending``, that it is
        no longer about to be posted)."""
        ...

    async def set_answered(
        self,
        game_id: int,
        key: str,
        message_id: int,
        digest: str,
        token: str,
        at: float,
        *,
        version: int,
    ) -> None:
        """A click on the game's message ``key`` (if it is ``message_id``) was answered by
        updating it to the game at ``version``: what it shows now, and the click's token,
        which may edit it again (a record of a later version is kept as it is)."""
        ...

    async def forget_look(self, game_id: int, key: str, version: int) -> None:
        """What the message ``key`` shows is unknown after all (the answer kept for
        ``version`` never reached Discord): it is to be edited again."""
        ...

    async def forget_message(self, game_id: int, key: str) -> None:
        """A message that is gone from Discord (deleted by someone): it will be sent again."""
        ...

    async def set_pending(self, game_id: int, post: PendingPost) -> None:
        """A DM of the game is about to be posted (cleared by :meth:`set_message` for its key,
        or by :meth:`clear_pending`)."""
        ...

    async def pending_posts(self, game_id: int) -> list[PendingPost]:
        """The game's DMs that were about to be posted and whose ids were never kept."""
        ...

    async def clear_pending(self, game_id: int, key: str) -> None:
        """Forget a post that was about to be made (it was looked for after a restart)."""
        ...

    async def dm_refusals(self, game_id: int) -> dict[int, int]:
        """Seat -> the deal in which that player's DMs were refused."""
        ...

    async def refuse_dms(self, game_id: int, seat: int, deal: int) -> None:
        """Remember that a player's DMs were refused in ``deal``."""
        ...

    async def dm_link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known."""
        ...

    async def set_dm_link(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there)."""
        ...

    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 20, vs_computer: bool = False
    ) -> list[LeaderRow]:
        """The server's players, best first."""
        ...

    async def player_stats(self, guild_id: int | None, user_id: int) -> dict[bool, StatsRow]:
        """A player's totals on a server, keyed by ``vs_computer`` (missing when no games)."""
        ...

    async def ranking(
        self, guild_id: int | None, *, vs_computer: bool = False, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Ranked]]:
        """How many players a server's table has, and a page of them, best rated first."""
        ...

    async def standing(self, guild_id: int | None, player_id: int) -> dict[bool, Ranked]:
        """A player's standing and rank in each table they have played in."""
        ...

    async def levels(self, guild_id: int | None) -> list[Standing]:
        """The computer levels' standings on a server, best rated first."""
        ...

    async def rating_history(
        self, guild_id: int | None, player_id: int, *, vs_computer: bool = False, last: int = 200
    ) -> list[tuple[float, float]]:
        """The player's ordinal after each of their latest games, and when each finished."""
        ...

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """A finished game's rating changes, in seat order."""
        ...

    async def best_hands(
        self, guild_id: int | None, user_id: int, *, limit: int = 3
    ) -> list[tuple[int, str]]:
        """A player's best hands on a server (points and cards)."""
        ...

    async def server_points(self, guild_id: int | None) -> tuple[int, int, int, int]:
        """The server's pegging, hand and crib points and deals, in games between people."""
        ...

    async def rival(self, guild_id: int | None, user_id: int, opponent_id: int) -> Rival | None:
        """Head to head between two people on a server."""
        ...

    async def coach_off(self, user_ids: Iterable[int]) -> set[int]:
        """Which of ``user_ids`` have turned the coach off."""
        ...

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> None:
        """Turn the coach on or off for a user."""
        ...
