"""Pointing the real discord.py client at an emulator running in the same process."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import yarl

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord


def point_discord_py_at(fd: FakeDiscord) -> Callable[[], None]:
    """Send every discord.py REST request and gateway connection to `fd`; returns an undo.

    Sets `discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY`, the only two places
    discord.py 2.7 keeps Discord's addresses. Call it before the client logs in.
    """
    import discord.gateway
    import discord.http

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fd.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fd.gateway_url)

    def undo() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return undo


def point_discord_py_at_urls(api_base: str, gateway_url: str) -> None:
    """The same, given the two URLs (a bot process reads them from its environment)."""
    import discord.gateway
    import discord.http

    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
