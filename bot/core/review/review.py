"""The review of a game: each of a player's decisions beside the expert's, page by page.

``/cribbage review [game] [player]`` and the *Review* button on a game's result open it,
privately: a summary page (accuracy, the points given up, the biggest mistakes first), then
one page per deal (the discard and each play, with the board as the deal began). The review
itself is made in the worker process (:meth:`bot.core.worker.thinking.WorkerThinking.review`; in a
thread where there is none, as in tests), once, and kept with the game in the store; a review
of a game still going covers the deals already over and is made again when more are.

What a review may show: the reviewed player's own cards as they held them and the public
table (the count, the cards played, the starter); never another hand, the deck, or what an
opponent threw. The decisions of someone else are shown only once the game is over, and only
from deals whose crib was shown (so every card in them was seen). While a game goes on only
its players may review it, each their own decisions.

:func:`build_report` makes the pages' data (:class:`ReviewReport`) from a review, and
:func:`page_view` draws one page for Discord; a web page can draw the same report its way.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol

from bot.core.base.owners import is_row_id
from bot.core.base.places import OTHERS_RANKED, Place, Spot
from bot.core.base.refusals import Refused, nothing_to_look_up
from bot.core.base.replies import Answer, User
from bot.core.base.text import Names
from bot.core.games import archive
from bot.core.games.games import Games, Loaded
from bot.core.games.membership import Membership
from bot.core.games.records import GameRecord, GameStatus
from bot.core.games.storage import Archives
from bot.core.games.tally import counting_said
from bot.core.messages.hinting import hints_line
from bot.core.review.records import ReviewRecords, ReviewRow
from bot.core.review.report import (
    ReviewReport,
    accuracy_line,
    add_lines,
    build_report,
    page_view,
    review_caveat,
)
from bot.core.worker.review_work import ReviewRequest, make_review
from bot.core.worker.thinking import WorkerThinking
from engine.players.win_chance import holds
from engine.review import GameReview

__all__ = [
    "NOT_IN_MY_DMS",
    "NOT_IN_THIS_CONVERSATION",
    "NO_SUCH_GAME",
    "TOO_OLD",
    "ReviewStore",
    "Reviews",
    "not_found",
    "players_only",
]

log = logging.getLogger(__name__)


def players_only(record: GameRecord) -> bool:
    """Whether the review of ``record``'s game is its players' alone, wherever it is shown
    (``/cribbage review``, its page in the browser): a game played apart (ranked), each of
    whose places was its own player's and is nobody else's to see. Anyone who can see the
    place of any other game may see any player's review of it once it is over."""
    return not record.seating.shared


#: The latest reviewed games ``/cribbage stats`` adds up.
STATS_GAMES = 10

#: Where a game is found: where it was played (and a ranked game by its players anywhere).
_FOUND_WHERE_PLAYED = (
    "a game is reviewed and checked where it was played, a server's in that server and a DM's "
    "or group DM's in that conversation"
)
#: A game asked for that is not found (or not to be shown) where it was asked, by the place:
#: in a server; a DM or group DM; the bot's DM, where only a player's ranked games are found.
#: The same words whether the game exists elsewhere or not: asking for every number tells
#: nothing of the games played elsewhere.
NO_SUCH_GAME = "I can't find that game in this server."
NOT_IN_THIS_CONVERSATION = f"I can't find that game in this conversation: {_FOUND_WHERE_PLAYED}."
NOT_IN_MY_DMS = (
    "I can't find that game in my DMs, where only your ranked games are found: "
    f"{_FOUND_WHERE_PLAYED}."
)


def not_found(place: Place) -> str:
    """What a game asked for in ``place`` that is not found there is told, naming the place.

    >>> not_found(Place(Spot.THREAD, 11, guild_id=1)) == NO_SUCH_GAME
    True
    >>> not_found(Place(Spot.BOT_DM, 20)) == NOT_IN_MY_DMS
    True
    """
    if place.guild_id is not None:
        return NO_SUCH_GAME
    return NOT_IN_MY_DMS if place.spot is Spot.BOT_DM else NOT_IN_THIS_CONVERSATION


NOT_STARTED = "That game never got to the deal, so there is nothing to review."
TOO_OLD = (
    "That game began before the bot recorded its shuffles, so it can't be reviewed, and its "
    "shuffle can't be checked."
)
STILL_GOING = "That game is still going: only its players can review it before it ends."
OWN_ONLY = "While the game goes on, you can review only your own decisions."
NOT_A_PLAYER = "That person didn't play in that game."
NOTHING_YET = "Nothing to review yet: the first deal of that game isn't over."
NO_GAME_HERE = nothing_to_look_up("this channel")


class ReviewStore(ReviewRecords, Archives, Protocol):
    """What the reviews need of the store."""

    async def hints_taken(self, game_id: int) -> dict[int, int]: ...


Maker = Callable[[ReviewRequest], Awaitable[GameReview]]


