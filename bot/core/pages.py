"""The pages outside Discord, as the core draws them: what the game pages and the Activity show
of a game, drawn from the stored game as its messages are, for the web servers (``bot/web``),
which lay them out as HTML or JSON and serve them.

- a game's page: its table as the channel shows it (:meth:`GamePages.seen`), the replay of one
  that ended (:meth:`GamePages.replay`) and its reviews, every page of each
  (:meth:`GamePages.review_pages`);
- a club's league (:meth:`GamePages.league`), and the night a game was played for
  (:meth:`GamePages.league_of`), which its page names with a link to the league;
- the Activity: a channel's game (:meth:`GamePages.open_game`, :meth:`GamePages.last_game`) as
  each reader at its table sees it (:meth:`GamePages.activity`:
  :func:`~bot.core.messages.activity.activity_state`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.base.refusals import Refused
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games, Loaded
from bot.core.games.records import GameRecord
from bot.core.games.series import continued_text, series_text
from bot.core.messages.activity import Html, activity_state, no_game_of_its_own
from bot.core.messages.game_messages import result_lines
from bot.core.messages.spectator import DealHistory, TableSeen, table_seen
from bot.core.nights.leagues import LeagueBoard, Leagues
from bot.core.review.replay import GameReplay, replay
from bot.core.review.report import page_view
from bot.core.review.review import Reviews, players_only
from bot.core.store import CoreStore

__all__ = ["GamePages"]


class GamePages:
    """What the pages outside Discord read of the games, on ``games`` and ``store``; a
    finished game's reviews from ``reviews``; each reader's coach as ``coach`` keeps it."""

    def __init__(
        self,
        games: Games,
        store: CoreStore,
        coach: CoachSettings,
        reviews: Reviews,
        leagues: Leagues | None,
    ) -> None:
        """``leagues``: the club nights' leagues (a night's game's page names its league)."""
        self._games = games
        self._store = store
        self._coach = coach
        self._reviews = reviews
        self._history = DealHistory()
        self._leagues = leagues

    async def league(self, club_id: int) -> LeagueBoard | None:
        """A club's league, for its page (None: no such league)."""
        return None if self._leagues is None else await self._leagues.league_board(club_id)

    async def league_of(self, record: GameRecord) -> tuple[int, str] | None:
        """The club (and the words naming the night) a game was played for, if a night's."""
        if self._leagues is None or record.guild_id is None:
            return None
        return await self._leagues.night_of_game(record.channel_id)

    async def record(self, game_id: int) -> GameRecord | None:
        """The game as it is now (None: no such game)."""
        return await self._games.record(game_id)

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (a lobby, or a game being played), if any."""
        return await self._store.open_game_in_channel(channel_id)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The channel's latest game, open or not (None: it never had one)."""
        return await self._store.last_game_in_channel(channel_id)

    @staticmethod
    def no_game_of_its_own(record: GameRecord | None, *, bots_dm: bool) -> str | None:
        """Why the Activity's table opens no game of its own where ``record`` is the channel's
        game (None: it may open one), as the table says it and ``api/new`` answers it
        (:func:`~bot.core.messages.activity.no_game_of_its_own`)."""
        return no_game_of_its_own(record, bots_dm=bots_dm)

    async def _loaded(self, record: GameRecord | None) -> Loaded | None:
        """The started game of ``record`` (from its snapshot, or its archive once pruned)."""
        return None if record is None else await self._games.loaded.for_page(record, self._store)

    async def seen(self, record: GameRecord) -> TableSeen:
        """The game as its channel shows it now: its messages (every deal's table, the cut
        for deal above the first: :class:`~bot.core.messages.spectator.DealHistory`), its
        board, its ratings and the series it is part of (a rematch's), as the channel's own
        messages say them."""
        lines = await result_lines(self._store, record)
        loaded = await self._loaded(record)
        # Every deal's table, as the channel keeps them, not the stored log's last three.
        whole = None if loaded is None else self._history.whole(loaded)
        return table_seen(record, whole, *lines)

    async def replay(self, record: GameRecord) -> GameReplay | None:
        """The ended game told again, deal by deal (made on a worker thread: a whole game);
        None while it is played, or when it cannot be (see
        :func:`~bot.core.review.replay.replay`)."""
        loaded = await self._loaded(record)
        return None if loaded is None else await asyncio.to_thread(replay, loaded)

    async def review_pages(self, record: GameRecord) -> list[str]:
        """Every page of the review of each person's seat of a finished game, as the Discord
        review shows them to someone who did not play (made once in the worker, kept with the
        game): the summary with accuracy, the points given up and the biggest mistakes, then
        deal by deal; a seat with nothing to show (a game too old to review) has none, nor has
        the computer's (``/cribbage review`` names people alone, and the reviews made as games
        end leave it out too), and a game whose review is its players' alone (a ranked game)
        none at all."""
        if players_only(record):
            return []
        pages: list[str] = []
        for seat in record.seats:
            if seat.is_computer:
                continue
            try:
                report = await self._reviews.report(record, seat.seat)
            except Refused:
                continue  # (a game too old to review, or nothing in it to show)
            pages.extend(page_view(report, page).content for page in range(report.pages))
        return pages

    async def activity(
        self,
        record: GameRecord | None,
        readers: Sequence[int],
        *,
        html: Html,
        avatars: Mapping[int, str],
        can_open: bool,
        bots_dm: bool = False,
        page: str | None = None,
        shareable: bool = True,
    ) -> dict[int, dict[str, Any]]:
        """The Activity's table of ``record`` (None: the channel never had a game) as each of
        ``readers`` sees it (0: someone not seated), the game loaded once for them all (and
        the series it is part of, if any), each with their coach as they set it:
        :func:`~bot.core.messages.activity.activity_state` (``html``, ``avatars``,
        ``can_open``, ``bots_dm``, ``page`` and ``shareable`` as it takes them)."""
        loaded = await self._loaded(record)
        series = "" if record is None else await series_text(self._store, record)
        continues = "" if record is None else await continued_text(self._store, record)
        people = sorted({reader for reader in readers if reader})
        off = await self._coach.off(people) if people else set()
        return {
            reader: activity_state(
                record,
                loaded,
                reader,
                html=html,
                coach=reader not in off,
                avatars=avatars,
                can_open=can_open,
                bots_dm=bots_dm,
                page=page,
                shareable=shareable,
                series=series,
                continues=continues,
            )
            for reader in readers
        }
