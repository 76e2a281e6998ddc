"""A private table brought back by whatever interaction comes next.

Where the bot is not a member (:mod:`bot.core.messages.private_table`) the table is reached
only through interactions' tokens, each good for 15 minutes. After a longer pause no token reaches
it, and a game that then moves posts it again through the move's token (the courier's carriers). An
interaction that moves nothing (a refused click or command, a stale button, a hand asked for again,
the rules) must bring the table back as well, so that the conversation sees where the game stands:
its token is kept as a carrier, and the table is sent again (an edit through its own token while
that lives; Discord says whether it does, since its clock is not the bot's).
"""

from __future__ import annotations

from bot.core.base.delivery import Carriers
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked
from bot.core.games.games import Games
from bot.core.messages.private_table import TABLE

__all__ = ["PrivateResume"]


class PrivateResume:
    """Keeps the token of each interaction at a private table, to bring its table back."""

    def __init__(self, games: Games, carriers: Carriers) -> None:
        self._games = games
        self._carriers = carriers

    async def answered(self, owner: Owner, shown: Clicked, *, moved: bool) -> None:
        """An interaction about ``owner``'s private table was answered (``shown``: its answer
        and its token). ``moved``: it made a move, whose change sends the table anyway (and
        so tries its token); otherwise the table is sent again now, in case its token lapsed.
        Nothing is kept of an interaction in another channel than the game's (its token would
        post the table there), nor of a game that was over before it."""
        record = await self._games.record(owner.id)
        if record is None or not record.private or record.channel_id != shown.channel_id:
            return
        if not moved and not record.is_open:
            return  # (a move that ended the game is the one that sends its result)
        await self._carriers.carrier(owner, shown, check=None if moved else TABLE)
