"""Where an interaction comes from, as far as the bot's own token goes.

The ``/cribbage`` commands are offered wherever Discord lets an app be used: servers that
invited the bot and its DMs (a guild install), and, for people who added the app to their
account (a user install), DMs between people, group DMs and servers that did not invite it.
In those last places the bot is not a member: its own token may not post, read or edit there
(Discord answers 403 / 50001), so a game there is a private table
(:mod:`bot.core.messages.private_table`), reached through interactions' tokens alone.

In a server, a game is played in a text channel, a thread, or the text chat of a voice or
stage channel (where people gather for a game night). That chat is read and written only by
those who may **Connect** to the channel (Discord, "Get Channel Messages": "If the channel is
a voice channel, they must also have the CONNECT permission"), the bot included; no thread
is started there (50024), so no tournament is played there; and a stage channel has no
Activities (Use Activities applies to text and voice channels only).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.core.base.places import Place, Spot

__all__ = [
    "INSTALLS",
    "ONLY_YOU_SEE_THIS",
    "PLACES",
    "VOICE_CHATS",
    "activity_runs_in",
    "answers_only_privately",
    "bot_is_member",
    "cannot_post",
    "cannot_post_in",
    "is_moderator",
    "is_voice_chat",
    "place_of",
]

#: Installs the commands declare: to a server, and to a person's account.
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
#: Contexts the commands declare: servers, the bot's DMs, and DMs and group DMs between people.
PLACES = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)

#: Above an answer meant for everyone, where Discord lets the app answer only privately.
ONLY_YOU_SEE_THIS = (
    "Only you see this: this server lets apps answer only privately here (a moderator can "
    "allow **Use External Apps**, or invite the bot)."
)


def bot_is_member(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot is a member where ``interaction`` was made: a server that installed
    the app (its guild install authorised this interaction), or a DM with the bot; not a DM
    between people, a group DM, or a server reached only through someone's user install."""
    if interaction.context.private_channel:
        return False
    if interaction.guild_id is not None:
        return interaction.is_guild_integration()
    return True


def answers_only_privately(interaction: discord.Interaction[Any]) -> bool:
    """Whether Discord makes every answer to ``interaction`` ephemeral: in a server that did
    not install the app, for someone without Use External Apps in the channel (Discord,
    Permissions: USE_EXTERNAL_APPS "Allows user-installed apps to send public responses. When
    disabled, users will still be allowed to use their apps but the responses will be
    ephemeral. This only applies to apps not also installed to the server."; the member's
    ``permissions`` in an interaction are theirs in the channel, overwrites included)."""
    if interaction.guild_id is None or bot_is_member(interaction):
        return False
    return not interaction.permissions.use_external_apps


#: The channels whose text chat is a voice or stage channel's.
VOICE_CHATS = (discord.ChannelType.voice, discord.ChannelType.stage_voice)


#: The kinds of thread, whose posts need Send Messages in Threads (not Send Messages): public,
#: private, and an announcement channel's (Discord, Permissions: SEND_MESSAGES_IN_THREADS
#: "Allows for sending messages in threads"; a thread started from a message in an
#: announcement channel is an announcement thread, type 10).
_THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def is_voice_chat(channel: Any) -> bool:
    """Whether ``channel`` (a channel, a thread, or an interaction's partial channel) is the
    text chat of a voice or stage channel."""
    return getattr(channel, "type", None) in VOICE_CHATS


