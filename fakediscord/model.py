"""The emulated world: users, guilds, channels, threads, DMs and messages, and who sees what.

Every message records who may see it: everyone who can see its channel, the one recipient of a
DM, or the one user an ephemeral interaction reply was for. Every edit is kept, so a test can
read a message as it was when a user clicked it and as it is now.
"""

from __future__ import annotations

import contextvars
import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fakediscord.mentions import Pings

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000

# Channel types (Discord's numbers).
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GROUP_DM = 3
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_STAGE_VOICE = 13
#: A voice or stage channel: its text chat is read and written by those who may Connect.
VOICE_TYPES = (GUILD_VOICE, GUILD_STAGE_VOICE)

# Message flags.
#: "Do not include any embeds when serializing this message": no link previews.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Permissions an ordinary member has: see, talk, embed, attach, read history, use commands,
# talk in threads, join voice and use Activities. Deliberately no moderation bits, so
# "moderator only" checks can be tested.
MEMBER_PERMISSIONS = (
    (1 << 0)  # create invite (a new server's @everyone has it)
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 20)  # connect (join a voice or stage channel, and so read its chat)
    | (1 << 21)  # speak
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
    | (1 << 39)  # use embedded activities
    | (1 << 50)  # use external apps (on by default, as in a new server)
)
# What a moderator adds: manage channels, manage guild, manage messages, manage threads.
MODERATOR_PERMISSIONS = (1 << 4) | (1 << 5) | (1 << 13) | (1 << 34)
ADMINISTRATOR = 1 << 3
#: Lets a member invite people to a channel (and open an Activity's invite dialog there).
CREATE_INSTANT_INVITE = 1 << 0
ATTACH_FILES = 1 << 15
MANAGE_MESSAGES = 1 << 13
MANAGE_CHANNELS = 1 << 4
MANAGE_THREADS = 1 << 34
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
CONNECT = 1 << 20
#: Lets a member launch (and join) Activities, in text and voice channels (not stages).
USE_EMBEDDED_ACTIVITIES = 1 << 39
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
#: Scheduled events (Discord's *Events* list): Manage Events lets a member change and delete
#: anyone's; Create Events lets them make events and change or delete their own (Permissions,
#: "Permission Flags": MANAGE_EVENTS ``1 << 33``, CREATE_EVENTS ``1 << 44``).
MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
#: What a stage channel's event needs besides (Guild Scheduled Event, "Permissions for events
#: with entity_type: STAGE_INSTANCE").
MUTE_MEMBERS = 1 << 22
MOVE_MEMBERS = 1 << 24
#: Lets user-installed apps answer publicly where the app is not installed (else their
#: responses are ephemeral).
USE_EXTERNAL_APPS = 1 << 50
#: How long a thread stays in the channel list after its last activity, in minutes: the
#: values Discord takes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

#: How long a person's display name or a member's nickname may be, in characters: Discord
#: refuses others, and trims spaces from either end (User Resource, "Usernames and Nicknames").
NAME_LENGTH = (1, 32)


def check_name(name: str, what: str) -> None:
    """Refuse (``ValueError``) a display name or nickname Discord would never show: empty,
    longer than 32 characters, or with spaces at either end (Discord trims them)."""
    low, high = NAME_LENGTH
    if not low <= len(name) <= high or name != name.strip():
        raise ValueError(
            f"Discord refuses the {what} {name!r}: 1 to 32 characters, no spaces at either end"
        )


