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

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.replies import Answer, User
from bot.core.daily.daily import DailyDiscard
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.computer import ComputerPlayers
from bot.core.games.games import Games
from bot.core.games.hand_count import HandCounter
from bot.core.games.housekeeping import Housekeeping
from bot.core.games.membership import Departures
from bot.core.games.rules_help import rules_text
from bot.core.ledger import MessageLedger
from bot.core.messages.game_messages import GameMessages
from bot.core.messages.private_resume import PrivateResume
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
from bot.core.play.moves import Moves
from bot.core.play.opening import Lobbies
from bot.core.play.rematch import Rematches
from bot.core.play.table_info import TableInfo
from bot.core.privacy.players import PlayerData
from bot.core.privacy.records import PrivacyRecords
from bot.core.privacy.servers import ServerData
from bot.core.ranked.ranked import Ranked
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.wing import RankedPlay, ranked_play
from bot.core.review.automatic import AutoReviews
from bot.core.review.review import Reviews, add_lines
from bot.core.review.verify import ShuffleChecks
from bot.core.seasons.seasons import Seasons, SeasonStore
from bot.core.sequels import Sequels
from bot.core.settings import CoreSettings, Given
from bot.core.standings.standings import Standings
from bot.core.store import CoreStore
from bot.core.tournaments.cancelling import Cancellations
from bot.core.tournaments.director import TournamentDirector
from bot.core.tournaments.tournaments import TournamentMessages, Tournaments
from bot.core.which_game import WhichGame

__all__ = ["BACKGROUND", "DIRECTOR", "NIGHTS", "REFEREE", "Sender", "Services", "ServicesStore"]

log = logging.getLogger(__name__)

#: The parts the process that sends runs in the background, as :meth:`Sending.background`
#: names them (and ``/readyz`` and ``cribbage_background`` after it).
DIRECTOR, REFEREE, NIGHTS = "director", "referee", "nights"
BACKGROUND = ("keeper", "clock", DIRECTOR, NIGHTS, REFEREE, "ranked_sweep", "reviews")


