"""The game service: every player action, from command or button, goes through here.

Each call takes the channel's lock, loads the game, validates and applies ONE engine action,
saves it (action log + snapshot + version check, one transaction) and returns an
:class:`~bot.core.replies.Outcome`: the answer to the user, and whether the game changed. The
messages a game owns (table, hands, notices) are not returned: they are a view of the stored
game (:mod:`bot.core.projection`) that the Discord layer asks for with :meth:`GameService.owed`
and brings up to date, reporting back what it sent. Nothing here imports Discord.

A call that cannot be carried out raises where that is found (:class:`Refused`, the engine's
``RuleError``, the store's ``StoreError``); :func:`_answers` turns each into the refusal the
caller sends, once, where the call is entered.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Concatenate, ParamSpec

from bot.core import archive, lobby, refusals, snapshot
from bot.core.computer import (
    DEFAULT_LEVEL,
    LEVELS,
    ComputerPlayers,
    Step,
    answers_later,
    computer_moves,
    computer_to_move,
)
from bot.core.computer import snapshot_views as views_before
from bot.core.deal_log import DealLog
from bot.core.games import Loaded, LoadedGames, RngFactory
from bot.core.membership import EveryoneStays, Membership
from bot.core.messages import MessageView, Owed, PageControls, Table
from bot.core.projection import (
    TableFacts,
    board_of,
    hand_message,
    hand_view,
    project,
    resigner,
    settled,
)
from bot.core.prompts import discard_completions, play_completions
from bot.core.records import (
    DmLink,
    GameRecord,
    GameStatus,
    MessageRecord,
    PendingPost,
    SeatRecord,
)
from bot.core.refusals import Departed, Refused
from bot.core.render.rules_help import rules_text
from bot.core.render.standings import (
    PAGE_SIZE,
    TABLE_TITLES,
    change_text,
    head_to_head_text,
    leaderboard_text,
    rank_line,
    stats_text,
)
from bot.core.render.status import last_result_text, status_text
from bot.core.render.text import card_labels, escape, plural
from bot.core.replies import Choice, Clicked, Outcome, Reply, User
from bot.core.results import result_rows
from bot.core.shuffles import RecordingRandom
from bot.core.stats import stats_pictures
from bot.core.storage import GameStore, VersionConflict
from bot.core.tally import Tally
from bot.core.thinking import WorkerThinking
from engine.cards import Card, cards_str, parse_cards
from engine.coach import review_view
from engine.counting import Counting
from engine.errors import RuleError
from engine.events import Dealt, Event, Mugginsed, Shown
from engine.game import Game
from engine.outcome import TARGETS, Scoring
from engine.phase import Phase
from engine.views import SeatView

__all__ = ["GameService", "Owing", "RngFactory"]

#: How long the table waits on a person before reminding them (a setting overrides it).
REMIND_AFTER = timedelta(seconds=60)
#: Manual counting: how long opponents may call muggins on a short claim, and how long a
#: person may take to claim before the bot counts for them (settings override both).
MUGGINS_WINDOW = timedelta(seconds=30)
COUNT_TIMEOUT = timedelta(seconds=180)
#: The most clock moves made in one look at a game (each one settles a hand, and a show has at
#: most five hands; the computer's answers come inside each).
MAX_CLOCK_MOVES = 5
#: A computer's answer left for after a person's move is made by the Discord layer once the
#: person is answered; failing that (the process died, the answer failed), by the keeper's
#: next look at the game once this long has passed since the move: by then the click's answer
#: went out or never will, so nothing edits the person's hand before its answer lands.
COMPUTER_ANSWER_AFTER = 3.0
#: Games that ended this recently are brought up to date at start-up too.
RECONCILE_ENDED = timedelta(days=1)
#: How long a user's coach setting is taken as known (in this process) before it is asked again.
COACH_CACHE_SECONDS = 60.0
#: How often a player's latest DM interaction is written down (its token lives 15 minutes).
DM_LINK_REFRESH_SECONDS = 300.0
#: Games whose messages are kept drawn (per version), for the keeper's repeated looks.
SETTLED_KEPT = 512
#: Idle games read (and ended) at a time, the loop given back between batches.
EXPIRE_BATCH = 50
#: Ended games archived and pruned at a time (one transaction each), and the most pages of
#: freed space given back to the file system after each batch.
PRUNE_BATCH = 50
PRUNE_PAGES = 2000
#: The largest game id SQLite can hold (a signed 64-bit integer): a control naming a larger
#: one was not made by this bot.
MAX_GAME_ID = 2**63 - 1

#: Why a game that is no longer open refuses a click.
_CLOSED = {
    GameStatus.FINISHED: refusals.GAME_OVER,
    GameStatus.CANCELLED: refusals.GAME_CANCELLED,
    GameStatus.EXPIRED: refusals.GAME_EXPIRED,
}

_P = ParamSpec("_P")
#: A move the clock makes in a game (closing a muggins window, counting for an idle player).
ClockMove = Callable[[Game], list[Event]]


@dataclass(frozen=True, slots=True)
class Owing:
    """What a game's messages should show now (``owed``, in sending order) beside what was
    last sent (``sent``, by key), and when to look again for a reminder falling due."""

    game_id: int
    channel_id: int
    version: int
    owed: tuple[Owed, ...]
    sent: Mapping[str, MessageRecord]
    check_at: float | None


@dataclass(frozen=True, slots=True)
class _Answering:
    """A move made from a hand message: the deal it is the hand of, and (when the caller gave
    it) the click, whose answer is kept with the move."""

    deal: int
    clicked: Clicked | None = None


def _answers(
    call: Callable[Concatenate[GameService, _P], Awaitable[Outcome]],
) -> Callable[Concatenate[GameService, _P], Awaitable[Outcome]]:
    """Where a service call is entered: a refusal raised anywhere inside it becomes the one
    sentence sent back (nothing else sent, nothing changed)."""

    @functools.wraps(call)
    async def entered(self: GameService, /, *args: _P.args, **kwargs: _P.kwargs) -> Outcome:
        try:
            try:
                return await call(self, *args, **kwargs)
            except VersionConflict:
                # Another process changed the game between this call's read and its write
                # (the channel's lock only orders the calls of this one): read it again and
                # try once more; what was asked may now be refused for what changed.
                return await call(self, *args, **kwargs)
        except Departed as refusal:
            # Refused, and the table now owes the notice that the player left.
            return Outcome(
                reply=Reply(str(refusal)),
                ok=False,
                game_id=refusal.game_id,
                channel_id=refusal.channel_id,
                changed=True,
            )
        except (Refused, RuleError) as refusal:
            return Outcome.refuse(str(refusal))

    return entered


def _parse(text: str) -> tuple[Card, ...]:
    """Cards as typed, or the refusal that says what was wrong with them."""
    try:
        return parse_cards(text)
    except ValueError as err:
        raise Refused(str(err)) from None


def _card(code: str) -> Card:
    """One card from a control's value (``"10D"``), or the refusal."""
    try:
        return Card.parse(code)
    except ValueError as err:
        raise Refused(str(err)) from None


