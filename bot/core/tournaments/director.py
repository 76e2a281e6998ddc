"""The tournament director: runs every tournament being played, in the process that sends.

It follows the change feed. When a tournament changes (it started, a result was set) or one
of its games changes, it looks at the tournament and does whatever is next, each step written
before the next is taken, so a stop at any moment is carried on from the store:

1. a round with no pairings is paired by the tournament's format (its strategy from
   :mod:`engine.formats`) in the one transaction that moves the round on, so it is never
   paired twice;
2. each pairing gets a message in the tournament's channel ("Round 2 · Al vs Bea", posted with
   a nonce, so posting it again after a stop gives back the same message), then a thread
   started from that message (a message starts one thread at most, and the thread has the
   message's id, so it is never made twice), then a game in the thread with both players
   seated and dealt in one transaction (a second try finds the thread's game), opened by one
   conditional update of the pairing as the round was read (its version, undecided, its two
   players), in that transaction (a withdrawal or a deletion of a player's data since moved
   it on: the step is read and decided again, :func:`~bot.core.base.store_errors.
   decided_again`);
3. a game that ended gives its pairing's result (written only where none is);
4. when every pairing of the round has a result, the next round is paired, or, once the
   format says the event is over (or has nobody left to pair), the tournament ends (its
   message then announces the champion the format decides, once);
5. a decided pairing's thread is archived, once the table of its last game shows how it ended
   (an edit of a message in an archived thread is refused), and kept as archived.

A round's deadline (``round_hours`` after it was paired, its clock stopped while Discord
refuses the bot its tables: a permission taken away in the channel) decides what is left: a
game still going by the score (the leader wins, without a lurch; level is a loss for both), a
game in which a player never moved forfeited by that player (by both if neither did).

The Discord side of steps 2 and 5 (posting, starting a thread with both players in it,
archiving it) is given as :class:`~bot.core.tournaments.threads.Threads`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.patrol import RETRY_AFTER, OnPatrol
from bot.core.base.refusals import Refused
from bot.core.base.replies import User
from bot.core.base.store_errors import ChannelBusy, Raced, decided_again
from bot.core.games.games import Games
from bot.core.games.records import GameRecord, GameStatus, Options, Round
from bot.core.play.opening import Lobbies
from bot.core.tournaments.records import (
    Decided,
    PairingRecord,
    TournamentRecord,
    TournamentStatus,
    Verdict,
)
from bot.core.tournaments.threads import ThreadRefused, Threads
from bot.core.tournaments.tournaments import RECONCILE_ENDED, TournamentStore, read_event
from bot.core.tournaments.view import Event, champion_of, mention, progress_of
from engine.outcome import Scoring, final_scores

__all__ = ["TournamentDirector", "pair_next"]

log = logging.getLogger(__name__)

#: The action log's entries that are a player's own move (not time's: a count made for them).
_MOVES = frozenset({"discard", "play", "claim", "muggins", "resign"})
#: The most steps one look takes (a round paired, its tables set up, ...) before it yields.
STEPS = 50
#: A decided pairing's thread waits for its table's last edit, looking again this often...
SETTLE_EVERY = 1.0
#: ... and at most this long (a table that cannot be sent, its thread deleted, say).
SETTLE_AT_MOST = 120.0


def pair_next(event: Event) -> list[tuple[int, int | None]]:
    """The next round's pairs (``(a, None)``: a bye for ``a``), as the event's format pairs
    them from the results so far (empty: nobody is left to pair)."""
    return list(event.record.format.pair(progress_of(event)))


class TournamentDirector(
    OnPatrol, name="crib-tournament", failing="could not direct tournament %s"
):
    """Runs the tournaments being played (see the module's steps), while it is started."""

    def __init__(
        self,
        store: TournamentStore,
        feed: ChangeFeed,
        games: Games,
        lobbies: Lobbies,
        *,
        clock: Callable[[], float],
        settled: Callable[[Owner], Awaitable[bool]],
    ) -> None:
        """``settled``: whether an owner's messages in its channel show what they should (the
        ledger's), so that a thread is archived only after its table's last edit."""
        self._store = store
        self._settled = settled
        # (tournament, round, table) -> when its thread was first found waiting to be archived.
        self._settling: dict[tuple[int, int, int], float] = {}
        self._feed = feed
        self._games = games
        self._lobbies = lobbies
        self._threads: Threads | None = None
        # When it last began to direct (a round paired before may have been posted by a stop).
        self._since = 0.0
        # game id -> the tournament it is played for (the games of rounds being played).
        self._of_game: dict[int, int] = {}
        super().__init__(feed, clock=clock)

    async def start(self, threads: Threads) -> None:
        """Direct from now on (this process sends): follow the feed, and look at every
        tournament being played (carrying on whatever a stop left half-done)."""
        self._threads = threads
        self._since = self._clock()
        self._patrol.follow()
        # Those being played, and those ended lately (a thread a stop left to archive).
        since = self._clock() - RECONCILE_ENDED.total_seconds()
        for record in await self._store.recent_tournaments(since):
            if record.status is not TournamentStatus.OPEN:
                self.look(record.id)

    def _heard(self, change: Change) -> None:
        if change.owner.kind is OwnerKind.TOURNAMENT:
            self.look(change.owner.id)
        elif change.owner.kind is OwnerKind.GAME:
            tournament = self._of_game.get(change.owner.id)
            if tournament is not None:
                self.look(tournament)

    async def _refused(self, record: TournamentRecord, refused: ThreadRefused) -> None:
        """Discord refused a table of the round (a permission taken away in the channel): the
        round's clock stops until it takes them again, so no match is decided by a deadline
        for time nobody could play, and the tournament's message says so; said once. Its
        channel deleted, the tournament ends there, cancelled (its games end, no champion)."""
        now = self._clock()
        if refused.gone:
            log.warning("tournament %s: its channel is gone (%s); it ends", record.id, refused)
            if await self._store.end_tournament(record.id, TournamentStatus.CANCELLED, now=now):
                self._announce(record.id)
        elif record.refused_since is None:
            said = "tournament %s: Discord refuses round %s's tables (%s): its clock stops"
            log.warning(said, record.id, record.round, refused)
            if await self._store.refuse_round(record.id, record.round, refused=True, now=now):
                self._announce(record.id)

    async def _taken(self, record: TournamentRecord) -> None:
        """Discord takes the round's tables (again): its clock goes on where it stopped."""
        if record.refused_since is None:
            return
        log.info("tournament %s: Discord takes round %s's tables again", record.id, record.round)
        now = self._clock()
        if await self._store.refuse_round(record.id, record.round, refused=False, now=now):
            self._announce(record.id)

    # -- the steps ------------------------------------------------------------------------------
    async def _advance(self, tournament_id: int) -> float | None:
        """Take every step that is due; returns when to look again (the round's deadline)."""
        for _ in range(STEPS):
            try:  # (a pairing moved on as it was read: the step is read and decided again)
                again, when = await decided_again(lambda: self._step(tournament_id))
            except Raced:
                return self._clock()  # (moved on twice as it was read: look again)
            if not again:
                return when
        return self._clock()

    async def _step(self, tournament_id: int) -> tuple[bool, float | None]:
        """The next step that is due, taken: whether another may be, else when to look again."""
        record = await self._store.tournament(tournament_id)
        if record is None or record.status is TournamentStatus.OPEN:
            return False, None
        event = await read_event(self._store, record)
        if record.status is not TournamentStatus.RUNNING:
            if record.status is TournamentStatus.CANCELLED:
                await self._stop_games(event)
            return False, await self._archive_threads(event)
        current = event.current()
        await self._end_decided(event, current)
        if record.round == 0 or all(p.decided is not None for p in current):
            if record.format.is_over(progress_of(event)):
                await self._finish(record)
                return False, None
            pairs = pair_next(event)
            if not pairs:
                await self._finish(record)
                return False, None
            await self._store.pair_round(record.id, record.round + 1, pairs, now=self._clock())
            self._announce(record.id)
            return True, None
        deadline = record.deadline
        out_of_time = deadline is not None and self._clock() >= deadline
        if out_of_time and await self._deadline(record, current):
            self._announce(record.id)
            return True, None
        changed = False
        try:
            for pairing in current:
                if pairing.decided is None and pairing.player_b is not None:
                    changed |= await self._table(record, event, pairing)
        except ThreadRefused as refused:
            await self._refused(record, refused)
            return False, self._clock() + RETRY_AFTER
        await self._taken(record)
        if changed:
            self._announce(record.id)
            return True, None
        due = [t for t in (deadline, await self._archive_threads(event)) if t is not None]
        return False, min(due) if due else None

    def _announce(self, tournament_id: int) -> None:
        """Publish the tournament's change (its message is drawn again)."""

        async def publish() -> None:
            record = await self._store.tournament(tournament_id)
            if record is not None:
                self._feed.publish(
                    Change(Owner.tournament(record.id), record.version, record.channel_id)
                )

        asyncio.get_running_loop().create_task(publish())

    async def _finish(self, record: TournamentRecord) -> None:
        event = await read_event(self._store, record)
        await self._store.end_tournament(
            record.id,
            TournamentStatus.FINISHED,
            now=self._clock(),
            champion=champion_of(event) if event.entrants else None,
        )
        self._announce(record.id)

    async def _table(self, record: TournamentRecord, event: Event, p: PairingRecord) -> bool:
        """Set one pairing's table up, or take its result; whether anything was written."""
        assert p.player_b is not None and self._threads is not None
        names = {e.user_id: e.name for e in event.entrants}
        # (The messages' Markdown escapes the names; a thread's name is plain text.)
        name = f"Round {p.round} · {event.name(p.player_a)} vs {event.name(p.player_b)}"
        title = f"Round {p.round} · {names[p.player_a]} vs {names[p.player_b]}"
        if p.post_id is None:
            text = f"**{name}** — <@{p.player_a}> and <@{p.player_b}>, your game is dealt in the"
            text += " thread below."
            post: int | None = None
            paired = record.round_started or 0.0
            if paired < self._since:
                # Paired before this process directed: a stop may have posted it without
                # keeping its id, longer ago than Discord remembers the nonce for.
                # (By its whole text: its players' ids in it, whatever their names.)
                post = await self._threads.find_post(record.channel_id, paired, text)
            if post is None:
                nonce = f"crib-t{record.id}r{p.round}t{p.tab}"[:25]
                post = await self._threads.post(
                    record.channel_id, text, nonce, (p.player_a, p.player_b)
                )
            await self._store.set_post(record.id, p.round, p.tab, post)
            return True
        if p.thread_id is None:
            thread = await self._threads.start_thread(
                record.channel_id, p.post_id, title[:100], (p.player_a, p.player_b)
            )
            await self._store.set_thread(record.id, p.round, p.tab, thread)
            return True
        if p.game_id is None and await self._series_over(record, p):
            return True  # (counted, then stopped before it was decided)
        gone = _withdrawn(event, p)
        if p.game_id is None and gone is not None:
            # Withdrawn as their game ended by play (counted above): no next game for them.
            other = p.player_b if gone == p.player_a else p.player_a
            return await self._store.decide(
                record.id, p.round, p.tab, Verdict(Decided.WITHDRAWN, other)
            )
        if p.game_id is None:
            try:
                game = await self._lobbies.open_seated(
                    record.guild_id,
                    p.thread_id,
                    (User(p.player_a, names[p.player_a]), User(p.player_b, names[p.player_b])),
                    Options(
                        2, record.target, scoring=Scoring(record.scoring), variant=record.variant
                    ),
                    occasion=_round(record, p),
                )
            except ChannelBusy:
                # Someone opened a game of their own in the thread (between the games of a
                # best of 3, or while this process was stopped): the thread is the match's,
                # so that game ends, and the match's game is dealt on the next step. (Its
                # note names neither player: the game is other people's, and is kept with it.)
                line = "This thread is for a tournament match: this game ends here."
                await self._clear(p.thread_id, line)
                return True
            self._of_game[game.id] = record.id
            await self._store.set_game(record.id, p.round, p.tab, game.id)
            return True
        self._of_game[p.game_id] = record.id
        return await self._result(record, p)

    async def _result(self, record: TournamentRecord, p: PairingRecord) -> bool:
        """A pairing's game that has ended gives its result."""
        assert p.game_id is not None
        game = await self._store.get_game(p.game_id)
        if game is None or game.is_open:
            return False
        self._of_game.pop(p.game_id, None)
        if game.status is not GameStatus.FINISHED:
            # Cancelled by a moderator, or ended idle: a loss for both.
            return await self._store.decide(
                record.id, p.round, p.tab, Verdict(Decided.FORFEIT, None)
            )
        rows = await self._store.results(p.game_id)
        won = [r for r in rows if r.won]
        lost = [r for r in rows if not r.won]
        if not won or not lost:
            return await self._store.decide(
                record.id, p.round, p.tab, Verdict(Decided.FORFEIT, None)
            )
        winner, loser = won[0], lost[0]
        # (Won at the game hole, as players say it: the points pegged past it add nothing.)
        final = final_scores((winner.score, loser.score), 0, record.target)
        margin = max(0, final[0] - final[1])
        if record.games_in(p.round) > 1:
            a_won = winner.user_id == p.player_a
            if not await self._store.count_game(
                record.id, p.round, p.tab, p.game_id, a_won=a_won, margin=margin
            ):
                return False
            signed = margin if a_won else -margin
            counted = dataclasses.replace(
                p,
                game_id=None,
                wins_a=p.wins_a + int(a_won),
                wins_b=p.wins_b + int(not a_won),
                spread_a=p.spread_a + signed,
            )
            await self._series_over(record, counted)
            return True
        return await self._store.decide(
            record.id,
            p.round,
            p.tab,
            Verdict(Decided.GAME, winner.user_id, lurch=winner.game_points >= 2, margin=margin),
        )

    async def _series_over(self, record: TournamentRecord, p: PairingRecord) -> bool:
        """A best of 3 that one player has won twice is decided (False: not over yet)."""
        need = record.games_in(p.round) // 2 + 1
        if max(p.wins_a, p.wins_b) < need:
            return False
        a_won = p.wins_a >= need
        winner = p.player_a if a_won else p.player_b
        margin = max(0, p.spread_a if a_won else -p.spread_a)
        await self._store.decide(
            record.id, p.round, p.tab, Verdict(Decided.GAME, winner, margin=margin)
        )
        return True

    async def _end_decided(self, event: Event, current: list[PairingRecord]) -> None:
        """A game still open in a pairing decided otherwise than by it (the deadline, a
        withdrawal, a moderator) ends, its thread told why (after the result is written, so a
        stop in between leaves the result, and the game is ended on the next look)."""
        for p in current:
            if p.decided in (None, Decided.GAME, Decided.BYE) or p.game_id is None:
                continue
            game = await self._store.get_game(p.game_id)
            if game is None or not game.is_open:
                continue
            await self._close(game, _why(event, p))

    async def _close(self, game: GameRecord, line: str) -> None:
        """End a game the tournament decided (no result of its own, unrated), its thread told
        why."""
        with contextlib.suppress(Refused):  # (moved on meanwhile in another process)
            await self._games.on(game.id, lambda record: self._closed(record, line), read=game)
        self._of_game.pop(game.id, None)

    async def _clear(self, thread_id: int, line: str) -> None:
        """End the game open in a pairing's thread that is not the pairing's (no result of its
        own, unrated), the thread told why."""
        game = await self._store.last_game_in_channel(thread_id)
        if game is not None and game.is_open:
            await self._games.on(game.id, lambda record: self._closed(record, line), read=game)

    async def _closed(self, record: GameRecord, line: str) -> None:
        """On the game's sequence: end it without a result, unless it has ended already."""
        if record.is_open:
            await self._games.close(record, GameStatus.CANCELLED, line)

    async def _stop_games(self, event: Event) -> None:
        """The tournament was cancelled: every game still being played ends without a result."""
        by = event.record.cancelled_by
        who = f" by {mention(by)}" if by is not None else ""
        line = f"The tournament was cancelled{who}: this game ends here, without a result."
        for p in event.pairings:
            if p.decided is not None or p.game_id is None:
                continue
            game = await self._store.get_game(p.game_id)
            if game is not None and game.is_open:
                await self._close(game, line)

    async def _archive_threads(self, event: Event) -> float | None:
        """Archive the thread of every decided pairing (of every one, in a cancelled
        tournament) whose last game has ended and whose
        table shows it (or that waited ``SETTLE_AT_MOST`` for that); when to look again if a
        thread is still waiting."""
        assert self._threads is not None
        record = event.record
        soon: float | None = None
        # A cancelled tournament's undecided pairings are over too.
        over = record.status is TournamentStatus.CANCELLED
        for p in event.pairings:
            if (p.decided is None and not over) or p.thread_id is None or p.archived:
                continue
            key = (record.id, p.round, p.tab)
            game = await self._store.last_game_in_channel(p.thread_id)
            waited = self._clock() - self._settling.setdefault(key, self._clock())
            if game is not None and waited < SETTLE_AT_MOST:
                owner = Owner.game(game.id)
                if game.is_open or not await self._settled(owner):
                    # Ended on this look or the next (its table's last edit still to go).
                    soon = self._clock() + SETTLE_EVERY
                    continue
            await self._threads.archive(p.thread_id)
            await self._store.set_archived(record.id, p.round, p.tab)
            self._settling.pop(key, None)
        return soon

    async def _deadline(self, record: TournamentRecord, current: list[PairingRecord]) -> bool:
        """The round's time is up: every pairing still undecided is decided (see the module)."""
        changed = False
        for p in current:
            if p.decided is not None or p.player_b is None:
                continue
            winner: int | None = None
            how = Decided.DEADLINE
            margin = 0
            if p.game_id is None and p.wins_a != p.wins_b:
                # Between two games of a best of 3: the one ahead wins it.
                winner = p.player_a if p.wins_a > p.wins_b else p.player_b
                margin = abs(p.spread_a)
            elif p.game_id is None:
                how = Decided.FORFEIT
            else:
                game = await self._store.get_game(p.game_id)
                if game is not None and not game.is_open:
                    changed |= await self._result(record, p)
                    continue
                moved = await self._movers(p.game_id)
                if not moved:
                    how = Decided.FORFEIT
                elif len(moved) == 1:
                    how = Decided.FORFEIT
                    winner = next(iter(moved))
                elif game is not None:
                    scores = self._games.loaded.load(game).game.state.scores
                    seats = {s.seat: s.user_id for s in game.seats}
                    if scores[0] != scores[1]:
                        lead = 0 if scores[0] > scores[1] else 1
                        winner = seats[lead]
                        margin = abs(scores[0] - scores[1])
            changed |= await self._store.decide(
                record.id, p.round, p.tab, Verdict(how, winner, margin=margin)
            )
        return changed

    async def _movers(self, game_id: int) -> set[int]:
        """The players who made a move of their own in the game (a discard or later)."""
        game = await self._store.get_game(game_id)
        if game is None:
            return set()
        seats = {s.seat: s.user_id for s in game.seats if s.user_id is not None}
        moved: set[int] = set()
        for text in await self._store.actions(game_id):
            action = json.loads(text)
            if not isinstance(action, dict) or action.get("type") not in _MOVES:
                continue
            seat = action.get("seat")
            if isinstance(seat, int) and seat in seats:
                moved.add(seats[seat])
        return moved


def _withdrawn(event: Event, p: PairingRecord) -> int | None:
    """The player of the pairing who has withdrawn from the tournament (None: neither)."""
    for entrant in event.entrants:
        if entrant.user_id in (p.player_a, p.player_b) and entrant.withdrawn is not None:
            return entrant.user_id
    return None


def _why(event: Event, p: PairingRecord) -> str:
    """What a pairing's thread is told when its game ends by the tournament, not by play."""
    winner = event.name(p.winner) if p.winner is not None else None
    if p.decided is Decided.WITHDRAWN:
        gone = p.player_b if p.winner == p.player_a else p.player_a
        return f"{event.name(gone)} withdrew from the tournament: {winner} wins this match."
    if p.decided is Decided.MODERATOR:
        return f"A moderator set this match's result: {winner} wins."
    if p.decided is Decided.FORFEIT:
        if winner is None:
            return "The round's time is up and neither player moved: a loss for both."
        return f"The round's time is up and only {winner} moved: {winner} wins by forfeit."
    if winner is None:
        return "The round's time is up with the scores level: a loss for both."
    return f"The round's time is up: {winner} was ahead and wins, without a lurch."


def _round(record: TournamentRecord, p: PairingRecord) -> Round:
    """The occasion of pairing ``p``'s game in tournament ``record``: its round, and the
    pairing as read (its version: its game opens only while the pairing is so)."""
    words = f"Round {p.round} of the {record.format.named()} tournament"
    return Round(words, (record.id, p.round, p.tab, p.version))
