"""The app's Activity: launched from a command or a click, its OAuth2 code grant, its instances,
and a stand-in for the Discord client that hosts it in a browser.

What Discord does, and where it says so, is in the README ("Activities"). In short:

- ``fd.activities.enable(target)`` gives the app an Activity (the application's ``EMBEDDED``
  flag) whose root URL mapping (``/``) is ``target`` (``host:port/path``, no scheme), and
  makes its default Entry Point command, "launch", handled by Discord.
- An interaction answered with ``LAUNCH_ACTIVITY`` (callback type 12) opens the Activity for
  whoever acted, in that channel: a new instance there, or the one already running
  (``Interaction.activity_instance``). Without an Activity the answer is refused.
- ``fd.launch(user, channel)`` invokes the Entry Point command as the App Launcher does: an
  interaction the app answers (handler ``APP_HANDLER``) or, with ``DISCORD_LAUNCH_ACTIVITY``,
  an instance Discord opens by itself.
- The code grant: ``authorize`` (what the client does for the SDK's ``authorize`` command)
  gives a code, single-use and short-lived; the app's server exchanges it at ``POST
  /oauth2/token`` with its client secret for a bearer token, which ``GET /users/@me`` and
  ``GET /oauth2/@me`` take. ``GET /applications/{app}/activity-instances/{id}`` (bot token)
  answers the instance: where it runs and who is connected.
- The stand-in client (:mod:`fakediscord.activity_client`) serves, on a port of its own (the
  app's ``discordsays.com`` origin), the page that hosts the Activity in an iframe and answers
  the SDK's messages, and proxies everything else to the URL mapping, as Discord's proxy does.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fakediscord import payloads
from fakediscord.activity_rpc import ActivityCommands
from fakediscord.errors import DiscordError, EmulatorUsageError, Refusal
from fakediscord.model import GUILD_STAGE_VOICE, USE_EMBEDDED_ACTIVITIES, Channel, User

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

__all__ = [
    "ACCESS_LIFETIME",
    "APP_HANDLER",
    "CODE_LIFETIME",
    "DISCORD_LAUNCH_ACTIVITY",
    "EMBEDDED",
    "LAUNCH_ACTIVITY",
    "PRIMARY_ENTRY_POINT",
    "Access",
    "Activities",
    "Instance",
    "OAuthError",
    "check_commands",
    "location_id",
]

#: The application flag of an app with an Activity (Application Resource, "Application Flags").
EMBEDDED = 1 << 17
#: The interaction callback type that opens the app's Activity.
LAUNCH_ACTIVITY = 12
#: The command type of an Entry Point command, and its two handlers.
PRIMARY_ENTRY_POINT = 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2
#: How long an authorization code may be exchanged. Discord does not say; RFC 6749 (4.1.2)
#: recommends ten minutes at most, and a code is good for one exchange.
CODE_LIFETIME = 600.0
#: An access token's life (``expires_in`` in Discord's example token response: 7 days).
ACCESS_LIFETIME = 604_800.0
#: The scopes the emulator grants (Discord's list is longer; these are the ones an Activity asks).
SCOPES = frozenset(
    {
        "identify",
        "guilds",
        "guilds.members.read",
        "email",
        "connections",
        "rpc.activities.write",
        "applications.commands",
    }
)


class OAuthError(Exception):
    """An answer of the OAuth2 token endpoint in RFC 6749's form: ``{"error", "error_description"}``
    with a status (400, or 401 for a client that did not authenticate)."""

    def __init__(self, status: int, error: str, description: str = "") -> None:
        super().__init__(f"{status} {error}: {description}")
        self.status = status
        self.error = error
        self.description = description

    def body(self) -> dict[str, str]:
        """The JSON body."""
        body = {"error": self.error}
        if self.description:
            body["error_description"] = self.description
        return body


@dataclass
class _Grant:
    """An authorization code: whose, for which scopes, when it was made, and the tokens it
    gave (revoked should it be used again)."""

    code: str
    user: User
    scopes: tuple[str, ...]
    made_at: float
    used: bool = False
    tokens: list[str] = field(default_factory=list)


@dataclass
class Access:
    """A bearer token: whose, its scopes, and when it stops working."""

    token: str
    refresh: str
    user: User
    scopes: tuple[str, ...]
    expires_at: float
    revoked: bool = False


@dataclass
class Instance:
    """A running Activity: its id, the launch that made it, the channel it runs in, and the
    people connected to it."""

    id: str
    launch_id: int
    channel: Channel
    users: list[User] = field(default_factory=list)

    @property
    def location_id(self) -> str:
        """Where it runs (see :func:`location_id`)."""
        return location_id(self.channel)

    def payload(self, application_id: int) -> dict[str, Any]:
        """The activity instance object (Get Application Activity Instance)."""
        guild = self.channel.guild
        location: dict[str, Any] = {
            "id": self.location_id,
            "kind": "gc" if guild is not None else "pc",
            "channel_id": str(self.channel.id),
        }
        if guild is not None:
            location["guild_id"] = str(guild.id)
        return {
            "application_id": str(application_id),
            "instance_id": self.id,
            "launch_id": str(self.launch_id),
            "location": location,
            "users": [str(u.id) for u in self.users],
        }


def location_id(channel: Channel) -> str:
    """An Activity location's id: ``gc-<guild>-<channel>`` in a server's channel,
    ``pc-<channel>`` in a DM or group DM."""
    if channel.guild is not None:
        return f"gc-{channel.guild.id}-{channel.id}"
    return f"pc-{channel.id}"


def _bad_command(path: str, message: str) -> DiscordError:
    return Refusal.INVALID_FORM.error(
        {path: {"_errors": [{"code": "APPLICATION_COMMAND_INVALID", "message": message}]}}
    )


def check_commands(commands: list[dict[str, Any]], *, guild: bool, embedded: bool) -> None:
    """Refuse a bulk overwrite Discord would refuse for its Entry Point command: ``handler`` on
    any other type; an Entry Point command for an app without an Activity, in a guild, with
    options, with a handler that is not 1 or 2, or more than one of them."""
    entry_points = 0
    for index, command in enumerate(commands):
        kind = int(command.get("type", 1))
        if kind != PRIMARY_ENTRY_POINT:
            if command.get("handler") is not None:
                raise _bad_command(f"{index}.handler", "Only an Entry Point command has one.")
            continue
        entry_points += 1
        if not embedded:
            raise _bad_command(f"{index}.type", "Only an app with an Activity has one.")
        if guild:
            raise _bad_command(f"{index}.type", "An Entry Point command is global only.")
        if command.get("options"):
            raise _bad_command(f"{index}.options", "An Entry Point command takes no options.")
        if command.get("handler", APP_HANDLER) not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
            raise _bad_command(f"{index}.handler", "Value must be one of (1, 2).")
        if entry_points > 1:
            raise _bad_command(f"{index}.type", "An app has one Entry Point command at most.")


def _token() -> str:
    return secrets.token_urlsafe(24)


def _basic(header: str) -> tuple[str, str] | None:
    """The client id and secret of an HTTP Basic ``Authorization`` header."""
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value, validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    client, sep, secret = decoded.partition(":")
    return (client, secret) if sep else None


class Activities:
    """The app's Activity, its OAuth2 grants and tokens, and its running instances."""

    def __init__(self, fd: FakeDiscord) -> None:
        self._fd = fd
        #: Whether the app has an Activity (the ``EMBEDDED`` flag).
        self.enabled = False
        #: The root URL mapping's target: ``host:port/path`` (no scheme, as the portal takes it).
        self.target: str | None = None
        #: The app's OAuth2 client secret (the portal's *OAuth2* page).
        self.client_secret = "fakediscord-secret-" + _token()
        self._grants: dict[str, _Grant] = {}
        self._tokens: dict[str, Access] = {}
        #: Every instance by id, and the one running in each channel.
        self.instances: dict[str, Instance] = {}
        self._running: dict[int, Instance] = {}
        #: The stand-in client's sessions: a page opened for a person in an instance.
        self._clients: dict[str, tuple[User, Instance]] = {}
        #: The commands each client session does not support (answered 4002).
        self._unsupported: dict[str, frozenset[str]] = {}
        #: Code exchanges refused, by error (for tests).
        self.refused: list[str] = []
        #: The scopes each person refuses when the client asks them to authorize the app.
        self._declined: dict[int, set[str]] = {}
        #: The SDK's commands beyond the sign-in, and what people did with them.
        self.commands = ActivityCommands(fd)
        #: Told of each instance whose people changed (the stand-in clients' events).
        self.on_participants: list[Callable[[Instance], None]] = []

    # -- set-up --------------------------------------------------------------------------------
    def enable(self, target: str) -> None:
        """Give the app an Activity whose root mapping (``/``) is ``target`` (``host:port/path``),
        with its default Entry Point command ("launch", handled by Discord)."""
        if "://" in target:
            raise EmulatorUsageError("A URL mapping's target has no scheme: host:port/path")
        self.enabled = True
        self.target = target.rstrip("/")
        commands = self._fd.commands
        if not any(c.get("type") == PRIMARY_ENTRY_POINT for c in commands.global_commands):
            default = {
                "name": "launch",
                "description": "Launch the Activity",
                "type": PRIMARY_ENTRY_POINT,
                "handler": DISCORD_LAUNCH_ACTIVITY,
                "integration_types": [0, 1],
                "contexts": [0, 1, 2],
            }
            commands.add_global(self._fd.application_id, default)

    @property
    def flags(self) -> int:
        """The application's flags as far as the emulator knows them."""
        return EMBEDDED if self.enabled else 0

    # -- instances -----------------------------------------------------------------------------
    def launch(self, user: User, channel: Channel) -> Instance:
        """``user`` opens the Activity in ``channel``: they join the instance running there, or
        a new one starts (an instance ends when its last person leaves)."""
        if not self.enabled:
            raise EmulatorUsageError("The app has no Activity (fd.activities.enable(target)).")
        refused = self.refusal(user, channel)
        if refused is not None:
            raise EmulatorUsageError(refused)
        running = self._running.get(channel.id)
        if running is None or not running.users:
            launch_id = self._fd.world.ids.next()
            running = Instance(f"i-{launch_id}-{location_id(channel)}", launch_id, channel)
            self.instances[running.id] = running
            self._running[channel.id] = running
        if user not in running.users:
            running.users.append(user)
            self._participants_changed(running)
        self._fd._notify()
        return running

    def _participants_changed(self, instance: Instance) -> None:
        for told in self.on_participants:
            told(instance)

    def refusal(self, user: User, channel: Channel) -> str | None:
        """Why ``user`` may not open an Activity in ``channel`` (None: they may). A stage
        channel has none (Use Activities applies to text and voice channels only); in a
        server it takes Use Activities, and in a voice channel joining it (Connect)."""
        if channel.type == GUILD_STAGE_VOICE:
            return f"#{channel.name} is a stage channel: Discord has no Activities there."
        if not channel.visible_to(user):
            return f"{user.name} cannot see #{channel.name}"
        if channel.guild is not None and not (
            channel.permissions_for(user) & USE_EMBEDDED_ACTIVITIES
        ):
            return f"{user.name} may not use Activities in #{channel.name}"
        return None

    def join(self, user: User, channel: Channel) -> Instance:
        """``user`` joins the Activity running in ``channel`` (as from its *Join* button)."""
        running = self._running.get(channel.id)
        if running is None or not running.users:
            raise EmulatorUsageError(f"No Activity is running in #{channel.name}.")
        return self.launch(user, channel)

    def leave(self, user: User, instance: Instance) -> None:
        """``user`` closes the Activity; the instance ends with its last person."""
        if user in instance.users:
            instance.users.remove(user)
            self.commands.left(user)
            self._participants_changed(instance)
        if not instance.users and self._running.get(instance.channel.id) is instance:
            del self._running[instance.channel.id]
            del self.instances[instance.id]
        self._fd._notify()

    def instance_payload(self, application_id: int, instance_id: str) -> dict[str, Any]:
        """Get Application Activity Instance: 404 for an unknown (or ended) instance."""
        found = self.instances.get(instance_id)
        if application_id != self._fd.application_id or found is None or not found.users:
            raise Refusal.NOT_FOUND.error()
        return found.payload(application_id)

    # -- the stand-in client -------------------------------------------------------------------
    def client_session(
        self, user: User, instance: Instance, *, unsupported: frozenset[str] = frozenset()
    ) -> str:
        """A session of the stand-in client for ``user`` in ``instance`` (they must be
        connected to it: launched or joined); ``unsupported``: the SDK's commands this client
        does not have (an older or another platform's: each is answered 4002)."""
        if user not in instance.users:
            raise EmulatorUsageError(f"{user.name} is not in the Activity {instance.id}.")
        session = _token()
        self._clients[session] = (user, instance)
        self._unsupported[session] = unsupported
        return session

    def unsupported(self, session: str) -> frozenset[str]:
        """The commands the client of ``session`` does not support."""
        return self._unsupported.get(session, frozenset())

    def client_of(self, session: str) -> tuple[User, Instance] | None:
        """Whose stand-in client ``session`` is, and in which instance."""
        return self._clients.get(session)

    def frame_query(self, instance: Instance, frame_id: str, platform: str) -> str:
        """The query string the client gives the Activity's page (the SDK reads it)."""
        query = {
            "instance_id": instance.id,
            "location_id": instance.location_id,
            "launch_id": str(instance.launch_id),
            "channel_id": str(instance.channel.id),
            "frame_id": frame_id,
            "platform": platform,
        }
        if instance.channel.guild is not None:
            query["guild_id"] = str(instance.channel.guild.id)
        return urlencode(query)

    # -- OAuth2 --------------------------------------------------------------------------------
    def decline(self, user: User, scope: str) -> None:
        """``user`` refuses to authorize the app whenever it asks for ``scope`` (the client's
        authorization dialog, cancelled); asked without it, they agree."""
        self._declined.setdefault(user.id, set()).add(scope)

    def agree(self, user: User, scope: str) -> None:
        """``user`` changes their mind: asked for ``scope`` again, they agree."""
        self._declined.get(user.id, set()).discard(scope)

    def authorize(self, user: User, client_id: str, scopes: list[str]) -> str:
        """What the client does for the SDK's ``authorize``: ``user`` grants the app ``scopes``
        (they authorised it before: ``prompt: none``), unless they refuse one of them
        (:meth:`decline`); the code to exchange."""
        if client_id != str(self._fd.application_id):
            raise OAuthError(400, "invalid_client", "Unknown application.")
        unknown = [s for s in scopes if s not in SCOPES]
        if not scopes or unknown:
            raise OAuthError(400, "invalid_scope", f"Invalid scope(s): {', '.join(unknown)}")
        if self._declined.get(user.id, set()) & set(scopes):
            raise OAuthError(400, "access_denied", "The user cancelled the authorization.")
        code = _token()
        self._grants[code] = _Grant(code, user, tuple(scopes), self._fd.clock.now())
        return code

    def exchange(self, form: dict[str, str], authorization: str) -> dict[str, Any]:
        """``POST /oauth2/token`` (form-encoded): the client authenticates with HTTP Basic or
        ``client_id`` and ``client_secret`` in the form; an ``authorization_code`` grant gives
        a bearer token once per code, within :data:`CODE_LIFETIME` (a code used again revokes
        what it gave); a ``refresh_token`` grant gives a new token."""
        try:
            answer = self._exchange(form, authorization)
        except OAuthError as error:
            self.refused.append(error.error)
            raise
        return answer

    def _exchange(self, form: dict[str, str], authorization: str) -> dict[str, Any]:
        basic = _basic(authorization) if authorization else None
        client, secret = basic or (form.get("client_id", ""), form.get("client_secret", ""))
        if client != str(self._fd.application_id) or not secrets.compare_digest(
            secret.encode(), self.client_secret.encode()
        ):
            raise OAuthError(401, "invalid_client")
        grant_type = form.get("grant_type", "")
        if grant_type == "refresh_token":
            return self._refresh(form.get("refresh_token", ""))
        if grant_type != "authorization_code":
            raise OAuthError(400, "unsupported_grant_type")
        code = form.get("code", "")
        grant = self._grants.get(code)
        now = self._fd.clock.now()
        if grant is None or now - grant.made_at > CODE_LIFETIME:
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        if grant.used:
            # RFC 6749 (4.1.2): a code used twice is refused, and what it gave is revoked.
            for token in grant.tokens:
                self._tokens[token].revoked = True
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        grant.used = True
        access = self._issue(grant.user, grant.scopes)
        grant.tokens.append(access.token)
        return self._token_body(access)

    def _refresh(self, refresh: str) -> dict[str, Any]:
        found = next((a for a in self._tokens.values() if a.refresh == refresh), None)
        if found is None or found.revoked:
            raise OAuthError(400, "invalid_grant", 'Invalid "refresh_token" in request.')
        found.revoked = True
        return self._token_body(self._issue(found.user, found.scopes))

    def _issue(self, user: User, scopes: tuple[str, ...]) -> Access:
        access = Access(_token(), _token(), user, scopes, self._fd.clock.now() + ACCESS_LIFETIME)
        self._tokens[access.token] = access
        return access

    @staticmethod
    def _token_body(access: Access) -> dict[str, Any]:
        return {
            "access_token": access.token,
            "token_type": "Bearer",
            "expires_in": int(ACCESS_LIFETIME),
            "refresh_token": access.refresh,
            "scope": " ".join(access.scopes),
        }

    def bearer(self, authorization: str) -> Access | None:
        """The live token an ``Authorization: Bearer <token>`` header names (None: none)."""
        scheme, _, token = authorization.partition(" ")
        if scheme != "Bearer":
            return None
        found = self._tokens.get(token)
        if found is None or found.revoked or found.expires_at <= self._fd.clock.now():
            return None
        return found

    def authorization_info(self, access: Access) -> dict[str, Any]:
        """``GET /oauth2/@me``: the application, the scopes, when the token expires, and the
        user (with the ``identify`` scope)."""
        wall = datetime.now(UTC).timestamp() + (access.expires_at - self._fd.clock.now())
        info: dict[str, Any] = {
            "application": {
                "id": str(self._fd.application_id),
                "name": self._fd.bot_user.name,
                "icon": None,
                "description": "",
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
            },
            "scopes": list(access.scopes),
            "expires": datetime.fromtimestamp(wall, UTC).isoformat(),
        }
        if "identify" in access.scopes:
            info["user"] = payloads.user(access.user)
        return info
