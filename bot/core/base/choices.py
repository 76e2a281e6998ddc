"""The fixed choices the bot offers, and their words: what ``/cribbage`` commands list in their
options and the Activity in its menus, defined here (low in the core) so that the wings that
act on a choice and the outer layers that offer it read one definition.

- the computer's levels (:data:`engine.players.LEVELS`) as players see them: each level's
  name at the table (:func:`level_name`), its blurb (:data:`LEVEL_BLURBS`), and the level a
  game against the computer gets when none is chosen (:data:`DEFAULT_LEVEL`);
- a tournament's format when none is chosen (:data:`DEFAULT_FORMAT`), its games' seats
  (:data:`TOURNAMENT_SEATS`), the variants it may play (:func:`tournament_variants`) and how
  long its rounds may take (:data:`ROUND_HOURS`, :data:`DEFAULT_ROUND_HOURS`, in words
  :data:`ROUND_HOURS_SAID`);
- the ranked ladders ``/cribbage ranked ladder`` shows (:data:`LadderSeason`), and how many
  players each lists (:data:`LADDER_SHOWN`);
- the two tables of a server's leaderboard in words (:data:`POOL_TITLES`).
"""

from __future__ import annotations

from typing import Literal

from bot.core.base.views import Pool
from engine.players import LEVELS
from engine.variants import Variant, listed

__all__ = [
    "DEFAULT_FORMAT",
    "DEFAULT_LEVEL",
    "DEFAULT_ROUND_HOURS",
    "LADDER_SHOWN",
    "LEVEL_BLURBS",
    "POOL_TITLES",
    "ROUND_HOURS",
    "ROUND_HOURS_SAID",
    "TOURNAMENT_SEATS",
    "LadderSeason",
    "level_name",
    "tournament_variants",
]

#: The level a game against the computer gets when none is chosen: ``hard``, a real game that
#: a newcomer still wins now and then. ``expert``, stronger than a club player, is for those
#: who ask for it.
DEFAULT_LEVEL = "hard"

#: What each level is like, in a few words (the "Add computer" menu and ``/cribbage new``
#: show them); every level has one (a test checks).
LEVEL_BLURBS: dict[str, str] = {
    "easy": "Greedy, and a random move one time in five",
    "medium": "Good discards, simple pegging",
    "hard": "Strong discards, looks ahead when pegging",
    "expert": "Strongest: reads your discard, plays each card out, plays for the game",
}


def level_name(level: str) -> str:
    """A computer level as a player's name: "Hard bot". Short, and without brackets, since it
    stands in the calls' running scores ("(Hard bot 17)"), beside a partner ("Al & Easy
    bot 2") and in the leaderboard's narrow table."""
    if level not in LEVELS:
        raise ValueError(f"There is no computer level called “{level}”.")
    return f"{level.capitalize()} bot"


#: The format of a tournament opened without one (a name in :mod:`engine.formats`).
DEFAULT_FORMAT = "swiss"
#: A tournament's games are between two players.
TOURNAMENT_SEATS = 2


def tournament_variants() -> tuple[Variant, ...]:
    """The variants a tournament may play: the registered ones that seat
    :data:`TOURNAMENT_SEATS` (the standard game, five-card and seven-card cribbage), in the
    registry's order. The command's menu and its words, the refusal of another and the range
    of a result's margin are all drawn from it."""
    return tuple(variant for variant in listed() if TOURNAMENT_SEATS in variant.seats)


#: How long a tournament's round may take, in hours: from 15 minutes to 14 days; a day when
#: not chosen (the wing refuses other values, the command's option offers these).
ROUND_HOURS = (0.25, 24.0 * 14)
DEFAULT_ROUND_HOURS = 24.0
#: The bounds as ``/cribbage tournament new`` and its refusal say them, in the option's unit
#: and in words: "0.25 (15 minutes) to 336 (14 days)".
ROUND_HOURS_SAID = (
    f"{ROUND_HOURS[0]:g} ({ROUND_HOURS[0] * 60:g} minutes) to"
    f" {ROUND_HOURS[1]:g} ({ROUND_HOURS[1] / 24:g} days)"
)

#: Players a season's ranked ladder lists (the ladder reads that many; the command says so).
LADDER_SHOWN = 50

#: Which ladder ``/cribbage ranked ladder`` shows: this season's, the last one's final
#: standings, or every season's champion.
LadderSeason = Literal["this", "last", "champions"]

#: The two tables of a server's leaderboard (:data:`~bot.core.base.views.Pool`) in words: as
#: the leaderboard's title names them and ``/cribbage leaderboard``'s ``table`` offers them.
POOL_TITLES: dict[Pool, str] = {
    "people": "games between people",
    "computer": "games against the computer",
}
