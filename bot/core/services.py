"""The core, put together: one object per job, sharing one store, one feed and one clock.

| part | its job |
| --- | --- |
| ``games`` | finds, locks, loads and saves games; publishes each change on ``feed`` |
| ``lobbies`` | opens games; their lobby: join, leave, computers, start, cancel |
| ``dealing_in`` | *Deal everyone in*: everyone who has a lobby's table open seated, and dealt |
| ``rematches`` | a result's *Rematch* (or *Play again*): the game opened again at its table |
| ``moves`` | the moves of a game being played, the computer's answers, ``catch_up`` for time |
| ``table`` | a person's private hand, the table's status, autocomplete |
| ``ledger`` | what every owner's Discord messages should show, and what was sent |
| ``standings`` | the leaderboard, stats and head to head |
| ``coach`` | the players' coach settings |
| ``housekeeping`` | idle games end, old ended games are pruned |
| ``clock`` | follows the feed and makes the moves that fall due in time |
| ``tournaments`` | ``/cribbage tournament``: open, enter, leave, start, withdraw, results |
| ``director`` | runs the tournaments being played: pairs rounds, deals their games |
| ``seasons`` | a calendar month's leaderboard, the hall of fame |
| ``reviews`` | the review of a player's decisions in a game, made in the worker |
| ``auto_reviews`` | reviews every finished game's people in the background (the sender) |
| ``shuffles`` | ``/cribbage verify``: each shown deal checked against its seal and its deck |
| ``daily`` | the discard of the day: each server's hand, everyone's one answer |
| ``privacy`` | ``/cribbage privacy``: what is kept about a person, its file, its deletion |
| ``servers`` | the servers the bot left: their data deleted after the grace period |
| ``ranked`` | ranked play across servers: the queue, the matches' referee, the ladder |
| ``resume`` | the tokens of the interactions at a private table, to bring its table back |
| ``which`` | which game a command or a control acts on, for a person in a place |

The Discord layer calls the parts, sends each :class:`~bot.core.base.replies.Answer`, and hands it
back with :meth:`Services.answered`; the keeper follows the feed and asks the ledger alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.core.base.apart import is_apart
from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.base.meters import NO_METERS, Meters
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.replies import Answer, Clicked
from bot.core.daily.daily import DailyDiscard
from bot.core.deck.seeded import SeedDealer
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.computer import ComputerPlayers
from bot.core.games.games import Games, RngFactory
from bot.core.games.hand_count import HandCounter
from bot.core.games.housekeeping import Housekeeping
from bot.core.games.membership import Departures, Membership
from bot.core.games.rules_help import rules_text
from bot.core.ledger import MessageLedger
from bot.core.ledger.answers import Answers
from bot.core.ledger.copies import Copies
from bot.core.messages.game_messages import REMIND_AFTER, GameMessages
from bot.core.messages.private_resume import PrivateResume
from bot.core.messages.private_table import TABLE
from bot.core.play.clock import GameClock
from bot.core.play.dealing import FirstDeals
from bot.core.play.everyone import DealingIn
from bot.core.play.moves import COUNT_TIMEOUT, MUGGINS_WINDOW, Moves
from bot.core.play.opening import Lobbies
from bot.core.play.rematch import Rematches
from bot.core.play.table_info import TableInfo
from bot.core.privacy.players import PlayerData
from bot.core.privacy.records import PrivacyRecords
from bot.core.privacy.servers import ServerData
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.turns import TURN_SECONDS
from bot.core.ranked.wing import RankedPlay, ranked_play
from bot.core.review.automatic import AutoReviews
from bot.core.review.review import Reviews
from bot.core.review.verify import ShuffleChecks
from bot.core.seasons.seasons import Seasons, SeasonStore
from bot.core.standings.standings import Standings
from bot.core.store import CoreStore
from bot.core.tournaments.director import TournamentDirector
from bot.core.tournaments.tournaments import TournamentMessages, Tournaments, TournamentStore
from bot.core.which_game import WhichGame
from bot.core.worker.thinking import WorkerThinking

__all__ = ["Services", "ServicesStore"]


class ServicesStore(CoreStore, TournamentStore, SeasonStore, PrivacyRecords, RankedStore, Protocol):
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
    table: TableInfo
    ledger: MessageLedger
    standings: Standings
    coach: CoachSettings
    housekeeping: Housekeeping
    clock: GameClock
    tournaments: Tournaments
    director: TournamentDirector
    seasons: Seasons
    reviews: Reviews
    daily: DailyDiscard
    auto_reviews: AutoReviews
    shuffles: ShuffleChecks
    hands: HandCounter
    privacy: PlayerData
    servers: ServerData
    ranked: RankedPlay
    resume: PrivateResume
    which: WhichGame
    #: The ledger's parts the calls below use (its clicks' answers, the copies tokens reach).
    _answers: Answers
    _copies: Copies

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
        retention: timedelta | None = None,
        thinking: WorkerThinking | None = None,
        page_link: Callable[[int], str | None] | None = None,
        activity: bool = False,
        meters: Meters = NO_METERS,
        left_server_grace: timedelta = timedelta(days=30),
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
        ``activity``: the game's Activity is on (the lobby and the live table offer *Play at
        the table*); ``meters``: what the core counts for the operator's metrics;
        ``left_server_grace``: how long a server's data outlives the bot's leaving it;
        ``policy_url`` and ``contact``: the privacy policy's address and how to reach whoever
        runs the bot, which ``/cribbage privacy`` names; ``ranked_turn``: how long a ranked turn
        lasts."""
        system = random.SystemRandom()
        now = clock or (lambda: datetime.now(UTC))
        feed = ChangeFeed()
        faults = Faults()
        ledger = MessageLedger(store, feed, now, shared=shared, faults=faults)
        # (Each of the ledger's parts handed to whoever needs it: the clicks' answers to what
        # publishes changes, the copies tokens reach to what carries a private table's.)
        answers, copies = ledger.answers, ledger.copies
        games = Games(
            store,
            feed,
            answers,
            rng_factory=rng_factory or (lambda _key: SeedDealer(system)),
            clock=now,
            departures=Departures(membership),
            shared=shared,
            meters=meters,
            faults=faults,
        )
        coach = CoachSettings(store, now)
        computers = ComputerPlayers(computer_rng or system, thinking)
        moves = Moves(
            games, coach, computers, muggins_window=muggins_window, count_timeout=count_timeout
        )
        drawn = GameMessages(
            games,
            store,
            coach,
            remind_after=remind_after,
            retention=retention,
            page_link=page_link,
            asked=copies.asked,
            launch=activity,
        )
        ledger.add(OwnerKind.GAME, drawn)
        stamp = lambda: now().timestamp()  # noqa: E731
        ledger.add(OwnerKind.TOURNAMENT, TournamentMessages(store, stamp))
        deals = FirstDeals(games, computers)
        lobbies = Lobbies(games, deals, launch=activity)

        reviews = Reviews(games, store, now, thinking, membership)
        ranked = ranked_play(
            store,
            feed,
            games,
            lobbies,
            moves,
            answers,
            copies,
            ledger.add,
            coach,
            clock=stamp,
            turn_seconds=ranked_turn.total_seconds(),
            page_link=page_link,
            launch=activity,
            retention=None if retention is None else retention.total_seconds(),
        )

        def forget(owner: Owner) -> None:
            ledger.forget(owner)
            drawn.forget(owner.id)

        async def settle(answer: Answer) -> None:
            # An answer made for nobody (a game ended before a person's data is deleted).
            if answer.ok and answer.sequel is not None:
                await answers.answered(answer.sequel, False, None, None)

        tournaments = Tournaments(store, feed, stamp, games.faults)
        privacy = PlayerData(
            store,
            games,
            resign=moves.resign,
            leave=lobbies.leave,
            withdraw=tournaments.withdraw,
            settle=settle,
            quit_ranked=ranked.calls.quit,
            forgotten=coach.forget,
            retention=retention or timedelta(days=30),
            idle_expiry=idle_expiry,
            grace=left_server_grace,
            policy_url=policy_url,
            contact=contact,
            clock=now,
        )

        return cls(
            feed=feed,
            games=games,
            lobbies=lobbies,
            dealing_in=DealingIn(games, lobbies),
            rematches=Rematches(games, deals, lobbies, launch=activity),
            moves=moves,
            table=TableInfo(games, coach, store),
            ledger=ledger,
            standings=Standings(store, games.faults, membership),
            coach=coach,
            housekeeping=Housekeeping(
                games, store, idle_expiry=idle_expiry, retention=retention, forget=forget
            ),
            clock=GameClock(moves, feed, clock=stamp),
            tournaments=tournaments,
            director=TournamentDirector(
                store, feed, games, lobbies, clock=stamp, settled=ledger.settled
            ),
            seasons=Seasons(store, now, games.faults, membership),
            reviews=reviews,
            daily=DailyDiscard(store, now),
            auto_reviews=AutoReviews(reviews, games, store, feed, clock=stamp),
            shuffles=ShuffleChecks(reviews),
            hands=HandCounter(games.faults),
            privacy=privacy,
            servers=ServerData(store, grace=left_server_grace, clock=now, forget=forget),
            ranked=ranked,
            resume=PrivateResume(games, copies),
            which=WhichGame(games, store),
            _answers=answers,
            _copies=copies,
        )

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
        if record is None or not is_apart(record.channel_id):
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

    @staticmethod
    def rules(topic: str | None = None) -> Answer:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        return Answer.say(rules_text(topic))