class GameService:
    """Games of cribbage in Discord channels, one open game per channel or thread."""

    def __init__(
        self,
        store: GameStore,
        *,
        rng_factory: RngFactory,
        clock: Callable[[], datetime],
        idle_expiry: timedelta,
        computer_rng: random.Random | None = None,
        remind_after: timedelta = REMIND_AFTER,
        muggins_window: timedelta = MUGGINS_WINDOW,
        count_timeout: timedelta = COUNT_TIMEOUT,
        shared: bool = False,
        membership: Membership | None = None,
        retention: timedelta | None = None,
        thinking: WorkerThinking | None = None,
    ) -> None:
        self._store = store
        # Other processes write the same games (several shards, one PostgreSQL database): what
        # was sent of a game's messages is read from the store each time, not kept here.
        self._shared = shared
        #: How long an ended game is kept whole before it is pruned (None: for ever).
        self._retention = retention
        self._membership: Membership = membership or EveryoneStays()
        # game id -> the seats whose player is known to have left the game's server (their
        # moves by DM are refused; the channel is told once, and they get no reminders).
        self._departed: dict[int, set[int]] = {}
        self._muggins_window = muggins_window.total_seconds()
        self._count_timeout = count_timeout.total_seconds()
        # The computer's choices use their own source: a secure one unless a test injects one.
        self._computers = ComputerPlayers(computer_rng or random.SystemRandom(), thinking)
        self._remind_after = remind_after
        self._rng_factory = rng_factory
        self._clock = clock
        self._idle_expiry = idle_expiry
        # One lock per channel, dropped when no call holds it (RoboDanny's stars cog pattern).
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Game id -> channel id (which never changes), to find a click's lock without a read.
        self._channels: dict[int, int] = {}
        self._games = LoadedGames(rng_factory)
        # (game id, key) of the DMs this process said it was about to post (see posting).
        self._posting: set[tuple[int, str]] = set()
        # Games with a move being applied and saved in this process right now.
        self._moving: set[int] = set()
        # user id -> until when their DM link need not be written again.
        self._dm_linked: dict[int, float] = {}
        # Lobby messages known to be a game's (so /cribbage new's answer is stored once).
        self._lobbies_known: set[int] = set()
        # user id -> (until when, coach off?): the coach setting, asked at every move.
        self._coach_cache: dict[int, tuple[float, bool]] = {}
        # game id -> what was last sent of its messages, and its refused DMs (kept with every
        # change this process makes: it is the one that sends them).
        self._sent: OrderedDict[int, dict[str, MessageRecord]] = OrderedDict()
        self._refused: OrderedDict[int, dict[int, int]] = OrderedDict()
        # game id -> (the version and facts it was drawn for, what it owes then).
        self._settled: OrderedDict[int, tuple[object, tuple[Owed, ...]]] = OrderedDict()

    @classmethod
    def create(
        cls,
        store: GameStore,
        *,
        idle_expiry: timedelta,
        remind_after: timedelta = REMIND_AFTER,
        muggins_window: timedelta = MUGGINS_WINDOW,
        count_timeout: timedelta = COUNT_TIMEOUT,
        shared: bool = False,
        membership: Membership | None = None,
        retention: timedelta | None = None,
        thinking: WorkerThinking | None = None,
    ) -> GameService:
        """A service with real randomness and the UTC clock (what the running bot uses);
        ``shared`` when other processes of the bot use the same database; ``thinking``: where
        the levels that think at length make their plays (on the loop without)."""
        system = random.SystemRandom()
        return cls(
            store,
            rng_factory=lambda _key: system,
            clock=lambda: datetime.now(UTC),
            idle_expiry=idle_expiry,
            computer_rng=system,
            remind_after=remind_after,
            muggins_window=muggins_window,
            count_timeout=count_timeout,
            shared=shared,
            membership=membership,
            retention=retention,
            thinking=thinking,
        )

    # -- plumbing -----------------------------------------------------------------------------
    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    def _now(self) -> float:
        return self._clock().timestamp()

    async def _in_channel(
        self, channel_id: int, body: Callable[[GameRecord], Awaitable[Outcome]]
    ) -> Outcome:
        """Run ``body`` on the channel's open game, holding the channel's lock."""
        async with self._lock(channel_id):
            record = await self._store.open_game_in_channel(channel_id)
            if record is None:
                raise Refused(refusals.NO_GAME)
            return await body(record)

    async def _by_id(
        self,
        game_id: int,
        body: Callable[[GameRecord], Awaitable[Outcome]],
        *,
        user: User,
        guild_id: int | None,
    ) -> Outcome:
        """Run ``body`` on an open game found by id (a component's), holding its channel's
        lock, for a click made in the server ``guild_id`` (None: in a DM).

        A custom id is not proof of anything: the game must exist, be of the server the click
        came from, and a click in a DM must come from someone seated there who is still a
        member of the game's server.
        """
        if not 0 < game_id <= MAX_GAME_ID:
            raise Refused(refusals.UNKNOWN_GAME)
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            found = await self._store.get_game(game_id)
            if found is None:
                raise Refused(refusals.UNKNOWN_GAME)
            channel_id = self._channels[game_id] = found.channel_id
        async with self._lock(channel_id):
            # Load again under the lock: the first read only told us which lock to take.
            record = await self._store.get_game(game_id)
            assert record is not None  # games are never deleted
            _check_place(record, user, guild_id)
            if not record.is_open:
                raise Refused(_CLOSED[record.status])
            if guild_id is None:
                await self._check_member(record, user)
            return await body(record)

    async def _check_member(self, record: GameRecord, user: User) -> None:
        """Refuse a move by DM from a player who has left the game's server (and have the
        table told, once, how the game can end)."""
        seat = record.seat_of(user.id)
        if record.guild_id is None or seat is None:
            return
        departed = self._departed.setdefault(record.id, set())
        if await self._membership.is_member(record.guild_id, user.id):
            departed.discard(seat)  # back again
            return
        departed.add(seat)
        raise Departed(record.id, record.channel_id)

    def _started(self, record: GameRecord) -> Loaded:
        """The game being played, or the refusal for a lobby."""
        if record.status is GameStatus.LOBBY:
            raise Refused(refusals.NOT_STARTED)
        return self._games.load(record)

    def _seated(self, record: GameRecord, user: User) -> tuple[Loaded, int]:
        """The started game and ``user``'s seat in it."""
        loaded = self._started(record)
        seat = record.seat_of(user.id)
        if seat is None:
            raise Refused(refusals.NOT_A_PLAYER)
        return loaded, seat

    async def _save_move(
        self,
        loaded: Loaded,
        steps: Sequence[Step],
        answer: Callable[[Loaded], MessageRecord | None] | None = None,
    ) -> int:
        """Store the moves of one call (each its own log entry) in one transaction; the new
        version. The tally and the deal log take the moves' events (and the coach's lines when
        a deal was shown); a finished game gets its results in the same transaction, and a
        clicked message's new look (``answer``, drawn from the game as saved) is kept with it."""
        record, game, tally, log = loaded.record, loaded.game, loaded.tally, loaded.log
        for step in steps:
            tally.add(step.events)
            log.add(step.events)
            _coach_after_show(log, step)
        finished = game.phase is Phase.OVER
        saved = dataclasses.replace(record, version=record.version + 1)
        answered = None if answer is None else answer(dataclasses.replace(loaded, record=saved))
        version = await self._store.save(
            record.id,
            record.version,
            now=self._now(),
            status=GameStatus.FINISHED if finished else GameStatus.ACTIVE,
            snapshot=snapshot.encode(game, tally, log, loaded.shuffles),
            actions=[json.dumps(step.action) for step in steps],
            results=result_rows(record, game, tally) if finished else (),
            answered=answered,
        )
        if answered is not None and not self._shared:
            self._keep_answer(record.id, answered)
        if not finished:
            self._games.keep(version, loaded)
        return version

    # -- applying one action ------------------------------------------------------------------
    async def _apply(
        self,
        loaded: Loaded,
        act: Callable[[Game], list[Event]] | None,
        reply: Callable[[Game, Sequence[Event]], str],
        *,
        answering: _Answering | None = None,
    ) -> Outcome:
        """Apply one engine action and the computer's answers to it, save them in one
        transaction, and say what happened. ``answering``: the hand message whose control was
        used (its new look is the click's answer, kept with the move when the click is known).
        With no ``act``, only the computer's owed answers (see :meth:`computer_turn`)."""
        game, record = loaded.game, loaded.record
        seat_of_user = None
        # The players' coach settings, for the clicked hand's new look (kept a while in memory).
        people = [s.user_id for s in record.seats if s.user_id is not None]
        coach_off = await self._coach_off(people) if answering is not None else frozenset()
        # The action changes these objects: until it is saved they must not be reused, and
        # until it is answered nothing drawn before it may be sent (see moved_on).
        self._games.drop(record.id)
        self._moving.add(record.id)
        update: MessageView | None = None
        try:
            steps: list[Step] = []
            said = ""
            if act is not None:
                before = views_before(game)
                events = act(game)
                # The reply is about the person's own move, before the computer changes it.
                said = reply(game, events)
                # Every accepted discard, play or resignation adds exactly one log entry.
                steps.append(Step(game.actions[-1], events, before, game.public_view()))
                seat_of_user = _seat_of_action(steps[0])
            # A computer that thinks at length answers after the person hears of their move
            # (see computer_turn); any other answers inside the same transaction.
            computer_owes = act is not None and answers_later(record.seats, game)
            if not computer_owes:
                steps += await computer_moves(record.seats, game, self._computers)

            def answer(saved: Loaded) -> MessageRecord | None:
                nonlocal update
                if answering is None or seat_of_user is None:
                    return None
                user = record.seats[seat_of_user].user_id
                coach = user is None or user not in coach_off
                update = hand_message(saved, seat_of_user, answering.deal, coach=coach)
                return _answer_record(
                    f"hand:{answering.deal}:{seat_of_user}",
                    answering.clicked,
                    update,
                    saved.record.version,
                    self._now(),
                )

            version = await self._save_move(loaded, steps, answer)
        finally:
            self._moving.discard(record.id)
        outcome = Outcome(
            reply=Reply(said),
            game_id=record.id,
            channel_id=record.channel_id,
            changed=True,
            version=version,
            computer_owes=computer_owes,
        )
        if answering is not None and seat_of_user is not None:
            outcome.update_key = f"hand:{answering.deal}:{seat_of_user}"
            outcome.update = update
            outcome.answer_kept = answering.clicked is not None
        return outcome

    async def _coach_off(self, user_ids: Sequence[int]) -> frozenset[int]:
        """Which of these users turned the coach off (asked at every move: kept in memory,
        for a while, since a setting changes rarely)."""
        now = time.monotonic()
        missing = [u for u in user_ids if self._coach_cache.get(u, (0.0, False))[0] < now]
        if missing:
            off = await self._store.coach_off(missing)
            for user in missing:
                self._coach_cache[user] = (now + COACH_CACHE_SECONDS, user in off)
        return frozenset(u for u in user_ids if self._coach_cache[u][1])

    # -- lobby (by channel) ---------------------------------------------------------------------
    @_answers
    async def new_game(
        self,
        guild_id: int | None,
        channel_id: int,
        user: User,
        *,
        players: int = 2,
        target: int = 121,
        vs_computer: bool = False,
        difficulty: str = DEFAULT_LEVEL,
        scoring: str = Scoring.LURCH,
        counting: str = Counting.AUTO,
    ) -> Outcome:
        """Open a game in this channel with ``user`` in the first seat.

        With ``vs_computer`` every other seat is a computer player at ``difficulty`` and the
        game deals at once; otherwise a lobby opens (where the creator may add computers).
        ``scoring`` is the rule for game points (``lurch`` or ``skunk``) and ``counting`` who
        counts the show (``auto``, or ``manual``: each owner claims, with muggins).
        """
        if players not in (2, 3, 4):
            raise Refused(refusals.BAD_PLAYERS)
        if target not in TARGETS:
            raise Refused(refusals.BAD_TARGET)
        if difficulty not in LEVELS:
            raise Refused(refusals.bad_level(LEVELS))
        if scoring not in tuple(Scoring):
            raise Refused(refusals.BAD_SCORING)
        if counting not in tuple(Counting):
            raise Refused(refusals.BAD_COUNTING)
        async with self._lock(channel_id):
            if await self._store.open_game_in_channel(channel_id) is not None:
                raise Refused(refusals.CHANNEL_BUSY)
            record = await self._store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                creator=SeatRecord(0, user.id, user.name),
                num_players=players,
                target=target,
                now=self._now(),
                vs_computer=vs_computer,
                scoring=Scoring(scoring),
                counting=Counting(counting),
            )
            if vs_computer:
                seats = lobby.fill_with_computers(record, difficulty)
                record = await self._reseated(record, seats)
                await self._deal(record)
                record = await self._reloaded(record.id)
        # The answer is the lobby itself, in the channel: report its id with `answered`.
        view = lobby.lobby_view(record)
        return Outcome(
            reply=Reply(view.content, ephemeral=False, view=view),
            game_id=record.id,
            channel_id=channel_id,
            update_key="lobby",
            changed=vs_computer,
            version=record.version,
        )

    async def _reloaded(self, game_id: int) -> GameRecord:
        found = await self._store.get_game(game_id)
        assert found is not None  # games are never deleted
        return found

    async def _reseated(self, record: GameRecord, seats: Sequence[SeatRecord]) -> GameRecord:
        """Store the lobby's new seats; the game as it is now."""
        await self._store.set_seats(record.id, record.version, seats, now=self._now())
        return await self._reloaded(record.id)

    async def _seats_changed(
        self, record: GameRecord, seats: Sequence[SeatRecord], text: str
    ) -> Outcome:
        """Store the lobby's new seats; a lobby button's answer is the lobby as it is now."""
        updated = await self._reseated(record, seats)
        if len(seats) == record.num_players:
            text += " The table is full: press Start to deal."
        return _lobby_changed(updated, text)

    @_answers
    async def join(self, channel_id: int, user: User) -> Outcome:
        """Take a seat in the channel's lobby."""
        return await self._in_channel(channel_id, lambda r: self._join(r, user))

    async def _join(self, record: GameRecord, user: User) -> Outcome:
        seats = lobby.seats_joining(record, user)
        text = f"You're in: seat {len(seats)} of {record.num_players}."
        return await self._seats_changed(record, seats, text)

    async def _add_computer(self, record: GameRecord, user: User, level: str) -> Outcome:
        seats = lobby.seats_adding_computer(record, user, level)
        return await self._seats_changed(
            record, seats, f"{seats[-1].name} takes seat {len(seats)}."
        )

    async def _remove_computer(self, record: GameRecord, user: User) -> Outcome:
        seats, name = lobby.seats_removing_computer(record, user)
        return await self._seats_changed(record, seats, f"{name} left the table.")

    @_answers
    async def leave(self, channel_id: int, user: User) -> Outcome:
        """Give up a seat in the lobby (the creator leaving closes the lobby)."""
        return await self._in_channel(channel_id, lambda r: self._leave(r, user))

    async def _leave(self, record: GameRecord, user: User) -> Outcome:
        seats = lobby.seats_leaving(record, user)
        if user.id == record.creator_id:
            line = f"{escape(user.name)} left and closed the lobby."
            return await self._close(record, GameStatus.CANCELLED, line, "You left.")
        return await self._seats_changed(record, seats, "You left the game.")

    @_answers
    async def start(self, channel_id: int, user: User) -> Outcome:
        """Deal, when every seat is taken (any seated player may start)."""
        return await self._in_channel(channel_id, lambda r: self._start(r, user))

    async def _start(self, record: GameRecord, user: User) -> Outcome:
        lobby.check_start(record, user)
        await self._deal(record)
        return _lobby_changed(
            await self._reloaded(record.id), "Dealing — your hand is on its way by DM."
        )

    async def _deal(self, record: GameRecord) -> None:
        """Cut for deal and deal the first hand of a full lobby (lock held). Every shuffle of
        the game is recorded from here on, so that it can be replayed once it is over."""
        shuffles: list[str] = []
        rng = RecordingRandom(self._rng_factory(f"{record.id}:{record.version}"), shuffles)
        game, events = Game.new(
            [s.name for s in record.seats],
            target=record.target,
            rng=rng,
            scoring=record.scoring,
            counting=record.counting,
        )
        tally = Tally.empty(record.num_players)
        tally.add(events)
        log = DealLog.start(game.num_sides)
        log.add(events)
        # The computer seats discard at once; each discard is logged like a person's.
        steps = await computer_moves(record.seats, game, self._computers)
        await self._save_move(Loaded(record, game, tally, log, shuffles), steps)

    @_answers
    async def cancel(self, channel_id: int, user: User, *, moderator: bool = False) -> Outcome:
        """End the game with no result: in the lobby its creator or a moderator may; once the
        cards are dealt only a moderator (a player who wants out resigns, which is a loss)."""
        return await self._in_channel(channel_id, lambda r: self._cancel(r, user, moderator))

    async def _cancel(self, record: GameRecord, user: User, moderator: bool) -> Outcome:
        if not moderator:
            # Cancelling records no result: after the deal that would let someone who is
            # losing (against the computer too) walk away from the loss.
            if record.status is not GameStatus.LOBBY:
                if record.seat_of(user.id) is None:
                    raise Refused(refusals.CANCEL_DEALT_NOT_PLAYING)
                raise Refused(refusals.CANCEL_DEALT)
            if user.id != record.creator_id:
                raise Refused(refusals.CANCEL_CREATOR)
        return await self._close(
            record,
            GameStatus.CANCELLED,
            f"{escape(user.name)} cancelled the game. No result is recorded.",
            "Game cancelled.",
        )

    async def _close(
        self, record: GameRecord, status: GameStatus, line: str, reply: str
    ) -> Outcome:
        """End a game without a result (cancelled or expired); ``line`` tells the channel."""
        await self._store.save(
            record.id, record.version, now=self._now(), status=status, end_note=line
        )
        return _lobby_changed(await self._reloaded(record.id), reply)

    # -- the game (by channel) ----------------------------------------------------------------
    @_answers
    async def resign(self, channel_id: int, user: User) -> Outcome:
        """Concede: the other side wins; counts as a loss."""
        return await self._in_channel(channel_id, lambda r: self._resign(r, user))

    async def _resign(self, record: GameRecord, user: User) -> Outcome:
        loaded, seat = self._seated(record, user)
        return await self._apply(loaded, lambda g: g.resign(seat), lambda g, e: "You resigned.")

    @_answers
    async def discard(self, channel_id: int, user: User, cards: str | Sequence[Card]) -> Outcome:
        """Put cards in the crib (text as typed, e.g. ``"5H JD"``, or cards)."""
        return await self._in_channel(channel_id, lambda r: self._discard(r, user, cards))

    async def _discard(
        self,
        record: GameRecord,
        user: User,
        cards: str | Sequence[Card],
        *,
        answering: _Answering | None = None,
    ) -> Outcome:
        loaded, seat = self._seated(record, user)
        chosen = _parse(cards) if isinstance(cards, str) else tuple(cards)

        def reply(game: Game, events: Sequence[Event]) -> str:
            said = f"You put {card_labels(chosen)} in the crib."
            if _new_deal(game, events):
                return said
            return f"{said} You keep {cards_str(game.view(seat).kept)}."

        return await self._apply(
            loaded, lambda g: g.discard(seat, chosen), reply, answering=answering
        )

    @_answers
    async def play(self, channel_id: int, user: User, card: str | Card) -> Outcome:
        """Play one card in the play."""
        return await self._in_channel(channel_id, lambda r: self._play(r, user, card))

    async def _play(
        self,
        record: GameRecord,
        user: User,
        card: str | Card,
        *,
        answering: _Answering | None = None,
    ) -> Outcome:
        loaded, seat = self._seated(record, user)
        if isinstance(card, str):
            parsed = _parse(card)
            if len(parsed) != 1:
                raise Refused(refusals.ONE_CARD)
            card = parsed[0]
        chosen = card

        def reply(game: Game, events: Sequence[Event]) -> str:
            left = () if _new_deal(game, events) else game.view(seat).hand
            rest = f" You hold {cards_str(left)}." if left else ""
            return f"You played {chosen}.{rest}"

        return await self._apply(loaded, lambda g: g.play(seat, chosen), reply, answering=answering)

    @_answers
    async def count(self, channel_id: int, user: User, points: int) -> Outcome:
        """Manual counting: claim ``points`` for the hand (or crib) you must count now."""
        return await self._in_channel(channel_id, lambda r: self._count(r, user, points))

    async def _count(
        self,
        record: GameRecord,
        user: User,
        points: int,
        *,
        answering: _Answering | None = None,
    ) -> Outcome:
        loaded, seat = self._seated(record, user)
        if loaded.game.counting is not Counting.MANUAL:
            raise Refused(refusals.AUTO_COUNTING)
        return await self._apply(
            loaded,
            lambda g: g.claim(seat, points),
            lambda g, e: f"You claimed {points}.",
            answering=answering,
        )

    async def _muggins(self, record: GameRecord, user: User, answering: _Answering) -> Outcome:
        loaded, seat = self._seated(record, user)

        def reply(game: Game, events: Sequence[Event]) -> str:
            taken = next(e for e in events if isinstance(e, Mugginsed))
            return f"Muggins! You take {plural(taken.points, 'point')}."

        return await self._apply(loaded, lambda g: g.muggins(seat), reply, answering=answering)

    def _clock_move(self, record: GameRecord, game: Game) -> tuple[float, ClockMove] | None:
        """The move the clock makes at a manual show, and when: closing the muggins window on
        a short claim, or counting the hand of a person who has not claimed in time."""
        if record.status is not GameStatus.ACTIVE or game.phase is not Phase.SHOW:
            return None
        window = game.muggins_window
        if window is not None:
            owner = window.seat
            return record.updated_at + self._muggins_window, lambda g: g.close_muggins(owner)
        turn = game.count_turn
        if turn is None or record.seats[turn.seat].is_computer:
            return None
        seat = turn.seat
        return record.updated_at + self._count_timeout, lambda g: g.auto_count(seat)

    async def computer_turn(self, game_id: int) -> None:
        """Make the moves the computer seats owe in a game: the answer to a person's move that
        was left for after the person was answered (``Outcome.computer_owes``), saved in its
        own transaction. Nothing when none is owed (another call made it first)."""
        record = await self._store.get_game(game_id)
        if record is not None:
            await self._computer_answers(record, self._now(), wait=False)

    async def _computer_answers(
        self, record: GameRecord, now: float, *, wait: bool = True
    ) -> tuple[GameRecord, float | None]:
        """Make the computer's owed moves in ``record``'s game; the game as it is then, and
        (``wait``: the keeper looking, not the Discord layer right after the answer) when to
        look again if the move is so recent that its answer may still be on its way."""
        if record.status is not GameStatus.ACTIVE or record.snapshot is None:
            return record, None
        if not any(seat.is_computer for seat in record.seats):
            return record, None
        if not computer_to_move(record.seats, self._games.load(record).game):
            return record, None
        if wait and now < record.updated_at + COMPUTER_ANSWER_AFTER:
            return record, record.updated_at + COMPUTER_ANSWER_AFTER
        async with self._lock(record.channel_id):
            record = await self._reloaded(record.id)
            if record.status is not GameStatus.ACTIVE or record.snapshot is None:
                return record, None
            loaded = self._games.load(record)
            if not computer_to_move(record.seats, loaded.game):
                return record, None
            await self._apply(loaded, None, lambda g, e: "")
            return await self._reloaded(record.id), None

    async def _clock_moves(self, record: GameRecord, now: float) -> tuple[GameRecord, float | None]:
        """Make the clock's moves of a manual show that are due (each under the channel's
        lock, the computer answering as after any move): the game as it is then, and when the
        next move falls due, if any."""
        for _ in range(2 * MAX_CLOCK_MOVES):
            if record.counting is not Counting.MANUAL or record.snapshot is None:
                return record, None
            due = self._clock_move(record, self._games.load(record).game)
            if due is None or due[0] > now:
                return record, None if due is None else due[0]
            async with self._lock(record.channel_id):
                record = await self._reloaded(record.id)
                if record.snapshot is None:
                    continue
                loaded = self._games.load(record)
                due = self._clock_move(record, loaded.game)
                if due is not None and due[0] <= now:
                    await self._apply(loaded, due[1], lambda g, e: "")
                    record = await self._reloaded(record.id)
        return record, None

    @_answers
    async def hand(self, channel_id: int, user: User) -> Outcome:
        """The user's hand, privately, with the controls for what they can do now."""
        return await self._in_channel(channel_id, lambda r: self._hand(r, user))

    async def _hand(self, record: GameRecord, user: User) -> Outcome:
        loaded, seat = self._seated(record, user)
        view = hand_view(loaded, seat, coach=user.id not in await self._coach_off([user.id]))
        return Outcome(
            reply=Reply(view.content, ephemeral=True, view=view),
            game_id=record.id,
            channel_id=record.channel_id,
        )

    @_answers
    async def status(self, channel_id: int, *, public: bool = False) -> Outcome:
        """The table: the board picture, dealer, phase, turn, count and series; privately
        unless ``public``."""
        async with self._lock(channel_id):
            record = await self._store.open_game_in_channel(channel_id)
            if record is None:
                record = await self._store.last_game_in_channel(channel_id)
        if record is None or record.status in (GameStatus.CANCELLED, GameStatus.EXPIRED):
            raise Refused(refusals.NO_GAME)
        if record.status is GameStatus.LOBBY:
            view = lobby.lobby_view(record)
            view = MessageView(view.content)
        else:
            loaded = await self._finished_or_loaded(record)
            table = loaded.game.public_view()
            if record.status is GameStatus.FINISHED:
                text = last_result_text(table, resigner(loaded.game))
            else:
                text = status_text(table)
            view = MessageView(text, board=board_of(loaded.log, table))
        return Outcome(
            reply=Reply(view.content, ephemeral=not public, view=view),
            game_id=record.id,
            channel_id=channel_id,
        )

    async def _finished_or_loaded(self, record: GameRecord) -> Loaded:
        """The game of ``record``: from its snapshot, or, for a game pruned since it finished,
        replayed from its archive record (on a worker thread: a replay is a whole game)."""
        if record.snapshot is not None:
            return self._games.load(record)
        kept = await self._store.archived(record.id)
        if kept is None:
            raise Refused(refusals.NO_GAME)
        found = await asyncio.to_thread(archive.restore, kept)
        return Loaded(record, found.game, found.tally, found.log, found.shuffles)

    # -- components (by game id) ----------------------------------------------------------------
    # Each takes ``guild_id``, the server the click was made in (None: a DM), which must be
    # the game's own (see :meth:`_by_id`).

    @_answers
    async def click_lobby(
        self,
        game_id: int,
        button: str,
        user: User,
        *,
        guild_id: int | None,
        moderator: bool = False,
    ) -> Outcome:
        """A lobby control: ``"join"``, ``"leave"``, ``"start"``, ``"cancel"``,
        ``"remove_computer"``, or ``"computer:<level>"`` from the "Add computer" menu."""
        actions: dict[str, Callable[[GameRecord], Awaitable[Outcome]]] = {
            "join": lambda r: self._join(r, user),
            "leave": lambda r: self._leave(r, user),
            "start": lambda r: self._start(r, user),
            "cancel": lambda r: self._cancel(r, user, moderator),
            "remove_computer": lambda r: self._remove_computer(r, user),
        }
        for level in LEVELS:
            actions[f"computer:{level}"] = functools.partial(
                self._add_computer, user=user, level=level
            )
        body = actions.get(button)
        if body is None:
            raise Refused(refusals.UNKNOWN_BUTTON)
        return await self._by_id(game_id, body, user=user, guild_id=guild_id)

    @_answers
    async def click_discard(
        self,
        game_id: int,
        stamp: int,
        user: User,
        codes: Sequence[str],
        clicked: Clicked | None = None,
        *,
        guild_id: int | None,
    ) -> Outcome:
        """The discard select menu of a prompt (``codes`` are the selected card codes;
        ``clicked``: the message and the click, whose answer is kept with the move)."""

        async def body(record: GameRecord) -> Outcome:
            if stamp != self._started(record).game.deal_number:
                raise Refused(refusals.STALE_DISCARD)
            cards = [_card(code) for code in codes]
            return await self._discard(record, user, cards, answering=_Answering(stamp, clicked))

        return await self._by_id(game_id, body, user=user, guild_id=guild_id)

    @_answers
    async def click_play(
        self,
        game_id: int,
        stamp: int,
        user: User,
        code: str,
        clicked: Clicked | None = None,
        *,
        guild_id: int | None,
    ) -> Outcome:
        """A card button of a play prompt."""

        async def body(record: GameRecord) -> Outcome:
            if record.status is GameStatus.LOBBY:
                raise Refused(refusals.NOT_STARTED)
            if stamp != record.version:
                raise Refused(refusals.STALE_PLAY)
            deal = self._started(record).game.deal_number
            return await self._play(record, user, _card(code), answering=_Answering(deal, clicked))

        return await self._by_id(game_id, body, user=user, guild_id=guild_id)

    @_answers
    async def click_count(
        self,
        game_id: int,
        stamp: int,
        user: User,
        value: str,
        clicked: Clicked | None = None,
        *,
        guild_id: int | None,
    ) -> Outcome:
        """A count select of a hand message (manual counting): claim the chosen value."""

        async def body(record: GameRecord) -> Outcome:
            if stamp != record.version:
                raise Refused(refusals.STALE_COUNT)
            if not value.isdecimal():
                raise Refused(refusals.BAD_COUNT)
            deal = self._started(record).game.deal_number
            return await self._count(record, user, int(value), answering=_Answering(deal, clicked))

        return await self._by_id(game_id, body, user=user, guild_id=guild_id)

    @_answers
    async def click_muggins(
        self,
        game_id: int,
        stamp: int,
        user: User,
        clicked: Clicked | None = None,
        *,
        guild_id: int | None,
    ) -> Outcome:
        """The Muggins! button of a hand message: take the points a short claim missed."""

        async def body(record: GameRecord) -> Outcome:
            if stamp != record.version:
                raise Refused(refusals.STALE_MUGGINS)
            deal = self._started(record).game.deal_number
            return await self._muggins(record, user, _Answering(deal, clicked))

        return await self._by_id(game_id, body, user=user, guild_id=guild_id)

    # -- the messages a game owns (for the Discord layer) -------------------------------------
    async def owed(self, game_id: int, now: float | None = None) -> Owing | None:
        """What every message of the game should show now, beside what was last sent (None
        for a game that does not exist). At a manual show the clock's moves are made first
        when due (see :meth:`_clock_moves`), and the next one is when to look again."""
        moment = self._now() if now is None else now
        record = await self._store.get_game(game_id)
        if record is None or self._pruned(record, moment):
            return None
        record, next_move = await self._clock_moves(record, moment)
        record, computer_due = await self._computer_answers(record, moment)
        loaded = None if record.snapshot is None else self._games.load(record)
        people = [s.user_id for s in record.seats if s.user_id is not None]
        facts = TableFacts(
            refused=await self._refusals(game_id),
            coach_off=await self._coach_off(people),
            now=moment,
            remind_after=self._remind_after.total_seconds(),
            departed=frozenset(self._departed.get(game_id, ())),
        )
        ratings = await self._ratings_line(record)
        found = project(record, loaded, facts, self._settled_for(record, loaded, facts, ratings))
        sent = dict(await self._sent_of(game_id))
        if await self._reminded_gone(record, found.owed, sent):
            # Someone the table waits on has left the server: no reminder for them, and the
            # channel is told how the game can end instead.
            facts = dataclasses.replace(facts, departed=frozenset(self._departed.get(game_id, ())))
            drawn = self._settled_for(record, loaded, facts, ratings)
            found = project(record, loaded, facts, drawn)
        times = [t for t in (found.check_at, next_move, computer_due) if t is not None]
        check_at = min(times) if times else None
        return Owing(game_id, record.channel_id, record.version, found.owed, sent, check_at)

    async def _reminded_gone(
        self, record: GameRecord, owed: Sequence[Owed], sent: Mapping[str, MessageRecord]
    ) -> bool:
        """Before a turn reminder goes out, whether the player it is for has left the game's
        server (then they are marked departed): the moment the table has waited on them long
        enough to ask, and the one time a player who left silently is found out."""
        if record.guild_id is None or record.status is not GameStatus.ACTIVE:
            return False
        found = False
        for item in owed:
            if not item.key.startswith(("remind:", "away:")) or not item.due(sent.get(item.key)):
                continue
            seat = int(item.key.rsplit(":", 1)[1])
            user = record.seats[seat].user_id
            if user is not None and not await self._membership.is_member(record.guild_id, user):
                self._departed.setdefault(record.id, set()).add(seat)
                found = True
        return found

    async def _sent_of(self, game_id: int) -> dict[str, MessageRecord]:
        """What was last sent of a game's messages, read once and then kept with every send
        (this process is the one that sends them; with other processes answering clicks on
        them, it is read every time)."""
        if self._shared:
            return await self._store.messages(game_id)
        sent = self._sent.get(game_id)
        if sent is None:
            sent = await self._store.messages(game_id)
            self._sent[game_id] = sent
            while len(self._sent) > SETTLED_KEPT:
                self._sent.popitem(last=False)
        self._sent.move_to_end(game_id)
        return sent

    async def _refusals(self, game_id: int) -> dict[int, int]:
        """Seat -> the deal its DMs were refused in, read once and then kept up to date (read
        every time when other processes may learn of a refusal)."""
        if self._shared:
            return await self._store.dm_refusals(game_id)
        refused = self._refused.get(game_id)
        if refused is None:
            refused = await self._store.dm_refusals(game_id)
            self._refused[game_id] = refused
            while len(self._refused) > SETTLED_KEPT:
                self._refused.popitem(last=False)
        self._refused.move_to_end(game_id)
        return refused

    async def _ratings_line(self, record: GameRecord) -> str:
        """For a finished game, each person's new rating and its change: "Ratings: Al 1,512
        (+18) · Bea 988 (−18)" (empty for any other game)."""
        if record.status is not GameStatus.FINISHED:
            return ""
        names = {s.seat: s.name for s in record.seats if not s.is_computer}
        changes = [
            f"{escape(names[c.seat])} {change_text(c.ordinal_before, c.ordinal_after)}"
            for c in await self._store.game_rating_changes(record.id)
            if c.seat in names
        ]
        return f"Ratings: {' · '.join(changes)}" if changes else ""

    def _settled_for(
        self, record: GameRecord, loaded: Loaded | None, facts: TableFacts, ratings: str = ""
    ) -> tuple[Owed, ...]:
        """The game's messages but the reminders, drawn once per version (and refusals, coach
        settings and departures): the keeper looks at a game several times for each move."""
        key = (
            record.version,
            record.status,
            tuple(sorted(facts.refused.items())),
            facts.coach_off,
            facts.departed,
        )
        kept = self._settled.get(record.id)
        if kept is not None and kept[0] == key:
            self._settled.move_to_end(record.id)
            return kept[1]
        drawn = settled(
            record, loaded, facts.refused, facts.coach_off, ratings, departed=facts.departed
        )
        self._settled[record.id] = (key, drawn)
        while len(self._settled) > SETTLED_KEPT:
            self._settled.popitem(last=False)
        return drawn

    async def moved_on(self, owing: Owing) -> bool:
        """Whether the game has changed since ``owing`` was drawn, or is changing now in this
        process: then what it owes is stale, draw it again. Alone, this process knows from the
        games it keeps loaded; with other processes moving the same games, it asks the store."""
        if owing.game_id in self._moving:
            return True
        if self._shared:
            current = await self._store.game_version(owing.game_id)
            return current is not None and current != owing.version
        known = self._games.version(owing.game_id)
        return known is not None and known != owing.version

    async def sent(self, game_id: int, message: MessageRecord) -> None:
        """A message of the game was sent or edited as ``message`` says."""
        pending = (game_id, message.key) in self._posting
        self._posting.discard((game_id, message.key))
        await self._store.set_message(game_id, message, was_pending=pending)
        if not self._shared:
            sent = await self._sent_of(game_id)
            known = sent.get(message.key)
            if (
                known is None
                or known.version <= message.version
                or (known.message_id != message.message_id)
            ):
                sent[message.key] = message

    async def answered(
        self,
        game_id: int,
        key: str,
        channel_id: int,
        message_id: int,
        view: MessageView,
        token: str,
        *,
        version: int,
    ) -> None:
        """An interaction on a game's message was answered by updating it to ``view``, the
        game as it was at ``version`` (or
        ``/cribbage new`` by posting the lobby): remember what it shows, and the interaction's
        token, which may edit it again for free for 15 minutes (as its original response), if
        it is the message the game keeps under ``key`` (a copy shown privately by ``/cribbage
        hand`` is not)."""
        at = self._now()
        if key == "lobby" and message_id not in self._lobbies_known:
            # /cribbage new's answer becomes the game's lobby message.
            self._lobbies_known.add(message_id)
            record = MessageRecord(
                key, channel_id, message_id, view.digest(), token, at, True, version
            )
            await self._store.set_message(game_id, record)
            (await self._sent_of(game_id))[key] = record
            return
        sent = await self._sent_of(game_id)
        known = sent.get(key)
        if known is None or known.message_id != message_id:
            return  # a private copy (from /cribbage hand), not the game's message
        await self._store.set_answered(
            game_id, key, message_id, view.digest(), token, at, version=version
        )
        if known.version <= version:
            sent[key] = dataclasses.replace(
                known,
                digest=view.digest(),
                token=token,
                token_at=at,
                original=True,
                version=version,
            )

    def _keep_answer(self, game_id: int, record: MessageRecord) -> None:
        """What a click's answer made the game's message show, in this process's memory of
        what was sent (if it is the message the game keeps: not a private copy)."""
        sent = self._sent.get(game_id)
        known = None if sent is None else sent.get(record.key)
        if (
            sent is not None
            and known is not None
            and known.message_id == record.message_id
            and known.version <= record.version
        ):
            sent[record.key] = record

    async def unanswered(self, game_id: int, key: str, version: int) -> None:
        """The click's answer kept with a move never reached Discord: what the message shows
        is not known, so the keeper edits it again."""
        await self._store.forget_look(game_id, key, version)
        if not self._shared:
            known = (await self._sent_of(game_id)).get(key)
            if known is not None and known.version == version:
                self._sent[game_id][key] = dataclasses.replace(known, digest="")

    async def gone(self, game_id: int, key: str) -> None:
        """A message of the game is gone from Discord (someone deleted it): send it again."""
        await self._store.forget_message(game_id, key)
        if not self._shared:
            (await self._sent_of(game_id)).pop(key, None)

    async def dms_refused(self, game_id: int, user_id: int) -> None:
        """Discord refused a DM to this player: no more DMs to them this deal; the channel is
        told once (the game's projection says so from now on)."""
        record = await self._store.get_game(game_id)
        seat = None if record is None else record.seat_of(user_id)
        if record is None or seat is None or record.snapshot is None:
            return
        deal = self._games.load(record).game.deal_number
        await self._store.refuse_dms(game_id, seat, deal)
        (await self._refusals(game_id))[seat] = deal

    async def kept(self, game_id: int) -> dict[str, MessageRecord]:
        """The game's messages as last sent, by key."""
        return dict(await self._sent_of(game_id))

    async def posting(self, game_id: int, key: str, channel_id: int) -> None:
        """A DM of the game is about to be posted in a way that cannot be made idempotent (an
        interaction's follow-up): remembered until :meth:`sent` keeps its id, so a start after
        a crash in between looks for it (:meth:`pending_posts`)."""
        await self._store.set_pending(game_id, PendingPost(key, channel_id, self._now()))
        self._posting.add((game_id, key))

    async def pending_posts(self, game_id: int) -> list[PendingPost]:
        """The game's DMs that were about to be posted when the last process died."""
        return await self._store.pending_posts(game_id)

    async def looked_for(self, game_id: int, key: str) -> None:
        """A pending post was looked for (and kept, if found): forget it."""
        await self._store.clear_pending(game_id, key)

    async def dm_link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known."""
        return await self._store.dm_link(user_id)

    async def dm_linked(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there). A click
        refreshes it at most every few minutes: a token lives 15, and this is asked often."""
        now = time.monotonic()
        if link.token is not None:
            if self._dm_linked.get(link.user_id, 0.0) > now:
                return
            self._dm_linked[link.user_id] = now + DM_LINK_REFRESH_SECONDS
        await self._store.set_dm_link(link)

    async def games_to_reconcile(self) -> list[tuple[int, int]]:
        """(game id, channel id) of every lobby and active game, and of every game that ended
        in the last day (its last messages may be owed): what start-up brings up to date."""
        since = (self._clock() - RECONCILE_ENDED).timestamp()
        return [(g.id, g.channel_id) for g in await self._store.recent_games(since)]

    # -- autocomplete -------------------------------------------------------------------------
    async def _seat_view(self, channel_id: int, user_id: int) -> SeatView | None:
        record = await self._store.open_game_in_channel(channel_id)
        if record is None or record.status is not GameStatus.ACTIVE:
            return None
        seat = record.seat_of(user_id)
        if seat is None:
            return None
        return self._games.load(record).game.view(seat)

    async def autocomplete_discard(
        self, channel_id: int, user_id: int, current: str
    ) -> list[Choice]:
        """The user's cards matching what they typed (empty when they have nothing to discard).

        Cards already typed in full stay in front, so ``"5H J"`` offers ``"5H JD"``,
        ``"5H JC"`` and so on.
        """
        view = await self._seat_view(channel_id, user_id)
        return [] if view is None else discard_completions(view, current)

    async def autocomplete_play(self, channel_id: int, user_id: int, current: str) -> list[Choice]:
        """Only the cards the user may legally play now (empty when it is not their turn)."""
        view = await self._seat_view(channel_id, user_id)
        return [] if view is None else play_completions(view, current)

    # -- server-wide --------------------------------------------------------------------------
    async def leaderboard(
        self, guild_id: int | None, *, table: Table = "people", page: int = 0
    ) -> Outcome:
        """One page of the server's standings by rating: ``table`` ``people`` (games between
        people) or ``computer`` (games with a computer seat, each level a rated player). The
        page is both the reply and, for its buttons, the clicked message's new look."""
        if table not in TABLE_TITLES:
            raise Refused(refusals.UNKNOWN_BUTTON)
        vs_computer = table == "computer"
        total, rows = await self._store.ranking(
            guild_id, vs_computer=vs_computer, offset=max(page, 0) * PAGE_SIZE, limit=PAGE_SIZE
        )
        pages = max(1, -(-total // PAGE_SIZE))
        if page >= pages or page < 0:
            # A page that is gone (a button from an older, longer table): the last one.
            page = min(max(page, 0), pages - 1)
            total, rows = await self._store.ranking(
                guild_id, vs_computer=vs_computer, offset=page * PAGE_SIZE, limit=PAGE_SIZE
            )
        view = MessageView(
            leaderboard_text(table, total, rows, page), pages=PageControls(table, page, pages)
        )
        return Outcome(reply=Reply(view.content, ephemeral=False, view=view), update=view)

    async def coach(self, user: User, on: bool | None = None) -> Outcome:
        """Turn the coach's after-show DMs on or off for ``user``; None just says which."""
        if on is None:
            off = user.id in await self._coach_off([user.id])
            state = "off" if off else "on"
            return Outcome(
                reply=Reply(
                    f"The coach is {state} for you. After each show it DMs you one line about "
                    "your discard. Change it with `/cribbage coach on` or `off`."
                )
            )
        await self._store.set_coach(user.id, on, now=self._now())
        self._coach_cache.pop(user.id, None)
        if on:
            return Outcome(
                reply=Reply("Coach on: after each show I'll DM you a line about your discard.")
            )
        return Outcome(reply=Reply("Coach off: no more lines about your discards."))

    @_answers
    async def stats(self, guild_id: int | None, user: User, against: User | None = None) -> Outcome:
        """One player's record on this server: rating and rank in each table, totals, best
        hands and two charts; with ``against``, their head to head with that player."""
        if against is not None:
            if against.id == user.id:
                raise Refused(refusals.AGAINST_SELF)
            rival = await self._store.rival(guild_id, user.id, against.id)
            text = head_to_head_text(user.name, against.name, rival)
            return Outcome(reply=Reply(text, ephemeral=False))
        ranked = await self._store.standing(guild_id, user.id)
        if not ranked:
            text = stats_text(user.name, None, None)
            return Outcome(reply=Reply(text, ephemeral=False))
        levels = await self._store.levels(guild_id) if True in ranked else []
        ranks = (
            rank_line(ranked[False]) if False in ranked else None,
            rank_line(ranked[True], levels) if True in ranked else None,
        )
        found = await self._store.player_stats(guild_id, user.id)
        best = await self._store.best_hands(guild_id, user.id)
        text = stats_text(user.name, found.get(False), found.get(True), ranks, best)
        # The chart is of the people's table, or the computer's for those who only play it.
        vs_computer = False not in ranked
        standing = ranked[vs_computer].standing
        history = await self._store.rating_history(guild_id, user.id, vs_computer=vs_computer)
        server = await self._store.server_points(guild_id)
        pictures = await asyncio.to_thread(stats_pictures, user.name, standing, history, server)
        view = MessageView(text, pictures=pictures)
        return Outcome(reply=Reply(text, ephemeral=False, view=view))

    def rules(self, topic: str | None = None) -> Outcome:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        return Outcome(reply=Reply(rules_text(topic), ephemeral=True))

    async def expire_idle(
        self,
        now: datetime | None = None,
        *,
        on_expired: Callable[[Outcome], None] | None = None,
    ) -> list[Outcome]:
        """End every game idle longer than the expiry (no stats); one outcome per game, each
        also handed to ``on_expired`` as it is made (so its messages can go out meanwhile).

        The idle games are read :data:`EXPIRE_BATCH` at a time and the loop is given back
        between batches: one pass over thousands of games never holds it for long (every
        server's interactions wait while it is held).
        """
        moment = now if now is not None else self._clock()
        cutoff = (moment - self._idle_expiry).timestamp()
        days = self._idle_expiry / timedelta(days=1)
        said = f"{days:g} day" + ("" if days == 1 else "s")
        line = f"Nobody moved in this game for {said}, so it has ended. No result is recorded."
        outcomes: list[Outcome] = []
        after = 0
        while batch := await self._store.idle_games(cutoff, after=after, limit=EXPIRE_BATCH):
            after = batch[-1].id
            for stale in batch:
                outcome = await self._expire(stale, cutoff, line)
                if outcome is not None:
                    outcomes.append(outcome)
                    if on_expired is not None:
                        on_expired(outcome)
            await asyncio.sleep(0)
        return outcomes

    def _pruned(self, record: GameRecord, now: float) -> bool:
        """Whether ``record`` ended before the retention period (so it is, or is about to be,
        pruned: nothing of it is drawn or sent any more)."""
        if self._retention is None or record.is_open:
            return False
        return record.updated_at < now - self._retention.total_seconds()

    async def prune(self, now: datetime | None = None) -> int:
        """Prune every game that ended longer ago than the retention period: keep its results
        and one archive record that replays it (:mod:`bot.core.archive`), drop its snapshot,
        action log and messages. In batches of :data:`PRUNE_BATCH` (the loop given back after
        each game's record and between batches), each followed by a little incremental
        vacuum. Returns how many games were pruned (none without a retention)."""
        if self._retention is None:
            return 0
        moment = now if now is not None else self._clock()
        cutoff = (moment - self._retention).timestamp()
        pruned = 0
        while batch := await self._store.prunable(cutoff, limit=PRUNE_BATCH):
            records = []
            for game_id, text in batch:
                # A record is checked by replaying the game (a few ms of engine work): made
                # here one at a time, the loop given back after each. (On a worker thread it
                # would hold the GIL against the loop, and the loop waits longer that way.)
                records.append((game_id, None if text is None else archive.compact(text)))
                await asyncio.sleep(0)
            done = await self._store.prune(records, before=cutoff, now=self._now())
            if done == 0:
                break  # every game of the batch changed meanwhile (they are not ended now)
            pruned += done
            for game_id, _ in batch:
                self._sent.pop(game_id, None)
                self._refused.pop(game_id, None)
                self._settled.pop(game_id, None)
            await self._store.reclaim(PRUNE_PAGES)
            await asyncio.sleep(0)
        return pruned

    async def _expire(self, stale: GameRecord, cutoff: float, line: str) -> Outcome | None:
        """End one idle game, unless a move came since it was listed."""
        async with self._lock(stale.channel_id):
            record = await self._store.get_game(stale.id)
            # A move may have arrived since the list was read: then it is not idle.
            if record is None or not record.is_open or record.updated_at >= cutoff:
                return None
            try:
                return await self._close(record, GameStatus.EXPIRED, line, "")
            except Refused:
                return None  # it moved on between the read and the write: not idle


def _check_place(record: GameRecord, user: User, guild_id: int | None) -> None:
    """A click must come from the game's own server, or, in a DM, from a player seated at
    it: Discord delivers only custom ids that are on a message, but nothing else stops a
    component naming another server's game (where a moderator of the other server could
    cancel it)."""
    if guild_id is not None:
        if record.guild_id is not None and guild_id != record.guild_id:
            raise Refused(refusals.OTHER_SERVER)
    elif record.seat_of(user.id) is None:
        raise Refused(refusals.NOT_A_PLAYER)


def _new_deal(game: Game, events: Sequence[Event]) -> bool:
    """Whether the action ended the deal (the hand the actor held is gone)."""
    return game.phase is Phase.OVER or any(isinstance(e, Dealt) for e in events)


def _lobby_changed(record: GameRecord, text: str) -> Outcome:
    """A change to the lobby: a lobby button's answer updates the lobby message itself; a
    slash command answers ``text`` and the lobby is brought up to date with the rest."""
    return Outcome(
        reply=Reply(text),
        game_id=record.id,
        channel_id=record.channel_id,
        update=lobby.lobby_view(record),
        update_key="lobby",
        changed=True,
        version=record.version,
    )


def _seat_of_action(step: Step) -> int | None:
    """The seat whose move a log entry is (every discard, play and resignation names it)."""
    seat = step.action.get("seat")
    return seat if isinstance(seat, int) else None


def _coach_after_show(log: DealLog, step: Step) -> None:
    """When a step ended the play and showed the deal (or, with manual counting, opened the
    show), keep the coach's line about each seat's discard (judged from its view just before
    the play ended; a person only ever sees their own)."""
    shown = any(isinstance(e, Shown) for e in step.events) or step.table.phase is Phase.SHOW
    if not shown or not step.before:
        return
    lines = {}
    for seat, view in step.before.items():
        review = review_view(view)
        if review is not None:
            lines[seat] = review.line()
    log.set_coach(next(iter(step.before.values())).deal_number, lines)


def _answer_record(
    key: str, clicked: Clicked | None, view: MessageView, version: int, at: float
) -> MessageRecord | None:
    """What the clicked message shows once the click is answered (its original response is
    then that message, editable through the click's token), when the click is known."""
    if clicked is None:
        return None
    return MessageRecord(
        key,
        clicked.channel_id,
        clicked.message_id,
        view.digest(),
        clicked.token,
        at,
        True,
        version,
    )
