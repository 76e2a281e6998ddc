"""A server's tournaments: open one in a channel, enter and leave, start, withdraw, the
standings, and a moderator's result (a cancel is :mod:`bot.core.tournaments.cancelling`'s).
What happens once it runs (pairing each round, a thread and a dealt game per pairing, results
as games end) is the director's (:mod:`bot.core.tournaments.director`); the live message is
drawn by :class:`TournamentMessages` for the ledger.

Every call is one write that moves the tournament's version on: the change feed then tells the
keeper (the message is edited) and the director (a round may be paired).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta
from typing import Protocol

from bot.core.base.choices import (
    DEFAULT_FORMAT,
    DEFAULT_ROUND_HOURS,
    ROUND_HOURS,
    ROUND_HOURS_SAID,
    TOURNAMENT_SEATS,
    tournament_variants,
)
from bot.core.base.delivery import Drawing, Owed, Projector
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, User
from bot.core.base.text import escape, plural
from bot.core.base.views import ConfirmControls, EntryControls, MessageRecord, MessageView
from bot.core.games.records import GameRecord, GameStatus, ResultRecord, is_former
from bot.core.standings.records import Ranked
from bot.core.tournaments.records import (
    PLAYOFF_ROUNDS,
    Decided,
    EntrantRecord,
    PairingRecord,
    TournamentPlan,
    TournamentRecord,
    TournamentStatus,
    Verdict,
)
from bot.core.tournaments.view import (
    Event,
    board_text,
    champion_of,
    champion_text,
    mention,
    standings_message,
)
from engine import formats
from engine.outcome import Scoring
from engine.registry import say_or
from engine.tournament import MAX_SWISS_ROUNDS
from engine.variants import STANDARD, find

__all__ = [
    "MIN_ENTRANTS",
    "TournamentMessages",
    "TournamentStore",
    "Tournaments",
    "planned",
]

#: A tournament starts with at least this many entrants.
MIN_ENTRANTS = 3
#: Ended tournaments' messages are brought up to date at start-up this long after.
RECONCILE_ENDED = timedelta(days=1)
#: The keys of a tournament's messages: its live board (edited in place), and the champion's
#: announcement (posted once).
BOARD, CHAMPION = MessageKey("board"), MessageKey("champion")

NO_TOURNAMENT = (
    "There's no tournament in this channel. A moderator opens one with `/cribbage tournament new`."
)
MODERATORS_ONLY = "Only a moderator (Manage Server or Manage Events) can do that."


def organiser_only(record: TournamentRecord) -> str:
    """Who may start or cancel a tournament, said to someone who may not: its organiser,
    named, or a moderator (what the permission checks let: Manage Server or Manage Events)."""
    return (
        f"Only the tournament's organiser, {mention(record.organiser_id)}, or a moderator (Manage "
        "Server or Manage Events) can do that."
    )


NOT_OPEN = "This tournament has started: entries are closed."
ALREADY_IN = "You're in this tournament already."
NOT_IN = "You're not in this tournament."
TOO_FEW = f"A tournament needs {MIN_ENTRANTS} entrants at least to start."
NOT_RUNNING = "This tournament is not being played."
ENDED = "This tournament is over: nothing can change now."
BAD_ROUNDS = f"`rounds` must be from 1 to {MAX_SWISS_ROUNDS}."
BAD_HOURS = f"`round_hours` must be from {ROUND_HOURS_SAID}."
NO_SUCH_PAIRING = "Those two players have no game in this round of the tournament."
BAD_WINNER = "The winner must be one of the two players."
#: Said to a ``variant`` a tournament cannot play (one not for two players).
TWO_PLAYER_VARIANTS = (
    "A tournament's games are for two: `variant` is "
    + say_or([f"`{v.name}`" for v in tournament_variants()])
    + "."
)


class PairingStore(Protocol):
    """What a tournament's rounds need of a store as they are played: their pairings, each
    table's post, thread and game as they are made, and its result (part of
    :class:`TournamentStore`)."""

    async def pair_round(
        self,
        tournament_id: int,
        round_: int,
        pairs: list[tuple[int, int | None]],
        *,
        now: float,
    ) -> bool: ...
    async def refuse_round(
        self, tournament_id: int, round_: int, *, refused: bool, now: float
    ) -> bool: ...
    async def set_post(self, tournament_id: int, round_: int, tab: int, post_id: int) -> None: ...
    async def set_thread(
        self, tournament_id: int, round_: int, tab: int, thread_id: int
    ) -> None: ...
    async def set_game(self, tournament_id: int, round_: int, tab: int, game_id: int) -> None: ...
    async def set_archived(self, tournament_id: int, round_: int, tab: int) -> None: ...
    async def count_game(
        self, tournament_id: int, round_: int, tab: int, game_id: int, *, a_won: bool, margin: int
    ) -> bool: ...
    async def decide(
        self, tournament_id: int, round_: int, tab: int, verdict: Verdict, *, again: bool = False
    ) -> bool: ...


class TournamentStore(PairingStore, Protocol):
    """What the tournaments need of a store (written in ``bot.store.tournament_tables``)."""

    async def create_tournament(self, plan: TournamentPlan, *, now: float) -> TournamentRecord: ...
    async def tournament(self, tournament_id: int) -> TournamentRecord | None: ...
    async def tournament_in_channel(self, channel_id: int) -> TournamentRecord | None: ...
    async def recent_tournaments(self, since: float) -> list[TournamentRecord]: ...
    async def entrants(self, tournament_id: int) -> list[EntrantRecord]: ...
    async def pairings(self, tournament_id: int) -> list[PairingRecord]: ...
    async def enter(self, tournament_id: int, user_id: int, name: str) -> bool: ...
    async def leave(self, tournament_id: int, user_id: int) -> bool: ...
    async def withdraw(self, tournament_id: int, user_id: int, round_: int) -> bool: ...
    async def reseed(self, tournament_id: int, order: list[int]) -> None: ...
    async def standing(
        self, guild_id: int | None, player_id: int, variant: str = ...
    ) -> dict[bool, Ranked]: ...
    async def start_tournament(self, tournament_id: int, *, rounds: int | None = None) -> bool: ...
    async def end_tournament(
        self, tournament_id: int, how: TournamentStatus, *, now: float, champion: int | None = None
    ) -> bool: ...
    async def cancel_tournament(self, tournament_id: int, *, by: int, now: float) -> bool: ...
    async def last_game_in_channel(self, channel_id: int) -> GameRecord | None: ...
    async def get_game(self, game_id: int) -> GameRecord | None: ...
    async def results(self, game_id: int) -> list[ResultRecord]: ...
    async def actions(self, game_id: int) -> list[str]: ...


async def read_event(store: TournamentStore, record: TournamentRecord) -> Event:
    """A tournament with its entrants and pairings."""
    entrants = await store.entrants(record.id)
    pairings = await store.pairings(record.id)
    return Event(record, tuple(entrants), tuple(pairings))


def bad_format() -> str:
    """What a format no registered one has is told: the names there are."""
    return f"`format` must be {formats.choices_text()}."


def playoff_refused() -> str:
    """What a playoff asked of a format that takes none is told: the ones that take one."""
    takers = [f for f in formats.listed() if f.takes_playoff]
    events = " or ".join(f"{f.title}" for f in takers)
    choose = " or ".join(f"`format:{f.name}`" for f in takers)
    return f"A playoff follows a {events} event: choose {choose} for one."


def planned(
    guild_id: int,
    channel_id: int,
    user: User,
    *,
    format: str = DEFAULT_FORMAT,
    rounds: int = 0,
    target: int | None = None,
    scoring: str = Scoring.LURCH,
    round_hours: float = DEFAULT_ROUND_HOURS,
    match_games: int = 1,
    playoff: int = 0,
    variant: str = STANDARD.name,
) -> TournamentPlan:
    """A tournament as ``user`` opens it, its options checked (``Refused``, saying which is
    wrong and what it may be, for one that is not): ``/cribbage tournament new``'s, and a club
    night's (``/club night``)."""
    kind = formats.find(format)
    if kind is None:
        raise Refused(bad_format())
    if not 0 <= rounds <= MAX_SWISS_ROUNDS:
        raise Refused(BAD_ROUNDS)
    if scoring not in tuple(Scoring):
        raise Refused("`scoring` must be lurch or skunk.")
    played = find(variant)
    if played is None or played not in tournament_variants():
        raise Refused(TWO_PLAYER_VARIANTS)
    try:
        played.check(TOURNAMENT_SEATS, target, scoring)
    except ValueError as refused:
        raise Refused(str(refused)) from None
    target = played.default_target if target is None else target
    if not ROUND_HOURS[0] <= round_hours <= ROUND_HOURS[1]:
        raise Refused(BAD_HOURS)
    if match_games not in (1, 3):
        raise Refused("`match` must be a single game or best of 3.")
    if playoff not in PLAYOFF_ROUNDS:
        raise Refused("`playoff` must be the top 4 or the top 8.")
    if playoff and not kind.takes_playoff:
        raise Refused(playoff_refused())
    plan = TournamentPlan(
        guild_id=guild_id,
        channel_id=channel_id,
        organiser_id=user.id,
        format=kind,
        rounds=rounds,
        target=target,
        scoring=scoring,
        round_hours=round_hours,
        match_games=match_games,
        playoff=playoff,
        variant=played.name,
    )
    return plan


