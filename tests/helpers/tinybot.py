"""A tiny discord.py bot the emulator's own tests run against, in-process or as a process.

Run as a process: `python tests/helpers/tinybot.py` with DISCORD_TOKEN,
DISCORD_API_BASE, DISCORD_GATEWAY_URL and DEV_GUILD_ID set (as the bot's own `python -m bot`).
Each `/tiny` subcommand exercises one part of the protocol.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import os
import signal
import sys
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("tinybot")

IDENTIFY_INTERVAL = 5.0
#: Added to the 5 s: the emulator times an IDENTIFY when it reads the frame, and on a busy
#: machine it may read the first of two a few milliseconds later than the second, after it was
#: sent (a whole suite under load once saw the second shard's IDENTIFY "too soon" by that much;
#: the gap it read was 5.001 s to 5.008 s when it passed). Over a real network a client's
#: connection time gives the same room; on localhost it takes a millisecond.
IDENTIFY_MARGIN = 0.25
#: Loop time of this process's latest IDENTIFY, by bot token.
_last_identify: dict[str, float] = {}


class Counter(discord.ui.View):
    """A non-persistent view: a button that edits its message, and a select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="tiny:plus")
    async def plus(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count {self.count}", view=self)

    @discord.ui.button(label="Off", custom_id="tiny:off", disabled=True)
    async def off(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("unreachable")

    @discord.ui.button(label="Quiet", custom_id="tiny:quiet")
    async def quiet(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # type 6: acknowledge now, edit the message later
        await interaction.edit_original_response(content="quietly edited")

    @discord.ui.select(
        custom_id="tiny:pick",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=v, value=v) for v in ("5H", "JD", "QS")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {' '.join(select.values)}", ephemeral=True)


class Persistent(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tiny:dyn:(?P<n>\d+)"):
    """A button that survives restarts: its state is in the custom id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"dyn {n}", custom_id=f"tiny:dyn:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Persistent:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"dyn {self.n} pressed")


class Ask(discord.ui.Modal, title="Ask"):
    """A modal with one text input."""

    answer: discord.ui.TextInput[Ask] = discord.ui.TextInput(label="Answer", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"answered {self.answer.value}")


tiny = app_commands.Group(name="tiny", description="Emulator test commands")


@tiny.command(description="Say text back")
async def echo(
    interaction: discord.Interaction, text: str, times: int = 1, quiet: bool = False
) -> None:
    # quiet: notify no one, whatever the text mentions.
    mentions = discord.AllowedMentions.none() if quiet else discord.utils.MISSING
    await interaction.response.send_message(" ".join([text] * times), allowed_mentions=mentions)


@app_commands.command(description="An option with fixed choices")
@app_commands.choices(
    size=[
        app_commands.Choice(name="a small one", value="small"),
        app_commands.Choice(name="a large one", value="large"),
    ]
)
async def order(interaction: discord.Interaction, size: app_commands.Choice[str]) -> None:
    await interaction.response.send_message(f"ordered {size.value}")


@tiny.command(description="An ephemeral reply")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("only you", ephemeral=True)


@tiny.command(description="Defer, then edit the original")
async def think(interaction: discord.Interaction, ephemeral: bool = False) -> None:
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    await interaction.edit_original_response(content="thought")
    await interaction.followup.send("and a follow-up", ephemeral=ephemeral)


@app_commands.command(name="tinyplay", description="Open the app's Activity (LAUNCH_ACTIVITY)")
async def tinyplay(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        await interaction.response.send_message(f"refused {error.status}/{error.code}")


@tiny.command(description="Reply, then fetch, edit and delete through the token")
async def lifecycle(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("v1")
    original = await interaction.original_response()
    await original.edit(content="v2")
    extra = await interaction.followup.send("extra", wait=True)
    await extra.delete()


@tiny.command(description="Reply, then delete the reply")
async def vanish(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("now you see me")
    await interaction.delete_original_response()


@tiny.command(description="Open a thread and post in it")
async def thread(interaction: discord.Interaction, name: str) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    made = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
    await made.send("first in thread")
    await interaction.response.send_message(f"opened {made.name}")


@tiny.command(description="Fetch the guild, its channels and a member over REST")
async def whois(interaction: discord.Interaction, who: discord.User) -> None:
    guild = await interaction.client.fetch_guild(interaction.guild_id or 0)
    channels = await guild.fetch_channels()
    member = await guild.fetch_member(who.id)
    names = ",".join(c.name for c in channels)
    await interaction.response.send_message(f"{guild.name} {names} {member.name}")


@tiny.command(description="DM the user, with a button")
async def dm(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("hello in private", view=Counter())
    except discord.Forbidden as error:
        await interaction.response.send_message(f"closed dms {error.code}", ephemeral=True)
        return
    await interaction.response.send_message("sent you a DM", ephemeral=True)


@tiny.command(description="A message with buttons and a select")
async def buttons(interaction: discord.Interaction) -> None:
    view = Counter()
    view.add_item(Persistent(7))
    await interaction.response.send_message("count 0", view=view)


@tiny.command(description="Pick a card, with autocomplete")
async def pick(interaction: discord.Interaction, card: str) -> None:
    await interaction.response.send_message(f"you picked {card}")


@pick.autocomplete("card")
async def pick_complete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    # Three inputs answer with what Discord refuses (the emulator must refuse it too).
    if current == "many":  # 26 choices, one over the 25
        return [app_commands.Choice(name=f"card {n}", value=str(n)) for n in range(26)]
    if current == "long":  # a value of 102 characters
        return [app_commands.Choice(name="long", value="5H" * 51)]
    if current == "blank":  # a name of none
        return [app_commands.Choice(name="", value="5H")]
    cards = ["5H", "5D", "JD", "QS"]
    return [app_commands.Choice(name=c, value=c) for c in cards if c.startswith(current.upper())]


@tiny.command(description="Mention a user")
async def poke(interaction: discord.Interaction, who: discord.Member) -> None:
    await interaction.response.send_message(f"poked {who.display_name} ({who.id})")


@tiny.command(description="Sleep, then reply (for the 3-second rule)")
async def slow(interaction: discord.Interaction, seconds: float) -> None:
    await asyncio.sleep(seconds)
    try:
        await interaction.response.send_message("late")
    except discord.NotFound as error:
        log.warning("too late: %s", error.code)
        interaction.client.late_codes.append(error.code)  # type: ignore[attr-defined]


@tiny.command(description="Answer twice (the second is refused)")
async def twice(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("first")
    try:
        await interaction.followup.send("second ok")
        # A second response object does not know the first was sent: Discord must refuse.
        await discord.InteractionResponse(interaction).send_message("again")
    except discord.HTTPException as error:
        interaction.client.twice_codes.append(error.code)  # type: ignore[attr-defined]


@tiny.command(description="Send text of a given length to the channel")
async def long(interaction: discord.Interaction, length: int) -> None:
    await interaction.response.defer(ephemeral=True)
    try:
        await interaction.channel.send("x" * length)  # type: ignore[union-attr]
        await interaction.followup.send("sent", ephemeral=True)
    except discord.HTTPException as error:
        await interaction.followup.send(f"refused {error.status} {error.code}", ephemeral=True)


@tiny.command(description="Send a file and an embed")
async def file(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="Board", description="121 to go")
    data = discord.File(io.BytesIO(b"\x89PNG fake"), filename="board.png", description="the board")
    await interaction.response.send_message("see file", embed=embed, file=data)


@tiny.command(description="Open a modal")
async def ask(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Ask())


@tiny.command(description="Raise (to check that failures reach the test)")
async def crash(interaction: discord.Interaction) -> None:
    raise RuntimeError("tinybot crashed on purpose")


@tiny.command(description="Log an error without raising")
async def complain(interaction: discord.Interaction) -> None:
    log.error("tinybot complains on purpose")
    await interaction.response.send_message("complained")


@app_commands.command(description="Moderators only, servers only")
@app_commands.default_permissions(manage_messages=True)
@app_commands.guild_only()
async def tinymod(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("moderated")


@tiny.command(description="Post in the channel and edit the post")
async def post(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("posting", ephemeral=True)
    message = await interaction.channel.send("post v1")  # type: ignore[union-attr]
    await message.edit(content="post v2")
    fetched = await interaction.channel.fetch_message(message.id)  # type: ignore[union-attr]
    await interaction.followup.send(f"fetched {fetched.content}", ephemeral=True)


@tiny.command(description="Post a small PNG (a red square on white) with alt text")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("board", ephemeral=True)
    picture = discord.File(io.BytesIO(red_square_png()), "board.png", description="a red square")
    await interaction.channel.send("the board", file=picture)  # type: ignore[union-attr]


@tiny.command(description="Post a file to the channel; say how it went")
async def upload(interaction: discord.Interaction, size: int = 10) -> None:
    await interaction.response.defer(ephemeral=True)
    try:
        picture = discord.File(io.BytesIO(b"x" * size), "data.bin")
        await interaction.channel.send("a file", file=picture)  # type: ignore[union-attr]
    except discord.HTTPException as error:
        await interaction.followup.send(f"refused {error.status} {error.code}", ephemeral=True)
        return
    await interaction.followup.send("uploaded", ephemeral=True)


@tiny.command(description="Post `count` messages in the channel, one after another")
async def flood(interaction: discord.Interaction, count: int) -> None:
    await interaction.response.defer(ephemeral=True)
    for n in range(count):
        await interaction.channel.send(f"flood {n + 1}")  # type: ignore[union-attr]
    await interaction.followup.send(f"flooded {count}", ephemeral=True)


@tiny.command(description="Fetch the channel `count` times at once (REST requests in a burst)")
async def burst(interaction: discord.Interaction, count: int) -> None:
    await interaction.response.defer(ephemeral=True)
    channel_id = interaction.channel_id or 0
    fetched = await asyncio.gather(
        *(interaction.client.fetch_channel(channel_id) for _ in range(count))
    )
    await interaction.followup.send(f"burst {len(fetched)} done", ephemeral=True)


@tiny.command(description="Answer, and keep the interaction to use its token later")
async def remember(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("remembered")
    interaction.client.remembered = interaction  # type: ignore[attr-defined]


@tiny.command(description="Say which shard received this interaction")
async def shard(interaction: discord.Interaction) -> None:
    guild = interaction.guild
    number = guild.shard_id if guild is not None else interaction.client.shard_id or 0
    await interaction.response.send_message(f"shard {number}")


def red_square_png() -> bytes:
    """A 40x30 white PNG with a red 10x10 square whose top left corner is at (20, 10)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (40, 30), (255, 255, 255))
    ImageDraw.Draw(image).rectangle((20, 10, 29, 19), fill=(255, 0, 0))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class Layout(discord.ui.LayoutView):
    """A Components V2 message: a container with a text, a section whose accessory is a
    button (which counts its clicks in place), the picture in a gallery and a separator."""

    def __init__(self, clicks: int = 0) -> None:
        super().__init__(timeout=None)
        self.clicks = clicks
        button: discord.ui.Button[Layout] = discord.ui.Button(label="Tap", custom_id="tiny:tap")
        button.callback = self.tap  # type: ignore[method-assign]
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(f"taps {clicks}"),
                discord.ui.Section(discord.ui.TextDisplay("a section"), accessory=button),
                discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://square.png")),
                discord.ui.Separator(),
            )
        )

    async def tap(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=Layout(self.clicks + 1))


@app_commands.command(description="Works wherever its user is: servers, DMs, group DMs")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def anywhere(
    interaction: discord.Interaction, post: bool = False, layout: bool = False
) -> None:
    """Says where it was used and by which install, with the counter's buttons; ``post``:
    first try to post in the channel with the bot's own token, and say how that went;
    ``layout``: answer with a Components V2 layout and a picture instead."""
    if layout:
        square = discord.File(io.BytesIO(red_square_png()), filename="square.png")
        await interaction.response.send_message(view=Layout(), file=square)
        return
    said = ""
    if post:
        channel = interaction.client.get_partial_messageable(interaction.channel_id or 0)
        try:
            await channel.send("posted with the bot token")
            said = "posted; "
        except discord.Forbidden as error:
            said = f"refused {error.status}/{error.code}; "
    context = interaction.context
    where = "guild" if context.guild else "dm" if context.dm_channel else "private"
    install = "user" if interaction.is_user_integration() else "guild"
    await interaction.response.send_message(f"{said}{where} by {install} install", view=Counter())


class TinyBot(commands.Bot):
    """The bot: syncs `/tiny` to the dev guild (or globally) in setup_hook.

    `shard_id` and `shard_count` (discord.py options) make it one shard of several.
    """

    def __init__(self, dev_guild: int | None = None, **options: Any) -> None:
        intents = discord.Intents.default()
        options.setdefault("guild_ready_timeout", 0.05)
        super().__init__(command_prefix="!", intents=intents, **options)
        self.dev_guild = dev_guild
        self.late_codes: list[int] = []
        self.twice_codes: list[int] = []
        self.remembered: discord.Interaction | None = None  # by /tiny remember

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Persistent)
        self.tree.add_command(tiny)
        self.tree.add_command(tinymod)
        self.tree.add_command(anywhere)
        self.tree.add_command(order)
        self.tree.add_command(tinyplay)
        if self.dev_guild:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord (and fakediscord) take one IDENTIFY per 5 s per token (max_concurrency 1) and
        # answer one sooner with op 9. discord.py's own hook sleeps 5 s before every IDENTIFY
        # but the first; this one waits only what is left of the 5 s (and its margin) since this
        # process's last IDENTIFY with the same token, so restarts and op 9 in the tests cost no
        # more than Discord requires (and each test's emulator, with its own token, none).
        token = self.http.token or ""
        loop = asyncio.get_running_loop()
        wait = (
            _last_identify.get(token, -math.inf) + IDENTIFY_INTERVAL + IDENTIFY_MARGIN - loop.time()
        )
        if wait > 0:
            await asyncio.sleep(wait)
        _last_identify[token] = loop.time()

    async def on_ready(self) -> None:
        log.info("tinybot ready as %s", self.user)