class Snowflakes:
    """Discord-shaped ids: the creation time in the high bits, a counter in the low ones."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._last_ms = 0

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """A new id, unique within this emulator and increasing.

        With `shard=(shard_id, shard_count)`, the id of a guild whose events Discord sends to
        that shard (`(id >> 22) % shard_count == shard_id`): its time part moves forward to
        the next millisecond that fits.
        """
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms)
        if shard is not None:
            shard_id, count = shard
            ms += (shard_id - ms) % count
        self._last_ms = ms
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    def dated(self, seconds_ago: float) -> int:
        """A new id whose time part is ``seconds_ago`` before now (unique, by its counter; not
        in order with the others): something Discord made a while before the bot heard of it."""
        ms = int((time.time() - seconds_ago) * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


#: Slack when comparing clock times: a clock advanced by exactly a period counts as past it,
#: whatever floating point makes of the sum.
EPSILON = 1e-6


class Clock:
    """The emulator's notion of "now" for deadlines, in seconds.

    Starts at the monotonic clock; `advance` moves it forward so a test can make an interaction
    token older than 15 minutes, or a first response later than 3 seconds, without waiting,
    and `freeze` stops it (rate limit windows then end only when a test advances it).
    """

    def __init__(self, source: Callable[[], float] = time.monotonic) -> None:
        self._source = source
        self._offset = 0.0
        #: The wall clock's offset: how far `advance` moved Discord's date and time on (its
        #: scheduled events start and end by it: `wall`).
        self._wall_offset = 0.0
        self._moved: list[Callable[[], None]] = []

    def now(self) -> float:
        """Current time in seconds."""
        return self._source() + self._offset

    def wall(self) -> float:
        """Discord's date and time, as a Unix time: this machine's, moved on as far as
        `advance` moved the clock (a scheduled event starts and ends by it)."""
        return time.time() + self._wall_offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward by `seconds` (the wall clock too: what waits on a date,
        such as a scheduled event's automatic start, is looked at again)."""
        self._offset += seconds
        self._wall_offset += seconds
        for moved in list(self._moved):
            moved()

    def on_advance(self, moved: Callable[[], None]) -> None:
        """Call `moved` each time the clock is advanced."""
        self._moved.append(moved)

    def freeze(self) -> None:
        """Stop the clock where it is: from now on only `advance` moves it.

        For tests that count requests within a rate limit window on a busy machine.
        """
        stopped = self.now()
        self._source = lambda: stopped
        self._offset = 0.0


def iso_now() -> str:
    """The current time as Discord writes timestamps."""
    return datetime.now(UTC).isoformat()


#: When the request being handled reached Discord (as :func:`iso_now` writes it), before a
#: slow network's delay (``FakeDiscord.delay``) held it on its way: what the bot knew when
#: it sent it. Set for each request by the REST server; None outside one (a test's action).
REQUESTED: contextvars.ContextVar[str | None] = contextvars.ContextVar("requested", default=None)


def requested_now() -> str:
    """When the request being handled was sent (:data:`REQUESTED`), or now outside one."""
    return REQUESTED.get() or iso_now()


@dataclass(eq=False)
class User:
    """A Discord account: a person or the bot itself."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: Whether this person installed the app to their account (a user install): its
    #: commands that allow it are offered to them in DMs and group DMs the bot is not in.
    installed: bool = False

    def __post_init__(self) -> None:
        check_name(self.name, "display name")

    @property
    def mention(self) -> str:
        """How a message mentions this user."""
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    """A guild role with a permission bitfield."""

    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass(eq=False)
class Member:
    """A user's membership of a guild."""

    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None

    def __setattr__(self, key: str, value: Any) -> None:
        # (A test sets a member's nickname as Discord would let its person set it.)
        if key == "nick" and value is not None:
            check_name(value, "nickname")
        super().__setattr__(key, value)

    @property
    def permissions(self) -> int:
        """The member's guild-wide permissions (everyone role plus their own roles)."""
        perms = self.guild.everyone.permissions
        for role in self.roles:
            perms |= role.permissions
        if self.guild.owner_id == self.user.id:
            perms |= ADMINISTRATOR
        return perms


@dataclass(eq=False)
class Attachment:
    """A file sent with a message (multipart upload); `data` holds its bytes."""

    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    proxy_url: str = ""
    description: str | None = None
    width: int | None = None  # images only (PNG header)
    height: int | None = None
    #: The name as uploaded, when Discord had to change it (`uploads.stored_name`).
    title: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)


@dataclass
class MessageVersion:
    """One state of a message: what it looked like between two edits."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: str
    #: When the request that made this version was sent (``at``, less the network's delay).
    requested: str = ""

    def words(self) -> str:
        """What this version says in text (see :meth:`Message.words`)."""
        return words_of(self.content, self.components)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a message's ``components``, nested ones included (rows,
    containers, sections' accessories), in the order they are shown."""
    stack = list(reversed(components))
    while stack:
        node = stack.pop()
        yield node
        accessory = node.get("accessory")
        children = list(node.get("components", []))
        if isinstance(accessory, dict):
            children.append(accessory)
        stack.extend(reversed(children))


