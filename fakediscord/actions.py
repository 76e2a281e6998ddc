"""What a test (or the playground) does as a Discord user: commands, clicks, selects, modals.

Each action is checked the way the Discord client checks it (the user can see the channel, the
command is offered here, the button exists and is enabled, the values are options), then
delivered as INTERACTION_CREATE; by default it returns once the bot has answered.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from fakediscord.activities import APP_HANDLER, PRIMARY_ENTRY_POINT
from fakediscord.commands import CommandRegistry, check_available, parse_line
from fakediscord.errors import (
    EmulatorUsageError,
    NoResponse,
)
from fakediscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    answers_privately,
    authorizing_owners,
    build_payload,
)
from fakediscord.model import (
    MEMBER_PERMISSIONS,
    Channel,
    Message,
    User,
)
from fakediscord.shared import SharedState
from fakediscord.threads import check_post

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

T = TypeVar("T")

#: Seconds an action waits for a deferred answer ("thinking") to be made before it returns
#: anyway (the returned interaction says whether it is ``settled``).
SETTLE_WITHIN = 30.0


class UserActions(SharedState):
    """The user-facing half of `FakeDiscord` (mixed in; the state lives on `FakeDiscord`)."""

    commands: CommandRegistry

    if TYPE_CHECKING:
        # Provided by FakeDiscord (or the other half); declared for the type checker only.
        def check_health(self) -> None: ...

        async def wait_for(
            self, predicate: Callable[[], T], timeout: float = 5.0, *, stall: float | None = None
        ) -> T: ...

        def _store(self, message: Message) -> None: ...

        async def _dispatch_message(self, event: str, message: Message) -> None: ...

    def _check_can_act(self, user: User, channel: Channel) -> None:
        if not channel.visible_to(user) or user.bot:
            raise EmulatorUsageError(f"{user.name} cannot use #{channel.name}")

    def _check_can_command(self, user: User, channel: Channel) -> None:
        # Discord: "Users cannot ... use application commands ... in archived threads".
        self._check_can_act(user, channel)
        if channel.is_thread and channel.archived:
            raise EmulatorUsageError(f"#{channel.name} is archived: no commands there")

    async def _deliver(
        self,
        *,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        name: str,
        source: Message | None = None,
        wait: bool = True,
        timeout: float | None = None,
        made_ago: float = 0.0,
    ) -> Interaction:
        self.check_health()
        guild_id = channel.guild.id if channel.guild is not None else None
        if not self.gateway.identified(guild_id):
            # A session that is only disconnected still gets the event: it is replayed on
            # RESUME. One Discord invalidated does not (it is lost, and the user is told the
            # interaction failed), until the bot identifies again.
            shard = f" on the shard of {channel.guild.name}" if channel.guild is not None else ""
            raise EmulatorUsageError(f"No bot has connected to the gateway{shard}.")
        interaction = Interaction(
            # (Made ``made_ago`` seconds before the bot hears of it: a bot whose process was
            # frozen, or whose event loop was held up, reads its gateway late.)
            id=self.world.ids.dated(made_ago) if made_ago else self.world.ids.next(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            created_at=self.clock.now() - made_ago,
            data=data,
            name=name,
            source_message=source,
            _owner=cast("FakeDiscord", self),
        )
        interaction.owners = authorizing_owners(interaction, self.bot_user)
        interaction.answers_privately = answers_privately(interaction, self.bot_user)
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        payload = build_payload(
            interaction,
            application_id=self.application_id,
            app_permissions=self._bot_permissions(channel),
            bot=self.bot_user,
        )
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        if wait:
            limit = timeout if timeout is not None else self.response_deadline + 2.0
            try:
                await self.wait_for(lambda: interaction.response is not None, timeout=limit)
            except TimeoutError:
                raise NoResponse(
                    f"the bot did not answer {interaction!r} within {limit}s"
                ) from None
            if not interaction.settled:
                # A deferred answer ("thinking") is waited for as a person would wait, so a
                # test reads the answer whether or not a busy machine made the bot defer it.
                with contextlib.suppress(TimeoutError):
                    await interaction.wait_settled(timeout=SETTLE_WITHIN)
        return interaction

    def _bot_permissions(self, channel: Channel) -> int:
        if channel.guild is None:
            return MEMBER_PERMISSIONS
        return channel.permissions_for(self.bot_user)

    async def slash(
        self,
        user: User,
        channel: Channel,
        line: str,
        *,
        wait: bool = True,
        timeout: float | None = None,
        made_ago: float = 0.0,
    ) -> Interaction:
        """Type a slash command as `user` in `channel`; return once the bot answers.

        The line is read against the schema the bot synced (`/cribbage play card:5H`).
        ``made_ago``: the bot hears of it that many seconds after Discord made it (past 3 s,
        Discord has told the user it failed and takes no answer).
        """
        return await self._typed(
            APPLICATION_COMMAND, user, channel, line, wait, timeout, made_ago=made_ago
        )

    async def launch(
        self, user: User, channel: Channel, *, wait: bool = True, timeout: float | None = None
    ) -> Interaction:
        """Invoke the app's Entry Point command as `user` in `channel` (the App Launcher's
        button), whose handler is the app's (``APP_HANDLER``): the app answers, with
        ``LAUNCH_ACTIVITY`` to open its Activity (``r.activity_instance``). With
        ``DISCORD_LAUNCH_ACTIVITY`` no interaction reaches the app: Discord opens the Activity
        itself (``fd.activities.launch(user, channel)``)."""
        self._check_can_command(user, channel)
        command = self.commands.entry_point()
        if command is None:
            raise EmulatorUsageError("The app has no Entry Point command.")
        refused = self.activities.refusal(user, channel)
        if refused is not None:
            # (The client offers no App Launcher where no Activity can run: a stage channel.)
            raise EmulatorUsageError(refused)
        if command.get("handler", APP_HANDLER) != APP_HANDLER:
            raise EmulatorUsageError(
                "Discord handles this Entry Point command: fd.activities.launch(user, channel)"
            )
        check_available(command, channel, user, self.bot_user)
        data = {"id": command["id"], "name": command["name"], "type": PRIMARY_ENTRY_POINT}
        return await self._deliver(
            kind=APPLICATION_COMMAND,
            user=user,
            channel=channel,
            data=data,
            name=command["name"],
            wait=wait,
            timeout=timeout,
        )

    async def autocomplete(
        self, user: User, channel: Channel, line: str, *, timeout: float | None = None
    ) -> list[dict[str, Any]]:
        """Type a partial command; the last option typed is focused. Returns the choices."""
        interaction = await self._typed(AUTOCOMPLETE, user, channel, line, True, timeout)
        return list(interaction.choices or [])

    async def _typed(
        self,
        kind: int,
        user: User,
        channel: Channel,
        line: str,
        wait: bool,
        timeout: float | None,
        *,
        made_ago: float = 0.0,
    ) -> Interaction:
        """Deliver ``line``, typed by ``user`` in ``channel`` and read against the schema the
        bot synced, as a command (``kind`` APPLICATION_COMMAND) or, with its last option
        focused, as an autocomplete."""
        self._check_can_command(user, channel)
        focus = kind == AUTOCOMPLETE
        typed = parse_line(line, self.commands, self.world, channel, user, focus=focus)
        return await self._deliver(
            kind=kind,
            user=user,
            channel=channel,
            data=typed.data(),
            name=typed.qualified_name,
            wait=wait,
            timeout=timeout,
            made_ago=made_ago,
        )

    def _find_component(
        self, user: User, message: Message, custom_id: str | None, label: str | None
    ) -> dict[str, Any]:
        if not message.visible_to(user):
            raise EmulatorUsageError(f"{user.name} cannot see message {message.id}")
        for item in [*message.buttons(), *message.selects()]:
            if custom_id is not None and item.get("custom_id") == custom_id:
                return item
            if label is not None and item.get("label") == label:
                return item
        wanted = custom_id if custom_id is not None else f'labelled "{label}"'
        raise EmulatorUsageError(f"message {message.id} has no component {wanted}")

    def _enabled(
        self, user: User, message: Message, custom_id: str | None, label: str | None, kind: int
    ) -> dict[str, Any]:
        """The component ``user`` means to use: of ``kind`` (2, a button; 3, a string select),
        and enabled, since Discord lets nobody use a disabled one."""
        item = self._find_component(user, message, custom_id, label)
        what = "button" if kind == 2 else "string select menu"
        if item.get("type") != kind:
            raise EmulatorUsageError(f"{item.get('custom_id')} is not a {what}")
        if item.get("disabled"):
            raise EmulatorUsageError(f'{what} "{item.get("label") or custom_id}" is disabled')
        return item

    async def _component_used(
        self,
        user: User,
        source: Message,
        data: dict[str, Any],
        wait: bool,
        timeout: float | None,
        made_ago: float = 0.0,
    ) -> Interaction:
        """Deliver the use of the component of ``source`` that ``data`` names (its custom id)."""
        return await self._deliver(
            kind=MESSAGE_COMPONENT,
            user=user,
            channel=source.channel,
            data=data,
            name=data["custom_id"],
            source=source,
            wait=wait,
            timeout=timeout,
            made_ago=made_ago,
        )

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float | None = None,
        made_ago: float = 0.0,
    ) -> Interaction:
        """Press a button (by custom id or label) on `message` as `user` (``made_ago``: see
        :meth:`slash`)."""
        button = self._enabled(user, message, custom_id, label, 2)
        if "custom_id" not in button:
            raise EmulatorUsageError("link buttons open a URL; they send no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._component_used(user, message, data, wait, timeout, made_ago)

    async def forged_click(
        self,
        user: User,
        message: Message,
        custom_id: str,
        *,
        values: list[str] | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """A click on a component that is not on `message`, with `custom_id` (a button, or a
        string select with `values`): what Discord never delivers (it checks custom ids
        against the message), for testing that a bot does not depend on that alone. The
        payload's copy of `message` carries the forged component, so the client routes it."""
        if not message.visible_to(user):
            raise EmulatorUsageError(f"{user.name} cannot see message {message.id}")
        if values is None:
            item: dict[str, Any] = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        else:
            options = [{"label": v, "value": v} for v in values] or [{"label": "-", "value": "-"}]
            item = {"type": 3, "custom_id": custom_id, "options": options}
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        copy = dataclasses.replace(message, components=[{"type": 1, "components": [item]}])
        return await self._component_used(user, copy, data, wait, timeout)

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
        timeout: float | None = None,
        made_ago: float = 0.0,
    ) -> Interaction:
        """Choose `values` in the select menu `custom_id` on `message` as `user` (``made_ago``:
        see :meth:`slash`)."""
        menu = self._enabled(user, message, custom_id, None, 3)
        allowed = [o["value"] for o in menu.get("options", [])]
        wrong = [v for v in values if v not in allowed]
        if wrong:
            raise EmulatorUsageError(
                f"{', '.join(wrong)}: not options of {custom_id} (options: {', '.join(allowed)})"
            )
        low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
        if not low <= len(values) <= high or len(set(values)) != len(values):
            raise EmulatorUsageError(f"choose between {low} and {high} distinct options")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._component_used(user, message, data, wait, timeout, made_ago)

    async def submit_modal(
        self,
        user: User,
        opened_by: Interaction,
        values: dict[str, str],
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Fill in and submit the modal the bot opened in answer to `opened_by`."""
        modal = opened_by.modal
        if modal is None:
            raise EmulatorUsageError(f"{opened_by!r} opened no modal")
        rows = []
        for row in modal.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            for item in inner:
                if item.get("type") == 4:
                    value = values.get(item["custom_id"], item.get("value") or "")
                    if item.get("required", True) and not value:
                        named = item.get("label") or row.get("label") or item["custom_id"]
                        raise EmulatorUsageError(f"{named} is required")
                    text = {"type": 4, "custom_id": item["custom_id"], "value": value}
                    if row.get("type") == 18:  # a Label wrapping the input (components v2)
                        rows.append({"type": 18, "component": text})
                    else:
                        rows.append({"type": 1, "components": [text]})
        return await self._deliver(
            kind=MODAL_SUBMIT,
            user=user,
            channel=opened_by.channel,
            data={"custom_id": modal["custom_id"], "components": rows},
            name=modal["custom_id"],
            source=opened_by.source_message,
            wait=wait,
            timeout=timeout,
        )

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """Post an ordinary message as `user` (MESSAGE_CREATE reaches bots with the intent)."""
        self._check_can_act(user, channel)
        if check_post(channel, user):
            self.world.on_channel_updated(channel)  # the message reopened the thread
        message = Message(id=self.world.ids.next(), channel=channel, author=user, content=content)
        self._store(message)
        await self._dispatch_message("MESSAGE_CREATE", message)
        return message

    # --- reading what users see ----------------------------------------------------------

    def visible_to(self, user: User, channel: Channel) -> list[Message]:
        """Messages `user` sees in `channel` now, oldest first (their ephemerals included)."""
        return [m for m in channel.messages if m.visible_to(user)]

    def dms(self, user: User) -> list[Message]:
        """Messages in the DM channel between the bot and `user`, oldest first."""
        return [m for m in self.world.dm_channel(user).messages if not m.deleted]

    def messages(self, channel: Channel) -> list[Message]:
        """Every message in `channel`, deleted and ephemeral ones included."""
        return list(channel.messages)
