"""The referee: runs every ranked match being played, in the process that sends.

It follows the change feed: a new match (its entries changed), a game of a match that moved
or ended, a player who left. For each it does what is next, each step written before the next
is taken, so a stop at any moment (a kill of the process included) is carried on from the store
by whichever process sends next:

1. a match with no game being played opens its next game, both players seated and dealt in one
   transaction (:meth:`Lobbies.open_seated <bot.core.play.opening.Lobbies.open_seated>`, in
   the game's own channel, which names the match and the game: opening it twice finds the
   first; opened only by one conditional update of the match as it was read, its version,
   its state and its two players, in that transaction, so a player who left it or had their
   data deleted meanwhile is never dealt it: the step is read and decided again), then writes
   it down as the match's; each place gets its player's freshest
   interaction there as the carrier its table is posted through (their card's, for the first
   game; for the next, what reached their place at the game before);
2. while a game is played, the turn clock: a move still owed when its time is up loses the game
   for whoever owes it (resigned for them, the game's ending the clock's:
   :class:`~bot.core.games.endings.Ending`); when both players owed it (the crib's cards, the
   one move both owe at once) and both clocks ran out, neither is late before the other: the
   game ends with no result (its ending the clock's, for the match to know), counted for
   neither, and the match ends there, not rated, abandoned by nobody
   (:data:`~bot.core.ranked.records.Unrated.BOTH_LATE`: both players treated alike, as
   docs/players.md says);
3. a game that ended is counted once for its winner, and a match someone has won twice is
   decided and rated (:meth:`MatchStore.finish_match`), both entries freed;
4. a match decided by a player leaving (which counted the game being played as theirs to
   lose) has that game, still open, resigned for them, its ending their leaving;
5. a match being played when this process begins to referee (it started after the bot was
   down, or took over) whose place cannot be reached any more (:mod:`bot.core.ranked.reach`)
   ends without a result (:data:`~bot.core.ranked.records.NOT_RATED`: nobody's rating
   moves, nobody abandoned it), its game still open ended with no result either.

Each match is looked at one visit at a time (:class:`~bot.core.base.patrol.Patrol`), again
when its clock's next deadline falls due.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.core.base.delivery import Carriers, WayIn
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.patrol import RETRY_AFTER, OnPatrol
from bot.core.base.replies import User
from bot.core.base.seating import APART_SEATS, Seating
from bot.core.base.store_errors import ChannelBusy, Raced, VersionConflict, decided_again
from bot.core.base.text import escape
from bot.core.base.timing import ANSWER_RETRY
from bot.core.games.endings import Ending
from bot.core.games.games import Games
from bot.core.games.records import GameRecord, GameStatus, Match, Options
from bot.core.messages.private_table import TABLE
from bot.core.play.opening import Lobbies
from bot.core.ranked.places import PlaceFeed
from bot.core.ranked.reach import PlaceReach
from bot.core.ranked.records import (
    NOT_RATED,
    EntryRecord,
    MatchGame,
    MatchRecord,
    MatchStatus,
)
from bot.core.ranked.scoreboard import WINS_NEEDED, MatchView, game_channel, match_of_channel
from bot.core.ranked.storage import MatchStore
from bot.core.ranked.turns import TurnClock
from bot.core.ranked.words import NOT_RATED_GAME, both_late_game
from engine.outcome import Scoring

__all__ = ["Referee"]

log = logging.getLogger(__name__)

#: The most steps one look takes before it yields.
STEPS = 20
#: Matches that ended this recently are looked at again at start (a game a stop left open).
RECONCILE_ENDED = 3600.0
#: Matches looked at at once, at most.
LOOKS_AT_ONCE = 4


class Referee(OnPatrol, name="crib-ranked", failing="could not referee ranked match %s"):
    """Runs the ranked matches being played (see the module's steps), while it is started."""

    def __init__(
        self,
        store: MatchStore,
        feed: ChangeFeed,
        games: Games,
        lobbies: Lobbies,
        resign: Callable[[int, User, Ending], Awaitable[object]],
        carriers: Carriers,
        turns: TurnClock,
        matches: MatchView,
        places: PlaceFeed,
        *,
        clock: Callable[[], float],
    ) -> None:
        """``resign(channel_id, user, ending)``: resign the game in that channel for ``user``,
        as ``ending`` says it came about (the moves' call, whose answer goes nowhere)."""
        self._store = store
        self._feed = feed
        self._games = games
        self._lobbies = lobbies
        self._resign = resign
        self._carriers = carriers
        self._turns = turns
        self._matches = matches
        self._places = places
        super().__init__(feed, clock=clock)
        self._reading: set[asyncio.Task[None]] = set()
        #: Each entry of a match looked at, and its match (a card's change names its entry).
        self._match_of: dict[int, int] = {}
        #: Set while the referee publishes its own changes (heard at once: it needs no look).
        self._publishing = False
        #: Matches looked at at once at most: a burst of new matches (a crowd queueing at
        #: once) is set up a few at a time, so the players' interactions are answered meanwhile.
        self._at_once = asyncio.Semaphore(LOOKS_AT_ONCE)
        #: Matches being played when this process began to referee, not yet looked at: each
        #: first look asks whether both places can still be reached (:mod:`.reach`).
        self._unchecked: set[int] = set()
        self._reach = PlaceReach(carriers, games, turns)

    async def start(self) -> None:
        """Referee from now on (this process sends): follow the feed, and look at every match
        being played or ended lately (carrying on whatever a stop left half-done)."""
        self._patrol.follow()
        self._matches.forget()
        self._turns.refereeing(self._clock())
        found = await self._store.matches_since(self._clock() - RECONCILE_ENDED)
        self._unchecked = {m.id for m in found if m.status is MatchStatus.PLAYING}
        for match in found:
            self.look(match.id)

    async def idle(self) -> None:
        """Wait until no look is under way, nor any read of a card that changed (tests,
        shutdown)."""
        while True:
            if self._reading:
                await asyncio.wait(list(self._reading))
            await self._patrol.idle()
            if not self._reading:
                return

    async def look_at_all(self) -> None:
        """Look at every match being played (whatever was heard or missed)."""
        for match in await self._store.matches_since(self._clock()):
            self.look(match.id)

    def _heard(self, change: Change) -> None:
        owner = change.owner
        if owner.kind is OwnerKind.GAME:
            found = match_of_channel(change.channel_id)
            if found is not None:
                self.look(found[0])
        elif owner.kind is OwnerKind.RANKED and not self._publishing:
            # A card changed: a new match, a match decided elsewhere (a player left).
            known = self._match_of.get(owner.id)
            if known is not None:
                self._matches.changed(known)
                self.look(known)
                return
            task = asyncio.get_running_loop().create_task(self._entry_changed(owner.id))
            self._reading.add(task)
            task.add_done_callback(self._reading.discard)

    async def _entry_changed(self, entry_id: int) -> None:
        try:
            entry = await self._store.ranked_entry(entry_id)
        except Exception:
            log.exception("could not read ranked entry %s", entry_id)
            return
        if entry is not None and entry.match_id is not None:
            self._matches.changed(entry.match_id)
            self.look(entry.match_id)

    def _publish(self, entries: list[EntryRecord]) -> None:
        """The referee's own changes of the players' cards, on the feed (no look follows)."""
        self._publishing = True
        try:
            for entry in entries:
                self._feed.publish(Change(Owner.ranked(entry.id), entry.version, entry.channel_id))
        finally:
            self._publishing = False

    async def _advance(self, match_id: int) -> float | None:
        """Take every step that is due, a few matches at a time; when to look again."""
        async with self._at_once:
            try:
                # A game opened for the match as it was read, which has moved on since (a
                # player left it, or had their data deleted): read it again, decide again.
                return await decided_again(lambda: self._steps(match_id))
            except (ChannelBusy, Raced):
                # Another process (the sender before, not yet stopped) opened this game a
                # moment ago, or the match moved on twice as it was read: the next look
                # finds it.
                return self._clock()

    # -- the steps ------------------------------------------------------------------------------
    async def _steps(self, match_id: int) -> float | None:
        """Take every step that is due; when to look again (the clock's next deadline)."""
        for _ in range(STEPS):
            match = await self._store.ranked_match(match_id)
            if match is None:
                return None
            # (Changed elsewhere, a player leaving it: what the tables keep of it is older.)
            self._matches.moved_to(match.id, match.version)
            self._match_of[match.entry_a] = self._match_of[match.entry_b] = match.id
            games = await self._store.match_games(match_id)
            current = games[-1] if games else None
            record = None if current is None else await self._games.record(current.game_id)
            if match.id in self._unchecked:
                self._unchecked.discard(match.id)
                if await self._out_of_reach(match, games, record):
                    continue
            if match.status is MatchStatus.FINISHED:
                if current is not None and record is not None and record.is_open:
                    await self._end_left_open(match, current, record)
                    continue
                return None
            if current is None or (current.winner is not None and record is not None):
                if max(match.wins_a, match.wins_b) >= WINS_NEEDED:
                    await self._decide(match, games)
                    continue
                await self._next_game(match, current)
                continue
            if record is None:
                return self._clock() + RETRY_AFTER
            if not record.is_open:
                await self._count(match, current, record)
                continue
            soon = await self._ways_in(match, current)
            due = await self._clock_of(match, current, record)
            return due if soon is None else soon if due is None else min(soon, due)
        return self._clock()

    async def _next_game(self, match: MatchRecord, before: MatchGame | None) -> None:
        """Open the match's next game, seated and dealt, and give each place its carrier."""
        number = 1 if before is None else before.number + 1
        a, b = await self._store.match_entries(match)
        game = await self._lobbies.open_seated(
            None,
            game_channel(match.id, number),
            (User(a.user_id, a.name), User(b.user_id, b.name)),
            Options(2, 121, scoring=Scoring.LURCH),
            occasion=Match(match.id, number, match.version),
            seating=Seating(tuple(entry.place_apart for entry in (a, b))),
        )
        changed = await self._store.add_match_game(match.id, number, game.id)
        self._moved_on(match, changed)
        self._publish(changed)
        self._places.look_again(game.id, game.channel_id)

    async def _ways_in(self, match: MatchRecord, current: MatchGame) -> float | None:
        """Give each place of the game being played that has no way in yet (no table posted,
        no carrier) one from its player's interactions at their place: their card's, or what
        reached their place at the game before (its table, their hand); the ledger picks the
        freshest a token still reaches (:meth:`Carriers.way_in
        <bot.core.base.delivery.Carriers.way_in>`), and the place's table is posted through it.
        When to look again (an answer that may still be on its way to that interaction's
        message: a post through its token before it lands is refused)."""
        places = [Owner.place(current.game_id, seat) for seat in APART_SEATS]
        wanting = await self._carriers.wanting(places, TABLE)
        if not wanting:
            return None  # (each place has its way in already: the usual look)
        entries = await self._store.match_entries(match)
        earlier: list[MatchGame] = []
        if current.number > 1:
            earlier = [
                g for g in await self._store.match_games(match.id) if g.number == current.number - 1
            ]
        soon: float | None = None
        for seat, entry in enumerate(entries):
            place = places[seat]
            if place not in wanting:
                continue
            sources = [Owner.ranked(entry.id), *(Owner.place(g.game_id, seat) for g in earlier)]
            way = await self._carriers.way_in(place, entry.channel_id, sources)
            if way is WayIn.WAITS:
                soon = self._clock() + ANSWER_RETRY
            elif way is WayIn.GIVEN:
                self._places.look_again(current.game_id, game_channel(match.id, current.number))
        return soon

    async def _clock_of(
        self, match: MatchRecord, current: MatchGame, record: GameRecord
    ) -> float | None:
        """The turn clock of the game being played: a move owed past its time loses the game
        for whoever owes it (owed by both, and neither made: the game counts for neither);
        else when the next runs out."""
        loaded = self._games.loaded.load(record)
        turns = self._turns.turns(loaded)
        if not turns:
            return None
        now = self._clock()
        late = [t for t in turns if t.deadline <= now]
        if not late:
            return min(t.deadline for t in turns)
        if len({t.seat for t in late}) > 1:
            # Neither lost it before the other (one turn, one deadline: the crib's cards):
            # whichever came first in the list lost it for both, every time, before.
            names = [escape(s.name) for s in record.seats]
            try:
                await self._games.close(
                    record, GameStatus.CANCELLED, both_late_game(*names), ending=Ending.CLOCK
                )
            except VersionConflict:
                return now  # (a card thrown as the time ran out: look again)
            self.look(match.id)  # (the match ends on the next look)
            return None
        seat = record.seats[late[0].seat]
        assert seat.user_id is not None
        await self._resign(record.channel_id, User(seat.user_id, seat.name), Ending.CLOCK)
        self.look(match.id)  # (its end is counted on the next look)
        return None

    async def _count(self, match: MatchRecord, current: MatchGame, record: GameRecord) -> None:
        """Count a game that ended for its winner (a game that ended without one: for the
        player who did not leave it, or else the first player); one both clocks ended counts
        for neither, and ends the match not rated."""
        if record.status is GameStatus.CANCELLED and record.ending is Ending.CLOCK:
            games = await self._store.match_games(match.id)
            changed = await self._store.finish_match(
                match.id, winner=None, how=NOT_RATED, abandoned_by=None, now=self._clock()
            )
            self._after_decision(match, games, changed)
            return
        winner = self._winner(record, match)
        changed = await self._store.count_match_game(match.id, current.number, winner)
        self._moved_on(match, changed)
        self._publish(changed)
        self._places.look_again(record.id, record.channel_id)

    def _moved_on(self, match: MatchRecord, changed: list[EntryRecord]) -> None:
        """The referee changed ``match`` (its change wrote ``changed``, the players' cards;
        none: it had been made already): the tables read it again, and a read of the version
        before, on its way, is not kept (told at once, before they are drawn again)."""
        if changed:
            self._matches.moved_to(match.id, match.version + 1)
        else:
            self._matches.changed(match.id)

    def _winner(self, record: GameRecord, match: MatchRecord) -> int:
        """Who won the ended game ``record``."""
        if record.status is GameStatus.FINISHED and record.snapshot is not None:
            result = self._games.loaded.load(record).game.state.result
            if result is not None and result.winner is not None:
                user = record.seats[result.winner].user_id
                if user is not None:
                    return user
        return match.player_a

    async def _decide(self, match: MatchRecord, games: list[MatchGame]) -> None:
        """A player won the games the match needs: decide and rate it."""
        winner = match.player_a if match.wins_a >= WINS_NEEDED else match.player_b
        loser = match.opponent(winner)
        lost_on_clock = [g for g in games if g.winner == winner and g.ending is Ending.CLOCK]
        # Lost every game on the clock (it never played): the match counts as abandoned.
        abandoned = (
            loser if match.wins_of(loser) == 0 and len(lost_on_clock) == len(games) else None
        )
        changed = await self._store.finish_match(
            match.id, winner=winner, how="games", abandoned_by=abandoned, now=self._clock()
        )
        self._after_decision(match, games, changed)

    def _after_decision(
        self, match: MatchRecord, games: list[MatchGame], changed: list[EntryRecord]
    ) -> None:
        self._moved_on(match, changed)
        self._publish(changed)
        if games:
            last = games[-1]
            self._places.look_again(last.game_id, game_channel(match.id, last.number))
            self._turns.forget(last.game_id)

    async def _out_of_reach(
        self, match: MatchRecord, games: list[MatchGame], record: GameRecord | None
    ) -> bool:
        """A match being played as this process began to referee: if a place of it cannot
        be reached any more (the bot was down too long: :mod:`.reach`), it ends without a
        result, rated for nobody (its game being played is ended on the next step)."""
        if match.status is not MatchStatus.PLAYING:
            return False
        entries = await self._store.match_entries(match)
        now = self._clock()
        lost = await self._reach.out_of_reach(entries, games, record, now)
        if not lost:
            return False
        changed = await self._store.finish_match(
            match.id, winner=None, how=NOT_RATED, abandoned_by=None, now=now
        )
        log.warning("ranked match %s not rated: no token reaches seat %s any more", match.id, lost)
        self._after_decision(match, games, changed)
        return True

    async def _end_left_open(
        self, match: MatchRecord, current: MatchGame, record: GameRecord
    ) -> None:
        """The match is over, its game still open: one that ended without a result ends so
        too (no result either); else the match was decided by a player leaving it, and that
        game (counted as theirs to lose with the match) is resigned for them."""
        if match.rated:
            await self._resign_left(match, current, record)
            return
        await self._games.on(record.id, self._unrated, read=record)
        self._places.look_again(record.id, record.channel_id)

    async def _unrated(self, record: GameRecord) -> None:
        """On the game's sequence: end a game whose match ended without a result, so too."""
        if record.is_open:
            await self._games.close(record, GameStatus.CANCELLED, NOT_RATED_GAME)

    async def _resign_left(
        self, match: MatchRecord, current: MatchGame, record: GameRecord
    ) -> None:
        """The match was decided by a player leaving it: its game still open (counted as
        theirs to lose with the match) is resigned for them, its ending their leaving."""
        leaver = (
            match.abandoned_by
            if match.abandoned_by is not None
            else match.opponent(match.winner or match.player_a)
        )
        seat = record.seat_of(leaver)
        if seat is None:
            return
        await self._resign(record.channel_id, User(leaver, record.seats[seat].name), Ending.LEFT)
        self._places.look_again(record.id, record.channel_id)