class Reviews:
    """Opens reviews: finds the game and the seat, refuses what may not be shown, makes the
    review in the worker (or reads the one kept) and draws its pages."""

    def __init__(
        self,
        games: Games,
        store: ReviewStore,
        clock: Callable[[], datetime],
        thinking: WorkerThinking | None,
        sight: Membership,
    ) -> None:
        """``thinking``: the worker the reviews are made in (None: on the loop); ``sight``:
        who can see a server's channel (a game is shown to its players and to those who can
        see where it was played)."""
        self._games = games
        self._sight = sight
        self._store = store
        self._clock = clock
        self._make: Maker = (
            thinking.review
            if thinking is not None
            else lambda request: asyncio.to_thread(make_review, request)
        )
        # (game, seat) -> the review being made now, so two asking at once share it.
        self._making: dict[tuple[int, int], asyncio.Task[ReviewRow]] = {}

    async def review(
        self,
        place: Place,
        channel_id: int | None,
        user: User,
        game_id: int | None = None,
        player: User | None = None,
        page: int = 0,
    ) -> Answer:
        """The review of ``player``'s (default: the user's) decisions in game ``game_id``
        (default: the latest game in ``channel_id``: the place's, or the ranked game a player
        plays from there), asked for in ``place``, at ``page``."""
        try:
            record = await self.find(place, channel_id, game_id, viewer=user.id)
            report = await self._report(record, user, player)
        except Refused as refused:
            return Answer.refuse(str(refused))
        return Answer.say("", view=page_view(report, page))

    async def page(self, place: Place, user: User, game_id: int, seat: int, page: int) -> Answer:
        """Another page of a review already open (a Previous / Next click in ``place``): the
        click's message is updated to it. Checked again as the first page was."""
        try:
            record = await self.find(place, None, game_id, viewer=user.id)
            if not 0 <= seat < len(record.seats):
                raise Refused(NOT_A_PLAYER)
            report = await self._report(record, user, None, seat=seat)
        except Refused as refused:
            return Answer.refuse(str(refused))
        return Answer(reply=Answer.say("").reply, update=page_view(report, page))

    async def report(
        self, record: GameRecord, seat: int, viewer: User | None = None
    ) -> ReviewReport:
        """The review of ``seat`` in ``record``'s game as data, for another way of drawing it
        (a web page): as ``viewer`` may see it (None: someone who did not play). Raises
        :class:`~bot.core.base.refusals.Refused` with the sentence where it may not be shown."""
        if not 0 <= seat < len(record.seats):
            raise Refused(NOT_A_PLAYER)
        return await self._report(record, viewer or User(0, ""), None, seat=seat)

    async def review_all(self, record: GameRecord) -> bool:
        """Make and keep the final review of every person's seat in ``record``'s finished
        game (one at a time; those kept already are left as they are). False, with nothing
        made, for a game begun before shuffles were recorded (it cannot be dealt again).
        Raises :class:`~bot.core.base.faults.UnreadableGame` for a snapshot that cannot be read."""
        loaded = await self.load(record)
        if loaded.shuffles is None:
            return False
        for seat in record.seats:
            if not seat.is_computer:
                await self._row(record, loaded, seat.seat, None)
        return True

    async def stats_line(self, guild_id: int | None, user_id: int) -> str | None:
        """The accuracy line of ``/cribbage stats`` (None before any reviewed game)."""
        return accuracy_line(await self._store.review_totals(guild_id, user_id, last=STATS_GAMES))

    async def with_stats(self, answer: Answer, guild_id: int | None, user_id: int) -> Answer:
        """``/cribbage stats``'s answer with the accuracy line added (when there is one)."""
        line = await self.stats_line(guild_id, user_id)
        return add_lines(answer, [line] if line else [])

    async def find(
        self,
        place: Place,
        channel_id: int | None,
        game_id: int | None,
        *,
        viewer: int | None = None,
    ) -> GameRecord:
        """Game ``game_id`` (None: the latest game in ``channel_id``), asked for in ``place``
        by ``viewer``; raises :class:`~bot.core.base.refusals.Refused` for one that does not
        exist, is of another server than the place's, was played outside servers (a DM or
        group DM) in another conversation than the place (such a game is its conversation's,
        as a server's is its members'), or was played in a channel or thread ``viewer``
        cannot see and is not a player of: then in the very words for a game that does not
        exist there (:func:`not_found`, naming the place), so that asking for every number
        tells nothing of the games played elsewhere. A game played apart (a ranked game) is
        found for its players alone, wherever they ask (anyone else is told it is someone
        else's ranked game)."""
        store = self._games.store
        if game_id is None:
            if channel_id is None:
                raise Refused(NO_GAME_HERE)
            record = await store.last_game_in_channel(channel_id)
            if record is None:
                raise Refused(NO_GAME_HERE)
        else:
            record = await store.get_game(game_id) if is_row_id(game_id) else None
        if record is not None and players_only(record):
            # (Its players review it wherever they are.)
            if viewer is None or record.seat_of(viewer) is None:
                raise Refused(OTHERS_RANKED)
            return record
        here = place.channel_id
        if (
            record is None
            or record.guild_id != place.guild_id
            or (record.guild_id is None and record.channel_id != here)
        ):
            raise Refused(not_found(place))
        if (
            viewer is not None
            and record.guild_id is not None
            and record.channel_id != here
            and all(seat.user_id != viewer for seat in record.seats)
            and not await self._sight.sees(record.guild_id, viewer, record.channel_id)
        ):
            raise Refused(not_found(place))
        return record

    async def load(self, record: GameRecord, *, not_dealt: str = NOT_STARTED) -> Loaded:
        """The started game of ``record``, from its snapshot or its archive record; a game
        that never got to the deal (neither: a lobby, or one cancelled or expired in its
        lobby) is refused with ``not_dealt``, the caller's words for it."""
        if record.snapshot is not None:
            return self._games.loaded.load(record)
        kept = await self._store.archived(record.id)
        if kept is None:
            raise Refused(not_dealt)
        found = await asyncio.to_thread(archive.restore, kept)
        return Loaded(record, found.game, found.tally, found.log, found.shuffles, found.seeds)

    async def _report(
        self, record: GameRecord, user: User, player: User | None, *, seat: int | None = None
    ) -> ReviewReport:
        mine = next((s.seat for s in record.seats if s.user_id == user.id), None)
        if seat is None:
            if player is None or player.id == user.id:
                seat = mine
            else:
                seat = next((s.seat for s in record.seats if s.user_id == player.id), None)
                if seat is None:
                    raise Refused(NOT_A_PLAYER)
        if record.status is GameStatus.LOBBY:
            raise Refused(NOT_STARTED)
        loaded = await self.load(record)
        game = loaded.game
        over = loaded.over
        if not over:
            if mine is None:
                raise Refused(STILL_GOING)
            if seat != mine:
                raise Refused(OWN_ONLY)
        if seat is None:
            # Someone who did not play, once the game is over: the first person's decisions.
            seat = next((s.seat for s in record.seats if not s.is_computer), 0)
        if loaded.shuffles is None:
            raise Refused(TOO_OLD)
        through = None if over else game.state.deal_number - 1
        if through is not None and through < 1:
            raise Refused(NOTHING_YET)
        row = await self._row(record, loaded, seat, through)
        review = GameReview.from_dict(json.loads(row.data))
        view = game.public_view()
        names = Names.of(view)
        return build_report(
            review,
            game_id=record.id,
            seat=seat,
            player=record.seats[seat].name,
            names=names,
            sides=view.num_sides,
            side=view.sides[seat],
            options=record.options,
            final=over,
            others=seat != mine,
            sealed=loaded.seeds is not None,
            caveat=review_caveat(record),
            chances=holds(view.rules),
            hinted=hints_line(record, await self._store.hints_taken(record.id)),
            # The tally is the whole game's: said once it is over, as the review then is.
            counted=counting_said(loaded.tally.seats[seat]) if over else "",
        )

    async def _row(
        self, record: GameRecord, loaded: Loaded, seat: int, through: int | None
    ) -> ReviewRow:
        """The kept review of ``seat``, made now if none covers ``through`` (None: the
        whole game)."""
        kept = await self._store.review(record.id, seat)
        if kept is not None and (kept.final or (through is not None and kept.deals >= through)):
            return kept
        key = (record.id, seat)
        task = self._making.get(key)
        if task is None:
            task = asyncio.ensure_future(self._made(record, loaded, seat, through))
            self._making[key] = task
            task.add_done_callback(lambda done: self._made_done(key, done))
        return await asyncio.shield(task)

    def _made_done(self, key: tuple[int, int], task: asyncio.Task[ReviewRow]) -> None:
        """A review being made is done: forget it. Its failure was already given to whoever
        waited for it; one nobody waits for any more (they stopped, or the bot is stopping:
        the store closed under it) is said here, as a warning, not left unretrieved."""
        self._making.pop(key, None)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.warning("the review of game %s, seat %s, was not made: %r", *key, error)

    async def _made(
        self, record: GameRecord, loaded: Loaded, seat: int, through: int | None
    ) -> ReviewRow:
        game = loaded.game
        assert loaded.shuffles is not None
        request = ReviewRequest.of(
            game, loaded.shuffles, seat=seat, through_deal=through, seed=record.id
        )
        review = await self._make(request)
        mine = review.of(seat)
        row = ReviewRow(
            game_id=record.id,
            seat=seat,
            user_id=record.seats[seat].user_id,
            guild_id=record.guild_id,
            deals=review.deals,
            final=through is None,
            decisions=len(mine),
            accurate=sum(1 for d in mine if d.close),
            given_up=sum(d.loss for d in mine if d.unit == "points"),
            data=json.dumps(review.to_dict(), separators=(",", ":")),
            made_at=self._clock().timestamp(),
        )
        await self._store.save_review(row)
        return row
