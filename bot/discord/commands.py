"""The ``/cribbage`` slash-command group.

Each command is a thin line over the core: it says where it was used (a place,
:func:`bot.discord.places.place_of`), the core says what the command acts on there for the
person who used it, or why nothing (:meth:`WhichGame.run <bot.core.which_game.WhichGame.run>`,
by the command's scope), and :class:`bot.discord.interactions.DiscordIO` answers the
interaction and sends the outcome.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.places import Resolved
from bot.core.base.replies import Answer, Choice, User
from bot.core.base.views import Pool
from bot.core.services import Services
from bot.core.vocabulary import (
    DEFAULT_LEVEL,
    HELP,
    LEVEL_BLURBS,
    LEVELS,
    add_lines,
    complete_cards,
)
from bot.discord.interactions import (
    io_of,
    offered,
    run_here,
    send_error,
    user_of,
)
from bot.discord.options import CLAIMS_SAID, HIGHEST_CLAIM, TARGET_CHOICES, VARIANT_CHOICES
from bot.discord.places import INSTALLS, PLACES, ask_of, cannot_post, place_of
from bot.discord.ranked_commands import RankedCommands
from bot.discord.tournament_commands import TournamentCommands
from engine.counting import Counting
from engine.outcome import Scoring
from engine.variants import STANDARD

__all__ = ["DIFFICULTY_ALONE", "RULE_TOPICS", "CribbageCommands"]

#: The largest game number a command option takes: Discord's integer options hold at most
#: 2**53 - 1 (its OpenAPI description's `Int53Type`; the docs' "Application Command Option Type":
#: "any integer between -2^53+1 and 2^53-1"). One bound out of range refuses the whole command
#: list, so no command would appear at all.
LARGEST_GAME = 2**53 - 1

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

_PLAYERS = [
    app_commands.Choice(name="2 players", value=2),
    app_commands.Choice(name="3 players", value=3),
    app_commands.Choice(name="4 players (two teams of partners)", value=4),
    app_commands.Choice(name="5 players (five-hand: each for themselves)", value=5),
    app_commands.Choice(name="6 players (six-hand: two teams of three, or teams:pairs)", value=6),
]
_TEAMS = [
    app_commands.Choice(name="threes: two teams of three, in alternate seats", value="threes"),
    app_commands.Choice(name="pairs: three teams of two, partners opposite", value="pairs"),
]
#: Strongest first, as the menu reads best.
_DIFFICULTIES = [
    app_commands.Choice(name=f"{level} ({LEVEL_BLURBS[level].lower()})"[:100], value=level)
    for level in reversed(LEVELS)
]
_ON_OFF = [
    app_commands.Choice(name="on", value="on"),
    app_commands.Choice(name="off", value="off"),
]
#: ``difficulty`` only means something against the computer.
DIFFICULTY_ALONE = (
    "`difficulty` is for games against the computer: use `vs_computer:True`, or open the game "
    "and add computer players from the lobby's menu."
)
_TABLES = [
    app_commands.Choice(name="games between people", value="people"),
    app_commands.Choice(name="games against the computer", value="computer"),
]
_SEASONS = [
    app_commands.Choice(name="this month", value="this_month"),
    app_commands.Choice(name="last month", value="last_month"),
    app_commands.Choice(name="all time (ratings)", value="all_time"),
]
_SCORING = [
    app_commands.Choice(name="lurch: 2 game points when the loser is short of half", value="lurch"),
    app_commands.Choice(name="skunk: 2 under 91, 3 under 61 (61 games: 2 under 31)", value="skunk"),
]
_COUNTING = [
    app_commands.Choice(name="auto: the bot counts every hand", value="auto"),
    app_commands.Choice(name="manual: count your own hands, with muggins", value="manual"),
]

#: A player's command's call to the core, on the game in a channel, as a user.
Act = Callable[[Services, int, User], Awaitable[Answer]]


def _core(interaction: discord.Interaction[Any]) -> Services:
    return io_of(interaction).services


Completer = Callable[[int, int, str], Awaitable[list[Choice]]]


async def _completions(
    interaction: discord.Interaction[Any], complete: Completer, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for a card option: what ``complete`` offers this user in the game the
    command would act on (nothing where it would be refused)."""
    which, place = _core(interaction).which, place_of(interaction)
    found = which.offered(ask_of(interaction), place, interaction.user.id, current, complete)
    return await offered(interaction, found)


