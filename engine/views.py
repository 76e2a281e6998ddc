"""What one seat, or everyone, may know about a game: frozen snapshots with no way back.

A view holds only tuples of cards and numbers, built fresh by the game; it keeps no reference
to the game or to its lists, so rendering a :class:`PublicView` cannot reach a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.counting import Counting, CountTurn, MugginsWindow
from engine.events import Shown
from engine.outcome import GameResult, Scoring
from engine.phase import Phase

__all__ = ["PublicView", "SeatView"]


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as everyone sees it.

    ``sides`` maps seat -> side, ``scores`` is per side, ``played`` lists each seat's cards
    played this deal in order, ``series`` the cards since the count was last reset,
    ``hand_sizes`` how many cards each seat still holds, ``last_show`` the most recent show
    (during a manual show, the hands counted so far).

    The table's options: ``scoring`` (lurch or skunk) and ``counting`` (auto or manual).
    With manual counting, ``count_turn`` is the hand whose claim the table waits for (phase
    ``SHOW``) and ``muggins`` the claim open to muggins, if any. These four are
    keyword-only with today's defaults, so views built by hand elsewhere need not name them.
    """

    players: tuple[str, ...]
    target: int
    num_sides: int
    sides: tuple[int, ...]
    scores: tuple[int, ...]
    dealer: int
    phase: Phase
    turn: int | None
    count: int
    series: tuple[Card, ...]
    played: tuple[tuple[Card, ...], ...]
    starter: Card | None
    hand_sizes: tuple[int, ...]
    crib_size: int
    pending_discards: tuple[int, ...]
    deal_number: int
    discard_count: int
    result: GameResult | None
    last_show: tuple[Shown, ...]
    scoring: Scoring = field(default=Scoring.LURCH, kw_only=True)
    counting: Counting = field(default=Counting.AUTO, kw_only=True)
    count_turn: CountTurn | None = field(default=None, kw_only=True)
    muggins: MugginsWindow | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class SeatView(PublicView):
    """The table as one seat sees it: the public view plus that seat's own cards.

    ``hand`` is what the seat still holds, ``kept`` the four cards it kept this deal (empty
    before it discards), ``discards`` what it put in the crib and ``playable`` the cards it may
    play right now.
    """

    seat: int
    hand: tuple[Card, ...]
    kept: tuple[Card, ...]
    discards: tuple[Card, ...]
    playable: tuple[Card, ...]
