"""The people and places the core's tests use: a server, a channel in it, and six members."""

from __future__ import annotations

from bot.core.base.replies import User

GUILD = 500
CHANNEL = 1000

AL = User(1, "Al")
BEA = User(2, "Bea")
CY = User(3, "Cy")
DEE = User(4, "Dee")
EVE = User(5, "Eve")
FLO = User(6, "Flo")
PLAYERS = (AL, BEA, CY, DEE)
