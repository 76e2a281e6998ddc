"""A channel's tournaments driven by random sequences of what seven people do (property-based:
Hypothesis writes the sequences), moderators and not, with the director running them:
``/cribbage tournament new`` with every option good and bad (formats, rounds, targets, scoring,
round hours, matches, playoffs, variants), join and leave by command and by the Join and Leave
buttons (of this tournament, an earlier one, one there is not, one of another server), start,
standings, withdraw and cancel (asked, answered Yes or No, or at once), a moderator's result;
in the pairings' threads, moves, resignations, a moderator cancelling the game, a new game
opened there and a tournament command sent from there; and the round's time running out.

After every call: nothing raised (nor did the director's own work: it logs what fails); the
answer is ok, or a refusal in one sentence that changed nothing stored, and it fits Discord;
and every tournament of the channel is whole: its entrants are unique, its pairings are among
its entrants (nobody twice in a round, nobody after withdrawing), its rounds are played in
order and a running one waits on a game, each pairing's game is its two players' in its
thread and ends once the pairing is decided, a decided pairing's thread is archived once its
game is over, a finished tournament has the champion its format names, a cancelled one no
game left open; and its live message fits Discord."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import math
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

from hypothesis import event, example, given, note
from hypothesis import strategies as st

from bot.core.base.choices import DEFAULT_FORMAT, TOURNAMENT_SEATS
from bot.core.base.feed import Change
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.games.records import GameRecord
from bot.core.services import Services
from bot.core.tournaments.records import (
    PLAYOFF_ROUNDS,
    Decided,
    EntrantRecord,
    PairingRecord,
    TournamentRecord,
    TournamentStatus,
)
from bot.core.tournaments.tournaments import read_event
from bot.core.tournaments.view import Event, champion_of
from bot.store import Store
from engine import formats
from engine.outcome import Scoring
from engine.phase import Phase
from engine.variants import STANDARD, listed
from tests.helpers.answer_checks import check_fits, check_view_fits, one_sentence
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO
from tests.helpers.sequences import on_the_store
from tests.helpers.service_driver import Clock, Transcript, load, make_service, state

GUS = User(7, "Gus")
PEOPLE = (AL, BEA, CY, DEE, EVE, FLO, GUS)
#: A crowd that joins at once (an explicit example's): names as long as Discord's, of what
#: Markdown reads.
CROWD = tuple(
    User(1_000 + n, f"**{n:02d}** the_most_*marvellous*_~~player~~"[:32]) for n in range(40)
)
BY_ID = {person.id: person for person in (*PEOPLE, *CROWD)}

# -- /cribbage tournament new ------------------------------------------------------------------

FORMATS = tuple(f.name for f in formats.listed())
#: The variants a tournament plays (those for two).
PAIRED = tuple(v.name for v in listed() if TOURNAMENT_SEATS in v.seats)


@dataclass(frozen=True, slots=True)
class Options:
    """``/cribbage tournament new``'s options (each as the command passes it when left out)."""

    format: str = DEFAULT_FORMAT
    rounds: int = 0
    target: int | None = None
    scoring: str = Scoring.LURCH
    round_hours: float = 24.0
    match_games: int = 1
    playoff: int = 0
    variant: str = STANDARD.name


# Each option's values the command offers, and some it does not: a format, rounds, a target, a
# scale, hours, a match, a playoff and a variant there are not (and hours no form sends: not a
# number, for ever).
any_options = st.builds(
    Options,
    format=st.sampled_from([*FORMATS, "ladder", "", "SWISS"]),
    rounds=st.sampled_from([0, 1, 2, 3, 9, 10, -1]),
    target=st.none() | st.sampled_from([61, 121, 181, 100, 0, -5]),
    scoring=st.sampled_from([*Scoring, "double"]),
    round_hours=st.sampled_from([0.25, 1.0, 24.0, 336.0, 0.1, 400.0, -1.0, math.nan, math.inf]),
    match_games=st.sampled_from([1, 3, 2, 0]),
    playoff=st.sampled_from([*PLAYOFF_ROUNDS, 2, 16]),
    variant=st.sampled_from([*(v.name for v in listed()), "nine_card", ""]),
)
# What a moderator would choose, so that a sequence opens tournaments often (a few are still
# refused: a skunk where the variant has none, a playoff where the format takes none).
good_options = st.builds(
    Options,
    format=st.sampled_from(FORMATS),
    rounds=st.sampled_from([0, 1, 2, 3]),
    scoring=st.sampled_from(Scoring),
    round_hours=st.sampled_from([0.25, 24.0]),
    match_games=st.sampled_from([1, 3]),
    playoff=st.sampled_from([0, 0, 4]),
    variant=st.sampled_from(PAIRED),
)


