"""A finished game told again deal by deal, every hand the table saw revealed: what its page
replays.

The game is dealt again from its recorded shuffles (:mod:`bot.core.deck.shuffles`) and every logged
action applied in turn, so each deal's hands can be read as they were dealt. Each call is
worded as the channel worded it (:func:`bot.core.messages.table.deal_text`), and with each one
the pegs as it left them, for the board at that step. Only a game that has ended is replayed
(:func:`replay` refuses one still going), and of each deal only the cards the table saw
(:func:`engine.seen.seen_cards`): every hand and throw of a deal whose crib was shown, and of
one the game ended in before that (a resignation, a clock, a pegging out) only the cards
played and the starter; what was never seen stays its player's. Cards left in the deck are
never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.core.base.text import Names
from bot.core.base.views import BoardPicture
from bot.core.deck.shuffles import ScriptedRandom
from bot.core.games.chances import chances, chances_line
from bot.core.games.deal_log import DealLog
from bot.core.games.endings import Ended
from bot.core.games.games import Loaded
from bot.core.messages.projection import board_at
from bot.core.messages.table import claim_wrong, deal_text
from engine.cards import Card
from engine.events import (
    Claimed,
    CutForDeal,
    Dealt,
    Event,
    GameOver,
    Heels,
    Mugginsed,
    Overclaimed,
    Shown,
    StarterCut,
)
from engine.game import Game
from engine.phase import Phase
from engine.players.win_chance import holds
from engine.scoring import ScoreItem
from engine.seen import crib_shown, seen_cards
from engine.views import PublicView

__all__ = ["DealReplay", "GameReplay", "ShowReplay", "Step", "replay"]


@dataclass(frozen=True, slots=True)
class Step:
    """One call of the game, as the channel said it, the pegs it left (per side), the dealer's
    seat then and the winning side once the game is won."""

    text: str
    pegs: tuple[tuple[int, int], ...]
    dealer: int
    winner: int | None = None
    #: Each side's chance to win, on a deal's first step (two players: bot.core.games.chances).
    chances: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ShowReplay:
    """One hand (or the crib) counted: whose, the cards, the starter and each scoring item."""

    seat: int
    crib: bool
    cards: tuple[Card, ...]
    starter: Card
    items: tuple[ScoreItem, ...]
    points: int
    #: The side's score after it.
    total: int
    #: Counting by hand: what its owner claimed (None: counted by the engine), and what the
    #: claim got wrong as the table said it (:func:`~bot.core.messages.table.claim_wrong`).
    claimed: int | None = None
    wrong: str = ""


@dataclass(slots=True)
class DealReplay:
    """One deal: who dealt, each seat's hand as dealt and what it put in the crib (of a deal
    whose crib was never shown, only the cards of them the table saw), the starter, the steps
    (indexes into :attr:`GameReplay.steps`) and the shows."""

    number: int
    dealer: int
    hands: list[tuple[Card, ...]]
    discards: list[tuple[Card, ...]]
    starter: Card | None = None
    first_step: int = 0
    last_step: int = 0
    shows: list[ShowReplay] = field(default_factory=list)
    #: Whether the crib was shown (:func:`engine.seen.crib_shown`): every card of the hands
    #: and the crib was seen. Until :meth:`keep_seen`, the hands are as dealt.
    shown: bool = False

    def keep_seen(self, events: Sequence[Event]) -> None:
        """Keep of the hands and throws only the cards the deal's ``events`` showed the table."""
        self.shown = crib_shown(events)
        seen = seen_cards(events)
        self.hands = [tuple(c for c in hand if c in seen) for hand in self.hands]
        self.discards = [tuple(c for c in thrown if c in seen) for thrown in self.discards]


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A whole ended game: the names, the steps in order and the deals they fall in."""

    names: Names
    view: PublicView
    steps: tuple[Step, ...]
    deals: tuple[DealReplay, ...]
    #: The lines before the first deal (the cut for deal, and in five-card cribbage the
    #: three for last).
    opening: int

    def board(self, step: int) -> BoardPicture:
        """The board after ``step`` (clamped to the game's steps)."""
        at = self.steps[max(0, min(step, len(self.steps) - 1))]
        return board_at(self.view, at.pegs, at.dealer, at.winner, at.chances)


def _line(
    names: Names, events: Sequence[Event], view: PublicView, ended: Ended | None = None
) -> str:
    """The channel's words for one event (with the heels said beside the starter;
    ``ended``: how the game ended, for the result)."""
    text = deal_text(names, events, view, live=False, ended=ended)
    if text.result:
        return text.result
    if text.play:
        return text.play
    return text.show.split("\n", 1)[0]


def replay(loaded: Loaded) -> GameReplay | None:
    """The ended game of ``loaded`` told again, or None when it cannot be (a game begun before
    shuffles were recorded, or one not over: its hands are still secret)."""
    game = loaded.game
    if loaded.shuffles is None or game.state.phase is not Phase.OVER:
        return None
    again, first = Game.new(
        list(game.state.players),
        rng=ScriptedRandom(list(loaded.shuffles)),
        rules=game.state.rules,
        dealer=game.state.given_dealer,
    )
    teller = _Teller(again, game.public_view(), loaded.record.ended(game))
    teller.add(first, None)
    for action in game.actions:
        teller.add(again.apply(action), action)
    return teller.done()


class _Teller:
    """Turns the replayed events into steps and deals, one action's events at a time."""

    def __init__(self, again: Game, view: PublicView, ended: Ended | None) -> None:
        self.again = again
        self.ended = ended
        self.view = view
        self.names = Names.of(view)
        self.log = DealLog.start(view.num_sides)
        self.steps: list[Step] = []
        self.deals: list[DealReplay] = []
        self.opening = 0
        #: Who deals first, once the cut for deal says so (the boards before deal 1 mark them).
        self.first_dealer = 0

    def _step(
        self, text: str, winner: int | None = None, said: tuple[str, ...] | None = None
    ) -> None:
        dealer = self.deals[-1].dealer if self.deals else self.first_dealer
        self.steps.append(Step(text, tuple(self.log.pegs), dealer, winner, said))
        if self.deals:
            self.deals[-1].last_step = len(self.steps) - 1
        else:
            # Before the first deal: the cut for deal, and the points for last (five-card).
            self.opening = len(self.steps)

    def add(self, events: Sequence[Event], action: dict[str, object] | None) -> None:
        """The events of one action (``action``: the logged action; None for the first deal)."""
        if action is not None and action.get("type") == "discard" and self.deals:
            seat = int(str(action["seat"]))
            codes = action.get("cards")
            if isinstance(codes, list):
                self.deals[-1].discards[seat] = tuple(Card.parse(str(c)) for c in codes)
        for i, event in enumerate(events):
            if isinstance(event, Heels) and i > 0 and isinstance(events[i - 1], StarterCut):
                continue  # said (and pegged) with the starter
            self.log.add([event])
            match event:
                case CutForDeal():
                    self.first_dealer = event.dealer
                    self._step(_line(self.names, [event], self.view))
                case Dealt():
                    if self.deals:
                        self._keep_seen()
                    seats = range(self.again.state.num_players)
                    self.deals.append(
                        DealReplay(
                            event.deal_number,
                            event.dealer,
                            [self.again.hand(s) for s in seats],
                            [() for _ in seats],
                            first_step=len(self.steps),
                        )
                    )
                    said = self._chances(event.dealer)
                    line = _line(self.names, [event], self.view)
                    if said is not None:
                        sides = [self.names.side(side) for side in range(2)]
                        line += " " + chances_line(sides, said)
                    self._step(line, said=said)
                case StarterCut():
                    self.deals[-1].starter = event.card
                    after = events[i + 1] if i + 1 < len(events) else None
                    if isinstance(after, Heels):
                        # Said with the starter, with the heels' peg moved.
                        self.log.add([after])
                        self._step(_line(self.names, [event, after], self.view))
                    else:
                        self._step(_line(self.names, [event], self.view))
                case Shown():
                    self.deals[-1].shows.append(
                        ShowReplay(
                            event.seat,
                            event.crib,
                            event.cards,
                            event.starter,
                            event.score.items,
                            event.score.total,
                            event.total,
                            event.claimed,
                            claim_wrong(event),
                        )
                    )
                    self._step(_line(self.names, [event], self.view))
                case GameOver():
                    line = _line(self.names, [event], self.view, self.ended)
                    self._step(line, event.result.winner)
                case Claimed() | Mugginsed() | Overclaimed():
                    self._step(_line(self.names, [event], self.view))
                case _:
                    line = _line(self.names, [event], self.view)
                    if line:
                        self._step(line)

    def _chances(self, dealer: int) -> tuple[str, ...] | None:
        """Each side's chance to win as a deal that ``dealer`` deals begins (where the tables
        hold for the game's rules: two players)."""
        if not holds(self.view.rules):
            return None
        scores = [front for front, _back in self.log.pegs]
        return chances(scores, self.view.target, self.view.sides[dealer])

    def _keep_seen(self) -> None:
        """Hide what the table never saw of the last deal (over: the next one is dealt, or the
        game ended); the log still holds its events."""
        last = self.deals[-1]
        last.keep_seen(self.log.events(last.number))

    def done(self) -> GameReplay:
        """The game told."""
        if self.deals:
            self._keep_seen()
        return GameReplay(self.names, self.view, tuple(self.steps), tuple(self.deals), self.opening)
