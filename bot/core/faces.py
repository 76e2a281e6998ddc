"""The core's contract with each outer layer: what ``bot/discord`` (:class:`DiscordFace`) and
``bot/web`` (:class:`WebFace`) may reach of the core, each part by its own class, and what the
Discord client asks of the process that sends (:class:`Sender`, :data:`BACKGROUND`).

The outer layers annotate with a face, never :class:`~bot.core.services.Services`, so mypy
refuses a part outside their contract; ``Services`` satisfies both faces structurally (the
root hands it over as each). The verbs each layer calls on its face's parts are counted, and
held to a ceiling, by ``tests/bot/test_doors.py``: a feature that adds one raises the ceiling
on purpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.core.acts import Acts
from bot.core.base.feed import ChangeFeed
from bot.core.base.owners import Owner
from bot.core.base.replies import Answer
from bot.core.feature_acts import FeatureActs
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games
from bot.core.games.hand_count import HandCounter
from bot.core.games.housekeeping import Housekeeping
from bot.core.nights.attendance import Attendance
from bot.core.nights.nights import Nights
from bot.core.pages import GamePages
from bot.core.play.everyone import DealingIn
from bot.core.play.hints import Hints
from bot.core.play.lessons import Lessons
from bot.core.play.moves import Moves
from bot.core.play.opening import Lobbies
from bot.core.play.rematch import Rematches
from bot.core.play.table_info import TableInfo
from bot.core.privacy.players import PlayerData
from bot.core.privacy.servers import ServerData
from bot.core.ranked.ranked import Ranked
from bot.core.review.review import Reviews
from bot.core.sequels import Sequels
from bot.core.tournament_acts import ClubActs, TournamentActs
from bot.core.tournaments.cancelling import Cancellations
from bot.core.tournaments.tournaments import Tournaments
from bot.core.which_game import WhichGame

__all__ = [
    "BACKGROUND",
    "DIRECTOR",
    "NIGHTS",
    "REFEREE",
    "DiscordFace",
    "DiscordGames",
    "Sender",
    "WebFace",
]

#: The parts the process that sends runs in the background, as
#: :meth:`Sending.background <bot.core.sending.Sending.background>` names them (and
#: ``/readyz`` and ``cribbage_background`` after it).
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


class DiscordGames(Protocol):
    """The games' parts ``bot/discord`` reaches: their lobbies, moves, tables, hints, lessons,
    hands counted, and the idle games' housekeeping."""

    @property
    def hands(self) -> HandCounter: ...

    @property
    def hints(self) -> Hints: ...

    @property
    def housekeeping(self) -> Housekeeping: ...

    @property
    def lessons(self) -> Lessons: ...

    @property
    def lobbies(self) -> Lobbies: ...

    @property
    def moves(self) -> Moves: ...

    @property
    def table(self) -> TableInfo: ...


class DiscordFace(DiscordGames, Protocol):
    """What ``bot/discord`` reaches of the core: the games' parts (:class:`DiscordGames`), the
    acts its commands run where they are used (a game's, the features', a tournament's, a
    club's), the parts its clicks and background tasks call, what follows an answer
    (``sequels``) and the rules' help."""

    @property
    def acts(self) -> Acts: ...

    @property
    def attendance(self) -> Attendance: ...

    @property
    def cancellations(self) -> Cancellations: ...

    @property
    def club_acts(self) -> ClubActs: ...

    @property
    def coach(self) -> CoachSettings: ...

    @property
    def feature_acts(self) -> FeatureActs: ...

    @property
    def nights(self) -> Nights: ...

    @property
    def privacy(self) -> PlayerData: ...

    @property
    def ranked(self) -> Ranked: ...

    @property
    def reviews(self) -> Reviews: ...

    @property
    def sequels(self) -> Sequels: ...

    @property
    def servers(self) -> ServerData: ...

    @property
    def tournament_acts(self) -> TournamentActs: ...

    @property
    def tournaments(self) -> Tournaments: ...

    def rules(self, topic: str | None = None) -> Answer: ...


class WebFace(Protocol):
    """What ``bot/web`` reaches of the core: the game pages' reads, and what the Activity's
    table does (its moves, its lobby, its hints, its rematch) and what follows each answer."""

    @property
    def dealing_in(self) -> DealingIn: ...

    @property
    def feed(self) -> ChangeFeed: ...

    @property
    def games(self) -> Games: ...

    @property
    def hints(self) -> Hints: ...

    @property
    def lobbies(self) -> Lobbies: ...

    @property
    def moves(self) -> Moves: ...

    @property
    def pages(self) -> GamePages: ...

    @property
    def rematches(self) -> Rematches: ...

    @property
    def sequels(self) -> Sequels: ...

    @property
    def which(self) -> WhichGame: ...