def _takes(options: Options) -> bool:
    """Whether the format takes the playoff asked (so that the first tournament opens)."""
    kind = formats.find(options.format)
    return kind is not None and (not options.playoff or kind.takes_playoff)


#: The tournament each example opens first: one a moderator's options open.
first_options = good_options.filter(_takes).map(
    lambda o: dataclasses.replace(o, scoring=Scoring.LURCH)
)

# -- what people do ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One thing a person (an index into PEOPLE) does, as a moderator or not (Manage Server or
    Manage Events where they do it); ``pick`` chooses among what the moment offers
    (:meth:`Arena.call`), ``options`` are ``new``'s."""

    what: str
    who: int = 0
    moderator: bool = False
    pick: int = 0
    options: Options | None = None


#: What a step does (see :meth:`Arena.call`), and how often each is drawn (out of the weights'
#: sum): mostly what fills a tournament and plays it, among every kind of wrong call.
WEIGHTS = {
    "new": 2,  # /cribbage tournament new, options good or bad
    "join": 7,  # /cribbage tournament join
    "leave": 2,  # /cribbage tournament leave
    "click": 4,  # the Join or Leave button of this tournament, an earlier one, none, elsewhere
    "start": 3,  # /cribbage tournament start
    "standings": 1,  # /cribbage tournament standings
    "withdraw": 2,  # the question, Yes, No, or at once
    "cancel": 1,  # the question, Yes, No, or at once
    "result": 2,  # a moderator's result, of a pairing of this round or of two others
    "resign": 4,  # a player of a pairing (or someone else) resigns in its thread
    "move": 2,  # a player of a pairing discards or plays in its thread
    "cancel_game": 1,  # /cribbage cancel in a pairing's thread
    "new_game": 1,  # /cribbage new in a pairing's thread
    "thread": 1,  # a tournament command given the thread for its channel
    "wait": 1,  # the round's time runs out
    "round": 2,  # every game of the round resigned, until the round is decided
    "rematch": 1,  # the director stopped, a game resigned and another opened in its thread
}
# (And in the explicit examples, "all": rounds played so until the tournament is over; and
# "crowd": forty people with long names join.)
WHATS = [what for what, weight in WEIGHTS.items() for _ in range(weight)]


@st.composite
def steps(draw: st.DrawFn) -> Step:
    """A step: what (:data:`WEIGHTS`), who, as a moderator one time in three, a pick."""
    what = draw(st.sampled_from(WHATS))
    options = draw(good_options | any_options) if what == "new" else None
    return Step(
        what,
        draw(st.integers(0, len(PEOPLE) - 1)),
        draw(st.integers(0, 2)) == 0,
        draw(st.integers(0, 2**16)),
        options,
    )


# -- Discord's side of the pairings -----------------------------------------------------------

#: Posts and threads have ids of their own across examples (the store outlives them).
POSTS = itertools.count(50_000_000)


class Threads:
    """The director's Discord side: each pairing's post and thread a new id; archived threads
    noted."""

    def __init__(self) -> None:
        self.made: list[int] = []
        self.archived: set[int] = set()

    async def post(self, channel_id: int, text: str, nonce: str, mentions: tuple[int, ...]) -> int:
        return next(POSTS)

    async def find_post(self, channel_id: int, since: float, opening: str) -> int | None:
        return None  # (a stop here loses no post: each is made again with a new id)

    async def start_thread(
        self, channel_id: int, message_id: int, name: str, members: tuple[int, ...]
    ) -> int:
        thread = message_id + 1  # (a thread has its starting message's id; kept apart here)
        self.made.append(thread)
        return thread

    async def archive(self, thread_id: int) -> None:
        self.archived.add(thread_id)


