"""The Activity on Discord's side: its Entry Point command, the launch, and who a page's person is.

- The Entry Point command (:data:`ENTRY_POINT`, *launch*, a ``PRIMARY_ENTRY_POINT`` command,
  type 4) is the App Launcher's way in. It has the name of the one Discord makes when
  Activities are turned on in the developer portal, so syncing it replaces that one (an app
  has one Entry Point command at most). Its handler is ``APP_HANDLER`` (1): Discord sends the
  bot the interaction, and the bot answers it with ``LAUNCH_ACTIVITY`` (callback type 12), the
  same answer as a table's *Play at the table* button (:meth:`GameIO.launch
  <bot.discord.game_io.GameIO.launch>`), so both open the Activity the same way, and
  nothing is posted in the channel for it (with ``DISCORD_LAUNCH_ACTIVITY`` Discord would
  launch it itself and post a message there). discord.py's command tree has no type for it:
  :class:`CribbageTree` takes its interactions before the tree looks for a command, and the
  command is synced with the global commands (:func:`sync_entry_point`).
- :class:`DiscordActivity` is what the game pages' server asks Discord
  (:class:`bot.web.activity.identity.ActivityDiscord`): the OAuth2 code exchanged with the
  application's client secret, the person looked up with their token, and the Activity's
  instance looked up with the bot's own token (through discord.py's HTTP client, so it is
  paced within the bot's limits), and the names of the people *Deal everyone in* seats.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.http import Route

from bot.web.activity.identity import ActivityPerson, ActivityPlace, ActivityRefused

__all__ = [
    "DISCORD_TROUBLE",
    "ENTRY_POINT",
    "PRIMARY_ENTRY_POINT",
    "SIGNED_OUT",
    "CribbageTree",
    "DiscordActivity",
    "sync_entry_point",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: The command type of an Entry Point command (Application Commands, "Application Command
#: Types").
PRIMARY_ENTRY_POINT = 4
#: The bot's Entry Point command: handled by the app (``handler`` 1, APP_HANDLER), usable
#: where a game can be (server installs and user installs; servers, the bot's own DM, where
#: a lesson and a ranked match are played, and DMs and group DMs between people).
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "description": "Open the cribbage table of this channel",
    "type": PRIMARY_ENTRY_POINT,
    "handler": 1,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
#: What the page is told when Discord would not give its person's token.
SIGNED_OUT = (
    "Discord didn't confirm who you are (the sign-in expired): close the table and open it again."
)
#: What it is told when Discord refused the bot's client secret (the operator's to mend).
NOT_SET_UP = "This bot's Activity isn't set up right: its owner should check CLIENT_SECRET."
#: What it is told when Discord answered nothing in time, an error of its own (a 5xx, a 429),
#: or something that is not what was asked for (Cloudflare's HTML page, another shape).
DISCORD_TROUBLE = (
    "Discord isn't answering the table properly right now: close the table and open it again"
    " in a moment."
)
#: Seconds a question to Discord may take before the page is told (the page waits for it).
LOOKUP_WITHIN = 10.0
#: How much of an unexpected answer the log line quotes.
GLIMPSE = 120


class CribbageTree(app_commands.CommandTree[Any]):
    """The bot's command tree: an Entry Point command's interaction opens the Activity
    (discord.py's tree knows no command of that type, and would fail to find one)."""

    #: What opens the Activity for an Entry Point command's interaction (handed in once the bot
    #: is put together: the game's table, as its *Play at the table* does).
    launch: Callable[[discord.Interaction[Any]], Awaitable[None]] | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Let the tree handle every interaction but the Entry Point command's."""
        data: dict[str, Any] = dict(interaction.data or {})
        if data.get("type") == PRIMARY_ENTRY_POINT:
            if self.launch is not None:
                await self.launch(interaction)
            return False
        return True


async def sync_entry_point(client: discord.Client, *, with_globals: list[Any] | None) -> None:
    """Register the Entry Point command. ``with_globals``: the global commands' payloads being
    synced (a bulk overwrite replaces them all, so the Entry Point goes with them); None when
    only a server's commands are synced (an Entry Point command is global only: it is created
    alone, leaving the other global commands as they are)."""
    app_id = client.application_id
    assert app_id is not None
    if with_globals is None:
        await client.http.upsert_global_command(app_id, payload=dict(ENTRY_POINT))  # type: ignore[arg-type]
    else:
        payload = [*with_globals, dict(ENTRY_POINT)]
        await client.http.bulk_upsert_global_commands(app_id, payload=payload)


class DiscordActivity:
    """Discord, as the Activity's server needs it (:class:`bot.web.activity.identity.
    ActivityDiscord`), through ``client`` (the bot) and the application's ``client_secret``.

    Whatever Discord answers that is not what was asked for (an error, a 5xx, Cloudflare's HTML
    page, a body of another shape, nothing within ``lookup_within`` seconds) is one line in the
    log and an :class:`ActivityRefused` with :data:`DISCORD_TROUBLE` for the page (502)."""

    def __init__(
        self,
        client: discord.Client,
        client_secret: str,
        *,
        lookup_within: float = LOOKUP_WITHIN,
        trace: aiohttp.TraceConfig | None = None,
    ) -> None:
        """``trace``: the hooks of the OAuth2 calls' own HTTP session (the operator's metrics
        count every request to Discord, these too: :func:`bot.discord.traffic.count_traffic`);
        the rest go through the bot's."""
        self._client = client
        self._secret = client_secret
        self._within = lookup_within
        self._traces = [] if trace is None else [trace]
        self._session: aiohttp.ClientSession | None = None
        self._told_secret = False

    @property
    def application_id(self) -> int:
        """The application's id (its OAuth2 client id)."""
        assert self._client.application_id is not None
        return self._client.application_id

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            timeout = aiohttp.ClientTimeout(total=self._within)
            self._session = aiohttp.ClientSession(timeout=timeout, trace_configs=self._traces)
        return self._session

    async def _ask(self, method: str, path: str, what: str, **request: Any) -> tuple[int, Any]:
        """Discord's answer to an OAuth2 call: its status, and its body as JSON. No answer in
        time, a body that is not JSON, a 5xx or a 429 (Discord's trouble, not the person's)
        is noted in the log as the Activity's ``what`` and refused."""
        try:
            async with self._http().request(method, f"{Route.BASE}{path}", **request) as answer:
                status, text = answer.status, await answer.text(errors="replace")
        except TimeoutError:
            raise _trouble(what, f"no answer in time ({self._within:g} s)") from None
        except aiohttp.ClientError as error:
            raise _trouble(what, f"Discord not reached ({type(error).__name__}: {error})") from None
        if status >= 500 or status == 429:
            raise _trouble(what, f"Discord answered {status}: {_glimpse(text)}")
        try:
            return status, json.loads(text)
        except ValueError:
            raise _trouble(what, f"Discord answered {status}, not JSON: {_glimpse(text)}") from None

    async def close(self) -> None:
        """Close the HTTP session the OAuth2 calls use."""
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> str:
        """Exchange an authorization code at Discord's token endpoint (form-encoded, with the
        client's id and secret); the person's bearer token."""
        form = {
            "client_id": str(self.application_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        status, body = await self._ask("POST", "/oauth2/token", "code exchange", data=form)
        token = body.get("access_token") if isinstance(body, dict) else None
        if status == 200 and isinstance(token, str):
            return token
        if status == 401 and not self._told_secret:
            # Once: the operator's CLIENT_SECRET is wrong (or was reset in the portal).
            self._told_secret = True
            log.warning("Discord refused the Activity's client secret (401): check CLIENT_SECRET")
        raise ActivityRefused(NOT_SET_UP if status == 401 else SIGNED_OUT)

    async def person(self, access_token: str) -> ActivityPerson:
        """Who ``access_token`` is of (``GET /users/@me``, which needs the ``identify``
        scope)."""
        headers = {"Authorization": f"Bearer {access_token}"}
        status, body = await self._ask("GET", "/users/@me", "user lookup", headers=headers)
        if status != 200 or not isinstance(body, dict) or "id" not in body:
            raise ActivityRefused(SIGNED_OUT)
        name = body.get("global_name") or body.get("username") or "someone"
        avatar = body.get("avatar")
        return ActivityPerson(
            int(body["id"]), str(name)[:80], avatar if isinstance(avatar, str) else None
        )

    async def place(self, instance_id: str) -> ActivityPlace | None:
        """The instance's location and people (``GET /applications/{app}/activity-instances/
        {instance}``, with the bot's token); None for one Discord does not know (404)."""
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.application_id,
            instance_id=instance_id,
        )
        what = "instance lookup"
        try:
            found = await _asking(what, self._within, self._client.http.request(route))
        except discord.NotFound:
            return None
        place = _place_of(_read(found, what))
        if place is None:
            raise _trouble(what, f"Discord answered no location: {_glimpse(json.dumps(found))}")
        return place

    def bot_in(self, guild_id: int | None) -> bool:
        """Whether the bot is a member of the server (it has its GUILD_CREATE)."""
        return guild_id is not None and self._client.get_guild(guild_id) is not None

    async def bots_dm(self, channel_id: int, user_id: int) -> bool:
        """Whether ``channel_id`` is the bot's DM with ``user_id``: the DM channel Discord
        gives the bot for them (``POST /users/@me/channels``: the one they have, "Create DM"),
        unless discord.py knows it already."""
        dm = await _asking(
            "DM lookup", self._within, self._client.create_dm(discord.Object(user_id))
        )
        return dm.id == channel_id

    async def names(self, user_ids: Sequence[int], guild_id: int | None) -> dict[int, str]:
        """The names the chat's lobby would seat ``user_ids`` by (as ``display_name`` says:
        their nickname in the server, else their global name, else their username), asked of
        Discord with the bot's token (``GET /guilds/{guild}/members/{user}``; outside a server,
        or one the bot is not in, ``GET /users/{user}``); someone Discord does not know there
        is left out."""
        http = self._client.http
        names: dict[int, str] = {}
        for user_id in user_ids:
            try:
                async with asyncio.timeout(self._within):
                    if guild_id is not None and self.bot_in(guild_id):
                        member = _read(await http.get_member(guild_id, user_id), "name lookup")
                    else:
                        member = {"user": _read(await http.get_user(user_id), "name lookup")}
            except discord.NotFound:
                continue
            except discord.HTTPException as error:
                answered = f"Discord answered {error.status}: {_glimpse(error.text)}"
                raise _trouble("name lookup", answered) from None
            except TimeoutError:
                raise _trouble("name lookup", f"no answer in time ({self._within:g} s)") from None
            except (aiohttp.ClientError, OSError) as error:
                why = f"Discord not reached ({type(error).__name__}: {error})"
                raise _trouble("name lookup", why) from None
            user = member.get("user") if isinstance(member, dict) else None
            if not isinstance(user, dict):
                raise _trouble("name lookup", f"Discord answered {_glimpse(json.dumps(member))}")
            name = member.get("nick") or user.get("global_name") or user.get("username")
            if isinstance(name, str) and name:
                names[user_id] = name[:80]
        return names


async def _asking(what: str, within: float, asked: Awaitable[T]) -> T:
    """What Discord answers ``asked`` (the Activity's ``what``) within ``within`` seconds; its
    trouble raised as the page's refusal (:func:`_trouble`), a 404 (``discord.NotFound``) left
    to the caller. (discord.py retries a 500, 502 or 504 for some 25 s, and waits out a 429:
    the page is answered within its own time instead.)"""
    try:
        async with asyncio.timeout(within):
            return await asked
    except discord.NotFound:
        raise
    except discord.HTTPException as error:
        answered = f"Discord answered {error.status}: {_glimpse(error.text)}"
        raise _trouble(what, answered) from None
    except TimeoutError:
        raise _trouble(what, f"no answer in time ({within:g} s)") from None
    except (aiohttp.ClientError, OSError) as error:
        raise _trouble(what, f"Discord not reached ({type(error).__name__}: {error})") from None


def _trouble(what: str, why: str) -> ActivityRefused:
    """The refusal for Discord's trouble with the Activity's ``what``, noted in one log line."""
    log.warning("the Activity's %s failed: %s", what, why)
    return ActivityRefused(DISCORD_TROUBLE, status=502)


def _read(found: Any, what: str) -> Any:
    """A body discord.py handed back: read as JSON where it is text. (discord.py reads a body as
    JSON only under ``Content-Type: application/json`` exactly; with a charset after it, or
    anything else, it hands back the text.)"""
    if not isinstance(found, str):
        return found
    try:
        return json.loads(found)
    except ValueError:
        raise _trouble(what, f"Discord answered text, not JSON: {_glimpse(found)}") from None


def _glimpse(text: Any) -> str:
    """The start of an answer, on one line, for the log."""
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= GLIMPSE else flat[: GLIMPSE - 1] + "…")


def _snowflake(value: Any) -> int | None:
    """An id as Discord writes it (a string of digits, or a number); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    text = str(value)
    return int(text) if text.isdigit() and 0 < len(text) <= 20 else None


def _place_of(found: Any) -> ActivityPlace | None:
    """The instance object's location and people (Get Application Activity Instance: ``location``
    with ``channel_id`` and, in a server, ``guild_id``; ``users``, their ids); None when it is
    not of that shape."""
    location = found.get("location") if isinstance(found, dict) else None
    if not isinstance(location, dict):
        return None
    channel = _snowflake(location.get("channel_id"))
    raw_guild = location.get("guild_id")
    guild = None if raw_guild is None else _snowflake(raw_guild)
    users = found.get("users", [])
    ids = [_snowflake(u) for u in users] if isinstance(users, list) else [None]
    if channel is None or (raw_guild is not None and guild is None) or None in ids:
        return None
    return ActivityPlace(channel, guild, frozenset(u for u in ids if u is not None))
