"""The play: cards played in turn, the count, every go, the resets, and the last card.

A part of :class:`~engine.game.Game` (see :mod:`engine.state`). After each card it decides
who moves next: the next seat that can play, the player who played last when everyone else
said go, or, when nobody can, the go point and a new count; after the last card the show
(:class:`~engine.showing.Showing`) begins. When the rules play one pass to 31
(:attr:`engine.rules.PlayEnd.FIRST_GO`), the first go or 31 ends the play instead. The count's
limit and what each card, go and last card scores are the rules'.
"""

from __future__ import annotations

from engine.cards import Card
from engine.errors import CardNotHeld, IllegalPlay, NotYourTurn, WrongPhase
from engine.events import CountReset, Event, Go, GoPoint, Played
from engine.outcome import EndReason
from engine.pegging import score_pegging
from engine.phase import Phase
from engine.rules import PlayEnd
from engine.showing import Showing
from engine.state import GameState

__all__ = ["Playing"]


class Playing:
    """The play of one game's ``state``; the ``show`` follows it."""

    def __init__(self, state: GameState, show: Showing) -> None:
        self.state = state
        self.show = show

    def playable_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may legally play now (empty unless it is the seat's turn)."""
        state = self.state
        state.check_seat(seat)
        if state.phase is not Phase.PLAY or state.turn != seat:
            return ()
        room = state.rules.points.max_count - state.count
        return tuple(c for c in state.hands[seat] if c.value <= room)

    def verify_play(self, seat: int, card: Card) -> None:
        """Raise the :class:`RuleError` that :meth:`play` would raise, or nothing."""
        state = self.state
        state.check_not_over()
        state.check_seat(seat)
        if state.phase is Phase.DISCARD:
            raise WrongPhase(_before_the_play(state, seat))
        if state.phase is Phase.SHOW:
            # (A manual show may have no seat to move: the last claim open to muggins.)
            raise WrongPhase("The play is over: the hands are being counted.")
        if state.turn != seat:
            assert state.turn is not None  # the play always has a seat to move
            raise NotYourTurn(f"It's {state.players[state.turn]}'s turn.")
        if not isinstance(card, Card):
            raise CardNotHeld("Name the card to play, like 5H.")
        if card not in state.hands[seat]:
            raise CardNotHeld(f"You don't hold {card}.")
        if state.count + card.value > state.rules.points.max_count:
            raise IllegalPlay(f"{card} would make the count {state.count + card.value}.")

    def play(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` (verified) from ``seat``'s hand, score it, and run what follows."""
        state = self.state
        state.log({"type": "play", "seat": seat, "card": card.code})
        state.play_card(seat, card)
        score = score_pegging(state.series, state.rules)
        side = state.side_of(seat)
        total = state.peg(side, score.total)
        events: list[Event] = [
            Played(
                seat=seat,
                side=side,
                card=card,
                count=state.count,
                items=score.items,
                points=score.total,
                score=total,
            )
        ]
        if state.reached_target(side):
            events.append(state.finish(side, EndReason.TARGET))
            return events
        events.extend(self._after_card(seat))
        return events

    def _after_card(self, last: int) -> list[Event]:
        """Decide who moves after ``last`` played: go, go points, resets, or the show."""
        state = self.state
        n = state.num_players
        one_pass = state.rules.play_end is PlayEnd.FIRST_GO
        events: list[Event] = []
        if state.count == state.rules.points.max_count:
            # 31 scored 2 in the play itself; there is no go point after it.
            leader = self._next_holder(last)
            if leader is None or one_pass:
                return self.show.start()
            self._reset(leader)
            return [CountReset(next_seat=leader)]
        if not any(state.hands):
            events.extend(self._go_point(last, last_card=True))
            if state.phase is Phase.OVER:
                return events
            return events + self.show.start()
        for k in range(1, n):
            seat = (last + k) % n
            if not state.hands[seat]:
                continue  # out of cards: skipped without a word
            if self._can_move(seat):
                state.turn = seat
                return events
            if seat not in state.gone:
                state.gone |= {seat}
                events.append(Go(seat=seat))
        if self._can_move(last):
            # Everyone else said go: the last player keeps playing while they can.
            state.turn = last
            return events
        events.extend(self._go_point(last, last_card=False))
        if state.phase is Phase.OVER:
            return events
        if one_pass:
            return events + self.show.start()
        leader = self._next_holder(last)
        assert leader is not None  # someone holds cards, or this was the last card
        self._reset(leader)
        events.append(CountReset(next_seat=leader))
        return events

    def _can_move(self, seat: int) -> bool:
        state = self.state
        room = state.rules.points.max_count - state.count
        return any(c.value <= room for c in state.hands[seat])

    def _next_holder(self, last: int) -> int | None:
        """The first seat after ``last`` (ending with ``last`` itself) still holding cards."""
        state = self.state
        n = state.num_players
        for k in range(1, n + 1):
            seat = (last + k) % n
            if state.hands[seat]:
                return seat
        return None

    def _reset(self, leader: int) -> None:
        state = self.state
        state.count = 0
        state.series = ()
        state.gone = frozenset()
        state.turn = leader

    def _go_point(self, seat: int, *, last_card: bool) -> list[Event]:
        """1 to ``seat`` for the go or the last card, and the end if that reaches the target."""
        state = self.state
        side = state.side_of(seat)
        points = state.rules.points.last_card if last_card else state.rules.points.go
        score = state.peg(side, points)
        events: list[Event] = [
            GoPoint(
                seat=seat,
                side=side,
                points=points,
                score=score,
                last_card=last_card,
            )
        ]
        if state.reached_target(side):
            events.append(state.finish(side, EndReason.TARGET))
        return events


def _before_the_play(state: GameState, seat: int) -> str:
    """What ``seat`` is told when it plays a card before the crib is made: the cards it owes
    the crib, or whom the play waits for once it has thrown its own."""
    owed = state.rules.to_crib(seat, state.dealer)
    if owed and not state.kept[seat]:
        cards = "card" if owed == 1 else "cards"
        return f"Put your {owed} {cards} in the crib first: the play starts once the crib is made."
    waiting = [state.players[s] for s in range(state.num_players) if not state.kept[s]]
    named = waiting[0] if len(waiting) < 2 else f"{', '.join(waiting[:-1])} and {waiting[-1]}"
    return f"The play starts once the crib is made: waiting for {named} to throw."