def words_of(content: str, components: list[dict[str, Any]]) -> str:
    """What a message (or one version of it) says in text: its content, and the text
    displays of a Components V2 layout (which has no content), a line each."""
    parts = [content] if content else []
    parts += [str(c["content"]) for c in walk_components(components) if c.get("type") == 10]
    return "\n".join(parts)


#: A link Discord previews in a message's content: ``http(s)://`` as typed (a backslash in it,
#: ``https\://``, makes it text), not in angle brackets (``<https://…>`` links without a
#: preview) nor in code; a full stop or comma after it ends the sentence, not the link.
_PREVIEWED = re.compile(r"(?<![<\\w])https?://[^\s<>)]*[^\s<>).,:;\"'\]]")
_IN_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def links_previewed(content: str, flags: int) -> list[str]:
    """The links Discord shows a preview of (an embed it builds from the page) under a message
    whose content is ``content``: none with ``SUPPRESS_EMBEDS`` in its flags."""
    if flags & SUPPRESS_EMBEDS:
        return []
    return _PREVIEWED.findall(_IN_CODE.sub(" ", content))


@dataclass(eq=False)
class Message:
    """A message in a channel, DM or thread, with its visibility and edit history."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: User | None = None
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_name: str | None = None
    #: The interaction's type (2 a command, 3 a component, 5 a modal's submission); for a
    #: component's, the message it was on; for a follow-up, the interaction's original
    #: response (its ``interaction_metadata``).
    interaction_type: int | None = None
    interacted_message_id: int | None = None
    original_response_id: int | None = None
    webhook_id: int | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    #: When the request behind the latest version was sent (:func:`requested_now`).
    requested_timestamp: str = field(default_factory=requested_now)
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    #: The thread started from this message (it has the message's id), if any.
    thread: Channel | None = None
    #: Whom the message notified when it was posted (`fakediscord.mentions`).
    pinged: Pings = field(default_factory=Pings)

    @property
    def ephemeral(self) -> bool:
        """True when only `ephemeral_for` can see this message."""
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING)

    def version(self) -> MessageVersion:
        """The message's current state as a history entry.

        The entry shares the embeds and components themselves: an edit replaces a message's
        lists with ones parsed from its request and nothing changes them in place, so no
        copy is needed (a deep copy per edit was most of the emulator's time over thousands
        of games, and most of its memory)."""
        return MessageVersion(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            at=self.edited_timestamp or self.timestamp,
            requested=self.requested_timestamp,
        )

    def visible_to(self, user: User) -> bool:
        """Whether `user` can see this message now."""
        if self.deleted:
            return False
        if self.ephemeral_for is not None:
            return self.ephemeral_for is user
        return self.channel.visible_to(user)

    def walk(self) -> Iterator[dict[str, Any]]:
        """Every component, nested ones included (rows, containers, sections' accessories),
        in the order they are shown."""
        return walk_components(self.components)

    def buttons(self) -> Iterator[dict[str, Any]]:
        """Every button on the message, in the order shown (in rows, and, in a Components V2
        layout, as sections' accessories too)."""
        for item in self.walk():
            if item.get("type") == 2:
                yield item

    def selects(self) -> Iterator[dict[str, Any]]:
        """Every select menu on the message."""
        for item in self.walk():
            if item.get("type") in (3, 5, 6, 7, 8):
                yield item

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The button or select with this custom id, if present."""
        for item in self.walk():
            if item.get("custom_id") == custom_id:
                return item
        return None

    @property
    def previews(self) -> list[str]:
        """The links in its content Discord shows a preview of under the message
        (:func:`links_previewed`)."""
        return links_previewed(self.content, self.flags)

    def words(self) -> str:
        """What the message says in text: its content, and the text displays of a Components
        V2 layout (which has no content), one after the other."""
        return words_of(self.content, self.components)

    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, and the text displays of a
        Components V2 layout, for reading in tests."""
        parts = [self.content] if self.content else []
        parts += [str(c["content"]) for c in self.walk() if c.get("type") == 10]
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        return "\n".join(parts)

    def __repr__(self) -> str:
        where = f"#{self.channel.name}"
        who = f" for {self.ephemeral_for.name}" if self.ephemeral_for else ""
        return f"<Message {self.id} in {where}{who}: {self.content[:40]!r}>"


@dataclass(eq=False)
class Channel:
    """A text, voice or stage channel, a thread or a DM channel, and the messages in it (a
    voice or stage channel's are its text chat)."""

    id: int
    name: str
    type: int
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None
    owner_id: int | None = None
    messages: list[Message] = field(default_factory=list)
    #: A thread's members (user id -> when they joined): its creator, whoever posted in it,
    #: and whoever was added. A private thread is seen by its members (and moderators) only.
    thread_members: dict[int, str] = field(default_factory=dict)
    #: A thread's state (its ``thread_metadata``): archived (closed; a message reopens it),
    #: locked (only Manage Threads may reopen it or post), and when either last changed.
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=lambda: iso_now())
    #: The people of a DM between people or of a group DM: a conversation the bot is not in.
    people: list[User] = field(default_factory=list)
    #: Permissions denied to everyone here (an @everyone overwrite; threads use their parent's).
    denied: int = 0
    #: Set once the channel is deleted (:meth:`delete`).
    deleted: bool = False
    _world: World | None = None

    @property
    def is_dm(self) -> bool:
        """True for a direct-message channel between the bot and a user."""
        return self.type == DM and not self.people

    @property
    def is_private(self) -> bool:
        """True for a DM between people or a group DM: the bot is not in it, and reaches it
        only through interactions (a user install)."""
        return bool(self.people)

    @property
    def is_thread(self) -> bool:
        """True for a thread inside a text or an announcement channel."""
        return self.type in (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_voice(self) -> bool:
        """True for a voice or stage channel (its messages are its text chat)."""
        return self.type in VOICE_TYPES

    @property
    def mention(self) -> str:
        """How a message mentions this channel."""
        return f"<#{self.id}>"

    def visible_to(self, user: User) -> bool:
        """Whether `user` can read this channel's messages: a DM its recipient; in a server,
        members with View Channel, and in a voice or stage channel Connect too (Discord: the
        chat of a voice channel needs both)."""
        if self.is_private:
            return user in self.people
        if self.is_dm:
            return user is self.recipient or bool(user.bot)
        if self.guild is None or self.guild.member(user) is None:
            return False
        needed = VIEW_CHANNEL | (CONNECT if self.is_voice else 0)
        if self.permissions_for(user) & needed != needed:
            return False
        if self.type == PRIVATE_THREAD:
            return user.id in self.thread_members or bool(
                self.permissions_for(user) & MANAGE_THREADS
            )
        return True

    def permissions_for(self, user: User) -> int:
        """`user`'s permissions in this channel (everything in a DM they are part of)."""
        if self.is_dm or self.is_private:
            return ~0 if self.visible_to(user) else 0
        member = self.guild.member(user) if self.guild is not None else None
        if member is None:
            return 0
        perms = member.permissions
        if perms & ADMINISTRATOR:
            return perms
        source = self.parent if self.is_thread and self.parent is not None else self
        return perms & ~source.denied

    def deny(self, permissions: int) -> None:
        """Deny `permissions` to everyone (the bot included) in this channel and its threads.

        For example `channel.deny(ATTACH_FILES)`: the bot's uploads here get 403 / 50013.
        """
        self.denied |= permissions
        if self._world is not None:
            self._world.on_channel_updated(self)

    def allow(self, permissions: int) -> None:
        """Give back `permissions` that :meth:`deny` took away here (a moderator's fix)."""
        self.denied &= ~permissions
        if self._world is not None:
            self._world.on_channel_updated(self)

    def add_thread(
        self,
        name: str,
        *,
        private: bool = False,
        start: Message | None = None,
        creator: User | None = None,
    ) -> Channel:
        """Create a thread under this text channel and announce it to the bot; ``start``: the
        message it is started from (the thread then has the message's id, as on Discord);
        ``creator``: who started it (its owner and first member; default the server's owner).
        An announcement channel's thread is an announcement thread (type 10), never private."""
        assert self._world is not None and self.guild is not None
        # (Discord has threads in text and announcement channels, never in a voice or stage
        # channel's chat: see the README's table, "No thread is started in a voice...".)
        assert self.type in (GUILD_TEXT, GUILD_ANNOUNCEMENT), "no thread in this channel type"
        announcement = self.type == GUILD_ANNOUNCEMENT
        assert not (announcement and private), "an announcement channel has no private thread"
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread = Channel(
            id=start.id if start is not None else self._world.ids.next(),
            name=name,
            type=ANNOUNCEMENT_THREAD if announcement else kind,
            guild=self.guild,
            parent=self,
            owner_id=creator.id if creator is not None else self.guild.owner_id,
            _world=self._world,
        )
        if creator is not None:
            thread.thread_members[creator.id] = iso_now()
        if start is not None:
            start.thread = thread
        self.guild.channels[thread.id] = thread
        self._world.channels[thread.id] = thread
        self._world.on_channel_created(thread)
        return thread

    def join(self, user: User) -> bool:
        """Make ``user`` a member of this thread; False if they were one already."""
        if user.id in self.thread_members:
            return False
        self.thread_members[user.id] = iso_now()
        return True

    def set_archived(self, archived: bool, *, locked: bool | None = None) -> None:
        """Archive (or reopen) this thread, and lock or unlock it, as a moderator would in
        the client; connected bots get THREAD_UPDATE."""
        assert self.is_thread and self._world is not None
        if locked is not None:
            self.locked = locked
        if archived != self.archived:
            self.archived = archived
            self.archive_timestamp = iso_now()
        self._world.on_channel_updated(self)

    def delete(self) -> None:
        """Delete this channel (with its threads and messages), as a server's admin would:
        every request about it answers 404 / 10003 from now on, and connected bots get
        CHANNEL_DELETE (THREAD_DELETE for a thread)."""
        assert self._world is not None and self.guild is not None
        for thread in [c for c in self.guild.channels.values() if c.parent is self]:
            thread.delete()
        self.guild.channels.pop(self.id, None)
        self._world.channels.pop(self.id, None)
        for message in self.messages:
            message.deleted = True
        self.deleted = True
        self._world.on_channel_deleted(self)

    def message(self, message_id: int) -> Message | None:
        """The message with this id in this channel (deleted ones included)."""
        for message in self.messages:
            if message.id == message_id:
                return message
        return None

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id}>"


@dataclass(eq=False)
class Guild:
    """A server with members, roles and channels."""

    id: int
    name: str
    owner_id: int
    everyone: Role
    moderator_role: Role
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    #: Roles beyond @everyone and the moderators' (the bot's own role, made by its invite).
    roles: list[Role] = field(default_factory=list)
    #: Its scheduled events (``fakediscord.events.ScheduledEvent``), in the order made.
    events: list[Any] = field(default_factory=list)
    _world: World | None = None

    def give_bot(self, permissions: int) -> Role:
        """Give the bot a role of its own with ``permissions``, as an invite that asks for
        them does (Discord makes the app a managed role with the permissions its invite link
        asked for). Give it before the bot starts, as a server invites a bot with its role: the
        bot reads its roles from GUILD_CREATE (the interactions carry them in
        ``app_permissions`` whenever they are given)."""
        assert self._world is not None
        bot = self._world.owner.bot_user
        member = self.members.get(bot.id)
        assert member is not None, "the bot is not a member of this server"
        role = Role(id=self._world.ids.next(), name=bot.name, permissions=permissions, position=2)
        self.roles.append(role)
        member.roles.append(role)
        return role

    def add_text_channel(self, name: str, *, kind: int = GUILD_TEXT) -> Channel:
        """Create a text channel (``kind``: or an announcement channel, or a voice or stage
        channel, whose messages are its text chat) and announce it to the bot."""
        assert self._world is not None and kind in (GUILD_TEXT, GUILD_ANNOUNCEMENT, *VOICE_TYPES)
        channel = Channel(
            id=self._world.ids.next(), name=name, type=kind, guild=self, _world=self._world
        )
        self.channels[channel.id] = channel
        self._world.channels[channel.id] = channel
        self._world.on_channel_created(channel)
        return channel

    def add_announcement_channel(self, name: str) -> Channel:
        """Create an announcement channel (type 5) and announce it to the bot."""
        return self.add_text_channel(name, kind=GUILD_ANNOUNCEMENT)

    def add_voice_channel(self, name: str) -> Channel:
        """Create a voice channel (type 2) and announce it to the bot."""
        return self.add_text_channel(name, kind=GUILD_VOICE)

    def add_stage_channel(self, name: str) -> Channel:
        """Create a stage channel (type 13) and announce it to the bot."""
        return self.add_text_channel(name, kind=GUILD_STAGE_VOICE)

    def deny(self, permissions: int) -> None:
        """Take `permissions` from @everyone in this guild (the bot's own permissions too)."""
        self.everyone.permissions &= ~permissions
        if self._world is not None:
            self._world.on_role_updated(self, self.everyone)

    def add_member(self, user: User, *, moderator: bool = False) -> Member:
        """Add `user` to this guild (as a moderator: manage messages, channels, guild)."""
        assert self._world is not None
        member = Member(user=user, guild=self, roles=[self.moderator_role] if moderator else [])
        self.members[user.id] = member
        self._world.on_member_added(member)
        return member

    def member(self, user: User) -> Member | None:
        """The membership of `user`, if they are in this guild."""
        return self.members.get(user.id)

    def set_moderator(self, user: User, moderator: bool = True) -> None:
        """Give a member the moderator role (manage messages, channels, guild), or take it.
        Their next interaction carries the new permissions; the bot hears nothing else of it
        (Discord's GUILD_MEMBER_UPDATE needs the GUILD_MEMBERS intent)."""
        member = self.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.name} is not a member of {self.name}.")
        member.roles = [r for r in member.roles if r is not self.moderator_role]
        if moderator:
            member.roles.append(self.moderator_role)

    def remove_member(self, user: User) -> None:
        """`user` leaves this guild (or is removed). They no longer see its channels, and
        `GET /guilds/{id}/members/{user}` answers 404 / 10007; the bot hears of it only with
        the GUILD_MEMBERS intent (GUILD_MEMBER_REMOVE), as on Discord."""
        assert self._world is not None
        member = self.members.pop(user.id, None)
        if member is not None:
            self._world.on_member_removed(member)

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


