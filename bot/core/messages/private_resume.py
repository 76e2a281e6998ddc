"""A private table brought back by whatever interaction comes next.

Where the bot is not a member (:mod:`bot.core.messages.private_table`) the table is reached
only through interactions' tokens, each good for 15 minutes. After a longer pause no token reaches
it, and a game that then moves posts it again through the move's token (the courier's carriers). An
interaction that moves nothing (a refused click or command, a stale button, a hand asked for again,
the rules) must bring the table back as well, so that the conversation sees where the game stands:
its token is kept as a carrier, and the table is sent again (an edit through its own token while
that lives; Discord says whether it does, since its clock is not the bot's).

A game that ended where no token reached its table (nobody moved in it for too long; a player
had their data deleted, asked for anywhere; the computer's last move made after a restart) is
brought back the same way, once: while its table was last sent before the game's end.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.base.delivery import Carriers
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked
from bot.core.base.views import MessageRecord
from bot.core.games.games import Games
from bot.core.games.records import GameRecord
from bot.core.messages.private_table import TABLE

__all__ = ["PrivateResume", "ShownTables"]


class ShownTables(Protocol):
    """What an owner's messages were last sent showing (the store's record of them)."""

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]: ...


class PrivateResume:
    """Keeps the token of each interaction at a private table, to bring its table back."""

    def __init__(self, games: Games, carriers: Carriers, shown: ShownTables) -> None:
        self._games = games
        self._carriers = carriers
        self._shown = shown

    async def answered(self, owner: Owner, shown: Clicked, *, moved: bool) -> None:
        """An interaction about ``owner``'s private table was answered (``shown``: its answer
        and its token). ``moved``: it made a move, whose change sends the table anyway (and
        so tries its token); otherwise the table is sent again now, in case its token lapsed.
        Nothing is kept of an interaction in another channel than the game's (its token would
        post the table there), nor of a game that was over before it, unless its table was
        last sent before its end (:meth:`_end_unseen`)."""
        record = await self._games.record(owner.id)
        if (
            record is None
            or not record.seating.tokens_only
            or record.channel_id != shown.channel_id
        ):
            return
        if not moved and not record.is_open and not await self._end_unseen(owner, record):
            return  # (a move that ended the game is the one that sends its result)
        await self._carriers.carrier(owner, shown, check=None if moved else TABLE)

    async def _end_unseen(self, owner: Owner, record: GameRecord) -> bool:
        """Whether the table of ``record``, over, was last sent before the game's end: it
        ended where no token reached the table (a game over changes no more, so its table's
        last version is its end's)."""
        table = (await self._shown.messages(owner)).get(TABLE)
        return table is not None and table.version < record.version
