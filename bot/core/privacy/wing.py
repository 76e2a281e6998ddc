"""Privacy put together: what is kept about a person, its file and its deletion, by every wing
that keeps something of them (their calls handed in: privacy stands below the tournaments and
ranked play), and the servers the bot left, their data deleted after the grace period."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, User
from bot.core.play.wing import GamesWing
from bot.core.privacy.players import PlayerData
from bot.core.privacy.records import PrivacyRecords
from bot.core.privacy.servers import ServerData
from bot.core.settings import CoreSettings, Given

__all__ = ["PrivacyWing", "privacy_wing"]


@dataclass(frozen=True, slots=True)
class PrivacyWing:
    """Privacy's parts."""

    privacy: PlayerData
    servers: ServerData


def privacy_wing(
    store: PrivacyRecords,
    play: GamesWing,
    settings: CoreSettings,
    given: Given,
    *,
    withdraw: Callable[[int, User], Awaitable[Answer]],
    quit_ranked: Callable[[User], Awaitable[Answer]],
    forget: Callable[[Owner], None],
    settle: Callable[[Answer], Awaitable[None]],
) -> PrivacyWing:
    """Privacy on ``store`` and the games of ``play``; ``withdraw``: a person's withdrawal from
    a channel's tournament; ``quit_ranked``: their ranked search or match quit; ``forget``: an
    owner of messages forgotten (a server left); ``settle``: what is done with an answer
    made for nobody (a game ended as a person's data is deleted)."""

    privacy = PlayerData(
        store,
        play.games,
        resign=play.moves.resign,
        leave=play.lobbies.leave,
        withdraw=withdraw,
        settle=settle,
        quit_ranked=quit_ranked,
        forgotten=play.coach.forget,
        retention=settings.retention,
        idle_expiry=settings.idle_expiry,
        grace=settings.left_server_grace,
        policy_url=settings.policy_url,
        contact=settings.contact,
        clock=given.clock,
    )
    servers = ServerData(store, grace=settings.left_server_grace, clock=given.clock, forget=forget)
    return PrivacyWing(privacy, servers)
