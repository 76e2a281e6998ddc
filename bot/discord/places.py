"""Where an interaction comes from, as far as the bot's own token goes.

The ``/cribbage`` commands are offered wherever Discord lets an app be used: servers that
invited the bot and its DMs (a guild install), and, for people who added the app to their
account (a user install), DMs between people, group DMs and servers that did not invite it.
In those last places the bot is not a member: its own token may not post, read or edit there
(Discord answers 403 / 50001), so a game there is a private table
(:mod:`bot.core.games.messages.private_table`), reached through interactions' tokens alone.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

__all__ = [
    "INSTALLS",
    "NO_LEADERBOARD_HERE",
    "NO_PUBLIC_TABLE",
    "ONLY_YOU_SEE_THIS",
    "PLACES",
    "answers_only_privately",
    "bot_is_member",
]

#: Installs the commands declare: to a server, and to a person's account.
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
#: Contexts the commands declare: servers, the bot's DMs, and DMs and group DMs between people.
PLACES = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


#: ``/cribbage leaderboard`` in a DM or group DM: games outside servers are kept per player.
NO_LEADERBOARD_HERE = (
    "Games outside servers have no leaderboard: they are kept per player. `/cribbage stats` "
    "here shows your record in them, and `/cribbage stats against:` your head to head with "
    "a friend."
)


#: ``/cribbage new`` where Discord lets the app answer only privately (Use External Apps).
NO_PUBLIC_TABLE = (
    "This server lets apps answer only privately here, so nobody else would see the table. "
    "Ask a moderator to allow **Use External Apps**, or to invite the bot to the server."
)
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
