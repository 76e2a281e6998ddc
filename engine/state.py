"""What every part of a game shares: the seats, the scores, the cards of the deal, whose turn
it is, and the action log.

:class:`~engine.game.Game` is the one door to a game; behind it the parts that run it
(:mod:`engine.dealing`, :mod:`engine.playing`, :mod:`engine.showing`) and the one that saves
and restores it (:mod:`engine.saving`) each read and change this state. It holds no rule of
its own beyond what belongs to the whole table: who sits where, which side a seat scores for,
pegging a side's points and ending the game when a side reaches the target. The rules
(:class:`engine.rules.Rules`) are part of the state, and every part reads them from here.

Outside the engine the state is read, never written, through :class:`TableState` (what
:attr:`engine.game.Game.state` is typed as): the fields the whole table may know, each an
immutable value or a tuple, so a reader can neither change the game nor see it change under a
value it kept. The hidden cards (the hands, what each seat kept and threw, the crib, the deck)
and the random source are not among them: a seat's own cards reach the outside only through
:meth:`engine.game.Game.view` and :meth:`engine.game.Game.hand`, and a channel sees only
:meth:`engine.game.Game.public_view`. Nor is the action log, whose discards name thrown cards
(:attr:`engine.game.Game.actions` copies it for saving and replaying).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.cards import Card
from engine.counting import MugginsWindow
from engine.errors import GameFinished, NotAPlayer
from engine.events import GameOver, Shown
from engine.outcome import EndReason, GameResult, conceded_to
from engine.phase import Phase
from engine.rules import Rules

__all__ = ["GameState", "TableState"]


class TableState(Protocol):
    """What everyone at the table may know of a game's state, read-only (see the module):
    :attr:`engine.game.Game.state`. Seats are numbered from 0 in the order the players were
    given; scores are kept per side, as the rules make the sides."""

    @property
    def players(self) -> tuple[str, ...]:
        """Display names in seat order."""

    @property
    def rules(self) -> Rules:
        """The rules the game is played by: the target and the table's options
        (``rules.target``, ``rules.scoring``, ``rules.counting``), the sides
        (``rules.num_sides``, ``rules.side_of``) and the deal (``rules.others.dealt`` and
        ``rules.others.to_crib``: what each seat but the dealer is dealt and throws;
        :meth:`~engine.rules.Rules.dealt` and :meth:`~engine.rules.Rules.to_crib` say any
        seat's)."""

    @property
    def num_players(self) -> int:
        """How many seats (2, 3 or 4 in the standard game)."""

    @property
    def phase(self) -> Phase:
        """What the game waits for: discards, a card in the play, a count claimed at the
        show (manual counting), or nothing (over)."""

    @property
    def dealer(self) -> int:
        """The seat dealing this deal (its crib)."""

    @property
    def deal_number(self) -> int:
        """1 for the first deal, then 2, 3, ..."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score."""

    @property
    def cut_rounds(self) -> tuple[tuple[Card | None, ...], ...]:
        """The cut for first deal: per round, the card each seat cut (``None`` for a seat
        that did not cut again: only the players tied for lowest re-cut)."""

    @property
    def given_dealer(self) -> int | None:
        """The seat the table gave the first deal without a cut (a following game's: the
        loser of the game before), or None when the cut decided: what replaying the game from
        its shuffles and actions needs (:meth:`engine.game.Game.replay`'s ``dealer``)."""

    @property
    def played(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards played this deal, in order."""

    @property
    def starter(self) -> Card | None:
        """The starter, once cut (``None`` while the crib is being formed)."""

    @property
    def series(self) -> tuple[Card, ...]:
        """The cards played since the count was last reset, in order."""

    @property
    def count(self) -> int:
        """The running count of the play (0 after a reset)."""

    @property
    def turn(self) -> int | None:
        """The seat that must play now (or, at a manual show, claim the count of the hand
        in :attr:`engine.game.Game.count_turn`), or ``None`` when nobody's move is awaited."""

    @property
    def gone(self) -> frozenset[int]:
        """The seats that said go in this series."""

    @property
    def last_show(self) -> tuple[Shown, ...]:
        """The most recent show (during a manual show, the hands counted so far)."""

    @property
    def muggins_window(self) -> MugginsWindow | None:
        """The claim opponents may still call muggins on, if any (every claim opens one;
        in games logged before that rule, only a short one)."""

    @property
    def result(self) -> GameResult | None:
        """How the game ended, once it has."""


@dataclass(slots=True, eq=False)
class GameState:
    """One game's whole state (see the module). Seats are numbered from 0 in the order the
    players were given; scores are kept per side, as the rules make the sides.

    What :class:`TableState` lists is held as immutable values and tuples, replaced rather
    than changed (:meth:`peg`, :meth:`play_card`), so the game can hand it out as it is; the
    hidden cards are lists, and never leave the engine but through a view."""

    players: tuple[str, ...]
    rules: Rules
    #: The random source: every shuffle uses it. Never saved (the shuffled deck is).
    rng: random.Random
    phase: Phase = Phase.DISCARD
    dealer: int = 0
    deal_number: int = 0
    scores: tuple[int, ...] = ()
    cut_rounds: tuple[tuple[Card | None, ...], ...] = ()
    #: The seat the table gave the first deal without a cut (a following game's: the loser
    #: of the game before deals first), or None when the cut decided.
    given_dealer: int | None = None
    deck: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    kept: list[list[Card]] = field(default_factory=list)
    discards: list[list[Card]] = field(default_factory=list)
    played: tuple[tuple[Card, ...], ...] = ()
    crib: list[Card] = field(default_factory=list)
    starter: Card | None = None
    #: The cards played since the count was last reset, and the count.
    series: tuple[Card, ...] = ()
    count: int = 0
    turn: int | None = None
    #: The seats that said go in this series.
    gone: frozenset[int] = frozenset()
    result: GameResult | None = None
    last_show: tuple[Shown, ...] = ()
    #: :attr:`last_show` as JSON-ready dicts, kept alongside so saving costs nothing.
    last_show_data: list[dict[str, Any]] = field(default_factory=list)
    #: Manual counting: the hands still to claim in show order (seat, crib?), the first
    #: being the one the table waits for, and a claim open to muggins.
    to_count: list[tuple[int, bool]] = field(default_factory=list)
    muggins_window: MugginsWindow | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.players)
        if n != self.rules.seats:
            raise ValueError(f"These rules seat {self.rules.seats} players, not {n}.")
        if not self.scores:
            self.scores = (0,) * self.rules.num_sides
        if not self.played:
            self.played = ((),) * n
        for name in ("hands", "kept", "discards"):
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
        self.last_show = (*self.last_show, shown)
        self.last_show_data.append(shown.to_dict())

    def peg(self, side: int, points: int) -> int:
        """Peg ``points`` to ``side``; its score now."""
        scores = self.scores
        score = scores[side] + points
        self.scores = (*scores[:side], score, *scores[side + 1 :])
        return score

    def play_card(self, seat: int, card: Card) -> None:
        """``seat`` plays ``card`` from its hand: played, and part of the series and the
        count."""
        self.hands[seat].remove(card)
        played = list(self.played)
        played[seat] = (*played[seat], card)
        self.played = tuple(played)
        self.series = (*self.series, card)
        self.count += card.value

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
