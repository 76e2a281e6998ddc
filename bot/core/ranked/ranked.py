"""Ranked play's calls, as the Discord layer makes them: join the queue from a place and stop
searching, play the expert instead, leave a match, the ladder, blocking a player; and the
interactions a player answers at their place, whose tokens reach its table. (Which game their
commands act on there is :class:`bot.core.which_game.WhichGame`'s to say.)

A player's search is answered with their card (:mod:`bot.core.ranked.cards`), the message
that stays at their place and through whose interaction their first game's table is posted
there (:mod:`bot.core.ranked.places`). Every call that can be refused is entered through
:func:`~bot.core.base.entry.answers`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.base import refusals
from bot.core.base.choices import LadderSeason
from bot.core.base.delivery import AnswerKept, Carriers, MessageNews
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind, is_row_id
from bot.core.base.places import Place, PlaceKind
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Choice, Clicked, Reply, Sequel, TableAsked, User
from bot.core.base.text import escape
from bot.core.base.views import ConfirmControls, MessageView
from bot.core.games.endings import Ending
from bot.core.games.games import Games
from bot.core.games.records import GameRecord, Match
from bot.core.messages.private_table import TABLE
from bot.core.play.opening import Lobbies
from bot.core.ranked.cards import CARD, CardMessages, card_view, unrated_before
from bot.core.ranked.ladder import ladder_view
from bot.core.ranked.queue import Matchmaker
from bot.core.ranked.rating import COOLDOWN_MEMORY, cooldown_until
from bot.core.ranked.records import (
    AlreadyRanked,
    EntryRecord,
    EntryStatus,
    MatchRecord,
    MatchStatus,
    RatingRecord,
    Search,
)
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.words import (
    ALREADY_SEARCHING,
    BLOCK_NOBODY_MET,
    BLOCK_NOT_MET,
    BLOCK_SELF,
    EXPERT_INSTEAD,
    IN_A_MATCH,
    NO_EXPERT_HERE,
    NOT_BLOCKED,
    NOT_YOUR_SEARCH,
    NOTHING_TO_LEAVE,
    SEARCH_OVER,
    SEARCH_STOPPED,
    UNBLOCK_NOBODY,
    UPGRADING,
    already_blocked,
    cooldown,
    named_twice,
    next_search,
    not_blocked_named,
    not_met_named,
)
from bot.core.standings.ratings import MODEL

__all__ = ["OLDER_SEEN_WITHIN", "OPPONENTS_OFFERED", "RANKED_RELEASE", "Ranked"]

#: How many past opponents the block command's list offers.
OPPONENTS_OFFERED = 25

#: The migration that made ranked play's tables. A process of a release before it (its
#: heartbeat names the last migration it has) knows nothing of ranked games, their messages or
#: their announcements, so no search starts while one runs beside this release (an upgrade).
RANKED_RELEASE = "022_ranked"
#: A process heard from this lately (seconds: three of its heartbeats) is taken for running.
OLDER_SEEN_WITHIN = 30.0


class Ranked:
    """The calls of ranked play."""

    def __init__(
        self,
        store: RankedStore,
        games: Games,
        lobbies: Lobbies,
        news: MessageNews,
        carriers: Carriers,
        feed: ChangeFeed,
        queue: Matchmaker,
        cards: CardMessages,
        *,
        clock: Callable[[], float],
    ) -> None:
        self._store = store
        self._games = games
        self._lobbies = lobbies
        self._news = news
        self._carriers = carriers
        self._feed = feed
        self.queue = queue
        self._cards = cards
        self._clock = clock
        self._upgraded = False  # (no process of an older release runs: it stays so)

    @property
    def faults(self) -> Faults:
        """Where the faults its calls meet are noted (the games')."""
        return self._games.faults

    # -- searching ----------------------------------------------------------------------------
    @answers
    async def play(
        self,
        user: User,
        *,
        avatar: str | None,
        guild_id: int | None,
        channel_id: int,
        place: PlaceKind,
        token: str | None,
    ) -> Answer:
        """``/cribbage ranked play``: join the queue from here; the answer is the player's card
        (public: the opponent's tables come below it), paired at once if someone fits."""
        store, now = self._store, self._clock()
        if not self._upgraded:
            seen_after = now - OLDER_SEEN_WITHIN
            if await store.older_release_running(RANKED_RELEASE, seen_after=seen_after):
                raise Refused(UPGRADING)
            self._upgraded = True  # (a release before it refuses the database: none comes back)
        status, abandoned, last, rating, last_opponent = await store.ranked_player(
            user.id, since=now - COOLDOWN_MEMORY
        )
        if status is not None:
            raise Refused(ALREADY_SEARCHING if status is EntryStatus.SEARCHING else IN_A_MATCH)
        until = cooldown_until(abandoned, last)
        if until is not None and until > now:
            raise Refused(cooldown(until))
        kept: list[tuple[MessageView, AnswerKept | None]] = []
        unrated = await unrated_before(store, user.id, None)

        def card(
            entry: EntryRecord,
            match: MatchRecord | None,
            opponent: EntryRecord | None,
            theirs: RatingRecord | None,
        ) -> AnswerKept | None:
            view = card_view(
                entry,
                now,
                rating=rating,
                match=match,
                opponent=opponent,
                their_rating=theirs,
                unrated=unrated,
            )
            answer = None
            if token is not None:
                shown = Clicked(channel_id, 0, token)
                answer = AnswerKept(CARD, shown, view.digest(), entry.version, now)
            kept.append((view, answer))
            return answer

        mu = float(MODEL.mu) if rating is None else rating.mu  # (a newcomer's skill)
        search = Search(user.id, user.name, avatar, guild_id, channel_id, place, mu, last_opponent)
        try:
            entry, _, changed = await self.queue.join(search, card)
        except AlreadyRanked:
            live = await store.live_entry(user.id)
            raise Refused(ALREADY_SEARCHING if live is None else _busy(live)) from None
        view, answer = kept[-1]
        # (Kept with the entry, the card's answer is told to the ledger before its change is
        # published: nothing edits it through its token before it has landed. The opponent's
        # card, if paired at once, is drawn again.)
        entry = next(e for e in changed if e.id == entry.id)
        if answer is not None:
            self._news.answer_kept(Owner.ranked(entry.id), answer)
        self._feed.publish(Change(Owner.ranked(entry.id), entry.version, channel_id))
        self.queue.published([e for e in changed if e.id != entry.id])
        sequel = Sequel(Owner.ranked(entry.id), channel_id, entry.version, key=CARD)
        return Answer(reply=Reply(view.content, ephemeral=False, view=view), sequel=sequel)

    async def _searching(self, entry_id: int, user: User) -> EntryRecord:
        """The searching entry a card's button names, if it is ``user``'s."""
        entry = await self._store.ranked_entry(entry_id) if is_row_id(entry_id) else None
        if entry is None:
            raise Refused(refusals.UNKNOWN_BUTTON)
        if entry.user_id != user.id:
            raise Refused(NOT_YOUR_SEARCH)
        if entry.status is EntryStatus.MATCHED:
            raise Refused(IN_A_MATCH)
        if entry.status is not EntryStatus.SEARCHING:
            raise Refused(SEARCH_OVER)
        return entry

    @answers
    async def stop(self, entry_id: int, user: User, clicked: Clicked | None) -> Answer:
        """*Stop searching* on a card: the search ends, the card says so (its answer)."""
        entry = await self._searching(entry_id, user)
        ended = await self.queue.stop(entry.id)
        if ended is None:
            raise Refused(IN_A_MATCH)  # (paired as the button was pressed)
        return self._card_answer(ended, SEARCH_STOPPED, clicked)

    @answers
    async def expert(
        self, entry_id: int, user: User, clicked: Clicked | None, *, place: Place
    ) -> Answer:
        """*Play the expert instead* on a card (clicked in ``place``, the card's): the search
        ends, and a game against the expert opens here (not ranked: a game like any other
        against the computer); the card says so. Its table is the channel's game's, sent as
        any other game's."""
        entry = await self._searching(entry_id, user)
        if entry.place is PlaceKind.BOT_DM:
            raise Refused(NO_EXPERT_HERE)
        if await self._games.store.open_game_in_channel(entry.channel_id) is not None:
            raise Refused(refusals.busy(place.named))
        ended = await self.queue.stop(entry.id)
        if ended is None:
            raise Refused(IN_A_MATCH)
        opened = await self._lobbies.new_game(
            place.guild_id,
            entry.channel_id,
            user,
            TableAsked(vs_computer=True, level="expert"),
            private=entry.place is PlaceKind.PRIVATE,
        )
        if not opened.ok:
            return self._card_answer(ended, opened.reply.text, clicked)
        return self._card_answer(ended, EXPERT_INSTEAD, clicked)

    def _card_answer(self, entry: EntryRecord, said: str, clicked: Clicked | None) -> Answer:
        """A click on a card answered by the card as it is now (``said`` to the clicker)."""
        view = card_view(entry, self._clock())
        sequel = Sequel(Owner.ranked(entry.id), entry.channel_id, entry.version, key=CARD)
        return Answer(reply=Reply(said), update=view, sequel=sequel)

    # -- leaving -------------------------------------------------------------------------------
    @answers
    async def ask_leave(self, user: User) -> Answer:
        """``/cribbage ranked leave``: a search ends at once; a match asks first (leaving it
        loses it, and counts as leaving)."""
        entry = await self._store.live_entry(user.id)
        if entry is None:
            raise Refused(NOTHING_TO_LEAVE)
        if entry.status is EntryStatus.SEARCHING:
            if await self.queue.stop(entry.id) is not None:
                return Answer.say(SEARCH_STOPPED)
            entry = await self._store.live_entry(user.id) or entry
        match = await self._match_of(entry)
        other = await self._opponent_name(match, user.id)
        text = (
            f"Leave your ranked match against **{other}**? You lose the match (and the game "
            "being played), your rating counts it, and your next search waits a while."
        )
        return Answer.say(
            text, view=MessageView(text, controls=ConfirmControls(match.id, "leave_match"))
        )

    @answers
    async def confirm_leave(self, match_id: int, user: User, yes: bool) -> Answer:
        """The answer to :meth:`ask_leave`'s question: Yes leaves the match (the opponent wins
        it), No plays on; the question's message says which."""
        if not yes:
            return Answer.in_place("The match goes on.")
        match = await self._store.ranked_match(match_id) if is_row_id(match_id) else None
        if match is None or user.id not in (match.player_a, match.player_b):
            raise Refused(refusals.UNKNOWN_BUTTON)
        winner = match.opponent(user.id)
        changed = await self._store.finish_match(
            match.id, winner=winner, how=Ending.LEFT, abandoned_by=user.id, now=self._clock()
        )
        if not changed:
            return Answer.in_place("That match is over already.")
        self.queue.published(changed)
        other = await self._opponent_name(match, user.id)
        decided = await self._store.ranked_match(match.id) or match
        won, lost = decided.wins_of(winner), decided.wins_of(user.id)
        # (Leaving loses the game being played too: it counts in the match's score.)
        also = " (with the game being played)" if won > match.wins_of(winner) else ""
        left = f"You left the match: {other} wins it {won}–{lost}{also}."
        now = self._clock()
        _, abandoned, last, _, _ = await self._store.ranked_player(
            user.id, since=now - COOLDOWN_MEMORY
        )
        until = cooldown_until(abandoned, last)
        return Answer.in_place(left if until is None else f"{left} {next_search(until)}")

    @answers
    async def quit(self, user: User) -> Answer:
        """Out of ranked play at once, asking nothing (their data is being deleted): a search
        stops; a match is left, lost to the opponent (its game still open is resigned by the
        referee, or by whoever ends the player's games)."""
        entry = await self._store.live_entry(user.id)
        if entry is None:
            return Answer.say(NOTHING_TO_LEAVE)
        if entry.status is EntryStatus.SEARCHING and await self.queue.stop(entry.id) is not None:
            return Answer.say(SEARCH_STOPPED)
        match = await self._match_of(entry)
        changed = await self._store.finish_match(
            match.id,
            winner=match.opponent(user.id),
            how=Ending.LEFT,
            abandoned_by=user.id,
            now=self._clock(),
        )
        self.queue.published(changed)
        return Answer.say("You left your ranked match.")

    async def _match_of(self, entry: EntryRecord) -> MatchRecord:
        match = None if entry.match_id is None else await self._store.ranked_match(entry.match_id)
        if match is None:
            raise Refused(NOTHING_TO_LEAVE)
        return match

    async def _opponent_name(self, match: MatchRecord, user_id: int) -> str:
        first, second = await self._store.match_entries(match)
        other = second if first.user_id == user_id else first
        return escape(other.name)

    # -- the ladder and fair play ----------------------------------------------------------------
    @answers
    async def ladder(self, user: User, which: LadderSeason = "this") -> Answer:
        """``/cribbage ranked ladder``: this season's top 50 (or the last's final standings,
        or every season's champion), the reader's place and latest matches (under their
        name); public."""
        view = await ladder_view(self._store, user, which, self._clock())
        return Answer.say(view.content, ephemeral=False, view=view)

    @answers
    async def block(self, user: User, chosen: str) -> Answer:
        """``/cribbage ranked block``: never be matched with a player met before (``chosen``:
        their id, as the list offers it, or their name typed)."""
        met = await self._store.past_opponents(user.id, limit=1000)
        found = _pick(chosen, met)
        if found is None:
            raise Refused(_not_met(chosen, user, met))
        blocked_id, name = found
        if any(i == blocked_id for i, _ in await self._store.blocked_players(user.id)):
            raise Refused(already_blocked(escape(name)))
        await self._store.block_player(user.id, blocked_id, name, now=self._clock())
        return Answer.say(
            f"You won't be matched with **{escape(name)}** again (`/cribbage ranked unblock` "
            "undoes it)."
        )

    @answers
    async def unblock(self, user: User, chosen: str) -> Answer:
        """``/cribbage ranked unblock``: lift a block (``chosen``: their id, as the list
        offers it, or their name typed)."""
        blocked = await self._store.blocked_players(user.id)
        if not blocked:
            raise Refused(UNBLOCK_NOBODY)
        found = _pick(chosen, blocked)
        if found is None:
            typed = chosen.strip()
            raise Refused(
                NOT_BLOCKED if not typed or _is_id(typed) else not_blocked_named(escape(typed))
            )
        blocked_id, name = found
        await self._store.unblock_player(user.id, blocked_id)
        return Answer.say(f"**{escape(name)}** may be matched with you again.")

    async def opponents(self, user_id: int, current: str) -> list[Choice]:
        """The block command's list: the players met, latest first, that match ``current``."""
        met = await self._store.past_opponents(user_id, limit=OPPONENTS_OFFERED * 4)
        blocked = {i for i, _ in await self._store.blocked_players(user_id)}
        return _choices([(i, n) for i, n in met if i not in blocked], current)

    async def blocked(self, user_id: int, current: str) -> list[Choice]:
        """The unblock command's list: the players blocked that match ``current``."""
        return _choices(await self._store.blocked_players(user_id), current)

    # -- the player's place ----------------------------------------------------------------------
    async def carry(self, place: Owner, shown: Clicked, *, moved: bool) -> None:
        """An interaction at a ranked place was answered (``shown``: its answer and token):
        its token may post the place's table again once no other reaches it (see
        :meth:`Carriers.carrier <bot.core.base.delivery.Carriers.carrier>`). Nothing is kept of
        an interaction elsewhere than the place (its token would post the table there)."""
        if place.kind is not OwnerKind.PLACE or place.game_id is None or place.seat is None:
            return
        record = await self._games.record(place.game_id)
        if record is None or place.seat >= len(record.seats):
            return
        user = record.seats[place.seat].user_id
        entry = None if user is None else await self._store.live_entry(user)
        unrated = entry is None and user is not None and not record.is_open
        if unrated:
            entry = await self._unrated_entry(record, user or 0)
        if entry is None or entry.channel_id != shown.channel_id:
            return
        if not moved and not record.is_open and not unrated:
            return  # (a move that ended the game is the one that sends its result)
        await self._carriers.carrier(place, shown, check=None if moved else TABLE)

    async def _unrated_entry(self, record: GameRecord, user_id: int) -> EntryRecord | None:
        """``user_id``'s entry of the match ``record`` is a game of, if that match ended
        without a result (the bot was down too long to reach a place: whatever its player
        presses there next brings the table back, saying so)."""
        found = record.occasion
        match = await self._store.ranked_match(found.match_id) if isinstance(found, Match) else None
        if match is None or match.rated or match.status is not MatchStatus.FINISHED:
            return None
        entries = await self._store.match_entries(match)
        return next((e for e in entries if e.user_id == user_id), None)


def _busy(entry: EntryRecord) -> str:
    """Why a player with a live entry cannot search again."""
    return ALREADY_SEARCHING if entry.status is EntryStatus.SEARCHING else IN_A_MATCH


def _pick(chosen: str, among: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The player ``chosen`` names among ``among`` (each id and name): by id, as the list
    offers them (a former player's is negative), or by their name typed (any case), when one
    alone goes by it; None when nobody does."""
    typed = chosen.strip()
    if _is_id(typed):
        by_id = next(((i, n) for i, n in among if i == int(typed)), None)
        if by_id is not None:
            return by_id
    named = [(i, n) for i, n in among if n.casefold() == typed.casefold()]
    if len(named) > 1:
        raise Refused(named_twice(escape(typed)))
    return named[0] if named else None


def _is_id(typed: str) -> bool:
    """Whether ``typed`` is an id as the lists offer them (a former player's is negative)."""
    return typed.removeprefix("-").isdecimal()


def _not_met(chosen: str, user: User, met: list[tuple[int, str]]) -> str:
    """Why ``chosen`` is nobody ``user`` may block (``met``: the players they met)."""
    typed = chosen.strip()
    if typed and (typed == str(user.id) or typed.casefold() == user.name.casefold()):
        return BLOCK_SELF
    if not met:
        return BLOCK_NOBODY_MET
    if not typed or _is_id(typed):
        return BLOCK_NOT_MET
    return not_met_named(escape(typed))


def _choices(people: list[tuple[int, str]], current: str) -> list[Choice]:
    """Autocomplete choices of players by name (their id the value)."""
    typed = current.casefold().strip()
    found = [(i, n) for i, n in people if typed in n.casefold()]
    return [Choice(n[:100], str(i)) for i, n in found[:OPPONENTS_OFFERED]]
