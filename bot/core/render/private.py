"""What one player is told privately: their hand, what to do with it, the coach's line.

Each text takes the one seat's view it is for, so it can only hold that seat's own cards.
"""

from __future__ import annotations

from bot.core.render.calls import scores_line
from bot.core.render.text import Names, plural
from engine.cards import cards_str
from engine.phase import Phase
from engine.views import SeatView

__all__ = ["coach_text", "discard_prompt_text", "hand_text", "play_prompt_text", "where"]


def where(channel_id: int) -> str:
    """Which game a private message is about: "Cribbage in #general"."""
    return f"Cribbage in <#{channel_id}>"


def discard_prompt_text(view: SeatView, channel_id: int) -> str:
    """The DM at each deal: the hand and how many cards to choose for whose crib."""
    dealer = Names.of(view).seat(view.dealer)
    crib = "your crib" if view.dealer == view.seat else f"{dealer}'s crib"
    cards = plural(view.discard_count, "card")
    return (
        f"{where(channel_id)}, deal {view.deal_number}. Your hand: {cards_str(view.hand)}\n"
        f"Choose {cards} for {crib}."
    )


def play_prompt_text(view: SeatView, channel_id: int) -> str:
    """The DM when it is the seat's turn in the play: the count, the series and the cards."""
    series = cards_str(view.series) if view.series else "nothing played yet"
    names = Names.of(view)
    return (
        f"{where(channel_id)}: your turn. Count {view.count} ({series}); "
        f"starter {view.starter}.\n"
        f"Your cards: {cards_str(view.hand)}\n{scores_line(names, view.scores, view.target)}"
    )


def hand_text(view: SeatView, channel_id: int) -> str:
    """The seat's hand for the ``hand`` command, with what they may do now."""
    if view.phase is Phase.DISCARD and view.seat in view.pending_discards:
        return discard_prompt_text(view, channel_id)
    if view.phase is Phase.PLAY and view.turn == view.seat:
        return play_prompt_text(view, channel_id)
    names = Names.of(view)
    held = cards_str(view.hand) if view.hand else "no cards left"
    lines = [f"{where(channel_id)}, deal {view.deal_number}. Your cards: {held}"]
    if view.discards:
        lines.append(f"In the crib from you: {cards_str(view.discards)}")
    if view.phase is Phase.DISCARD:
        waiting = ", ".join(names.seat(s) for s in view.pending_discards)
        lines.append(f"Waiting for {waiting} to discard.")
    elif view.phase is Phase.PLAY and view.turn is not None:
        lines.append(f"Count {view.count}; {names.seat(view.turn)} to play.")
    return "\n".join(lines)


def coach_text(channel_id: int, deal_number: int, line: str) -> str:
    """The coach's DM after a show: which game and deal, then the engine's one line."""
    return f"{where(channel_id)}, deal {deal_number} — coach: {line}"
