"""Refusals: why the service will not do what was asked, in one sentence for the player.

A refusal is raised where it is found (:class:`Refused`, the engine's ``RuleError``, a store's
``StoreError``) and turned into the ephemeral answer once, where the service call is entered
(the core's services). The sentences live here, so the same refusal always reads the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.core.base.text import escape
from engine.cards import written_like

__all__ = [
    "Departed",
    "Refused",
    "StaleControl",
    "busy",
    "game_over",
    "lesson_waits",
    "misread",
    "no_game",
    "nothing_to_look_up",
    "or_list",
]


class Refused(Exception):
    """The service will not carry out a call; ``str()`` is the sentence for the player.
    Nothing changed."""


#: What the engine's sentence quotes of what was typed (``“5X”``: the whole of it, though the
#: typing held a closing quote too).
_QUOTED = re.compile("“(.*)”")


def misread(error: ValueError) -> Refused:
    """The refusal of cards typed that the engine could not read: its sentence, with what it
    quotes of the typing escaped as a name is (a card typed as ``**5H**``, ``<@1>`` or
    ``https://x.example`` is shown as typed, not bold, a mention or a link).

    >>> print(misread(ValueError("“**5H**” is not a card: write it like 5H.")))
    “\\*\\*5H\\*\\*” is not a card: write it like 5H.
    """
    return Refused(_QUOTED.sub(lambda typed: f"“{escape(typed.group(1))}”", str(error), count=1))


class Departed(Refused):
    """A move by DM from a player who is no longer a member of the game's server: refused,
    and the game's table now owes the channel the notice that they left (so the caller has
    the game's messages brought up to date)."""

    def __init__(self, game_id: int, channel_id: int) -> None:
        super().__init__(LEFT_SERVER)
        self.game_id = game_id
        self.channel_id = channel_id


class StaleControl(Refused):
    """A control of game ``game_id`` from an earlier moment of it. Clicked on the message the
    game keeps, it says that message shows an older look than the one last sent to it (an edit
    that reached Discord after a newer one): the message is looked at again."""

    def __init__(self, text: str, game_id: int) -> None:
        super().__init__(text)
        self.game_id = game_id


def or_list(words: Sequence[str]) -> str:
    """``easy, medium, hard or expert``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# -- finding the game ---------------------------------------------------------------------------
def no_game(where: str) -> str:
    """No game in a place (``where``: "this channel", "this conversation"...)."""
    return f"There's no game in {where}. Start one with `/cribbage new`."


def busy(where: str) -> str:
    """A game opened where one is open already."""
    return f"There's already a game in {where} — see it with `/cribbage status`."


def game_over(where: str, *, lesson: bool = False) -> str:
    """A player's command where the last game is over and none is open (``lesson``: the
    player's lesson, in their DM with the bot, where ``/cribbage learn`` deals the next and
    ``/cribbage new`` opens nothing)."""
    if lesson:
        return (
            f"The lesson in {where} is over: `/cribbage status` shows how it ended, and "
            "`/cribbage learn` deals another."
        )
    return (
        f"The game in {where} is over: `/cribbage status` shows how it ended, and "
        "`/cribbage new` opens another."
    )


def lesson_waits(where: str, *, over: bool) -> str:
    """A player's command where no game of theirs is open (``over``: the place's last game is
    over), their lesson (``/cribbage learn``) waiting in their DM with the bot."""
    none = f"The game in {where} is over" if over else f"There's no game in {where}"
    return (
        f"{none}, but your lesson waits in our DM: play on there, or `/cribbage learn` here "
        "shows your hand of it, privately."
    )


def nothing_to_look_up(where: str) -> str:
    """``/cribbage review`` or ``verify`` without a number where no game was ever played."""
    return f"There's no game in {where} to review or check: give the game's number."


#: The same, where the place is known only as a channel (a control, a race).
NO_GAME = no_game("this channel")
CHANNEL_BUSY = busy("this channel")
UNKNOWN_GAME = "I can't find that game."
OTHER_SERVER = "That control belongs to a game on another server."
OTHER_CHANNEL = "That control belongs to a game in another channel."
LEFT_SERVER = (
    "You're no longer a member of the server this game is played in, so you can't play in it."
)
GAME_OVER = "That game is over."
GAME_CANCELLED = "That game was cancelled."
GAME_EXPIRED = "That game ended after sitting idle."

# -- opening a game ----------------------------------------------------------------------------
BAD_PLAYERS = (
    "A game has 2 to 6 players: 2, 3 or 4 (four as partners), 5 (five-hand), or 6 (two teams "
    "of three, or `teams:pairs`)."
)
BAD_TEAMS = "`teams` is `threes` (two teams of three, the default) or `pairs` (three of two)."
TEAMS_ALONE = (
    "`teams` is for six players (`players:6` or a six-hand `variant`): leave it out for this table."
)
BAD_SCORING = "Game points follow the lurch or the skunk scale: choose `lurch` or `skunk`."
AUTO_COUNTING = (
    "This game counts every hand for you: claiming a count is for games opened with "
    "`counting:manual`."
)
STALE_COUNT = "That count menu is from an earlier moment of the game: use the latest one."
STALE_MUGGINS = "Too late: that count is settled."
#: Not a refusal (the call is made, and costs the caller the chance): what a wrong call of
#: muggins is told, privately.
WRONG_MUGGINS = (
    "No muggins: that count was right. A wrong call costs nothing but the chance: you can't "
    "call muggins on this count again."
)
BAD_COUNT = "Choose a number of points from the menu."
BAD_COUNTING = "Counting is `auto` (the bot counts) or `manual` (you count, with muggins)."


def bad_level(levels: Sequence[str]) -> str:
    """A computer level that does not exist."""
    return f"The computer plays {or_list(levels)}."


# -- the lobby ---------------------------------------------------------------------------------
ALREADY_STARTED = "The game here has already started."
ALREADY_SEATED = "You're already in this game."
ADD_SEAT_CREATOR = "Only the player who opened this game can add a seat."
SEATS_FREE = "There's a free seat already: press **Join** to take it."


def table_full(seated: int, opener: str, more: int | None, title: str) -> str:
    """Join pressed on a full table: how many it seats, and how it can grow (``more``: the
    next number of players the game's variant seats, None when it seats no more)."""
    if more is None:
        return (
            f"This game is full: all {seated} seats are taken, and {title.lower()} seats no more."
        )
    return (
        f"This game is full ({seated} of {seated} seats). {opener}, who opened it, can press "
        f"**Add a seat** on the lobby to make it a {more}-player game; then press **Join**."
    )


EVERYONE_CREATOR = "Only the player who opened this game can deal everyone in."
EVERYONE_SEATED = "Everyone at the table has a seat already."


def everyone_too_many(players: int, most: int) -> str:
    """*Deal everyone in* where everyone would be too many for one table."""
    return (
        f"A table seats {most} at most, and dealing everyone in would seat {players}: "
        "take seats with **Join** instead."
    )


PARTNERS_CREATOR = "Only the player who opened this game can change partners."
PARTNERS_FULL = "Partners can be changed once every seat is taken."
NOT_SEATED = "You're not in this game."
LEAVE_STARTED = "The game has started: use `/cribbage resign` to concede."
START_NOT_SEATED = "Only players in this game can start it."
ADD_COMPUTER_CREATOR = "Only the player who opened this game can add a computer player."
REMOVE_COMPUTER_CREATOR = "Only the player who opened this game can remove a computer player."
NO_COMPUTER = "There is no computer player at this table."
CANCEL_CREATOR = "Only the player who opened this game, or a moderator, can cancel it."
CANCEL_DEALT = (
    "The cards are dealt, so only a moderator can cancel this game now. "
    "To give up, use `/cribbage resign`."
)
#: The same, to someone not playing in the game (resigning is not theirs to do).
CANCEL_DEALT_NOT_PLAYING = (
    "You're not playing in this game, and now that the cards are dealt only a moderator can "
    "cancel it."
)
#: The same outside servers (a DM or group DM), where nobody is a moderator.
CANCEL_CREATOR_OUTSIDE = "Only the player who opened this game can cancel it."
CANCEL_DEALT_OUTSIDE = (
    "The cards are dealt, and outside servers there is no moderator to cancel a game. "
    "To give up, use `/cribbage resign` (a loss); a game nobody moves in ends by itself, "
    "with no result."
)
CANCEL_DEALT_OUTSIDE_NOT_PLAYING = (
    "You're not playing in this game, and once the cards are dealt a game outside servers "
    "can't be cancelled: it ends when a player resigns, or by itself when nobody moves in it."
)
UNKNOWN_BUTTON = "That button does nothing I know of."

# -- a rematch (bot.core.games.series, bot.core.play.rematch) --------------------------------------
REMATCH_NOT_OVER = "This game isn't over yet: its rematch comes with its result."
REMATCH_NO_RESULT = (
    "This game ended without a result, so it has no rematch: open a game with `/cribbage new`."
)
REMATCH_RANKED = "A ranked match deals its next game by itself: there is no rematch to ask for."
REMATCH_TOURNAMENT = "A tournament pairs its own games: there is no rematch to ask for."
REMATCH_FORMER = (
    "A player of this game had their data deleted, so it has no rematch: open a game with "
    "`/cribbage new`."
)
MATCH_THREAD = (
    "This thread is a tournament match's: the tournament deals its games here, so open a game "
    "of your own in another channel."
)
REMATCH_NOT_PLAYED = "Only the players of this game can ask for its rematch."
REMATCH_JOIN = (
    "Only the players of this game can ask for its rematch: press **Join** on the rematch's "
    "lobby to take a free seat."
)
REMATCH_SEATED = (
    "You're in the rematch already: the cards are dealt as the others take their seats."
)
REMATCH_STARTED = "The rematch has started already: it's on the table."
MOVED_ON = "This table has moved on: a newer game was opened here since."
REMATCH_LESSON = (
    "A lesson has no rematch: `/cribbage new vs_computer:True` plays the computer, and "
    "`/cribbage learn` starts another lesson."
)
LESSON_DM_BUSY = (
    "Our DM has a game going already: finish it (or `/cribbage resign` there), then "
    "`/cribbage learn` deals your lesson there."
)
#: ``/cribbage learn`` while the learner's ranked search waits in our DM, or their match is
#: played there: a lesson is dealt in the DM alone, and a place holds one game of a person's.
LESSON_SEARCH_IN_DM = (
    "Your ranked search waits in our DM, where its match would be played: stop it (*Stop "
    "searching* on its card, or `/cribbage ranked leave`), then `/cribbage learn` deals your "
    "lesson there."
)
LESSON_MATCH_IN_DM = (
    "Your ranked match is played in our DM: once it's over, `/cribbage learn` deals your "
    "lesson there."
)
LESSON_DMS_CLOSED = (
    "Nothing was dealt: a lesson is played in our DM, and Discord won't let me message you. "
    "Allow direct messages from this server's members (the server's name, then Privacy "
    "Settings), then `/cribbage learn` again."
)
#: The same, asked where there is no server of the bot's to allow it from: a DM or group DM
#: between people, or a server that did not invite the bot (whose members' DMs the bot is
#: not among).
LESSON_DMS_CLOSED_ELSEWHERE = (
    "Nothing was dealt: a lesson is played in our DM, and Discord won't let me message you. "
    "In a server that invited me, allow direct messages from its members (the server's name, "
    "then Privacy Settings), then `/cribbage learn` again."
)
HINTS_RANKED = "There are no hints in ranked play: a ranked match is the players' own play alone."
HINTS_TOURNAMENT = "There are no hints in tournament games: each is the players' own play alone."
HINTS_OFF = (
    "Hints are off at this table: its opener can allow them when opening a game "
    "(`/cribbage new hints:True`); against the computer alone they are always on."
)
STALE_HINT = "That hand has moved on: ask for a hint on your newest one."


def kept_for(name: str, until: float) -> str:
    """Join pressed on a full lobby whose free seat is kept for ``name`` (escaped) until the
    Unix time ``until`` (Discord shows it as the reader's own time)."""
    return f"That seat is kept for {name} until <t:{int(until)}:t>: after that anyone may take it."


def waiting_for(missing: int) -> str:
    """Start pressed before the table is full."""
    more = "1 more player" if missing == 1 else f"{missing} more players"
    return f"Waiting for {more} before dealing."


# -- the game ----------------------------------------------------------------------------------
NOT_STARTED = (
    "The game hasn't started yet: it deals when the table is full and someone presses Start."
)
NOT_A_PLAYER = "You're not playing in this game."
ONE_CARD = f"Play one card at a time, like {written_like(1)}."
STALE_DISCARD = "That hand is over — use your newest message, or `/cribbage hand`."
STALE_PLAY = (
    "Those buttons are out of date — that turn has passed. Use your newest message, "
    "or `/cribbage hand`."
)
RACED = "That move was already made — look at the table again."

# -- faults (bot.core.base.faults): what is wrong, and what helps ----------------------------------
#: Who may end a game that cannot go on (outside servers, where nobody is a moderator, any of
#: its players may).
_END_IT = "A moderator (outside servers, any of its players) can end it with `/cribbage cancel`."
DAMAGED_GAME = f"This game's saved state is damaged, so it can't go on. {_END_IT}"
UNKNOWN_FORMAT_GAME = (
    f"This game was saved by a newer version of the bot, so it can't go on here. {_END_IT}"
)
STORAGE_FULL = (
    "My storage is full, so nothing was recorded. "
    "It works again once whoever runs the bot frees some space."
)
DATABASE_UNREACHABLE = (
    "I can't reach my database right now, so nothing was recorded. Please try again later."
)

# -- standings ----------------------------------------------------------------------------------
AGAINST_SELF = "Pick someone else for `against:` — everyone is even against themselves."


def teams_clash(title: str, teams: str, other: str) -> str:
    """``teams`` asked for with a variant whose teams are otherwise (``other``: the variant
    that seats them so)."""
    return f"{title} does not seat `teams:{teams}`: use `variant:{other}`, or leave `teams` out."
