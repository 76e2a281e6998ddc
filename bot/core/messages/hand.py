"""What one player is told privately: their hand message, turn reminders, the coach's line.

Each text takes the one seat's view it is for, so it can only hold that seat's own cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.text import Names, and_list, plural
from bot.core.messages.table import scores_line
from engine.cards import Card, cards_str
from engine.phase import Phase
from engine.views import SeatView

__all__ = [
    "GAME_ENDED",
    "YOUR_HAND",
    "closed_hand_text",
    "coach_text",
    "dms_closed_notice",
    "ended_text",
    "hand_text",
    "moved_on_text",
    "turn_reminder",
    "where",
]


#: A hand message once its game was cancelled or expired (after :func:`where`).
GAME_ENDED = "this game ended without a result."


#: What a hand at a private table says it is (it is in the conversation of the game).
YOUR_HAND = "Your hand"


def where(channel_id: int) -> str:
    """Which game a private message is about: "Cribbage in #general"."""
    return f"Cribbage in <#{channel_id}>"


def ended_text(channel_id: int, end_note: str | None) -> str:
    """A hand message once its game ended without being played out: how it ended, as the
    channel was told (a tournament's forfeit or withdrawal names the winner), else that it
    ended without a result."""
    return f"{where(channel_id)}: {end_note or GAME_ENDED}"


def coach_text(deal_number: int, line: str) -> str:
    """The coach's line about a deal's discard, as it rides on the next hand message."""
    return f"Coach, deal {deal_number}: {line}"


def hand_text(
    view: SeatView, channel_id: int, coach: str | None = None, *, private: bool = False
) -> str:
    """The seat's hand message now: the hand, what to do (or who is to play), the scores
    (``private``: at a private table, in the conversation itself, not a DM about a channel)."""
    names = Names.of(view)
    lines = [f"{YOUR_HAND if private else where(channel_id)}, deal {view.deal_number}."]
    if coach:
        lines.append(coach)
    if view.phase is Phase.DISCARD:
        dealer = names.seat(view.dealer)
        crib = "your crib" if view.dealer == view.seat else f"{dealer}'s crib"
        if view.seat in view.pending_discards:
            cards = plural(view.discard_count, "card")
            lines.append(f"Your hand: {cards_str(view.hand)}\nChoose {cards} for {crib}.")
        elif not view.discard_count:
            # A seat dealt short (the dealer of five players; with six, the dealer and the
            # player on his right) throws nothing: the others make the crib.
            waiting = and_list(names.seat(s) for s in view.pending_discards)
            lines.append(
                f"Your hand: {cards_str(view.hand)}\nYou were dealt "
                f"{plural(len(view.kept), 'card')} and put none in {crib}: the others make it."
                + (f"\nWaiting for {waiting}." if waiting else "")
            )
        else:
            waiting = and_list(names.seat(s) for s in view.pending_discards)
            lines.append(
                f"You put {cards_str(view.discards)} in {crib}; you keep "
                f"{cards_str(view.kept)}.\nWaiting for {waiting}."
            )
    elif view.phase is Phase.PLAY:
        series = cards_str(view.series) if view.series else "nothing played yet"
        if view.turn == view.seat:
            lines.append(f"**Your turn.** Count {view.count} ({series}); starter {view.starter}.")
        else:
            to_play = names.seat(view.turn) if view.turn is not None else "nobody"
            lines.append(
                f"Count {view.count} ({series}); starter {view.starter}. {to_play} to play."
            )
        held = cards_str(view.hand) if view.hand else "none left"
        lines.append(f"Your cards: {held}")
    elif view.phase is Phase.SHOW:
        lines.append(_show_text(names, view))
    else:
        lines.append(f"The game is over: the result is in <#{channel_id}>.")
    lines.append(scores_line(names, view.scores, view.target))
    return "\n".join(lines)


def _show_text(names: Names, view: SeatView) -> str:
    """Where a manual show stands for this seat: its count to claim, a muggins to call, or
    whom the table waits for."""
    lines = []
    window = view.muggins
    if window is not None:
        owner = "you" if window.seat == view.seat else names.seat(window.seat)
        what = "crib" if window.crib else "hand"
        if window.side == view.sides[view.seat]:
            lines.append(f"{owner.capitalize()} claimed {window.claimed} for the {what}.")
        else:
            if view.seat in window.passed:
                lines.append(f"{owner} claimed {window.claimed} for the {what}.")
            else:
                lines.append(
                    f"{owner} claimed {window.claimed} for the {what}. Missed something? "
                    "Press **Muggins!** to take the points (a wrong call costs only the chance), "
                    "or **No muggins** to let it stand."
                )
    turn = view.count_turn
    if turn is not None:
        cards = f"{cards_str(turn.cards)} + starter {view.starter}"
        if turn.seat != view.seat:
            what = "the crib" if turn.crib else "their hand"
            lines.append(f"{names.seat(turn.seat)} is counting {what}: {cards}.")
        elif window is not None and window.holds(view.seat, view.sides):
            what = "your crib" if turn.crib else "your hand"
            lines.append(f"Next you count {what}: {cards} (once muggins is settled).")
        else:
            what = "your crib" if turn.crib else "your hand"
            lines.append(
                f"**Count {what}:** {cards}. Claim its points from the menu "
                "(or `/cribbage count`), once: claim too few and the others may call muggins; "
                "too many and they peg the points over."
            )
    return "\n".join(lines)


def closed_hand_text(
    channel_id: int,
    deal_number: int,
    kept: tuple[Card, ...],
    coach: str | None = None,
    ending: str | None = None,
    *,
    private: bool = False,
) -> str:
    """A hand message once its deal is over (no controls left): what the seat kept, and where
    the show is; ``ending``, for the deal the game ended in, how it ended ("The game is over:
    Bea resigned — 🏆 Al wins, …"); ``private``: at a private table (the show is on it)."""
    lines = [f"{YOUR_HAND if private else where(channel_id)}, deal {deal_number} is over."]
    if ending:
        lines.append(f"The game is over: {ending}")
    if kept:
        shown = "on the table" if private else f"in <#{channel_id}>"
        lines.append(f"You kept {cards_str(kept)}; the show is {shown}.")
    if coach:
        lines.append(coach)
    return "\n".join(lines)


def moved_on_text(channel_id: int, deal_number: int) -> str:
    """An older private copy of a player's hand (an answer that showed it, before a newer
    one), once closed: it is not kept up to date, so it says where the hand went on, as an
    older table does, rather than show a count and a turn long gone."""
    return (
        f"{where(channel_id)}, deal {deal_number}: ↓ this copy of your hand moved on; "
        "your newest copy of it is below."
    )


def dms_closed_notice(users: Sequence[int]) -> str:
    """The channel's notice to the players whose DMs refused the bot (a mention each, which
    pings them): for the rest of the game their hands are behind `/cribbage hand`, and DMs
    opened again count from their next game (a game tries no DM twice: see
    :class:`~bot.core.messages.projection.TableFacts`)."""
    named = and_list([f"<@{user}>" for user in users])
    return (
        f"{named}, I can't send you direct messages, so for the rest of this game use "
        "`/cribbage hand` here to see your cards and play. Allow direct messages from this "
        "server's members to get your hands by DM from your next game."
    )


def reminder_done(channel_id: int) -> str:
    """A turn reminder once the turn it reminded of is over (played, counted, or made by the
    clock), so that no DM still says the table waits on a player it no longer waits on."""
    return f"{where(channel_id)}: done, the table has moved on."


def turn_reminder(view: SeatView, channel_id: int) -> str:
    """The short DM a player gets when the table has waited a while for them."""
    if view.phase is Phase.DISCARD:
        cards = plural(view.discard_count, "card")
        return f"{where(channel_id)}: the table is waiting for your {cards} for the crib."
    if view.phase is Phase.SHOW:
        turn = view.count_turn
        what = "crib" if turn is not None and turn.crib else "hand"
        return f"{where(channel_id)}: the table is waiting for you to count your {what}."
    return f"{where(channel_id)}: it's your turn — count {view.count}."
