"""What ranked play needs of a store (written in ``bot.store.ranked_tables`` and its parts),
one protocol per need: reading entries and matches (:class:`RankedReads`: the cards, the
scoreboard, the places, which game a command acts on), the queue (:class:`QueueStore`), the
referee's writes (:class:`MatchStore`), the ladder (:class:`LadderStore`) and the blocks
(:class:`BlockStore`); :class:`RankedStore` is all of them, for the calls and the wing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from bot.core.base.delivery import AnswerKept
from bot.core.games.storage import GameRecords
from bot.core.ranked.records import (
    EntryRecord,
    EntryStatus,
    MatchGame,
    MatchLine,
    MatchRecord,
    RatingRecord,
    Search,
)

__all__ = [
    "BlockStore",
    "Card",
    "CardStore",
    "Joined",
    "LadderStore",
    "MatchStore",
    "Pick",
    "QueueStore",
    "RankedReads",
    "RankedStore",
]

#: What draws a player's card as they join: from their entry, its match, their opponent and
#: the opponent's latest rating.
Card = Callable[
    [EntryRecord, MatchRecord | None, EntryRecord | None, RatingRecord | None], AnswerKept | None
]
#: Whom a newcomer may be paired with among searching players, best first (given the blocks).
Pick = Callable[[EntryRecord, list[EntryRecord], set[tuple[int, int]]], list[EntryRecord]]
#: What joining the queue gives: the entry, its match if paired at once, the entries changed.
Joined = tuple[EntryRecord, MatchRecord | None, list[EntryRecord]]


class RankedReads(Protocol):
    """The entries and the matches, as they are."""

    async def ranked_entry(self, entry_id: int) -> EntryRecord | None: ...
    async def live_entry(self, user_id: int) -> EntryRecord | None: ...
    async def entries_since(self, since: float) -> list[EntryRecord]: ...
    async def ranked_match(self, match_id: int) -> MatchRecord | None: ...
    async def last_match_from(self, user_id: int, channel_id: int) -> MatchRecord | None: ...
    async def matches_since(self, since: float) -> list[MatchRecord]: ...
    async def match_entries(self, match: MatchRecord) -> tuple[EntryRecord, EntryRecord]: ...
    async def match_games(self, match_id: int) -> list[MatchGame]: ...
    async def match_changes(
        self, match_id: int
    ) -> dict[int, tuple[float, float, float, float]]: ...


class QueueStore(Protocol):
    """Joining the queue (what it asks of a player first), leaving it, and its pairings."""

    async def queue_entry(
        self,
        search: Search,
        *,
        now: float,
        card: Card | None = ...,
        pick: Pick | None = ...,
        candidates: int = ...,
    ) -> Joined: ...
    async def older_release_running(self, release: str, *, seen_after: float) -> bool: ...
    async def ranked_player(
        self, user_id: int, *, since: float
    ) -> tuple[EntryStatus | None, int, float | None, RatingRecord | None, int | None]: ...
    async def searching_entries(self) -> list[EntryRecord]: ...
    async def end_search(
        self, entry_id: int, status: EntryStatus, *, now: float
    ) -> EntryRecord | None: ...
    async def pair_entries(
        self, first: int, second: int, *, now: float
    ) -> tuple[MatchRecord, list[EntryRecord]] | None: ...
    async def blocks_among(self, user_ids: Sequence[int]) -> set[tuple[int, int]]: ...


class MatchStore(RankedReads, Protocol):
    """A match's games written and counted, and the match decided and rated (the referee's)."""

    async def add_match_game(
        self, match_id: int, number: int, game_id: int
    ) -> list[EntryRecord]: ...
    async def count_match_game(
        self, match_id: int, number: int, winner: int
    ) -> list[EntryRecord]: ...
    async def finish_match(
        self,
        match_id: int,
        *,
        winner: int | None,
        how: str,
        abandoned_by: int | None,
        now: float,
    ) -> list[EntryRecord]: ...


class LadderStore(Protocol):
    """The seasons' ratings, standings and champions, a player's finished matches (rated, or
    ended without a result), and their live entry (a match being played is said apart)."""

    async def live_entry(self, user_id: int) -> EntryRecord | None: ...

    async def season_rating(self, season: str, user_id: int) -> RatingRecord | None: ...
    async def latest_rating(
        self, user_id: int, *, before: str | None = ...
    ) -> RatingRecord | None: ...
    async def ladder(self, season: str, *, at_least: int, limit: int) -> list[RatingRecord]: ...
    async def ladder_place(self, season: str, user_id: int, *, at_least: int) -> int | None: ...
    async def ladder_size(self, season: str, *, at_least: int) -> int: ...
    async def season_champions(
        self, *, at_least: int, before: str, limit: int
    ) -> list[RatingRecord]: ...
    async def match_lines(self, user_id: int, *, limit: int) -> list[MatchLine]: ...


class BlockStore(Protocol):
    """A player's blocks, and whom they met (to block)."""

    async def block_player(
        self, user_id: int, blocked_id: int, name: str, *, now: float
    ) -> None: ...
    async def unblock_player(self, user_id: int, blocked_id: int) -> bool: ...
    async def blocked_players(self, user_id: int) -> list[tuple[int, str]]: ...
    async def past_opponents(self, user_id: int, *, limit: int) -> list[tuple[int, str]]: ...


class CardStore(RankedReads, LadderStore, Protocol):
    """What a player's card is drawn from: their entry, its match, their rating; and a match's
    tables: the match, and its players' places on the ladder after it."""


class RankedStore(QueueStore, MatchStore, LadderStore, BlockStore, GameRecords, Protocol):
    """The entries, matches, ratings and blocks of ranked play (and the games it plays)."""
