"""JSON payloads in the shapes discord.py 2.7 parses: users, members, channels, guilds, messages.

Only this module knows the wire format of the model objects; the gateway and REST handlers call
these builders. Interaction payloads are built in `interactions.py`.
"""

from __future__ import annotations

from typing import Any

from fakediscord.model import (
    GROUP_DM,
    GUILD_VOICE,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    iso_now,
)


def user(u: User) -> dict[str, Any]:
    """A user object."""
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
    }


def role(r: Role) -> dict[str, Any]:
    """A role object."""
    return {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
        "icon": None,
        "unicode_emoji": None,
    }


def member(m: Member, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
    """A guild member object (optionally with the user and the computed permissions)."""
    data: dict[str, Any] = {
        "roles": [str(r.id) for r in m.roles],
        "joined_at": m.joined_at,
        "nick": m.nick,
        "avatar": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "premium_since": None,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if with_permissions:
        data["permissions"] = str(m.permissions)
    return data


def channel(c: Channel) -> dict[str, Any]:
    """A channel object: guild text channel, thread, DM or a conversation between people."""
    if c.is_private:
        data: dict[str, Any] = {
            "id": str(c.id),
            "type": c.type,
            "last_message_id": str(c.messages[-1].id) if c.messages else None,
            "recipients": [user(person) for person in c.people],
            "flags": 0,
        }
        if c.type == GROUP_DM:
            data.update(name=c.name, icon=None, owner_id=str(c.people[0].id))
        return data
    if c.is_dm:
        assert c.recipient is not None
        return {
            "id": str(c.id),
            "type": c.type,
            "last_message_id": str(c.messages[-1].id) if c.messages else None,
            "recipients": [user(c.recipient)],
            "flags": 0,
        }
    assert c.guild is not None
    data = {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild.id),
        "name": c.name,
        "position": 0,
        "permission_overwrites": overwrites(c),
        "nsfw": False,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "parent_id": str(c.parent.id) if c.parent else None,
        "flags": 0,
    }
    if c.is_voice:
        # As Discord's "Example Guild Voice Channel" (a stage has its topic, no video mode).
        data.update(bitrate=64000, user_limit=0, rtc_region=None)
        if c.type == GUILD_VOICE:
            del data["topic"]
            data["video_quality_mode"] = 1
    if c.is_thread:
        data.update(
            owner_id=str(c.owner_id or c.guild.owner_id),
            message_count=len(c.messages),
            member_count=min(len(c.thread_members), 50),
            thread_metadata={
                "archived": c.archived,
                "auto_archive_duration": c.auto_archive_duration,
                "archive_timestamp": c.archive_timestamp,
                "locked": c.locked,
                "invitable": True,
                "create_timestamp": iso_now(),
            },
            total_message_sent=len(c.messages),
        )
    return data


def thread_member(thread: Channel, user_id: int, joined: str) -> dict[str, Any]:
    """A thread member object: the thread, the user, when they joined, their flags."""
    return {
        "id": str(thread.id),
        "user_id": str(user_id),
        "join_timestamp": joined,
        "flags": 0,
    }


def overwrites(c: Channel) -> list[dict[str, Any]]:
    """A channel's permission overwrites: @everyone's denials, if any."""
    if not c.denied or c.guild is None or c.is_thread:
        return []
    return [{"id": str(c.guild.id), "type": 0, "allow": "0", "deny": str(c.denied)}]


def guild_create(g: Guild) -> dict[str, Any]:
    """The GUILD_CREATE dispatch payload: the guild with members, channels and threads."""
    channels = [channel(c) for c in g.channels.values() if not c.is_thread]
    # Only active threads are synced up front (Discord: "archived threads are not synced").
    threads = [channel(c) for c in g.channels.values() if c.is_thread and not c.archived]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(g.everyone), role(g.moderator_role), *(role(r) for r in g.roles)],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": iso_now(),
        "large": False,
        "unavailable": False,
        "member_count": len(g.members),
        "voice_states": [],
        "members": [member(m) for m in g.members.values()],
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [e.payload() for e in g.events if e.under_way],
        "soundboard_sounds": [],
    }


def attachment(a: Attachment) -> dict[str, Any]:
    """An attachment object."""
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.proxy_url or a.url,
        "content_type": a.content_type,
        "description": a.description,
    }
    if a.width is not None and a.height is not None:
        data.update(width=a.width, height=a.height)
    if a.title is not None:
        data["title"] = a.title
    return data


def message(m: Message) -> dict[str, Any]:
    """A message object as the bot (or a component click) receives it."""
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel.id),
        "type": 20 if m.interaction_id is not None and m.webhook_id is not None else 0,
        "content": m.content,
        "author": user(m.author),
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(a) for a in m.attachments],
        # Shared, not copied: stored messages are never changed in place (Message.version).
        "embeds": list(m.embeds),
        "components": list(m.components),
        "pinned": False,
        "flags": m.flags,
    }
    if m.channel.guild is not None:
        data["guild_id"] = str(m.channel.guild.id)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
        data["application_id"] = str(m.webhook_id)
    if m.interaction_id is not None and m.interaction_user is not None:
        metadata: dict[str, Any] = {
            "id": str(m.interaction_id),
            "type": m.interaction_type or 2,
            "user": user(m.interaction_user),
            "authorizing_integration_owners": {},
        }
        if m.interacted_message_id is not None:
            metadata["interacted_message_id"] = str(m.interacted_message_id)
        if m.original_response_id is not None:
            metadata["original_response_message_id"] = str(m.original_response_id)
        data["interaction_metadata"] = metadata
    return data
