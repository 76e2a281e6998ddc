"""fakediscord: a local Discord (REST + gateway on 127.0.0.1) that the real discord.py connects to.

See fakediscord/README.md for the whole API. In short::

    from fakediscord import FakeDiscord, point_discord_py_at

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Table")
        general = guild.add_text_channel("general")
        al = fd.add_user("Al")
        guild.add_member(al)
        undo = point_discord_py_at(fd)       # or env DISCORD_API_BASE / DISCORD_GATEWAY_URL
        ...start the bot with token fd.bot_token, wait: await fd.wait_until_connected()
        r = await fd.slash(al, general, "/cribbage play card:5H")
        r.response.type, r.content, r.ephemeral, r.followups
        await fd.click(al, r.original, "crib:1:join")
        fd.visible_to(al, general), fd.dms(al)
"""

from fakediscord.discordpy import point_discord_py_at, point_discord_py_at_urls
from fakediscord.errors import BotFailure, DiscordError, EmulatorUsageError, NoResponse
from fakediscord.interactions import Callback, Interaction
from fakediscord.model import Attachment, Channel, Clock, Guild, Member, Message, User
from fakediscord.server import FakeDiscord

__all__ = [
    "Attachment",
    "BotFailure",
    "Callback",
    "Channel",
    "Clock",
    "DiscordError",
    "EmulatorUsageError",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Member",
    "Message",
    "NoResponse",
    "User",
    "point_discord_py_at",
    "point_discord_py_at_urls",
]
