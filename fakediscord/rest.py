"""The REST API: login, command sync, interaction callbacks, webhooks, DMs, channel messages.

Handlers parse the request, call the emulator's model operations (which enforce Discord's rules
and raise `DiscordError`), and answer JSON with `Content-Type: application/json` exactly (with
a charset appended, discord.py treats the body as text and login fails). The middleware in
front of them counts each request (`fd.counters`), and answers for Discord first: Cloudflare's
ban, injected faults, the bot token, then the rate limits (`ratelimits.py`), whose headers go
on every answer.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from fakediscord import events, openapi, payloads, threads
from fakediscord.activities import OAuthError, check_commands
from fakediscord.errors import (
    DiscordError,
    Refusal,
    form_error,
)
from fakediscord.invalid_requests import cloudflare_ban
from fakediscord.limits import check_command_sizes
from fakediscord.model import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_ANNOUNCEMENT,
    GUILD_TEXT,
    MANAGE_MESSAGES,
    REQUESTED,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    iso_now,
)
from fakediscord.ratelimits import Verdict, route_template
from fakediscord.uploads import Upload, read_body

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
API = r"/api/v{version:\d+}"


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response with exactly `Content-Type: application/json`."""
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def error_response(error: DiscordError, headers: dict[str, str] | None = None) -> web.Response:
    """Discord's error body for `error`."""
    return json_response(error.body(), status=error.status, headers=headers)


