"""The players' hands, in their two lanes: what gives a player their turn goes first.

Every move redraws the waiting player's hand, so under quick play a hand's count of writes (its
DM channel's edits, or its token's) would be spent on redraws, and the edit that says "Your
turn" would wait behind them. So in the hands' lanes what gives a player something new to act
on (``MessageView.offers``) goes before what does not, and a redraw waits while the message's
count is low (:data:`PROMPT_RESERVE`); a DM that would wait for its channel's count is looked at
again when the count allows, so it never holds up the other hands.

A player's private copies of their hand (their answers that show it: a move by command,
``/cribbage hand``) go in a lane of their own, through their tokens: outside every count but the
token's own, so a player who moves by command gets their turn where they typed, at once.
"""

from __future__ import annotations

import asyncio
import dataclasses

from bot.core.base.delivery import Owed, live, token_lives
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.timing import ANSWER_RETRY, CHANNEL_PERIOD, WEBHOOK_PERIOD
from bot.core.base.views import MessageRecord, MessageView
from bot.core.ledger.attempts import Attempts, Crew
from bot.core.ledger.lanes import Lane
from bot.core.ledger.life import Owing
from bot.core.ledger.routes import answer_on_its_way
from bot.core.ledger.transport import RequestKind, Superseded

__all__ = ["PROMPT_RESERVE", "Hands"]

#: Of a hand message's count of writes (its DM channel's edits, or its token's), a redraw that
#: offers the player nothing new leaves this many for the edit that gives them their turn.
PROMPT_RESERVE = 2


