"""What the core is built with: its settings (:class:`CoreSettings`, plain values an operator
chooses) and what the root hands it (:class:`Given`: the clock, the randomness and the ports
to the outside). :meth:`bot.core.services.Services.build` takes the two whole, and each wing's
wiring hands every class the fields it uses, by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.core.base.meters import Meters
from bot.core.deck.seeded import SeedDealer
from bot.core.games.games import RngFactory
from bot.core.games.housekeeping import RETENTION
from bot.core.games.membership import Membership
from bot.core.messages.game_messages import REMIND_AFTER
from bot.core.worker.thinking import WorkerThinking

__all__ = [
    "COUNT_TIMEOUT",
    "GRACE",
    "MUGGINS_WINDOW",
    "TURN_SECONDS",
    "CoreSettings",
    "Given",
    "Link",
]

# (The defaults of the wings above the games and their messages are defined here, where the
# settings are, so that those wings' wiring may take the settings whole.)
#: Manual counting: how long opponents may call muggins after a claim, and how long a
#: person may take to claim before the bot counts for them (settings override both).
MUGGINS_WINDOW = timedelta(seconds=30)
COUNT_TIMEOUT = timedelta(seconds=180)
#: How long a server's data outlives the bot's removal from it, by default (the setting
#: ``LEFT_SERVER_DAYS`` overrides it): the bot may be invited back meanwhile.
GRACE = timedelta(days=30)
#: How long a ranked turn lasts, by default (the setting ``RANKED_TURN_SECONDS`` overrides it).
TURN_SECONDS = 60.0

#: A page's address in the browser for an id (a game's, a club's), None when not served.
Link = Callable[[int], str | None]


@dataclass(frozen=True, slots=True)
class CoreSettings:
    """The core's settings, each the production default unless the operator chose another
    (``bot/settings.py`` reads them from the environment)."""

    #: How long a game nobody moves in lasts (``IDLE_EXPIRY_DAYS``' default).
    idle_expiry: timedelta = timedelta(days=7)
    #: How long a turn waits before its player is reminded.
    remind_after: timedelta = REMIND_AFTER
    #: How long a missed score may be called (muggins).
    muggins_window: timedelta = MUGGINS_WINDOW
    #: How long a player may take to count their hand before it is counted for them.
    count_timeout: timedelta = COUNT_TIMEOUT
    #: How long a finished game is kept whole.
    retention: timedelta = RETENTION
    #: How long a server's data outlives the bot's leaving it.
    left_server_grace: timedelta = GRACE
    #: How long a ranked turn lasts.
    ranked_turn: timedelta = timedelta(seconds=TURN_SECONDS)
    #: Other processes of the bot use the same database (PostgreSQL).
    shared: bool = False
    #: The game's Activity is on (the lobby and the live table offer *Play at the table*).
    activity: bool = False
    #: The privacy policy's address, which ``/cribbage privacy`` names.
    policy_url: str | None = None
    #: How to reach whoever runs the bot, which ``/cribbage privacy`` names.
    contact: str | None = None


@dataclass(frozen=True, slots=True)
class Given:
    """What the root hands the core: its clock and randomness, who is a member where, the
    worker the long decisions are made in, the operator's meters and the pages' links."""

    #: The time, as the core reads it.
    clock: Callable[[], datetime]
    #: The random source of each deal, by its key (each shuffle sealed by a seed drawn from
    #: it in the running bot: :mod:`bot.core.deck.seeded`).
    rng_factory: RngFactory
    #: The computer players' random source.
    computer_rng: random.Random
    #: Who is still a member of a server, and who sees a channel.
    membership: Membership
    #: Where the levels that think at length make their plays, and reviews are made (None:
    #: on the loop).
    thinking: WorkerThinking | None
    #: What the core counts for the operator's metrics
    #: (:data:`~bot.core.base.meters.NO_METERS`: nothing).
    meters: Meters
    #: A game's page in the browser, for its table messages (None: no pages).
    page_link: Link | None = None
    #: A club's league page, for ``/club league`` (None: no pages).
    league_link: Link | None = None

    @classmethod
    def real(
        cls,
        membership: Membership,
        thinking: WorkerThinking | None,
        meters: Meters,
        *,
        page_link: Link | None,
        league_link: Link | None,
    ) -> Given:
        """The running bot's: real randomness (``random.SystemRandom``, each deal sealed by a
        seed drawn from it) and the UTC clock, with the ports the root made."""
        system = random.SystemRandom()
        return cls(
            clock=lambda: datetime.now(UTC),
            rng_factory=lambda _key: SeedDealer(system),
            computer_rng=system,
            membership=membership,
            thinking=thinking,
            meters=meters,
            page_link=page_link,
            league_link=league_link,
        )

    def stamp(self) -> float:
        """The clock as a Unix time (the parts that count seconds)."""
        return self.clock().timestamp()
