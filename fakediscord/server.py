"""`FakeDiscord`: the emulator a test or the playground starts, and the API tests drive it with.

It owns the aiohttp server (REST and gateway on 127.0.0.1), the world model, the synced
commands, the interactions and the faults. Test-facing methods act as a Discord user would
(`slash`, `autocomplete`, `click`, `select`, `submit_modal`, `say`) and read what each user sees
(`visible_to`, `dms`). Methods starting with `_` are the model operations the REST handlers call.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from fakediscord import payloads
from fakediscord.commands import CommandRegistry, parse_line
from fakediscord.errors import (
    BotFailure,
    DiscordError,
    EmulatorUsageError,
    NoResponse,
    already_acknowledged,
    form_error,
    invalid_form,
    invalid_webhook_token,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)
from fakediscord.faults import Fault, FaultBook
from fakediscord.gateway import Gateway
from fakediscord.interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Callback,
    Interaction,
    build_payload,
)
from fakediscord.limits import check_message
from fakediscord.model import (
    EPHEMERAL,
    LOADING,
    MEMBER_PERMISSIONS,
    MODERATOR_PERMISSIONS,
    Attachment,
    Channel,
    Clock,
    Guild,
    Member,
    Message,
    Role,
    User,
    World,
    iso_now,
)
from fakediscord.rest import middleware, routes

T = TypeVar("T")

GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15


@dataclass
class RequestRecord:
    """One REST request the bot made and the status it got."""

    route: str
    status: int
    code: int | None = None


class FakeDiscord:
    """A local Discord: REST and gateway on 127.0.0.1, a world of users and channels, a test API.

    `response_deadline` (3 s) and `token_lifetime` (15 min) are Discord's interaction clocks,
    measured on `clock`; lower them or `clock.advance()` to test them quickly.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        bot_name: str = "Cribbage",
        clock: Clock | None = None,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
    ) -> None:
        self.host = host
        self.port = port
        self.clock = clock or Clock()
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.world = World(self)
        self.commands = CommandRegistry(self.world.ids)
        self.gateway = Gateway(self)
        self.faults = FaultBook()
        self.requests: list[RequestRecord] = []
        self.unhandled: list[str] = []
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.bot_token = "fakediscord." + secrets.token_urlsafe(24)
        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = self._new_user("Owner")
        self._changed = asyncio.Event()
        self._health_checks: list[Callable[[], str | None]] = []
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        """Start serving on `host` (a free port unless one was given)."""
        app = web.Application(middlewares=[middleware(self)], client_max_size=64 * 1024 * 1024)
        app.add_routes(routes(self))
        app.router.add_get("/gw", self.gateway.handle)
        app.router.add_get("/gw/", self.gateway.handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def close(self) -> None:
        """Close gateway connections and stop the server."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT`."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for `discord.http.Route.BASE` / `DISCORD_API_BASE`."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for `DiscordWebSocket.DEFAULT_GATEWAY` / `DISCORD_GATEWAY_URL`."""
        return f"ws://{self.host}:{self.port}/gw/"

    # --- building the world ------------------------------------------------------------------

    def _new_user(self, name: str, *, bot: bool = False) -> User:
        user = User(id=self.world.ids.next(), name=name, bot=bot)
        self.world.users[user.id] = user
        return user

    def add_user(self, name: str) -> User:
        """A new Discord user (a person) called `name`."""
        return self._new_user(name)

    def add_guild(self, name: str, *, owner: User | None = None) -> Guild:
        """A new guild; the bot is a member. Announced to a connected bot at once."""
        ids = self.world.ids
        guild_id = ids.next()
        guild = Guild(
            id=guild_id,
            name=name,
            owner_id=(owner or self.owner_user).id,
            everyone=Role(id=guild_id, name="@everyone", permissions=MEMBER_PERMISSIONS),
            moderator_role=Role(
                id=ids.next(), name="Moderator", permissions=MODERATOR_PERMISSIONS, position=1
            ),
            _world=self.world,
        )
        guild.members[self.bot_user.id] = Member(user=self.bot_user, guild=guild)
        if owner is not None:
            guild.members[owner.id] = Member(user=owner, guild=guild)
        self.world.guilds[guild.id] = guild
        if self.gateway.session is not None:
            self._spawn(self.gateway.dispatch("GUILD_CREATE", payloads.guild_create(guild)))
        return guild

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (for typing commands in DMs)."""
        return self.world.dm_channel(user)

    def _announce_channel(self, channel: Channel) -> None:
        if self.gateway.session is not None and channel.guild is not None:
            event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
            data = payloads.channel(channel)
            if channel.is_thread:
                data["newly_created"] = True
            self._spawn(self.gateway.dispatch(event, data))

    def _announce_member(self, member: Member) -> None:
        if self.gateway.session is not None:
            data = payloads.member(member) | {"guild_id": str(member.guild.id)}
            self._spawn(self.gateway.dispatch("GUILD_MEMBER_ADD", data))

    def _spawn(self, coro: Any) -> None:
        # Announcements are fire-and-forget from synchronous builders; keep a reference so the
        # task is not collected before it runs.
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- faults --------------------------------------------------------------------------------

    def close_dms(self, user: User) -> None:
        """From now on the bot's DMs to `user` fail with 403 / 50007."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        """Let the bot DM `user` again."""
        user.dms_open = True

    def rate_limit(
        self, route: str, times: int = 1, retry_after: float = 0.05, *, is_global: bool = False
    ) -> Fault:
        """Answer the next `times` requests matching `route` with 429 (with `Via`)."""
        return self.faults.add(
            Fault(re.compile(route), times, 429, retry_after=retry_after, is_global=is_global)
        )

    def fail(
        self, route: str, status: int = 500, times: int = 1, *, code: int = 0, message: str = ""
    ) -> Fault:
        """Answer the next `times` requests matching `route` with `status` (and `code`)."""
        return self.faults.add(Fault(re.compile(route), times, status, code=code, message=message))

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway connection; the client reconnects and RESUMEs."""
        await self.gateway.drop(code)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT."""
        await self.gateway.request_reconnect()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (not resumable: the client identifies again)."""
        await self.gateway.invalidate(resumable=resumable)

    # --- health and waiting ----------------------------------------------------------------

    def add_health_check(self, check: Callable[[], str | None]) -> Callable[[], None]:
        """Register a check returning a failure description (or None); returns a remover."""
        self._health_checks.append(check)
        return lambda: self._health_checks.remove(check) if check in self._health_checks else None

    def check_health(self) -> None:
        """Raise `BotFailure` if a registered check reports a failure (bot error, crash)."""
        for check in list(self._health_checks):
            problem = check()
            if problem:
                raise BotFailure(problem)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Wait until `predicate()` is truthy and return its value; fail on timeout or bot error.

        Use it for effects the bot causes on its own time, e.g. a DM after a click.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.check_health()
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=min(remaining, 0.05))

    async def quiet(self, period: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until the bot has made no REST request for `period` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            count = len(self.requests)
            await asyncio.sleep(period)
            self.check_health()
            if len(self.requests) == count:
                return
        raise TimeoutError(f"the bot kept making requests for {timeout}s")

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified and received every GUILD_CREATE."""
        await self.wait_for(lambda: self.gateway.connected and self.gateway.ready.is_set(), timeout)

    # --- acting as users ---------------------------------------------------------------------

    def _check_can_act(self, user: User, channel: Channel) -> None:
        if not channel.visible_to(user) or user.bot:
            raise EmulatorUsageError(f"{user.name} cannot use #{channel.name}")

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
    ) -> Interaction:
        self.check_health()
        if self.gateway.session is None:
            # A session that is only disconnected still gets the event: it is replayed on RESUME.
            raise EmulatorUsageError("No bot has connected to the gateway.")
        interaction = Interaction(
            id=self.world.ids.next(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            created_at=self.clock.now(),
            data=data,
            name=name,
            source_message=source,
            _owner=self,
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        payload = build_payload(
            interaction,
            application_id=self.application_id,
            app_permissions=self._bot_permissions(channel),
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
        return interaction

    def _bot_permissions(self, channel: Channel) -> int:
        if channel.guild is None:
            return MEMBER_PERMISSIONS
        member = channel.guild.member(self.bot_user)
        return member.permissions if member else 0

    async def slash(
        self,
        user: User,
        channel: Channel,
        line: str,
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Type a slash command as `user` in `channel`; return once the bot answers.

        The line is read against the schema the bot synced (`/cribbage play card:5H`).
        """
        self._check_can_act(user, channel)
        typed = parse_line(line, self.commands, self.world, channel, user)
        return await self._deliver(
            kind=APPLICATION_COMMAND,
            user=user,
            channel=channel,
            data=typed.data(),
            name=typed.qualified_name,
            wait=wait,
            timeout=timeout,
        )

    async def autocomplete(
        self, user: User, channel: Channel, line: str, *, timeout: float | None = None
    ) -> list[dict[str, Any]]:
        """Type a partial command; the last option typed is focused. Returns the choices."""
        self._check_can_act(user, channel)
        typed = parse_line(line, self.commands, self.world, channel, user, focus=True)
        interaction = await self._deliver(
            kind=AUTOCOMPLETE,
            user=user,
            channel=channel,
            data=typed.data(),
            name=typed.qualified_name,
            timeout=timeout,
        )
        return list(interaction.choices or [])

    def _find_component(
        self, user: User, message: Message, custom_id: str | None, label: str | None
    ) -> dict[str, Any]:
        if not message.visible_to(user):
            raise EmulatorUsageError(f"{user.name} cannot see {message!r}")
        for row in message.components:
            items: list[dict[str, Any]] = row.get("components", [])
            for item in items:
                if custom_id is not None and item.get("custom_id") == custom_id:
                    return item
                if label is not None and item.get("label") == label:
                    return item
        wanted = custom_id if custom_id is not None else f"label {label!r}"
        raise EmulatorUsageError(f"{message!r} has no component {wanted}")

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Press a button (by custom id or label) on `message` as `user`."""
        button = self._find_component(user, message, custom_id, label)
        if button.get("type") != 2:
            raise EmulatorUsageError(f"{button.get('custom_id')!r} is not a button")
        if button.get("disabled"):
            raise EmulatorUsageError(f"button {button.get('label')!r} is disabled")
        if "custom_id" not in button:
            raise EmulatorUsageError("link buttons open a URL; they send no interaction")
        return await self._deliver(
            kind=MESSAGE_COMPONENT,
            user=user,
            channel=message.channel,
            data={"custom_id": button["custom_id"], "component_type": 2},
            name=button["custom_id"],
            source=message,
            wait=wait,
            timeout=timeout,
        )

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> Interaction:
        """Choose `values` in the select menu `custom_id` on `message` as `user`."""
        menu = self._find_component(user, message, custom_id, None)
        if menu.get("type") != 3:
            raise EmulatorUsageError(f"{custom_id!r} is not a string select menu")
        if menu.get("disabled"):
            raise EmulatorUsageError(f"select {custom_id!r} is disabled")
        allowed = [o["value"] for o in menu.get("options", [])]
        wrong = [v for v in values if v not in allowed]
        if wrong:
            raise EmulatorUsageError(f"{wrong} are not options of {custom_id!r}: {allowed}")
        low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
        if not low <= len(values) <= high or len(set(values)) != len(values):
            raise EmulatorUsageError(f"choose between {low} and {high} distinct options")
        return await self._deliver(
            kind=MESSAGE_COMPONENT,
            user=user,
            channel=message.channel,
            data={"custom_id": custom_id, "component_type": 3, "values": list(values)},
            name=custom_id,
            source=message,
            wait=wait,
            timeout=timeout,
        )

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
                        raise EmulatorUsageError(f"{item['custom_id']!r} is required")
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

    # --- model operations behind the REST routes -----------------------------------------

    def _record(self, route: str, status: int, error: DiscordError | None = None) -> None:
        self.requests.append(RequestRecord(route, status, error.code if error else None))
        self._notify()

    def _store(self, message: Message) -> None:
        message.channel.messages.append(message)
        self.world.messages[message.id] = message
        self._notify()

    def _intents(self) -> int:
        session = self.gateway.session
        return session.intents if session is not None else 0

    async def _dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral:
            return
        wanted = DIRECT_MESSAGES if message.channel.is_dm else GUILD_MESSAGES
        if not self._intents() & wanted:
            return
        data = payloads.message(message)
        if not self._intents() & MESSAGE_CONTENT and message.author is not self.bot_user:
            data.update(content="", embeds=[], attachments=[], components=[])
        await self.gateway.dispatch(event, data)

    def _create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        files: list[Attachment],
        *,
        interaction: Interaction | None = None,
        ephemeral_for: User | None = None,
        flags: int | None = None,
    ) -> Message:
        check_message(body, has_files=bool(files) or flags is not None)
        message = Message(
            id=self.world.ids.next(),
            channel=channel,
            author=author,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=list(files),
            flags=(int(body.get("flags") or 0) if flags is None else flags) & ~EPHEMERAL,
            ephemeral_for=ephemeral_for,
        )
        if ephemeral_for is not None:
            message.flags |= EPHEMERAL
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_name = interaction.name
            message.webhook_id = self.application_id
        self._store(message)
        self._spawn(self._dispatch_message("MESSAGE_CREATE", message))
        return message

    def _edit_message(
        self, message: Message, body: dict[str, Any], files: list[Attachment]
    ) -> None:
        check_message(body, editing=True)
        if message.deleted:
            raise unknown_message()
        message.history.append(message.version())
        if "content" in body:
            message.content = str(body["content"] or "")
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments.extend(files)
        # Editing a deferred placeholder turns it into the real response.
        message.flags &= ~LOADING
        message.edited_timestamp = iso_now()
        total = len(message.content) + len(message.embeds) + len(message.components)
        if total == 0 and not message.attachments:
            message.history.pop()
            raise DiscordError(400, 50006, "Cannot send an empty message")
        self._notify()
        self._spawn(self._dispatch_message("MESSAGE_UPDATE", message))

    def _delete_message(self, message: Message) -> None:
        if message.deleted:
            raise unknown_message()
        message.deleted = True
        self._notify()
        if not message.ephemeral:
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            if self._intents() & (DIRECT_MESSAGES if message.channel.is_dm else GUILD_MESSAGES):
                self._spawn(self.gateway.dispatch("MESSAGE_DELETE", data))

    def _attachment(self, attachment_id: int) -> Attachment | None:
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return attachment
        return None

    def _interaction_callback(
        self, interaction_id: int, token: str, body: dict[str, Any], files: list[Attachment]
    ) -> dict[str, Any]:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise unknown_interaction()
        if interaction.response is not None:
            raise already_acknowledged()
        if self.clock.now() - interaction.created_at > self.response_deadline:
            interaction.late = True
            self._notify()
            raise unknown_interaction()
        kind = int(body.get("type", 0))
        data = dict(body.get("data") or {})
        if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            raise invalid_form(
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": "Invalid interaction response type",
                            }
                        ]
                    }
                }
            )
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message: Message | None = None
        if kind == MESSAGE:
            message = self._create_message(
                interaction.channel,
                self.bot_user,
                data,
                files,
                interaction=interaction,
                ephemeral_for=interaction.user if ephemeral else None,
            )
            interaction.original = message
        elif kind == DEFERRED_MESSAGE:
            message = self._create_message(
                interaction.channel,
                self.bot_user,
                {},
                [],
                interaction=interaction,
                ephemeral_for=interaction.user if ephemeral else None,
                flags=LOADING,
            )
            interaction.original = message
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = interaction.source_message
            if message is None:
                raise invalid_form(
                    {
                        "type": {
                            "_errors": [{"code": "NO_MESSAGE", "message": "No message to update"}]
                        }
                    }
                )
            if kind == UPDATE_MESSAGE:
                self._edit_message(message, data, files)
            interaction.original = message
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > 25 or any(len(str(c.get("name", ""))) > 100 for c in choices):
                raise form_error(
                    "data.choices",
                    "BASE_TYPE_MAX_LENGTH",
                    "At most 25 choices, with names of at most 100 characters.",
                )
            interaction.choices = choices
        elif kind == MODAL:
            if len(str(data.get("custom_id", ""))) > 100 or not data.get("title"):
                raise form_error(
                    "data", "MODAL_INVALID", "A modal needs a title and a custom id under 100."
                )
            interaction.modal = data
        interaction.response = Callback(type=kind, data=data, message=message)
        interaction.answered_at = self.clock.now()
        interaction.answered.set()
        self._notify()
        result: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None and kind != DEFERRED_UPDATE:
            result["resource"]["message"] = payloads.message(message)
        return result

    def _interaction_by_token(self, token: str) -> Interaction:
        interaction = self._by_token.get(token)
        if interaction is None:
            raise unknown_webhook()
        if self.clock.now() - interaction.created_at > self.token_lifetime:
            raise invalid_webhook_token()
        return interaction

    def _followup(self, token: str, body: dict[str, Any], files: list[Attachment]) -> Message:
        interaction = self._interaction_by_token(token)
        if interaction.response is None:
            raise unknown_webhook()
        original = interaction.original
        if (
            interaction.response.type == DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not interaction.followups
        ):
            # Discord turns the first follow-up after a "thinking" defer into the response.
            self._edit_message(original, body, files)
            return original
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        message = self._create_message(
            interaction.channel,
            self.bot_user,
            body,
            files,
            interaction=interaction,
            ephemeral_for=interaction.user if ephemeral else None,
        )
        interaction.followups.append(message)
        self._notify()
        return message

    def _webhook_message(self, token: str, message_id: str) -> Message:
        interaction = self._interaction_by_token(token)
        if message_id == "@original":
            message = interaction.original
        else:
            candidates = [interaction.original, *interaction.followups]
            message = next(
                (m for m in candidates if m is not None and str(m.id) == message_id), None
            )
        if message is None or message.deleted:
            raise unknown_message()
        return message
