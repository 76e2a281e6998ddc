"""Interactions: the record of one slash command, autocomplete, click or modal, and its payload.

An `Interaction` is what the test API returns: it fills in as the bot answers (the first
callback, the original response message, follow-ups, autocomplete choices, a modal), so a test
can read `r.response.type`, `r.original.content`, `r.ephemeral` or wait for `r.followups`.
"""

from __future__ import annotations

import asyncio
import copy
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fakediscord import payloads
from fakediscord.model import USE_EXTERNAL_APPS, Channel, Message, User

if TYPE_CHECKING:
    from fakediscord.activities import Instance
    from fakediscord.server import FakeDiscord

#: A wait for the bot left at its default (:meth:`FakeDiscord.wait_for`,
#: :meth:`Interaction.wait_for`) lasts while the bot keeps working towards what it waits for,
#: and fails once the bot has made no request to Discord for this many seconds: the bot's own
#: pauses are far shorter (a channel's pacing, 5 edits per 5 s; a retry, 2 s; another process
#: taking over as the sender, 5 s), and a busy machine stretches them, where a bound of 5 s on
#: the whole wait failed now and then with what it waited for on its way.
STALL = 20.0
#: The most such a wait lasts while the bot keeps working without getting there.
WAIT_AT_MOST = 120.0

# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Callback types.
MESSAGE = 4
DEFERRED_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
#: Open the app's Activity (only for an app that has one).
LAUNCH_ACTIVITY = 12

#: Follow-ups an interaction takes when only a user install authorised it (Discord, "Create
#: Followup Message").
USER_INSTALL_FOLLOWUPS = 5

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {
        MESSAGE,
        DEFERRED_MESSAGE,
        DEFERRED_UPDATE,
        UPDATE_MESSAGE,
        MODAL,
        LAUNCH_ACTIVITY,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, LAUNCH_ACTIVITY},
}


class _Responded(ABC):
    """What a test reads of the message an interaction's response shows, its original
    response (a message it posted, or the one a component's update is of): none for a
    modal or autocomplete choices."""

    @property
    @abstractmethod
    def _response_message(self) -> Message | None: ...

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is visible only to the user who interacted."""
        message = self._response_message
        return message is not None and message.ephemeral

    @property
    def content(self) -> str:
        """The response message's current content ('' when there is none)."""
        message = self._response_message
        return message.content if message is not None else ""

    def words(self) -> str:
        """What the response message says in text now (:meth:`Message.words`: its content,
        or a Components V2 layout's text displays; '' when there is none)."""
        message = self._response_message
        return message.words() if message is not None else ""


@dataclass
class Callback(_Responded):
    """The bot's first (and only) response to an interaction."""

    type: int
    data: dict[str, Any]
    message: Message | None

    @property
    def _response_message(self) -> Message | None:
        return self.message

    @property
    def components(self) -> list[dict[str, Any]]:
        """The response message's current components."""
        return self.message.components if self.message is not None else []


@dataclass(eq=False)
class Interaction(_Responded):
    """One interaction delivered to the bot, and everything the bot did in answer."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    created_at: float
    data: dict[str, Any]
    name: str
    source_message: Message | None = None
    response: Callback | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    late: bool = False
    answered_at: float | None = None
    #: For a deferred update (type 6): how many earlier versions the clicked message had then.
    edits_when_deferred: int | None = None
    #: ``authorizing_integration_owners`` as the payload carried it: ``"0"`` (a guild
    #: install: the guild's id, or ``"0"`` in the bot's DM) and/or ``"1"`` (a user's install).
    owners: dict[str, str] = field(default_factory=dict)
    #: Whether Discord makes every response and follow-up ephemeral: a user install used in
    #: a server that did not install the app, by someone without Use External Apps there.
    answers_privately: bool = False
    #: Create Followup Message requests accepted so far (the one that completes a
    #: "thinking" deferral included).
    followups_made: int = 0
    #: The Activity a LAUNCH_ACTIVITY answer opened for the user (the instance they are in).
    activity_instance: Instance | None = None
    _owner: FakeDiscord | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def user_installed_only(self) -> bool:
        """Whether only a user install authorised this interaction (the app is not installed
        where it was used): Discord then takes at most 5 follow-ups."""
        return set(self.owners) == {"1"}

    @property
    def token_lapsed(self) -> bool:
        """Whether its token no longer works: Discord takes an interaction's token for 15
        minutes (``token_lifetime``, on the emulator's clock; for ever while
        ``Limits.token_expiry`` is off). What it reaches: :meth:`messages`."""
        owner = self._owner
        assert owner is not None
        expired = owner.clock.now() - self.created_at > owner.token_lifetime
        return expired and owner.limits.token_expiry

    @property
    def latency(self) -> float | None:
        """Seconds from delivery to the bot's first response (None while unanswered)."""
        return None if self.answered_at is None else self.answered_at - self.created_at

    @property
    def _response_message(self) -> Message | None:
        return self.original

    def messages(self) -> list[Message]:
        """The original response (if any) and the follow-ups, in order, deleted ones left out."""
        found = [self.original] if self.original is not None else []
        found.extend(self.followups)
        return [m for m in found if not m.deleted]

    async def wait_for(
        self, predicate: Callable[[Interaction], Any], timeout: float | None = None
    ) -> Any:
        """Wait until `predicate(self)` is truthy (e.g. a follow-up or an edit has arrived):
        as :meth:`FakeDiscord.wait_for` waits (while the bot keeps working, see `STALL`; at
        most `timeout` seconds when one is given)."""
        assert self._owner is not None
        return await self._owner.wait_for(lambda: predicate(self), timeout=timeout)

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[Message]:
        """Wait until at least `count` follow-ups were sent; return them."""
        await self.wait_for(lambda i: len(i.followups) >= count, timeout=timeout)
        return list(self.followups)

    @property
    def settled(self) -> bool:
        """Whether the answer is made: answered, and not a deferral still waiting for it (a
        "thinking" one is settled once its message is edited, or deleted for a follow-up; a
        deferred update once the clicked message is edited or a follow-up is sent)."""
        if self.response is None:
            return False
        original = self.original
        if self.response.type == DEFERRED_UPDATE:
            edits = self.edits_when_deferred or 0
            return bool(self.followups) or (original is not None and len(original.history) > edits)
        if self.response.type != DEFERRED_MESSAGE:
            return True
        if original is not None and original.deleted:
            return bool(self.followups)
        return original is not None and not original.loading

    async def wait_settled(self, timeout: float | None = None) -> Message | None:
        """Wait until a deferred response is no longer "thinking"; return the original."""
        await self.wait_for(lambda i: i.settled, timeout=timeout)
        return self.original

    def __repr__(self) -> str:
        kind = {2: "slash", 3: "component", 4: "autocomplete", 5: "modal"}.get(self.type, "?")
        answer = self.response.type if self.response else None
        return f"<Interaction {kind} {self.name!r} by {self.user.name} answered={answer}>"


