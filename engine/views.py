"""What one seat, or everyone, may know about a game: frozen snapshots with no way back.

A view holds only tuples of cards and numbers and other immutable values, taken by the game
from its state (:func:`public_fields`, :func:`seat_fields`: the state's own tuples, or fresh
ones built from its lists); it keeps no reference to the game or to its lists, so rendering a
:class:`PublicView` cannot reach a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.counting import Counting, CountTurn, MugginsWindow
from engine.events import Shown
from engine.outcome import GameResult, Scoring
from engine.phase import Phase
from engine.rules import Rules
from engine.state import GameState

__all__ = ["PublicView", "SeatView", "TargetAndOptions", "public_fields", "seat_fields"]


class TargetAndOptions:
    """The target and the table's options of what is played by :attr:`rules` (a view),
    read from the rules: every part reads them there."""

    __slots__ = ()

    @property
    def rules(self) -> Rules:
        """The rules it is played by."""
        raise NotImplementedError

    @property
    def target(self) -> int:
        """Points needed to win (the rules': 121 or 61 in the standard game)."""
        return self.rules.target

    @property
    def scoring(self) -> Scoring:
        """The rule for game points: the lurch or the skunk scale."""
        return self.rules.scoring

    @property
    def counting(self) -> Counting:
        """Who counts the show: the engine, or each hand's owner (with muggins)."""
        return self.rules.counting


@dataclass(frozen=True, slots=True)
class PublicView(TargetAndOptions):
    """The table as everyone sees it.

    ``sides`` maps seat -> side, ``scores`` is per side, ``played`` lists each seat's cards
    played this deal in order, ``series`` the cards since the count was last reset,
    ``hand_sizes`` how many cards each seat still holds, ``last_show`` the most recent show
    (during a manual show, the hands counted so far).

    ``rules`` are the game's (:class:`~engine.rules.Rules`: every part reads the rules from
    here), with the target and the table's options (``scoring``, lurch or skunk, and
    ``counting``, auto or manual) as properties. ``discard_count`` is what each seat but the
    dealer throws (in a seat's view, what that seat throws). With manual counting,
    ``count_turn`` is the hand whose claim the table waits for (phase ``SHOW``) and
    ``muggins`` the claim open to muggins, if any. These three are keyword-only with today's
    defaults (the standard two-player game), so views built by hand elsewhere need not name
    them.
    """

    players: tuple[str, ...]
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
    rules: Rules = field(default_factory=Rules, kw_only=True)
    count_turn: CountTurn | None = field(default=None, kw_only=True)
    muggins: MugginsWindow | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class SeatView(PublicView):
    """The table as one seat sees it: the public view plus that seat's own cards.

    ``hand`` is what the seat still holds, ``kept`` the cards it kept this deal (empty
    before it discards), ``discards`` what it put in the crib and ``playable`` the cards it may
    play right now.
    """

    seat: int
    hand: tuple[Card, ...]
    kept: tuple[Card, ...]
    discards: tuple[Card, ...]
    playable: tuple[Card, ...]


def public_fields(
    state: GameState, pending: tuple[int, ...], count_turn: CountTurn | None
) -> dict[str, Any]:
    """The fields of the :class:`PublicView` of ``state``, fresh tuples all (``pending``: the
    seats still to discard; ``count_turn``: the hand a manual show waits for)."""
    return {
        "players": state.players,
        "num_sides": len(state.scores),
        "sides": tuple(state.side_of(s) for s in range(state.num_players)),
        "scores": state.scores,
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": state.turn,
        "count": state.count,
        "series": state.series,
        "played": state.played,
        "starter": state.starter,
        "hand_sizes": tuple(len(h) for h in state.hands),
        "crib_size": len(state.crib),
        "pending_discards": pending,
        "deal_number": state.deal_number,
        "discard_count": state.rules.others.to_crib,
        "result": state.result,
        "last_show": state.last_show,
        "rules": state.rules,
        "count_turn": count_turn,
        "muggins": state.muggins_window,
    }


def seat_fields(state: GameState, seat: int, playable: tuple[Card, ...]) -> dict[str, Any]:
    """The fields a :class:`SeatView` adds for ``seat``: its own cards (``playable``: those it
    may play now)."""
    return {
        "seat": seat,
        "hand": tuple(state.hands[seat]),
        "kept": tuple(state.kept[seat]),
        "discards": tuple(state.discards[seat]),
        "playable": playable,
    }