class GameTranscript(Transcript):
    """The games' messages sent as Discord would (so the ledger says a game's table shows how
    it ended, and its thread may be archived); tournaments' changes are not games'."""

    def _heard(self, change: Change) -> None:
        if change.owner.kind is OwnerKind.GAME:
            super()._heard(change)


class Failures(logging.Handler):
    """What the director logged as failing (it logs, and tries again later, what raised)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.said: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.said.append(self.format(record))


@contextlib.contextmanager
def director_failures() -> Iterator[Failures]:
    handler = Failures()
    logger = logging.getLogger("bot.core.tournaments.director")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


async def _published() -> None:
    """Wait for the director's announcements under way (each a task of its own)."""
    me = asyncio.current_task()
    while pending := [
        task
        for task in asyncio.all_tasks()
        if task is not me
        and not task.done()
        and getattr(task.get_coro(), "__qualname__", "").startswith("TournamentDirector.")
    ]:
        await asyncio.wait(pending)


# -- one channel --------------------------------------------------------------------------------

#: A server and a channel of its own for each example (the store outlives the examples; a
#: server of its own keeps the ratings a knockout is seeded by the example's own).
GUILDS = itertools.count(600, 2)
CHANNELS = itertools.count(30_000)
#: Passes of the director and the games' messages, at most, before all is still.
SETTLE_PASSES = 30
#: The games a step "round" plays at most at one table (a best of 3 takes 3), and the rounds
#: a tournament is played out in at most (a playoff of 8 after 9 Swiss rounds takes 12).
GAMES_A_ROUND = 4
ROUNDS = 14

Run = Callable[[], Awaitable[Answer]]


