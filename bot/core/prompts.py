"""The private controls a player is sent: discard and play prompts, and autocomplete choices.

Built from one seat's view only, so a prompt can only ever hold that seat's own cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.records import GameRecord
from bot.core.render.private import discard_prompt_text, play_prompt_text
from bot.core.replies import CardChoice, Choice, Prompt
from engine.cards import Card, cards_str
from engine.events import Dealt, Event
from engine.game import Game
from engine.phase import Phase
from engine.views import SeatView

__all__ = [
    "MAX_CHOICES",
    "discard_completions",
    "discard_prompt",
    "play_completions",
    "play_prompt",
    "prompts_after",
]

#: Discord shows at most 25 autocomplete choices.
MAX_CHOICES = 25


def discard_prompt(view: SeatView, game_id: int, channel_id: int, user_id: int) -> Prompt:
    """The crib select menu for this deal; its stamp is the deal number."""
    return Prompt(
        user_id=user_id,
        game_id=game_id,
        kind="discard",
        text=discard_prompt_text(view, channel_id),
        cards=tuple(CardChoice(c.code, str(c)) for c in view.hand),
        pick=view.discard_count,
        stamp=view.deal_number,
    )


def play_prompt(
    view: SeatView, game_id: int, channel_id: int, user_id: int, version: int
) -> Prompt:
    """One button per held card, unplayable ones disabled; its stamp is the game version."""
    return Prompt(
        user_id=user_id,
        game_id=game_id,
        kind="play",
        text=play_prompt_text(view, channel_id),
        cards=tuple(CardChoice(c.code, str(c), c in view.playable) for c in view.hand),
        pick=1,
        stamp=version,
    )


def _human(record: GameRecord, seat: int) -> int | None:
    """The user id of a human seat, or None for a computer."""
    found = record.seats[seat]
    return None if found.is_computer else found.user_id


def prompts_after(
    record: GameRecord, game: Game, events: Sequence[Event], version: int
) -> list[Prompt]:
    """DMs owed after an action: a discard prompt to each human at a new deal, and a play
    prompt to the human whose turn it now is (``version`` is the game's version after it)."""
    prompts: list[Prompt] = []
    if any(isinstance(e, Dealt) for e in events):
        for seat in game.pending_discards():
            user_id = _human(record, seat)
            if user_id is not None:
                view = game.view(seat)
                prompts.append(discard_prompt(view, record.id, record.channel_id, user_id))
    if game.phase is Phase.PLAY and game.turn is not None:
        user_id = _human(record, game.turn)
        if user_id is not None:
            view = game.view(game.turn)
            prompts.append(play_prompt(view, record.id, record.channel_id, user_id, version))
    return prompts


def _matches(card: Card, typed: str) -> bool:
    """Whether ``card`` fits what was typed so far (code or label, any case)."""
    typed = typed.strip().upper()
    if not typed:
        return True
    return card.code.upper().startswith(typed) or str(card).upper().startswith(typed)


def discard_completions(view: SeatView, current: str) -> list[Choice]:
    """The seat's cards matching what was typed, empty unless it still has to discard.

    Held cards already typed in full stay in front, so ``"5H J"`` offers ``"5H JD"``,
    ``"5H JC"`` and so on.
    """
    if view.seat not in view.pending_discards:
        return []
    words = current.replace(",", " ").split()
    partial = "" if current.endswith((" ", ",")) or not words else words.pop()
    done: list[Card] = []
    for word in words:
        try:
            card = Card.parse(word)
        except ValueError:
            continue
        if card in view.hand and card not in done:
            done.append(card)
    del done[max(view.discard_count - 1, 0) :]
    choices = []
    for card in view.hand:
        if card in done or not _matches(card, partial):
            continue
        picked = [*done, card]
        choices.append(Choice(cards_str(picked), " ".join(c.code for c in picked)))
    return choices[:MAX_CHOICES]


def play_completions(view: SeatView, current: str) -> list[Choice]:
    """Only the cards the seat may play now (none when it is not its turn)."""
    return [Choice(str(c), c.code) for c in view.playable if _matches(c, current)][:MAX_CHOICES]