def _installer(interaction: Interaction) -> User:
    """Whose user install an interaction runs on: the person who typed the command, or, for a
    component, the one whose command made the message it is on."""
    source = interaction.source_message
    installer = source.interaction_user if source is not None else None
    return installer if installer is not None else interaction.user


def authorizing_owners(interaction: Interaction, bot: User) -> dict[str, str]:
    """``authorizing_integration_owners`` for ``interaction``: the guild install (``"0"``)
    where the bot is in the server, or in its own DM (value ``"0"`` there); the user install
    (``"1"``) of whoever's command made the message clicked, else of the one who typed, where
    the bot is not (and in the bot's DM, for someone who installed the app)."""
    channel = interaction.channel
    if channel.guild is not None and channel.guild.member(bot) is not None:
        return {"0": str(channel.guild.id)}
    if channel.guild is not None or channel.is_private:
        # A server that did not invite the bot, a DM between people or a group DM: only
        # someone's user install reaches it.
        return {"1": str(_installer(interaction).id)}
    owners = {"0": "0"}
    if interaction.user.installed:
        owners["1"] = str(interaction.user.id)
    return owners


def answers_privately(interaction: Interaction, bot: User) -> bool:
    """Whether Discord forces ``interaction``'s responses to be ephemeral: in a server that did
    not install the app, for someone whose permissions in the channel lack Use External Apps."""
    channel = interaction.channel
    guild = channel.guild
    if guild is None or guild.member(bot) is not None:
        return False
    return not channel.permissions_for(interaction.user) & USE_EXTERNAL_APPS


def build_payload(
    interaction: Interaction,
    *,
    application_id: int,
    app_permissions: int,
    bot: User,
) -> dict[str, Any]:
    """The INTERACTION_CREATE payload for `interaction`, in the shape discord.py 2.7 reads."""
    channel = interaction.channel
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(application_id),
        "type": interaction.type,
        "token": interaction.token,
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
        "app_permissions": str(app_permissions),
        "locale": "en-US",
        "entitlements": [],
        "channel_id": str(channel.id),
        "data": copy.deepcopy(interaction.data),
    }
    channel_payload = payloads.channel(channel)
    owners = dict(interaction.owners) or authorizing_owners(interaction, bot)
    if channel.guild is not None:
        member = channel.guild.member(interaction.user)
        assert member is not None
        # "total permissions of the member in the channel, including overwrites, returned
        # when in the interaction object" (Discord, the guild member object).
        here = str(channel.permissions_for(interaction.user))
        channel_payload["permissions"] = here
        member_payload = payloads.member(member, with_permissions=True)
        member_payload["permissions"] = here
        payload.update(
            guild_id=str(channel.guild.id),
            guild_locale="en-US",
            guild={"id": str(channel.guild.id), "locale": "en-US", "features": []},
            member=member_payload,
            context=0,
            authorizing_integration_owners=owners,
        )
    elif channel.is_private:
        # A DM between people or a group DM: only a user install reaches it.
        payload.update(
            user=payloads.user(interaction.user),
            context=2,
            authorizing_integration_owners=owners,
        )
    else:
        payload.update(
            user=payloads.user(interaction.user),
            context=1,
            authorizing_integration_owners=owners,
        )
    payload["channel"] = channel_payload
    if interaction.source_message is not None:
        # A snapshot taken now: later edits must not leak into this click's payload.
        payload["message"] = payloads.message(interaction.source_message)
    return payload
