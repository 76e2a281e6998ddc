"""`FakeDiscord`: the emulator a test or the playground starts, and the API tests drive it with.

It owns the aiohttp server (REST and gateway on 127.0.0.1), the world model, the synced
commands, the interactions and the faults, and the waiting and health checks. What a user does
(`slash`, `autocomplete`, `click`, `select`, `submit_modal`, `say`) and sees (`visible_to`,
`dms`) is mixed in from `actions.py`; what the bot does through REST, from `responses.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from fakediscord import payloads
from fakediscord.actions import UserActions
from fakediscord.activities import Activities, Instance
from fakediscord.activity_client import ActivityHost
from fakediscord.commands import CommandRegistry
from fakediscord.counters import Counters
from fakediscord.errors import (
    BotFailure,
    BotStalled,
)
from fakediscord.events import ScheduledEvents
from fakediscord.faults import Delay, Fault, FaultBook, Hold, Hook
from fakediscord.gateway import Gateway
from fakediscord.interactions import (
    STALL,
    WAIT_AT_MOST,
    Interaction,
)
from fakediscord.invalid_requests import InvalidRequests
from fakediscord.latency import Latency, latency_middleware
from fakediscord.model import (
    MEMBER_PERMISSIONS,
    MODERATOR_PERMISSIONS,
    Channel,
    Clock,
    Guild,
    Member,
    Role,
    User,
    World,
)
from fakediscord.nonces import Nonces
from fakediscord.openapi import Judge, Verdicts
from fakediscord.openapi import load as load_description
from fakediscord.ratelimits import RateLimiter
from fakediscord.responses import GUILD_MEMBERS, BotSide
from fakediscord.rest import middleware, routes
from fakediscord.shards import SessionStarts
from fakediscord.switches import Limits

T = TypeVar("T")

#: How `fd.counters.webhooks` names the requests on an interaction's webhook.
WEBHOOK_KINDS = {"POST": "followup", "PATCH": "edit"}


@dataclass
class RequestRecord:
    """One REST request the bot made and the status it got."""

    route: str
    status: int
    code: int | None = None
    template: str = ""  # "POST /channels/{id}/messages"
    at: float = 0.0  # when it was answered, on the emulator's clock
    #: The client's port (which of several bot processes made it: a benchmark maps ports to
    #: processes), and when the request arrived, on the emulator's clock.
    peer: int | None = None
    arrived: float = 0.0


def _new_token() -> str:
    return "fakediscord." + secrets.token_urlsafe(24)


class FakeDiscord(UserActions, BotSide):
    """A local Discord: REST and gateway on 127.0.0.1, a world of users and channels, a test API.

    `response_deadline` (3 s) and `token_lifetime` (15 min) are Discord's interaction clocks,
    measured on `clock` (as are the rate limits); lower them or `clock.advance()` to test them
    quickly. `limits` says which of Discord's limits are enforced (all, by default). `shards`
    is the shard count `GET /gateway/bot` recommends; `max_concurrency` and `session_starts`
    are its session start limit (IDENTIFYs per 5 s, and per day). `latency` (off by default)
    gives every request and gateway event the internet's time on the wire
    (:mod:`fakediscord.latency`).
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
        limits: Limits | None = None,
        shards: int = 1,
        max_concurrency: int = 1,
        session_starts: int = 1000,
        latency: Latency | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.clock = clock or Clock()
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.limits = limits or Limits()
        #: The internet's latency on every request and gateway frame (None: none).
        self.latency = latency
        self.recommended_shards = shards
        self.world = World(self)
        self.commands = CommandRegistry(self.world.ids)
        starts = SessionStarts(self.clock, total=session_starts, max_concurrency=max_concurrency)
        self.gateway = Gateway(self, starts)
        self.faults = FaultBook()
        self.ratelimits = RateLimiter(self.limits, self.clock)
        self.invalid_requests = InvalidRequests(self.clock, lambda: self.limits.invalid_requests)
        self.counters = Counters()
        self.nonces = Nonces(self.clock)
        #: The servers' scheduled events (their *Events* lists), and what people do with them.
        self.scheduled = ScheduledEvents(self)
        #: Discord's OpenAPI description, the first judge of every request (`Limits.openapi`),
        #: and what it decided (`spec_verdicts.refused`: each request it refused, with Discord's
        #: `errors` tree).
        self.spec: Judge = load_description()
        self.spec_verdicts = Verdicts()
        self._refusals_allowed = False
        self.requests: list[RequestRecord] = []
        self.unhandled: list[str] = []
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.bot_token = _new_token()
        self.token_resets = 0
        self.bot_user = self._new_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = self._new_user("Owner")
        self.activities = Activities(self)
        #: The app's ``discordsays.com`` origin: the stand-in client and the proxy (started by
        #: :meth:`enable_activity`).
        self.activity_host = ActivityHost(self)
        self._changed = asyncio.Event()
        self._health_checks: list[Callable[[], str | None]] = []
        self._end_checks: list[Callable[[], None]] = []
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        """Start serving on `host` (a free port unless one was given)."""
        # The wire is outermost: all Discord does with a request happens on its side of it.
        wire = latency_middleware(self)
        app = web.Application(
            middlewares=[wire, middleware(self)], client_max_size=64 * 1024 * 1024
        )
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
        await self.activity_host.close()
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

    # --- the app's Activity ----------------------------------------------------------------

    async def enable_activity(self, target: str) -> None:
        """Give the app an Activity whose root URL mapping (``/``) is ``target``
        (``host:port/path``, no scheme, as the developer portal takes it), and serve its
        origin: the stand-in client and the proxy (``fd.activity_host``)."""
        self.activities.enable(target)
        await self.activity_host.start()

    def activity_client_url(
        self,
        user: User,
        instance: Instance,
        *,
        platform: str = "desktop",
        unsupported: tuple[str, ...] = (),
    ) -> str:
        """The stand-in client's page for ``user`` in ``instance`` (they launched or joined
        it): open it in a browser and it hosts the Activity as Discord's client does.
        ``unsupported``: SDK commands this client lacks (``"SET_ACTIVITY"``, ...), each
        answered as a client answers a command it does not know."""
        session = self.activities.client_session(user, instance, unsupported=frozenset(unsupported))
        return self.activity_host.client_url(session, platform=platform)

    # --- building the world ------------------------------------------------------------------

    def _new_user(self, name: str, *, bot: bool = False) -> User:
        user = User(id=self.world.ids.next(), name=name, bot=bot)
        self.world.users[user.id] = user
        return user

    def add_user(self, name: str) -> User:
        """A new Discord user (a person) called `name`."""
        return self._new_user(name)

    def add_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        shard: tuple[int, int] | None = None,
        bot_member: bool = True,
    ) -> Guild:
        """A new guild; the bot is a member. Announced to a connected bot at once.

        With `shard=(shard_id, shard_count)`, its id is one Discord routes to that shard.
        With `bot_member=False` it is a server that did not invite the bot: the bot hears
        nothing of it, its token is refused there (403 / 50001), and its people reach the app
        only through their own user installs.
        """
        ids = self.world.ids
        guild_id = ids.next(shard=shard)
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
        if bot_member:
            guild.members[self.bot_user.id] = Member(user=self.bot_user, guild=guild)
        if owner is not None:
            guild.members[owner.id] = Member(user=owner, guild=guild)
        self.world.guilds[guild.id] = guild
        if self.gateway.sessions and bot_member:
            self._spawn(self.gateway.dispatch("GUILD_CREATE", payloads.guild_create(guild)))
        return guild

    def remove_bot(self, guild: Guild) -> None:
        """The bot is removed from ``guild`` (kicked, or the app removed by a manager): the
        bot's token no longer reaches it (as a server that never invited the bot, 403 /
        50001), and a connected bot hears GUILD_DELETE without ``unavailable``, which is how
        Discord tells a removal from an outage."""
        guild.members.pop(self.bot_user.id, None)
        if self.gateway.sessions:
            self._spawn(self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)}))

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (for typing commands in DMs)."""
        return self.world.dm_channel(user)

    def private_channel(self, *people: User, name: str = "") -> Channel:
        """A DM between two of ``people`` or a group DM of three to ten, which the bot is not
        in: its commands reach it only through a user install (:meth:`install_app`), and the
        bot's own token may not read or post there (403 / 50001)."""
        return self.world.private_channel(*people, name=name)

    def install_app(self, user: User) -> None:
        """``user`` adds the app to their account (a user install)."""
        user.installed = True

    def _bot_hears(self, guild: Guild | None) -> bool:
        # The bot hears of a server only while it is a member.
        return guild is not None and guild.member(self.bot_user) is not None

    def _announce_channel(self, channel: Channel, *, update: bool = False) -> None:
        if self.gateway.sessions and self._bot_hears(channel.guild):
            kind = "THREAD" if channel.is_thread else "CHANNEL"
            data = payloads.channel(channel)
            if channel.is_thread and not update:
                data["newly_created"] = True
            event = f"{kind}_{'UPDATE' if update else 'CREATE'}"
            self._spawn(self.gateway.dispatch(event, data))

    def _announce_channel_deleted(self, channel: Channel) -> None:
        if self.gateway.sessions and self._bot_hears(channel.guild):
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            self._spawn(self.gateway.dispatch(event, payloads.channel(channel)))

    def _announce_thread_members(self, thread: Channel, added: User) -> None:
        # THREAD_MEMBERS_UPDATE goes to apps with the GUILD_MEMBERS intent, and to the bot
        # itself when it is the one added.
        assert thread.guild is not None
        if not self.gateway.sessions or not self._bot_hears(thread.guild):
            return
        if added is not self.bot_user and not self._members_intent(thread.guild):
            return
        joined = thread.thread_members[added.id]
        data = {
            "id": str(thread.id),
            "guild_id": str(thread.guild.id),
            "member_count": min(len(thread.thread_members), 50),
            "added_members": [payloads.thread_member(thread, added.id, joined)],
        }
        self._spawn(self.gateway.dispatch("THREAD_MEMBERS_UPDATE", data))

    def _announce_member(self, member: Member) -> None:
        if self.gateway.sessions and self._bot_hears(member.guild):
            data = payloads.member(member) | {"guild_id": str(member.guild.id)}
            self._spawn(self.gateway.dispatch("GUILD_MEMBER_ADD", data))

    def _members_intent(self, guild: Guild) -> bool:
        """Whether the session that hears of ``guild`` asked for the GUILD_MEMBERS intent."""
        session = self.gateway.route(guild.id)
        return session is not None and bool(session.intents & GUILD_MEMBERS)

    def _announce_member_removed(self, member: Member) -> None:
        if self._members_intent(member.guild) and self._bot_hears(member.guild):
            data = {"guild_id": str(member.guild.id), "user": payloads.user(member.user)}
            self._spawn(self.gateway.dispatch("GUILD_MEMBER_REMOVE", data))

    def _announce_role(self, guild: Guild, role: Role) -> None:
        if self.gateway.sessions and self._bot_hears(guild):
            data = {"guild_id": str(guild.id), "role": payloads.role(role)}
            self._spawn(self.gateway.dispatch("GUILD_ROLE_UPDATE", data))

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
        self,
        route: str,
        times: int = 1,
        retry_after: float = 0.05,
        *,
        is_global: bool = False,
        scope: str = "user",
    ) -> Fault:
        """Answer the next `times` requests matching `route` with 429 (with `Via`).

        `scope="shared"` is a limit on a resource others share: it does not count as an
        invalid request.
        """
        fault = Fault(
            re.compile(route), times, 429, retry_after=retry_after, is_global=is_global, scope=scope
        )
        return self.faults.add(fault)

    def fail(
        self, route: str, status: int = 500, times: int = 1, *, code: int = 0, message: str = ""
    ) -> Fault:
        """Answer the next `times` requests matching `route` with `status` (and `code`), as
        the internet answers it (`fakediscord.faults`): without a code or a message, a 5xx
        carries the body Discord's edge gives that status (Discord's JSON for a 500,
        Cloudflare's HTML page for a 502 or 504, the proxy's text for a 503), and a 429 is
        Cloudflare's (text, no `Via`, no rate-limit headers: discord.py raises it at once;
        Discord's own 429 is :meth:`rate_limit`'s)."""
        fault = Fault(
            re.compile(route),
            times,
            status,
            code=code,
            message=message,
            cloudflare=status == 429,
        )
        return self.faults.add(fault)

    def delay(self, route: str, seconds: float, times: int = 1, *, back: bool = False) -> Delay:
        """The next `times` requests matching `route` reach Discord `seconds` late (a slow
        network: e.g. a click's answer still on its way while the bot sends other requests);
        with `back`, they are handled at once and their answers reach the bot `seconds` late
        (what they did shows on Discord while the bot does not know it yet)."""
        return self.faults.delay(Delay(re.compile(route), seconds, times, back=back))

    def hold(self, route: str, times: int = 1) -> Hold:
        """The next `times` requests matching `route` are handled at once, and their answers
        wait on their way back to the bot until the test calls `release()` on what this
        returns (its `routes`: the requests held so far): what they did shows on Discord
        while the bot waits to hear of it, for as long as the test needs (a DM's channel
        opened while the player's next command is answered, say)."""
        return self.faults.hold(Hold(re.compile(route), times))

    def after_request(self, route: str, action: Callable[[str], object], times: int = 1) -> Hook:
        """Run `action(route)` when each of the next `times` requests matching `route` has been
        handled (its effects are in place) and before its answer goes back to the bot, e.g. to
        kill the bot right after it answered an interaction and before it sent anything else."""
        return self.faults.hook(Hook(re.compile(route), action, times))

    async def drop_gateway(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close the bot's gateway connections (or one shard's); the client RESUMEs."""
        await self.gateway.drop(code, shard=shard)

    @contextlib.asynccontextmanager
    async def gateway_down(self, *, shard: int | None = None) -> AsyncIterator[None]:
        """Discord's gateway out of reach for the block: the bot's connections (or one
        shard's) drop, and its new ones get no HELLO until the block ends; what happens
        meanwhile (a click, say) is kept and replayed when the client RESUMEs."""
        self.gateway.down()
        try:
            await self.gateway.drop(shard=shard)
            yield
        finally:
            self.gateway.back()

    def zombie_gateway(self, *, shard: int | None = None) -> None:
        """The bot's connections (or one shard's) go zombie: nothing reaches the client on
        them, not a heartbeat's ACK nor an event (kept for its RESUME). discord.py closes one
        after ``heartbeat_timeout`` seconds without a word (60 by default) and resumes."""
        self.gateway.zombie(shard=shard)

    async def request_reconnect(self, *, shard: int | None = None) -> None:
        """Send op 7 RECONNECT (to every shard, or one)."""
        await self.gateway.request_reconnect(shard=shard)

    async def invalidate_session(
        self, *, resumable: bool = False, shard: int | None = None
    ) -> None:
        """Send op 9 INVALID_SESSION (not resumable: the client identifies again)."""
        await self.gateway.invalidate(resumable=resumable, shard=shard)

    async def reset_token(self) -> None:
        """Reset the bot token, as Discord does after more than 1000 IDENTIFYs in a day.

        Every gateway session ends (close code 4004) and the old token gets 401 everywhere.
        """
        self.bot_token = _new_token()
        self.token_resets += 1
        await self.gateway.end_all_sessions()
        self._notify()

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

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float | None = None,
        *,
        stall: float | None = None,
    ) -> T:
        """Wait until `predicate()` is truthy and return its value; fail on timeout or bot error.

        Use it for effects the bot causes on its own time, e.g. a DM after a click. With
        neither `timeout` nor `stall`, the wait lasts while the bot keeps working towards the
        effect (`STALL`), at most `WAIT_AT_MOST` seconds.

        With `stall`, the wait also ends, with `BotStalled`, once the bot has made no request
        for `stall` seconds: it lasts as long as the bot keeps working towards the effect, so
        a busy machine (a slower bot) lengthens it instead of failing it, while a bot that
        stopped still fails soon; `timeout` then only bounds a bot that keeps working without
        ever getting there.
        """
        if timeout is None:
            timeout = WAIT_AT_MOST
            stall = STALL if stall is None else stall
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        requests, active = len(self.requests), loop.time()
        while True:
            self.check_health()
            value = predicate()
            if value:
                return value
            now = loop.time()
            if len(self.requests) != requests:
                requests, active = len(self.requests), now
            remaining = deadline - now
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            if stall is not None and now - active >= stall:
                raise BotStalled(f"condition not met, and the bot made no request for {stall}s")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=min(remaining, 0.05))

    async def quiet(self, period: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until the bot has made no REST request for `period` seconds.

        For the playground's console (a pause before the next prompt), never for a test: on a
        busy machine a quiet spell proves nothing. A test waits for the event that proves its
        point (`wait_for`), and asserts what must never happen with `at_the_end`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            count = len(self.requests)
            await asyncio.sleep(period)
            self.check_health()
            if len(self.requests) == count:
                return
        raise TimeoutError(f"the bot kept making requests for {timeout}s")

    def at_the_end(self, check: Callable[[], None]) -> None:
        """Run `check` (which asserts) once every bot of the test has stopped: the way to say
        that something never happens (a request, a second post), checked when nothing a bot
        had on its way can still come (`BotLauncher.close` runs it after the stops)."""
        self._end_checks.append(check)

    def end_checks(self) -> list[str]:
        """Run the checks `at_the_end` was given, once; what each that failed said."""
        checks, self._end_checks = self._end_checks, []
        failed: list[str] = []
        for check in checks:
            try:
                check()
            except AssertionError as error:
                failed.append(f"checked once the bots had stopped: {error}")
        return failed

    def allow_refusals(self) -> None:
        """Let requests that Discord's OpenAPI description refuses pass the test (an emulator
        test that sends them on purpose): they are still answered 400 / 50035."""
        self._refusals_allowed = True

    def refusals(self) -> list[str]:
        """A problem for each request Discord's OpenAPI description refused (none once
        :meth:`allow_refusals` was called): a bot that sends one fails on Discord."""
        if self._refusals_allowed:
            return []
        return [
            f"Discord's OpenAPI description refused {route} (400 / 50035): {json.dumps(tree)}"
            for route, tree in self.spec_verdicts.refused
        ]

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified and received every GUILD_CREATE."""
        await self.wait_for(lambda: self.gateway.connected and self.gateway.ready.is_set(), timeout)

    # --- what the REST middleware reports ------------------------------------------------

    def _count_request(self, template: str, *, interaction: bool, authorized: bool) -> None:
        if interaction:
            if template.startswith("POST /interactions/"):
                self.counters.callbacks += 1
            else:
                method = template.split(" ", 1)[0]
                self.counters.webhooks[WEBHOOK_KINDS.get(method, method.lower())] += 1
        elif authorized:
            self.counters.rest[template] += 1

    def _answered(
        self,
        route: str,
        template: str,
        response: web.StreamResponse,
        *,
        scope: str | None = None,
        code: int | None = None,
        counted: bool = True,
        peer: int | None = None,
        arrived: float = 0.0,
    ) -> web.StreamResponse:
        if response.status == 429 and scope is not None:
            self.counters.rate_limited[scope] += 1
        if counted and self.invalid_requests.record(response.status, scope):
            self.counters.invalid_requests += 1
        now = self.clock.now()
        record = RequestRecord(
            route, response.status, code, template, now, peer=peer, arrived=arrived or now
        )
        self.requests.append(record)
        self._notify()
        return response
