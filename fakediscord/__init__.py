"""fakediscord: a local Discord (REST + gateway on 127.0.0.1) that the real discord.py connects to.

The whole API is in fakediscord/README.md. In a test (fixtures from `fakediscord.testing`,
loaded by tests/conftest.py)::

    async def test_lobby(fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
        fd = fake_discord
        guild = fd.add_guild("Table")
        general = guild.add_text_channel("general")       # threads: general.add_thread("game")
        al, bea = fd.add_user("Al"), fd.add_user("Bea")
        guild.add_member(al)
        guild.add_member(bea, moderator=True)
        bot = await bots.process(database=tmp_path / "bot.db", dev_guild=guild.id)
        # or: bot = await bots.in_process(lambda: MyBot(...))
        r = await fd.slash(al, general, "/cribbage new players:2")
        assert r.response.type == 4 and not r.ephemeral and "Join" in r.content
        await fd.click(bea, r.original, label="Join")           # or a custom_id
        await fd.wait_for(lambda: fd.dms(al))                    # effects on the bot's time
        await fd.select(al, fd.dms(al)[-1], "crib:1:discard", ["5H", "JD"])
        choices = await fd.autocomplete(al, general, "/cribbage play card:5")
        fd.visible_to(bea, general)                              # what Bea sees now
        fd.close_dms(al); fd.rate_limit(r"POST /channels/\\d+/messages", times=1)
        await fd.drop_gateway(); await bot.restart()

Outside pytest: `async with FakeDiscord() as fd:` then `point_discord_py_at(fd)` before the
client logs in (or give a bot process `fd.api_base` and `fd.gateway_url` as DISCORD_API_BASE
and DISCORD_GATEWAY_URL, and `fd.bot_token` as its token).
"""

from fakediscord.discordpy import point_discord_py_at, point_discord_py_at_urls
from fakediscord.errors import (
    BotFailure,
    BotStalled,
    DiscordError,
    EmulatorUsageError,
    NoResponse,
)
from fakediscord.interactions import Callback, Interaction
from fakediscord.model import Attachment, Channel, Clock, Guild, Member, Message, User
from fakediscord.server import FakeDiscord
from fakediscord.switches import Limits

__all__ = [
    "Attachment",
    "BotFailure",
    "BotStalled",
    "Callback",
    "Channel",
    "Clock",
    "DiscordError",
    "EmulatorUsageError",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Limits",
    "Member",
    "Message",
    "NoResponse",
    "User",
    "point_discord_py_at",
    "point_discord_py_at_urls",
]
