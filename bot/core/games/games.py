"""Games as the core works on them: each changed on its own sequence, loaded, saved, announced.

Every call that may change a game goes through :class:`Games`: it is queued on the game's own
sequence (:class:`~bot.core.base.patrol.Sequences`: one task a game does its calls one at a
time, in the order they came, whether a click, a command, the turn clock, the referee or the
tournament director asked), finds the game as the call before it left it, and once the call's
engine actions are applied saves them in one transaction (the action log, the snapshot, the
version check) and publishes the change on the feed (:mod:`bot.core.base.feed`), where the
keeper, the clock and whatever else follows the games hear of it. Across processes the
version check is the guard: a save made on a copy another process moved on is refused, and
the call made again on the game as stored (:func:`bot.core.base.entry.answers`).

Rebuilding a game from its JSON snapshot costs more than the rest of an action, and a version
names exactly one state, so the most recently used games are kept by id with the version they
were saved at (:class:`LoadedGames`); a stored game at another version is read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
from collections.abc import Awaitable, Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeAlias, TypeVar

from bot.core.base import refusals
from bot.core.base.delivery import AnswerKept, MessageNews
from bot.core.base.faults import Cause, Fault, Faults, UnreadableGame
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.meters import Meters
from bot.core.base.owners import Owner, is_row_id
from bot.core.base.patrol import Sequences
from bot.core.base.places import control_refusal
from bot.core.base.recent import Newest
from bot.core.base.refusals import Refused
from bot.core.base.replies import User
from bot.core.games import archive, snapshot
from bot.core.games.computer import Step
from bot.core.games.deal_log import DealLog
from bot.core.games.endings import Ending, ended_with
from bot.core.games.membership import Departures
from bot.core.games.records import GameChange, GameRecord, GameStatus, Options, SeatRecord
from bot.core.games.results import result_rows
from bot.core.games.series import continued
from bot.core.games.storage import Archives, GameRecords
from bot.core.games.tally import Tally
from engine.coach import review_view
from engine.errors import RuleError
from engine.events import Shown
from engine.game import Game
from engine.phase import Phase

__all__ = [
    "CACHED_GAMES",
    "Games",
    "Loaded",
    "LoadedGames",
    "OnGames",
    "RngFactory",
]

#: Makes the random source for one engine call; the key ("<game id>:<version>") lets tests
#: seed every deal differently yet reproducibly.
RngFactory = Callable[[str], random.Random]

#: Games kept in memory (the rest are read from their snapshot when used).
CACHED_GAMES = 512
#: The versions last saved are kept for this many times as many games as are kept themselves
#: (a version is a few bytes; a game's objects are kilobytes).
SAVED_KEPT_PER_GAME = 4

#: Why a game that is no longer open refuses a click.
_CLOSED = {
    GameStatus.FINISHED: refusals.GAME_OVER,
    GameStatus.CANCELLED: refusals.GAME_CANCELLED,
    GameStatus.EXPIRED: refusals.GAME_EXPIRED,
}

_T = TypeVar("_T")
#: A call's work on a game, given its record on the game's sequence.
_Body: TypeAlias = Callable[[GameRecord], Awaitable[_T]]


@dataclass(slots=True)
class Loaded:
    """A started game as loaded for one call: its record, the engine state, the tally, the
    deal log, and the game's shuffles so far (the list its random source records into; None
    for a game begun before they were recorded) and their seeds (likewise; None for a game
    begun before shuffles were sealed, :mod:`bot.core.deck.seeded`)."""

    record: GameRecord
    game: Game
    tally: Tally
    log: DealLog
    shuffles: list[str] | None = None
    seeds: list[str] | None = None

    @property
    def over(self) -> bool:
        """Whether the game is over, however it ended: played out, conceded, or stopped with
        no result (cancelled or expired, its engine state left mid-deal); what the review,
        ``/cribbage verify`` and the page read to know that nothing more of it will be shown
        (a deal's crib not shown by then never will be)."""
        return self.game.state.phase is Phase.OVER or not self.record.is_open


@contextlib.contextmanager
def _about(game_id: int) -> Iterator[None]:
    """A fault met inside is about ``game_id`` (when it does not say already), for the log."""
    try:
        yield
    except Fault as fault:
        fault.about(game_id)
        raise


class LoadedGames:
    """Loads a started game for whoever asks (a call, the messages drawn, a page), and keeps
    the recently used ones by id, each at the version it was saved at."""

    def __init__(self, rng_factory: RngFactory, faults: Faults, size: int = CACHED_GAMES) -> None:
        """``faults``: where a game that cannot be drawn is noted (the games')."""
        self._rng_factory = rng_factory
        self._faults = faults
        #: Each game at its version. A version saved in this process is told as the change is
        #: saved: a game read from the store while it was being saved is of the version
        #: before, and is never kept over the one saved (alone, the kept game is taken as
        #: current: see :meth:`Games.current`).
        self._kept: Newest[int, Loaded] = Newest(size, told_kept=size * SAVED_KEPT_PER_GAME)

    def load(self, record: GameRecord) -> Loaded:
        """The game of ``record`` at its version (``record`` must be a started game).

        Raises :class:`~bot.core.base.faults.UnreadableGame` when its snapshot cannot be read."""
        kept = self._kept.at(record.id)
        if kept is not None and kept[0] == record.version:
            found = kept[1]
            return dataclasses.replace(found, record=record)
        if record.snapshot is None:
            raise ValueError(f"Game {record.id} has not started, so it has no snapshot.")
        rng = self._rng_factory(f"{record.id}:{record.version}")
        try:
            decoded = snapshot.decode(record.snapshot, rng)
        except snapshot.UnknownFormat as error:
            raise UnreadableGame(record.id, Cause.UNKNOWN_FORMAT, str(error)) from None
        except snapshot.SnapshotError as error:
            raise UnreadableGame(record.id, Cause.DAMAGED, str(error)) from None
        loaded = Loaded(
            record, decoded.game, decoded.tally, decoded.log, decoded.shuffles, decoded.seeds
        )
        self.keep(record.version, loaded)  # (unless a newer version is known)
        return loaded

    def started(self, record: GameRecord) -> Loaded:
        """The game being played, or the refusal for a lobby."""
        if record.status is GameStatus.LOBBY:
            raise Refused(refusals.NOT_STARTED)
        return self.load(record)

    def seated(self, record: GameRecord, user: User) -> tuple[Loaded, int]:
        """The started game and ``user``'s seat in it (refused for someone not seated)."""
        loaded = self.started(record)
        seat = record.seat_of(user.id)
        if seat is None:
            raise Refused(refusals.NOT_A_PLAYER)
        return loaded, seat

    def drawable(self, record: GameRecord) -> Loaded | None:
        """The game of ``record`` loaded to draw its messages (None before its deal: no
        snapshot). One whose snapshot cannot be read is noted in the games' faults (once) and
        its :class:`~bot.core.base.faults.UnreadableGame` raised: nothing of it can be drawn."""
        if record.snapshot is None:
            return None
        try:
            return self.load(record)
        except UnreadableGame as fault:
            self._faults.note(fault)
            raise

    async def for_page(self, record: GameRecord, archives: Archives) -> Loaded | None:
        """The started game of ``record``, for a page (None for a lobby, or a pruned game with
        no archive): from its snapshot, or from its archive in ``archives`` once it was pruned
        (restored on a worker thread: a whole game is replayed; not kept)."""
        if record.status is GameStatus.LOBBY:
            return None
        if record.snapshot is not None:
            return self.load(record)
        kept = await archives.archived(record.id)
        if kept is None:
            return None
        found = await asyncio.to_thread(archive.restore, kept)
        return Loaded(record, found.game, found.tally, found.log, found.shuffles, found.seeds)

    def keep(self, version: int, loaded: Loaded) -> None:
        """Remember ``loaded``'s game (with its tally, log and shuffles) as saved at
        ``version``, unless a newer version of it is known."""
        self._kept.keep(loaded.record.id, version, loaded)

    def saved(self, game_id: int, version: int) -> None:
        """A change of the game was saved at ``version`` in this process: a copy of an earlier
        version, read from the store while the change was being saved, is forgotten, and none
        is kept from now on. (Kept, a game that ended with that change was drawn as it was
        before it, for good: its table's last look and its result were never sent.)"""
        self._kept.told(game_id, version)

    def version(self, game_id: int) -> int | None:
        """The version a kept game was saved at (None when it is not kept, or is changing)."""
        return self._kept.version(game_id)

    def record(self, game_id: int) -> GameRecord | None:
        """The record of a kept game as it was saved (None when it is not kept)."""
        kept = self._kept.at(game_id)
        return None if kept is None or kept[1].record.version != kept[0] else kept[1].record

    def drop(self, game_id: int) -> None:
        """Forget a game about to change: until it is saved, its objects must not be reused."""
        self._kept.drop(game_id)


class Games:
    """Finds games, changes each on its own sequence, saves the changes, and publishes each
    saved change (a game is loaded by :attr:`loaded`, its :class:`LoadedGames`)."""

    def __init__(
        self,
        store: GameRecords,
        feed: ChangeFeed,
        news: MessageNews,
        *,
        rng_factory: RngFactory,
        clock: Callable[[], datetime],
        departures: Departures,
        meters: Meters,
        faults: Faults,
        shared: bool = False,
    ) -> None:
        """Each saved change is published on ``feed``, the ledger told first through ``news``
        of a click's answer kept with it. ``shared``: other processes move the same games
        (several processes on one PostgreSQL database): a game kept in memory is taken as it
        is only while the change feed has heard of no later version. ``meters``: where the
        moves saved are counted; ``faults``: where the faults met on games are noted."""
        self.store = store
        self.meters = meters
        self._shared = shared
        self.feed = feed
        self._news = news
        self.rng_factory = rng_factory
        self.clock = clock
        self.departures = departures
        #: Where the faults met on games are noted, once per cause and game.
        self.faults = faults
        #: The started games loaded, the recently used kept by their version.
        self.loaded = LoadedGames(rng_factory, faults=self.faults)
        # Each game's sequence: the calls that may change it, one at a time, in order.
        self._sequences: Sequences[int] = Sequences("crib-game")
        # Games with a move being applied and saved in this process right now.
        self._moving: set[int] = set()

    # -- time -------------------------------------------------------------------------------
    def now(self) -> float:
        """The time now, as a Unix time."""
        return self.clock().timestamp()

    # -- finding a game, on its sequence ----------------------------------------------------
    async def on(self, game_id: int, body: _Body[_T], *, read: GameRecord | None = None) -> _T:
        """Run ``body`` on game ``game_id``'s sequence, given the game as it is then (the
        clock's, the referee's, the director's and housekeeping's calls; a person's go through
        :meth:`in_channel` and :meth:`by_id`, which check the place too). ``read``: the game as
        the caller read it before, taken as it is if no newer version was heard of meanwhile.
        Refused (``UNKNOWN_GAME``) for a game that does not exist."""

        async def work() -> _T:
            record = await self._as_now(game_id, read)
            if record is None:
                raise Refused(refusals.UNKNOWN_GAME)
            return await body(record)

        with _about(game_id):
            return await self._sequences.run(game_id, work)

    async def _as_now(self, game_id: int, read: GameRecord | None) -> GameRecord | None:
        """On the game's sequence: the game as it is now, without a read where that is known
        (kept in memory and current, or ``read`` with no newer version heard of since)."""
        kept = self.current(game_id)
        if kept is not None and (read is None or kept.version >= read.version):
            return kept
        if read is not None and not self.feed.heard_after(game_id, read.version):
            return read
        return await self.store.get_game(game_id)

    async def as_now(self, game_id: int) -> GameRecord:
        """The game as it is now, as a call on its sequence finds it after a change it saved
        (kept in memory when current, else read)."""
        found = await self._as_now(game_id, None)
        assert found is not None  # (games are never deleted)
        return found

    async def in_channel(self, channel_id: int, body: _Body[_T]) -> _T:
        """Run ``body`` on the channel's open game, on its sequence (a game that ended while
        the call waited its turn is not the channel's any more: the channel's open game is
        looked for again)."""
        for _ in range(2):
            found = await self.store.open_game_in_channel(channel_id)
            if found is None:
                break
            ended = False

            async def work(record: GameRecord) -> _T:
                nonlocal ended
                if not record.is_open:
                    ended = True
                    raise Refused(refusals.NO_GAME)
                return await body(record)

            try:
                return await self.on(found.id, work, read=found)
            except Refused:
                if not ended:
                    raise
        raise Refused(refusals.NO_GAME)

    async def by_id(
        self,
        game_id: int,
        body: _Body[_T],
        *,
        user: User,
        guild_id: int | None,
    ) -> _T:
        """Run ``body`` on an open game found by id (a component's), on its sequence, for a
        click made in the server ``guild_id`` (None: in a DM).

        A custom id is not proof of anything: the game must exist, be of the server the click
        came from, and a click in a DM must come from someone seated there who is still a
        member of the game's server (one who left is refused, and the channel is told).
        """
        if not is_row_id(game_id):
            raise Refused(refusals.UNKNOWN_GAME)

        async def work() -> _T:
            # The game as kept in memory when it is known to be current; else read.
            kept = self.current(game_id)
            record = kept or await self.store.get_game(game_id)
            if record is None:
                raise Refused(refusals.UNKNOWN_GAME)
            try:
                return await self._on(record, body, user, guild_id)
            except (Refused, RuleError):
                if kept is None or not self._shared:
                    raise
            # Another process may have moved the game before its announcement arrived:
            # what was refused is asked again of the game as it is stored.
            return await self._on(await self.reread(game_id), body, user, guild_id)

        with _about(game_id):
            return await self._sequences.run(game_id, work)

    def current(self, game_id: int) -> GameRecord | None:
        """The game as kept in memory, if it is current: in this process alone, whenever it is
        kept (only this process moves it); with others, while the change feed has heard of no
        later version. (A save made on a stale copy fails its version check, and the call is
        made again on the game as stored: see :func:`bot.core.base.entry.answers`.)"""
        kept = self.loaded.record(game_id)
        if kept is None:
            return None
        if self._shared and self.feed.latest(Owner.game(game_id)) != kept.version:
            return None
        return kept

    async def _on(
        self,
        record: GameRecord,
        body: _Body[_T],
        user: User,
        guild_id: int | None,
    ) -> _T:
        _check_place(record, user, guild_id)
        if not record.is_open:
            raise Refused(_CLOSED[record.status])
        if guild_id is None:
            await self._check_member(record, user)
        return await body(record)

    async def check_member_by_dm(self, channel_id: int, user_id: int) -> None:
        """A command typed in the bot's DM about the game being played in ``channel_id`` (the
        one whose hand came there): refused, as a press of its hand's controls would be, for a
        player who has left its server (and the table told, once)."""
        record = await self.store.open_game_in_channel(channel_id)
        if record is not None:
            await self._check_member(record, User(user_id, ""))

    async def _check_member(self, record: GameRecord, user: User) -> None:
        """Refuse a move by DM from a player who has left the game's server, and have the
        table told, once, how the game can end."""
        seat = record.seat_of(user.id)
        if record.guild_id is None or seat is None:
            return
        if await self.departures.still_member(record.id, record.guild_id, seat, user.id):
            return
        # Nothing was saved, but the game's messages now owe the channel's notice.
        await self.announce(record, record.version)
        raise Refused(refusals.LEFT_SERVER)

    async def record(self, game_id: int) -> GameRecord | None:
        """The game as it is now: kept in memory when that is current (see :meth:`current`),
        else read (None for a game that does not exist, or an id no game can have)."""
        if not is_row_id(game_id):
            return None
        return self.current(game_id) or await self.store.get_game(game_id)

    async def reread(self, game_id: int) -> GameRecord:
        """The game as stored now (games are never deleted)."""
        found = await self.store.get_game(game_id)
        assert found is not None
        return found

    def moving(self, game_id: int) -> bool:
        """Whether a change of the game (moves, the lobby's seats, its end) is being applied
        and saved in this process now: its change follows on the feed (the ledger told first of
        the click's answer kept with it)."""
        return game_id in self._moving

    @contextlib.contextmanager
    def _saving(self, record: GameRecord) -> Iterator[None]:
        """While a change of ``record`` is applied and saved (:meth:`moving`): the keeper
        leaves the game's messages to that change, which may keep a click's answer that an
        edit made meanwhile would land before (the draw may see the change saved before this
        process hears it). A change that does not land (another process moved first) hands on
        again a change heard meanwhile, which the keeper left to it."""
        self._moving.add(record.id)
        try:
            yield
        except BaseException:
            self._moving.discard(record.id)
            owner = Owner.game(record.id)
            latest = self.feed.latest(owner)
            if latest is not None and latest > record.version:
                places = record.seating.owners(record.id)[1:]
                self.feed.publish(Change(owner, latest, record.channel_id, places=places))
            raise
        self._moving.discard(record.id)

    # -- saving -----------------------------------------------------------------------------
    async def save_moves(
        self,
        loaded: Loaded,
        steps: Sequence[Step],
        answer: Callable[[Loaded], AnswerKept | None] | None = None,
        *,
        more_coming: bool = False,
        ending: Ending | None = None,
    ) -> int:
        """Store the moves of one call (each its own log entry) in one transaction; the new
        version. The tally and the deal log take the moves' events (and the coach's lines when
        a deal was shown); a finished game gets its results in the same transaction, and a
        clicked message's new look (``answer``, drawn from the game as saved) is kept with it.
        ``more_coming``: the computer's answer follows as a change of its own. ``ending``: how
        a concession that ends the game came about (the clock, leaving, a deletion), kept with
        its result (:mod:`bot.core.games.endings`; by default a resignation, or played out).
        """
        record, game, tally, log = loaded.record, loaded.game, loaded.tally, loaded.log
        people = {seat.seat for seat in record.seats if not seat.is_computer}
        # The moves change these objects: until they are saved they must not be reused.
        self.loaded.drop(record.id)
        with self._saving(record):
            for step in steps:
                tally.add(step.events)
                log.add(step.events, version=record.version + 1)
                _coach_after_show(log, step, people)
            finished = game.state.phase is Phase.OVER
            change = GameChange(
                GameStatus.FINISHED if finished else GameStatus.ACTIVE,
                snapshot=snapshot.encode(game, tally, log, loaded.shuffles, loaded.seeds),
                actions=[json.dumps(step.action) for step in steps],
                # (A lesson is practice: no result, so no rating, stats or record of it.)
                results=result_rows(record, game, tally)
                if finished and not record.in_lesson
                else (),
                ending=ended_with(ending, game).ending if finished else None,
                series=await self._series(record) if finished else None,
            )
            now = self.now()
            saved = dataclasses.replace(
                record,
                series=change.series if finished else record.series,
                version=record.version + 1,
                updated_at=now,
                status=change.status,
                snapshot=change.snapshot,
                ending=change.ending,
            )
            answered = None if answer is None else answer(dataclasses.replace(loaded, record=saved))
            version = await self.store.save(
                record.id,
                record.version,
                change,
                now=now,
                answered=answered,
                # (Played apart, a hand is its seat's place's: its answer is kept there.)
                answered_by=None if answered is None else self.owner_of(record, answered.key),
            )
        self.faults.mended(record.id)
        as_saved = dataclasses.replace(loaded, record=saved)
        self.moves_saved(as_saved, version, len(steps), going_on=not finished)
        await self.announce(record, version, more_coming=more_coming, answered=answered)
        return version

    async def _series(self, record: GameRecord) -> int | None:
        """The series a rematch that ends now continues, if it does (decided with its result:
        :func:`bot.core.games.series.continued`)."""
        if record.rematch_of is None:
            return None
        return continued(record, await self.store.series_results(record.rematch_of))

    def moves_saved(self, loaded: Loaded, version: int, moves: int, *, going_on: bool) -> None:
        """``moves`` of the engine's actions were saved, ``loaded``'s game now at ``version``:
        a call's moves (:meth:`save_moves`), or a game opened with its first deal and the
        computer seats' discards (``bot.core.play.opening``, which the store writes as it
        opens the game). The one place every move is counted for the operator
        (``cribbage_moves_total``); the game as saved goes on from here (``going_on``: it
        is not over)."""
        self.meters.moved(moves)
        self.loaded.saved(loaded.record.id, version)
        if going_on:
            self.loaded.keep(version, loaded)

    async def reseat(
        self,
        record: GameRecord,
        seats: Sequence[SeatRecord],
        answered: AnswerKept | None = None,
        *,
        options: Options | None = None,
    ) -> GameRecord:
        """Store the lobby's new seats (and the lobby's new look, when a click on it is
        answered with it; with ``options``, the options it is now played by: the players it
        seats, its variant, target...); the game as it is now."""
        changed = None if options == record.options else options
        with self._saving(record):
            version = await self.store.set_seats(
                record.id, record.version, seats, now=self.now(), answered=answered, options=changed
            )
        self.faults.mended(record.id)
        await self.announce(record, version, answered=answered)
        return await self.reread(record.id)

    async def close(
        self,
        record: GameRecord,
        status: GameStatus,
        line: str,
        answered: AnswerKept | None = None,
        *,
        ending: Ending | None = None,
    ) -> GameRecord:
        """End a game without a result (cancelled or expired); ``line`` tells the channel;
        ``ending``: what ended it, kept when a match must know (a ranked game both clocks
        ended: :mod:`bot.core.ranked.referee`)."""
        with self._saving(record):
            version = await self.store.save(
                record.id,
                record.version,
                GameChange(status, end_note=line, ending=ending),
                now=self.now(),
                answered=answered,
            )
        self.faults.mended(record.id)
        self.loaded.saved(record.id, version)
        self.departures.forget(record.id)
        await self.announce(record, version, answered=answered)
        return await self.reread(record.id)

    @staticmethod
    def owner_of(record: GameRecord, key: MessageKey | None) -> Owner:
        """Who keeps ``record``'s message ``key``: the game, or for a game played apart the
        place of the seat whose hand it is (:mod:`bot.core.base.seating`)."""
        return record.seating.message_owner(record.id, key)

    @staticmethod
    def owner_at(record: GameRecord, seat: int | None) -> Owner:
        """Who keeps what ``seat`` is shown of ``record``'s game: the game, or for a game played
        apart that seat's place."""
        return record.seating.owner(record.id, seat)

    async def announce(
        self,
        record: GameRecord,
        version: int,
        *,
        more_coming: bool = False,
        answered: AnswerKept | None = None,
    ) -> None:
        """Publish that the game is now at ``version``, having told the ledger first of a
        click's answer kept with it, if any (for the owner of the message it answers); then
        return once no send to that message can land after the answer, which goes next
        (:meth:`MessageNews.way_clear <bot.core.base.delivery.MessageNews.way_clear>`)."""
        owner = None if answered is None else self.owner_of(record, answered.key)
        if answered is not None and owner is not None:
            self._news.answer_kept(owner, answered)
        places = record.seating.owners(record.id)[1:]
        game = Owner.game(record.id)
        self.feed.publish(Change(game, version, record.channel_id, more_coming, places))
        if answered is not None and owner is not None:
            await self._news.way_clear(owner, answered.key)


def _check_place(record: GameRecord, user: User, guild_id: int | None) -> None:
    """A control of ``record``'s game used by ``user`` in server ``guild_id`` (None: outside
    servers) is refused where :func:`~bot.core.base.places.control_refusal` says."""
    refusal = control_refusal(
        game_guild=record.guild_id,
        private=record.seating.tokens_only,
        apart=not record.seating.shared,
        seated=record.seat_of(user.id) is not None,
        guild_id=guild_id,
    )
    if refusal is not None:
        raise Refused(refusal)


def _coach_after_show(log: DealLog, step: Step, people: Collection[int]) -> None:
    """When a step ended the play and showed the deal (or, with manual counting, opened the
    show), keep the coach's line about each person's discard (``people``: their seats;
    judged from its view just before the play ended, at the scores the deal began with, as
    the seat knew it when it threw: :func:`engine.coach.review_view`; a person only ever
    sees their own)."""
    shown = any(isinstance(e, Shown) for e in step.events) or step.table.phase is Phase.SHOW
    if not shown or not step.before:
        return
    deal = next(iter(step.before.values())).deal_number
    began = log.scores_began(deal)
    lines = {}
    for seat, view in step.before.items():
        if seat not in people:
            continue  # (a computer reads no coach)
        review = review_view(view, scores=began)
        if review is not None:
            lines[seat] = review.line()
    log.set_coach(deal, lines)


class OnGames:
    """A part of the core whose calls work on :class:`Games` (``_games``, set by the
    subclass), and so note their faults where the games do."""

    _games: Games

    @property
    def faults(self) -> Faults:
        """Where the faults its calls meet are noted (the games')."""
        return self._games.faults
