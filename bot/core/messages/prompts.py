"""The controls on a player's hand: the crib select, the card buttons, the count menus and
the Muggins! button (manual counting), and the autocomplete choices of ``/cribbage discard``
and ``/cribbage play``.

Built from one seat's view only, so controls can only ever hold that seat's own cards.
"""

from __future__ import annotations

import itertools

from bot.core.base.replies import Choice
from bot.core.base.views import CardChoice, HandControls
from bot.core.games.records import GameRecord
from bot.core.messages.hinting import offers_hints
from engine.cards import Card, cards_str
from engine.phase import Phase
from engine.scoring import claim_values
from engine.views import SeatView

__all__ = [
    "MAX_CHOICES",
    "controls_for",
    "discard_completions",
    "hand_controls",
    "play_completions",
]

#: Discord shows at most 25 autocomplete choices.
MAX_CHOICES = 25


def controls_for(
    view: SeatView, game_id: int, version: int, *, hint: bool = False
) -> HandControls | None:
    """What the seat can do now: choose cards for the crib (the stamp is the deal), play a
    card (one button per card held, the unplayable disabled; the stamp is the game's version),
    or nothing. ``hint``: the table offers hints, so a discard or a play comes with *Hint*."""
    if view.phase is Phase.DISCARD and view.seat in view.pending_discards:
        return HandControls(
            game_id=game_id,
            kind="discard",
            cards=tuple(CardChoice(c.code, str(c)) for c in view.hand),
            pick=view.discard_count,
            stamp=view.deal_number,
            hint=hint,
        )
    if view.phase is Phase.PLAY and view.turn == view.seat:
        return HandControls(
            game_id=game_id,
            kind="play",
            cards=tuple(CardChoice(c.code, str(c), c in view.playable) for c in view.hand),
            pick=1,
            stamp=version,
            hint=hint,
        )
    if view.phase is Phase.SHOW:
        return _show_controls(view, game_id, version)
    return None


def hand_controls(view: SeatView, record: GameRecord) -> HandControls | None:
    """:func:`controls_for` the seat at ``record``'s game now, with *Hint* where the table
    offers hints (:func:`~bot.core.messages.hinting.offers_hints`): every hand's controls, the
    chat's and the table inside Discord's alike."""
    return controls_for(view, record.id, record.version, hint=offers_hints(record))


def _show_controls(view: SeatView, game_id: int, version: int) -> HandControls | None:
    """At a manual show: the count menus for the hand the seat must count now (unless it
    waits for muggins on its own last claim) and the Muggins! button while an opponent's
    claim is open to it (unless the seat has called it wrongly already)."""
    window = view.muggins
    can_muggins = window is not None and view.seat in window.callers(view.sides)
    turn = view.count_turn
    counts = (
        turn is not None
        and turn.seat == view.seat
        and (window is None or not window.holds(view.seat, view.sides))
    )
    if counts:
        return HandControls(
            game_id,
            "count",
            (),
            1,
            version,
            claims=claim_values(view.rules),
            muggins=can_muggins,
        )
    if can_muggins:
        return HandControls(game_id, "muggins", (), 0, version)
    return None


def _matches(card: Card, typed: str) -> bool:
    """Whether ``card`` fits what was typed so far (code or label, any case)."""
    typed = typed.strip().upper()
    if not typed:
        return True
    return card.code.upper().startswith(typed) or str(card).upper().startswith(typed)


def discard_completions(view: SeatView, current: str) -> list[Choice]:
    """Whole discards the seat can send, empty unless it still has to discard: every set of
    as many held cards as it throws (all fifteen pairs of six cards), narrowed by what was
    typed. Held cards typed in full are in each choice, in front, and a last word typed in
    part narrows the rest: ``"5H J"`` offers ``"5H JD"``, ``"5H JC"`` and so on, ``"QC"``
    every pair with the queen of clubs. Words that are no held card are passed over.
    """
    if view.seat not in view.pending_discards:
        return []
    need = max(view.discard_count, 1)
    words = current.replace(",", " ").split()
    ends_word = not current.endswith((" ", ","))
    typed: list[Card] = []
    partial = ""
    for i, word in enumerate(words):
        try:
            card: Card | None = Card.parse(word)
        except ValueError:
            card = None
        if card is not None and card in view.hand:
            if card not in typed:
                typed.append(card)
        elif i == len(words) - 1 and ends_word:
            partial = word
    del typed[need:]
    choices = []
    for thrown in itertools.combinations(view.hand, need):
        rest = [c for c in thrown if c not in typed]
        if len(rest) != need - len(typed):
            continue  # (it leaves out a card typed in full)
        if partial and not any(_matches(c, partial) for c in rest):
            continue
        picked = [*typed, *rest]
        choices.append(Choice(cards_str(picked), " ".join(c.code for c in picked)))
    return choices[:MAX_CHOICES]


def play_completions(view: SeatView, current: str) -> list[Choice]:
    """Only the cards the seat may play now (none when it is not its turn)."""
    return [Choice(str(c), c.code) for c in view.playable if _matches(c, current)][:MAX_CHOICES]
