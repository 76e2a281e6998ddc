"""What a reader does at the Activity's table, on the session the server resolved: a move (discard,
play, count, muggins, pass), a ``hint``, a lobby's button, *Deal everyone in*, a result's
*Rematch*, a new game with ``/cribbage new``'s choices, and a finished game's review.

Each goes through the core's own services, the very calls a click on a hand message or the
lobby makes (:meth:`Moves.click`, :meth:`Lobbies.click`, :meth:`Lobbies.new_game`), and gives
the core's answer (:class:`Told`), which :mod:`bot.web.activity.server` hands back to the core
and tells the page with the game as it is now, or a refusal as HTTP. Who has the table open is
Discord's to say, not the page's: *Deal everyone in* seats only the people Discord lists in the
session's instance (:mod:`bot.web.activity.gathering`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.core.base.replies import Answer, Click, TableAsked, User
from bot.core.base.views import LOBBY_ACTIONS, TABLE_BUTTON
from bot.core.faces import WebFace
from bot.core.games.records import GameRecord, GameStatus
from bot.web.activity.gathering import people_here
from bot.web.activity.http import answer_json, bad, int_of, refuse, text_of
from bot.web.activity.identity import ActivityDiscord, ActivityRefused
from bot.web.activity.sessions import Session
from bot.web.activity.tables import TableGames
from engine.variants import FEWEST_AT_A_TABLE

__all__ = [
    "NOBODY_ELSE",
    "NOT_HERE",
    "ONLY_IN_THE_CHAT",
    "ActivityActs",
    "ReviewHtml",
    "Told",
    "asked_of",
]

#: A new game from the Activity where the bot may not post its messages itself.
NOT_HERE = (
    "Here, the bot can only answer commands: open the game with {command} in the chat, and "
    "it shows up at this table."
)
#: *Deal everyone in* with no game open, where Discord lists nobody else at the table.
NOBODY_ELSE = (
    "Nobody else has the table open yet: open the game, and the people who come take seats."
)
#: A result's *Rematch* at the table where the bot may not post the rematch's lobby itself.
ONLY_IN_THE_CHAT = (
    "Here, the bot can only answer the chat's buttons: press **Rematch** on the result in the "
    "chat, and the rematch shows up at this table."
)
#: The lobby's buttons a page may press: the chat's lobby's, but *Your hand* and *Resign* (a
#: private table's) and *Play at the table* (this table); adding a computer is
#: ``computer:LEVEL``.
_LOBBY_ACTIONS = tuple(a for a in LOBBY_ACTIONS if a not in ("hand", "resign", TABLE_BUTTON))
#: The moves a page may make with the cards (and a count) it sends.
_MOVES = ("discard", "play", "count", "muggins", "pass")

#: What gives a finished game's review as HTML (None: none to show).
ReviewHtml = Callable[[GameRecord], Any]

#: A new game's table asked nothing: its choices' defaults.
_NOTHING_ASKED = TableAsked()


@dataclass(frozen=True, slots=True)
class Told:
    """The core's answer to an act, to be handed back to it and told to the page (``hint``:
    what was said is a hint, shown under the hand until the game moves)."""

    answer: Answer
    hint: bool = False


def asked_of(body: dict[str, Any]) -> TableAsked:
    """The new game's choices of a request's body, ``/cribbage new``'s (left out: the
    variant's own, two players to 121), or a 400 for what they cannot be."""
    players = int_of(body, "players") if body.get("players") is not None else None
    target = int_of(body, "target") if body.get("target") is not None else None
    variant = body.get("variant")
    computer = body.get("vs_computer", False)
    # (What is left out is the core's own default: a table asked nothing more.)
    level = body.get("difficulty", _NOTHING_ASKED.level)
    scoring = body.get("scoring", _NOTHING_ASKED.scoring)
    counting = body.get("counting", _NOTHING_ASKED.counting)
    hints = body.get("hints", False)
    if (
        not isinstance(computer, bool)
        or not isinstance(hints, bool)
        or not all(isinstance(v, str) and len(v) <= 20 for v in (level, scoring, counting))
    ):
        raise bad()
    if variant is not None and not (isinstance(variant, str) and 0 < len(variant) <= 40):
        raise bad()
    return TableAsked(
        players=players,
        target=target,
        variant=variant,
        vs_computer=computer,
        level=level,
        scoring=scoring,
        counting=counting,
        hints=hints,
    )


