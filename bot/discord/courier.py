"""Putting a game's message on Discord: posting it, or editing the copy that is there.

A message goes the cheapest way Discord allows. A DM is posted as a follow-up of the player's
latest interaction in that DM, and a message posted that way is edited through the same
interaction's webhook, while its token lives (15 minutes): webhook requests do not count toward
the bot's global limit. Otherwise the bot's own token posts or edits, paced by the
:class:`~bot.discord.pacing.Pacer`. Every request that Discord refuses is turned into what it
means for the game (the DMs are closed, the message is gone, the channel is not ours).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from bot.core.ledger import MessageLedger
from bot.core.messages import MessageView, Owed
from bot.core.owners import Owner, OwnerKind
from bot.core.records import DmLink, MessageRecord, PendingPost
from bot.discord.followups import TOO_MANY_FOLLOWUPS, FollowupBudget
from bot.discord.pacing import Pacer, RequestKind
from bot.discord.rendering import message_payload

__all__ = [
    "TOKEN_LIFE",
    "ChannelClosed",
    "Courier",
    "DmsClosed",
    "NoLiveToken",
    "NotSender",
    "Superseded",
    "post_nonce",
]

log = logging.getLogger(__name__)

#: How long an interaction's token may be used after the interaction (Discord allows 15
#: minutes; a minute is kept in hand for clocks and slow requests).
TOKEN_LIFE = 14 * 60.0
#: A click's answer reaches Discord within this long of the click (Discord takes it within
#: 3 s); until then a private table waits for it, looking again every ANSWER_RETRY seconds.
ANSWER_LANDS_WITHIN = 4.0
ANSWER_RETRY = 0.5
#: How far before a post's recorded time its message may be dated (clocks differ a little).
CLOCK_SLACK = 60.0
#: How many of a DM's latest messages are looked at for a copy left by a crash.
HISTORY_LOOKED_AT = 50
#: Discord's JSON error codes this module acts on.
DMS_CLOSED = 50007
UNKNOWN_MESSAGE = 10008
INVALID_WEBHOOK_TOKEN = 50027
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003
UNKNOWN_WEBHOOK = 10015
#: "Thread is archived": a message in an archived thread takes no edit.
THREAD_ARCHIVED = 50083


class DmsClosed(Exception):
    """Discord refused a DM to this user (they do not take DMs from server members)."""


class ChannelClosed(Exception):
    """The bot cannot post or edit in the game's channel: ``gone`` (deleted: 404 / 10003), or
    no permission there (50001 / 50013)."""

    def __init__(self, text: str, *, gone: bool = False) -> None:
        super().__init__(text)
        self.gone = gone


class NoLiveToken(Exception):
    """A message of a game where the bot is not a member, and no interaction's token that may
    still reach it (nor, for the table, one to post it again through): nothing was sent. The
    game's next interaction brings a token. ``retry_after``: a token is there whose
    interaction is still being answered (its webhook reaches nothing until then): look again
    after that many seconds."""

    def __init__(self, key: str, retry_after: float | None = None) -> None:
        super().__init__(key)
        self.retry_after = retry_after


class AnswerOnItsWay(Exception):
    """A click's answer to this very message (kept with its move) may still be on its way to
    Discord: an edit made now could land first and then be overwritten by that answer's older
    look, and the interaction's webhook reaches nothing until the answer has landed (Discord:
    404 / 10015). Nothing was sent: look again after ``retry_after`` seconds."""

    def __init__(self, key: str, retry_after: float = ANSWER_RETRY) -> None:
        super().__init__(key)
        self.retry_after = retry_after


def answer_on_its_way(record: MessageRecord | None, now: float) -> bool:
    """Whether ``record`` is a click's answer kept with its move that is not yet known to have
    reached Discord, and may still (Discord takes an answer within 3 s of the click)."""
    return (
        record is not None
        and record.unconfirmed_since is not None
        and now - record.unconfirmed_since < ANSWER_LANDS_WITHIN
    )


class NotSender(Exception):
    """This process may not send now: its sender's lease lapsed by its own clock, or another
    process holds it (see :mod:`bot.store.cluster`). Nothing was sent."""


class Superseded(Exception):
    """The game moved on while a DM waited for its turn to go: it was not sent."""


#: Says whether what is about to be sent still shows the game as it is.
Current = Callable[[], Awaitable[bool]]


async def _still(current: Current | None) -> None:
    """Raise :class:`Superseded` if the game moved on (checked after every pacing wait)."""
    if current is not None and not await current():
        raise Superseded


async def _edit_original(
    webhook: discord.Webhook, token: str, client: discord.Client, payload: dict[str, Any]
) -> None:
    """Edit an interaction's original response (for a click: the message it was on) through
    its token. discord.py offers this only on a live ``Interaction``; a stored token needs its
    webhook adapter, the same call ``Interaction.edit_original_response`` makes (discord.py is
    pinned, and the end-to-end tests drive this path)."""
    with handle_message_parameters(
        content=payload.get("content", MISSING),
        view=payload.get("view", MISSING),
        attachments=payload.get("attachments", MISSING),
        allowed_mentions=payload.get("allowed_mentions", MISSING),
        previous_allowed_mentions=client.allowed_mentions,
    ) as params:
        await async_context.get().edit_original_interaction_response(
            webhook.id,
            token,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


def post_nonce(owner: Owner, key: str, replacing: int | None) -> str:
    """The nonce a message is posted with (Discord's ``enforce_nonce``): the same for the same
    message of an owner, so a post sent again after the process died before keeping its id
    gives back the message Discord made, not a second one. A message posted again because the
    one before was deleted (``replacing`` its id) gets another nonce. 24 characters (Discord
    takes 25). (A game's nonces are what they were before messages had owners of other kinds.)"""
    named = str(owner.id) if owner.kind is OwnerKind.GAME else str(owner)
    text = f"{named}/{key}/{replacing or 0}".encode()
    return hashlib.blake2b(text, digest_size=12).hexdigest()


def _kept_digest(message: discord.Message, payload: dict[str, Any], digest: str) -> str:
    """The digest to keep for a message just posted: ``digest``, unless Discord gave back an
    earlier post with the same nonce that shows something else (then unknown: it is edited
    once)."""
    view = payload.get("view")
    mine = list(view.children) if view is not None else []
    pictures = len(payload.get("files", ())) + (1 if "file" in payload else 0)
    # A laid-out message has no content: what it says is in its text displays.
    same = (
        message.content == payload.get("content", "")
        and _texts(message.components) == _texts(mine)
        and sorted(_custom_ids(message.components)) == sorted(_custom_ids(mine))
        and len(message.attachments) == pictures
    )
    return digest if same else ""


def _fresh(token: str | None, at: float | None, now: float) -> bool:
    return token is not None and at is not None and now - at < TOKEN_LIFE


class Courier:
    """Posts and edits owners' messages for one bot."""

    def __init__(
        self,
        client: discord.Client,
        ledger: MessageLedger,
        pacer: Pacer,
        *,
        clock: Any = time.time,
        may_send: Callable[[], bool] = lambda: True,
    ) -> None:
        """``may_send`` is asked right before every request (when its turn has come): while it
        says no, nothing is sent (:class:`NotSender`)."""
        self._client = client
        self._ledger = ledger
        self._pacer = pacer
        self._clock = clock
        self._may_send = may_send
        # Follow-ups posted through each interaction's token where the bot is not a member.
        self._followups = FollowupBudget(TOKEN_LIFE)

    # -- the fence: every request is made inside one of these ------------------------------------
    @contextlib.asynccontextmanager
    async def _turn(
        self, channel_id: int | None, kind: RequestKind, *, urgent: bool = False
    ) -> AsyncIterator[None]:
        """The pacer's turn for a request with the bot's token, if this process may send."""
        async with self._pacer.turn(channel_id, kind, urgent=urgent):
            if not self._may_send():
                raise NotSender
            yield

    async def _webhook_slot(self, token: str) -> None:
        """The pacer's slot for a request through an interaction's token, if this process may
        send."""
        await self._pacer.webhook_slot(token)
        if not self._may_send():
            raise NotSender

    @property
    def _app_id(self) -> int:
        app = self._client.application_id
        assert app is not None  # known from login on
        return app

    async def _payload(self, view: MessageView, *, editing: bool) -> dict[str, Any]:
        return await message_payload(view, editing=editing)

    # -- sending ------------------------------------------------------------------------------
    async def send(
        self,
        owner: Owner,
        channel_id: int,
        owed: Owed,
        known: MessageRecord | None,
        current: Current | None = None,
    ) -> MessageRecord:
        """Make Discord show ``owed`` (posting it, or editing ``known``, the copy sent before);
        the record to keep. Raises :class:`DmsClosed` or :class:`ChannelClosed`, and, when a
        DM waited for its turn and ``current()`` then says the game moved on, :class:`Superseded`
        (nothing sent: the player may already see newer controls, from their own click).
        A private message (``owed.private``: the bot is not a member there) goes through
        interactions' tokens alone (the owner's messages' tokens), else :class:`NoLiveToken`.
        Any other message is left alone while a click's answer to it may still be on its way
        (:class:`AnswerOnItsWay`)."""
        digest = owed.view.digest()
        if owed.private:
            lapsed: list[str] = []
            # What was sent as it is kept now, not as it was when the owner was drawn: a
            # click's answer kept with a move meanwhile is on its way to that very message.
            kept = await self._ledger.kept(owner)
            try:
                return await self._by_token(owner, owed, kept.get(owed.key), digest, kept, lapsed)
            finally:
                if lapsed:
                    # Discord says these tokens are past their 15 minutes (clocks differ):
                    # nothing is tried through them again, and the table says who to wake.
                    await self._ledger.tokens_lapsed(owner, lapsed)
        answering = await self._answer_on_its_way(owner, owed, known)
        if answering is not None:
            # (A DM that waited for its turn is not sent if the game moved on meanwhile: the
            # keeper draws the hands again; the channel's messages go as drawn.)
            mine = current if owed.user_id is not None else None
            return await self._after_answer(owner, owed, answering, digest, mine)
        if owed.user_id is None:
            return await self._to_channel(owner, channel_id, owed, known, digest)
        return await self._to_dm(owner, owed.user_id, owed, known, digest, current)

    async def _answer_on_its_way(
        self, owner: Owner, owed: Owed, known: MessageRecord | None
    ) -> MessageRecord | None:
        """The click's answer to this message that may still be on its way (kept with its
        move: as the message was when the owner was drawn, or as it is kept now), if any."""
        now = self._clock()
        for record in (known, (await self._ledger.kept(owner)).get(owed.key)):
            if record is not None and answer_on_its_way(record, now):
                return record
        return None

    async def _after_answer(
        self,
        owner: Owner,
        owed: Owed,
        answering: MessageRecord,
        digest: str,
        current: Current | None,
    ) -> MessageRecord:
        """Edit a message whose click's answer may still be on its way, only once that answer
        has landed, so that it never lands over the edit: where this process sends the answer
        and has not heard it land, later (:class:`AnswerOnItsWay`); where another process
        made it, through that answer's own token, which reaches the message only once the
        answer has landed (Discord: the interaction's webhook is unknown until then, 404 /
        10015), and later if it does not yet."""
        if self._ledger.sends_answer(owner, answering) or not await self._edit_through_token(
            answering, owed.view, current
        ):
            raise AnswerOnItsWay(owed.key)
        return dataclasses.replace(answering, digest=digest, unconfirmed_since=None)

    async def _by_token(
        self,
        owner: Owner,
        owed: Owed,
        known: MessageRecord | None,
        digest: str,
        sent: Mapping[str, MessageRecord],
        lapsed: list[str],
    ) -> MessageRecord:
        """Where the bot is not a member its own token reaches nothing (Discord: 403 / 50001),
        so nothing here ever uses it. A message is edited through the freshest live token of
        an interaction on it. A hand of a new deal takes over its player's hand of the deal
        before (their own ephemeral message, through its token). The table, when no live
        token reaches it any more, is posted again as a follow-up of the game's freshest
        interaction, and that copy is the table from then on (a token carries a few such
        posts at most, none once Discord says its follow-ups are used up: see
        :mod:`bot.discord.followups`; nor one whose follow-up Discord made ephemeral, the copy
        then deleted). A message a click's answer may
        still be on its way to is edited only through that answer's own token, when another
        process sends it (it reaches the message only once the answer has landed), and else a
        moment later. The tokens Discord says are past their time go in ``lapsed``."""
        now = self._clock()
        # A click's answer kept with its move may not have reached Discord yet: until it has,
        # its token's webhook reaches nothing (Discord: 404 / 10015), so it waits a moment.
        waiting = [
            r for r in (known, *sent.values()) if r is not None and answer_on_its_way(r, now)
        ]
        retry = ANSWER_RETRY if waiting else None

        def busy(record: MessageRecord) -> bool:
            # An edit now could land before that answer and be overwritten by it.
            return any(r.message_id == record.message_id for r in waiting)

        def usable(record: MessageRecord | None) -> bool:
            # (A token Discord just called dead is not tried again through another message.)
            return (
                record is not None
                and record not in waiting
                and _fresh(record.token, record.token_at, now)
                and record.token not in lapsed
            )

        async def after_answer(targets: list[MessageRecord]) -> MessageRecord:
            # Through the answer on its way to one of ``targets``, if another process sends it
            # and it has landed (else Discord says 404 and nothing is shown); else later.
            for answer in waiting:
                if (
                    any(answer.message_id == t.message_id for t in targets)
                    and not self._ledger.sends_answer(owner, answer)
                    and _fresh(answer.token, answer.token_at, now)
                    and answer.token not in lapsed
                    and await self._edit_through_token(answer, owed.view, lapsed=lapsed)
                ):
                    return dataclasses.replace(
                        answer, key=owed.key, digest=digest, unconfirmed_since=None
                    )
            raise NoLiveToken(owed.key, retry)

        if owed.user_id is not None:
            seat = owed.key.rsplit(":", 1)[1]
            mine = [r for k, r in sent.items() if k.startswith("hand:") and k.endswith(f":{seat}")]
            if known is not None and known not in mine:
                mine.append(known)
            if any(busy(r) for r in mine):
                return await after_answer(mine)
            for carrier in sorted(mine, key=lambda r: r.token_at or 0.0, reverse=True):
                if usable(carrier) and await self._edit_through_token(
                    carrier, owed.view, lapsed=lapsed
                ):
                    return dataclasses.replace(carrier, key=owed.key, digest=digest)
            raise NoLiveToken(owed.key, retry)
        if known is not None and busy(known):
            return await after_answer([known])
        if (
            known is not None
            and usable(known)
            and await self._edit_through_token(known, owed.view, lapsed=lapsed)
        ):
            return dataclasses.replace(known, digest=digest)

        def may_carry(record: MessageRecord) -> bool:
            # Discord takes few follow-ups per interaction here (see bot.discord.followups).
            return usable(record) and self._followups.may_carry(record.token or "")

        carriers = sorted(
            (r for r in sent.values() if may_carry(r)),
            key=lambda r: r.token_at or 0.0,
            reverse=True,
        )
        payload = await self._payload(owed.view, editing=False)
        for carrier in carriers:
            if not may_carry(carrier):
                continue  # (its token was found dead, or full, through another message)
            assert carrier.token is not None and carrier.token_at is not None
            webhook = discord.Webhook.partial(self._app_id, carrier.token, client=self._client)
            await self._webhook_slot(carrier.token)
            try:
                posted = await webhook.send(wait=True, **payload)
            except discord.HTTPException as error:
                if error.code == INVALID_WEBHOOK_TOKEN or error.status == 401:
                    lapsed.append(carrier.token)
                    continue
                if error.code == UNKNOWN_WEBHOOK or error.status == 404:
                    continue
                if error.code == TOO_MANY_FOLLOWUPS:
                    # Its interaction has had all the follow-ups Discord gives: it still edits
                    # what it sent, but carries nothing more.
                    self._followups.exhausted(carrier.token, carrier.token_at, self._clock())
                    continue
                raise
            self._followups.carried(carrier.token, carrier.token_at, self._clock())
            if posted.flags.ephemeral:
                # Discord made it private: its interaction's user may not let apps answer in
                # public there (Use External Apps), so the copy would be theirs alone. It goes,
                # and that token carries nothing more.
                self._followups.exhausted(carrier.token, carrier.token_at, self._clock())
                with contextlib.suppress(discord.HTTPException):
                    await self._webhook_slot(carrier.token)
                    await webhook.delete_message(posted.id)
                continue
            return MessageRecord(
                owed.key, posted.channel.id, posted.id, digest, carrier.token, carrier.token_at
            )
        raise NoLiveToken(owed.key, retry)

    async def _to_channel(
        self, owner: Owner, channel_id: int, owed: Owed, known: MessageRecord | None, digest: str
    ) -> MessageRecord:
        channel = self._client.get_partial_messageable(channel_id)
        try:
            if known is not None:
                try:
                    if await self._edit_through_token(known, owed.view):
                        return dataclasses.replace(known, digest=digest)
                    # What to send is made before the turn is taken: a request goes the moment
                    # its turn comes, so the pacer's spacing is the spacing Discord sees.
                    edited = await self._payload(owed.view, editing=True)
                    await self._edit(channel.get_partial_message(known.message_id), edited)
                    return MessageRecord(owed.key, channel_id, known.message_id, digest)
                except discord.NotFound as error:
                    if error.code != UNKNOWN_MESSAGE:
                        raise
                    # Deleted by someone (or with its channel: posting again says which).
                    log.info("message %s of %s was deleted: posting it again", owed.key, channel_id)
            nonce = post_nonce(owner, owed.key, known.message_id if known else None)
            payload = await self._payload(owed.view, editing=False)
            async with self._turn(channel_id, RequestKind.POST):
                sent = await channel.send(nonce=nonce, **payload)
            return MessageRecord(owed.key, channel_id, sent.id, _kept_digest(sent, payload, digest))
        except (discord.Forbidden, discord.NotFound) as error:
            if error.code in (MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL):
                raise ChannelClosed(str(error), gone=error.code == UNKNOWN_CHANNEL) from error
            raise

    async def _edit(self, message: discord.PartialMessage, payload: dict[str, Any]) -> None:
        """Edit a message with the bot's token. In a thread that was archived (by Discord after
        a day without messages, or by a moderator) an edit is refused until the thread is
        reopened, which its member, the bot, may do: then it is edited again."""
        channel_id = message.channel.id
        try:
            async with self._turn(channel_id, RequestKind.EDIT):
                await message.edit(**payload)
            return
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
        log.info("thread %s is archived: reopening it to edit a message there", channel_id)
        async with self._turn(None, RequestKind.EDIT):
            await self._client.http.edit_channel(channel_id, archived=False)
        async with self._turn(channel_id, RequestKind.EDIT):
            await message.edit(**payload)

    async def _to_dm(
        self,
        owner: Owner,
        user_id: int,
        owed: Owed,
        known: MessageRecord | None,
        digest: str,
        current: Current | None,
    ) -> MessageRecord:
        now = self._clock()
        if known is not None:
            edited = await self._edit_dm(known, owed.view, now, current)
            if edited:
                return MessageRecord(
                    owed.key,
                    known.channel_id,
                    known.message_id,
                    digest,
                    known.token,
                    known.token_at,
                )
        link = await self._ledger.dm_links.link(user_id)
        if (
            link is not None
            and link.channel_id is not None
            and _fresh(link.token, link.token_at, now)
        ):
            assert link.token is not None
            webhook = discord.Webhook.partial(self._app_id, link.token, client=self._client)
            try:
                await self._webhook_slot(link.token)
                await _still(current)
                # A follow-up takes no nonce: if the process dies before its id is kept, the
                # next start looks for it (see `posted_since`).
                await self._ledger.posting(owner, owed.key, link.channel_id)
                posted = await webhook.send(
                    wait=True, **await self._payload(owed.view, editing=False)
                )
                return MessageRecord(
                    owed.key, link.channel_id, posted.id, digest, link.token, link.token_at
                )
            except discord.HTTPException as error:
                if error.code != INVALID_WEBHOOK_TOKEN and error.status not in (401, 404):
                    raise
        channel_id = await self._dm_channel(user_id, link)
        dm = self._client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            nonce = post_nonce(owner, owed.key, known.message_id if known else None)
            payload = await self._payload(owed.view, editing=False)
            async with self._turn(channel_id, RequestKind.POST, urgent=True):
                await _still(current)
                sent = await dm.send(nonce=nonce, **payload)
        except discord.Forbidden as error:
            if error.code == DMS_CLOSED:
                raise DmsClosed(str(error)) from error
            raise
        return MessageRecord(owed.key, channel_id, sent.id, _kept_digest(sent, payload, digest))

    async def _edit_through_token(
        self,
        known: MessageRecord,
        view: MessageView,
        current: Current | None = None,
        *,
        lapsed: list[str] | None = None,
    ) -> bool:
        """Edit a message through the webhook of an interaction that may still edit it (its
        original response, or its follow-up), outside the global limit; False when no token
        may (none, or expired: then the bot's own token does it)."""
        if not _fresh(known.token, known.token_at, self._clock()):
            return False
        assert known.token is not None
        await self._webhook_slot(known.token)
        await _still(current)
        webhook = discord.Webhook.partial(self._app_id, known.token, client=self._client)
        payload = await self._payload(view, editing=True)
        try:
            if known.original:
                await _edit_original(webhook, known.token, self._client, payload)
            else:
                await webhook.edit_message(known.message_id, **payload)
        except discord.HTTPException as error:
            if lapsed is not None and (error.code == INVALID_WEBHOOK_TOKEN or error.status == 401):
                lapsed.append(known.token)
            if error.code in (INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK) or error.status in (401, 404):
                # The token cannot reach the message (expired; or an interaction whose answer
                # never landed has no original response): that says nothing of the message
                # itself, which the bot's own token edits (and finds gone, if it is).
                return False
            if error.code == THREAD_ARCHIVED:
                return False  # the bot's own token reopens the thread, then edits
            raise
        return True

    async def _edit_dm(
        self, known: MessageRecord, view: MessageView, now: float, current: Current | None
    ) -> bool:
        """Edit a DM sent before; False when it is gone (post it again)."""
        if await self._edit_through_token(known, view, current):
            return True
        dm = self._client.get_partial_messageable(
            known.channel_id, type=discord.ChannelType.private
        )
        try:
            edited = await self._payload(view, editing=True)
            async with self._turn(known.channel_id, RequestKind.EDIT, urgent=True):
                await _still(current)
                await dm.get_partial_message(known.message_id).edit(**edited)
        except discord.NotFound as error:
            if error.code == UNKNOWN_MESSAGE:
                return False
            raise
        except discord.Forbidden as error:
            if error.code == DMS_CLOSED:
                raise DmsClosed(str(error)) from error
            raise
        return True

    async def posted_since(self, owner: Owner, pending: PendingPost, kept: set[int]) -> list[int]:
        """The ids, oldest first, of the bot's messages in a DM since ``pending`` was about to
        be posted that carry controls of this owner and are not among the ``kept`` messages:
        what a process that died between posting and keeping left behind. One request, made
        only at start-up for a post that was never kept."""
        after = discord.utils.time_snowflake(
            datetime.fromtimestamp(pending.since - CLOCK_SLACK, tz=UTC)
        )
        dm = self._client.get_partial_messageable(
            pending.channel_id, type=discord.ChannelType.private
        )
        async with self._turn(None, RequestKind.POST):
            messages = [
                m async for m in dm.history(after=discord.Object(after), limit=HISTORY_LOOKED_AT)
            ]
        prefix = f"crib:{owner.id}:"
        found: list[int] = []
        for message in messages:
            if message.author.id != self._client.application_id or message.id in kept:
                continue
            if any(i.startswith(prefix) for i in _custom_ids(message.components)):
                found.append(message.id)
        return sorted(found)

    async def delete_dm(self, channel_id: int, message_id: int) -> None:
        """Delete one of the bot's DMs (a second copy left by a crash)."""
        dm = self._client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        with contextlib.suppress(discord.NotFound):  # gone already
            async with self._turn(None, RequestKind.POST):
                await dm.get_partial_message(message_id).delete()

    async def _dm_channel(self, user_id: int, link: DmLink | None) -> int:
        """The DM channel with a user, opened (and remembered) the first time."""
        if link is not None and link.channel_id is not None:
            return link.channel_id
        async with self._turn(None, RequestKind.POST, urgent=True):
            dm = await self._client.create_dm(discord.Object(user_id))
        token = link.token if link else None
        at = link.token_at if link else None
        await self._ledger.dm_links.linked(DmLink(user_id, dm.id, token, at))
        return dm.id


def _nested(components: Sequence[object]) -> Iterator[object]:
    """Every component of a message (as Discord gave them back, or as a view holds them),
    however deeply nested: in rows, or in a Components V2 layout's containers and sections."""
    for component in components:
        yield component
        yield from _nested(getattr(component, "children", None) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _nested((accessory,))


def _custom_ids(components: Sequence[object]) -> Iterator[str]:
    """Every custom id among a message's components, however deeply nested."""
    for component in _nested(components):
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield str(custom_id)


def _texts(components: Sequence[object]) -> list[str]:
    """The words of a Components V2 layout's text displays, in order."""
    kinds = (discord.components.TextDisplay, discord.ui.TextDisplay)
    return [str(c.content) for c in _nested(components) if isinstance(c, kinds)]
