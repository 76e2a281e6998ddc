"""``/cribbage tournament ...``: a server's tournaments, a thin line over
:class:`bot.core.tournaments.tournaments.Tournaments` (``services.tournaments``).

Opening a tournament needs a moderator (Manage Server or Manage Events); starting one, its
organiser or a moderator, and the bot's permission to make threads in the channel (each
pairing is played in a thread: Create Public Threads, Send Messages in Threads), checked
before anything starts, so a channel without them gets one clear line and nothing else. A
server that did not invite the bot (reached through someone's user install) has none, nor a
voice or stage channel's chat (Discord starts no thread there, whatever permissions the
interaction carries: those of threads apply to text channels only).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.replies import Answer, User
from bot.core.services import Services
from bot.core.vocabulary import DEFAULT_FORMAT, TOURNAMENT_SEATS
from bot.discord.interactions import io_of, is_organiser, send_error, user_of
from bot.discord.options import TARGET_CHOICES, variant_choices
from bot.discord.places import bot_is_member, is_voice_chat
from engine import formats
from engine.outcome import Scoring
from engine.variants import STANDARD, listed

__all__ = [
    "NEEDS_THE_BOT",
    "NO_THREADS_IN_VOICE",
    "THREADS_NEEDED",
    "TournamentCommands",
    "format_choices",
    "format_described",
    "is_organiser",
]

#: A tournament command outside a server channel (a DM, a group DM).
TOURNAMENTS_NEED_A_CHANNEL = "Tournaments live in a server channel: use this command there."
#: Said in a server that did not invite the bot (reached through someone's user install):
#: the bot's token may make no thread there.
NEEDS_THE_BOT = (
    "Tournaments need the bot invited to this server: each game is played in a thread the "
    "bot starts, and it can't start one in a server it wasn't invited to. Ask someone who "
    "manages the server to invite it."
)
#: ``/cribbage tournament new`` in a voice or stage channel's chat, where Discord starts no
#: thread.
NO_THREADS_IN_VOICE = (
    "Tournament games are played in threads, which Discord doesn't have in voice or stage"
    " channels: use `/cribbage tournament new` in a text channel (a game for tonight is"
    " `/cribbage new`, here)."
)
#: Said when the bot may not make the threads a tournament is played in.
THREADS_NEEDED = (
    "I can't run a tournament here: each game is played in a thread, and I need the"
    " **Create Public Threads** and **Send Messages in Threads** permissions in this channel."
)


def format_choices() -> list[app_commands.Choice[str]]:
    """The ``format`` option's choices: every registered format (:mod:`engine.formats`)."""
    return [
        app_commands.Choice(name=f"{kind.title}: {kind.summary}", value=kind.name)
        for kind in formats.listed()
    ]


def format_described() -> str:
    """The ``format`` option's description: the formats' names, the default marked."""
    return formats.choices_text(default=DEFAULT_FORMAT)


#: The variants a tournament may play: those for two players.
_VARIANTS = variant_choices(tuple(v for v in listed() if TOURNAMENT_SEATS in v.seats))
_MATCHES = [
    app_commands.Choice(name="a single game", value=1),
    app_commands.Choice(name="best of 3", value=3),
]
_PLAYOFFS = [
    app_commands.Choice(name="top 4 into a best-of-3 knockout", value=4),
    app_commands.Choice(name="top 8 into a best-of-3 knockout", value=8),
]
_SCORING = [
    app_commands.Choice(name="lurch: 3 game points for a win by a lurch", value="lurch"),
    app_commands.Choice(name="skunk: 3 game points for a win by a skunk", value="skunk"),
]
#: A tournament command's call to the core, in the tournament's channel, as the user.
Act = Callable[[Services, int, User], Awaitable[Answer]]


