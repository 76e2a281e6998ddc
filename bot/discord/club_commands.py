"""``/club ...``: a server's club nights, a thin line over
:class:`bot.core.nights.nights.Nights` (``services.nights``), with its check-in over
:class:`bot.core.nights.attendance.Attendance` (``services.attendance``) and its league over
:class:`bot.core.nights.leagues.Leagues` (``services.leagues``).

A command of its own beside ``/cribbage``: Discord holds one slash command to 8,000 characters
of names, descriptions and choices, and to 25 subcommands, and ``/cribbage`` has nearly all of
both. Its commands work in a server that invited the bot (a server's, never a DM's), each where
its scope says (:mod:`bot.core.base.places`): ``/club night`` in a text channel, where each
night's games are played in threads (so the bot needs Create Public Threads and Send Messages
in Threads there, as for a tournament), the others in the club's channel or its threads, and
``/club timezone`` anywhere in the server.

Whether the bot may make the night's entry in the server's *Events* list is read from the
permissions the interaction carries (Create Events, or Manage Events; and View Channel and
Connect in a voice channel the event is in): without them the night is scheduled all the
same, and the moderator is told in one sentence what the Events entry needs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.choices import tournament_variants
from bot.core.base.places import Place
from bot.core.base.replies import Answer, User
from bot.core.faces import DiscordFace
from bot.discord.interactions import DiscordIO, is_organiser, user_of
from bot.discord.options import TARGET_CHOICES, targets_said, variant_choices, variants_said
from bot.discord.places import place_of
from bot.discord.tournament_commands import format_choices, format_described, threads_lacking

__all__ = ["EVENTS_NEEDED", "ClubCommands", "events_refusal"]

#: What a moderator is told when the bot may not make the night's Events entry.
EVENTS_NEEDED = (
    "I can't add it to the server's **Events**: the Events entry needs the **Create Events**"
    " permission for me (Server Settings → Roles → my role, or invite me again with it), and"
    " the night starts at its time all the same."
)
#: The same, for a night whose event is in a voice channel.
VOICE_EVENTS_NEEDED = (
    "I can't add it to the server's **Events**: an event in {channel} needs the **Create Events**"
    " permission for me, and **View Channel** and **Connect** there (Server Settings → Roles →"
    " my role, and the channel's permissions), and the night starts at its time all the same."
)
_REPEAT = [
    app_commands.Choice(name="once", value="once"),
    app_commands.Choice(name="weekly", value="weekly"),
    app_commands.Choice(name="every other week", value="fortnightly"),
    app_commands.Choice(name="monthly (the same weekday of the same week)", value="monthly"),
]
_MATCHES = [
    app_commands.Choice(name="a single game", value=1),
    app_commands.Choice(name="best of 3", value=3),
]
_SCORING = [
    app_commands.Choice(name="lurch", value="lurch"),
    app_commands.Choice(name="skunk", value="skunk"),
]
_SEASONS = [
    app_commands.Choice(name="this season", value="this"),
    app_commands.Choice(name="last season", value="last"),
    app_commands.Choice(name="every season's champion", value="champions"),
]
_VARIANTS = variant_choices(tournament_variants())
#: A club command's act in the core, where it was used, by whom.
Act = Callable[[Place, User], Awaitable[Answer]]


def events_refusal(
    interaction: discord.Interaction[Any], voice: discord.VoiceChannel | None
) -> str | None:
    """Why the bot may not make a night's Events entry, as the moderator is told it (None: it
    may), from the permissions the interaction carries (and the bot's in ``voice``)."""
    perms = interaction.app_permissions
    if not (perms.create_events or perms.manage_events):
        if voice is not None:
            return VOICE_EVENTS_NEEDED.format(channel=voice.mention)
        return EVENTS_NEEDED
    if voice is not None:
        guild = interaction.guild
        me = None if guild is None else guild.me
        there = voice.permissions_for(me) if me is not None else None
        if there is None or not (there.view_channel and there.connect):
            return VOICE_EVENTS_NEEDED.format(channel=voice.mention)
    return None


class ClubCommands(app_commands.Group):
    """``/club``: night, checkin, skip, move, end, league, timezone; run on ``services`` and
    answered through ``io``."""

    def __init__(self, services: DiscordFace, io: DiscordIO) -> None:
        super().__init__(
            name="club",
            description="Cribbage club nights: scheduled, weekly, with a league",
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
        )
        self._core = services
        self._io = io

    @app_commands.command(
        name="night", description="Schedule a club night here, as a Discord event (moderators)"
    )
    @app_commands.describe(
        when="When it starts, as you'd say it: Friday 20:00, tomorrow 8pm, 6 March 19:30",
        repeat="Once (default), or it comes round: weekly, every other week, monthly",
        name="Its name (default: Friday cribbage night, or Cribbage night)",
        format=format_described(),
        rounds="Swiss rounds (default: enough for one unbeaten player)",
        target=f"Points to win each game ({targets_said(tournament_variants())})",
        scoring="Game points: lurch (default) or skunk",
        round_minutes="How long a round may take, 15 to 180 minutes; default 30",
        match="Each pairing plays a single game (default) or a best of 3",
        variant=f"Every game in: {variants_said(tournament_variants())}",
        voice="A voice channel where the night gathers: its event is there",
    )
    @app_commands.choices(repeat=_REPEAT, format=format_choices(), scoring=_SCORING)
    @app_commands.choices(target=TARGET_CHOICES, match=_MATCHES)
    @app_commands.choices(variant=_VARIANTS)
    async def night(
        self,
        interaction: discord.Interaction[Any],
        when: app_commands.Range[str, 1, 100],
        repeat: app_commands.Choice[str] | None = None,
        name: app_commands.Range[str, 1, 80] | None = None,
        format: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, 9] | None = None,
        target: app_commands.Choice[int] | None = None,
        scoring: app_commands.Choice[str] | None = None,
        round_minutes: app_commands.Range[int, 15, 180] | None = None,
        match: app_commands.Choice[int] | None = None,
        variant: app_commands.Choice[str] | None = None,
        voice: discord.VoiceChannel | None = None,
    ) -> None:
        """Schedule a night (once, or coming round) in this channel."""
        user, place, club = user_of(interaction), place_of(interaction), self._core.club_acts
        moderator, lacking = is_organiser(interaction), threads_lacking(interaction)
        refusal = events_refusal(interaction, voice)
        await self._io.command(
            interaction,
            lambda: club.night(
                place,
                user,
                moderator=moderator,
                lacking=lacking,
                when=when,
                events_refusal=refusal,
                repeat=repeat.value if repeat else "once",
                name=name,
                format=format.value if format else "swiss",
                rounds=rounds or 0,
                target=target.value if target else None,
                scoring=scoring.value if scoring else "lurch",
                round_minutes=round_minutes or 30,
                match_games=match.value if match else 1,
                variant=variant.value if variant else "standard",
                voice_id=voice.id if voice else None,
            ),
        )

    async def _here(
        self, interaction: discord.Interaction[Any], act: Act, *, public: bool = False
    ) -> None:
        """A command on the club here: ``act`` with the place and the person (its answer for
        everyone here if ``public``)."""
        place, user = place_of(interaction), user_of(interaction)
        await self._io.command(interaction, lambda: act(place, user), ephemeral=not public)

    async def _offer_when(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        guild_id = interaction.guild_id
        if guild_id is None:
            return []
        return await self._io.offered(interaction, self._core.nights.offer_times(guild_id, current))

    @night.autocomplete("when")
    async def _when(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._offer_when(interaction, current)

    @app_commands.command(name="checkin", description="Check in to tonight's club night here")
    async def checkin(self, interaction: discord.Interaction[Any]) -> None:
        """Check in (one press on the night's message does the same)."""
        await self._here(interaction, self._core.club_acts.checkin)

    @app_commands.command(name="skip", description="Skip the next club night here (moderators)")
    async def skip(self, interaction: discord.Interaction[Any]) -> None:
        """Skip the next night; the one after is scheduled as usual."""
        mod, club = is_organiser(interaction), self._core.club_acts
        await self._here(
            interaction, lambda place, user: club.skip(place, user, moderator=mod), public=True
        )

    @app_commands.command(name="move", description="Move the next club night here (moderators)")
    @app_commands.describe(when="Its new time, as you'd say it: Saturday 19:30")
    async def move(
        self, interaction: discord.Interaction[Any], when: app_commands.Range[str, 1, 100]
    ) -> None:
        """Move the next night to another time."""
        mod, club = is_organiser(interaction), self._core.club_acts
        await self._here(
            interaction,
            lambda place, user: club.move(place, user, moderator=mod, when=when),
            public=True,
        )

    @move.autocomplete("when")
    async def _move_when(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._offer_when(interaction, current)

    @app_commands.command(name="end", description="No more club nights here (moderators)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """End the club's nights (its league stays)."""
        mod, club = is_organiser(interaction), self._core.club_acts
        await self._here(
            interaction, lambda place, user: club.end(place, user, moderator=mod), public=True
        )

    @app_commands.command(name="league", description="The league table of the club nights here")
    @app_commands.describe(season="This season (default), the last, or every season's champion")
    @app_commands.choices(season=_SEASONS)
    async def league(
        self, interaction: discord.Interaction[Any], season: app_commands.Choice[str] | None = None
    ) -> None:
        """The league table, for everyone."""
        club, chosen = self._core.club_acts, season.value if season else "this"
        await self._here(
            interaction, lambda place, user: club.league(place, user, chosen), public=True
        )

    @app_commands.command(
        name="timezone", description="The server's time zone for club nights (moderators set it)"
    )
    @app_commands.describe(zone="A time zone, e.g. Europe/London (leave out to see the server's)")
    async def timezone(
        self,
        interaction: discord.Interaction[Any],
        zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Say or set the server's time zone."""
        mod, club = is_organiser(interaction), self._core.club_acts
        await self._here(
            interaction, lambda place, user: club.timezone(place, user, moderator=mod, zone=zone)
        )

    @timezone.autocomplete("zone")
    async def _zone(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=c.name, value=c.value)
            for c in self._core.nights.offer_zones(current)
        ]
