"""The people and places the core's tests use: a server, a channel in it, and six members."""

from __future__ import annotations

from bot.core.base.places import Place, Spot
from bot.core.base.replies import User

GUILD = 500
CHANNEL = 1000


def in_server(channel: int = CHANNEL, guild: int = GUILD) -> Place:
    """A text channel of a server that invited the bot (the channel, of the server)."""
    return Place(Spot.CHANNEL, channel, guild)


def outside(channel: int) -> Place:
    """A DM or group DM between people, where the app is used through a user install."""
    return Place(Spot.PRIVATE, channel)


AL = User(1, "Al")
BEA = User(2, "Bea")
CY = User(3, "Cy")
DEE = User(4, "Dee")
EVE = User(5, "Eve")
FLO = User(6, "Flo")
PLAYERS = (AL, BEA, CY, DEE)