async def _by_player(interaction: discord.Interaction[Any], act: Act) -> None:
    """A command of the user who used it, on the game it acts on for them here (their ranked
    game where they play it, else the place's): ``act(core, channel, user)``."""
    user = user_of(interaction)
    core = _core(interaction)
    await run_here(interaction, lambda found: act(core, found.channel_id, user))


class CribbageCommands(app_commands.Group):
    """``/cribbage ...``: every command of the game."""

    def __init__(self) -> None:
        super().__init__(
            name="cribbage",
            description="Play cribbage in this channel",
            allowed_installs=INSTALLS,
            allowed_contexts=PLACES,
        )
        self.add_command(TournamentCommands())
        self.add_command(RankedCommands())

    # -- lobby --------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a cribbage game in this channel")
    @app_commands.describe(
        players="How many players (default 2; 4 play as partners, 5 five-hand, 6 in teams)",
        target="Points to win (default 121; five-card cribbage 61, seven-card 181)",
        vs_computer="Play the computer: it takes the other seats and the game deals at once",
        difficulty="How well the computer plays (default hard); implies vs_computer",
        scoring="Game points: lurch (default, 2 for a loser short of half) or the skunk scale",
        counting="Who counts the show: auto (default) or manual, you count, with muggins",
        variant="Standard (default), five-card, seven-card, five-hand or six-hand cribbage",
        teams="Six players only: two teams of three (default) or three teams of two",
    )
    @app_commands.choices(players=_PLAYERS, target=TARGET_CHOICES)
    @app_commands.choices(difficulty=_DIFFICULTIES, scoring=_SCORING, counting=_COUNTING)
    @app_commands.choices(variant=VARIANT_CHOICES, teams=_TEAMS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Choice[int] | None = None,
        target: app_commands.Choice[int] | None = None,
        vs_computer: bool | None = None,
        difficulty: app_commands.Choice[str] | None = None,
        scoring: app_commands.Choice[str] | None = None,
        counting: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        teams: app_commands.Choice[str] | None = None,
    ) -> None:
        """Open a game; you take the first seat (against the computer: it deals at once)."""
        if difficulty is not None and vs_computer is False:
            await send_error(interaction, DIFFICULTY_ALONE)
            return
        lacking = cannot_post(interaction)
        if lacking is not None:
            # (The lobby is the command's answer, but the deals' tables are the bot's posts.)
            await send_error(interaction, lacking)
            return
        user = user_of(interaction)
        # Left out, the variant's own (the standard game: two players to 121).
        seats = players.value if players else None
        points = target.value if target else None
        kind = variant.value if variant else None
        layout = teams.value if teams else None
        # Choosing a difficulty says you want to play the computer.
        computer = bool(vs_computer) or difficulty is not None
        level = difficulty.value if difficulty else DEFAULT_LEVEL
        guild_id = interaction.guild_id
        private = not place_of(interaction).bot_member
        lobbies = _core(interaction).lobbies
        await run_here(
            interaction,
            lambda found: lobbies.new_game(
                guild_id,
                found.channel_id,
                user,
                players=seats,
                target=points,
                vs_computer=computer,
                difficulty=level,
                scoring=scoring.value if scoring else Scoring.LURCH,
                counting=counting.value if counting else Counting.AUTO,
                variant=kind,
                teams=layout,
                token=interaction.token,
                private=private,
            ),
            ephemeral=False,  # the answer is the lobby, in the channel
        )

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Join the lobby."""
        await _by_player(interaction, lambda core, ch, user: core.lobbies.join(ch, user))

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby."""
        await _by_player(interaction, lambda core, ch, user: core.lobbies.leave(ch, user))

    @app_commands.command(name="start", description="Deal the first hand once every seat is taken")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start the game."""
        await _by_player(interaction, lambda core, ch, user: core.lobbies.start(ch, user))

    @app_commands.command(
        name="cancel",
        description=(
            "End this game with no result (its creator in the lobby; after the deal, moderators)"
        ),
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Cancel the game with no result: its creator in the lobby, a moderator at any time
        (Manage Messages in the channel, or Manage Server)."""
        user, moderator = user_of(interaction), place_of(interaction).moderator
        lobbies = _core(interaction).lobbies
        await run_here(
            interaction,
            lambda found: lobbies.ask_cancel(found.channel_id, user, moderator=moderator),
        )

    # -- the game -----------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your hand privately, with its controls")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Your hand, ephemerally (the fallback when DMs are closed; at a private table or a
        ranked place, kept up to date as the table's Your hand is)."""
        table, user = _core(interaction).table, user_of(interaction)
        which, place, ask = _core(interaction).which, place_of(interaction), ask_of(interaction)

        async def call() -> Answer:
            return await which.run(
                ask, place, user.id, lambda found: table.hand(found.channel_id, user)
            )

        await io_of(interaction).own_hand(interaction, call)

    @app_commands.command(name="discard", description="Put cards from your hand in the crib")
    @app_commands.describe(cards="The card(s) to throw, e.g. 5H JD (2 cards with 2 players)")
    async def discard(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Discard to the crib."""
        await _by_player(interaction, lambda core, ch, user: core.moves.discard(ch, user, cards))

    @discard.autocomplete("cards")
    async def _discard_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await _completions(
            interaction, _core(interaction).table.autocomplete_discard, current
        )

    @app_commands.command(name="play", description="Play a card in the pegging")
    @app_commands.describe(card="The card to play, e.g. 5H; only cards you may play are offered")
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        """Play one card."""
        await _by_player(interaction, lambda core, ch, user: core.moves.play(ch, user, card))

    @play.autocomplete("card")
    async def _play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await _completions(interaction, _core(interaction).table.autocomplete_play, current)

    @app_commands.command(
        name="count", description="Claim what your hand (or crib) is worth, with manual counting"
    )
    @app_commands.describe(
        points=f"Your count, {CLAIMS_SAID}, claimed once: too few or too many costs points"
    )
    async def count(
        self,
        interaction: discord.Interaction[Any],
        points: app_commands.Range[int, 0, HIGHEST_CLAIM],
    ) -> None:
        """Claim the count of the hand you must count now."""
        await _by_player(interaction, lambda core, ch, user: core.moves.count(ch, user, points))

    @app_commands.command(
        name="status", description="Show the table: scores, dealer, whose turn, the count"
    )
    @app_commands.describe(show="Show it to the whole channel (default: only you see it)")
    async def status(self, interaction: discord.Interaction[Any], show: bool | None = None) -> None:
        """The table, with a picture of the board: privately unless ``show``."""
        table = _core(interaction).table
        public = bool(show)
        await run_here(
            interaction,
            lambda found: table.status(found.channel_id, public=public),
            ephemeral=not public,
        )

    @app_commands.command(name="resign", description="Concede this channel's game (a loss)")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Concede."""
        await _by_player(interaction, lambda core, ch, user: core.moves.ask_resign(ch, user))

    # -- records, settings and help -------------------------------------------------------------

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
        user = user_of(interaction)
        on = None if setting is None else setting.value == "on"
        coach = _core(interaction).coach
        await io_of(interaction).command(interaction, lambda: coach.coach(user, on))

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
        seasons, standings = _core(interaction).seasons, _core(interaction).standings
        month = season.value if season is not None and season.value != "all_time" else None

        async def act(found: Resolved) -> Answer:
            if month is not None:
                return await seasons.leaderboard(found.server_id, month, table=chosen, variant=kind)
            return await standings.leaderboard(found.server_id, table=chosen, variant=kind)

        await run_here(interaction, act, ephemeral=False)

    @app_commands.command(name="stats", description="A player's cribbage record on this server")
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
        core, here = _core(interaction), interaction.channel_id

        async def act(found: Resolved) -> Answer:
            guild_id = found.guild_id
            answer = await core.standings.stats(guild_id, who, rival, here=here)
            if rival is not None:
                return answer
            # The accuracy of the reviewed games, outside servers too (the games there are
            # reviewed as a server's are); the discard of the day is a server's alone.
            answer = await core.reviews.with_stats(answer, guild_id, who.id)
            daily = await core.daily.stats_line(guild_id, who.id)
            return add_lines(answer, [daily] if daily else [])

        await run_here(interaction, act, ephemeral=False)

    @app_commands.command(
        name="count-hand",
        description="What a hand is worth: the count itemised, as the show says it",
    )
    @app_commands.describe(
        cards="The four hand cards, like 5H 5D JC QS",
        starter="The starter, like 5S",
        crib="Count it as a crib (a crib's flush needs the starter's suit too)",
        show="Answer in the channel for everyone (default: just you)",
    )
    async def count_hand(
        self,
        interaction: discord.Interaction[Any],
        cards: str,
        starter: str,
        crib: bool = False,
        show: bool = False,
    ) -> None:
        """Count any hand, anywhere (a DM too): nothing in a game changes."""
        hands = _core(interaction).hands
        await io_of(interaction).command(
            interaction,
            lambda: hands.count(cards, starter, crib=crib, show=show),
            ephemeral=not show,
        )

    @count_hand.autocomplete("cards")
    async def _count_hand_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        kept = _core(interaction).hands.rules.kept
        return [app_commands.Choice(name=c, value=c) for c in complete_cards(current, kept)]

    @count_hand.autocomplete("starter")
    async def _count_hand_starter(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        hand = str(getattr(interaction.namespace, "cards", "") or "")
        return [
            app_commands.Choice(name=c, value=c)
            for c in complete_cards(current, 1)
            if c not in hand.upper().split()
        ]

    @app_commands.command(
        name="daily", description="The discard of the day: the same six cards for everyone here"
    )
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        """Today's hand, privately, to choose the crib's two once; then the answer and the
        server's board (outside servers the core says the hand of the day is a server's)."""
        user, daily = user_of(interaction), _core(interaction).daily
        await run_here(interaction, lambda found: daily.daily(found.guild_id, user))

    @app_commands.command(
        name="review", description="Your decisions in a game beside the expert's (privately)"
    )
    @app_commands.describe(
        game="The game's number (default: the latest game in this channel)",
        player="Whose decisions (default: yours; anyone's once the game is over)",
    )
    async def review(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, LARGEST_GAME] | None = None,
        player: discord.User | None = None,
    ) -> None:
        """A review of a game, paged: the summary, then each deal (at a private table, a DM
        or group DM, as in a server: its answer and pages go through the interactions)."""
        user, place = user_of(interaction), place_of(interaction)
        whose = None if player is None else User(player.id, player.display_name)
        reviews = _core(interaction).reviews
        await run_here(
            interaction,
            lambda found: reviews.review(place, found.channel_id, user, game, whose),
            named=game is not None,
        )

    @app_commands.command(
        name="verify", description="Check a game's shuffles against the seals shown (privately)"
    )
    @app_commands.describe(game="The game's number (default: the latest game in this channel)")
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, LARGEST_GAME] | None = None,
    ) -> None:
        """Each shown deal's seed checked against its seal and the deck it was dealt from
        (at a private table too)."""
        place, viewer = place_of(interaction), interaction.user.id
        shuffles = _core(interaction).shuffles
        await run_here(
            interaction,
            lambda found: shuffles.check(place, found.channel_id, game, viewer=viewer),
            named=game is not None,
        )

    @app_commands.command(
        name="halloffame", description="This server's 28s and 29s, best hands and champions"
    )
    async def halloffame(self, interaction: discord.Interaction[Any]) -> None:
        """The server's hall of fame, public."""
        seasons, here = _core(interaction).seasons, interaction.channel_id
        await run_here(
            interaction,
            lambda found: seasons.hall_of_fame(found.server_id, here=here),
            ephemeral=False,
        )

    @app_commands.command(
        name="privacy", description="What this bot keeps about you: get a copy, or delete it"
    )
    async def privacy(self, interaction: discord.Interaction[Any]) -> None:
        """What is kept and for how long, privately, with the buttons that send the file and
        delete it; works anywhere, DMs included (it is about the person, not a server)."""
        user, privacy = user_of(interaction), _core(interaction).privacy
        await io_of(interaction).command(interaction, lambda: privacy.explain(user))

    @app_commands.command(name="help", description="The commands you need first")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """The first commands, privately; works anywhere, DMs included."""

        async def call() -> Answer:
            return Answer.say(HELP)

        await io_of(interaction).command(interaction, call)

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
            return Services.rules(chosen)

        await io_of(interaction).command(interaction, call)
