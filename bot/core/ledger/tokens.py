"""What this process knows of interactions' tokens: each player's DM channel with the bot and
their latest interaction there (whose token may carry a hand DM), kept in memory and written
down now and then; how many follow-ups each token may still carry where the bot is not a
member; and the tokens Discord called expired before the bot's clock said so.

Discord takes at most 5 follow-up messages per interaction that only a user install authorised
("Create Followup Message": "Apps are limited to 5 followup messages per interaction if it was
initiated from a user-installed app and isn't installed in the server"; a sixth is refused with JSON
code 40094). That is every interaction at a private table
(:mod:`bot.core.messages.private_table`). An interaction's own answer needs at most two of
them (a hand opened from the table, a note to the clicker, an error after a deferral); the ledger
posts a table again through a token (a carrier) only while fewer than :data:`CARRIED_PER_TOKEN` were
posted through it, so that a token is never asked for more than Discord gives, and once Discord says
a token has none left it carries nothing more. The count is this process's own, kept in memory for a
token's life.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from bot.core.base.recent import Newest, Recent
from bot.core.base.timing import FOLLOWUPS_PER_TOKEN, TOKEN_USABLE
from bot.core.ledger.records import DmLink
from bot.core.ledger.storage import MessageRecords

__all__ = [
    "CARRIED_PER_TOKEN",
    "DM_LINK_REFRESH_SECONDS",
    "DmLinks",
    "FollowupBudget",
    "LapsedTokens",
]

#: Follow-ups the ledger posts through one token at most: the rest is left to the
#: interaction's own answer.
CARRIED_PER_TOKEN = FOLLOWUPS_PER_TOKEN - 2
#: Users whose DM links are kept in memory (the rest are read from the store when needed).
LINKS_KEPT = 4096

#: How often a player's latest DM interaction is written down (its token lives 15 minutes).
DM_LINK_REFRESH_SECONDS = 300.0


class DmLinks:
    """The DM link of each player, as this process learns it and as the store keeps it."""

    def __init__(self, store: MessageRecords, *, shared: bool = False) -> None:
        """``shared``: other processes answer the DMs' clicks too, and write down theirs."""
        self._store = store
        self._shared = shared
        # user id -> their link at its version (its interaction's time), and until when it
        # need not be written down again (the most recent players' only: one forgotten is read
        # again, or written again a little early).
        self._links: Newest[int, DmLink] = Newest(LINKS_KEPT)
        self._written_until: Recent[int, float] = Recent(LINKS_KEPT)

    async def link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known (kept in
        memory as this process learns it; read from the store when the link is not known
        here, or, other processes answering the DMs' clicks, when what is kept is older than
        the store's copy can be: those write theirs down every few minutes)."""
        kept = self._links.get(user_id)
        if kept is not None and not (self._shared and not _recent(kept)):
            return kept
        read = await self._store.dm_link(user_id)
        if read is None:
            return kept
        # A click heard while the store was read told of a newer interaction than the store
        # held: the read, older by its version, is not kept over it, and the click's stands.
        self._links.keep(user_id, read.version, read)
        return self._links.get(user_id) or read

    async def linked(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there). A click
        refreshes it in the store at most every few minutes: a token lives 15, and this is
        asked often. (A link of an older interaction than the one known is not kept over it:
        the channel alone, learnt by posting there, with none.)"""
        self._links.keep(link.user_id, link.version, link)
        now = time.monotonic()
        if link.token is not None:
            if (self._written_until.get(link.user_id) or 0.0) > now:
                return
            self._written_until.keep(link.user_id, now + DM_LINK_REFRESH_SECONDS)
        await self._store.set_dm_link(link)


def _recent(link: DmLink) -> bool:
    """Whether ``link``'s interaction is recent enough that no newer one can be in the store
    yet (a process writes a player's latest down every :data:`DM_LINK_REFRESH_SECONDS`)."""
    return link.token_at is not None and time.time() - link.token_at < DM_LINK_REFRESH_SECONDS


class FollowupBudget:
    """Follow-ups posted through each interaction's token by this process, while the token
    lives (``life`` seconds after ``at``, the interaction's time)."""

    def __init__(self, life: float = TOKEN_USABLE) -> None:
        self._life = life
        self._spent: dict[str, tuple[int, float]] = {}

    def may_carry(self, token: str) -> bool:
        """Whether one more follow-up may be posted through ``token``."""
        spent = self._spent.get(token)
        return spent is None or spent[0] < CARRIED_PER_TOKEN

    def carried(self, token: str, at: float, now: float) -> None:
        """A follow-up was posted through ``token`` (of an interaction made at ``at``)."""
        count = self._spent.get(token, (0, at))[0]
        self._spent[token] = (count + 1, at)
        self._forget_lapsed(now)

    def exhausted(self, token: str, at: float, now: float) -> None:
        """Discord said ``token`` takes no more follow-ups (40094): it carries nothing more."""
        self._spent[token] = (CARRIED_PER_TOKEN, at)
        self._forget_lapsed(now)

    def _forget_lapsed(self, now: float) -> None:
        lapsed = [t for t, (_, at) in self._spent.items() if now - at >= self._life]
        for token in lapsed:
            del self._spent[token]


class LapsedTokens:
    """The interactions' tokens Discord called expired (401 / 50027) while this process still
    counted them live (Discord's clock runs ahead of the bot's): nothing is tried through them
    again, whatever message of whatever owner they reach (the Start's token carries a game's
    tables; a DM click's, the player's hands of every game), for as long as a token lives at
    most after it was learnt (:data:`~bot.core.base.timing.TOKEN_USABLE`: by then the bot's
    own clock says so too)."""

    def __init__(self, life: float = TOKEN_USABLE, clock: Callable[[], float] = time.monotonic):
        self._life = life
        self._clock = clock
        self._learnt: dict[str, float] = {}

    def lapsed(self, tokens: Iterable[str]) -> None:
        """Discord called these tokens expired."""
        now = self._clock()
        for token in tokens:
            self._learnt[token] = now
        for token in [t for t, at in self._learnt.items() if now - at >= self._life]:
            del self._learnt[token]

    def dead(self) -> frozenset[str]:
        """The tokens Discord called expired, as far as this process heard."""
        return frozenset(self._learnt)
