"""What the Activity's server asks of Discord to know who a page belongs to, as a protocol the
bot's Discord side fulfils (:class:`bot.discord.activity.DiscordActivity`), so the web server
never holds a Discord client of its own.

Discord's flow (docs/activity.md): the page's SDK ``authorize`` gives an authorization code;
the server exchanges it, with the application's client secret, at Discord's OAuth2 token
endpoint for the person's bearer token (:meth:`ActivityDiscord.exchange`), and learns who they
are with it (``GET /users/@me``: :meth:`ActivityDiscord.person`). Where the Activity runs, and
whether the person is in it, comes from the bot's own token (``GET /applications/{app}/
activity-instances/{instance}``: :meth:`ActivityDiscord.place`), never from the page, whose
query string anyone can write; so do the names of the people *Deal everyone in* seats
(:meth:`ActivityDiscord.names`), never the page's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["ActivityDiscord", "ActivityPerson", "ActivityPlace", "ActivityRefused", "avatar_url"]


class ActivityRefused(Exception):
    """Discord would not say who the person is or where the Activity runs (a code used or
    expired, a client secret it refused, Discord in trouble): ``str()`` is the sentence for the
    page, ``status`` the HTTP status it is answered with (403: refused; 502: Discord did not
    answer as it should)."""

    def __init__(self, said: str, *, status: int = 403) -> None:
        super().__init__(said)
        self.status = status


@dataclass(frozen=True, slots=True)
class ActivityPerson:
    """A person as Discord names them: id, the name they show (their global name, else their
    username) and their avatar's hash (None: Discord's default)."""

    id: int
    name: str
    avatar: str | None


@dataclass(frozen=True, slots=True)
class ActivityPlace:
    """Where an Activity instance runs (a channel, in a server or not) and who is in it."""

    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class ActivityDiscord(Protocol):
    """Discord, as the Activity's server needs it."""

    @property
    def application_id(self) -> int:
        """The application's id (the OAuth2 client id the page's SDK is made with)."""
        ...

    async def exchange(self, code: str) -> str:
        """The bearer token an authorization code gives (raises :class:`ActivityRefused`)."""
        ...

    async def person(self, access_token: str) -> ActivityPerson:
        """Who a bearer token is of (raises :class:`ActivityRefused`)."""
        ...

    async def place(self, instance_id: str) -> ActivityPlace | None:
        """Where an Activity instance runs and who is in it (None: no such instance now)."""
        ...

    def bot_in(self, guild_id: int | None) -> bool:
        """Whether the bot is a member of the server (None, a DM or group DM: never), so may
        post a game's messages there itself."""
        ...

    async def bots_dm(self, channel_id: int, user_id: int) -> bool:
        """Whether ``channel_id`` is the bot's own DM with ``user_id`` (not a DM between
        people or a group DM), where only a ranked match and lessons are played (raises
        :class:`ActivityRefused`)."""
        ...

    async def names(self, user_ids: Sequence[int], guild_id: int | None) -> dict[int, str]:
        """The names people are seated by, as Discord gives them to the bot (a server member's
        display name there), for those Discord knows (raises :class:`ActivityRefused`)."""
        ...


def avatar_url(user_id: int, avatar: str | None) -> str | None:
    """A person's avatar on Discord's CDN (which Discord lets an Activity load), or None for
    Discord's default one (the page draws their initial instead)."""
    if not avatar:
        return None
    return f"https://cdn.discordapp.com/avatars/{user_id}/{avatar}.png?size=64"
