"""What every part of a game shares: the seats, the scores, the cards of the deal, whose turn
it is, and the action log.

:class:`~engine.game.Game` is the one door to a game; behind it the parts that run it
(:mod:`engine.dealing`, :mod:`engine.playing`, :mod:`engine.showing`) and the one that saves
and restores it (:mod:`engine.saving`) each read and change this state. It holds no rule of
its own beyond what belongs to the whole table: who sits where, which side a seat scores for,
pegging a side's points and ending the game when a side reaches the target. The rules
(:class:`engine.rules.Rules`) are part of the state, and every part reads them from here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.counting import MugginsWindow
from engine.errors import GameFinished, NotAPlayer
from engine.events import GameOver, Shown
from engine.outcome import EndReason, GameResult, conceded_to
from engine.phase import Phase
from engine.rules import Rules

__all__ = ["GameState"]


@dataclass(slots=True, eq=False)
class GameState:
    """One game's whole state (see the module). Seats are numbered from 0 in the order the
    players were given; scores are kept per side, as the rules make the sides."""

    players: tuple[str, ...]
    rules: Rules
    #: The random source: every shuffle uses it. Never saved (the shuffled deck is).
    rng: random.Random
    phase: Phase = Phase.DISCARD
    dealer: int = 0
    deal_number: int = 0
    scores: list[int] = field(default_factory=list)
    cut_rounds: list[list[Card | None]] = field(default_factory=list)
    #: The seat the table gave the first deal without a cut (a following game's: the loser
    #: of the game before deals first), or None when the cut decided.
    first_dealer: int | None = None
    deck: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    kept: list[list[Card]] = field(default_factory=list)
    discards: list[list[Card]] = field(default_factory=list)
    played: list[list[Card]] = field(default_factory=list)
    crib: list[Card] = field(default_factory=list)
    starter: Card | None = None
    #: The cards played since the count was last reset, and the count.
    series: list[Card] = field(default_factory=list)
    count: int = 0
    turn: int | None = None
    #: The seats that said go in this series.
    gone: set[int] = field(default_factory=set)
    result: GameResult | None = None
    last_show: list[Shown] = field(default_factory=list)
    #: :attr:`last_show` as JSON-ready dicts, kept alongside so saving costs nothing.
    last_show_data: list[dict[str, Any]] = field(default_factory=list)
    #: Manual counting: the hands still to claim in show order (seat, crib?), the first
    #: being the one the table waits for, and a claim open to muggins.
    to_count: list[tuple[int, bool]] = field(default_factory=list)
    window: MugginsWindow | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.players)
        if n != self.rules.seats:
            raise ValueError(f"These rules seat {self.rules.seats} players, not {n}.")
        if not self.scores:
            self.scores = [0] * self.rules.num_sides
        for name in ("hands", "kept", "discards", "played"):
            if not getattr(self, name):
                setattr(self, name, [[] for _ in range(n)])

    @property
    def num_players(self) -> int:
        """How many seats."""
        return len(self.players)

    def side_of(self, seat: int) -> int:
        """The side a seat scores for (the rules': partners share one)."""
        return self.rules.side_of(seat)

    def check_seat(self, seat: int) -> None:
        """Raise :class:`NotAPlayer` unless ``seat`` is a seat of this game."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise NotAPlayer("You are not playing in this game.")

    def check_not_over(self) -> None:
        """Raise :class:`GameFinished` once the game is over."""
        if self.phase is Phase.OVER:
            raise GameFinished("The game is over.")

    def the_starter(self) -> Card:
        """The starter, which the play and the show come after."""
        assert self.starter is not None  # the play and the show come after the starter is cut
        return self.starter

    def show_cards(self, seat: int, crib: bool) -> list[Card]:
        """The cards ``seat`` shows: the ones it kept, or (``crib``) the crib, sorted."""
        return sorted(self.crib, key=Card.sort_key) if crib else self.kept[seat]

    def add_to_last_show(self, shown: Shown) -> None:
        """Keep ``shown`` as part of the show (and its JSON, for saving)."""
        self.last_show.append(shown)
        self.last_show_data.append(shown.to_dict())

    def reached_target(self, side: int) -> bool:
        """Whether ``side`` has reached the target."""
        return self.scores[side] >= self.rules.target

    def finish(self, winner: int, reason: EndReason) -> GameOver:
        """End the game, won by side ``winner``; nothing is played or counted after it."""
        self.result = self.rules.result(self.scores, winner, reason)
        self.phase = Phase.OVER
        self.turn = None
        return GameOver(result=self.result)

    def concede(self, seat: int) -> GameOver:
        """``seat`` resigns: its side loses, and the best of the other sides wins (on a tie,
        the side nearest the resigner's left)."""
        return self.finish(conceded_to(self.scores, self.side_of(seat)), EndReason.RESIGNED)

    def log(self, action: dict[str, Any]) -> None:
        """Append an accepted action to the log."""
        self.actions.append(action)