class Sender(Protocol):
    """What the process that sends runs, as the Discord client starts, stops and hands it over
    (:class:`bot.core.sending.Sending` is one; ``bot/assembly.py`` makes it)."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def took_over(self) -> None: ...
    def resumed(self) -> None: ...
    async def reconcile(self, *, taking_over: bool = False, handed_over: bool = False) -> int: ...
    async def caught_up(self) -> None: ...
    async def cancel_starts(self) -> None: ...
    async def close(self, timeout: float) -> Sequence[Owner]: ...
    def background(self) -> dict[str, str]: ...


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
    sequels: Sequels

    @classmethod
    def build(cls, store: ServicesStore, settings: CoreSettings, given: Given) -> Services:
        """The core on ``store``, as ``settings`` say, with what the root made (``given``:
        the clock, the randomness, the members, the worker, the meters, the pages' links)."""
        return _Wiring(store, settings, given).services()

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


class _Wiring:
    """The core being put together on one store, one feed and one ledger, wing by wing (each
    method builds what one job needs from the parts built before it)."""

    def __init__(self, store: ServicesStore, settings: CoreSettings, given: Given) -> None:
        self.store, self.settings, self.given = store, settings, given
        self.feed = ChangeFeed()
        #: Where the faults met are noted, once per cause and game: one for the whole core.
        self.faults = faults = Faults()
        self.ledger = MessageLedger(
            store, self.feed, given.clock, faults=faults, shared=settings.shared
        )
        # (Each of the ledger's parts handed to whoever needs it: the clicks' answers to what
        # publishes changes, the copies tokens reach to what carries a private table's, the
        # DM links to what hears of a DM answered.)
        self.answers, self.copies = self.ledger.answers, self.ledger.copies
        self.games = Games(
            store,
            self.feed,
            self.answers,
            rng_factory=given.rng_factory,
            clock=given.clock,
            departures=Departures(given.membership),
            meters=given.meters,
            faults=faults,
            shared=settings.shared,
        )
        self.coach = CoachSettings(store, given.clock, self.feed)
        self.computers = ComputerPlayers(given.computer_rng, given.thinking)
        self.moves = Moves(
            self.games,
            self.coach,
            self.computers,
            muggins_window=settings.muggins_window,
            count_timeout=settings.count_timeout,
        )
        self.deals = FirstDeals(self.games, self.computers)
        self.lobbies = Lobbies(self.games, self.deals, launch=settings.activity)
        # A club night's tournament starts itself at its time: not by hand.
        self.tournaments = Tournaments(store, self.feed, given.stamp, self.faults, held=self._held)
        self.nights = Nights(store, self.tournaments, self.feed, given.stamp, self.faults)
        self.attendance = Attendance(store, self.nights, given.stamp, self.faults)
        self.leagues = Leagues(store, given.stamp, self.faults, league_link=given.league_link)

    async def _held(self, tournament_id: int) -> str | None:
        return await self.nights.held(tournament_id)

    def messages(self) -> GameMessages:
        """The games' and the tournaments' messages, drawn for the ledger."""
        settings, given = self.settings, self.given
        drawn = GameMessages(
            self.games,
            self.store,
            self.coach,
            remind_after=settings.remind_after,
            retention=settings.retention,
            page_link=given.page_link,
            asked=self.copies.asked,
            launch=settings.activity,
        )
        self.ledger.add(OwnerKind.GAME, drawn)
        boards = TournamentMessages(self.store, given.stamp)
        self.ledger.add(OwnerKind.TOURNAMENT, NightBoards(boards, self.store, self.leagues))
        return drawn

    def ranked(self) -> tuple[Ranked, RankedPlay]:
        """Ranked play, its messages drawn for the ledger."""
        settings, given = self.settings, self.given
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
            clock=given.stamp,
            turn_seconds=settings.ranked_turn.total_seconds(),
            page_link=given.page_link,
            launch=settings.activity,
            retention=settings.retention.total_seconds(),
        )

    def privacy(self, tournaments: Tournaments, ranked: Ranked) -> PlayerData:
        """What is kept about a person, its file and its deletion, by every wing that keeps
        something of them."""
        settings, given, answers = self.settings, self.given, self.answers

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
            retention=settings.retention,
            idle_expiry=settings.idle_expiry,
            grace=settings.left_server_grace,
            policy_url=settings.policy_url,
            contact=settings.contact,
            clock=given.clock,
        )

    def services(self) -> Services:
        """The core, every part built."""
        store, games, ledger = self.store, self.games, self.ledger
        settings, given = self.settings, self.given
        drawn = self.messages()
        ranked, ranked_wing = self.ranked()

        def forget(owner: Owner) -> None:
            ledger.forget(owner)
            drawn.forget(owner.id)

        tournaments = self.tournaments
        table = TableInfo(games, self.coach, store)
        reviews = Reviews(games, store, given.clock, given.thinking, given.membership)
        which = WhichGame(games, store)
        resume = PrivateResume(games, self.copies, store)
        return Services(
            feed=self.feed,
            games=games,
            lobbies=self.lobbies,
            dealing_in=DealingIn(games, self.lobbies),
            rematches=Rematches(games, self.deals, self.lobbies, launch=settings.activity),
            moves=self.moves,
            hints=Hints(games, self.computers),
            lessons=Lessons(games, self.lobbies, table, store, which.lesson_refusal),
            table=table,
            ledger=ledger,
            standings=Standings(store, self.faults, given.membership),
            coach=self.coach,
            housekeeping=Housekeeping(
                games,
                store,
                idle_expiry=settings.idle_expiry,
                retention=settings.retention,
                forget=forget,
            ),
            clock=GameClock(self.moves, self.feed, clock=given.stamp),
            tournaments=tournaments,
            cancellations=Cancellations(tournaments, store, given.stamp),
            director=TournamentDirector(
                store,
                self.feed,
                games,
                self.lobbies,
                clock=given.stamp,
                settled=ledger.settled,
            ),
            nights=self.nights,
            attendance=self.attendance,
            leagues=self.leagues,
            night_director=NightDirector(
                store, self.nights, self.attendance, tournaments, self.feed, clock=given.stamp
            ),
            seasons=Seasons(store, given.clock, self.faults, given.membership),
            reviews=reviews,
            daily=DailyDiscard(store, given.clock),
            auto_reviews=AutoReviews(reviews, games, store, self.feed, clock=given.stamp),
            shuffles=ShuffleChecks(reviews),
            hands=HandCounter(self.faults),
            privacy=self.privacy(tournaments, ranked),
            servers=ServerData(
                store, grace=settings.left_server_grace, clock=given.clock, forget=forget
            ),
            ranked=ranked,
            ranked_play=ranked_wing,
            resume=resume,
            which=which,
            pages=GamePages(games, store, self.coach, reviews, self.leagues),
            sequels=Sequels(
                games,
                self.moves,
                which,
                ranked,
                resume,
                answers=self.answers,
                copies=self.copies,
                dm_links=ledger.dm_links,
                faults=self.faults,
            ),
        )