class ActivityActs:
    """The acts of a reader at the table (``api/act``, ``api/new``, ``api/review``)."""

    def __init__(
        self,
        services: WebFace,
        discord: ActivityDiscord,
        tables: TableGames,
        reviews: ReviewHtml | None,
    ) -> None:
        """``tables``: the games the session's place shows (told of a game opened here);
        ``reviews``: a finished game's review as HTML (None: no reviews)."""
        self._services = services
        self._discord = discord
        self._tables = tables
        self._reviews = reviews

    async def act(self, session: Session, body: dict[str, Any]) -> Told | web.Response:
        """``api/act``: a move, a hint, a lobby's button, *Deal everyone in* (with the ids the
        page lists, ``values``) or a result's *Rematch*, by the session's person, on the game
        ``body`` names (the channel's, or their ranked game's)."""
        action = text_of(body, "action", limit=30)
        game_id = int_of(body, "game")
        user = User(session.user_id, session.name)
        services = self._services
        record = await services.games.record(game_id)
        ranked = await self._tables.ranked_game(session.channel_id, session.user_id)
        here = record is not None and record.channel_id == session.channel_id
        if record is None or not (here or (ranked is not None and ranked.id == record.id)):
            return refuse("That game is not at this table.")
        guild_id = session.guild_id
        if action in _MOVES:
            values = body.get("values", [])
            if not isinstance(values, list) or len(values) > 6:
                raise bad()
            if not all(isinstance(v, str) and 0 < len(v) <= 4 for v in values):
                raise bad()
            click = Click(game_id, action, int_of(body, "stamp"), tuple(values))  # type: ignore[arg-type]
            return Told(await services.moves.click(click, user, None, guild_id=guild_id))
        if action == "hint":
            # The expert's choice in the reader's place, for them alone (as a hand's Hint).
            click = Click(game_id, "hint", int_of(body, "stamp"))
            answer = await services.hints.hint(click, user, guild_id=guild_id)
            return Told(answer, hint=answer.ok)
        if action in _LOBBY_ACTIONS or action.startswith("computer:"):
            refusal = None if action != "join" else await self._seat_refusal(session)
            if refusal is not None:
                return Told(Answer.refuse(refusal))
            answer = await services.lobbies.click(game_id, action, user, None, guild_id=guild_id)
            return Told(answer)
        if action == "everyone":
            people = await self._people(session, body.get("values"))
            if isinstance(people, web.Response):
                return people
            return Told(await services.dealing_in.deal_in(game_id, user, people, guild_id=guild_id))
        if action == "rematch":
            if not self._discord.bot_in(guild_id):
                return refuse(ONLY_IN_THE_CHAT, 409)
            return Told(await self._rematch(session, game_id, user))
        raise bad()

    async def new(self, session: Session, body: dict[str, Any]) -> Told | web.Response:
        """``api/new``: a new game in the session's channel with ``/cribbage new``'s choices
        (where the bot is a member, and not in a tournament match's thread); with
        ``everyone`` (the ids the page lists), everyone at the table seated at the table that
        seats them all, and dealt."""
        asked = asked_of(body)
        services = self._services
        bots_dm = await self._tables.bots_dm(session.channel_id, session.guild_id, session.user_id)
        record = await self._tables.channel_game(session.channel_id)
        closed = services.pages.no_game_of_its_own(record, bots_dm=bots_dm)
        if closed is not None:
            return refuse(closed, 409)
        if not self._discord.bot_in(session.guild_id):
            return refuse(NOT_HERE.format(command=asked.command()), 409)
        refusal = await self._seat_refusal(session)
        if refusal is not None:
            return Told(Answer.refuse(refusal))
        user = User(session.user_id, session.name)
        people: list[User] | None = None
        if body.get("everyone") is not None:
            # Deal everyone in: as many players as Discord confirms are at the table, in the
            # variant chosen if it seats that many (else the one that does), no computer.
            found = await self._people(session, body["everyone"])
            if isinstance(found, web.Response):
                return found
            people = found
            players = len({user.id, *(p.id for p in people)})
            if players < FEWEST_AT_A_TABLE:
                return refuse(NOBODY_ELSE)
            asked = asked.for_everyone(players)
        answer = await services.lobbies.new_game(session.guild_id, session.channel_id, user, asked)
        if answer.game_id is not None:
            self._tables.changed(session.channel_id, answer.game_id)
        if people is not None and answer.ok and answer.game_id is not None:
            await services.sequels.answered(answer, landed=True, shown=None)
            answer = await services.dealing_in.deal_in(
                answer.game_id, user, people, guild_id=session.guild_id
            )
        return Told(answer)

    async def review(self, session: Session) -> web.Response:
        """``api/review``: the review of the finished game the reader's table shows."""
        record = await self._tables.reader_game(session.channel_id, session.user_id)
        if record is None or record.status is not GameStatus.FINISHED or self._reviews is None:
            return refuse("There is no finished game here to review.", 404)
        html = await self._reviews(record)
        if not html:
            return refuse("This game has no review.", 404)
        return answer_json({"ok": True, "html": html})

    async def _seat_refusal(self, session: Session) -> str | None:
        """Why the reader may not open or join a game here: where their ranked match is
        played, or their search waits (as ``/cribbage new`` and ``join`` there say)."""
        which = self._services.which
        return await which.seat_refusal(session.channel_id, session.guild_id, session.user_id)

    async def _rematch(self, session: Session, game_id: int, user: User) -> Answer:
        """A result's *Rematch* (*Play again*) tapped at the table, where the bot is a member:
        the rematch opened (its lobby posted in the chat by the keeper, and the table goes to
        it), or the reader's seat taken in it; refused where ``/cribbage new`` would be for
        them."""
        refusal = await self._seat_refusal(session)
        if refusal is not None:
            return Answer.refuse(refusal)
        guild_id, channel_id = session.guild_id, session.channel_id
        rematches = self._services.rematches
        return await rematches.press(game_id, user, guild_id=guild_id, channel_id=channel_id)

    async def _people(self, session: Session, ids: Any) -> list[User] | web.Response:
        """The people among ``ids`` Discord lists at the session's table
        (:func:`~bot.web.activity.gathering.people_here`) who may sit at a game there (not
        one whose ranked match is played, or whose search waits, there: as *Join* is refused
        them), or the refusal to answer."""
        try:
            found = await people_here(self._discord, session, ids)
        except ActivityRefused as refused:
            return refuse(str(refused), refused.status)
        except ValueError:
            raise bad() from None
        place = session.channel_id, session.guild_id
        which = self._services.which
        return [p for p in found if await which.seat_refusal(*place, p.id) is None]
