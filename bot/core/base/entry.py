"""Where a call from a player enters the core: refusals become the one sentence sent back.

A call that cannot be carried out raises where that is found:
:class:`~bot.core.base.refusals.Refused` (the core, the lobby's rules, a card that does not parse),
the engine's ``RuleError``, or the store's ``StoreError``. :func:`answers` turns each into
:meth:`Answer.refuse`, once, where the call is entered; nothing else is sent and nothing changed. A
write that lost a race with another process (:class:`~bot.core.base.store_errors.Raced`) is made
once more on the game as it is now first (:func:`~bot.core.base.store_errors.decided_again`): what
was asked may still apply, or be refused for what changed.

A :class:`~bot.core.base.faults.Fault` (a game that cannot be read, a store that is full or out of
reach) is a refusal too, with a sentence that says what is wrong and what helps; it is also
noted in the log, once per cause and game (:class:`~bot.core.base.faults.Faults`).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from bot.core.base.faults import Fault, Faults
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused, StaleControl
from bot.core.base.replies import Answer
from bot.core.base.store_errors import decided_again
from engine.errors import RuleError

__all__ = ["Entered", "answers"]


class Entered(Protocol):
    """A part of the core whose calls are entered with :func:`answers`."""

    @property
    def faults(self) -> Faults:
        """Where the faults its calls meet are noted."""
        ...


_P = ParamSpec("_P")
_S = TypeVar("_S", bound=Entered)


def answers(
    call: Callable[Concatenate[_S, _P], Awaitable[Answer]],
) -> Callable[Concatenate[_S, _P], Awaitable[Answer]]:
    """Enter a call: a refusal raised anywhere inside it becomes its answer."""

    @functools.wraps(call)
    async def entered(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> Answer:
        try:
            # Another process changed the game between this call's read and its write (the
            # game's sequence only orders the calls of this one): read it again and decide once
            # more.
            return await decided_again(lambda: call(self, *args, **kwargs))
        except Fault as fault:
            self.faults.note(fault)
            return Answer.refuse(str(fault))
        except StaleControl as refusal:
            return Answer.refuse(str(refusal), stale=Owner.game(refusal.game_id))
        except (Refused, RuleError) as refusal:
            return Answer.refuse(str(refusal))

    return entered
