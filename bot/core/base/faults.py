"""Faults: calls that fail for a cause that trying again at once will not mend.

A game whose saved state is damaged, or was saved in a snapshot format this code does not read,
cannot go on until a moderator ends it; a store that is full, or a database that cannot be
reached, records nothing until whoever runs the bot mends it. Each is a :class:`Fault`: a
refusal (the player is told what is wrong and what helps, in one sentence from
:mod:`bot.core.base.refusals`) that also says its cause and what happened, for the log.

:class:`Faults` writes that in the log once per cause and game, however often it is met (every
click, every pass of the keeper or the clock): one line, no traceback. A store fault is said
again once the game has been saved since (the store works again, and may fail again later).
"""

from __future__ import annotations

import logging
from enum import Enum

from bot.core.base import refusals
from bot.core.base.recent import Recent
from bot.core.base.refusals import Refused

__all__ = ["Cause", "Fault", "Faults", "UnreadableGame"]

log = logging.getLogger(__name__)

#: Causes and games remembered as said (the oldest are forgotten past this: said again then).
SAID_KEPT = 4096


class Cause(Enum):
    """Why a call failed; the value is how the log names it."""

    DAMAGED = "its saved state is damaged"
    UNKNOWN_FORMAT = "it was saved in a snapshot format this version does not read"
    FULL = "the database's storage is full"
    UNREACHABLE = "the database cannot be reached"

    @property
    def sentence(self) -> str:
        """What the player is told."""
        return _SENTENCES[self]

    @property
    def of_store(self) -> bool:
        """Whether the store, not the game, failed (it may work again by itself)."""
        return self in (Cause.FULL, Cause.UNREACHABLE)


_SENTENCES = {
    Cause.DAMAGED: refusals.DAMAGED_GAME,
    Cause.UNKNOWN_FORMAT: refusals.UNKNOWN_FORMAT_GAME,
    Cause.FULL: refusals.STORAGE_FULL,
    Cause.UNREACHABLE: refusals.DATABASE_UNREACHABLE,
}


class Fault(Refused):
    """A call failed for ``cause``; ``detail`` is what happened (for the log), ``game_id`` the
    game it was about, when that is known. Nothing changed; ``str()`` is the player's sentence."""

    def __init__(self, cause: Cause, detail: str, game_id: int | None = None) -> None:
        super().__init__(cause.sentence)
        self.cause = cause
        self.detail = detail
        self.game_id = game_id

    def about(self, game_id: int) -> Fault:
        """This fault, now known to be about ``game_id`` (unless it already named a game)."""
        if self.game_id is None:
            self.game_id = game_id
        return self


class UnreadableGame(Fault):
    """A started game whose stored snapshot this code cannot read (damaged, or of an unknown
    format): it cannot be loaded, moved or drawn; it can be cancelled, which needs no
    snapshot."""

    def __init__(self, game_id: int, cause: Cause, detail: str) -> None:
        super().__init__(cause, detail, game_id)


class Faults:
    """Says each fault in the log once per cause and game (see the module)."""

    def __init__(self) -> None:
        self._said: Recent[tuple[Cause, int | None], bool] = Recent(SAID_KEPT)

    def note(self, fault: Fault, game_id: int | None = None) -> bool:
        """Log ``fault`` (about ``game_id``, when the fault does not say) unless it was said
        for its cause and game already; whether it was logged now."""
        game = fault.game_id if fault.game_id is not None else game_id
        key = (fault.cause, game)
        if self._said.get(key):
            return False
        self._said.keep(key, True)
        if fault.cause.of_store:
            what = "nothing is recorded until it is mended"
        else:
            what = (
                "it cannot go on; a moderator (outside servers, a player) can end it"
                " with /cribbage cancel"
            )
        subject = "the bot" if game is None else f"game {game}"
        log.error("%s: %s (%s); %s", subject, fault.cause.value, fault.detail, what)
        return True

    def mended(self, game_id: int) -> None:
        """``game_id`` was saved: the store works for it again (a store fault met later is
        said again)."""
        for cause in (Cause.FULL, Cause.UNREACHABLE):
            for game in (game_id, None):
                self._said.forget((cause, game))
