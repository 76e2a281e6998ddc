"""Carrying the ledger's requests to Discord, and saying how they went.

The core decides which way a message goes (:mod:`bot.core.ledger.routes`) and what is kept of
it; the :class:`Courier` makes one :class:`~bot.core.ledger.transport.Attempt` at a time with
discord.py (paced by the core's :class:`~bot.core.ledger.pacer.Pacer`) and turns what Discord
answers into what it means (:mod:`bot.core.ledger.transport`: the token is dead, the message is
gone, the DMs are closed, the channel is not ours). It keeps nothing of the core's.

**The fence.** Every request is made with its :data:`~bot.core.ledger.transport.Fence` set in a
context variable; the HTTP session's trace hooks (:func:`fence_trace`, given to the client as
``http_trace``) call it right before the request is written: when the request starts (after any
wait for its turn inside discord.py's rate limiter, a retry after a 429 included), once its
connection is ready, and as its body is handed to the socket. The last matters: aiohttp writes a
body (with the headers it holds back to go in the same packet) from a task of its own, a turn of
the event loop or more after the connection was ready, and a process frozen in between would
write it on waking, after another process took over. So a request that waited while this
process lost its lease is never written, however long it waited.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncIterator, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from bot.core.base.owners import Owner
from bot.core.base.views import MessageView
from bot.core.ledger.transport import (
    Attempt,
    Carried,
    ChannelClosed,
    DmsClosed,
    Fence,
    FollowupsUsedUp,
    MessageGone,
    Pacing,
    PendingPost,
    Rejected,
    RequestKind,
    TokenLapsed,
    TokenUnreachable,
    Unavailable,
    Unsent,
    Way,
)
from bot.discord.custom_ids import game_prefix
from bot.discord.places import activity_runs_in
from bot.discord.rendering import message_payload

__all__ = ["Courier", "fence_trace", "fenced", "first_line", "unavailable"]

#: How far before a post's recorded time its message may be dated (clocks differ a little).
CLOCK_SLACK = 60.0
#: How many of a DM's latest messages are looked at for a copy left by a stop.
HISTORY_LOOKED_AT = 50
#: Discord's JSON error codes this module acts on.
DMS_CLOSED = 50007
UNKNOWN_MESSAGE = 10008
INVALID_WEBHOOK_TOKEN = 50027
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003
#: A locked thread takes messages and edits only from those with Manage Threads (a moderator
#: locked it under a game): a permission the bot lacks there, as 50013 is.
THREAD_LOCKED = 160005
UNKNOWN_WEBHOOK = 10015
TOO_MANY_FOLLOWUPS = 40094
#: "Thread is archived": a message in an archived thread takes no edit.
THREAD_ARCHIVED = 50083

#: The fence of the request being made in this task (None: a request that is not a send).
_FENCE: contextvars.ContextVar[Fence | None] = contextvars.ContextVar("crib_fence", default=None)


@contextlib.contextmanager
def fenced(fence: Fence) -> Iterator[None]:
    """Make the requests inside the block under ``fence`` (checked right before each is
    written, by :func:`fence_trace`'s hooks). A fence that refused as a body was written
    raises here as itself (aiohttp reports it wrapped in a connection error)."""
    token = _FENCE.set(fence)
    try:
        yield
    except aiohttp.ClientConnectionError as error:
        if isinstance(error.__cause__, Unsent):
            raise error.__cause__ from None
        raise
    finally:
        _FENCE.reset(token)


async def _check(*_: object) -> None:
    fence = _FENCE.get()
    if fence is not None:
        fence()


def fence_trace() -> aiohttp.TraceConfig:
    """The HTTP session's hooks that check a send's fence right before it is written: as the
    request starts, once its connection is ready (made or reused), and right before each
    chunk of its body goes to the socket (the headers go with the first)."""
    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(_check)
    trace.on_connection_create_end.append(_check)
    trace.on_connection_reuseconn.append(_check)
    trace.on_request_chunk_sent.append(_check)
    return trace


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


def _same(message: discord.Message, payload: dict[str, Any]) -> bool:
    """Whether a message just posted shows what was sent (False: Discord gave back an earlier
    post with the same nonce that shows something else: it is edited once)."""
    view = payload.get("view")
    mine = list(view.children) if view is not None else []
    pictures = len(payload.get("files", ())) + (1 if "file" in payload else 0)
    # A laid-out message has no content: what it says is in its text displays.
    return (
        message.content == payload.get("content", "")
        and _texts(message.components) == _texts(mine)
        and sorted(_custom_ids(message.components)) == sorted(_custom_ids(mine))
        and len(message.attachments) == pictures
    )


def unavailable(error: BaseException) -> Unavailable | None:
    """What ``error`` says, when it says that Discord did not take a request for now: a server
    error (a 500, 502 or 504 discord.py tried five times, a 503 it does not try again), a 429
    it raised (Cloudflare's: no ``Via``, no rate-limit headers), or the network failing; in
    one line (the body may be Cloudflare's page). None for any other error."""
    if isinstance(error, discord.HTTPException):
        if error.status < 500 and error.status != 429:
            return None
        reason = getattr(error.response, "reason", None) or ""
        by = " from Cloudflare" if error.status == 429 else ""
        return Unavailable(" ".join(f"{error.status} {reason}{by}".split()))
    if isinstance(error.__cause__, Unsent):
        return None  # (a fence that refused, wrapped by aiohttp: never written)
    if isinstance(error, aiohttp.ClientError | TimeoutError):
        return Unavailable(f"Discord out of reach: {type(error).__name__}")
    return None


@contextlib.contextmanager
def _answered() -> Iterator[None]:
    """Discord's answer, or the network's failure, as :class:`Unavailable` when Discord did not
    take the request for now (the rest goes through as it is)."""
    try:
        yield
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        refused = unavailable(error)
        if refused is None:
            raise
        raise refused from error


def _token_failure(error: discord.HTTPException) -> Exception | None:
    """What a refusal of a request through an interaction's token means, if it is about the
    token rather than the message: dead, or reaching nothing (yet)."""
    if error.code == INVALID_WEBHOOK_TOKEN or error.status == 401:
        return TokenLapsed(str(error))
    if error.code in (UNKNOWN_WEBHOOK, THREAD_ARCHIVED, THREAD_LOCKED) or error.status == 404:
        # (An archived thread: the bot's own token reopens it, then edits. A locked one: the
        # bot's token is refused too, and the channel is taken as closed.)
        return TokenUnreachable(str(error))
    if error.code == TOO_MANY_FOLLOWUPS:
        return FollowupsUsedUp(str(error))
    return None


def _bot_failure(error: discord.HTTPException) -> Exception | None:
    """What a refusal of a request with the bot's token means for the message, if anything a
    retry would not change."""
    if error.code == DMS_CLOSED:
        return DmsClosed(str(error))
    if error.code == UNKNOWN_MESSAGE:
        return MessageGone(str(error))
    if error.code in (MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_LOCKED, UNKNOWN_CHANNEL):
        return ChannelClosed(str(error), gone=error.code == UNKNOWN_CHANNEL)
    if error.status == 400:
        return Rejected(str(error))
    return None


class Courier:
    """Makes the ledger's attempts for one bot (the core's ``Transport``)."""

    def __init__(self, client: discord.Client, pacer: Pacing) -> None:
        self._client = client
        self._pacer = pacer

    @property
    def _app_id(self) -> int:
        app = self._client.application_id
        assert app is not None  # known from login on
        return app

    def _webhook(self, token: str) -> discord.Webhook:
        return discord.Webhook.partial(self._app_id, token, client=self._client)

    @contextlib.asynccontextmanager
    async def _turn(
        self, channel_id: int | None, kind: RequestKind, fence: Fence, *, urgent: bool = False
    ) -> AsyncIterator[None]:
        """The pacer's turn for a request with the bot's token, made under ``fence``."""
        async with self._pacer.turn(channel_id, kind, urgent=urgent):
            with fenced(fence):
                yield

    @contextlib.asynccontextmanager
    async def _through(self, token: str, fence: Fence) -> AsyncIterator[discord.Webhook]:
        """The pacer's slot for a request through an interaction's token, made under
        ``fence``."""
        async with self._pacer.through(token):
            with fenced(fence):
                yield self._webhook(token)

    # -- carrying ------------------------------------------------------------------------------
    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        """Make ``attempt`` with ``view`` (see ``bot.core.ledger.transport.Transport``)."""
        # What to send is made before the turn is taken: a request goes the moment its turn
        # comes, so the pacer's spacing is the spacing Discord sees.
        here = self._client.get_channel(attempt.channel_id) if attempt.channel_id else None
        payload = await message_payload(
            view, editing=not attempt.way.posts, activity_here=activity_runs_in(here)
        )
        try:
            with _answered():
                if attempt.way is Way.EDIT_THROUGH:
                    return await self._edit_through(attempt, payload, fence)
                if attempt.way is Way.POST_THROUGH:
                    return await self._post_through(attempt, payload, fence)
                if attempt.way is Way.EDIT_AS_BOT:
                    return await self._edit_as_bot(attempt, payload, fence)
                return await self._post_as_bot(attempt, payload, fence)
        except discord.HTTPException as error:
            failure = _token_failure(error) if attempt.way.through_token else _bot_failure(error)
            if failure is None:
                raise
            raise failure from error

    async def _edit_through(
        self, attempt: Attempt, payload: dict[str, Any], fence: Fence
    ) -> Carried:
        assert attempt.token is not None and attempt.message_id is not None
        async with self._through(attempt.token, fence) as webhook:
            if attempt.original:
                await _edit_original(webhook, attempt.token, self._client, payload)
            else:
                await webhook.edit_message(attempt.message_id, **payload)
        return Carried(attempt.channel_id or 0, attempt.message_id)

    async def _post_through(
        self, attempt: Attempt, payload: dict[str, Any], fence: Fence
    ) -> Carried:
        assert attempt.token is not None
        async with self._through(attempt.token, fence) as webhook:
            posted = await webhook.send(wait=True, **payload)
        return Carried(posted.channel.id, posted.id, private=posted.flags.ephemeral)

    async def _edit_as_bot(
        self, attempt: Attempt, payload: dict[str, Any], fence: Fence
    ) -> Carried:
        assert attempt.channel_id is not None and attempt.message_id is not None
        channel_id = attempt.channel_id
        message = self._client.get_partial_messageable(channel_id).get_partial_message(
            attempt.message_id
        )
        try:
            async with self._turn(channel_id, RequestKind.EDIT, fence, urgent=attempt.urgent):
                await message.edit(**payload)
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
            # A thread archived (by Discord after a day without messages, or by a moderator)
            # takes no edit until it is reopened, which its member, the bot, may do.
            async with self._turn(None, RequestKind.EDIT, fence):
                await self._client.http.edit_channel(channel_id, archived=False)
            async with self._turn(channel_id, RequestKind.EDIT, fence):
                await message.edit(**payload)
        return Carried(channel_id, attempt.message_id)

    async def _post_as_bot(
        self, attempt: Attempt, payload: dict[str, Any], fence: Fence
    ) -> Carried:
        channel_id = attempt.channel_id
        assert attempt.nonce is not None
        if channel_id is None:
            assert attempt.user_id is not None
            async with self._turn(None, RequestKind.POST, fence, urgent=attempt.urgent):
                channel_id = (await self._client.create_dm(discord.Object(attempt.user_id))).id
        channel = self._client.get_partial_messageable(channel_id)
        try:
            async with self._turn(channel_id, RequestKind.POST, fence, urgent=attempt.urgent):
                sent = await channel.send(nonce=attempt.nonce, **payload)
        except discord.HTTPException as error:
            if error.code != DMS_CLOSED:
                raise
            # (Where: a DM opened just now is known to the core only through this.)
            raise DmsClosed(str(error), channel_id=channel_id) from error
        return Carried(channel_id, sent.id, same=_same(sent, payload))

    async def delete_followup(self, token: str, message_id: int, fence: Fence) -> None:
        """Delete a follow-up posted through ``token``."""
        with _answered():
            async with self._through(token, fence) as webhook:
                await webhook.delete_message(message_id)

    async def lost_posts(
        self, owner: Owner, post: PendingPost, kept: set[int], fence: Fence
    ) -> list[int]:
        """The ids, oldest first, of the bot's messages in the DM or channel ``post`` was about
        to be posted in, since then, that are not among ``kept`` and carry controls of
        ``owner``, or carry none and follow up an interaction whose original response is among
        ``kept`` (a table has no controls: it is posted through the token of the Start pressed
        on its lobby). One request, made only for a post that was never kept."""
        since = datetime.fromtimestamp(post.since - CLOCK_SLACK, tz=UTC)
        after = discord.utils.time_snowflake(since)
        dm = self._client.get_partial_messageable(post.channel_id, type=discord.ChannelType.private)
        with _answered():
            async with self._turn(None, RequestKind.POST, fence):
                messages = [
                    m
                    async for m in dm.history(after=discord.Object(after), limit=HISTORY_LOOKED_AT)
                ]
        prefix = game_prefix(owner.id)
        found: list[int] = []
        for message in messages:
            if message.author.id != self._client.application_id or message.id in kept:
                continue
            if post.first_line and first_line(message) != post.first_line:
                continue  # (another message of the owner's: another deal's table, say)
            ids = list(_custom_ids(message.components))
            if any(i.startswith(prefix) for i in ids) or (not ids and _follows(message, kept)):
                found.append(message.id)
        return sorted(found)

    async def delete(self, channel_id: int, message_id: int, fence: Fence) -> None:
        """Delete one of the bot's messages (a second copy left by a stop)."""
        dm = self._client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        with _answered(), contextlib.suppress(discord.NotFound):  # (gone already)
            async with self._turn(None, RequestKind.POST, fence):
                await dm.get_partial_message(message_id).delete()


def first_line(message: discord.Message) -> str:
    """The first line a message shows: its content's, or its first text display's (a
    Components V2 layout has no content)."""
    texts = _texts(message.components)
    words = texts[0] if texts else message.content
    return words.split("\n", 1)[0]


def _follows(message: discord.Message, kept: set[int]) -> bool:
    """Whether ``message`` is a follow-up of an interaction whose original response (for a
    click answered by updating its message: that message) is one of the messages ``kept``
    (Discord's message interaction metadata: ``original_response_message_id``, on follow-ups
    only)."""
    metadata = message.interaction_metadata
    return metadata is not None and metadata.original_response_message_id in kept


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