def _may_thread(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.app_permissions
    return bool(perms.create_public_threads and perms.send_messages_in_threads)


class TournamentCommands(app_commands.Group):
    """``/cribbage tournament``: open, enter, leave, start, cancel, standings, withdraw,
    result."""

    def __init__(self) -> None:
        super().__init__(name="tournament", description="Tournaments on this server")

    @staticmethod
    def _where(
        interaction: discord.Interaction[Any], *, opening: bool = False
    ) -> tuple[int, int] | str:
        """The tournament's server and channel, or why there can be none here. In a thread
        (where its matches are played) that is the thread's channel, except for ``opening``
        one: a tournament's home is a channel, whose threads it makes."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return TOURNAMENTS_NEED_A_CHANNEL
        if not bot_is_member(interaction):
            return NEEDS_THE_BOT
        channel = interaction.channel
        if is_voice_chat(channel):
            # Discord starts no thread in a voice or stage channel (50024).
            return (
                NO_THREADS_IN_VOICE if opening else (interaction.guild_id, interaction.channel_id)
            )
        if isinstance(channel, discord.Thread):
            if opening or channel.parent_id is None:
                return TOURNAMENTS_NEED_A_CHANNEL
            return interaction.guild_id, channel.parent_id
        return interaction.guild_id, interaction.channel_id

    @app_commands.command(name="new", description="Open a tournament in this channel (moderators)")
    @app_commands.describe(
        format=format_described(),
        rounds="Swiss rounds (default: enough for one unbeaten player, at most 9)",
        target="Points to win each game (default 121; five-card 61, seven-card 181)",
        scoring="Game points: lurch (default) or skunk",
        round_hours="How long a round may take, 0.25 (15 minutes) to 336 (14 days); default 24",
        match="Each pairing plays a single game (default) or a best of 3",
        playoff="After the Swiss rounds, the top 4 or 8 play a best-of-3 knockout",
        variant="Every game in: standard (default), five-card or seven-card cribbage",
    )
    @app_commands.choices(format=format_choices(), scoring=_SCORING)
    @app_commands.choices(target=TARGET_CHOICES, match=_MATCHES, playoff=_PLAYOFFS)
    @app_commands.choices(variant=_VARIANTS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        format: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, 9] | None = None,
        target: app_commands.Choice[int] | None = None,
        scoring: app_commands.Choice[str] | None = None,
        round_hours: app_commands.Range[float, 0.25, 336.0] | None = None,
        match: app_commands.Choice[int] | None = None,
        playoff: app_commands.Choice[int] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """Open a tournament; its message takes entrants with Join and Leave."""
        where = await self._threads_here(interaction)
        if where is None:
            return
        guild_id, channel_id = where
        user, moderator = user_of(interaction), is_organiser(interaction)
        core = io_of(interaction).services.tournaments
        await io_of(interaction).command(
            interaction,
            lambda: core.new(
                guild_id,
                channel_id,
                user,
                moderator=moderator,
                format=format.value if format else DEFAULT_FORMAT,
                rounds=rounds or 0,
                target=target.value if target else None,
                scoring=scoring.value if scoring else Scoring.LURCH,
                round_hours=round_hours if round_hours is not None else 24.0,
                match_games=match.value if match else 1,
                playoff=playoff.value if playoff else 0,
                variant=variant.value if variant else STANDARD.name,
            ),
        )

    async def _threads_here(self, interaction: discord.Interaction[Any]) -> tuple[int, int] | None:
        """The server and channel of a tournament that starts threads here, or None once the
        refusal is answered (not a place for tournaments, or no right to start threads)."""
        where = self._where(interaction, opening=True)
        if isinstance(where, str):
            await send_error(interaction, where)
            return None
        if not _may_thread(interaction):
            await send_error(interaction, THREADS_NEEDED)
            return None
        return where

    async def _here(self, interaction: discord.Interaction[Any], act: Act) -> None:
        where = self._where(interaction)
        if isinstance(where, str):
            await send_error(interaction, where)
            return
        core, user = io_of(interaction).services, user_of(interaction)
        await io_of(interaction).command(interaction, lambda: act(core, where[1], user))

    @app_commands.command(name="join", description="Enter this channel's tournament")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Enter the tournament."""
        await self._here(interaction, lambda s, c, u: s.tournaments.join(c, u))

    @app_commands.command(
        name="leave", description="Leave this channel's tournament (before it starts)"
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave before the start."""
        await self._here(interaction, lambda s, c, u: s.tournaments.leave(c, u))

    @app_commands.command(
        name="start", description="Start this channel's tournament (its organiser or a moderator)"
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start: round 1 is paired and dealt in threads."""
        if await self._threads_here(interaction) is None:
            return
        mod = is_organiser(interaction)
        await self._here(interaction, lambda s, c, u: s.tournaments.start(c, u, moderator=mod))

    @app_commands.command(
        name="cancel", description="Cancel this channel's tournament (its organiser or a moderator)"
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Cancel: games being played end without a result; the standings so far stay."""
        mod = is_organiser(interaction)
        await self._here(interaction, lambda s, c, u: s.tournaments.ask_cancel(c, u, moderator=mod))

    @app_commands.command(
        name="standings", description="This channel's tournament standings, privately"
    )
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        """Everyone's line, privately."""
        await self._here(interaction, lambda core, ch, _user: core.tournaments.standings(ch))

    @app_commands.command(name="withdraw", description="Withdraw from this channel's tournament")
    async def withdraw(self, interaction: discord.Interaction[Any]) -> None:
        """Withdraw: remaining games are forfeited, past results stand."""
        await self._here(interaction, lambda s, c, u: s.tournaments.ask_withdraw(c, u))

    @app_commands.command(
        name="result", description="Record or correct a result of this round (moderators)"
    )
    @app_commands.describe(
        winner="The player who won", loser="The player who lost", margin="Points between them"
    )
    async def result(
        self,
        interaction: discord.Interaction[Any],
        winner: discord.User,
        loser: discord.User,
        margin: app_commands.Range[int, 0, 121] | None = None,
    ) -> None:
        """A moderator sets the result between two players of the round being played."""
        moderator = is_organiser(interaction)
        won = User(winner.id, winner.display_name)
        lost = User(loser.id, loser.display_name)
        await self._here(
            interaction,
            lambda core, ch, user: core.tournaments.set_result(
                ch, user, moderator=moderator, winner=won, loser=lost, margin=margin or 0
            ),
        )