class ShardedTinyBot(TinyBot, commands.AutoShardedBot):
    """The tiny bot as an `AutoShardedBot`: every shard in one client (the count from
    `GET /gateway/bot` unless `shard_count` is given)."""


def make_bot(dev_guild: int | None = None) -> TinyBot:
    """A fresh tiny bot (the in-process fixture's factory)."""
    return TinyBot(dev_guild)


def main() -> None:
    """Run as a process against the URLs in the environment."""
    from fakediscord import point_discord_py_at_urls

    point_discord_py_at_urls(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    dev_guild = int(os.environ["DEV_GUILD_ID"]) if os.environ.get("DEV_GUILD_ID") else None
    # TINYBOT_SHARD="0/2": this process is shard 0 of 2.
    shard, _, count = os.environ.get("TINYBOT_SHARD", "").partition("/")
    sharding = {"shard_id": int(shard), "shard_count": int(count)} if count else {}
    bot = TinyBot(dev_guild, **sharding)
    level = getattr(logging, os.environ.get("TINYBOT_LOG", "INFO"))
    discord.utils.setup_logging(level=level, root=True)
    asyncio.run(_run_until_interrupted(bot, os.environ["DISCORD_TOKEN"]))


async def _run_until_interrupted(bot: TinyBot, token: str) -> None:
    """Run ``bot`` until SIGINT or SIGTERM, then close it. (Not ``bot.run``: that stops on
    SIGINT by cancelling its task, and a cancellation that lands in ``asyncio.wait_for`` as it
    completes is lost on Python 3.11, leaving the process running until it is killed.)"""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if running.done():
            running.result()  # (a failure to start is the process's failure)
        else:
            await bot.close()
            await asyncio.wait({running}, timeout=10)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    main()
