"""One message sent: the ways its route names, tried in order, each under the sender's fence.

:func:`~bot.core.ledger.routes.route` names the ways (:class:`~bot.core.ledger.transport.Attempt`),
a pure function of what is known; :class:`Attempts` makes them through the Discord layer
(:class:`~bot.core.ledger.transport.Transport`) until one goes, moving on when one cannot be
used (a token Discord calls dead, a message found deleted), and says what it went as. Every
request carries a fence, checked right before it is written: that this process still sends
under the lease epoch the send began under, and, for a player's hand, that its owner has not
moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from typing import Protocol

from bot.core.base.delivery import Owed
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord, MessageView
from bot.core.ledger.answers import Answers
from bot.core.ledger.copies import Copies
from bot.core.ledger.lanes import Lane, Lanes
from bot.core.ledger.ledger import MessageLedger
from bot.core.ledger.life import Owing, Send
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.records import DmLink
from bot.core.ledger.routes import Facts, Route, route, through
from bot.core.ledger.shown import Shown
from bot.core.ledger.tokens import DmLinks, FollowupBudget, LapsedTokens
from bot.core.ledger.touches import Touches
from bot.core.ledger.transport import (
    Attempt,
    Carried,
    ChannelClosed,
    ClosedBefore,
    DmsClosed,
    Fence,
    FollowupsUsedUp,
    MessageGone,
    NotSender,
    Rejected,
    Superseded,
    TokenLapsed,
    TokenUnreachable,
    Transport,
    Way,
)
from bot.core.ledger.writes import WriteBehind

__all__ = ["AlwaysSender", "Attempts", "Crew", "Lease"]

log = logging.getLogger(__name__)


class Lease(Protocol):
    """Whether this process may send, as an epoch: a number that changes whenever its right to
    send was lost and taken again (``bot.store.cluster.Cluster``)."""

    def held_as(self) -> str | None:
        """The name this process holds the lease under in the store, which a write that only
        the sender may make checks in its own statement (None: a lone process, no lease)."""
        ...

    def epoch(self) -> int | None:
        """The epoch this process sends under now (None: it may not send)."""
        ...

    def holds(self, epoch: int) -> bool:
        """Whether this process still sends under ``epoch``, by its own clock."""
        ...


class AlwaysSender:
    """The lease of a bot that is one process (SQLite): it always sends."""

    def held_as(self) -> str | None:
        return None

    def epoch(self) -> int | None:
        return 1

    def holds(self, epoch: int) -> bool:
        return True


@dataclasses.dataclass
class _Tried:
    """What one message's attempts learnt so far: the tokens Discord called dead, and whether
    the message was found deleted (only a post may go then)."""

    lapsed: list[str] = dataclasses.field(default_factory=list)
    gone: bool = False


class _Hold(Exception):
    """Nothing went now: look again after ``retry_after`` seconds (None: not until something
    else happens)."""

    def __init__(self, retry_after: float | None) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclasses.dataclass(frozen=True)
class Crew:
    """What the keeper's parts (:class:`Attempts`, :class:`~bot.core.ledger.hands.Hands`,
    :class:`~bot.core.ledger.takeover.Takeover`) work with, the keeper's own: the ledger and
    each of its parts the keeper uses (what each message shows, what reaches the store, the
    clicks' answers, the copies tokens reach, the owners' changes heard, the DM links, the
    follow-ups per token), the Discord layer, the channels' pacer, the keeper's lanes and its
    clock."""

    ledger: MessageLedger
    shown: Shown
    writes: WriteBehind
    answers: Answers
    copies: Copies
    touches: Touches
    dm_links: DmLinks
    followups: FollowupBudget
    lapsed: LapsedTokens
    transport: Transport
    pacer: Pacer
    lanes: Lanes
    clock: Callable[[], float]

    @classmethod
    def of(
        cls,
        ledger: MessageLedger,
        transport: Transport,
        pacer: Pacer,
        lanes: Lanes,
        clock: Callable[[], float],
    ) -> Crew:
        """The crew of a keeper of ``ledger``: its parts handed in, with the rest."""
        return cls(
            ledger,
            ledger.shown,
            ledger.writes,
            ledger.answers,
            ledger.copies,
            ledger.touches,
            ledger.dm_links,
            ledger.followups,
            ledger.lapsed,
            transport,
            pacer,
            lanes,
            clock,
        )


class Attempts:
    """Sends one message at a time the ways its route names, under the sender's fence."""

    def __init__(self, crew: Crew, lease: Lease) -> None:
        self._crew = crew
        self._lease = lease
        #: Channels the bot may not post in (gone, or no permission): told once in the log.
        self._closed_channels: set[int] = set()
        #: Those of them that are DMs whose one person takes no DMs from the bot (a lesson's).
        self._refused_dms: set[int] = set()
        #: Owners another process, or this one before a stop, may have been posting to, and
        #: the lanes whose first pass since is still to come (see :meth:`doubt_posts`).
        self._unsure: dict[Owner, set[Lane]] = {}

    def doubt_posts(self, owner: Owner) -> None:
        """The sender before this one (another process, or this one before a stop) may have
        posted a message of ``owner``'s with the bot's token and its nonce and stopped before
        keeping its id (a post with the bot's token leaves no pending post to look for): in
        each lane's first pass from now on, a message never kept is posted with its nonce
        first, which gives back the message Discord made then, where a post through an
        interaction's token (which takes no nonce) made a second one."""
        self._unsure[owner] = {Lane.TABLE, Lane.HANDS}

    def passed(self, owner: Owner, lane: Lane) -> None:
        """A pass of ``owner``'s messages in ``lane`` sent all it owed: its posts go their
        usual ways from now on."""
        lanes = self._unsure.get(owner)
        if lanes is not None:
            lanes.discard(lane)
            if not lanes:
                del self._unsure[owner]

    def forget_doubts(self) -> None:
        """Another process sends now: it doubts what this one may have posted."""
        self._unsure.clear()

    def closed(self, channel_id: int) -> bool:
        """Whether the bot may not post in this channel (gone, or no permission)."""
        return channel_id in self._closed_channels

    def epoch(self) -> int:
        """The lease epoch this process sends under now (:class:`NotSender` if none)."""
        epoch = self._lease.epoch()
        if epoch is None:
            raise NotSender
        return epoch

    def fence(self, epoch: int, owing: Owing | None = None) -> Fence:
        """What a request checks right before it is written: that this process still sends
        under ``epoch``, and (for a player's hand, ``owing`` given) that the owner has not
        moved on while the request waited for its turn."""
        lease, ledger = self._lease, self._crew.ledger

        def fence() -> None:
            if not lease.holds(epoch):
                raise NotSender
            if owing is not None and ledger.moved_on(owing):
                raise Superseded

        return fence

    async def edit_copy(
        self, copy: MessageRecord, view: MessageView, owing: Owing | None = None
    ) -> bool:
        """Edit a copy of a message through the token that reaches it, to show ``view`` (under
        the fence of ``owing``, if given); False when the token reaches it no more."""
        try:
            await self._crew.transport.carry(through(copy), view, self.fence(self.epoch(), owing))
        except (TokenLapsed, TokenUnreachable, MessageGone):
            return False
        return True

    async def deliver_all(
        self, owing: Owing, ready: list[tuple[Owed, MessageRecord | None]]
    ) -> bool:
        """Send the channel's messages that may go now and report them in one go; False when
        one now shows something other than what is owed (an earlier copy Discord gave back)."""
        records: list[MessageRecord] = []
        try:
            for owed, known in ready:
                if self.closed(owing.channel_id):
                    break  # (refused a moment ago: the rest would be refused too)
                record = await self.deliver(owing, owed, known)
                if record is not None:
                    records.append(record)
        finally:
            await self._crew.shown.sent(owing.owner, records)
        owed_digests = {o.key: o.view.digest() for o, _ in ready}
        return all(r.digest == owed_digests[r.key] for r in records)

    async def deliver(
        self, owing: Owing, owed: Owed, known: MessageRecord | None
    ) -> MessageRecord | None:
        """Send one message; the record to keep of it (None: nothing to keep, the DM or the
        channel being closed, which is what the owner hears of instead, or nothing that may
        go now: looked at again when the route says)."""
        try:
            return await self._go(owing, owed, known)
        except _Hold as hold:
            # Not sent now. Where the bot is not a member only an interaction's token reaches
            # a message: the game's next interaction brings one. A click's answer still on
            # its way to the message: edited in a moment, once it has landed (or is taken as
            # lost), since an edit now could land first and then be overwritten by it.
            if hold.retry_after is not None:
                lane = Lane.TABLE if owed.user_id is None else Lane.HANDS
                self._crew.lanes.later(owing.owner, owing.channel_id, lane, hold.retry_after)
            return None
        except (DmsClosed, ClosedBefore):
            # Refused a DM, or held back for a channel found closed while it waited for its
            # turn (:meth:`_carry`, which closed the owner's channel when it was the one
            # refused). A table's: nothing more is tried there in this process, like a channel
            # the bot may not post in (a lesson's learner plays from their hand's private
            # answers). A hand's: its player takes no DMs from the bot now.
            if owed.user_id is not None:
                await self._hand_refused(owing, owed.user_id)
            return None
        except ChannelClosed as error:
            # Deleted with its owner in it (nothing to fix), or a permission its server lacks.
            self._close(owing, error, "is gone" if error.gone else None)
            return None
        except Rejected as error:
            if owed.once:
                # A notice Discord will never take: say so, and do not try it forever.
                log.warning("Discord refused %s of %s: %s", owed.key, owing.owner, error)
                return None
            raise

    async def _hand_refused(self, owing: Owing, user_id: int) -> None:
        """A hand's DM to ``user_id`` refused: no more DMs to them in the owner's game."""
        await self._crew.ledger.dms_refused(owing.owner, user_id)
        # The channel's notice is owed now, and the table's task may be done already.
        self._crew.lanes.touch(owing.owner, owing.channel_id, (Lane.TABLE,))

    def _refused(self, owing: Owing, error: Exception) -> None:
        """The owner's channel is a DM that Discord refused the bot's post in: closed, for
        the table's lane and the hands' alike (a DM has one person in it, so a hand of this
        owner's that would open its player's DM opens this one)."""
        self._refused_dms.add(owing.channel_id)
        self._close(owing, error, "takes no DMs")

    def _shut(self, owing: Owing, attempt: Attempt, into: int | None) -> bool:
        """Whether ``attempt``, posting ``into`` a channel, would post into the owner's own
        channel now closed to the bot (a DM it opens first being that channel when the
        owner's channel is a DM that refused it)."""
        if attempt.way is not Way.POST_AS_BOT:
            return False
        if into is None:
            return owing.channel_id in self._refused_dms
        return into == owing.channel_id and self.closed(into)

    def _close(self, owing: Owing, error: Exception, why: str | None) -> None:
        """Send nothing more in the owner's channel, said once in the log: ``why`` it is
        closed for good, or (None) a warning that the bot lacks a permission there."""
        if owing.channel_id in self._closed_channels:
            return
        self._closed_channels.add(owing.channel_id)
        if why is None:
            log.warning("cannot post in channel %s (%s)", owing.channel_id, error)
        else:
            log.info(
                "channel %s %s: %s's messages there are not sent",
                owing.channel_id,
                why,
                owing.owner,
            )

    async def _go(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> MessageRecord:
        """Try the ways the route names, in order, until one goes (see :mod:`routes`)."""
        chosen, link = await self._route(owing, owed, known)
        lane = Lane.TABLE if owed.user_id is None else Lane.HANDS
        if known is None and not owed.tokens_only and lane in self._unsure.get(owing.owner, ()):
            # Never kept, and maybe posted with the nonce before a stop: the nonce first.
            nonce = [a for a in chosen.attempts if a.way is Way.POST_AS_BOT]
            others = [a for a in chosen.attempts if a.way is not Way.POST_AS_BOT]
            chosen = dataclasses.replace(chosen, attempts=(*nonce, *others))
        self._crew.shown.sending_look(owing.owner, owed.key, owing.version)
        epoch = self.epoch()
        # (A DM that waited for its turn is not sent if the game moved on meanwhile: the
        # keeper draws the hands again; the channel's messages go as drawn.)
        fence = self.fence(epoch, owing if owed.user_id is not None else None)
        tried = _Tried()
        try:
            for attempt in chosen.attempts:
                if not await self._may_try(owing, owed, attempt, tried):
                    continue
                send = Send(attempt, epoch, self._crew.clock())
                carried = await self._carry(owing, owed, send, fence, tried, link)
                if carried is None:
                    continue
                private_post = owed.tokens_only and attempt.way is Way.POST_THROUGH
                if private_post and not await self._posted_in_public(attempt, carried, fence):
                    continue
                return await self._kept(owing, attempt, carried, link)
            raise _Hold(chosen.hold)
        finally:
            if tried.lapsed:
                # Discord says these tokens are past their 15 minutes (clocks differ):
                # nothing is tried through them again, for any owner (a Start's token
                # carries the next deal's table; a DM click's, the hands of every game), and
                # the messages they reached are kept without them (a private table says who
                # to wake).
                self._crew.lapsed.lapsed(tried.lapsed)
                await self._crew.copies.tokens_lapsed(owing.owner, tried.lapsed)

    async def _route(
        self, owing: Owing, owed: Owed, known: MessageRecord | None
    ) -> tuple[Route, DmLink | None]:
        """The ways to send ``owed`` (:func:`~bot.core.ledger.routes.route`), from what is
        known now; and, for a DM, its player's DM link."""
        crew, owner = self._crew, owing.owner
        # What was sent as it is kept now, not as it was when the owner was drawn: a click's
        # answer kept with a move meanwhile is on its way to that very message.
        sent = await crew.shown.kept(owner)
        link = None
        if owed.user_id is not None and not owed.tokens_only:
            link = await crew.dm_links.link(owed.user_id)
        facts = Facts(
            owner,
            owing.channel_id,
            sent,
            crew.clock(),
            mine=lambda record: crew.answers.sends_answer(owner, record),
            may_carry=crew.followups.may_carry,
            link=link,
            lapsed=crew.lapsed.dead(),
        )
        return route(owed, sent.get(owed.key) if owed.tokens_only else known, facts), link

    async def _may_try(self, owing: Owing, owed: Owed, attempt: Attempt, tried: _Tried) -> bool:
        """Whether ``attempt`` is worth making, after those ``tried`` before it (a follow-up's
        pending post is written first)."""
        token = attempt.token
        if token is not None and token in tried.lapsed:
            return False  # (Discord called it dead through another message)
        if tried.gone and not attempt.way.posts:
            return False
        if attempt.way is not Way.POST_THROUGH:
            return True
        if owed.tokens_only and not self._crew.followups.may_carry(token or ""):
            return False
        if owed.tokens_only and not owed.once:
            return True  # (a table posted again twice leaves an older copy, closed when clicked)
        # A follow-up takes no nonce: if the process stops before its id is kept, the next
        # one to send looks for it (Transport.lost_posts); where the bot is not a member it
        # cannot look, and a call posted once is then taken as posted (Takeover._recover).
        assert attempt.channel_id is not None
        await self._crew.writes.posting(
            owing.owner, owed.key, attempt.channel_id, held_as=self._lease.held_as()
        )
        return True

    async def _carry(
        self,
        owing: Owing,
        owed: Owed,
        send: Send,
        fence: Fence,
        tried: _Tried,
        link: DmLink | None,
    ) -> Carried | None:
        """Make one attempt (``send``) through the Discord layer; what it went as (None: that
        way cannot be used, noted in ``tried``: the next is tried). A post with the bot's
        token into the owner's own channel is held back (:class:`ClosedBefore`) if that
        channel was closed while it waited for its turn, and closes it if Discord refuses it
        as a DM: a lesson's DM is the table's channel and its hand's DM alike, and its two
        lanes send apart, so which of them Discord refuses first is left to chance."""
        crew, attempt, token = self._crew, send.attempt, send.attempt.token
        loop = asyncio.get_running_loop()
        into = _posted_in(attempt, link)

        def fence_and_note() -> None:
            fence()
            if self._shut(owing, attempt, into):
                raise ClosedBefore(f"channel {owing.channel_id} takes no posts from the bot")
            send.written = loop.time()  # (a click's answer to the message waits for it)

        crew.ledger.sending(owing.owner, owed.key, send)
        try:
            return await crew.transport.carry(attempt, owed.view, fence_and_note)
        except TokenLapsed:
            assert token is not None
            tried.lapsed.append(token)
        except TokenUnreachable:
            pass
        except FollowupsUsedUp:
            assert token is not None and attempt.token_at is not None
            crew.followups.exhausted(token, attempt.token_at, crew.clock())
        except MessageGone:
            # Deleted by someone (or with its channel: posting again says which).
            log.info("message %s of %s was deleted: posting it again", owed.key, owing.owner)
            tried.gone = True
        except DmsClosed as error:
            if (error.channel_id or into) == owing.channel_id:
                self._refused(owing, error)
            raise
        finally:
            crew.ledger.sending(owing.owner, owed.key, None)
            send.back.set()
        return None

    async def _posted_in_public(self, attempt: Attempt, carried: Carried, fence: Fence) -> bool:
        """A follow-up posted through a token where the bot is not a member: counted against
        the token, and whether it shows in public. Discord made it ephemeral when its
        interaction's user may not let apps answer in public there (Use External Apps), so the
        copy would be theirs alone: it goes, and that token carries nothing more."""
        crew, token, at = self._crew, attempt.token, attempt.token_at
        assert token is not None and at is not None
        crew.followups.carried(token, at, crew.clock())
        if not carried.private:
            return True
        crew.followups.exhausted(token, at, crew.clock())
        with contextlib.suppress(Exception):
            await crew.transport.delete_followup(token, carried.message_id, fence)
        return False

    async def _kept(
        self, owing: Owing, attempt: Attempt, carried: Carried, link: DmLink | None
    ) -> MessageRecord:
        """The record to keep of a message that went as ``carried`` (and, posted in a DM the
        bot opened, that DM's channel, learnt)."""
        if attempt.way is Way.POST_AS_BOT and attempt.channel_id is None:
            assert attempt.user_id is not None
            await self._crew.dm_links.linked(
                DmLink(
                    attempt.user_id,
                    carried.channel_id,
                    link.token if link else None,
                    link.token_at if link else None,
                )
            )
        keep = attempt.keep
        if attempt.way.posts:
            keep = dataclasses.replace(
                keep, channel_id=carried.channel_id, message_id=carried.message_id
            )
        if not carried.same:
            keep = dataclasses.replace(keep, digest="")
        # What it shows was drawn at the owner's version then (a record of a later one, kept by
        # another process answering a click on it meanwhile, is not replaced), and Discord said
        # so: no click's answer is waited on any more (an edit through the token of one taken
        # as lost kept its mark, and the sender found it again every second and edited the
        # message again, for as long as the token lived).
        return dataclasses.replace(keep, version=owing.version, unconfirmed_since=None)


def _posted_in(attempt: Attempt, link: DmLink | None) -> int | None:
    """The channel ``attempt`` posts in with the bot's token, as far as is known before it
    goes (None: not such a post, or a DM the transport opens first)."""
    if attempt.way is not Way.POST_AS_BOT:
        return None
    if attempt.channel_id is None and link is not None and link.user_id == attempt.user_id:
        return link.channel_id
    return attempt.channel_id
