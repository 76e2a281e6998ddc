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
| ``acts`` | a game's commands and controls, each run on the game it acts on for a person here |
| ``feature_acts`` | the records, a review, a check, the daily discard, run where they are asked |
| ``tournament_acts`` | ``/cribbage tournament``'s commands, run on the tournament here |
| ``club_acts`` | ``/club``'s commands, run on the club here |

This module is the core's face to the outer layers (``bot/discord``, ``bot/web``): they call
the parts above, one call each (a part's own parts are the core's), send each
:class:`~bot.core.base.replies.Answer` and hand it back to ``sequels``
(:class:`~bot.core.sequels.Sequels`: what follows an answer sent, a DM answered, an
autocomplete's choices, a fault said); the rules' help is a method of :class:`Services`
here. The outer layers see it through their contracts
(:mod:`bot.core.faces`: ``DiscordFace``, ``WebFace``), never by this name.

:meth:`Services.build` is a short list: the ledger first (its own wiring), then each wing's
wiring in the glossary's order (``play/wing.py`` for the games and their messages,
``tournaments/wing.py``, ``nights/wing.py``, ``privacy/wing.py``, ``ranked/wing.py``,
``review/wing.py``; standings, seasons and the daily discard are one class each), then what
stands above the wings (which game, the pages, the sequels).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from bot.core.acts import Acts
from bot.core.base.delivery import LedgerPort
from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.base.replies import Answer
from bot.core.daily.daily import DailyDiscard
from bot.core.feature_acts import FeatureActs
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games
from bot.core.games.hand_count import HandCounter
from bot.core.games.housekeeping import Housekeeping
from bot.core.games.rules_help import rules_text
from bot.core.ledger import MessageLedger
from bot.core.messages.private_resume import PrivateResume
from bot.core.nights.attendance import Attendance
from bot.core.nights.director import NightDirector
from bot.core.nights.leagues import Leagues
from bot.core.nights.nights import Nights, NightStore
from bot.core.nights.wing import nights_wing
from bot.core.pages import GamePages
from bot.core.play.clock import GameClock
from bot.core.play.everyone import DealingIn
from bot.core.play.hints import Hints
from bot.core.play.lessons import Lessons
from bot.core.play.moves import Moves
from bot.core.play.opening import Lobbies
from bot.core.play.rematch import Rematches
from bot.core.play.table_info import TableInfo
from bot.core.play.wing import games_wing
from bot.core.privacy.players import PlayerData
from bot.core.privacy.records import PrivacyRecords
from bot.core.privacy.servers import ServerData
from bot.core.privacy.wing import privacy_wing
from bot.core.ranked.ranked import Ranked
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.wing import RankedPlay, ranked_play
from bot.core.review.automatic import AutoReviews
from bot.core.review.review import Reviews
from bot.core.review.verify import ShuffleChecks
from bot.core.review.wing import review_wing
from bot.core.seasons.seasons import Seasons, SeasonStore
from bot.core.sequels import Sequels
from bot.core.settings import CoreSettings, Given
from bot.core.standings.standings import Standings
from bot.core.store import CoreStore
from bot.core.tournament_acts import ClubActs, TournamentActs
from bot.core.tournaments.cancelling import Cancellations
from bot.core.tournaments.director import TournamentDirector
from bot.core.tournaments.tournaments import Tournaments
from bot.core.tournaments.wing import tournaments_wing
from bot.core.which_game import WhichGame

__all__ = ["Services", "ServicesStore"]

log = logging.getLogger(__name__)


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
    acts: Acts
    feature_acts: FeatureActs
    tournament_acts: TournamentActs
    club_acts: ClubActs

    @classmethod
    def build(cls, store: ServicesStore, settings: CoreSettings, given: Given) -> Services:
        """The core on ``store``, as ``settings`` say, with what the root made (``given``:
        the clock, the randomness, the members, the worker, the meters, the pages' links)."""
        feed, faults = ChangeFeed(), Faults()
        ledger = MessageLedger(store, feed, given.clock, faults=faults, shared=settings.shared)
        answers, copies = ledger.answers, ledger.copies
        port = LedgerPort(answers, copies, ledger.add, copies.asked, ledger.forget, ledger.settled)

        # (A wing is handed what stands above it as a call, bound once that is made.)
        async def refusal(dm_channel_id: int, user_id: int) -> str | None:
            return await which.lesson_refusal(dm_channel_id, user_id)

        async def held(tournament_id: int) -> str | None:
            return await nights.nights.held(tournament_id)

        play = games_wing(store, feed, port, faults, settings, given, lesson_refusal=refusal)
        games = play.games
        which = WhichGame(games, store)
        tours = tournaments_wing(store, feed, games, play.lobbies, port, faults, given, held=held)
        nights = nights_wing(store, feed, tours, port, faults, given)
        ranked, ranked_wing = ranked_play(store, feed, play, port, settings, given)
        sequels = Sequels(play, which, ranked, answers, copies, ledger.dm_links, faults)
        privacy = privacy_wing(
            store,
            play,
            settings,
            given,
            withdraw=tours.tournaments.withdraw,
            quit_ranked=ranked.quit,
            forget=play.forget,
            settle=sequels.settle,
        )
        review = review_wing(store, feed, games, given)
        standings = Standings(store, faults, given.membership)
        daily = DailyDiscard(store, given.clock)
        seasons = Seasons(store, given.clock, faults, given.membership)
        return cls(
            feed=feed,
            games=games,
            lobbies=play.lobbies,
            dealing_in=play.dealing_in,
            rematches=play.rematches,
            moves=play.moves,
            hints=play.hints,
            lessons=play.lessons,
            table=play.table,
            ledger=ledger,
            standings=standings,
            coach=play.coach,
            housekeeping=play.housekeeping,
            clock=play.clock,
            tournaments=tours.tournaments,
            cancellations=tours.cancellations,
            director=tours.director,
            nights=nights.nights,
            attendance=nights.attendance,
            leagues=nights.leagues,
            night_director=nights.night_director,
            seasons=seasons,
            reviews=review.reviews,
            daily=daily,
            auto_reviews=review.auto_reviews,
            shuffles=review.shuffles,
            hands=play.hands,
            privacy=privacy.privacy,
            servers=privacy.servers,
            ranked=ranked,
            ranked_play=ranked_wing,
            resume=play.resume,
            which=which,
            pages=GamePages(games, store, play.coach, review.reviews, nights.leagues),
            sequels=sequels,
            acts=Acts(which, play, standings, daily, ranked),
            feature_acts=FeatureActs(
                which, standings, seasons, review.reviews, review.shuffles, daily, nights.leagues
            ),
            tournament_acts=TournamentActs(which, tours.tournaments, tours.cancellations),
            club_acts=ClubActs(which, nights.nights, nights.attendance, nights.leagues),
        )

    @staticmethod
    def rules(topic: str | None = None) -> Answer:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        return Answer.say(rules_text(topic))