class Hands:
    """Sends the players' hands (their DMs) and their private copies, prompts first."""

    def __init__(self, crew: Crew, attempts: Attempts) -> None:
        self._crew = crew
        self._attempts = attempts

    async def send_mirrors(self, owing: Owing) -> set[MessageKey]:
        """Bring the players' private copies of their hands up to date (their answers that
        show their hand: a move by command, ``/cribbage hand``), through their tokens: outside
        every count but the token's own, so a player who moves by command gets their turn
        where they typed, at once. What gives a player their turn goes first; a redraw waits
        while the copy's token has few writes left. The keys whose copies show what is owed
        now."""
        owner, shown = owing.owner, set[MessageKey]()
        work: list[tuple[bool, Owed, MessageRecord, MessageView]] = []
        for owed in owing.owed:
            if owed.user_id is None or owed.tokens_only:
                continue
            copies = sorted(
                self._crew.copies.mirrors(owner, owed.key, owed.fallbacks),
                key=lambda c: c.token_at or 0.0,
            )
            if not copies:
                continue
            # The newest copy is kept up to date; an older one (the player answered again
            # since) is closed once: as the owed hand says such a copy reads (that it moved
            # on), else the hand as it is, without its controls.
            *older, newest = copies
            closed = owed.superseded or owed.view.without_controls()
            work += [(False, owed, copy, closed) for copy in older]
            if newest.digest == owed.view.digest():
                shown.add(owed.key)
            elif answer_on_its_way(newest, self._crew.clock()):
                # A click's answer on its way there would land over an edit made now.
                self._crew.lanes.later(owner, owing.channel_id, Lane.COPIES, ANSWER_RETRY)
            else:
                work.append((owed.view.offers() is not None, owed, newest, owed.view))
        for prompt, owed, copy, view in sorted(work, key=lambda item: not item[0]):
            assert copy.token is not None
            if not prompt and self._crew.pacer.webhook_room(copy.token) <= PROMPT_RESERVE:
                # (Looked at again once the token's count allows.)
                self._crew.lanes.later(owner, owing.channel_id, Lane.COPIES, WEBHOOK_PERIOD / 2)
                continue
            if not await self._attempts.edit_copy(copy, view, owing):
                self._crew.copies.mirror_lost(owner, copy)  # (its token reaches it no more)
                continue
            if view is owed.view:
                self._crew.copies.mirror_sent(
                    owner, dataclasses.replace(copy, digest=view.digest(), version=owing.version)
                )
                shown.add(owed.key)
            else:
                self._crew.copies.mirror_lost(owner, copy)
        return shown

    def _mirrored(self, owing: Owing) -> set[MessageKey]:
        """The hands whose newest private copy shows what is owed now: its DM is no longer
        what its player waits on."""
        shown = set[MessageKey]()
        for owed in owing.owed:
            if owed.user_id is None or owed.tokens_only:
                continue
            copies = self._crew.copies.mirrors(owing.owner, owed.key, owed.fallbacks)
            newest = max(copies, key=lambda c: c.token_at or 0.0, default=None)
            if newest is not None and newest.digest == owed.view.digest():
                shown.add(owed.key)
        return shown

    async def send(self, owing: Owing, due: list[tuple[Owed, MessageRecord | None]]) -> bool:
        """Send the DMs due; False if the owner moved on before they were all sent (a move's
        click already updated the mover's hand: an older state must not overwrite it), or one
        shows something else (an earlier copy Discord gave back). What gives a player their
        turn goes before what does not (a hand a private copy of which shows it already is no
        longer what its player waits on), each player's at once: they are in their own DMs (or
        go through their own tokens), and no player's turn waits for another's message (at a
        deal's end every player's new hand is posted; one after another, the last waited a
        round trip for each before it)."""
        mirrored = self._mirrored(owing)
        records: list[MessageRecord] = []
        prompts = {
            o.key: o.key not in mirrored and self._prompts(owing.owner, o, k) for o, k in due
        }
        first = [(o, k) for o, k in due if prompts[o.key]]
        rest = [(o, k) for o, k in due if not prompts[o.key]]
        try:
            if first:
                if self._crew.ledger.moved_on(owing):
                    return False
                went = await asyncio.gather(
                    *(self._one(owing, o, k, prompt=True) for o, k in first),
                    return_exceptions=True,
                )
                failed = [g for g in went if isinstance(g, BaseException)]
                records += [g for g in went if isinstance(g, MessageRecord)]
                if any(not isinstance(f, Superseded) for f in failed):
                    raise next(f for f in failed if not isinstance(f, Superseded))
                if failed or not self._shows_owed(records, owing):
                    return False
            for owed, known in rest:
                if self._crew.ledger.moved_on(owing):
                    return False
                try:
                    record = await self._one(owing, owed, known, prompt=False)
                except Superseded:
                    return False  # it moved on while the DM waited for its turn
                if record is not None:
                    records.append(record)
                    if not self._shows_owed([record], owing):
                        return False
            return True
        finally:
            await self._crew.shown.sent(owing.owner, records)

    async def _one(
        self, owing: Owing, owed: Owed, known: MessageRecord | None, *, prompt: bool
    ) -> MessageRecord | None:
        """Send one DM (``prompt``: it gives its player their turn; a redraw waits while its
        message's count is low): the record to keep of it (None: it waits, looked at again
        later). :class:`Superseded` if the owner moved on while it waited for its turn."""
        if not prompt and self._redraw_waits(owing, owed, known):
            return None
        if await self._dm_waits(owing, owed, known):
            return None
        record = await self._attempts.deliver(owing, owed, known)
        if record is not None:
            self._crew.ledger.offered(owing.owner, owed.key, record.digest, owed.view.offers())
        return record

    @staticmethod
    def _shows_owed(records: list[MessageRecord], owing: Owing) -> bool:
        """Whether every record sent shows what is owed (not an earlier copy Discord gave
        back, which the next pass edits)."""
        owed = {o.key: o.view.digest() for o in owing.owed}
        return all(r.digest == owed.get(r.key) for r in records)

    def _prompts(self, owner: Owner, owed: Owed, known: MessageRecord | None) -> bool:
        """Whether sending ``owed`` gives its player something new to act on (live controls
        the copy shown does not offer, as far as is known): their turn."""
        offers = owed.view.offers()
        if offers is None:
            return False
        return known is None or self._crew.ledger.offering(owner, owed.key, known.digest) != offers

    def _redraw_waits(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> bool:
        """Whether a redraw of a hand (nothing new to act on) waits, leaving the message's
        count of writes to the edit that gives its player their turn: then it is looked at
        again once that count allows. A hand's last look (a finished deal's) never waits so:
        it is owed only while the game keeps its deal."""
        if known is None or owed.tokens_only or owed.last:
            return False
        # (The count of the way it would go: its token's while that lives, else its DM's.)
        through = live(known, self._crew.clock()) and known.token is not None
        if through:
            assert known.token is not None
            room = self._crew.pacer.webhook_room(known.token)
        else:
            room = self._crew.pacer.room(known.channel_id, RequestKind.EDIT)
        if room > PROMPT_RESERVE:
            return False
        delay = WEBHOOK_PERIOD / 2 if through else CHANNEL_PERIOD / 2
        self._crew.lanes.later(owing.owner, owing.channel_id, Lane.HANDS, delay)
        return True

    async def _dm_waits(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> bool:
        """Whether a hand's post or edit with the bot's token waits for its DM's count (the
        other hands in the same lane are not held up meanwhile): then it is looked at again
        once that count allows."""
        now = self._crew.clock()
        if owed.tokens_only or owed.user_id is None or (known is not None and live(known, now)):
            return False  # (through a token: its own count)
        if known is None:
            # A new deal's hand, posted in the player's DM (as a follow-up of their latest
            # click there while its token lives: its own count).
            link = await self._crew.dm_links.link(owed.user_id)
            if link is None or link.channel_id is None:
                return False
            if token_lives(link.token, link.token_at, now):
                return False
            channel_id, kind = link.channel_id, RequestKind.POST
        else:
            channel_id, kind = known.channel_id, RequestKind.EDIT
        delay = self._crew.pacer.channel_delay(channel_id, kind)
        if delay <= 0:
            return False
        self._crew.lanes.later(owing.owner, owing.channel_id, Lane.HANDS, delay)
        return True
