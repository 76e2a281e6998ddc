"""How a game ended, named and said once.

A game ends one of these ways (:class:`Ending`): played out to its target; resigned; lost on the
turn clock (a ranked game); lost by a player leaving their ranked match; lost by a player whose
data was deleted (their game is resigned for them); cancelled (by a person, or by its
tournament, which says why); or expired (nobody moved for too long). The first five end with a
result (a winner, game points); the last two without one.

Where it is kept: a finished game keeps its ending in ``games.ending`` (written with its
result, in the same transaction: :meth:`GameRecord.ended
<bot.core.games.records.GameRecord.ended>` reads it), and the seat it names is the one the
engine's last action resigned for; a game that ended without a result is said by its status
(cancelled, expired) and the sentence its channel was told (``end_note``, made here for a
cancel, a closed lobby and an idle game, and by the tournament director for a tournament's
decision).

Where it is said: the words of each ending are here (:func:`said`, the notes), and every
place that tells how a game ended draws them from here: the deal's table and the result
(:func:`bot.core.messages.table.result_line`), the hand messages, ``/cribbage status``, the
game's page and its replay, the Activity, and ranked play's table, card and ladder (a match
decided by a player leaving says so in :data:`Ending.LEFT`'s words).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from bot.core.base.text import period
from engine.game import Game
from engine.outcome import EndReason

__all__ = [
    "NO_RESULT",
    "Ended",
    "Ending",
    "cancelled_note",
    "closed_note",
    "conceded_by",
    "ended_with",
    "expired_note",
    "said",
]


class Ending(StrEnum):
    """How a game ended. Members equal their values, which is what ``games.ending`` holds."""

    #: Played out: a side reached the target.
    PLAYED = "played"
    #: A player resigned (a loss at the scores as they stand).
    RESIGNED = "resigned"
    #: A player's turn clock ran out (ranked play): a loss, as resigning is.
    CLOCK = "clock"
    #: A player left their ranked match: the game being played is theirs to lose too.
    LEFT = "left"
    #: A player had their data deleted: the game they were playing was resigned for them.
    DELETED = "deleted"
    #: Cancelled, with no result: by its creator in the lobby, a moderator, or its tournament.
    CANCELLED = "cancelled"
    #: Nobody moved for too long: ended with no result.
    EXPIRED = "expired"

    @property
    def conceded(self) -> bool:
        """Whether a game so ended was lost by one player at the scores as they stand (the
        engine's resignation, made by them or for them): it names them."""
        return self in (Ending.RESIGNED, Ending.CLOCK, Ending.LEFT, Ending.DELETED)


#: What each ending that names someone says of them (their name already escaped).
_SAID = {
    Ending.RESIGNED: "{who} resigned",
    Ending.CLOCK: "{who}'s clock ran out",
    Ending.LEFT: "{who} left the match",
    Ending.DELETED: "{who}'s data was deleted",
    Ending.CANCELLED: "{who} cancelled the game",
}
#: What a game that ended without a result adds.
NO_RESULT = "No result is recorded."


def said(ending: Ending, who: str) -> str:
    """What ``ending`` says of the person it names (``who``, escaped): "Bea resigned", "Bea's
    clock ran out", "Bea left the match", "Bea's data was deleted", "Al cancelled the game".

    >>> said(Ending.CLOCK, "Bea")
    "Bea's clock ran out"
    """
    words = _SAID.get(ending)
    if words is None:
        raise ValueError(f"The ending {ending!r} names nobody.")
    return words.format(who=who)


@dataclass(frozen=True, slots=True)
class Ended:
    """How one game ended: its ``ending``, and for a loss conceded (resigned, the clock,
    leaving, data deleted) the ``seat`` that lost it so; ``in_match``: a ranked match's game,
    which counts as one game won or lost there (its game points count for nothing)."""

    ending: Ending
    seat: int | None = None
    in_match: bool = False


def conceded_by(game: Game) -> int | None:
    """The seat whose concession ended ``game`` (the engine's resignation, whoever made it),
    if that is how it ended: the log's last action says."""
    result = game.state.result
    if result is None or result.reason is not EndReason.RESIGNED or not game.actions:
        return None
    last = game.actions[-1]
    return int(last["seat"]) if last.get("type") == "resign" else None


def ended_with(stored: Ending | None, game: Game) -> Ended:
    """How the finished ``game`` ended: played out, or a concession by a seat, as ``stored``
    says (the clock, leaving, a deletion; a resignation when it says none: a game finished by
    a release before endings were kept, or one its player resigned)."""
    seat = conceded_by(game)
    if seat is None:
        return Ended(Ending.PLAYED)
    return Ended(stored if stored is not None and stored.conceded else Ending.RESIGNED, seat)


def cancelled_note(who: str | None) -> str:
    """What the channel is told of a game cancelled by ``who`` (escaped; None: a moderator
    who neither opened it nor sits in it, whom the game keeps no other trace of, so that
    their name is not kept where *Delete my data* could not find it).

    >>> cancelled_note(None)
    'A moderator cancelled the game. No result is recorded.'
    """
    return f"{said(Ending.CANCELLED, who or 'A moderator')}. {NO_RESULT}"


def closed_note(who: str) -> str:
    """What the channel is told of a lobby its creator ``who`` (escaped) left, closing it."""
    return f"{who} left and closed the lobby."


def expired_note(idle: timedelta) -> str:
    """What the channel is told of a game nobody moved in for ``idle`` (``IDLE_EXPIRY_DAYS``),
    the length said as the privacy policy, the terms and ``/cribbage privacy`` say it.

    >>> expired_note(timedelta(hours=1))
    'Nobody moved in this game for 1 hour, so it has ended. No result is recorded.'
    """
    return f"Nobody moved in this game for {period(idle)}, so it has ended. {NO_RESULT}"
