"""The deal and the crib: the cut for first deal, each deal, the discards, and the starter.

A part of :class:`~engine.game.Game` (see :mod:`engine.state`): it shuffles with the game's
random source, deals one card at a time from the dealer's left as many as the rules give each
seat, makes up the crib from the pack when the rules say so, takes each seat's discards into
the crib, and once the crib is complete cuts the starter (his heels scored) and hands the play
its first turn. At the start of a game whose rules give points for last, the seat left of the
first dealer pegs them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import JACK, Card, full_deck, written_like
from engine.errors import BadDiscard, CardNotHeld, WrongPhase
from engine.events import CutForDeal, Dealt, Discarded, Event, ForLast, Heels, StarterCut
from engine.outcome import EndReason
from engine.phase import Phase
from engine.state import GameState

__all__ = ["Dealing"]


class Dealing:
    """The cut, the deal, the discards and the starter of one game's ``state``."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def discard_count(self, seat: int) -> int:
        """Cards ``seat`` puts in the crib this deal."""
        return self.state.rules.to_crib(seat, self.state.dealer)

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
            state.cut_rounds = (*state.cut_rounds, tuple(cut))
            ranks = {seat: card.rank for seat, card in enumerate(cut) if card is not None}
            low = min(ranks.values())
            cutting = [seat for seat in cutting if ranks[seat] == low]
            if len(cutting) == 1:
                state.dealer = cutting[0]
                return CutForDeal(rounds=state.cut_rounds, dealer=state.dealer)

    def given_deal(self, seat: int) -> CutForDeal:
        """The first deal given to ``seat`` without a cut (a following game's rule: the loser
        of the game before deals first): a cut for deal of no rounds, which names the dealer."""
        state = self.state
        if not 0 <= seat < state.num_players:
            raise ValueError(f"There is no seat {seat} to deal first.")
        state.dealer = state.given_dealer = seat
        return CutForDeal(rounds=(), dealer=seat)

    def for_last(self) -> list[Event]:
        """At the start of the game, the points for last (if the rules give any) to the seat
        left of the first dealer."""
        state = self.state
        points = state.rules.points_for_last
        if not points:
            return []
        seat = state.rules.leader(state.dealer)
        side = state.side_of(seat)
        score = state.peg(side, points)
        return [ForLast(seat=seat, side=side, points=points, score=score)]

    def deal(self) -> list[Event]:
        """Shuffle and deal one card at a time, starting left of the dealer."""
        state = self.state
        rules = state.rules
        n = state.num_players
        deck = full_deck()
        state.rng.shuffle(deck)
        order = rules.deal_order(state.dealer)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for seat, card in zip(order, deck, strict=False):
            hands[seat].append(card)
        state.deck = deck[len(order) :]
        # The crib is made up from the top of the pack when the throws do not fill it
        # (three players: one card).
        state.crib = [state.deck.pop(0) for _ in range(rules.crib_from_pack)]
        state.hands = [sorted(h, key=Card.sort_key) for h in hands]
        # A seat that throws nothing (the dealer in five-hand) keeps its hand at once.
        state.kept = [
            list(state.hands[seat]) if not rules.to_crib(seat, state.dealer) else []
            for seat in range(n)
        ]
        state.discards = [[] for _ in range(n)]
        state.played = ((),) * n
        state.starter = None
        state.series = ()
        state.count = 0
        state.turn = None
        state.gone = frozenset()
        state.to_count = []
        state.muggins_window = None
        state.deal_number += 1
        state.phase = Phase.DISCARD
        return [
            Dealt(
                dealer=state.dealer,
                deal_number=state.deal_number,
                hand_size=rules.others.dealt,
                crib_from_deck=rules.crib_from_pack > 0,
            )
        ]

    def deal_next(self) -> list[Event]:
        """The deal passes to the left, and the next deal is dealt."""
        state = self.state
        state.dealer = state.rules.next_dealer(state.dealer)
        return self.deal()

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        """Raise the :class:`RuleError` that :meth:`discard` would raise, or nothing."""
        state = self.state
        state.check_not_over()
        state.check_seat(seat)
        need = self.discard_count(seat)
        if not need and state.phase in (Phase.DISCARD, Phase.PLAY):
            # A seat dealt short (the dealer of five players; with six, the dealer and the
            # player on his right) never discards: "already" would say it had.
            dealt = state.rules.dealt(seat, state.dealer)
            raise WrongPhase(
                f"You were dealt {dealt} cards and put none in the crib: the others make it."
            )
        if state.kept[seat] or state.phase is not Phase.DISCARD:
            raise WrongPhase("You have already discarded.")
        seen: set[Card] = set()
        for card in cards:
            if not isinstance(card, Card):
                what = "the card" if need == 1 else "the cards"
                raise BadDiscard(f"Name {what} to put in the crib, like {written_like(need)}.")
            if card in seen:
                raise BadDiscard(f"You named {card} twice.")
            seen.add(card)
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
            heels = state.rules.points.heels
            score = state.peg(side, heels)
            events.append(Heels(seat=dealer, side=side, points=heels, score=score))
            if state.reached_target(side):
                events.append(state.finish(side, EndReason.TARGET))
                return events
        state.phase = Phase.PLAY
        state.turn = state.rules.leader(dealer)
        return events