class World:
    """All users, guilds and channels of one emulator, and the hooks that announce changes."""

    def __init__(self, owner: FakeDiscord) -> None:
        self.owner = owner
        self.ids = Snowflakes()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        #: Each user's DM channel with the bot, by user id (looked up at every DM: a scan of
        #: every channel made a soak of thousands of players slower and slower).
        self._dms: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}

    def on_channel_created(self, channel: Channel) -> None:
        """Tell connected bots about a channel added after they started."""
        self.owner._announce_channel(channel)

    def on_member_added(self, member: Member) -> None:
        """Tell connected bots about a member added after they started."""
        self.owner._announce_member(member)

    def on_channel_deleted(self, channel: Channel) -> None:
        """Tell connected bots a channel (or thread) was deleted."""
        self.owner._announce_channel_deleted(channel)

    def on_member_removed(self, member: Member) -> None:
        """Tell connected bots (with the members intent) that a member left."""
        self.owner._announce_member_removed(member)

    def on_channel_updated(self, channel: Channel) -> None:
        """Tell connected bots a channel changed (its permissions)."""
        self.owner._announce_channel(channel, update=True)

    def on_role_updated(self, guild: Guild, role: Role) -> None:
        """Tell connected bots a role changed (its permissions)."""
        self.owner._announce_role(guild, role)

    def private_channel(self, *people: User, name: str = "") -> Channel:
        """A conversation between ``people`` that the bot is not in: a DM between two people,
        or a group DM of three to ten (Discord's limit for a group DM)."""
        if not 2 <= len(people) <= 10 or len(set(map(id, people))) != len(people):
            raise ValueError("A DM is between two people; a group DM has three to ten.")
        if any(person.bot for person in people):
            raise ValueError("The bot is never in a private channel here: use dm_channel().")
        kind = DM if len(people) == 2 else GROUP_DM
        label = name or "-".join(person.name for person in people)
        channel = Channel(id=self.ids.next(), name=label, type=kind, people=list(people))
        channel._world = self
        self.channels[channel.id] = channel
        return channel

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user`, created on first use."""
        known = self._dms.get(user.id)
        if known is not None:
            return known
        channel = Channel(id=self.ids.next(), name=f"dm-{user.name}", type=DM, recipient=user)
        channel._world = self
        self.channels[channel.id] = channel
        self._dms[user.id] = channel
        return channel
