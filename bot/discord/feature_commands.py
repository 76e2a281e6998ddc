"""The ``/cribbage`` commands around the games: a player's settings (``coach``, ``privacy``),
the records (``leaderboard``, ``stats``, ``halloffame``), a game looked at again (``review``,
``verify``), the discard of the day (``daily``), a hand counted (``count-hand``) and help
(``help``, ``rules``).

Each is one call on the core (:meth:`DiscordIO.command
<bot.discord.interactions.DiscordIO.command>`): an act, run where the command's scope finds
what it acts on (:class:`bot.core.feature_acts.FeatureActs`), or a part's call that works
anywhere. They are the
``/cribbage`` group's own (:class:`bot.discord.commands.CribbageCommands`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.core.base.choices import POOL_TITLES
from bot.core.base.replies import Answer, User
from bot.core.base.views import Pool
from bot.core.faces import DiscordFace
from bot.discord.courier import DMS_CLOSED
from bot.discord.interactions import DiscordIO, user_of
from bot.discord.options import VARIANT_CHOICES, hands_said
from bot.discord.places import place_of
from engine.variants import STANDARD, listed

__all__ = ["LARGEST_GAME", "RULE_TOPICS", "FeatureCommands"]

#: The largest game number a command option takes: Discord's integer options hold at most
#: 2**53 - 1 (its OpenAPI description's `Int53Type`; the docs' "Application Command Option Type":
#: "any integer between -2^53+1 and 2^53-1"). One bound out of range refuses the whole command
#: list, so no command would appear at all.
LARGEST_GAME = 2**53 - 1
#: A game named by its number (``review``, ``verify``), and what its option says.
_GAME = app_commands.Range[int, 1, LARGEST_GAME]
_GAME_SAID = "The game's number (default: the latest game in this channel)"

#: Topics of ``/cribbage rules``, in the order they are offered.
RULE_TOPICS: tuple[tuple[str, str], ...] = (
    ("Overview", "overview"),
    ("The deal and the crib", "deal"),
    ("The play (pegging)", "play"),
    ("The show (counting hands)", "show"),
    ("Scoring table", "scoring"),
    ("Bot commands", "commands"),
    ("Five-card cribbage (with sources)", "five-card"),
    ("Seven-card cribbage (with sources)", "seven-card"),
    ("Five players: five-hand (with sources)", "five-hand"),
    ("Six players: six-hand (with sources)", "six-hand"),
)

_ON_OFF = [
    app_commands.Choice(name="on", value="on"),
    app_commands.Choice(name="off", value="off"),
]
_TABLES = [app_commands.Choice(name=title, value=pool) for pool, title in POOL_TITLES.items()]
_SEASONS = [
    app_commands.Choice(name="this month", value="this_month"),
    app_commands.Choice(name="last month", value="last_month"),
    app_commands.Choice(name="all time (ratings)", value="all_time"),
]


def _choices(names: list[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=name) for name in names]


class FeatureCommands(app_commands.Group):
    """The commands around the games, run on ``services`` and answered through ``io``."""

    def __init__(self, services: DiscordFace, io: DiscordIO) -> None:
        super().__init__()
        self._core = services
        self._io = io

    @app_commands.command(
        name="coach", description="After each show, a private line about your discard: on or off"
    )
    @app_commands.describe(setting="on or off (leave it out to see your setting)")
    @app_commands.choices(setting=_ON_OFF)
    async def coach(
        self,
        interaction: discord.Interaction[Any],
        setting: app_commands.Choice[str] | None = None,
    ) -> None:
        """Your coach setting; works anywhere, DMs included (it is yours, not a server's)."""
        user, coach = user_of(interaction), self._core.coach
        on = None if setting is None else setting.value == "on"
        await self._io.command(interaction, lambda: coach.coach(user, on))

    @app_commands.command(name="leaderboard", description="This server's cribbage ratings")
    @app_commands.describe(
        table="Games between people (default), or against the computer",
        season="All time by rating (default), or a calendar month by game points",
        variant="Which game's ratings: each variant is rated apart (default: standard)",
    )
    @app_commands.choices(table=_TABLES, season=_SEASONS, variant=VARIANT_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Choice[str] | None = None,
        season: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """The server's standings by rating, ten to a page; or a month's, by game points;
        of the standard game unless ``variant`` names another (each is rated apart)."""
        chosen: Pool = "computer" if table is not None and table.value == "computer" else "people"
        kind = variant.value if variant else STANDARD.name
        month = season.value if season is not None and season.value != "all_time" else None
        user, place, acts = user_of(interaction), place_of(interaction), self._core.feature_acts
        await self._io.command(
            interaction,
            lambda: acts.leaderboard(place, user, table=chosen, month=month, variant=kind),
            ephemeral=False,
        )

    @app_commands.command(
        name="stats",
        description="A player's cribbage record: this server's games, or outside servers in a DM",
    )
    @app_commands.describe(
        user="Whose record (default: yours)",
        against="Their games against this player instead (head to head)",
    )
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        against: discord.User | None = None,
    ) -> None:
        """One player's record, or with ``against`` their head to head; in a DM or group DM
        (where the bot is not a member), of the games played outside servers."""
        who = user_of(interaction) if user is None else User(user.id, user.display_name)
        rival = None if against is None else User(against.id, against.display_name)
        asker, place, acts = user_of(interaction), place_of(interaction), self._core.feature_acts
        await self._io.command(
            interaction, lambda: acts.stats(place, asker, who, rival), ephemeral=False
        )

    @app_commands.command(
        name="count-hand",
        description="What a hand is worth: the count itemised, as the show says it",
    )
    @app_commands.describe(
        cards="The hand's cards (a crib's with crib), like 5H 5D JC QS",
        starter="The starter, like 5S",
        crib="Count it as a crib (a crib's flush needs the starter's suit too)",
        show="Answer in the channel for everyone (default: just you)",
        variant=f"Count by a variant's rules (default standard): {hands_said(listed())}",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def count_hand(
        self,
        interaction: discord.Interaction[Any],
        cards: str,
        starter: str,
        crib: bool = False,
        show: bool = False,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """Count any hand, anywhere (a DM too): nothing in a game changes."""
        hands = self._core.hands
        kind = variant.value if variant else None
        await self._io.command(
            interaction,
            lambda: hands.count(cards, starter, crib=crib, show=show, variant=kind),
            ephemeral=not show,
        )

    @count_hand.autocomplete("cards")
    async def _count_hand_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # (The options typed so far: as many cards as that variant's hand, or crib, holds.)
        typed = interaction.namespace
        kind = getattr(typed, "variant", None)
        crib = getattr(typed, "crib", False) is True
        hands = self._core.hands
        return _choices(hands.complete_hand(current, crib=crib, variant=kind or None))

    @count_hand.autocomplete("starter")
    async def _count_hand_starter(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        hand = str(getattr(interaction.namespace, "cards", "") or "")
        return _choices(self._core.hands.complete_starter(current, hand))

    @app_commands.command(
        name="daily", description="The discard of the day: the same six cards for everyone here"
    )
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Today's hand, privately, to choose the crib's two once; then the answer and the
        server's board (outside servers the core says the hand of the day is a server's)."""
        user, place, acts = user_of(interaction), place_of(interaction), self._core.feature_acts
        await self._io.command(interaction, lambda: acts.daily(place, user))

    @app_commands.command(
        name="review", description="Your decisions in a game beside the expert's (privately)"
    )
    @app_commands.describe(
        game=_GAME_SAID,
        player="Whose decisions (default: yours; anyone's once the game is over)",
    )
    async def review(
        self,
        interaction: discord.Interaction[Any],
        game: _GAME | None = None,
        player: discord.User | None = None,
    ) -> None:
        """A review of a game, paged: the summary, then each deal (at a private table, a DM
        or group DM, as in a server: its answer and pages go through the interactions)."""
        user, place = user_of(interaction), place_of(interaction)
        whose = None if player is None else User(player.id, player.display_name)
        acts = self._core.feature_acts
        await self._io.command(interaction, lambda: acts.review(place, user, game, whose))

    @app_commands.command(
        name="verify", description="Check a game's shuffles against the seals shown (privately)"
    )
    @app_commands.describe(game=_GAME_SAID)
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        game: _GAME | None = None,
    ) -> None:
        """Each shown deal's seed checked against its seal and the deck it was dealt from
        (at a private table too)."""
        user, place, acts = user_of(interaction), place_of(interaction), self._core.feature_acts
        await self._io.command(interaction, lambda: acts.verify(place, user, game))

    @app_commands.command(
        name="halloffame", description="This server's 28s and 29s, best hands and champions"
    )
    async def halloffame(self, interaction: discord.Interaction[Any]) -> None:
        """The server's hall of fame, public."""
        user, place, acts = user_of(interaction), place_of(interaction), self._core.feature_acts
        await self._io.command(interaction, lambda: acts.hall_of_fame(place, user), ephemeral=False)

    @app_commands.command(
        name="privacy", description="What this bot keeps about you: get a copy, or delete it"
    )
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        """What is kept and for how long, privately, with the buttons that send the file and
        delete it; works anywhere, DMs included (it is about the person, not a server)."""
        user, privacy = user_of(interaction), self._core.privacy
        await self._io.command(interaction, lambda: privacy.explain(user))

    @app_commands.command(name="help", description="The commands you need first")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The first commands, privately; works anywhere, DMs included. Someone who has
        never played is offered ``/cribbage learn`` the first time."""
        user, lessons = user_of(interaction), self._core.lessons
        await self._io.command(interaction, lambda: lessons.help(user))

    @app_commands.command(
        name="learn", description="Learn to play: a first game against a gentle computer, in DM"
    )
    async def learn(self, interaction: discord.Interaction[Any]) -> None:
        """A lesson in the user's DM with the bot (or their hand of the one they have open),
        privately; works anywhere. Asked elsewhere, the welcome posted in the DM first tells
        whether Discord lets the bot message them (50007: it does not)."""
        user, lessons = user_of(interaction), self._core.lessons

        async def call() -> Answer:
            # (discord.py keeps the DM channel once known: one request the first time.)
            dm = await interaction.user.create_dm()

            async def reach(text: str) -> bool:
                try:
                    await dm.send(text)
                except discord.Forbidden as error:
                    if error.code == DMS_CLOSED:
                        return False
                    raise
                return True

            here = interaction.channel_id == dm.id
            place = place_of(interaction)
            in_server = place.bot_member and place.guild_id is not None
            return await lessons.learn(user, dm.id, here=here, in_server=in_server, reach=reach)

        await self._io.command(interaction, call)

    @app_commands.command(name="rules", description="How cribbage is played and scored")
    @app_commands.describe(topic="What to explain (default: an overview)")
    @app_commands.choices(
        topic=[app_commands.Choice(name=name, value=value) for name, value in RULE_TOPICS]
    )
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        topic: app_commands.Choice[str] | None = None,
    ) -> None:
        """Rules help; works anywhere, DMs included."""
        chosen = topic.value if topic else None

        async def call() -> Answer:
            return self._core.rules(chosen)

        await self._io.command(interaction, call)
