"""``/cribbage learn``: a first game for someone who has never played.

A lesson is a game to 61 against the gentlest computer, played in the learner's DM with the
bot (where nobody else sees it; a person has one open lesson at a time). Its tables explain each
rule the first time it happens (:mod:`bot.core.messages.lesson`), each hand's count said as
players say it, hints are on, and its result says the rules the game never showed and points
at a whole game against the same computer, ``/cribbage new`` and ``/cribbage help`` (no
rematch: another ``/cribbage learn`` deals another lesson). Asked for again while one is
open, the learner gets their hand of it, privately, where they ask: the lesson carries on
from there, like any game. Asked outside the DM, the lesson's welcome is posted there first: a
learner who takes no DMs from the bot is told what helps, and nothing is dealt. ``/cribbage
help`` offers it once to someone who has never sat at a game (:meth:`Lessons.help`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core.base import refusals
from bot.core.base.entry import answers
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.games.games import Games, OnGames
from bot.core.games.rules_help import HELP, help_text
from bot.core.games.storage import UserSettings
from bot.core.messages.lesson import LESSON_LEVEL, LESSON_TARGET
from bot.core.play.opening import Lobbies
from bot.core.play.table_info import TableInfo

__all__ = ["LESSON_OFFER", "LESSON_TARGET", "Lessons", "Reach"]

#: What ``/cribbage help`` adds, once, for someone who has never sat at a game.
LESSON_OFFER = (
    f"📘 **New to cribbage?** `/cribbage learn` deals you a first game to {LESSON_TARGET} "
    "against a gentle computer, in our DM, explaining each rule as it comes up (under 10 "
    "minutes)."
)

#: Posts a line in the learner's DM with the bot: False when Discord refuses it (the learner
#: takes no direct messages from the bot).
Reach = Callable[[str], Awaitable[bool]]


def _dealt(here: bool, *, first: bool) -> str:
    """What a lesson dealt says, in the DM (``here``) or where it was asked for: a
    newcomer's ``first`` game, else (a lesson again, or someone who has played) a new
    lesson."""
    where = "below" if here else "in our DM (the bot's direct messages to you)"
    what = "Your first game" if first else "A new lesson"
    return (
        f"📘 {what} is dealt {where}: you against a gentle computer, to "
        f"{LESSON_TARGET}. Each rule is explained on the table the first time it comes up, "
        "and **💡 Hint** on your hand says what a strong player would do. Leave whenever you "
        "like: `/cribbage learn` picks it up again."
    )


class Lessons(OnGames):
    """Dealing a lesson, or picking one up again; offering one once."""

    def __init__(
        self,
        games: Games,
        lobbies: Lobbies,
        table: TableInfo,
        settings: UserSettings,
        refusal: Callable[[int, int], Awaitable[str | None]],
    ) -> None:
        self._games = games
        self._lobbies = lobbies
        self._table = table
        self._settings = settings
        # Why the learner's DM may hold no lesson now (their ranked search or match there):
        # :meth:`bot.core.which_game.WhichGame.lesson_refusal`, of the wing above this one.
        self._refusal = refusal

    @answers
    async def learn(
        self, user: User, dm_channel_id: int, *, here: bool, in_server: bool, reach: Reach
    ) -> Answer:
        """A lesson for ``user`` in their DM with the bot (``dm_channel_id``; ``here``: the
        command was given there): dealt, said privately, or their hand of the lesson they
        have open (privately, with its controls). Asked elsewhere, the DM is reached first
        (``reach`` posts the lesson's welcome there): a learner who takes no DMs from the bot
        is told what helps (``in_server``: asked in a server that invited the bot, whose
        members' DMs they may allow), and nothing is dealt."""
        store = self._games.store
        found = await store.open_lesson(user.id)
        if found is not None:
            return await self._table.hand(found.channel_id, user)
        if await store.open_game_in_channel(dm_channel_id) is not None:
            raise Refused(refusals.LESSON_DM_BUSY)
        why = await self._refusal(dm_channel_id, user.id)
        if why is not None:
            raise Refused(why)
        # Someone who has sat at a game (a lesson before, say) is dealt a new lesson, not
        # their first game.
        first = not await store.has_played(user.id)
        # (One request, and the DM's first line: the table would be refused there just the
        # same, after the learner was told it is dealt.)
        if not here and not await reach(_dealt(here=True, first=first)):
            closed = refusals.LESSON_DMS_CLOSED
            raise Refused(closed if in_server else refusals.LESSON_DMS_CLOSED_ELSEWHERE)
        opened = await self._lobbies.new_game(
            None,
            dm_channel_id,
            user,
            TableAsked(target=LESSON_TARGET, vs_computer=True, level=LESSON_LEVEL),
            lesson=True,
        )
        # (No interaction answers with the table: the keeper posts it in the DM.)
        return opened if not opened.ok else Answer.say(_dealt(here, first=first))

    async def help(self, user: User) -> Answer:
        """``/cribbage help``: the commands a newcomer needs first, after :meth:`offer`'s
        line the first time someone who never played asks."""
        offer = await self.offer(user)
        # (The offer names /cribbage learn: the commands under it do not name it again.)
        return Answer.say(f"{offer}\n\n{help_text(offered=True)}" if offer else HELP)

    async def offer(self, user: User) -> str:
        """What ``/cribbage help`` adds for ``user``: :data:`LESSON_OFFER` the first time it is
        asked by someone who has never sat at a game, else nothing."""
        if await self._games.store.has_played(user.id):
            return ""
        offered = await self._settings.offer_learn(user.id, now=self._games.now())
        return LESSON_OFFER if offered else ""
