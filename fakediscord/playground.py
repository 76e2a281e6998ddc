"""The terminal playground: the real bot against the emulator, driven by typed lines.

`python -m bot --local` calls `run_playground(start_bot)` (synchronous; `playground` is the
coroutine). You act as one of several users,
type slash commands as in Discord (a trailing `?` on an option lists autocomplete choices by
number), see the channel and your DMs, press buttons and choose select options by number. A
file the bot sends (a picture, a ZIP) is saved (under `pictures`, by default in the playground's
scratch folder, removed when it ends) and its path printed with the message; a timestamp
(`<t:1700000000:R>`) reads as the Discord client shows it ("in 5 minutes"). It knows nothing
about cribbage. Type `help` for the commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from fakediscord.commands import ChoicesOffered
from fakediscord.discordpy import point_discord_py_at
from fakediscord.errors import DiscordError, EmulatorUsageError, NoResponse
from fakediscord.interactions import Interaction
from fakediscord.limits import COMPONENTS_V2, CONTAINER, SEPARATOR, TEXT_DISPLAY
from fakediscord.model import (
    CREATE_EVENTS,
    GUILD_STAGE_VOICE,
    GUILD_VOICE,
    Attachment,
    Channel,
    Guild,
    Message,
    User,
)
from fakediscord.runner import BotProcess
from fakediscord.server import FakeDiscord

# Code blocks and inline code (kept as they are), captured so re.split keeps them.
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
# Discord's markdown escape: a backslash before any character but a letter, a digit or a space
# shows the character alone (the underscore too: "Jo\_Jo" is shown "Jo_Jo").
_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
# A timestamp: <t:SECONDS> or <t:SECONDS:STYLE>.
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")

HELP = """\
  /cribbage help             the bot's own help: start with /cribbage new (friends join), or
                             /cribbage new vs_computer:True to play the computer at once
  /cribbage new variant:V    another game: five_card, seven_card, five_hand, six_hand (or
                             players:5, players:6 teams:pairs); /cribbage rules topic:? lists
                             their rules, with sources
  /command sub opt:value     a slash command, typed as in Discord
  /command sub opt:?         list autocomplete choices (or an option's fixed choices);
                             answer with a number to send it
  as NAME                    act as NAME (a new name joins the server); `users` lists them
  mod on | mod off           make yourself a moderator of the server (Manage Messages, Manage
                             Server), or an ordinary member again
  look | dms                 the channel / your DMs as you see them now
  click [mN] K               press button K (of message mN, else the last printed with buttons)
  choose [mN] [MENU] K [K ...]
                             choose options K... in the select menu (likewise; a message with
                             several menus names them a, b, ...: choose b 3)
  say TEXT                   post an ordinary message
  launch                     open the app's Activity here (its Entry Point command); a
                             table's Play at the table does too: open the printed address
  events                     the server's Events list (what /club night schedules)
  interested [N] | uninterested [N]
                             mark event N (else the latest) Interested, or take it back
  channel NAME | thread NAME switch to a channel, or a thread of it (names may have spaces:
                             thread Round 1 · Al vs Bea)
  voice NAME | stage NAME    switch to a voice or stage channel's text chat (made if new)
  dm                         your DM with the bot
  dm NAME | group NAME ...   a DM between you and NAME, or a group DM with them all: the
                             bot is not in them, its commands come by your user install
  help | quit"""

#: What each of the playground's own commands takes, said when it is typed wrong.
USAGE = {
    "as": "as NAME (one name; `users` lists them)",
    "channel": "channel NAME (names may have spaces)",
    "thread": "thread NAME (a thread of this channel; names may have spaces)",
    "voice": "voice NAME (a voice channel's text chat; names may have spaces)",
    "stage": "stage NAME (a stage channel's text chat; names may have spaces)",
    "mod": "mod on, or mod off",
    "say": "say TEXT",
    "dm": "dm (your DM with the bot), or dm NAME",
    "group": "group NAME NAME ... (3 to 10 people with you)",
    "launch": "launch (no words after it)",
    "interested": "interested, or interested N (the number `events` gives it)",
    "uninterested": "uninterested, or uninterested N (the number `events` gives it)",
}

#: How many of a channel's messages `as NAME` shows on arrival (`look` shows more).
ARRIVAL_SHOWN = 4
#: How long the bot's word that it is done may take (a bound for a hung bot, said as a failure
#: of the line, not a pace).
SETTLE_TIMEOUT = 60.0


class Playground:
    """The chat loop's state: who you are, where you are, what you have been shown."""

    def __init__(
        self,
        fd: FakeDiscord,
        guild: Guild,
        out: TextIO,
        pictures: Path | None = None,
        now: Callable[[], float] = time.time,
        settled: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.fd = fd
        #: The bot's own word that it has done what a line set going, if it gives one (see
        #: :func:`playground`).
        self.settled = settled
        #: The wall clock a relative timestamp is read against (as the client's is).
        self.now = now
        self.guild = guild
        self.out = out
        self.pictures = pictures or Path(tempfile.gettempdir()) / "fakediscord-pictures"
        self.channel: Channel = next(iter(guild.channels.values()))
        self.user: User = next(m.user for m in guild.members.values() if not m.user.bot)
        self.shown: dict[tuple[int, int], tuple[int, int]] = {}  # (user, message) -> version
        self.labels: dict[int, int] = {}  # message id -> its number mN
        # message id -> when it was last printed (click and choose reach the last one printed).
        self.printed: dict[int, int] = {}
        self.prints = 0
        self.by_label: dict[int, Message] = {}
        self.pending: tuple[str, list[dict[str, Any]]] | None = None

    def say(self, text: str) -> None:
        """Print one line of playground output."""
        print(text, file=self.out, flush=True)

    async def settle(self, period: float) -> None:
        """Wait, before what is new is shown, until the bot has done what the line just typed
        set going: its word for it when it gives one (an answer may come before the messages
        it brings: a tournament's board, posted once its command is answered, was not yet
        there when a busy machine's bot had been quiet for a moment, and the `click` typed next
        pressed an older message's button), then until it makes no request for ``period``
        seconds (all a bot in another process offers)."""
        if self.settled is not None:
            await asyncio.wait_for(self.settled(), SETTLE_TIMEOUT)
        await self.fd.quiet(period)

    @property
    def prompt(self) -> str:
        """`Al #general> `."""
        return f"{self.user.name} {self._where(self.channel)}> "

    def _where(self, channel: Channel) -> str:
        if channel.is_dm:
            return "@DM"
        if channel.people:
            return "@" + ",".join(u.name for u in channel.people if u is not self.user)
        return f"{'🔊 ' if channel.is_voice else '#'}{channel.name}"

    def label(self, message: Message) -> int:
        """The number this message is shown with (`m3`)."""
        if message.id not in self.labels:
            self.labels[message.id] = len(self.labels) + 1
            self.by_label[self.labels[message.id]] = message
        return self.labels[message.id]

    def readable(self, text: str) -> str:
        """`text` with channel and user mentions written as names, as the Discord client shows."""
        world = self.fd.world

        def channel(match: re.Match[str]) -> str:
            found = world.channels.get(int(match.group(1)))
            return f"#{found.name}" if found else match.group(0)

        def user(match: re.Match[str]) -> str:
            found = world.users.get(int(match.group(1)))
            return f"@{found.name}" if found else match.group(0)

        def stamp(match: re.Match[str]) -> str:
            return discord_time(int(match.group(1)), match.group(2) or "f", self.now())

        named = re.sub(r"<@!?(\d+)>", user, re.sub(r"<#(\d+)>", channel, text))
        # A backslash before punctuation is a markdown escape: Discord shows the character
        # alone, and a timestamp as its time, except inside code, where text is shown as it is.
        parts = _CODE.split(named)
        return "".join(
            part if i % 2 else _TIMESTAMP.sub(stamp, _ESCAPE.sub(r"\1", part))
            for i, part in enumerate(parts)
        )

    def render(self, message: Message) -> None:
        """Print a message with its embeds and numbered components."""
        tags = []
        if message.ephemeral:
            tags.append("only you")
        if message.loading:
            tags.append("thinking...")
        if message.history:
            tags.append("edited")
        tag = f" ({', '.join(tags)})" if tags else ""
        where = self._where(message.channel)
        self.prints += 1
        self.printed[message.id] = self.prints
        content = self.readable(_shown_text(message)).replace("\n", "\n      ")
        self.say(f"[m{self.label(message)}] {where} {message.author.name}{tag}: {content}")
        for embed in message.embeds:
            head = " - ".join(str(embed[k]) for k in ("title", "description") if embed.get(k))
            self.say(f"      | {head}")
            for field in embed.get("fields", []):
                self.say(f"      | {field.get('name')}: {field.get('value')}")
        for attachment in message.attachments:
            self.say(f"      {self.describe(attachment)}")
        buttons = list(message.buttons())
        if buttons:
            parts = []
            for number, button in enumerate(buttons, 1):
                label = button.get("label") or (button.get("emoji") or {}).get("name") or "?"
                off = " (disabled)" if button.get("disabled") else ""
                parts.append(f"[{number}] {label}{off}")
            self.say("      " + "  ".join(parts))
        menus = list(message.selects())
        for letter, menu in zip("abcdefgh", menus, strict=False):
            low, high = menu.get("min_values", 1), menu.get("max_values", 1)
            hint = menu.get("placeholder") or "choose"
            count = f"choose {low}" if low == high else f"choose {low} to {high}"
            choices = menu.get("options", [])
            name = f"menu {letter}: " if len(menus) > 1 else ""
            if any(o.get("description") for o in choices):
                # Discord shows each option's description under its label: a line each.
                self.say(f"      {name}{hint} ({count}):")
                for n, o in enumerate(choices, 1):
                    about = f": {o['description']}" if o.get("description") else ""
                    self.say(f"        {n}) {o.get('label')}{about}")
                continue
            options = "  ".join(f"{n}) {o.get('label')}" for n, o in enumerate(choices, 1))
            self.say(f"      {name}{hint} ({count}): {options}")

    def describe(self, attachment: Attachment) -> str:
        """One line for a file: its name and size (for a picture, its size in pixels and its
        alt text), and the file it was saved to, to open (a picture in an image viewer, a ZIP
        such as *Send me my data*'s with an archive tool)."""
        text = f"file: {attachment.filename} ({attachment.size} bytes"
        if attachment.width is not None:
            text += f", {attachment.width}x{attachment.height}"
        text += ")"
        if attachment.description:
            text += f" alt: {attachment.description}"
        return text + f"\n      saved to {self.save(attachment)}"

    def save(self, attachment: Attachment) -> Path:
        """Write an attachment's bytes under `pictures` (once) and return the file's path."""
        path = self.pictures / f"{attachment.id}-{Path(attachment.filename).name}"
        if not path.exists():
            self.pictures.mkdir(parents=True, exist_ok=True)
            path.write_bytes(attachment.data)
        return path

    def show_new(self, at_most: int | None = None, last: Sequence[Message] = ()) -> None:
        """Print messages this user can see that are new or changed since last shown (with
        ``at_most``, only that many of each channel's latest, saying how many are left);
        those of ``last`` (the answer to what was just typed) after the rest, so a `click`
        typed next presses the answer's buttons."""
        channels = [self.channel]
        dm = self.fd.dm_channel(self.user)
        if dm is not self.channel:
            channels.append(dm)
        answer = {m.id for m in last}
        held: list[Message] = []
        for channel in channels:
            changed = []
            for message in self.fd.visible_to(self.user, channel):
                key = (self.user.id, message.id)
                version = (len(message.history), message.flags)
                if self.shown.get(key) != version:
                    self.shown[key] = version
                    changed.append(message)
            if at_most is not None and len(changed) > at_most:
                left = len(changed) - at_most
                where = "dms" if channel is dm else "look"
                self.say(f"({left} earlier in {self._where(channel)}: `{where}` shows more)")
                changed = changed[-at_most:]
            for message in changed:
                if message.id in answer:
                    held.append(message)
                else:
                    self.render(message)
        for message in held:
            self.render(message)

    def show_all(self, channel: Channel, limit: int = 15) -> None:
        """Print the last `limit` messages of `channel` as this user sees them."""
        messages = self.fd.visible_to(self.user, channel)[-limit:]
        if not messages:
            self.say(f"(nothing in {self._where(channel)} yet)")
        for message in messages:
            self.shown[(self.user.id, message.id)] = (len(message.history), message.flags)
            self.render(message)

    def target(self, words: list[str], kind: str) -> tuple[Message, list[str]]:
        """The message a click/choose refers to (`mN`, or the latest with that component)."""
        if words and re.fullmatch(r"m\d+", words[0]):
            message = self.by_label.get(int(words[0][1:]))
            if message is None:
                raise EmulatorUsageError(f"there is no message {words[0]}")
            if not message.visible_to(self.user):
                raise EmulatorUsageError(f"{words[0]} is not shown to {self.user.name}")
            if not self._items(message, kind):
                raise EmulatorUsageError(
                    f"{words[0]} has no {'buttons' if kind == 'button' else 'select menu'}"
                )
            return message, words[1:]
        found = [
            m for m in self.by_label.values() if m.visible_to(self.user) and self._items(m, kind)
        ]
        if not found:
            raise EmulatorUsageError(f"no message with a {kind} is shown")
        # The one printed last (what the player just read), not the newest posted.
        return max(found, key=lambda m: (self.printed.get(m.id, 0), self.labels[m.id])), words

    @staticmethod
    def _items(message: Message, kind: str) -> list[dict[str, Any]]:
        return list(message.buttons() if kind == "button" else message.selects())


async def _read_line(stream: TextIO) -> str | None:
    line = await asyncio.get_running_loop().run_in_executor(None, stream.readline)
    return line if line else None


async def _answer(pg: Playground, interaction: Interaction, stream: TextIO) -> None:
    """After an interaction: fill in a modal if one opened, then print what changed."""
    if interaction.modal is not None:
        modal = interaction.modal
        pg.say(f"Modal: {modal.get('title')}")
        values = {}
        for row in modal.get("components", []):
            items = row.get("components") or ([row["component"]] if "component" in row else [])
            for item in items:
                if item.get("type") == 4:
                    label = item.get("label") or row.get("label") or item["custom_id"]
                    pg.say(f"  {label}:")
                    line = await _read_line(stream)
                    values[item["custom_id"]] = (line or "").strip()
        interaction = await pg.fd.submit_modal(pg.user, interaction, values)
    instance = interaction.activity_instance
    if instance is not None:
        # Discord would open the Activity in the client: here, a page to open in a browser.
        url = pg.fd.activity_client_url(pg.user, instance)
        pg.say(f"The Activity opened for {pg.user.name}: open {url} in a browser")
    await pg.settle(0.05)
    pg.show_new(last=interaction.messages())


async def _slash(pg: Playground, line: str, stream: TextIO) -> None:
    if re.search(r":\S*\?\s*$", line) or line.rstrip().endswith("?"):
        try:
            choices = await pg.fd.autocomplete(pg.user, pg.channel, line)
        except ChoicesOffered as offered:
            # Fixed choices: the client lists them itself, as typed and as labelled.
            choices = [
                {"name": f"{c['value']} ({c['name']})", "value": c["value"]}
                if str(c["name"]) != str(c["value"])
                else {"name": str(c["name"]), "value": c["value"]}
                for c in offered.option["choices"]
            ]
        if not choices:
            pg.say("(no choices)")
            return
        for number, choice in enumerate(choices, 1):
            pg.say(f"  {number}) {choice['name']}")
        pg.pending = (line, choices)
        return
    interaction = await pg.fd.slash(pg.user, pg.channel, line)
    await _answer(pg, interaction, stream)


def _complete(line: str, value: Any) -> str:
    """`line` with its last option's value replaced by `value`."""
    text = str(value)
    if " " in text:
        text = f'"{text}"'
    matches = list(re.finditer(r"(?:^|\s)([\w-]+):", line))
    if not matches:
        return f"{line.rstrip().removesuffix('?').rstrip()} {text}"
    last = matches[-1]
    return line[: last.end()] + text


async def _step(pg: Playground, line: str, stream: TextIO) -> bool:
    """Run one typed line; False when the user quits."""
    fd = pg.fd
    words = line.split()
    if not words:
        pg.show_new()
        return True
    command = words[0].lower()
    if pg.pending is not None and re.fullmatch(r"\d+", line):
        pending_line, choices = pg.pending
        pg.pending = None
        index = int(line) - 1
        if not 0 <= index < len(choices):
            raise EmulatorUsageError(f"choose 1 to {len(choices)}")
        full = _complete(pending_line, choices[index]["value"])
        pg.say(f"> {full}")
        await _slash(pg, full, stream)
        return True
    pg.pending = None
    if line.startswith("/"):
        await _slash(pg, line, stream)
    elif command in ("quit", "exit"):
        return False
    elif command == "help":
        pg.say(HELP)
    elif command == "users":
        moderator = pg.guild.moderator_role
        names = [
            m.user.name + (" (moderator)" if moderator in m.roles else "")
            for m in pg.guild.members.values()
            if not m.user.bot
        ]
        pg.say("users: " + ", ".join(names))
    elif command == "mod" and len(words) == 2 and words[1].lower() in ("on", "off"):
        on = words[1].lower() == "on"
        pg.guild.set_moderator(pg.user, on)
        pg.say(f"{pg.user.name} is {'now' if on else 'no longer'} a moderator of {pg.guild.name}")
    elif command == "as" and len(words) == 2:
        wanted = words[1]
        found = [m.user for m in pg.guild.members.values() if m.user.name.lower() == wanted.lower()]
        if found:
            pg.user = found[0]
        else:
            try:
                pg.user = fd.add_user(wanted)
            except ValueError as refused:  # (longer than Discord lets a name be)
                raise EmulatorUsageError(str(refused)) from refused
            fd.install_app(pg.user)
            pg.guild.add_member(pg.user)
            pg.say(f"{wanted} joined {pg.guild.name}")
        if pg.channel.is_dm or (pg.channel.people and pg.user not in pg.channel.people):
            pg.channel = next(c for c in pg.guild.channels.values() if not c.is_thread)
        pg.say(f"you are {pg.user.name} in {pg._where(pg.channel)}")
        pg.show_new(at_most=ARRIVAL_SHOWN)
    elif command == "look":
        pg.show_all(pg.channel)
    elif command == "dms":
        pg.show_all(fd.dm_channel(pg.user))
    elif command == "dm" and len(words) == 1:
        pg.channel = fd.dm_channel(pg.user)
        pg.say("you are in your DMs with the bot")
    elif command in ("dm", "group") and len(words) >= 2:
        people = [pg.user] + [_person(pg, name) for name in words[1:]]
        if command == "dm" and len(people) != 2:
            raise EmulatorUsageError("a DM is between two people: dm NAME (group NAME NAME...)")
        if command == "group" and not 3 <= len(set(people)) <= 10:
            raise EmulatorUsageError("a group DM has 3 to 10 people: group NAME NAME ...")
        pg.channel = _private(fd, people)
        pg.say(f"you are in {pg._where(pg.channel)} (the bot is not in it: /cribbage works here")
        pg.say("  through your user install; its table and hands come as answers)")
        pg.show_all(pg.channel, limit=5)
    elif command in ("channel", "thread", "voice", "stage") and len(words) >= 2:
        name = line.split(None, 1)[1].strip().removeprefix("#")
        parent = pg.channel.parent or pg.channel
        if command == "thread" and parent.guild is None:
            raise EmulatorUsageError("a thread belongs to a server's text channel: `channel NAME`")
        if command == "thread" and parent.is_voice:
            raise EmulatorUsageError(
                "a voice or stage channel's chat has no threads (as on Discord): `channel NAME`"
            )
        found_channel = next((c for c in pg.guild.channels.values() if c.name == name), None)
        if found_channel is None:
            if command == "thread":
                found_channel = parent.add_thread(name)
            elif command in ("voice", "stage"):
                kind = GUILD_VOICE if command == "voice" else GUILD_STAGE_VOICE
                found_channel = pg.guild.add_text_channel(name, kind=kind)
            else:
                found_channel = pg.guild.add_text_channel(name)
        pg.channel = found_channel
        pg.say(f"you are in {pg._where(pg.channel)}")
        pg.show_all(pg.channel, limit=5)
    elif command == "say" and len(words) > 1:
        await fd.say(pg.user, pg.channel, line.split(None, 1)[1])
        await pg.settle(0.05)
        pg.show_new()
    elif command == "events" and len(words) == 1:
        _show_events(pg)
    elif command in ("interested", "uninterested") and len(words) <= 2:
        events = fd.scheduled.of(pg.guild)
        under_way = [e for e in events if e.under_way]
        if not under_way:
            raise EmulatorUsageError("the server has no event to mark: a moderator's /club night")
        if len(words) == 2:
            if not words[1].isdecimal() or not 1 <= int(words[1]) <= len(events):
                raise EmulatorUsageError(f"choose 1 to {len(events)} (`events` lists them)")
            event = events[int(words[1]) - 1]
        else:
            event = under_way[-1]
        mark = fd.scheduled.interested if command == "interested" else fd.scheduled.uninterested
        await mark(pg.user, event)
        said = "is interested in" if command == "interested" else "is no longer interested in"
        pg.say(f"{pg.user.name} {said} {event.name!r}")
        await pg.settle(0.2)
        pg.show_new()
    elif command == "launch" and len(words) == 1:
        await _answer(pg, await fd.launch(pg.user, pg.channel), stream)
    elif command == "click":
        message, rest = pg.target(words[1:], "button")
        buttons = list(message.buttons())
        if len(rest) != 1 or not re.fullmatch(r"\d+", rest[0]):
            number = pg.label(message)
            raise EmulatorUsageError(
                f"press one button by its number: click K, or click m{number} K"
            )
        index = int(rest[0]) - 1
        if not 0 <= index < len(buttons):
            raise EmulatorUsageError(f"choose a button from 1 to {len(buttons)}")
        interaction = await fd.click(pg.user, message, buttons[index].get("custom_id"))
        await _answer(pg, interaction, stream)
    elif command == "choose":
        message, rest = pg.target(words[1:], "select")
        menus = list(message.selects())
        letters = "abcdefgh"[: len(menus)]
        which = 0
        if rest and len(rest[0]) == 1 and rest[0].lower() in letters:
            which, rest = letters.index(rest[0].lower()), rest[1:]
        menu = menus[which]
        options = menu.get("options", [])
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not rest or not all(
            re.fullmatch(r"\d+", n) and 1 <= int(n) <= len(options) for n in rest
        ):
            raise EmulatorUsageError(f"choose options by number, 1 to {len(options)}")
        if not low <= len(set(rest)) <= high or len(set(rest)) != len(rest):
            many = f"{low}" if low == high else f"{low} to {high}"
            raise EmulatorUsageError(f"choose {many} different option(s) of this menu")
        values = [options[int(n) - 1]["value"] for n in rest]
        interaction = await fd.select(pg.user, message, menu["custom_id"], values)
        await _answer(pg, interaction, stream)
    elif command in USAGE:
        pg.say(f"? {command}: {USAGE[command]}")
    elif re.fullmatch(r"\d+", command):
        pg.say(
            f"? {command}: a number picks one of the choices `option:?` lists; none are listed now"
        )
    else:
        pg.say("? unknown command; type help")
    return True


def _person(pg: Playground, name: str) -> User:
    """A user of the playground's server by name (any case)."""
    for member in pg.guild.members.values():
        if member.user.name.lower() == name.lower() and not member.user.bot:
            return member.user
    raise EmulatorUsageError(f"no one called {name} here (`users` lists them; `as {name}` adds)")


def _private(fd: FakeDiscord, people: list[User]) -> Channel:
    """The DM or group DM of exactly ``people`` (made once)."""
    wanted = {u.id for u in people}
    for channel in fd.world.channels.values():
        if channel.guild is None and {u.id for u in channel.people} == wanted:
            return channel
    return fd.private_channel(*people)


async def playground(
    start_bot: Callable[[FakeDiscord], Awaitable[Any]] | None = None,
    *,
    users: tuple[str, ...] = ("Al", "Bea", "Cy"),
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    bot_args: Sequence[str] = ("-m", "bot"),
    pictures: Path | None = None,
) -> None:
    """Start the emulator and the bot, then the chat loop until `quit` or end of input.

    Pictures the bot posts are saved under `pictures` (by default in the scratch folder,
    removed with it at the end). Every user has the app installed (a user install), so its
    commands reach the DMs and group DMs they make.

    `start_bot(fd)` runs the real bot in this process against `fd` (discord.py is already
    pointed at it; log in with `fd.bot_token`; the guild is `fd.world.guilds`) and returns once
    it is started; if what it returns has an awaitable `close()`, that is called at the end,
    and an awaitable `settled()` is awaited after each line that reaches the bot, before what is
    new is shown: the bot's word that it has done what the line set going (without it, a moment
    with no request from the bot stands in, which on a busy machine proves nothing).
    Without `start_bot`, `python <bot_args>` (`-m bot`) runs as a child process pointed at the
    emulator (DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL, DEV_GUILD_ID, DATABASE_PATH).
    """
    stream = stdin or sys.stdin
    out = stdout or sys.stdout
    async with FakeDiscord() as fd:
        # The stand-in client shows what Discord would around the Activity (a status, the
        # invite and share dialogs), so that game night can be seen to work.
        fd.activity_host.shows_discord = True
        guild = fd.add_guild("Playground")
        guild.add_text_channel("general")
        # (Invited with every permission its link asks for: its Events entries too.)
        guild.give_bot(CREATE_EVENTS)
        for name in users:
            user = fd.add_user(name)
            fd.install_app(user)
            guild.add_member(user)
        undo = point_discord_py_at(fd)
        with tempfile.TemporaryDirectory(prefix="fakediscord-") as scratch:
            # Pictures go with the scratch folder unless asked elsewhere: nothing is kept.
            saved_to = Path(scratch) / "pictures" if pictures is None else pictures
            if start_bot is None:
                # Synced as global commands (no development server), as a bot in production
                # is: they reach DMs and group DMs too, through a user install.
                child = BotProcess(
                    fd,
                    bot_args,
                    database=Path(scratch) / "playground.db",
                    dev_guild=None,
                    ready_timeout=60,
                )
                child.watched = False
                await child.start()
                handle: Any = child
                closer: Callable[[], Awaitable[Any]] | None = child.stop
            else:
                handle = await start_bot(fd)
                closer = getattr(handle, "close", None)
            settled = getattr(handle, "settled", None)
            try:
                await fd.wait_until_connected(timeout=30)
                await fd.wait_for(lambda: fd.commands.sync_count > 0, timeout=30)
                pg = Playground(fd, guild, out, saved_to, settled=settled)
                await _chat(pg, users, stream, handle)
            finally:
                if closer is not None:
                    await closer()
                undo()


async def _chat(pg: Playground, users: tuple[str, ...], stream: TextIO, bot: Any) -> None:
    out = pg.out
    pg.say(f"fakediscord playground: server {pg.guild.name}, users {', '.join(users)}.")
    pg.say("Type help for the commands, quit to leave.")
    while True:
        out.write(pg.prompt)
        out.flush()
        line = await _read_line(stream)
        if line is None:
            break
        try:
            if not await _step(pg, line.strip(), stream):
                break
        except (EmulatorUsageError, NoResponse, DiscordError, TimeoutError) as error:
            pg.say(f"! {error}")
        # A bot process reports its errors on its output; show them rather than hide them.
        for problem in bot.take_errors() if isinstance(bot, BotProcess) else []:
            pg.say(f"! bot: {problem}")


def run_playground(
    start_bot: Callable[[FakeDiscord], Awaitable[Any]] | None = None,
    *,
    users: tuple[str, ...] = ("Al", "Bea", "Cy"),
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    pictures: Path | None = None,
) -> int:
    """`playground(...)` from synchronous code (e.g. `python -m bot --local`); returns 0."""
    with contextlib.suppress(KeyboardInterrupt):
        run = playground(start_bot, users=users, stdin=stdin, stdout=stdout, pictures=pictures)
        asyncio.run(run)
    return 0


#: The relative time's steps, as the Discord client words them: up to how many seconds ago (or
#: ahead) each wording holds, and the unit a number of is said past the first.
_RELATIVE = (
    (45, "a few seconds", 0, ""),
    (90, "a minute", 0, ""),
    (45 * 60, "", 60, "minutes"),
    (90 * 60, "an hour", 0, ""),
    (22 * 3600, "", 3600, "hours"),
    (36 * 3600, "a day", 0, ""),
    (26 * 86400, "", 86400, "days"),
    (45 * 86400, "a month", 0, ""),
    (320 * 86400, "", 30 * 86400, "months"),
    (548 * 86400, "a year", 0, ""),
)


#: How each of a scheduled event's statuses reads.
_EVENT_STATUS = {1: "scheduled", 2: "under way", 3: "over", 4: "cancelled"}


def _show_events(pg: Playground) -> None:
    """The server's Events list, as a member sees it: each event numbered, its status, its
    start in this machine's time, who is interested, and whether you are."""
    events = pg.fd.scheduled.of(pg.guild)
    if not events:
        pg.say("no events: a moderator schedules a club night with /club night")
        return
    for number, event in enumerate(events, 1):
        start = discord_time(int(event.start.timestamp()), "F", pg.now())
        people = [
            m.user.name
            for m in pg.guild.members.values()
            if m.user.id in event.interested and not m.user.bot
        ]
        yours = " (you're interested)" if pg.user.id in event.interested else ""
        recurs = " · recurring" if event.recurring else ""
        pg.say(
            f"[e{number}] {event.name} · {_EVENT_STATUS.get(event.status, '?')} · {start}"
            f"{recurs} · interested: {', '.join(people) or 'nobody'}{yours}"
        )
        if event.description:
            pg.say(f"      {event.description}")


def discord_time(seconds: int, style: str, now: float) -> str:
    """A timestamp ``<t:seconds:style>`` as the Discord client shows it (in English, UK, in
    this machine's time zone): ``t`` 16:20, ``T`` 16:20:30, ``d`` 20/04/2021, ``D`` 20 April
    2021, ``f`` 20 April 2021 16:20, ``F`` Tuesday, 20 April 2021 16:20, ``R`` relative to
    ``now`` ("in 5 minutes", "2 hours ago", "a few seconds ago").

    >>> discord_time(1_000_300, "R", 1_000_000), discord_time(1_000_000, "R", 1_007_300)
    ('in 5 minutes', '2 hours ago')
    """
    if style == "R":
        gap = seconds - now
        said = f"{round(abs(gap) / (365.25 * 86400))} years"
        for upto, words, unit, units in _RELATIVE:
            if abs(gap) < upto:
                said = words or f"{max(2, round(abs(gap) / unit))} {units}"
                break
        return f"in {said}" if gap > 0 else f"{said} ago"
    when = datetime.fromtimestamp(seconds)
    day = f"{when.day} {when:%B %Y}"
    formats = {
        "t": f"{when:%H:%M}",
        "T": f"{when:%H:%M:%S}",
        "d": f"{when:%d/%m/%Y}",
        "D": day,
        "f": f"{day} {when:%H:%M}",
        "F": f"{when:%A}, {day} {when:%H:%M}",
    }
    return formats[style]


#: How a Components V2 separator reads in the terminal.
_SEPARATOR = "─" * 24


def _shown_text(message: Message) -> str:
    """A message's text as it reads: its content, or a Components V2 layout's text displays
    with its separators, and the edges between its containers, drawn as rules."""
    if not message.flags & COMPONENTS_V2:
        return message.words()
    parts = []
    for item in message.walk():
        if item.get("type") == TEXT_DISPLAY:
            parts.append(str(item.get("content", "")))
        elif (item.get("type") == SEPARATOR and item.get("divider", True)) or (
            item.get("type") == CONTAINER and parts
        ):
            parts.append(_SEPARATOR)
    return "\n".join(parts)
