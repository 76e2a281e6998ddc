"""Threads' own rules, as Discord's documentation gives them ("Threads" topic; "Modify
Channel", "Add Thread Member" and "List Thread Members" in the channel resource): archiving
and locking, who may change a thread, what an archived or locked thread refuses, and its
members. fakediscord/README.md lists each rule with its source.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from fakediscord import payloads
from fakediscord.errors import (
    Refusal,
    form_error,
)
from fakediscord.model import (
    ARCHIVE_DURATIONS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    User,
)

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

__all__ = ["check_edit", "check_post", "routes"]


def _manages(channel: Channel, user: User) -> bool:
    return bool(channel.permissions_for(user) & MANAGE_THREADS)


def check_post(channel: Channel, author: User) -> bool:
    """A new message by ``author`` in ``channel``: refused in a locked thread without Manage
    Threads; in an archived thread it reopens it, and its author joins the thread. Returns
    whether the thread was reopened (its THREAD_UPDATE is then owed)."""
    if not channel.is_thread:
        return False
    if channel.locked and not _manages(channel, author):
        raise Refusal.THREAD_LOCKED.error()
    channel.join(author)
    if not channel.archived:
        return False
    channel.archived = False
    return True


def check_edit(channel: Channel, author: User) -> None:
    """An edit of a message in ``channel``: an archived thread takes none (50083), a locked
    one none from someone without Manage Threads."""
    if not channel.is_thread:
        return
    if channel.archived:
        raise Refusal.ARCHIVED_THREAD.error()
    if channel.locked and not _manages(channel, author):
        raise Refusal.THREAD_LOCKED.error()


def _modify_thread(fd: FakeDiscord, thread: Channel, body: dict[str, Any]) -> None:
    """PATCH a thread (Modify Channel's thread parameters), with the checks Discord makes."""
    bot = fd.bot_user
    manages = _manages(thread, bot)
    creator = thread.owner_id == bot.id
    archived = body.get("archived")
    reopening = archived is False
    if thread.archived and not reopening:
        raise Refusal.ARCHIVED_THREAD.error()
    if ("locked" in body or "rate_limit_per_user" in body) and not manages:
        raise Refusal.MISSING_PERMISSIONS.error()
    changes_own = "name" in body or archived is True or "auto_archive_duration" in body
    if changes_own and not (manages or creator):
        raise Refusal.MISSING_PERMISSIONS.error()
    # A locked thread reopens only for Manage Threads; an unlocked one for its members too.
    stays_shut = thread.locked or bot.id not in thread.thread_members
    if reopening and thread.archived and not manages and stays_shut:
        raise Refusal.MISSING_PERMISSIONS.error()
    if "name" in body and not 1 <= len(str(body["name"] or "")) <= 100:
        raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        raise form_error("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of ...")
    if "name" in body:
        thread.name = str(body["name"])
    if duration is not None:
        thread.auto_archive_duration = int(duration)
    locked = body.get("locked")
    thread.set_archived(
        bool(archived) if archived is not None else thread.archived,
        locked=None if locked is None else bool(locked),
    )


def _json(data: Any) -> web.Response:
    # Exactly "application/json": with a charset appended discord.py reads the body as text.
    body = json.dumps(data).encode()
    return web.Response(body=body, headers={"Content-Type": "application/json"})


def routes(
    fd: FakeDiscord, api: str, channel_of: Callable[[web.Request], Channel]
) -> list[web.RouteDef]:
    """PATCH a channel; a thread's members (add one, list them). ``channel_of``: the
    request's channel, as the other channel routes find it (404 / 10003, 403 / 50001)."""

    def thread_of(request: web.Request) -> Channel:
        channel = channel_of(request)
        if not channel.is_thread:
            raise Refusal.WRONG_CHANNEL_TYPE.error()
        return channel

    async def modify_channel(request: web.Request) -> web.Response:
        channel = channel_of(request)
        body = await request.json()
        if channel.is_thread:
            _modify_thread(fd, channel, body)
        elif channel.is_dm or channel.is_private or channel.guild is None:
            raise Refusal.WRONG_CHANNEL_TYPE.error()
        else:
            # A server channel's settings need Manage Channels; only its name is modelled.
            if not channel.permissions_for(fd.bot_user) & MANAGE_CHANNELS:
                raise Refusal.MISSING_PERMISSIONS.error()
            if "name" in body:
                name = str(body["name"] or "")
                if not 1 <= len(name) <= 100:
                    raise form_error(
                        "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                    )
                channel.name = name
                fd.world.on_channel_updated(channel)
        return _json(payloads.channel(channel))

    async def add_member(request: web.Request) -> web.Response:
        thread = thread_of(request)
        if thread.archived:
            raise Refusal.ARCHIVED_THREAD.error()
        if not thread.permissions_for(fd.bot_user) & SEND_MESSAGES_IN_THREADS:
            # "requires the ability to send messages in the thread"
            raise Refusal.MISSING_PERMISSIONS.error()
        user = fd.world.users.get(int(request.match_info["user"]))
        if user is None:
            raise Refusal.UNKNOWN_USER.error()
        assert thread.guild is not None
        if thread.guild.member(user) is None:
            raise Refusal.UNKNOWN_MEMBER.error()
        if thread.join(user):
            fd._announce_thread_members(thread, user)
        return web.Response(status=204)

    async def list_members(request: web.Request) -> web.Response:
        thread = thread_of(request)
        assert thread.guild is not None
        if not fd._members_intent(thread.guild):
            # Restricted to apps with the GUILD_MEMBERS privileged intent.
            raise Refusal.MISSING_ACCESS.error()
        members = [
            payloads.thread_member(thread, user_id, joined)
            for user_id, joined in thread.thread_members.items()
        ]
        return _json(members)

    async def get_member(request: web.Request) -> web.Response:
        # Get Thread Member: the one member, or 404 / 10007 for a user who is not one. Only
        # ``with_member=true`` (not used here) is said to need the GUILD_MEMBERS intent.
        thread = thread_of(request)
        user_id = int(request.match_info["user"])
        joined = thread.thread_members.get(user_id)
        if joined is None:
            raise Refusal.UNKNOWN_MEMBER.error()
        return _json(payloads.thread_member(thread, user_id, joined))

    members = api + r"/channels/{channel:\d+}/thread-members"
    return [
        web.patch(api + r"/channels/{channel:\d+}", modify_channel),
        web.put(members + r"/{user:\d+}", add_member),
        web.get(members + r"/{user:\d+}", get_member),
        web.get(members, list_members),
    ]
