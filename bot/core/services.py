"""The core, put together: one object per job, sharing one store, one feed and one clock.

| part | its job |
| --- | --- |
| ``games`` | finds, loads and saves games, one sequence a game; publishes each change on ``feed`` |
| ``lobbies`` | opens games; their lobby: join, leave, computers, start, cancel |
| ``dealing_in`` | *Deal everyone in*: everyone who has a lobby's table open seated, and dealt |
| ``rematches`` | a result's *Rematch* (or *Play again*): the game opened again at its table |
| ``moves`` | the moves of a game being played, the computer's answers, ``catch_up`` for time |
| ``hints`` | a hand's *Hint*: the expert's choice in the asker's place, said to them alone |
| ``lessons`` | ``/cribbage learn``: a first game in the DM, each rule explained as it comes up |
| ``table`` | a person's private hand, the table's status, autocomplete |
| ``ledger`` | what every owner's Discord messages should show, and what was sent |
| ``standings`` | the leaderboard, stats and head to head |
| ``coach`` | the players' coach settings |
| ``housekeeping`` | idle games end, old ended games are pruned |
| ``clock`` | follows the feed and makes the moves that fall due in time |
| ``tournaments`` | ``/cribbage tournament``: open, enter, leave, start, withdraw, results |
| ``cancellations`` | ``/cribbage tournament cancel``: asked first, then the Yes or No |
| ``director`` | runs the tournaments being played: pairs rounds, deals their games |
| ``nights`` | ``/club``: club nights scheduled, skipped, moved, ended; the server's time zone |
| ``attendance`` | who comes to a night: its check-in, a late arrival, Interested on its event |
| ``leagues`` | ``/club league``, a club's league page, its champions, the stats' lines |
| ``night_director`` | runs each club night at its times and keeps its Discord event true |
| ``seasons`` | a calendar month's leaderboard, the hall of fame |
| ``reviews`` | the review of a player's decisions in a game, made in the worker |
| ``auto_reviews`` | reviews every finished game's people in the background (the sender) |
| ``shuffles`` | ``/cribbage verify``: each shown deal checked against its seal and its deck |
| ``daily`` | the discard of the day: each server's hand, everyone's one answer |
| ``privacy`` | ``/cribbage privacy``: what is kept about a person, its file, its deletion |
| ``servers`` | the servers the bot left: their data deleted after the grace period |
| ``ranked`` | ranked play across servers: a search, leaving, the ladder, blocks, a card's buttons |
| ``ranked_play`` | ranked play as the process that sends runs it: the queue's sweep, the referee |
| ``resume`` | the tokens of the interactions at a private table, to bring its table back |
| ``which`` | which game a command or a control acts on, for a person in a place |
| ``pages`` | what the game pages and the Activity show of a game, for the web servers |

This module is the core's face to the outer layers (``bot/discord``, ``bot/web``): they call
the parts above, one call each (a part's own parts are the core's), send each
:class:`~bot.core.base.replies.Answer` and hand it back with :meth:`Services.answered`; what
else they need of the core is a method of :class:`Services` here (an answer carried at a
private table, a DM answered, an autocomplete's choices, a fault said, a person's stats).
:class:`Sending` is what the process that sends runs: the keeper following the feed and asking
the ledger alone, the clock, the director, the nights' director, the referee.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.core.base.faults import Fault, Faults
from bot.core.base.feed import ChangeFeed
from bot.core.base.meters import NO_METERS, Meters
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.patrol import RETRY_AFTER, Running, running
from bot.core.base.places import Place
from bot.core.base.replies import Answer, Choice, Clicked, User
from bot.core.daily.daily import DailyDiscard
from bot.core.deck.seeded import SeedDealer
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.computer import ComputerPlayers
from bot.core.games.games import Games, RngFactory
from bot.core.games.hand_count import HandCounter
from bot.core.games.housekeeping import RETENTION, Housekeeping
from bot.core.games.membership import Departures, Membership
from bot.core.games.rules_help import rules_text
from bot.core.ledger import MessageKeeper, MessageLedger
from bot.core.ledger.answers import Answers
from bot.core.ledger.copies import Copies
from bot.core.ledger.records import DmLink
from bot.core.ledger.tokens import DmLinks
from bot.core.messages.game_messages import REMIND_AFTER, GameMessages
from bot.core.messages.private_resume import PrivateResume
from bot.core.messages.private_table import TABLE
from bot.core.nights.attendance import Attendance
from bot.core.nights.board import NightBoards
from bot.core.nights.director import NightDirector
from bot.core.nights.leagues import Leagues
from bot.core.nights.nights import Nights, NightStore
from bot.core.pages import GamePages
from bot.core.play.clock import GameClock
from bot.core.play.dealing import FirstDeals
from bot.core.play.everyone import DealingIn
from bot.core.play.hints import Hints
from bot.core.play.lessons import Lessons
from bot.core.play.moves import COUNT_TIMEOUT, MUGGINS_WINDOW, Moves
from bot.core.play.opening import Lobbies
from bot.core.play.rematch import Rematches
from bot.core.play.table_info import TableInfo
from bot.core.privacy.players import PlayerData
from bot.core.privacy.records import PrivacyRecords
from bot.core.privacy.servers import GRACE, ServerData
from bot.core.ranked.ranked import Ranked
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.turns import TURN_SECONDS
from bot.core.ranked.wing import RankedPlay, ranked_play
from bot.core.review.automatic import AutoReviews
from bot.core.review.review import Reviews, add_lines
from bot.core.review.verify import ShuffleChecks
from bot.core.seasons.seasons import Seasons, SeasonStore
from bot.core.standings.standings import Standings
from bot.core.store import CoreStore
from bot.core.tournaments.cancelling import Cancellations
from bot.core.tournaments.director import TournamentDirector
from bot.core.tournaments.threads import (
    EventPlan,
    EventRefused,
    Events,
    EventSeen,
    EventStatus,
    Threads,
)
from bot.core.tournaments.tournaments import TournamentMessages, Tournaments
from bot.core.which_game import WhichGame
from bot.core.worker.thinking import WorkerThinking

__all__ = ["BACKGROUND", "Sending", "Services", "ServicesStore"]

log = logging.getLogger(__name__)

#: The parts the process that sends runs in the background, as :meth:`Sending.background`
#: names them (and ``/readyz`` and ``cribbage_background`` after it).
DIRECTOR, REFEREE, NIGHTS = "director", "referee", "nights"
BACKGROUND = ("keeper", "clock", DIRECTOR, NIGHTS, REFEREE, "ranked_sweep", "reviews")


class ServicesStore(CoreStore, NightStore, SeasonStore, PrivacyRecords, RankedStore, Protocol):
    """A store as the core, its tournaments and ranked play use it (``bot.store.Store`` is
    one)."""


@dataclass(frozen=True, slots=True)
class Services:
    """Every part of the core, wired together (see the module's table)."""

    feed: ChangeFeed
    games: Games
    lobbies: Lobbies
    dealing_in: DealingIn
    rematches: Rematches
    moves: Moves
    hints: Hints
    lessons: Lessons
    table: TableInfo
    ledger: MessageLedger
    standings: Standings
    coach: CoachSettings
    housekeeping: Housekeeping
    clock: GameClock
    tournaments: Tournaments
    cancellations: Cancellations
    director: TournamentDirector
    nights: Nights
    attendance: Attendance
    leagues: Leagues
    night_director: NightDirector
    seasons: Seasons
    reviews: Reviews
    daily: DailyDiscard
    auto_reviews: AutoReviews
    shuffles: ShuffleChecks
    hands: HandCounter
    privacy: PlayerData
    servers: ServerData
    ranked: Ranked
    ranked_play: RankedPlay
    resume: PrivateResume
    which: WhichGame
    pages: GamePages
    #: The ledger's parts the calls below use (its clicks' answers, the copies tokens reach,
    #: the players' DM links).
    _answers: Answers
    _copies: Copies
    _dm_links: DmLinks

    @classmethod
    def build(
        cls,
        store: ServicesStore,
        *,
        idle_expiry: timedelta,
        rng_factory: RngFactory | None = None,
        clock: Callable[[], datetime] | None = None,
        computer_rng: random.Random | None = None,
        remind_after: timedelta = REMIND_AFTER,
        muggins_window: timedelta = MUGGINS_WINDOW,
        count_timeout: timedelta = COUNT_TIMEOUT,
        shared: bool = False,
        membership: Membership | None = None,
        retention: timedelta = RETENTION,
        thinking: WorkerThinking | None = None,
        page_link: Callable[[int], str | None] | None = None,
        league_link: Callable[[int], str | None] | None = None,
        activity: bool = False,
        meters: Meters = NO_METERS,
        left_server_grace: timedelta = GRACE,
        policy_url: str | None = None,
        contact: str | None = None,
        ranked_turn: timedelta = timedelta(seconds=TURN_SECONDS),
    ) -> Services:
        """The core on ``store``. Without ``rng_factory``, ``clock`` and ``computer_rng`` it
        has real randomness (``random.SystemRandom``, each deal sealed by a seed drawn from it:
        :mod:`bot.core.deck.seeded`) and the UTC clock, as the running bot;
        tests give their own. ``shared``: other processes of the bot use the same database;
        ``thinking``: where the levels that think at length make their plays (on the loop
        without); ``page_link``: a game's page in the browser, for its table messages;
        ``league_link``: a club's league page, for ``/club league``;
        ``activity``: the game's Activity is on (the lobby and the live table offer *Play at
        the table*); ``meters``: what the core counts for the operator's metrics;
        ``left_server_grace``: how long a server's data outlives the bot's leaving it;
        ``policy_url`` and ``contact``: the privacy policy's address and how to reach whoever
        runs the bot, which ``/cribbage privacy`` names; ``ranked_turn``: how long a ranked turn
        lasts."""
        system = random.SystemRandom()
        options = _Options(
            idle_expiry=idle_expiry,
            rng_factory=rng_factory or (lambda _key: SeedDealer(system)),
            now=clock or (lambda: datetime.now(UTC)),
            computer_rng=computer_rng or system,
            remind_after=remind_after,
            muggins_window=muggins_window,
            count_timeout=count_timeout,
            shared=shared,
            membership=membership,
            retention=retention,
            thinking=thinking,
            page_link=page_link,
            league_link=league_link,
            activity=activity,
            meters=meters,
            left_server_grace=left_server_grace,
            policy_url=policy_url,
            contact=contact,
            ranked_turn=ranked_turn,
        )
        return _Wiring(store, options).services()

    # -- what an answer leads to ----------------------------------------------------------------
    async def answered(self, answer: Answer, *, landed: bool, shown: Clicked | None) -> None:
        """``answer`` was sent to the person who acted (``landed``), or could not be: the look
        it gave a message is confirmed or forgotten (``shown``: the message that now shows it),
        then the computer's reply to the move, if one was left for now, is made. For the
        refusal of a stale control, ``shown`` is the message clicked, looked at again."""
        sequel = answer.sequel
        if not answer.ok and answer.stale is not None and shown is not None:
            for owner in await self._kept_by(answer.stale):
                await self._answers.doubt(owner, shown.message_id)
        if sequel is None or not answer.ok:
            return
        view = answer.update if answer.update is not None else answer.reply.view
        digest = None if view is None else view.digest()
        try:
            await self._answers.answered(sequel, landed, shown, digest)
        finally:
            if sequel.computer_owes:
                await self.moves.computer_turn(sequel.owner.id)

    async def _kept_by(self, owner: Owner) -> list[Owner]:
        """Who keeps the messages of ``owner``: itself, or for a game played apart its
        places (the message clicked is one of theirs)."""
        record = None if owner.kind is not OwnerKind.GAME else await self.games.record(owner.id)
        if record is None or record.seating.shared:
            return [owner]
        return [self.games.owner_at(record, seat.seat) for seat in record.seats]

    def opening(self, answer: Answer) -> None:
        """``answer`` (a private table's *Your hand*, or ``/cribbage hand`` there: the hand,
        privately) is about to be sent: until it is heard to have gone (:meth:`opened`), its
        player is taken as having their hand in front of them (it may show on Discord before
        the bot hears back: nothing drawn meanwhile tells them to ask for it)."""
        sequel = answer.sequel
        if not answer.ok or answer.reply.view is None or sequel is None or sequel.mirror:
            return  # (a copy of a server game's hand message mirrors it, by DM)
        if sequel.key:
            self._copies.opening(sequel.owner, sequel.key)

    async def opened(
        self, answer: Answer, *, shown: Clicked | None, clicked: Clicked | None
    ) -> None:
        """``answer`` (a private table's *Your hand*: the hand, privately) was sent as a
        message of its own (``shown``) for a click on the table (``clicked``; None: it answers
        ``/cribbage hand``): both are reached through that interaction's token from now on
        (see :meth:`Copies.opened <bot.core.ledger.copies.Copies.opened>`). ``shown`` None:
        it did not go (Discord refused it, or it was not heard back). ``/cribbage hand`` at a
        server's game answers with a copy of the player's hand message (by DM), kept up to
        date as any command's answer that mirrors one (:meth:`answered`)."""
        sequel, view = answer.sequel, answer.reply.view
        if sequel is not None and sequel.mirror is not None:
            await self.answered(answer, landed=shown is not None, shown=shown)
            return
        if sequel is None or sequel.key is None or view is None or not answer.ok:
            return
        if shown is None:
            self._copies.not_opened(sequel.owner, sequel.key)
            return
        await self._copies.opened(
            sequel.owner,
            sequel.key,
            shown,
            view.digest(),
            sequel.version,
            clicked=clicked,
            on=TABLE,
            original=clicked is None,
        )

    async def carry(
        self,
        place: Place,
        user_id: int,
        answer: Answer | None,
        shown: Callable[[], Awaitable[Clicked]],
        *,
        moved: bool,
    ) -> None:
        """An interaction of ``user_id`` in ``place`` was answered where a table is reached
        through tokens alone: its token may post the table again there once no other token
        reaches it (a game left for more than 15 minutes, resumed by whatever comes next: a
        move, a refused click or command, a hand asked for). That is a private table (where
        the bot is not a member), or a ranked player's place (wherever it is). ``answer``: what
        the interaction was answered with (None, or one about nothing: the player's ranked
        place here, or the place's open game, if any); ``shown``: the interaction's original
        response, asked for only when it is needed; ``moved``: it made a move (see
        :meth:`PrivateResume.answered`). A fault is noted here (the answer itself went)."""
        try:
            owner = answer.sequel.owner if answer is not None and answer.sequel else None
            owner = owner or await self.which.carried(place, user_id)
            if owner is None or owner.kind not in (OwnerKind.PLACE, OwnerKind.GAME):
                return
            if owner.kind is OwnerKind.GAME and place.bot_member:
                return  # (the bot's own token reaches a server's tables)
            if owner.kind is OwnerKind.PLACE:
                await self.ranked.carry(owner, await shown(), moved=moved)
            else:
                await self.resume.answered(owner, await shown(), moved=moved)
        except Fault as fault:
            self.games.faults.note(fault)

    async def dm_answered(
        self, user_id: int, channel_id: int, token: str, answer: Answer | None = None
    ) -> None:
        """An interaction of ``user_id`` in their DM with the bot (``channel_id``) was
        answered (with ``answer``): its token may post their next hand there, for free; unless
        the answer deleted their data, which the DM's id and the token would be again."""
        if answer is not None and answer.forgotten:
            return
        await self._dm_links.linked(DmLink(user_id, channel_id, token, time.time()))

    # -- what the outer layers need besides ------------------------------------------------------
    async def offer(self, find: Awaitable[list[Choice]]) -> list[Choice]:
        """An autocomplete's choices: what ``find`` offers; none while the store is out of
        reach (the fault noted once, as a call's is), since an autocomplete has no answer that
        could say so."""
        try:
            return await find
        except Fault as fault:
            self.games.faults.note(fault)
            return []

    def fault_said(self, error: BaseException) -> str | None:
        """The sentence for ``error`` if it is a fault of the core met outside a call on it
        (the store failing while a DM is remembered, say): noted once per cause and game, and
        said as the core says it. None for any other error."""
        if not isinstance(error, Fault):
            return None
        self.games.faults.note(error)
        return str(error)

    async def stats(
        self, guild_id: int | None, user: User, against: User | None, *, here: int | None
    ) -> Answer:
        """``/cribbage stats``: a player's record (:meth:`Standings.stats`), with the accuracy
        of their reviewed games and their discards of the day; or, ``against`` someone, their
        head to head alone."""
        answer = await self.standings.stats(guild_id, user, against, here=here)
        if against is not None:
            return answer
        # The accuracy of the reviewed games, outside servers too (the games there are
        # reviewed as a server's are); the discard of the day is a server's alone.
        answer = await self.reviews.with_stats(answer, guild_id, user.id)
        daily = await self.daily.stats_line(guild_id, user.id)
        leagues = [] if guild_id is None else await self.leagues.stats_lines(guild_id, user.id)
        return add_lines(answer, [*([daily] if daily else []), *leagues])

    @staticmethod
    def rules(topic: str | None = None) -> Answer:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        return Answer.say(rules_text(topic))


@dataclass(frozen=True, slots=True)
class _Options:
    """What :meth:`Services.build` was given, its defaults filled in."""

    idle_expiry: timedelta
    rng_factory: RngFactory
    now: Callable[[], datetime]
    computer_rng: random.Random
    remind_after: timedelta
    muggins_window: timedelta
    count_timeout: timedelta
    shared: bool
    membership: Membership | None
    retention: timedelta
    thinking: WorkerThinking | None
    page_link: Callable[[int], str | None] | None
    league_link: Callable[[int], str | None] | None
    activity: bool
    meters: Meters
    left_server_grace: timedelta
    policy_url: str | None
    contact: str | None
    ranked_turn: timedelta

    def stamp(self) -> float:
        """The clock as a Unix time (the parts that count seconds)."""
        return self.now().timestamp()


class _Wiring:
    """The core being put together on one store, one feed and one ledger, wing by wing (each
    method builds what one job needs from the parts built before it)."""

    def __init__(self, store: ServicesStore, options: _Options) -> None:
        self.store, self.options = store, options
        self.feed = ChangeFeed()
        faults = Faults()
        self.ledger = MessageLedger(
            store, self.feed, options.now, shared=options.shared, faults=faults
        )
        # (Each of the ledger's parts handed to whoever needs it: the clicks' answers to what
        # publishes changes, the copies tokens reach to what carries a private table's, the
        # DM links to what hears of a DM answered.)
        self.answers, self.copies = self.ledger.answers, self.ledger.copies
        self.games = Games(
            store,
            self.feed,
            self.answers,
            rng_factory=options.rng_factory,
            clock=options.now,
            departures=Departures(options.membership),
            shared=options.shared,
            meters=options.meters,
            faults=faults,
        )
        self.coach = CoachSettings(store, options.now, self.feed)
        self.computers = ComputerPlayers(options.computer_rng, options.thinking)
        self.moves = Moves(
            self.games,
            self.coach,
            self.computers,
            muggins_window=options.muggins_window,
            count_timeout=options.count_timeout,
        )
        self.deals = FirstDeals(self.games, self.computers)
        self.lobbies = Lobbies(self.games, self.deals, launch=options.activity)
        # A club night's tournament starts itself at its time: not by hand.
        self.tournaments = Tournaments(
            store, self.feed, options.stamp, self.games.faults, held=self._held
        )
        self.nights = Nights(store, self.tournaments, self.feed, options.stamp, self.games.faults)
        self.attendance = Attendance(store, self.nights, options.stamp, self.games.faults)
        self.leagues = Leagues(
            store, options.stamp, self.games.faults, league_link=options.league_link
        )

    async def _held(self, tournament_id: int) -> str | None:
        return await self.nights.held(tournament_id)

    def messages(self) -> GameMessages:
        """The games' and the tournaments' messages, drawn for the ledger."""
        options = self.options
        drawn = GameMessages(
            self.games,
            self.store,
            self.coach,
            remind_after=options.remind_after,
            retention=options.retention,
            page_link=options.page_link,
            asked=self.copies.asked,
            launch=options.activity,
        )
        self.ledger.add(OwnerKind.GAME, drawn)
        boards = TournamentMessages(self.store, options.stamp)
        self.ledger.add(OwnerKind.TOURNAMENT, NightBoards(boards, self.store, self.leagues))
        return drawn

    def ranked(self) -> tuple[Ranked, RankedPlay]:
        """Ranked play, its messages drawn for the ledger."""
        options = self.options
        return ranked_play(
            self.store,
            self.feed,
            self.games,
            self.lobbies,
            self.moves,
            self.answers,
            self.copies,
            self.ledger.add,
            self.coach,
            clock=options.stamp,
            turn_seconds=options.ranked_turn.total_seconds(),
            page_link=options.page_link,
            launch=options.activity,
            retention=options.retention.total_seconds(),
        )

    def privacy(self, tournaments: Tournaments, ranked: Ranked) -> PlayerData:
        """What is kept about a person, its file and its deletion, by every wing that keeps
        something of them."""
        options, answers = self.options, self.answers

        async def settle(answer: Answer) -> None:
            # An answer made for nobody (a game ended before a person's data is deleted).
            if answer.ok and answer.sequel is not None:
                await answers.answered(answer.sequel, False, None, None)

        return PlayerData(
            self.store,
            self.games,
            resign=self.moves.resign,
            leave=self.lobbies.leave,
            withdraw=tournaments.withdraw,
            settle=settle,
            quit_ranked=ranked.quit,
            forgotten=self.coach.forget,
            retention=options.retention,
            idle_expiry=options.idle_expiry,
            grace=options.left_server_grace,
            policy_url=options.policy_url,
            contact=options.contact,
            clock=options.now,
        )

    def services(self) -> Services:
        """The core, every part built."""
        store, options, games, ledger = self.store, self.options, self.games, self.ledger
        drawn = self.messages()
        ranked, ranked_wing = self.ranked()

        def forget(owner: Owner) -> None:
            ledger.forget(owner)
            drawn.forget(owner.id)

        tournaments = self.tournaments
        table = TableInfo(games, self.coach, store)
        reviews = Reviews(games, store, options.now, options.thinking, options.membership)
        which = WhichGame(games, store)
        return Services(
            feed=self.feed,
            games=games,
            lobbies=self.lobbies,
            dealing_in=DealingIn(games, self.lobbies),
            rematches=Rematches(games, self.deals, self.lobbies, launch=options.activity),
            moves=self.moves,
            hints=Hints(games, self.computers),
            lessons=Lessons(games, self.lobbies, table, store, which.lesson_refusal),
            table=table,
            ledger=ledger,
            standings=Standings(store, games.faults, options.membership),
            coach=self.coach,
            housekeeping=Housekeeping(
                games,
                store,
                idle_expiry=options.idle_expiry,
                retention=options.retention,
                forget=forget,
            ),
            clock=GameClock(self.moves, self.feed, clock=options.stamp),
            tournaments=tournaments,
            cancellations=Cancellations(tournaments, store, options.stamp),
            director=TournamentDirector(
                store,
                self.feed,
                games,
                self.lobbies,
                clock=options.stamp,
                settled=ledger.settled,
            ),
            nights=self.nights,
            attendance=self.attendance,
            leagues=self.leagues,
            night_director=NightDirector(
                store, self.nights, self.attendance, tournaments, self.feed, clock=options.stamp
            ),
            seasons=Seasons(store, options.now, games.faults, options.membership),
            reviews=reviews,
            daily=DailyDiscard(store, options.now),
            auto_reviews=AutoReviews(reviews, games, store, self.feed, clock=options.stamp),
            shuffles=ShuffleChecks(reviews),
            hands=HandCounter(games.faults),
            privacy=self.privacy(tournaments, ranked),
            servers=ServerData(
                store, grace=options.left_server_grace, clock=options.now, forget=forget
            ),
            ranked=ranked,
            ranked_play=ranked_wing,
            resume=PrivateResume(games, self.copies, store),
            which=which,
            pages=GamePages(games, store, self.coach, reviews, self.leagues),
            _answers=self.answers,
            _copies=self.copies,
            _dm_links=ledger.dm_links,
        )


class Sending:
    """What the process that sends runs (one process of the bot at a time: the one that holds
    the sender's lease): its keeper sends what every owner owes, following the feed; the game
    clock makes the moves time makes; the director runs the tournaments (their threads
    through ``threads``), the nights' director the club nights (their Discord events through
    ``events``), the referee the ranked matches, and finished games are reviewed.
    Each is started and stopped here, and what the messages show brought up to date at a
    start or a takeover."""

    def __init__(
        self,
        services: Services,
        keeper: MessageKeeper,
        threads: Threads,
        *,
        events: Events | None = None,
        retry_after: float = RETRY_AFTER,
    ) -> None:
        """``retry_after``: how long after a failed start (the director's, the referee's: each
        reads the store) it is made again; ``events``: the club nights' Discord events (None:
        the nights are run without one)."""
        self._services = services
        #: Sends what every owner owes (the keeper of :mod:`bot.core.ledger`).
        self.keeper = keeper
        self._threads = threads
        self._events = events
        self._retry_after = retry_after
        #: Whether this process sends (started, and not stopped since).
        self._sending = False
        #: The director's and the referee's start (each reads the store), made again until
        #: it is done: cancelled by a stop.
        self._starting: dict[str, asyncio.Task[None]] = {}
        #: Why a part's start failed, while it is made again.
        self._failing: dict[str, str] = {}

    def start(self) -> None:
        """This process sends: its keeper and its game clock follow the change feed, finished
        games are reviewed (in the review worker, one at a time, at low priority), and the
        tournaments are directed and the ranked matches refereed, from the store."""
        services = self._services
        self._sending = True
        self.keeper.follow(services.feed)
        services.clock.start()
        services.auto_reviews.start()
        loop = asyncio.get_running_loop()
        starts = {
            DIRECTOR: lambda: services.director.start(self._threads),
            NIGHTS: lambda: services.night_director.start(self._events or _NO_EVENTS),
            REFEREE: services.ranked_play.start,
        }
        self._starting = {
            part: loop.create_task(self._started(part, start), name=f"crib-start-{part}")
            for part, start in starts.items()
        }

    async def _started(self, part: str, start: Callable[[], Awaitable[None]]) -> None:
        """``start`` the ``part``, again every ``retry_after`` seconds while it fails (the
        database out of reach as this process starts or takes over), so that it is never
        left half-started (following the feed, but with the tournaments or the matches
        under way unread, the ranked queue unswept) for as long as this process sends."""
        while True:
            try:
                await start()
            except Exception as error:
                self._failing[part] = f"{type(error).__name__}: {error}"[:200]
                log.warning(
                    "could not start the %s (made again in %g s): %r",
                    part,
                    self._retry_after,
                    error,
                )
                await asyncio.sleep(self._retry_after)
            else:
                self._failing.pop(part, None)
                return

    def background(self) -> dict[str, str]:
        """What each part the process that sends runs is doing (:data:`BACKGROUND`):
        ``running``; ``off``: this process does not send (another one runs it); ``starting``
        (its first read of the store under way), or ``failing: why`` (its start failed, and
        is made again); ``stopped``: it should run here, and does not."""
        services = self._services
        runs = {
            "keeper": self._sending,
            "clock": services.clock.running,
            DIRECTOR: services.director.running,
            NIGHTS: services.night_director.running,
            REFEREE: services.ranked_play.referee.running,
            "ranked_sweep": services.ranked_play.sweeping,
            "reviews": services.auto_reviews.running,
        }
        states: dict[str, str] = {}
        for part in BACKGROUND:
            started_by = REFEREE if part == "ranked_sweep" else part
            start = self._starting.get(started_by)
            failing = self._failing.get(started_by)
            if not self._sending:
                states[part] = Running.OFF
            elif start is not None and not start.done():
                states[part] = f"{Running.FAILING}: {failing}" if failing else Running.STARTING
            else:
                states[part] = running(runs[part])
        return states

    def stop(self) -> None:
        """Another process sends now: stop following the feed."""
        self.keeper.unfollow()
        self._stop_parts()

    def _stop_parts(self) -> None:
        self._sending = False
        for task in self._starting.values():
            task.cancel()
        self._failing.clear()
        services = self._services
        services.clock.stop()
        services.director.stop()
        services.night_director.stop()
        services.ranked_play.stop()
        services.auto_reviews.stop()

    def took_over(self) -> None:
        """This process took over from another that stopped sending: what it kept of the
        messages is read again, and it sends from now on."""
        self._services.ledger.sending_again()
        self.start()

    def resumed(self) -> None:
        """This process stayed the sender, but its lease lapsed a while by its own clock (it
        was frozen, or the database slow) and nobody took it: what it held back meanwhile goes
        now (what it kept of the messages is read again, in case another process sent in
        between)."""
        self._services.ledger.sending_again()
        self.keeper.resume()

    async def reconcile(self, *, taking_over: bool = False, handed_over: bool = False) -> int:
        """Bring every open or recently ended game's messages up to date, and make the timed
        moves that fell due while nobody was looking (start-up; taking over: then first wait
        out what the sender before may still have on its way, see
        :meth:`MessageKeeper.take_over`; ``handed_over``: the one before stepped down
        cleanly). How many games were looked at."""
        if taking_over:
            owners = await self.keeper.take_over(handed_over=handed_over)
        else:
            owners = await self.keeper.reconcile()
        self._services.clock.start(o.id for o in owners if o.kind is OwnerKind.GAME)
        # (Those who marked a club's event Interested meanwhile: read again.)
        await self._services.night_director.again()
        return len(owners)

    async def caught_up(self) -> None:
        """Once the sends a reconciliation asked for are all made."""
        await self.keeper.caught_up()

    async def cancel_starts(self) -> None:
        """Cancel the directors' and the referee's start, if still under way (a stop: each
        reads the store, which closes at the end of the stop; the next start does it again)."""
        for task in self._starting.values():
            task.cancel()
        await asyncio.gather(*self._starting.values(), return_exceptions=True)

    async def close(self, timeout: float) -> Sequence[Owner]:
        """The process stops: the clock, the director, the referee and the reviews stop, and
        what is owed is sent within ``timeout`` seconds; the owners still owed something."""
        self._stop_parts()
        return await self.keeper.flush(timeout, last=True)


class _NoEvents:
    """A bot whose club nights have no Discord events (its tests): every event refused."""

    async def create(self, guild_id: int, plan: EventPlan) -> int:
        raise EventRefused("no events here", permission=True)

    async def find(self, guild_id: int, name: str, start: float) -> int | None:
        return None

    async def read(self, guild_id: int, event_id: int) -> EventSeen:
        raise EventRefused("no events here", gone=True)

    async def edit(
        self,
        guild_id: int,
        event_id: int,
        *,
        description: str | None = None,
        status: EventStatus | None = None,
        start: float | None = None,
        end: float | None = None,
    ) -> EventSeen:
        raise EventRefused("no events here", gone=True)

    async def except_occurrence(
        self,
        guild_id: int,
        event_id: int,
        original: float,
        *,
        skip: bool = False,
        start: float | None = None,
        end: float | None = None,
    ) -> None:
        raise EventRefused("no events here", gone=True)

    async def interested(self, guild_id: int, event_id: int) -> list[tuple[int, str]]:
        return []


_NO_EVENTS = _NoEvents()