def routes(fd: FakeDiscord) -> list[web.RouteDef]:
    """Every REST route the emulator serves."""

    async def me(request: web.Request) -> web.Response:
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            # Get Current User with an OAuth2 token: the token's user, with `identify`.
            access = fd.activities.bearer(header)
            if access is None or "identify" not in access.scopes:
                raise Refusal.UNAUTHORIZED.error()
            return json_response(payloads.user(access.user) | {"mfa_enabled": False})
        return json_response(payloads.user(fd.bot_user) | {"verified": True, "mfa_enabled": False})

    async def authorization_info(request: web.Request) -> web.Response:
        # Get Current Authorization Information: a bearer token's app, scopes and user.
        access = fd.activities.bearer(request.headers.get("Authorization", ""))
        if access is None:
            raise Refusal.UNAUTHORIZED.error()
        return json_response(fd.activities.authorization_info(access))

    async def oauth_token(request: web.Request) -> web.Response:
        # The token URL takes application/x-www-form-urlencoded only (Discord, OAuth2).
        if request.content_type != "application/x-www-form-urlencoded":
            body = {
                "error": "invalid_request",
                "error_description": "Content-Type must be application/x-www-form-urlencoded",
            }
            return json_response(body, status=400)
        form = await request.post()
        fields = {key: str(value) for key, value in form.items()}
        try:
            answer = fd.activities.exchange(fields, request.headers.get("Authorization", ""))
        except OAuthError as error:
            return json_response(error.body(), status=error.status)
        return json_response(answer)

    async def activity_instance(request: web.Request) -> web.Response:
        app_id = int(request.match_info["app"])
        found = fd.activities.instance_payload(app_id, request.match_info["instance"])
        return json_response(found)

    async def application(request: web.Request) -> web.Response:
        bot = payloads.user(fd.bot_user)
        return json_response(
            {
                "id": str(fd.application_id),
                "name": fd.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": payloads.user(fd.owner_user),
                "verify_key": "0" * 64,
                "team": None,
                "flags": fd.activities.flags,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(fd.world.guilds),
                "bot": bot,
            }
        )

    async def gateway(request: web.Request) -> web.Response:
        return json_response({"url": fd.gateway_url.rstrip("/")})

    async def gateway_bot(request: web.Request) -> web.Response:
        return json_response(
            {
                "url": fd.gateway_url.rstrip("/"),
                "shards": fd.recommended_shards,
                "session_start_limit": fd.gateway.starts.as_payload(),
            }
        )

    async def body_of(request: web.Request) -> tuple[Any, list[Upload]]:
        read: tuple[Any, list[Upload]] | None = request.get(BODY)
        return read if read is not None else await read_body(request, limit_size=fd.limits.uploads)

    def commands_guild(request: web.Request) -> int | None:
        # A server's commands are the application's only where the bot is a member: anywhere
        # else (another server, or no server at all) Discord answers 403 / 50001.
        guild_id = request.match_info.get("guild")
        if guild_id is None:
            return None
        guild = fd.world.guilds.get(int(guild_id))
        if guild is None or guild.member(fd.bot_user) is None:
            raise Refusal.MISSING_ACCESS.error()
        return guild.id

    async def put_commands(request: web.Request) -> web.Response:
        guild_id = commands_guild(request)
        body, _ = await body_of(request)
        check_command_sizes(list(body))
        check_commands(list(body), guild=guild_id is not None, embedded=fd.activities.enabled)
        stored = fd.commands.replace(fd.application_id, guild_id, list(body))
        fd._notify()
        return json_response(stored)

    async def create_command(request: web.Request) -> web.Response:
        # Create Global Application Command: one command, made or (same name and type)
        # replaced; the others stay. 201 when new, 200 when replaced.
        body, _ = await body_of(request)
        if not isinstance(body, dict):
            raise form_error("_", "DICT_TYPE_CONVERT", "Only dictionaries may be used.")
        key = (body.get("name"), int(body.get("type", 1)))
        others = [c for c in fd.commands.global_commands if (c["name"], c.get("type", 1)) != key]
        check_command_sizes([body])
        check_commands([*others, body], guild=False, embedded=fd.activities.enabled)
        known = len(others) != len(fd.commands.global_commands)
        stored = fd.commands.replace(fd.application_id, None, [*others, body])
        fd._notify()
        made = next(c for c in stored if (c["name"], c.get("type", 1)) == key)
        return json_response(made, status=200 if known else 201)

    async def get_commands(request: web.Request) -> web.Response:
        return json_response(fd.commands.listing(commands_guild(request)))

    async def callback(request: web.Request) -> web.Response:
        body, files = await body_of(request)
        interaction_id = int(request.match_info["interaction"])
        result = fd._interaction_callback(interaction_id, request.match_info["token"], body, files)
        with_response = request.query.get("with_response", "").lower() in ("1", "true")
        if not with_response:
            return web.Response(status=204)
        return json_response(result)

    async def followup(request: web.Request) -> web.Response:
        body, files = await body_of(request)
        message = fd._followup(request.match_info["token"], body, files)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(payloads.message(message))
        return web.Response(status=204)

    async def webhook_message(request: web.Request) -> web.Response:
        token, message_id = request.match_info["token"], request.match_info["message"]
        if request.method == "GET":
            return json_response(payloads.message(fd._webhook_message(token, message_id)))
        if request.method == "DELETE":
            fd._delete_message(fd._webhook_message(token, message_id), way="webhook")
            return web.Response(status=204)
        body, files = await body_of(request)
        message = fd._webhook_message(token, message_id)
        fd._edit_message(message, body, files, way="webhook")
        return json_response(payloads.message(message))

    async def open_dm(request: web.Request) -> web.Response:
        body, _ = await body_of(request)
        user = fd.world.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise Refusal.INVALID_RECIPIENT.error()
        return json_response(payloads.channel(fd.world.dm_channel(user)))

    def may_attach(channel: Channel, files: list[Upload]) -> None:
        # Uploading with the bot token needs Attach Files in a server channel.
        if files and fd.limits.uploads and not channel.permissions_for(fd.bot_user) & ATTACH_FILES:
            raise Refusal.MISSING_PERMISSIONS.error()

    def channel_of(request: web.Request) -> Any:
        channel = fd.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            raise Refusal.UNKNOWN_CHANNEL.error()
        if not channel.visible_to(fd.bot_user):
            raise Refusal.MISSING_ACCESS.error()
        return channel

    def message_of(request: web.Request) -> Any:
        channel = channel_of(request)
        message = channel.message(int(request.match_info["message"]))
        # Ephemeral messages are reachable only through their interaction token.
        if message is None or message.deleted or message.ephemeral:
            raise Refusal.UNKNOWN_MESSAGE.error()
        return message

    async def get_channel(request: web.Request) -> web.Response:
        return json_response(payloads.channel(channel_of(request)))

    async def create_message(request: web.Request) -> web.Response:
        channel = channel_of(request)
        # Send Messages in a server's channel (a voice or stage channel's chat too); in a
        # thread, Send Messages in Threads is what counts.
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if channel.guild is not None and not channel.permissions_for(fd.bot_user) & needed:
            raise Refusal.MISSING_PERMISSIONS.error()
        body, files = await body_of(request)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise Refusal.CANNOT_DM.error()
        may_attach(channel, files)
        nonce = fd.nonces.of(body)
        earlier = fd.nonces.earlier(fd.bot_user.id, nonce, bool(body.get("enforce_nonce")))
        if earlier is not None:
            # Made already (a retry after a crash or a lost answer): that message, not another.
            made = fd.world.messages.get(earlier)
            if made is not None:
                return json_response({**payloads.message(made), "nonce": nonce})
        message = fd._create_message(channel, fd.bot_user, body, files)
        fd.nonces.remember(fd.bot_user.id, nonce, message.id)
        answer = payloads.message(message)
        return json_response(answer if nonce is None else {**answer, "nonce": nonce})

    async def history(request: web.Request) -> web.Response:
        channel = channel_of(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        found = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if before is not None:
            found = [m for m in found if m.id < before]
        if after is not None:
            found = [m for m in found if m.id > after][:limit]
        found = list(reversed(found))[:limit]
        return json_response([payloads.message(m) for m in found])

    async def get_message(request: web.Request) -> web.Response:
        return json_response(payloads.message(message_of(request)))

    async def edit_message(request: web.Request) -> web.Response:
        message = message_of(request)
        if message.author is not fd.bot_user:
            raise Refusal.NOT_THE_AUTHOR.error()
        body, files = await body_of(request)
        may_attach(message.channel, files)
        fd._edit_message(message, body, files, way="rest")
        return json_response(payloads.message(message))

    async def delete_message(request: web.Request) -> web.Response:
        message = message_of(request)
        if message.author is not fd.bot_user:
            if message.channel.is_dm:
                raise Refusal.DM_CHANNEL.error()
            if not message.channel.permissions_for(fd.bot_user) & MANAGE_MESSAGES:
                raise Refusal.MISSING_PERMISSIONS.error()
        fd._delete_message(message, way="rest")
        return web.Response(status=204)

    async def typing(request: web.Request) -> web.Response:
        channel_of(request)
        return web.Response(status=204)

    async def get_user(request: web.Request) -> web.Response:
        user = fd.world.users.get(int(request.match_info["user"]))
        if user is None:
            raise Refusal.UNKNOWN_USER.error()
        return json_response(payloads.user(user))

    async def get_member(request: web.Request) -> web.Response:
        guild = guild_of(request)
        if guild.member(fd.bot_user) is None:
            raise Refusal.MISSING_ACCESS.error()
        user = fd.world.users.get(int(request.match_info["user"]))
        member = guild.member(user) if user is not None else None
        if member is None:
            raise Refusal.UNKNOWN_MEMBER.error()
        return json_response(payloads.member(member))

    def guild_of(request: web.Request) -> Any:
        guild = fd.world.guilds.get(int(request.match_info["guild"]))
        if guild is None:
            raise Refusal.UNKNOWN_GUILD.error()
        if guild.member(fd.bot_user) is None:
            raise Refusal.MISSING_ACCESS.error()  # a server that did not invite the bot
        return guild

    async def get_guild(request: web.Request) -> web.Response:
        data = payloads.guild_create(guild_of(request))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def guild_channels(request: web.Request) -> web.Response:
        guild = guild_of(request)
        return json_response(
            [payloads.channel(c) for c in guild.channels.values() if not c.is_thread]
        )

    async def create_thread(request: web.Request) -> web.Response:
        # Start Thread from Message / Start Thread without Message: a text channel only (not
        # a DM, a thread, a voice or a stage channel), or from a message in an announcement
        # channel (an announcement thread; a thread without a message there is not modelled);
        # the bot needs Create Public (or Private) Threads there; a message starts one thread
        # at most (160004), and that thread has the message's id.
        channel = channel_of(request)
        from_message = "message" in request.match_info
        if channel.type != GUILD_TEXT and not (channel.type == GUILD_ANNOUNCEMENT and from_message):
            raise Refusal.WRONG_CHANNEL_TYPE.error()
        body, _ = await body_of(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        start = message_of(request) if "message" in request.match_info else None
        private = int(body.get("type", 11)) == 12 and start is None
        needed = CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        if not channel.permissions_for(fd.bot_user) & needed:
            raise Refusal.MISSING_PERMISSIONS.error()
        if start is not None and start.thread is not None:
            raise Refusal.THREAD_ALREADY_MADE.error()
        thread = channel.add_thread(name, private=private, start=start, creator=fd.bot_user)
        return json_response(payloads.channel(thread))

    async def attachment(request: web.Request) -> web.Response:
        found = fd.world.attachments.get(int(request.match_info["attachment"]))
        if found is None or found.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(body=found.data, headers={"Content-Type": found.content_type})

    app = API + r"/applications/{app:\d+}"
    guild = API + r"/guilds/{guild:\d+}"
    channel = API + r"/channels/{channel:\d+}"
    message = channel + r"/messages/{message:\d+}"
    webhook = API + r"/webhooks/{app:\d+}/{token}"
    return [
        web.get(API + "/users/@me", me),
        web.get(API + "/oauth2/@me", authorization_info),
        web.post(API + "/oauth2/token", oauth_token),
        web.get(app + "/activity-instances/{instance}", activity_instance),
        web.get(API + "/oauth2/applications/@me", application),
        web.get(API + "/gateway", gateway),
        web.get(API + "/gateway/bot", gateway_bot),
        web.put(app + "/commands", put_commands),
        web.get(app + "/commands", get_commands),
        web.post(app + "/commands", create_command),
        web.put(app + r"/guilds/{guild:\d+}/commands", put_commands),
        web.get(app + r"/guilds/{guild:\d+}/commands", get_commands),
        web.post(API + r"/interactions/{interaction:\d+}/{token}/callback", callback),
        web.post(webhook, followup),
        web.route("*", webhook + "/messages/{message}", webhook_message),
        web.post(API + "/users/@me/channels", open_dm),
        web.get(API + r"/users/{user:\d+}", get_user),
        web.get(guild + r"/members/{user:\d+}", get_member),
        web.get(channel, get_channel),
        web.post(channel + "/messages", create_message),
        web.get(channel + "/messages", history),
        web.get(message, get_message),
        web.patch(message, edit_message),
        web.delete(message, delete_message),
        web.post(channel + "/typing", typing),
        web.get(guild, get_guild),
        web.get(guild + "/channels", guild_channels),
        web.post(channel + "/threads", create_thread),
        web.post(message + "/threads", create_thread),
        *threads.routes(fd, API, channel_of),
        *events.routes(fd, API, guild_of),
        web.get(r"/attachments/{attachment:\d+}/{filename}", attachment),
        web.get(r"/media/attachments/{attachment:\d+}/{filename}", attachment),
    ]


#: Where the middleware keeps a request's body once read (JSON, or `payload_json` and files).
BODY = web.RequestKey("fakediscord.body", tuple)
#: Whether a request held back on the network (`fd.delay`) carried a body: read before it
#: waits, so that it arrives whole even if its client gave up on it meanwhile.
CARRIED = web.RequestKey("fakediscord.carried", bool)

# Routes outside the global limit that need no bot token: an interaction's callback and its
# webhook (`/webhooks/{application}/{token}/...`).
INTERACTION_ROUTES = re.compile(r"^/api/v\d+/(interactions|webhooks)/")
# What a bearer token (an OAuth2 grant, not the bot's) or the app's client credentials call:
# outside the bot token's limits, and not counted with its requests.
OAUTH_ROUTES = re.compile(r"^/api/v\d+/(oauth2/token|oauth2/@me|users/@me)$")
# The gateway and the CDN (attachments) are other hosts: no token, no limits, not counted.
OTHER_HOSTS = re.compile(r"^/gw|^/(media/)?attachments/")


def middleware(fd: FakeDiscord) -> Callable[..., Any]:
    """Count and record requests; apply Cloudflare's ban, injected faults, the bot token check
    and the rate limits; turn errors into Discord's JSON bodies."""

    async def judged(request: web.Request, path: str) -> None:
        # Discord's OpenAPI description judges the request before any handler sees it; the
        # body is read once here and kept for the handler.
        carried = request.get(CARRIED, request.can_read_body)  # (False once read)
        body, files = await read_body(request, limit_size=fd.limits.uploads)
        request[BODY] = (body, files)
        sent = body if carried else openapi.NO_BODY
        query = {key: request.query.getone(key) for key in request.query}
        openapi.check(fd.spec, fd.spec_verdicts, request.method, path, query, sent)

    @web.middleware
    async def handle(request: web.Request, handler: Handler) -> web.StreamResponse:
        if OTHER_HOSTS.match(request.path):
            return await handler(request)
        path = re.sub(r"^/api/v\d+", "", request.path)
        route = f"{request.method} {path}"
        peername = request.transport.get_extra_info("peername") if request.transport else None
        peer: int | None = peername[1] if peername else None
        arrived = fd.clock.now()
        REQUESTED.set(iso_now())  # (the messages it makes say when it was sent)
        late = fd.faults.late_by(route)
        if late:
            # On its way over a slow network: the client wrote it all, and it arrives (and is
            # answered) even if the client gave up on it meanwhile.
            if not request.content_type.startswith("multipart/"):
                request[CARRIED] = request.can_read_body
                await request.read()  # (kept by aiohttp for the handler)
            await asyncio.sleep(late)
        resource = request.match_info.route.resource
        template = route if resource is None else route_template(request.method, resource.canonical)
        interaction = INTERACTION_ROUTES.match(request.path) is not None
        header = request.headers.get("Authorization", "")
        authorized = header == f"Bot {fd.bot_token}"
        oauth = OAUTH_ROUTES.match(request.path) is not None and (
            request.path.endswith("/token") or header.startswith("Bearer ")
        )
        fd._count_request(template, interaction=interaction, authorized=authorized)
        if fd.invalid_requests.banned():
            # Cloudflare's own answers are not Discord's: they count toward nothing.
            return fd._answered(
                route, template, cloudflare_ban(), counted=False, peer=peer, arrived=arrived
            )
        verdict = Verdict({})
        try:
            fault = fd.faults.take(route)
            if fault is not None:
                if fault.cloudflare:
                    # Cloudflare's own answer is not Discord's: it counts toward nothing.
                    return fd._answered(
                        route,
                        template,
                        fault.response(),
                        counted=False,
                        peer=peer,
                        arrived=arrived,
                    )
                scope = "global" if fault.is_global else fault.scope
                return fd._answered(
                    route, template, fault.response(), scope=scope, peer=peer, arrived=arrived
                )
            if not authorized and not interaction and not oauth:
                raise Refusal.UNAUTHORIZED.error()
            token = None if interaction else fd.bot_token
            if not oauth:
                verdict = fd.ratelimits.check(token, template, request.match_info)
            if verdict.refusal is not None:
                return fd._answered(
                    route,
                    template,
                    verdict.refusal,
                    scope=verdict.scope,
                    peer=peer,
                    arrived=arrived,
                )
            if fd.limits.openapi and path != "/oauth2/token":
                await judged(request, path)
            response = await handler(request)
        except DiscordError as error:
            response = error_response(error, verdict.headers)
            return fd._answered(
                route, template, response, code=error.code, peer=peer, arrived=arrived
            )
        except web.HTTPNotFound:
            fd.unhandled.append(route)
            response = error_response(Refusal.NOT_FOUND.error())
            return fd._answered(route, template, response, peer=peer, arrived=arrived)
        response.headers.update(verdict.headers)
        answered = fd._answered(route, template, response, peer=peer, arrived=arrived)
        # A test's action for this route runs now, before the bot hears the answer.
        fd.faults.handled(route)
        return answered

    return handle
