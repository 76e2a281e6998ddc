"""The game service: every player action, from command or button, goes through here.

Each call takes the channel's lock, loads the game, validates and applies ONE engine action,
saves it (action log + snapshot + version check, one transaction) and returns an
:class:`~bot.outcome.Outcome` saying what to send. Nothing here imports Discord.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from bot.outcome import Choice, Outcome, User
from bot.store import Store
from engine.cards import Card

__all__ = ["GameService", "RngFactory"]

#: Makes the random source for one engine call; the key ("<game id>:<version>") lets tests
#: seed every deal differently yet reproducibly.
RngFactory = Callable[[str], random.Random]


class GameService:
    """Games of cribbage in Discord channels, one open game per channel or thread."""

    def __init__(
        self,
        store: Store,
        *,
        rng_factory: RngFactory,
        clock: Callable[[], datetime],
        idle_expiry: timedelta,
    ) -> None:
        raise NotImplementedError  # interface first; implementation follows

    @classmethod
    def create(cls, store: Store, *, idle_expiry: timedelta) -> GameService:
        """A service with real randomness and the UTC clock (what the running bot uses)."""
        raise NotImplementedError

    # -- lobby (by channel) ------------------------------------------------------------------
    async def new_game(
        self,
        guild_id: int | None,
        channel_id: int,
        user: User,
        *,
        players: int = 2,
        target: int = 121,
    ) -> Outcome:
        """Open a game in this channel with ``user`` in the first seat."""
        raise NotImplementedError

    async def join(self, channel_id: int, user: User) -> Outcome:
        """Take a seat in the channel's lobby."""
        raise NotImplementedError

    async def leave(self, channel_id: int, user: User) -> Outcome:
        """Give up a seat in the lobby (the creator leaving cancels the lobby)."""
        raise NotImplementedError

    async def start(self, channel_id: int, user: User) -> Outcome:
        """Deal, when every seat is taken (any seated player may start)."""
        raise NotImplementedError

    async def cancel(self, channel_id: int, user: User, *, moderator: bool = False) -> Outcome:
        """End the game with no result (its creator, or a moderator)."""
        raise NotImplementedError

    # -- the game (by channel) ---------------------------------------------------------------
    async def resign(self, channel_id: int, user: User) -> Outcome:
        """Concede: the other side wins; counts as a loss."""
        raise NotImplementedError

    async def discard(self, channel_id: int, user: User, cards: str | Sequence[Card]) -> Outcome:
        """Put cards in the crib (text as typed, e.g. ``"5H JD"``, or cards)."""
        raise NotImplementedError

    async def play(self, channel_id: int, user: User, card: str | Card) -> Outcome:
        """Play one card in the play."""
        raise NotImplementedError

    async def hand(self, channel_id: int, user: User) -> Outcome:
        """The user's hand, privately, with the controls for what they can do now."""
        raise NotImplementedError

    async def status(self, channel_id: int) -> Outcome:
        """The table: board, dealer, phase, turn, count and series (public)."""
        raise NotImplementedError

    # -- components (by game id; custom ids carry the game and the prompt's stamp) -----------
    async def click_lobby(
        self, game_id: int, button: str, user: User, *, moderator: bool = False
    ) -> Outcome:
        """A lobby button: ``"join"``, ``"leave"``, ``"start"`` or ``"cancel"``."""
        raise NotImplementedError

    async def click_discard(
        self, game_id: int, stamp: int, user: User, codes: Sequence[str]
    ) -> Outcome:
        """The discard select menu of a prompt (``codes`` are the selected card codes)."""
        raise NotImplementedError

    async def click_play(self, game_id: int, stamp: int, user: User, code: str) -> Outcome:
        """A card button of a play prompt."""
        raise NotImplementedError

    async def lobby_posted(self, game_id: int, message_id: int) -> None:
        """Remember the lobby message's id so later changes edit it (also after a restart)."""
        raise NotImplementedError

    async def dm_failed(self, game_id: int, user_id: int) -> Outcome:
        """A DM to this player was refused: the channel line telling them to use ``hand``."""
        raise NotImplementedError

    # -- autocomplete -------------------------------------------------------------------------
    async def autocomplete_discard(
        self, channel_id: int, user_id: int, current: str
    ) -> list[Choice]:
        """The user's cards matching what they typed (empty when they have nothing to discard)."""
        raise NotImplementedError

    async def autocomplete_play(self, channel_id: int, user_id: int, current: str) -> list[Choice]:
        """Only the cards the user may legally play now (empty when it is not their turn)."""
        raise NotImplementedError

    # -- server-wide --------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int | None) -> Outcome:
        """The server's standings (games between people), ranked."""
        raise NotImplementedError

    async def stats(self, guild_id: int | None, user: User) -> Outcome:
        """One player's record on this server."""
        raise NotImplementedError

    def rules(self, topic: str | None = None) -> Outcome:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        raise NotImplementedError

    async def expire_idle(self, now: datetime | None = None) -> list[Outcome]:
        """End every game idle longer than the expiry (no stats); one outcome per game."""
        raise NotImplementedError
