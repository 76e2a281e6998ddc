"""Which game a command or a control acts on, for a person in a place, read from the store.

:mod:`bot.core.base.places` decides with values alone (:func:`~bot.core.base.places.resolve`);
:class:`WhichGame` reads what it needs to know of the person (their live ranked entry and its
match, whether they are seated in the place's game) and runs the call on what the decision
found, or answers its refusal. Every command about a game, its autocomplete, a lobby's *Join*
(in the chat or at the table inside Discord), and whatever asks which table an interaction
here reaches (a private table's, or the person's ranked place's) goes through it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Protocol

from bot.core.base import refusals
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.owners import Owner
from bot.core.base.places import (
    ABOUT_GAMES,
    NO_FACTS,
    Ask,
    Facts,
    Here,
    Place,
    Reach,
    Resolved,
    Spot,
    resolve,
)
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Choice
from bot.core.games.games import Games
from bot.core.games.records import ResultRecord
from bot.core.ranked.records import EntryStatus, MatchRecord
from bot.core.ranked.scoreboard import WINS_NEEDED, game_channel
from bot.core.ranked.storage import RankedReads

__all__ = ["WhichGame", "WhichStore"]


class WhichStore(RankedReads, Protocol):
    """What the resolver reads: the ranked entries and matches, the games, and a game's
    results (who won a ranked game over, before the referee counts it)."""

    async def results(self, game_id: int) -> list[ResultRecord]: ...


#: A call on what a command acts on.
Act = Callable[[Resolved], Awaitable[Answer]]
#: An autocomplete's lookup in a game's channel, for a user, of what they typed.
Completer = Callable[[int, int, str], Awaitable[list[Choice]]]


class WhichGame:
    """Finds what a command acts on, for a person in a place, and runs it there."""

    def __init__(self, games: Games, ranked: WhichStore) -> None:
        self._games = games
        self._ranked = ranked

    @property
    def faults(self) -> Faults:
        """Where the faults its calls meet are noted (the games')."""
        return self._games.faults

    async def facts(self, ask: Ask | None, place: Place, user_id: int) -> Facts:
        """What the store says of ``user_id`` that ``ask`` in ``place`` depends on (nothing
        is read for a command that no game of theirs changes)."""
        reach = None if ask is None else ask.scope.reach
        if reach is Reach.SEARCH:
            # (The bot's DM holds no game but a ranked one and the person's lesson.)
            record = await self._games.store.open_game_in_channel(place.channel_id)
            return Facts(seated_here=record is not None and record.seat_of(user_id) is not None)
        if reach not in ABOUT_GAMES:
            return NO_FACTS
        facts = await self._ranked_facts(user_id)
        played_here = facts.matched and facts.ranked_from == place.channel_id
        if played_here and not (ask is Ask.CANCEL and place.moderator):
            return facts  # (their ranked game's, not the place's)
        if place.spot is Spot.BOT_DM and reach is not Reach.LOOKS_UP:
            # No game but a ranked one is played there, and the person's lesson
            # (/cribbage learn), which their commands there act on: over, it is the place's
            # last game, as anywhere (status shows how it ended, a move says it is over).
            lesson = await self._games.store.last_game_in_channel(place.channel_id)
            mine = lesson is not None and lesson.in_lesson and lesson.seat_of(user_id) is not None
            if mine and lesson is not None and lesson.is_open:
                return replace(facts, here=Here.OPEN, lesson_here=True)
            if reach is Reach.PLAYS:
                # The hands of their games in servers come here: a command here is about
                # the game whose hand it is.
                hands = await self._hands_by_dm(user_id)
                last = await self._ranked_last(place.channel_id, user_id)
                if last is None and mine:
                    return replace(facts, here=Here.OVER, lesson_here=True, hands_here=hands)
                return replace(facts, ranked_last=last, hands_here=hands)
            return facts
        here = await self._here(place.channel_id)
        if here is not Here.OPEN and reach in (Reach.PLAYS, Reach.LOOKS_UP):
            last = await self._ranked_last(place.channel_id, user_id)
            if last is not None:
                return replace(facts, here=Here.OVER, ranked_last=last)
        if here is not Here.OPEN and reach is Reach.PLAYS:
            # A learner who left their lesson means it (read only when nothing is here).
            waits = await self._games.store.open_lesson(user_id) is not None
            return replace(facts, here=here, lesson_waits=waits)
        return replace(facts, here=here)

    async def _hands_by_dm(self, user_id: int) -> tuple[tuple[int, int | None], ...]:
        """Where each game ``user_id`` plays now whose hand comes to their DM with the bot is
        played (its channel and server): a game of a server's channel, thread or voice chat,
        the bot a member there (not a private table's, whose hands come as answers, nor a
        ranked game's, played from its places, nor their lesson, played in the DM itself)."""
        found = await self._games.store.played_now(user_id)
        return tuple(
            (r.channel_id, r.guild_id)
            for r in found
            if r.guild_id is not None and r.seating.in_server
        )

    async def _ranked_last(self, channel_id: int, user_id: int) -> int | None:
        """The channel of the last game of ``user_id``'s latest ranked match played from
        ``channel_id``, over, if no game was opened there since: the place's last game, for
        them (their match's tables are the latest there)."""
        match = await self._ranked.last_match_from(user_id, channel_id)
        if match is None or match.game_id is None or match.games == 0:
            return None
        since = await self._games.store.last_game_in_channel(channel_id)
        if since is not None and since.id > match.game_id:
            return None
        return game_channel(match.id, match.games)

    async def _here(self, channel_id: int) -> Here:
        """What the place ``channel_id`` holds: a game open, its last game over, or none."""
        store = self._games.store
        if await store.open_game_in_channel(channel_id) is not None:
            return Here.OPEN
        return Here.EMPTY if await store.last_game_in_channel(channel_id) is None else Here.OVER

    async def _ranked_facts(self, user_id: int) -> Facts:
        """Where ``user_id``'s live ranked entry was made, and their match's latest game: being
        played, or over (the next being dealt, or the match decided by it)."""
        entry = await self._ranked.live_entry(user_id)
        if entry is None:
            return NO_FACTS
        if entry.status is not EntryStatus.MATCHED or entry.match_id is None:
            return Facts(ranked_from=entry.channel_id)
        here = Facts(ranked_from=entry.channel_id, matched=True)
        match = await self._ranked.ranked_match(entry.match_id)
        if match is None or match.games == 0:
            return here
        game = game_channel(match.id, match.games)
        if await self._games.store.open_game_in_channel(game) is not None:
            return replace(here, ranked_game=game)
        decided = await self._decided(match)
        return replace(here, ranked_game=game, ranked_over=True, decided=decided)

    async def _decided(self, match: MatchRecord) -> bool:
        """Whether ``match``'s latest game, over, decided it: counted with the match's wins
        (the referee counts it a moment after it ends, for whoever its results say won)."""
        wins = {match.player_a: match.wins_a, match.player_b: match.wins_b}
        games = await self._ranked.match_games(match.id)
        if games and games[-1].winner is None:
            results = await self._ranked.results(games[-1].game_id)
            won = next((r.user_id for r in results if r.won and r.user_id in wins), None)
            if won is not None:
                wins[won] += 1
        return max(wins.values()) >= WINS_NEEDED

    async def resolved(self, ask: Ask | None, place: Place, user_id: int) -> Resolved:
        """What ``ask`` acts on for ``user_id`` in ``place`` (its refusal, if nothing)."""
        return resolve(ask, place, await self.facts(ask, place, user_id))

    @answers
    async def run(self, ask: Ask | None, place: Place, user_id: int, act: Act) -> Answer:
        """``ask`` by ``user_id`` in ``place``: ``act`` on what it acts on, or its refusal.
        (``ask`` None: a control that names its game, run as it is.)"""
        found = await self.resolved(ask, place, user_id)
        if found.refusal is not None:
            raise Refused(found.refusal)
        if place.spot is Spot.BOT_DM and found.guild_id is not None:
            # A server's game, from the DM its hand came to: its player must still be a
            # member there, as for a press of that hand's controls.
            await self._games.check_member_by_dm(found.channel_id, user_id)
        return await act(found)

    @answers
    async def run_rematch(self, place: Place, user_id: int, act: Act) -> Answer:
        """A rematch pressed by ``user_id`` in ``place``: refused where ``/cribbage new`` would
        be for the person and the place (a private answer, their ranked match or search
        there), but not for the game open there, which the rematch reads itself (the rematch
        already opened: a seat taken in it, or why not)."""
        # (Of the person alone, as :meth:`seat_refusal`: what the place holds is not read.)
        found = resolve(Ask.NEW, place, await self._ranked_facts(user_id))
        if found.refusal is not None:
            raise Refused(found.refusal)
        return await act(found)

    async def offered(
        self, ask: Ask, place: Place, user_id: int, current: str, complete: Completer
    ) -> list[Choice]:
        """An autocomplete of ``ask``'s option: what ``complete`` offers in the game the
        command would act on (nothing where it would be refused)."""
        found = await self.resolved(ask, place, user_id)
        if found.refusal is not None:
            return []
        return await complete(found.channel_id, user_id, current)

    async def lesson_refusal(self, dm_channel_id: int, user_id: int) -> str | None:
        """Why a lesson may not be dealt in ``user_id``'s DM with the bot (``dm_channel_id``)
        now: their ranked search waits there, or their match is played there (a place holds
        one game of a person's, and a lesson is dealt in the DM alone). None: it may."""
        facts = await self._ranked_facts(user_id)
        if facts.ranked_from != dm_channel_id:
            return None
        return refusals.LESSON_MATCH_IN_DM if facts.matched else refusals.LESSON_SEARCH_IN_DM

    async def seat_refusal(self, channel_id: int, guild_id: int | None, user_id: int) -> str | None:
        """Why ``user_id`` may not open or join a game in channel ``channel_id`` (of server
        ``guild_id``), for a caller that knows the place by its channel alone (the table
        inside Discord, where the app's buttons open or join a game): as ``/cribbage join``
        there would be refused (where their ranked match is played, or their search waits).
        None: they may."""
        spot = Spot.CHANNEL if guild_id is not None else Spot.PRIVATE
        # (Of the person alone: whether a game is open there is the caller's to know.)
        facts = await self._ranked_facts(user_id)
        return resolve(Ask.JOIN, Place(spot, channel_id, guild_id), facts).refusal

    async def ranked_game(self, channel_id: int, user_id: int) -> int | None:
        """The channel of the ranked game ``user_id`` plays from ``channel_id`` (their place),
        if a game of their match was dealt (the table inside Discord shows it there)."""
        facts = await self._ranked_facts(user_id)
        return facts.ranked_game if facts.matched and facts.ranked_from == channel_id else None

    async def carried(self, place: Place, user_id: int) -> Owner | None:
        """Whose table an interaction of ``user_id`` in ``place`` may carry (its token may post
        it again once no other reaches it): their ranked place, where they play their ranked
        game from here, or played the last game of a match from here that ended without a
        result; else, where the bot is not a member, the place's game, or its last game (a
        private table). None: neither (the bot's token reaches a server's tables itself)."""
        store = self._games.store
        here = await self.ranked_game(place.channel_id, user_id)
        record = None if here is None else await store.open_game_in_channel(here)
        seat = None if record is None else record.seat_of(user_id)
        if record is not None and seat is not None:
            return Owner.place(record.id, seat)
        if here is None:
            # Their last match from here, if it ended without a result: the bot was down too
            # long to reach a place, which may show it still being played.
            last = await self._ranked.last_match_from(user_id, place.channel_id)
            if last is not None and not last.rated and last.game_id is not None:
                return Owner.place(last.game_id, last.seat_of(user_id))
        if place.bot_member:
            return None
        # The place's game; else its last, over, whose end the table may not show yet
        # (:meth:`~bot.core.messages.private_resume.PrivateResume.answered` decides).
        record = await store.open_game_in_channel(place.channel_id)
        record = record or await store.last_game_in_channel(place.channel_id)
        return None if record is None or not record.seating.tokens_only else Owner.game(record.id)
