"""What both halves of `FakeDiscord` read (`UserActions`, what users do, and `BotSide`, what the
bot does): the state lives on `FakeDiscord`; it is declared here once for the type checker."""

from __future__ import annotations

from fakediscord.activities import Activities
from fakediscord.gateway import Gateway
from fakediscord.interactions import Interaction
from fakediscord.model import Clock, User, World


class SharedState:
    """The emulator's state that both halves of `FakeDiscord` use."""

    world: World
    gateway: Gateway
    clock: Clock
    #: Seconds the bot has to answer an interaction (3 on Discord).
    response_deadline: float
    bot_user: User
    application_id: int
    interactions: dict[int, Interaction]
    _by_token: dict[str, Interaction]
    #: The app's Activity, its OAuth2 grants and its instances.
    activities: Activities
