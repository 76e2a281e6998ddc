"""The deal and the crib: the cut for first deal, each deal, the discards, and the starter.

A part of :class:`~engine.game.Game` (see :mod:`engine.state`): it shuffles with the game's
random source, deals one card at a time from the dealer's left, takes each seat's discards
into the crib, and once the crib is complete cuts the starter (his heels scored) and hands
the play its first turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import rules
from engine.cards import JACK, Card, full_deck
from engine.errors import BadDiscard, CardNotHeld, WrongPhase
from engine.events import CutForDeal, Dealt, Discarded, Event, Heels, StarterCut
from engine.outcome import EndReason
from engine.phase import Phase
from engine.rules import HEELS_POINTS
from engine.state import GameState

__all__ = ["Dealing"]


class Dealing:
    """The cut, the deal, the discards and the starter of one game's ``state``."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 6 with two players, else 5."""
        return rules.hand_size(self.state.num_players)

    @property
    def discard_count(self) -> int:
        """Cards each seat puts in the crib: 2 with two players, else 1."""
        return rules.discard_count(self.state.num_players)

    def pending_discards(self) -> tuple[int, ...]:
        """Seats that still have to put cards in the crib."""
        state = self.state
        if state.phase is not Phase.DISCARD:
            return ()
        return tuple(s for s in range(state.num_players) if not state.kept[s])

    def cut_for_deal(self) -> CutForDeal:
        """Each seat cuts a card; the lowest rank deals, and on a tie for lowest only the
        tied players cut again (the others sit the round out: ``None`` in its entry)."""
        state = self.state
        n = state.num_players
        cutting = list(range(n))
        while True:
            deck = full_deck()
            state.rng.shuffle(deck)
            cut: list[Card | None] = [None] * n
            for seat, card in zip(cutting, deck, strict=False):
                cut[seat] = card
            state.cut_rounds.append(cut)
            ranks = {seat: card.rank for seat, card in enumerate(cut) if card is not None}
            low = min(ranks.values())
            cutting = [seat for seat in cutting if ranks[seat] == low]
            if len(cutting) == 1:
                state.dealer = cutting[0]
                rounds = tuple(tuple(r) for r in state.cut_rounds)
                return CutForDeal(rounds=rounds, dealer=state.dealer)

    def deal(self) -> list[Event]:
        """Shuffle and deal one card at a time, starting left of the dealer."""
        state = self.state
        n = state.num_players
        deck = full_deck()
        state.rng.shuffle(deck)
        size = self.hand_size
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(size * n):
            hands[(state.dealer + 1 + i) % n].append(deck[i])
        state.deck = deck[size * n :]
        state.crib = []
        # Three players: the crib gets the top card of the deck to make four.
        crib_from_deck = n == 3
        if crib_from_deck:
            state.crib.append(state.deck.pop(0))
        state.hands = [sorted(h, key=Card.sort_key) for h in hands]
        state.kept = [[] for _ in range(n)]
        state.discards = [[] for _ in range(n)]
        state.played = [[] for _ in range(n)]
        state.starter = None
        state.series = []
        state.count = 0
        state.turn = None
        state.gone = set()
        state.to_count = []
        state.window = None
        state.deal_number += 1
        state.phase = Phase.DISCARD
        return [
            Dealt(
                dealer=state.dealer,
                deal_number=state.deal_number,
                hand_size=size,
                crib_from_deck=crib_from_deck,
            )
        ]

    def deal_next(self) -> list[Event]:
        """The deal passes to the left, and the next deal is dealt."""
        state = self.state
        state.dealer = (state.dealer + 1) % state.num_players
        return self.deal()

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        """Raise the :class:`RuleError` that :meth:`discard` would raise, or nothing."""
        state = self.state
        state.check_not_over()
        state.check_seat(seat)
        if state.kept[seat] or state.phase is not Phase.DISCARD:
            raise WrongPhase("You have already discarded.")
        seen: set[Card] = set()
        for card in cards:
            if not isinstance(card, Card):
                raise BadDiscard("Name the cards to put in the crib, like 5H JD.")
            if card in seen:
                raise BadDiscard(f"You named {card} twice.")
            seen.add(card)
        need = self.discard_count
        if len(seen) != need:
            noun = "card" if need == 1 else "cards"
            raise BadDiscard(f"You must put {need} {noun} in the crib.")
        for card in cards:
            if card not in state.hands[seat]:
                raise CardNotHeld(f"You don't hold {card}.")

    def discard(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        """Put ``cards`` (verified) from ``seat``'s hand in the crib; once the crib is
        complete, cut the starter."""
        state = self.state
        state.log({"type": "discard", "seat": seat, "cards": [card.code for card in cards]})
        hand = state.hands[seat]
        for card in cards:
            hand.remove(card)
            state.crib.append(card)
            state.discards[seat].append(card)
        state.kept[seat] = list(hand)
        events: list[Event] = [Discarded(seat=seat, count=len(cards))]
        if not self.pending_discards():
            events.extend(self._start_play())
        return events

    def _start_play(self) -> list[Event]:
        """The crib is complete: cut the starter (the top of the shuffled remaining deck)."""
        state = self.state
        starter = state.deck.pop(0)
        state.starter = starter
        dealer = state.dealer
        events: list[Event] = [StarterCut(card=starter, dealer=dealer)]
        if starter.rank == JACK:
            side = state.side_of(dealer)
            state.scores[side] += HEELS_POINTS
            events.append(
                Heels(seat=dealer, side=side, points=HEELS_POINTS, score=state.scores[side])
            )
            if state.reached_target(side):
                events.append(state.finish(side, EndReason.TARGET))
                return events
        state.phase = Phase.PLAY
        state.turn = (dealer + 1) % state.num_players
        return events