class Tournaments:
    """The calls of ``/cribbage tournament`` (its ``cancel`` is
    :class:`~bot.core.tournaments.cancelling.Cancellations`'), and the Join/Leave buttons."""

    def __init__(
        self,
        store: TournamentStore,
        feed: ChangeFeed,
        now: Callable[[], float],
        faults: Faults,
        held: Callable[[int], Awaitable[str | None]] | None = None,
    ) -> None:
        """``faults``: where a store that fails is noted (the games'); ``held``: why a
        tournament may not be started by hand (None: it may; a club night's starts itself at
        its time, with those checked in)."""
        self._store = store
        self._feed = feed
        self._now = now
        self.faults = faults
        self._held = held

    def _announce(self, record: TournamentRecord) -> None:
        """The tournament changed: its message is drawn again, the director looks at it."""
        self._feed.publish(Change(Owner.tournament(record.id), record.version, record.channel_id))

    async def changed(self, tournament_id: int) -> TournamentRecord:
        """A call changed the tournament: it is read, and its change published (its message
        is drawn again, the director looks at it)."""
        record = await self._store.tournament(tournament_id)
        assert record is not None
        self._announce(record)
        return record

    async def here(self, channel_id: int) -> TournamentRecord:
        """This channel's tournament (a command's), or the refusal: none here."""
        record = await self._store.tournament_in_channel(channel_id)
        if record is None:
            raise Refused(NO_TOURNAMENT)
        return record

    @answers
    async def new(
        self,
        guild_id: int,
        channel_id: int,
        user: User,
        *,
        moderator: bool,
        format: str = DEFAULT_FORMAT,
        rounds: int = 0,
        target: int | None = None,
        scoring: str = Scoring.LURCH,
        round_hours: float = DEFAULT_ROUND_HOURS,
        match_games: int = 1,
        playoff: int = 0,
        variant: str = STANDARD.name,
    ) -> Answer:
        """Open a tournament in this channel (moderators only); its message is posted with
        Join and Leave buttons. Every game of it is played in ``variant``, a two-player one
        (the standard game, five-card or seven-card cribbage), to ``target`` (None: the
        variant's default)."""
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        plan = planned(
            guild_id,
            channel_id,
            user,
            format=format,
            rounds=rounds,
            target=target,
            scoring=scoring,
            round_hours=round_hours,
            match_games=match_games,
            playoff=playoff,
            variant=variant,
        )
        record = await self._store.create_tournament(plan, now=self._now())
        await self.changed(record.id)
        return Answer.say(
            "The tournament is open: its message with the Join button is on its way here."
        )

    @answers
    async def join(self, channel_id: int, user: User) -> Answer:
        """Enter this channel's tournament."""
        return await self._join(await self.here(channel_id), user)

    @answers
    async def leave(self, channel_id: int, user: User) -> Answer:
        """Leave this channel's tournament before it starts."""
        return await self._leave(await self.here(channel_id), user)

    @answers
    async def click(
        self, tournament_id: int, action: str, user: User, *, guild_id: int | None
    ) -> Answer:
        """The tournament message's Join or Leave button."""
        record = await self.found(tournament_id, guild_id)
        if action == "join":
            return await self._join(record, user)
        if action == "leave":
            return await self._leave(record, user)
        raise Refused("That button does nothing any more.")

    async def found(self, tournament_id: int, guild_id: int | None) -> TournamentRecord:
        """The tournament a button names, if it is this server's (a button is clicked where
        its message is: any other is refused as missing)."""
        record = await self._store.tournament(tournament_id)
        if record is None or record.guild_id != guild_id:
            raise Refused("I can't find that tournament.")
        return record

    async def _join(self, record: TournamentRecord, user: User) -> Answer:
        if record.status is not TournamentStatus.OPEN:
            raise Refused(NOT_OPEN)
        if not await self._store.enter(record.id, user.id, user.name):
            raise Refused(ALREADY_IN)
        await self.changed(record.id)
        return Answer.say("You're in the tournament. Good luck!")

    async def _leave(self, record: TournamentRecord, user: User) -> Answer:
        if record.status is not TournamentStatus.OPEN:
            raise Refused(NOT_OPEN + " To drop out, use `/cribbage tournament withdraw`.")
        if not await self._store.leave(record.id, user.id):
            raise Refused(NOT_IN)
        await self.changed(record.id)
        return Answer.say("You've left the tournament.")

    @answers
    async def start(self, channel_id: int, user: User, *, moderator: bool) -> Answer:
        """Start this channel's tournament (its organiser or a moderator): the first round is
        paired and its games dealt in their threads by the director."""
        record = await self.here(channel_id)
        if not moderator and user.id != record.organiser_id:
            raise Refused(organiser_only(record))
        if record.status is not TournamentStatus.OPEN:
            raise Refused("This tournament has started already.")
        held = None if self._held is None else await self._held(record.id)
        if held is not None:
            raise Refused(held)
        entrants = await self._store.entrants(record.id)
        rounds = await self.begin(record)
        return Answer.say(
            f"The tournament starts: {len(entrants)} players, {plural(rounds, 'round')}."
            " Round 1's games are being dealt in their threads.",
            ephemeral=False,
        )

    async def begin(self, record: TournamentRecord) -> int:
        """Start a tournament taking entrants (seeded first by rating, when its format is):
        its first round is paired and dealt by the director; how many rounds it plays.
        ``Refused`` with too few entrants for it, or once it has started (a club night's start
        at its time, as a moderator's ``start``, comes here)."""
        entrants = await self._store.entrants(record.id)
        if len(entrants) < MIN_ENTRANTS:
            raise Refused(TOO_FEW)
        if len(entrants) < record.playoff:
            raise Refused(
                f"A top-{record.playoff} playoff needs {record.playoff} entrants at least."
            )
        rounds = record.format.rounds(len(entrants), asked=record.rounds, playoff=record.playoff)
        if record.format.seeded_by_rating:
            # Seeded by rating (between people); the unrated after the rated, each in the
            # order they joined.
            async def rating(entrant: EntrantRecord) -> float:
                ratings = await self._store.standing(
                    record.guild_id, entrant.user_id, record.variant
                )
                ranked = ratings.get(False)
                return ranked.standing.ordinal if ranked is not None else float("-inf")

            ratings = {e.user_id: await rating(e) for e in entrants}
            order = sorted(entrants, key=lambda e: (-ratings[e.user_id], e.seed))
            await self._store.reseed(record.id, [e.user_id for e in order])
        if not await self._store.start_tournament(record.id, rounds=rounds):
            raise Refused("This tournament has started already.")
        await self.changed(record.id)
        return rounds

    @answers
    async def standings(self, channel_id: int) -> Answer:
        """This channel's tournament standings, privately: everyone listed, or as many as one
        message holds (the top of the table), the others counted."""
        record = await self.here(channel_id)
        return Answer.say(standings_message(await read_event(self._store, record)))

    @answers
    async def withdraw(self, channel_id: int, user: User) -> Answer:
        """Withdraw from a running tournament at once: the game of this round, if undecided, is
        forfeited, and no later round pairs this player; past results stand (before it starts,
        this is leaving it). ``/cribbage tournament withdraw`` asks first: :meth:`ask_withdraw`."""
        record = await self.here(channel_id)
        if record.status is TournamentStatus.OPEN:
            return await self._leave(record, user)
        return await self._withdraw(record, user)

    @answers
    async def ask_withdraw(self, channel_id: int, user: User) -> Answer:
        """``/cribbage tournament withdraw``: before the tournament starts this is leaving it,
        at once; once it runs it asks first, privately, with Yes and No
        (:meth:`confirm_withdraw`), and nothing changes yet."""
        record = await self.here(channel_id)
        if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise Refused(ENDED)
        if record.status is TournamentStatus.OPEN:
            return await self._leave(record, user)
        await self._entrant(record, user)
        text = (
            "Withdraw from this tournament? Your game of this round, if it is not decided, is "
            "forfeited, and you are paired no more; your results so far stand. It can't be "
            "taken back."
        )
        controls = ConfirmControls(record.id, "withdraw")
        return Answer.say(text, view=MessageView(text, controls=controls))

    @answers
    async def confirm_withdraw(
        self, tournament_id: int, user: User, yes: bool, *, guild_id: int | None
    ) -> Answer:
        """The answer to :meth:`withdraw`'s question: Yes withdraws (the game of this round, if
        undecided, is forfeited, and no later round pairs this player; past results stand),
        No stays in; either way the question's message says so, without its buttons."""
        if not yes:
            return Answer.in_place("You stay in the tournament.")
        record = await self.found(tournament_id, guild_id)
        done = await self._withdraw(record, user)
        return Answer.in_place(done.reply.text)

    async def _withdraw(self, record: TournamentRecord, user: User) -> Answer:
        if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise Refused(ENDED)
        await self._entrant(record, user)
        await self._store.withdraw(record.id, user.id, record.round)
        for p in await self._store.pairings(record.id):
            if (
                p.round == record.round
                and p.decided is None
                and user.id in (p.player_a, p.player_b)
                and not await self._played_out(p)
            ):
                other = p.player_b if p.player_a == user.id else p.player_a
                await self._store.decide(
                    record.id, p.round, p.tab, Verdict(Decided.WITHDRAWN, other)
                )
        await self.changed(record.id)
        return Answer.say("You have withdrawn: your remaining games are forfeited.", ephemeral=True)

    async def _played_out(self, pairing: PairingRecord) -> bool:
        """Whether the pairing's game has ended by play (a resignation a moment before the
        withdrawal, say): its result is the director's to count, as if it had counted it
        first (and a match's next game, were there one, is the withdrawal's, there)."""
        if pairing.game_id is None:
            return False
        game = await self._store.get_game(pairing.game_id)
        return game is not None and game.status is GameStatus.FINISHED

    async def _entrant(self, record: TournamentRecord, user: User) -> None:
        """Refuse unless ``user`` is in ``record``'s tournament and has not withdrawn."""
        entrants = {e.user_id: e for e in await self._store.entrants(record.id)}
        entrant = entrants.get(user.id)
        if entrant is None:
            raise Refused(NOT_IN)
        if entrant.withdrawn is not None:
            raise Refused("You have withdrawn already.")

    @answers
    async def set_result(
        self,
        channel_id: int,
        user: User,
        *,
        moderator: bool,
        winner: User,
        loser: User,
        margin: int = 0,
    ) -> Answer:
        """A moderator records or corrects the result between two players in the round being
        played (``winner`` beat ``loser``); the standings show it as set by hand."""
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        record = await self.here(channel_id)
        if record.status is not TournamentStatus.RUNNING:
            raise Refused(ENDED if record.status is TournamentStatus.FINISHED else NOT_RUNNING)
        if not 0 <= margin <= record.target:
            raise Refused(f"`margin` must be from 0 to {record.target}.")
        pair = {winner.id, loser.id}
        for p in await self._store.pairings(record.id):
            if p.round == record.round and {p.player_a, p.player_b} == pair:
                await self._store.decide(
                    record.id,
                    p.round,
                    p.tab,
                    Verdict(Decided.MODERATOR, winner.id, margin=margin),
                    again=True,
                )
                await self.changed(record.id)
                return Answer.say(f"Result set: {escape(winner.name)} beat {escape(loser.name)}.")
        raise Refused(NO_SUCH_PAIRING)


class TournamentMessages(Projector):
    """Draws each tournament's live message (the ledger's projector for tournaments): the
    board, edited in place, and the champion's announcement, posted once at the end."""

    def __init__(self, store: TournamentStore, now: Callable[[], float]) -> None:
        self._store = store
        self._now = now

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        """The tournament's messages now (None: no such tournament)."""
        record = await self._store.tournament(owner.id)
        if record is None:
            return None
        event = await read_event(self._store, record)
        entry = EntryControls(record.id) if record.status is TournamentStatus.OPEN else None
        owed = [Owed(BOARD, MessageView(board_text(event), controls=entry))]
        if record.status is TournamentStatus.FINISHED and event.entrants:
            champion = champion_of(event)
            pinged = () if is_former(champion) else (champion,)
            view = MessageView(champion_text(event), mentions=pinged)
            owed.append(Owed(CHAMPION, view, once=True))
        return Drawing(record.channel_id, record.version, tuple(owed))

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """Every tournament open, running, or ended in the last day."""
        since = now - RECONCILE_ENDED.total_seconds()
        return [
            (Owner.tournament(t.id), t.channel_id)
            for t in await self._store.recent_tournaments(since)
        ]