@dataclass
class Arena:
    """One channel's tournaments as the test drives them: the ids of those opened there (the
    latest last), the threads the director made, what the games' messages were sent, and what
    has happened (``seen``)."""

    store: Store
    service: Services
    clock: Clock
    threads: Threads
    guild_id: int = field(default_factory=lambda: next(GUILDS))
    channel_id: int = field(default_factory=lambda: next(CHANNELS))
    ids: list[int] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    sent: GameTranscript | None = None

    @property
    def transcript(self) -> GameTranscript:
        if self.sent is None:
            self.sent = GameTranscript(self.service)
        return self.sent

    @property
    def nowhere(self) -> int:
        """A thread of no pairing (for a step about one before any is made)."""
        return self.channel_id + 5_000_000

    # -- reading ---------------------------------------------------------------------------------
    async def latest(self) -> Event | None:
        """The latest tournament opened here, with its entrants and pairings."""
        if not self.ids:
            return None
        record = await self.store.tournament(self.ids[-1])
        assert record is not None
        return await read_event(self.store, record)

    async def _stored(self) -> tuple[object, ...]:
        """Everything stored about the channel: its tournament now, all of every tournament
        opened here, and the game last opened in each thread."""
        found: list[object] = [await self.store.tournament_in_channel(self.channel_id)]
        for tid in self.ids:
            found += [
                await self.store.tournament(tid),
                await self.store.entrants(tid),
                await self.store.pairings(tid),
            ]
        for thread in [*self.threads.made, self.nowhere]:
            game = await self.store.last_game_in_channel(thread)
            found.append(None if game is None else await state(self.store, game.id))
        return tuple(found)

    # -- acting ----------------------------------------------------------------------------------
    async def step(self, step: Step) -> None:
        """Do one step, then check its answer, what it stored and every tournament here."""
        if step.what == "wait":
            await self._wait()
            return
        if step.what == "round":
            await self._round(step.pick)
            return
        if step.what == "all":
            await self.play_out(step.pick)
            return
        if step.what == "rematch":
            await self._rematch(PEOPLE[step.who], step.pick)
            return
        if step.what == "crowd":
            for person in CROWD:
                await self.act("crowd", person, self._joins(person))
            return
        user = PEOPLE[step.who]
        run = await self.call(step, user)
        await self.act(step.what, user, run)

    async def act(self, what: str, user: User, run: Run, *, settle: bool = True) -> Answer:
        """Make one call, check its answer, let the director and the games' messages settle
        (unless not to ``settle``), then check every tournament here."""
        before = await self._stored()
        answer = await run()
        # How often each kind of call went through (pytest --hypothesis-show-statistics).
        event(f"{what}: {'ok' if answer.ok else 'no'}")
        note(f"{user.name} {what}: {answer.reply.text!r}")
        assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
        await check_fits(answer)
        if not answer.ok:
            assert await self._stored() == before, f"refused, yet changed: {answer.reply.text}"
            return answer
        await self.transcript.record(user.id, answer)
        opened = await self.store.tournament_in_channel(self.channel_id)
        if opened is not None and opened.id not in self.ids:
            assert what == "new", f"{what} opened a tournament"
            self.ids.append(opened.id)
        if settle:
            await self.settle()
            await self.check()
        return answer

    async def call(self, step: Step, user: User) -> Run:
        """The call a step makes (see :data:`WEIGHTS`) at this moment."""
        t, lobbies, moves = self.service.tournaments, self.service.lobbies, self.service.moves
        channel, pick, moderator = self.channel_id, step.pick, step.moderator
        latest = self.ids[-1] if self.ids else 0
        match step.what:
            case "new":
                options = dataclasses.asdict(step.options or Options())
                return lambda: t.new(self.guild_id, channel, user, moderator=moderator, **options)
            case "join":
                return lambda: t.join(channel, user)
            case "leave":
                return lambda: t.leave(channel, user)
            case "click":
                # This tournament's button (mostly), an earlier one's, one of no tournament,
                # this one's from another server or from outside servers.
                earlier = self.ids[pick % len(self.ids)] if self.ids else 0
                tid = (latest, latest, latest, earlier, 10**9, latest, latest)[pick % 7]
                guild = {5: self.guild_id + 1, 6: None}.get(pick % 7, self.guild_id)
                action = ("join", "leave", "withdraw")[pick // 7 % 3]
                return lambda: t.click(tid, action, user, guild_id=guild)
            case "start":
                return lambda: t.start(channel, user, moderator=moderator)
            case "standings":
                return lambda: t.standings(channel)
            case "withdraw":
                # A Yes or No clicked here (mostly), in another server or outside servers.
                guild = {5: self.guild_id + 1, 6: None}.get(pick // 4 % 7, self.guild_id)
                withdrawals: tuple[Run, ...] = (
                    lambda: t.ask_withdraw(channel, user),
                    lambda: t.confirm_withdraw(latest, user, False, guild_id=guild),
                    lambda: t.confirm_withdraw(latest, user, True, guild_id=guild),
                    lambda: t.withdraw(channel, user),
                )
                return withdrawals[pick % 4]
            case "cancel":
                guild = {5: self.guild_id + 1, 6: None}.get(pick // 4 % 7, self.guild_id)
                c = self.service.cancellations
                cancels: tuple[Run, ...] = (
                    lambda: c.ask_cancel(channel, user, moderator=moderator),
                    lambda: c.confirm_cancel(
                        latest, user, False, moderator=moderator, guild_id=guild
                    ),
                    lambda: c.confirm_cancel(
                        latest, user, True, moderator=moderator, guild_id=guild
                    ),
                    lambda: c.cancel(channel, user, moderator=moderator),
                )
                return cancels[pick % 4]
            case "result":
                return await self._result(user, moderator, pick)
            case "thread":
                thread = self._thread(pick)
                others: tuple[Run, ...] = (
                    lambda: t.join(thread, user),
                    lambda: t.standings(thread),
                    lambda: t.start(thread, user, moderator=moderator),
                )
                return others[pick % 3]
        # In a pairing's thread: its game.
        pairing = await self._pairing(pick)
        thread = self._thread(pick) if pairing is None else pairing.thread_id or self.nowhere
        if step.what == "resign":
            player = self._player(pairing, pick) if pick % 5 else user
            if pick // 5 % 3 == 0:
                return lambda: moves.ask_resign(thread, player)
            return lambda: moves.resign(thread, player)
        if step.what == "move":
            return await self._move(thread, pairing, pick, user)
        if step.what == "cancel_game":
            return lambda: lobbies.cancel(thread, user, moderator=moderator)
        assert step.what == "new_game", step.what
        vs_computer = bool(pick % 2)
        return lambda: lobbies.new_game(
            self.guild_id, thread, user, TableAsked(vs_computer=vs_computer)
        )

    def _thread(self, pick: int) -> int:
        """A thread the director made here (or one of no pairing, before any)."""
        made = self.threads.made
        return made[pick % len(made)] if made else self.nowhere

    async def _pairing(self, pick: int) -> PairingRecord | None:
        """A pairing of the round being played with a game (one with a game going, mostly),
        or of an earlier round."""
        latest = await self.latest()
        if latest is None:
            return None
        playing = [p for p in latest.current() if p.game_id is not None and p.decided is None]
        made = [p for p in latest.pairings if p.thread_id is not None]
        if playing and pick % 4:
            return playing[pick % len(playing)]
        return made[pick % len(made)] if made else None

    @staticmethod
    def _player(pairing: PairingRecord | None, pick: int) -> User:
        """One of the pairing's two players, as ``pick`` says (Gus without a pairing)."""
        if pairing is None or pairing.player_b is None:
            return GUS
        return BY_ID[(pairing.player_a, pairing.player_b)[pick // 2 % 2]]

    async def _move(self, thread: int, pairing: PairingRecord | None, pick: int, user: User) -> Run:
        """A player's move in a pairing's game, by command: the first cards of their hand for
        the crib, or the first card they may play (by someone else: the same, refused)."""
        moves = self.service.moves
        player = self._player(pairing, pick) if pick % 5 else user
        if pairing is None or pairing.game_id is None:
            return lambda: moves.discard(thread, player, "5H 5D")
        record = await self.store.get_game(pairing.game_id)
        seat = record.seat_of(player.id) if record is not None else None
        game = await load(self.store, pairing.game_id)
        view = game.view(0 if seat is None else seat)
        if game.state.phase is Phase.PLAY and view.playable:
            card = view.playable[0].code
            return lambda: moves.play(thread, player, card)
        codes = " ".join(c.code for c in view.hand[: max(view.discard_count, 1)])
        return lambda: moves.discard(thread, player, codes or "5H")

    async def _result(self, user: User, moderator: bool, pick: int) -> Run:
        """A moderator's result: of a pairing of this round (either way round, mostly) or
        of two people who are not paired, by a margin within the target or not."""
        t, channel = self.service.tournaments, self.channel_id
        latest = await self.latest()
        target = latest.record.target if latest is not None else 121
        paired = [p for p in latest.current() if p.player_b is not None] if latest else []
        if paired and pick % 3:
            p = paired[pick % len(paired)]
            assert p.player_b is not None
            winner, loser = BY_ID[p.player_a], BY_ID[p.player_b]
        else:
            winner, loser = PEOPLE[pick % 7], PEOPLE[pick // 7 % 7]
        if pick // 3 % 2:
            winner, loser = loser, winner
        margin = (0, 5, target, target + 1, -1)[pick // 6 % 5]
        return lambda: t.set_result(
            channel, user, moderator=moderator, winner=winner, loser=loser, margin=margin
        )

    async def _rematch(self, user: User, pick: int) -> None:
        """While the director is stopped (a restart, or a director slower than the people), a
        pairing's game is resigned and ``user`` opens a game of their own in its thread at
        once (against the computer one time in two); then the director starts again."""
        director, lobbies = self.service.director, self.service.lobbies
        pairing = await self._pairing(pick)
        thread = self.nowhere if pairing is None else pairing.thread_id or self.nowhere
        player = self._player(pairing, pick)
        vs_computer = bool(pick % 2)
        director.stop()
        try:
            resign = lambda: self.service.moves.resign(thread, player)  # noqa: E731
            await self.act("rematch: resign", player, resign, settle=False)
            await self.act(
                "rematch: new",
                user,
                lambda: lobbies.new_game(
                    self.guild_id, thread, user, TableAsked(vs_computer=vs_computer)
                ),
                settle=False,
            )
        finally:
            await director.start(self.threads)
        await self.settle()
        await self.check()

    async def _wait(self) -> None:
        """The round's time runs out (the clock past its deadline; the director looks)."""
        latest = await self.latest()
        hours = latest.record.round_hours if latest is not None else 24.0
        self.clock.advance(hours=hours, seconds=1)
        event("wait")
        await self.settle()
        await self.check()

    async def _round(self, pick: int) -> None:
        """Every game of the round being played resigned by one of its players (``pick``
        says which, table by table), until the round is decided (a best of 3 takes up to 3)."""
        begun = await self.latest()
        for turn in range(GAMES_A_ROUND):
            latest = await self.latest()
            if latest is None or latest.record.status is not TournamentStatus.RUNNING:
                return
            if begun is not None and latest.record.round != begun.record.round:
                return  # (decided: the next round is paired)
            going = [p for p in latest.current() if p.decided is None and p.game_id is not None]
            if not going:
                return
            for p in going:
                loser = self._player(p, pick + 2 * (p.tab + turn))
                answer = await self.act("round", loser, self._resigns(p, loser))
                assert answer.ok, answer.reply.text
        raise AssertionError(f"round not decided in {GAMES_A_ROUND} games a table")

    def _joins(self, person: User) -> Run:
        """``person`` joins the channel's tournament."""
        return lambda: self.service.tournaments.join(self.channel_id, person)

    def _resigns(self, pairing: PairingRecord, player: User) -> Run:
        """``player`` resigns the pairing's game, in its thread."""
        thread = pairing.thread_id or self.nowhere
        return lambda: self.service.moves.resign(thread, player)

    async def play_out(self, pick: int) -> None:
        """Play the latest tournament's rounds until it is over."""
        for _ in range(ROUNDS):
            latest = await self.latest()
            if latest is None or latest.record.status is not TournamentStatus.RUNNING:
                return
            await self._round(pick)
        raise AssertionError(f"not over in {ROUNDS} rounds")

    # -- the director ----------------------------------------------------------------------------
    async def settle(self) -> None:
        """Let the director do what is due in every tournament here, and send what the games
        owe (their tables then show how they ended), until nothing changes."""
        director = self.service.director
        last: object = None
        for _ in range(SETTLE_PASSES):
            await director.idle()
            await _published()
            for game_id in sorted(self.transcript.changed):
                await self.transcript.settle(game_id)
            for tid in self.ids:
                director.look(tid)
            await director.idle()
            await _published()
            now = [await self.store.tournament(tid) for tid in self.ids]
            now_games = tuple(sorted(self.transcript.changed))
            if (now, now_games) == last and not now_games:
                return
            last = (now, now_games)
        raise AssertionError("the director never settled")

    # -- the checks ------------------------------------------------------------------------------
    async def check(self) -> None:
        """Every tournament opened here is whole (see the module), and its live message
        fits Discord."""
        for tid in self.ids:
            record = await self.store.tournament(tid)
            assert record is not None
            event_ = await read_event(self.store, record)
            rows = await self.store.db.fetch(
                "SELECT champion_id FROM tournaments WHERE id = ?", (tid,)
            )
            champion = rows[0][0]
            games = {
                p.game_id: await self.store.get_game(p.game_id)
                for p in event_.pairings
                if p.game_id is not None
            }
            await self._check_threads(event_)
            check_event(event_, None if champion is None else int(champion), games)
            self.seen.add(f"{record.format.name} {record.status}")
            owing = await self.service.ledger.owed(Owner.tournament(tid))
            assert owing is not None
            for owed in owing.owed:
                await check_view_fits(owed.view)

    async def _check_threads(self, event_: Event) -> None:
        """A decided pairing's thread is archived once the game last opened in it is over."""
        cancelled = event_.record.status is TournamentStatus.CANCELLED
        for p in event_.pairings:
            if p.thread_id is None or (p.decided is None and not cancelled):
                continue
            last = await self.store.last_game_in_channel(p.thread_id)
            if last is None or not last.is_open:
                assert p.archived and p.thread_id in self.threads.archived, p


def check_event(event_: Event, champion: int | None, games: dict[int, GameRecord | None]) -> None:
    """One tournament is whole (see the module); ``champion`` as stored, ``games`` its
    pairings' games."""
    record = event_.record
    entrants = {e.user_id: e for e in event_.entrants}
    assert len(entrants) == len(event_.entrants), "an entrant twice"
    assert len({e.seed for e in event_.entrants}) == len(entrants), "a seed twice"
    if record.status is TournamentStatus.OPEN:
        assert record.round == 0 and not event_.pairings
    assert all(1 <= p.round <= record.round for p in event_.pairings)
    assert record.round <= record.rounds or record.status is TournamentStatus.OPEN
    for round_ in range(1, record.round + 1):
        tables = event_.of_round(round_)
        players = [x for p in tables for x in (p.player_a, p.player_b) if x is not None]
        assert len(players) == len(set(players)), f"round {round_}: someone twice"
        for p in tables:
            _check_pairing(record, p, entrants, games.get(p.game_id or 0))
        if round_ < record.round:
            assert all(p.decided is not None for p in tables), f"round {round_} undecided"
    match record.status:
        case TournamentStatus.RUNNING:
            # The director pairs a round once the one before is decided, and ends the
            # tournament when none is left: a running one waits on a game.
            assert any(p.decided is None for p in event_.current()), "running, waiting on none"
            assert champion is None and record.finished_at is None
        case TournamentStatus.FINISHED:
            assert all(p.decided is not None for p in event_.pairings)
            assert champion is not None and champion == champion_of(event_) in entrants
        case TournamentStatus.CANCELLED:
            assert champion is None and record.finished_at is not None
            assert all(g is None or not g.is_open for g in games.values()), "a game goes on"
        case TournamentStatus.OPEN:
            assert champion is None


def _check_pairing(
    record: TournamentRecord,
    p: PairingRecord,
    entrants: dict[int, EntrantRecord],
    game: GameRecord | None,
) -> None:
    """A pairing is between two entrants (a bye for one), neither withdrawn before its round;
    decided, its winner one of them (None: both lost); its game, the two players' in its
    thread, over once the pairing is decided."""
    players = [x for x in (p.player_a, p.player_b) if x is not None]
    assert p.player_a != p.player_b and set(players) <= set(entrants), p
    for player in players:
        withdrawn = entrants[player].withdrawn
        assert withdrawn is None or p.round <= withdrawn, f"{player} paired after withdrawing"
    if p.player_b is None:
        assert p.decided is Decided.BYE and p.winner == p.player_a, p
        return
    assert p.decided is not Decided.BYE and p.winner in (None, p.player_a, p.player_b), p
    need = record.games_in(p.round) // 2 + 1
    assert max(p.wins_a, p.wins_b) <= need, p
    if p.game_id is None:
        return
    assert game is not None and game.channel_id == p.thread_id, (p, game)
    assert {s.user_id for s in game.seats} == set(players), (p, game.seats)
    assert (game.options.variant, game.options.target) == (record.variant, record.target)
    if p.decided is not None:
        assert not game.is_open, f"decided, its game goes on: {p}"


SEQUENCES = on_the_store(12)


def S(what: str, who: int = 0, moderator: bool = False, pick: int = 0) -> Step:
    """A step of an explicit example."""
    return Step(what, who, moderator, pick)


JOINS = [S("join", who) for who in range(len(PEOPLE))]
#: A Swiss event of six, started by its organiser (no moderator now), played to its champion;
#: then another opened in the channel, an old tournament's button, a crowd joining it, the
#: standings.
SWISS_TO_THE_END = [
    *JOINS[:6],
    S("start", 0),
    S("standings", 3),
    S("all", 0, pick=1),
    Step("new", 1, True, 0, Options(format="round_robin")),
    S("click", 2, pick=3),
    S("join", 2),
    S("crowd"),
    S("standings", 4),
]
#: A knockout of five, best of 3, in five-card cribbage: moves in a thread, a resignation,
#: a withdrawal asked and confirmed, a moderator's result, the deadline (with a game going in
#: which one player moved), a game cancelled by a moderator, a new game in a decided thread,
#: a tournament command from a thread, and the rest played out.
KNOCKOUT_OF_FIVE = [
    *JOINS[:5],
    S("start", 5, moderator=True),
    S("move", 0, pick=1),
    S("move", 0, pick=3),
    S("rematch", 6, pick=1),
    S("resign", 0, pick=1),
    S("withdraw", 2, pick=0),
    S("withdraw", 2, pick=2),
    S("result", 6, moderator=True, pick=1),
    S("move", 0, pick=5),
    S("wait"),
    S("cancel_game", 6, moderator=True, pick=1),
    S("new_game", 3, pick=1),
    S("thread", 3, pick=2),
    S("all", 0, pick=5),
]
#: A Swiss event with a top-4 playoff (best of 3) in seven-card cribbage, played out.
SWISS_WITH_A_PLAYOFF = [*JOINS[:6], S("start", 0), S("all", 0, pick=3)]
#: A round robin of three: a leave and a join again, the start refused to someone, started;
#: cancelled by its organiser (asked, No, asked, Yes) with its games going; then another opened.
ROUND_ROBIN_CANCELLED = [
    *JOINS[1:4],
    S("leave", 2),
    S("click", 2, pick=0),
    S("start", 3),
    S("start", 0),
    S("cancel", 0, pick=0),
    S("cancel", 0, pick=1),
    S("cancel", 0, pick=2),
    S("standings", 1),
    Step("new", 0, True, 0, Options(format="knockout", variant="seven_card")),
]


@SEQUENCES
@given(
    first=first_options,
    joined=st.integers(0, len(PEOPLE)),
    started=st.booleans(),
    sequence=st.lists(steps(), min_size=5, max_size=30),
)
@example(first=Options(), joined=0, started=False, sequence=SWISS_TO_THE_END)
@example(
    first=Options(format="knockout", match_games=3, variant="five_card"),
    joined=0,
    started=False,
    sequence=KNOCKOUT_OF_FIVE,
)
@example(
    first=Options(playoff=4, rounds=2, variant="seven_card", round_hours=0.25),
    joined=0,
    started=False,
    sequence=SWISS_WITH_A_PLAYOFF,
)
@example(
    first=Options(format="round_robin"), joined=0, started=False, sequence=ROUND_ROBIN_CANCELLED
)
async def test_any_sequence_in_a_tournament_is_answered_and_keeps_it_whole(
    store: Store, first: Options, joined: int, started: bool, sequence: list[Step]
) -> None:
    """A tournament opened by Al with ``first``, entered by the first ``joined`` people and,
    if ``started``, started by Al; then the calls of ``sequence``: each raises nothing, is
    answered ok or refused in a sentence that changed nothing, fits Discord, and leaves every
    tournament of the channel whole (see :func:`check_event`); the director logs no failure.
    The explicit examples play tournaments of each format to their champion, with a playoff
    and best of 3, and cancel one being played."""
    clock = Clock()
    service = make_service(store, clock)
    arena = Arena(store, service, clock, Threads())
    with director_failures() as failures:
        await service.director.start(arena.threads)
        try:
            opened = await arena.act(
                "new",
                AL,
                lambda: service.tournaments.new(
                    arena.guild_id,
                    arena.channel_id,
                    AL,
                    moderator=True,
                    **dataclasses.asdict(first),
                ),
            )
            assert opened.ok, opened.reply.text
            # (A random sequence seldom has three people join before a start: some are in at
            # once, and the tournament may be under way.)
            for step in [*JOINS[:joined], *([S("start")] if started else [])]:
                await arena.step(step)
            for step in sequence:
                await arena.step(step)
        finally:
            service.director.stop()
        assert not failures.said, failures.said
    for seen in arena.seen:
        event(f"seen: {seen}")
    if sequence is SWISS_TO_THE_END:
        assert {"swiss finished", "round_robin open"} <= arena.seen, arena.seen
    if sequence in (KNOCKOUT_OF_FIVE, SWISS_WITH_A_PLAYOFF):
        assert arena.seen & {"knockout finished", "swiss finished"}, arena.seen
    if sequence is ROUND_ROBIN_CANCELLED:
        assert {"round_robin cancelled", "knockout open"} <= arena.seen, arena.seen