def activity_runs_in(channel: Any) -> bool:
    """Whether Discord may open an Activity in ``channel``: anywhere but a stage channel (Use
    Activities applies to text and voice channels only). A channel not known here (None)
    may."""
    return getattr(channel, "type", None) is not discord.ChannelType.stage_voice


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user is a moderator here, who may cancel any game at any time: in a server,
    Manage Messages in this channel, or Manage Server (``interaction.permissions`` are the
    member's permissions in the channel, overwrites included). Nobody is, outside servers."""
    if interaction.guild_id is None:
        return False
    perms = interaction.permissions
    return bool(perms.manage_messages or perms.manage_guild)


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The place ``interaction`` was made in, as the core decides with it (which game a
    command acts on: :mod:`bot.core.base.places`). (An application command's interaction
    always names its channel; one that named none would find no game, at channel 0.)"""
    channel, guild_id = interaction.channel, interaction.guild_id
    if not bot_is_member(interaction):
        spot = Spot.PRIVATE if guild_id is None else Spot.UNINVITED
    elif guild_id is None:
        spot = Spot.BOT_DM
    elif is_voice_chat(channel):
        spot = Spot.VOICE_CHAT
    elif isinstance(channel, discord.Thread):
        spot = Spot.THREAD
    else:
        spot = Spot.CHANNEL
    return Place(
        spot,
        interaction.channel_id or 0,
        guild_id,
        parent_id=getattr(channel, "parent_id", None) if spot is Spot.THREAD else None,
        only_private=answers_only_privately(interaction),
        moderator=is_moderator(interaction),
    )


def cannot_post(interaction: discord.Interaction[Any]) -> str | None:
    """What the bot lacks to post a game's messages where ``interaction`` was made, as the
    sentence for the person (None: nothing, or not the bot's token's business: a DM, a private
    table). From the app's permissions the interaction carries: View Channel, Send Messages
    (in a thread, Send Messages in Threads), and in a voice or stage channel's chat Connect."""
    if interaction.guild_id is None or not bot_is_member(interaction):
        return None
    perms, channel = interaction.app_permissions, interaction.channel
    kind = getattr(channel, "type", None)
    named = _lacking(perms, kind)
    if named is None:
        return None
    if kind in VOICE_CHATS and not perms.connect:
        return (
            "I can't post the game in this channel's chat, which Discord opens only to those"
            f" who may join the channel: ask a moderator to give me {named} here, or play in a"
            " text channel."
        )
    return (
        f"I can't post the game here: ask a moderator to give me {named} in this channel, or"
        " play in another one."
    )


def cannot_post_in(client: discord.Client, guild_id: int | None, channel_id: int) -> str | None:
    """What the bot lacks to post in channel ``channel_id`` of server ``guild_id`` (a game's
    table, for a press made elsewhere: by DM), as the sentence for the person (None: nothing,
    or not a server's). From what the gateway told of the server: the bot's roles and the
    channel's overwrites (kept up to date by its events); a server or channel it no longer
    knows is one it can no longer post in."""
    if guild_id is None:
        return None
    guild = client.get_guild(guild_id)
    channel = None if guild is None else guild.get_channel_or_thread(channel_id)
    if guild is None or channel is None:
        return (
            f"I can't reach <#{channel_id}> any more (I may have been removed from its "
            "server): open a game with `/cribbage new` where I can post."
        )
    kind = getattr(channel, "type", None)
    named = _lacking(channel.permissions_for(guild.me), kind)
    if named is None:
        return None
    return (
        f"I can't post in <#{channel_id}> any more: ask a moderator to give me {named} there, "
        "or open a game with `/cribbage new` where I can post."
    )


def _lacking(perms: discord.Permissions, kind: Any) -> str | None:
    """The permissions a game's messages need that ``perms`` lack in a channel of ``kind``,
    named for a person ("**View Channel** and **Send Messages**"); None: none lacking. View
    Channel, Send Messages (in a thread, Send Messages in Threads), and in a voice or stage
    channel's chat Connect."""
    if perms.administrator:
        return None
    thread = kind in _THREADS
    needed = {
        "View Channel": perms.view_channel,
        "Connect": perms.connect or kind not in VOICE_CHATS,
        "Send Messages in Threads": perms.send_messages_in_threads or not thread,
        "Send Messages": perms.send_messages or thread,
    }
    missing = [f"**{name}**" for name, has in needed.items() if not has]
    if not missing:
        return None
    return " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
