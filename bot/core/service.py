"""The game service: every player action, from command or button, goes through here.

Each call takes the channel's lock, loads the game, validates and applies ONE engine action,
saves it (action log + snapshot + version check, one transaction) and returns an
:class:`~bot.core.replies.Outcome` saying what to send. Nothing here imports Discord.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial

from bot.core import render
from bot.core.computer import (
    DEFAULT_LEVEL,
    LEVELS,
    ComputerPlayers,
    Step,
    computer_moves,
    computer_name,
    snapshot_views,
)
from bot.core.prompts import (
    discard_choices,
    discard_prompt,
    play_choices,
    play_prompt,
    prompts_after,
)
from bot.core.replies import LOBBY_BUTTONS, Choice, Lobby, Outcome, Prompt, Reply, User
from bot.core.results import result_rows
from bot.core.tally import Tally
from bot.store import (
    OPEN_STATUSES,
    ChannelBusy,
    GameRecord,
    SeatRecord,
    Store,
    VersionConflict,
)
from engine.cards import Card, cards_str, parse_cards
from engine.coach import review_view
from engine.errors import RuleError
from engine.events import Dealt, Event, Shown
from engine.game import Game
from engine.outcome import TARGETS
from engine.phase import Phase
from engine.views import SeatView

__all__ = ["GameService", "RngFactory"]

#: Makes the random source for one engine call; the key ("<game id>:<version>") lets tests
#: seed every deal differently yet reproducibly.
RngFactory = Callable[[str], random.Random]

SNAPSHOT_FORMAT = 1
#: Games kept loaded in memory (the rest are read from their JSON snapshot when used).
CACHED_GAMES = 512
#: (game, user) pairs remembered for "told once per deal that their DMs are closed".
DM_NOTICES_KEPT = 4096

NO_GAME = "There's no game in this channel. Start one with `/cribbage new`."
NOT_STARTED = (
    "The game hasn't started yet: it deals when the table is full and someone presses Start."
)
NOT_A_PLAYER = "You're not playing in this game."
STALE_DISCARD = "That hand is over — use your newest message, or `/cribbage hand`."
STALE_PLAY = (
    "Those buttons are out of date — that turn has passed. Use your newest message, "
    "or `/cribbage hand`."
)
_CLOSED = {
    "finished": "That game is over.",
    "cancelled": "That game was cancelled.",
    "expired": "That game ended after sitting idle.",
}


@dataclass(slots=True)
class _Loaded:
    """A started game as loaded for one call."""

    record: GameRecord
    game: Game
    tally: Tally


class GameService:
    """Games of cribbage in Discord channels, one open game per channel or thread."""

    def __init__(
        self,
        store: Store,
        *,
        rng_factory: RngFactory,
        clock: Callable[[], datetime],
        idle_expiry: timedelta,
        computer_rng: random.Random | None = None,
    ) -> None:
        self._store = store
        # The computer's choices use their own source: a secure one unless a test injects one.
        self._computers = ComputerPlayers(computer_rng or random.SystemRandom())
        # (game id, user id) -> the deal in which the channel was last told about closed DMs.
        self._dm_notices: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._rng_factory = rng_factory
        self._clock = clock
        self._idle_expiry = idle_expiry
        # One lock per channel, dropped when no call holds it (RoboDanny's stars cog pattern).
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Game id -> channel id (which never changes), to find a click's lock without a read.
        self._channels: dict[int, int] = {}
        # Recently used games as last saved, by id: (version, game, tally). Loading a game
        # from JSON costs more than the rest of an action, and a version names one state.
        self._cache: OrderedDict[int, tuple[int, Game, Tally]] = OrderedDict()

    @classmethod
    def create(cls, store: Store, *, idle_expiry: timedelta) -> GameService:
        """A service with real randomness and the UTC clock (what the running bot uses)."""
        system = random.SystemRandom()
        return cls(
            store,
            rng_factory=lambda _key: system,
            clock=lambda: datetime.now(UTC),
            idle_expiry=idle_expiry,
            computer_rng=system,
        )

    # -- plumbing -----------------------------------------------------------------------------
    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        return lock

    def _now(self) -> float:
        return self._clock().timestamp()

    async def _in_channel(
        self, channel_id: int, body: Callable[[GameRecord], Awaitable[Outcome]]
    ) -> Outcome:
        """Run ``body`` on the channel's open game, holding the channel's lock."""
        async with self._lock(channel_id):
            record = await self._store.open_game_in_channel(channel_id)
            if record is None:
                return Outcome.refuse(NO_GAME)
            return await body(record)

    async def _by_id(
        self, game_id: int, body: Callable[[GameRecord], Awaitable[Outcome]]
    ) -> Outcome:
        """Run ``body`` on an open game found by id, holding its channel's lock."""
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            found = await self._store.get_game(game_id)
            if found is None:
                return Outcome.refuse("I can't find that game.")
            channel_id = self._channels[game_id] = found.channel_id
        async with self._lock(channel_id):
            # Load again under the lock: the first read only told us which lock to take.
            record = await self._store.get_game(game_id)
            assert record is not None  # games are never deleted
            if record.status not in OPEN_STATUSES:
                return Outcome.refuse(_CLOSED[record.status], game_id=game_id)
            return await body(record)

    def _load(self, record: GameRecord) -> _Loaded:
        cached = self._cache.get(record.id)
        if cached is not None and cached[0] == record.version:
            self._cache.move_to_end(record.id)
            return _Loaded(record, cached[1], cached[2])
        assert record.snapshot is not None
        data = json.loads(record.snapshot)
        rng = self._rng_factory(f"{record.id}:{record.version}")
        game = Game.from_dict(data["game"], rng=rng)
        tally = Tally.from_list(data["tally"])
        self._remember(record.id, record.version, game, tally)
        return _Loaded(record, game, tally)

    def _remember(self, game_id: int, version: int, game: Game, tally: Tally) -> None:
        self._cache[game_id] = (version, game, tally)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)

    def _seated(self, record: GameRecord, user: User) -> tuple[_Loaded, int] | Outcome:
        """The started game and ``user``'s seat in it, or the refusal to send instead."""
        loaded = self._started(record)
        if isinstance(loaded, Outcome):
            return loaded
        seat = record.seat_of(user.id)
        if seat is None:
            return Outcome.refuse(NOT_A_PLAYER, game_id=record.id)
        return loaded, seat

    def _started(self, record: GameRecord) -> _Loaded | Outcome:
        if record.status == "lobby":
            return Outcome.refuse(NOT_STARTED, game_id=record.id)
        return self._load(record)

    @staticmethod
    def _snapshot(game: Game, tally: Tally) -> str:
        return json.dumps(
            {"format": SNAPSHOT_FORMAT, "game": game.to_dict(), "tally": tally.to_list()},
            separators=(",", ":"),
        )

    def _lobby(self, record: GameRecord, state: str = "open") -> Lobby:
        creator = next((s.name for s in record.seats if s.user_id == record.creator_id), None)
        text = render.lobby_text(
            creator or "someone",
            [s.name for s in record.seats],
            record.num_players,
            record.target,
            state,
        )
        if state != "open":
            return Lobby(record.id, record.channel_id, text, (), record.lobby_message_id)
        has_computer = any(s.is_computer for s in record.seats)
        buttons = tuple(b for b in LOBBY_BUTTONS if b != "remove_computer" or has_computer)
        levels = LEVELS if len(record.seats) < record.num_players else ()
        return Lobby(record.id, record.channel_id, text, buttons, record.lobby_message_id, levels)

    # -- applying one action ------------------------------------------------------------------
    async def _apply(
        self,
        loaded: _Loaded,
        act: Callable[[Game], list[Event]],
        reply: Callable[[Game, Sequence[Event]], str],
        *,
        lead: Sequence[str] = (),
    ) -> Outcome:
        """Apply one engine action and the computer's answers to it, save them in one
        transaction, and say what happened."""
        game, record = loaded.game, loaded.record
        # The action changes these objects: until it is saved they must not be reused.
        self._cache.pop(record.id, None)
        before = snapshot_views(game)
        try:
            events = act(game)
        except RuleError as err:
            return Outcome.refuse(str(err), game_id=record.id)
        # The reply is about the person's own move, before the computer changes the table.
        said = reply(game, events)
        # Every accepted discard, play or resignation adds exactly one entry to the log.
        steps = [Step(game.actions[-1], events, before, game.public_view())]
        steps += computer_moves(record.seats, game, self._computers)
        for step in steps:
            loaded.tally.add(step.events)
        finished = game.phase is Phase.OVER
        try:
            version = await self._store.save(
                record.id,
                record.version,
                now=self._now(),
                status="finished" if finished else "active",
                snapshot=self._snapshot(game, loaded.tally),
                actions=[json.dumps(step.action) for step in steps],
                results=result_rows(record, game, loaded.tally) if finished else (),
            )
        except VersionConflict as err:
            return Outcome.refuse(str(err), game_id=record.id)
        if not finished:
            self._remember(record.id, version, game, loaded.tally)
        return Outcome(
            reply=Reply(said),
            game_id=record.id,
            channel_id=record.channel_id,
            channel=list(lead) + render.render_steps([(s.events, s.table) for s in steps]),
            prompts=await self._coach(record, steps)
            + prompts_after(record, game, [e for s in steps for e in s.events], version),
        )

    async def _coach(self, record: GameRecord, steps: Sequence[Step]) -> list[Prompt]:
        """The coach's line for each person whose discard was just shown (unless they turned
        the coach off): judged from their view just before the play ended the deal."""
        shown = [s for s in steps if any(isinstance(e, Shown) for e in s.events)]
        if not shown:
            return []
        humans = [s for s in record.seats if not s.is_computer and s.user_id is not None]
        off = await self._store.coach_off(s.user_id for s in humans if s.user_id is not None)
        prompts = []
        for step in shown:
            for seat in humans:
                view = step.before.get(seat.seat)
                if seat.user_id is None or seat.user_id in off or view is None:
                    continue
                review = review_view(view)
                if review is None:
                    continue
                prompts.append(
                    Prompt(
                        user_id=seat.user_id,
                        game_id=record.id,
                        kind="info",
                        text=render.coach_text(record.channel_id, view.deal_number, review.line()),
                        cards=(),
                        pick=0,
                        stamp=view.deal_number,
                    )
                )
        return prompts

    # -- lobby (by channel) ---------------------------------------------------------------------
    async def new_game(
        self,
        guild_id: int | None,
        channel_id: int,
        user: User,
        *,
        players: int = 2,
        target: int = 121,
        vs_computer: bool = False,
        difficulty: str = DEFAULT_LEVEL,
    ) -> Outcome:
        """Open a game in this channel with ``user`` in the first seat.

        With ``vs_computer`` every other seat is a computer player at ``difficulty`` and the
        game deals at once; otherwise a lobby opens (where the creator may add computers).
        """
        if players not in (2, 3, 4):
            return Outcome.refuse("A game has 2, 3 or 4 players.")
        if target not in TARGETS:
            return Outcome.refuse("A game is played to 121 or to 61 points.")
        if difficulty not in LEVELS:
            return Outcome.refuse("The computer plays easy, medium or hard.")
        async with self._lock(channel_id):
            if await self._store.open_game_in_channel(channel_id) is not None:
                return Outcome.refuse(_BUSY)
            try:
                record = await self._store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    creator=SeatRecord(0, user.id, user.name),
                    num_players=players,
                    target=target,
                    now=self._now(),
                    vs_computer=vs_computer,
                )
            except ChannelBusy:
                return Outcome.refuse(_BUSY)
            if vs_computer:
                return await self._start_vs_computer(record, user, difficulty)
        return Outcome(
            reply=Reply(
                f"Game opened: {players} players, to {target}. "
                "Others join with the Join button or `/cribbage join`."
            ),
            game_id=record.id,
            channel_id=channel_id,
            lobby=self._lobby(record),
        )

    async def _start_vs_computer(self, record: GameRecord, user: User, level: str) -> Outcome:
        """Fill the free seats with computers at ``level`` and deal (lock held)."""
        seats = list(record.seats)
        while len(seats) < record.num_players:
            seats.append(SeatRecord(len(seats), None, computer_name(level, seats), True, level))
        try:
            await self._store.set_seats(record.id, record.version, seats, now=self._now())
        except VersionConflict as err:
            return Outcome.refuse(str(err), game_id=record.id)
        updated = await self._store.get_game(record.id)
        assert updated is not None
        return await self._start(updated, user)

    async def join(self, channel_id: int, user: User) -> Outcome:
        """Take a seat in the channel's lobby."""
        return await self._in_channel(channel_id, lambda r: self._join(r, user))

    async def _join(self, record: GameRecord, user: User) -> Outcome:
        if record.status != "lobby":
            return Outcome.refuse("The game here has already started.", game_id=record.id)
        if record.seat_of(user.id) is not None:
            return Outcome.refuse("You're already in this game.", game_id=record.id)
        if len(record.seats) >= record.num_players:
            return Outcome.refuse("This game is full.", game_id=record.id)
        seats = [*record.seats, SeatRecord(len(record.seats), user.id, user.name)]
        return await self._reseat(
            record, seats, f"You're in: seat {len(seats)} of {record.num_players}."
        )

    async def _reseat(self, record: GameRecord, seats: list[SeatRecord], text: str) -> Outcome:
        try:
            await self._store.set_seats(record.id, record.version, seats, now=self._now())
        except VersionConflict as err:
            return Outcome.refuse(str(err), game_id=record.id)
        updated = await self._store.get_game(record.id)
        assert updated is not None
        if len(seats) == record.num_players:
            text += " The table is full: press Start to deal."
        return Outcome(
            reply=Reply(text),
            game_id=record.id,
            channel_id=record.channel_id,
            lobby=self._lobby(updated),
        )

    async def _add_computer(self, record: GameRecord, user: User, level: str) -> Outcome:
        """Seat a computer player (the creator's decision: it is their table)."""
        if record.status != "lobby":
            return Outcome.refuse("The game here has already started.", game_id=record.id)
        if user.id != record.creator_id:
            return Outcome.refuse(
                "Only the player who opened this game can add a computer player.",
                game_id=record.id,
            )
        if level not in LEVELS:
            return Outcome.refuse("The computer plays easy, medium or hard.", game_id=record.id)
        if len(record.seats) >= record.num_players:
            return Outcome.refuse("This game is full.", game_id=record.id)
        name = computer_name(level, record.seats)
        seats = [*record.seats, SeatRecord(len(record.seats), None, name, True, level)]
        return await self._reseat(record, seats, f"{name} takes seat {len(seats)}.")

    async def _remove_computer(self, record: GameRecord, user: User) -> Outcome:
        """Take the most recently seated computer off the table (the creator only)."""
        if record.status != "lobby":
            return Outcome.refuse("The game here has already started.", game_id=record.id)
        if user.id != record.creator_id:
            return Outcome.refuse(
                "Only the player who opened this game can remove a computer player.",
                game_id=record.id,
            )
        computers = [s for s in record.seats if s.is_computer]
        if not computers:
            return Outcome.refuse("There is no computer player at this table.", game_id=record.id)
        gone = computers[-1]
        seats = _renumber(s for s in record.seats if s.seat != gone.seat)
        return await self._reseat(record, seats, f"{gone.name} left the table.")

    async def leave(self, channel_id: int, user: User) -> Outcome:
        """Give up a seat in the lobby (the creator leaving closes the lobby)."""
        return await self._in_channel(channel_id, lambda r: self._leave(r, user))

    async def _leave(self, record: GameRecord, user: User) -> Outcome:
        if record.status != "lobby":
            return Outcome.refuse(
                "The game has started: use `/cribbage resign` to concede.", game_id=record.id
            )
        if record.seat_of(user.id) is None:
            return Outcome.refuse("You're not in this game.", game_id=record.id)
        if user.id == record.creator_id:
            line = f"{render.escape(user.name)} left and closed the lobby."
            return await self._close(record, "cancelled", line, "You left.")
        seats = _renumber(s for s in record.seats if s.user_id != user.id)
        return await self._reseat(record, seats, "You left the game.")

    async def start(self, channel_id: int, user: User) -> Outcome:
        """Deal, when every seat is taken (any seated player may start)."""
        return await self._in_channel(channel_id, lambda r: self._start(r, user))

    async def _start(self, record: GameRecord, user: User) -> Outcome:
        if record.status != "lobby":
            return Outcome.refuse("The game has already started.", game_id=record.id)
        if record.seat_of(user.id) is None:
            return Outcome.refuse("Only players in this game can start it.", game_id=record.id)
        missing = record.num_players - len(record.seats)
        if missing:
            more = "1 more player" if missing == 1 else f"{missing} more players"
            return Outcome.refuse(f"Waiting for {more} before dealing.", game_id=record.id)
        rng = self._rng_factory(f"{record.id}:{record.version}")
        game, events = Game.new([s.name for s in record.seats], target=record.target, rng=rng)
        # The computer seats discard at once; each discard is logged like a person's.
        steps = computer_moves(record.seats, game, self._computers)
        tally = Tally.empty(record.num_players)
        tally.add(events)
        for step in steps:
            tally.add(step.events)
        try:
            version = await self._store.save(
                record.id,
                record.version,
                now=self._now(),
                status="active",
                snapshot=self._snapshot(game, tally),
                actions=[json.dumps(step.action) for step in steps],
            )
        except VersionConflict as err:
            return Outcome.refuse(str(err), game_id=record.id)
        self._remember(record.id, version, game, tally)
        # The cut and the deal need only names and sizes, which the computer's discards keep.
        said = [(events, game.public_view())]
        return Outcome(
            reply=Reply("Dealing — your hand is on its way by DM."),
            game_id=record.id,
            channel_id=record.channel_id,
            lobby=self._lobby(record, "started"),
            channel=render.render_steps(said + [(s.events, s.table) for s in steps]),
            prompts=prompts_after(record, game, events, version),
        )

    async def cancel(self, channel_id: int, user: User, *, moderator: bool = False) -> Outcome:
        """End the game with no result (its creator, or a moderator)."""
        return await self._in_channel(channel_id, lambda r: self._cancel(r, user, moderator))

    async def _cancel(self, record: GameRecord, user: User, moderator: bool) -> Outcome:
        if user.id != record.creator_id and not moderator:
            return Outcome.refuse(
                "Only the player who opened this game, or a moderator, can cancel it.",
                game_id=record.id,
            )
        return await self._close(
            record,
            "cancelled",
            f"{render.escape(user.name)} cancelled the game. No result is recorded.",
            "Game cancelled.",
        )

    async def _close(self, record: GameRecord, status: str, line: str, reply: str) -> Outcome:
        """End a game without a result (cancelled or expired)."""
        try:
            await self._store.save(record.id, record.version, now=self._now(), status=status)
        except VersionConflict as err:
            return Outcome.refuse(str(err), game_id=record.id)
        # An open lobby is closed; a started game's lobby message is edited only if known.
        lobby = None
        if record.status == "lobby" or record.lobby_message_id is not None:
            lobby = self._lobby(record, status)
        return Outcome(
            reply=Reply(reply),
            game_id=record.id,
            channel_id=record.channel_id,
            channel=[line],
            lobby=lobby,
        )

    # -- the game (by channel) ----------------------------------------------------------------
    async def resign(self, channel_id: int, user: User) -> Outcome:
        """Concede: the other side wins; counts as a loss."""
        return await self._in_channel(channel_id, lambda r: self._resign(r, user))

    async def _resign(self, record: GameRecord, user: User) -> Outcome:
        found = self._seated(record, user)
        if isinstance(found, Outcome):
            return found
        loaded, seat = found
        return await self._apply(
            loaded,
            lambda g: g.resign(seat),
            lambda g, e: "You resigned.",
            lead=[f"{render.escape(user.name)} resigns."],
        )

    async def discard(self, channel_id: int, user: User, cards: str | Sequence[Card]) -> Outcome:
        """Put cards in the crib (text as typed, e.g. ``"5H JD"``, or cards)."""
        return await self._in_channel(channel_id, lambda r: self._discard(r, user, cards))

    async def _discard(
        self, record: GameRecord, user: User, cards: str | Sequence[Card]
    ) -> Outcome:
        found = self._seated(record, user)
        if isinstance(found, Outcome):
            return found
        loaded, seat = found
        if isinstance(cards, str):
            try:
                chosen = parse_cards(cards)
            except ValueError as err:
                return Outcome.refuse(str(err), game_id=record.id)
        else:
            chosen = tuple(cards)

        def reply(game: Game, events: Sequence[Event]) -> str:
            said = f"You put {render.card_labels(chosen)} in the crib."
            if _new_deal(game, events):
                return said
            return f"{said} You keep {cards_str(game.view(seat).kept)}."

        return await self._apply(loaded, lambda g: g.discard(seat, chosen), reply)

    async def play(self, channel_id: int, user: User, card: str | Card) -> Outcome:
        """Play one card in the play."""
        return await self._in_channel(channel_id, lambda r: self._play(r, user, card))

    async def _play(self, record: GameRecord, user: User, card: str | Card) -> Outcome:
        found = self._seated(record, user)
        if isinstance(found, Outcome):
            return found
        loaded, seat = found
        if isinstance(card, str):
            try:
                parsed = parse_cards(card)
            except ValueError as err:
                return Outcome.refuse(str(err), game_id=record.id)
            if len(parsed) != 1:
                return Outcome.refuse("Play one card at a time, like 7C.", game_id=record.id)
            card = parsed[0]
        chosen = card

        def reply(game: Game, events: Sequence[Event]) -> str:
            left = () if _new_deal(game, events) else game.view(seat).hand
            rest = f" You hold {cards_str(left)}." if left else ""
            return f"You played {chosen}.{rest}"

        return await self._apply(loaded, lambda g: g.play(seat, chosen), reply)

    async def hand(self, channel_id: int, user: User) -> Outcome:
        """The user's hand, privately, with the controls for what they can do now."""
        return await self._in_channel(channel_id, lambda r: self._hand(r, user))

    async def _hand(self, record: GameRecord, user: User) -> Outcome:
        found = self._seated(record, user)
        if isinstance(found, Outcome):
            return found
        loaded, seat = found
        game = loaded.game
        controls: Prompt | None = None
        view = game.view(seat)
        if seat in game.pending_discards():
            controls = discard_prompt(view, record.id, record.channel_id, user.id)
        elif game.phase is Phase.PLAY and game.turn == seat:
            controls = play_prompt(view, record.id, record.channel_id, user.id, record.version)
        text = render.hand_text(view, record.channel_id)
        return Outcome(
            reply=Reply(text, ephemeral=True, controls=controls),
            game_id=record.id,
            channel_id=record.channel_id,
        )

    async def status(self, channel_id: int) -> Outcome:
        """The table: board, dealer, phase, turn, count and series (public)."""
        async with self._lock(channel_id):
            record = await self._store.open_game_in_channel(channel_id)
            if record is None:
                record = await self._store.last_game_in_channel(channel_id)
        if record is None or record.status in ("cancelled", "expired"):
            return Outcome.refuse(NO_GAME)
        if record.status == "finished":
            text = render.last_result_text(self._load(record).game.public_view())
        elif record.status == "lobby":
            text = self._lobby(record).text
        else:
            text = render.status_text(self._load(record).game.public_view())
        return Outcome(reply=Reply(text, ephemeral=False), game_id=record.id, channel_id=channel_id)

    # -- components (by game id) ----------------------------------------------------------------
    async def click_lobby(
        self, game_id: int, button: str, user: User, *, moderator: bool = False
    ) -> Outcome:
        """A lobby control: ``"join"``, ``"leave"``, ``"start"``, ``"cancel"``,
        ``"remove_computer"``, or ``"computer:<level>"`` from the "Add computer" menu."""
        actions: dict[str, Callable[[GameRecord], Awaitable[Outcome]]] = {
            "join": lambda r: self._join(r, user),
            "leave": lambda r: self._leave(r, user),
            "start": lambda r: self._start(r, user),
            "cancel": lambda r: self._cancel(r, user, moderator),
            "remove_computer": lambda r: self._remove_computer(r, user),
        }
        for level in LEVELS:
            actions[f"computer:{level}"] = partial(self._add_computer, user=user, level=level)
        body = actions.get(button)
        if body is None:
            return Outcome.refuse("That button does nothing I know of.")
        return await self._by_id(game_id, body)

    async def click_discard(
        self, game_id: int, stamp: int, user: User, codes: Sequence[str]
    ) -> Outcome:
        """The discard select menu of a prompt (``codes`` are the selected card codes)."""

        async def body(record: GameRecord) -> Outcome:
            loaded = self._started(record)
            if isinstance(loaded, Outcome):
                return loaded
            if stamp != loaded.game.deal_number:
                return Outcome.refuse(STALE_DISCARD, game_id=game_id)
            try:
                cards = [Card.parse(code) for code in codes]
            except ValueError as err:
                return Outcome.refuse(str(err), game_id=game_id)
            return await self._discard(record, user, cards)

        return await self._by_id(game_id, body)

    async def click_play(self, game_id: int, stamp: int, user: User, code: str) -> Outcome:
        """A card button of a play prompt."""

        async def body(record: GameRecord) -> Outcome:
            if record.status == "lobby":
                return Outcome.refuse(NOT_STARTED, game_id=game_id)
            if stamp != record.version:
                return Outcome.refuse(STALE_PLAY, game_id=game_id)
            try:
                card = Card.parse(code)
            except ValueError as err:
                return Outcome.refuse(str(err), game_id=game_id)
            return await self._play(record, user, card)

        return await self._by_id(game_id, body)

    async def lobby_posted(self, game_id: int, message_id: int) -> None:
        """Remember the lobby message's id so later changes edit it (also after a restart)."""
        await self._store.set_lobby_message(game_id, message_id)

    async def dm_failed(self, game_id: int, user_id: int) -> Outcome:
        """A DM to this player was refused: the channel line telling them to use ``hand``."""
        record = await self._store.get_game(game_id)
        if record is None:
            return Outcome.refuse("I can't find that game.")
        if record.status != "active":
            # A finished game's last words (the coach's line) need no "use /cribbage hand".
            return Outcome(reply=Reply(""), game_id=game_id, channel_id=record.channel_id)
        # Once per deal is enough: every prompt of the deal would otherwise repeat it.
        deal = self._load(record).game.deal_number
        key = (game_id, user_id)
        if self._dm_notices.get(key) == deal:
            return Outcome(reply=Reply(""), game_id=game_id, channel_id=record.channel_id)
        self._dm_notices[key] = deal
        self._dm_notices.move_to_end(key)
        while len(self._dm_notices) > DM_NOTICES_KEPT:
            self._dm_notices.popitem(last=False)
        return Outcome(
            reply=Reply(""),
            game_id=game_id,
            channel_id=record.channel_id,
            channel=[
                f"<@{user_id}>, I can't send you direct messages. Use `/cribbage hand` here "
                "to see your cards and play."
            ],
        )

    # -- autocomplete -------------------------------------------------------------------------
    async def _seat_view(self, channel_id: int, user_id: int) -> SeatView | None:
        record = await self._store.open_game_in_channel(channel_id)
        if record is None or record.status != "active":
            return None
        seat = record.seat_of(user_id)
        if seat is None:
            return None
        return self._load(record).game.view(seat)

    async def autocomplete_discard(
        self, channel_id: int, user_id: int, current: str
    ) -> list[Choice]:
        """The user's cards matching what they typed (empty when they have nothing to discard).

        Cards already typed in full stay in front, so ``"5H J"`` offers ``"5H JD"``,
        ``"5H JC"`` and so on.
        """
        view = await self._seat_view(channel_id, user_id)
        return [] if view is None else discard_choices(view, current)

    async def autocomplete_play(self, channel_id: int, user_id: int, current: str) -> list[Choice]:
        """Only the cards the user may legally play now (empty when it is not their turn)."""
        view = await self._seat_view(channel_id, user_id)
        return [] if view is None else play_choices(view, current)

    # -- server-wide --------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int | None) -> Outcome:
        """The server's standings (games between people), ranked."""
        rows = await self._store.leaderboard(guild_id)
        computer = await self._store.leaderboard(guild_id, vs_computer=True)
        return Outcome(reply=Reply(render.render_leaderboard(rows, computer), ephemeral=False))

    async def coach(self, user: User, on: bool | None = None) -> Outcome:
        """Turn the coach's after-show DMs on or off for ``user``; None just says which."""
        if on is None:
            off = user.id in await self._store.coach_off([user.id])
            state = "off" if off else "on"
            return Outcome(
                reply=Reply(
                    f"The coach is {state} for you. After each show it DMs you one line about "
                    "your discard. Change it with `/cribbage coach on` or `off`."
                )
            )
        await self._store.set_coach(user.id, on, now=self._now())
        if on:
            return Outcome(
                reply=Reply("Coach on: after each show I'll DM you a line about your discard.")
            )
        return Outcome(reply=Reply("Coach off: no more lines about your discards."))

    async def stats(self, guild_id: int | None, user: User) -> Outcome:
        """One player's record on this server."""
        found = await self._store.player_stats(guild_id, user.id)
        text = render.render_stats(user.name, found.get(False), found.get(True))
        return Outcome(reply=Reply(text, ephemeral=False))

    def rules(self, topic: str | None = None) -> Outcome:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        return Outcome(reply=Reply(render.rules_text(topic), ephemeral=True))

    async def expire_idle(self, now: datetime | None = None) -> list[Outcome]:
        """End every game idle longer than the expiry (no stats); one outcome per game."""
        moment = now if now is not None else self._clock()
        cutoff = (moment - self._idle_expiry).timestamp()
        days = self._idle_expiry / timedelta(days=1)
        said = f"{days:g} day" + ("" if days == 1 else "s")
        outcomes = []
        for stale in await self._store.idle_games(cutoff):
            async with self._lock(stale.channel_id):
                record = await self._store.get_game(stale.id)
                # A move may have arrived since the list was read: then it is not idle.
                if (
                    record is None
                    or record.status not in OPEN_STATUSES
                    or record.updated_at >= cutoff
                ):
                    continue
                outcome = await self._close(
                    record,
                    "expired",
                    f"Nobody moved in this game for {said}, so it has ended. "
                    "No result is recorded.",
                    "",
                )
            if outcome.ok:
                outcomes.append(outcome)
        return outcomes


_BUSY = "There's already a game in this channel — see it with `/cribbage status`."


def _new_deal(game: Game, events: Sequence[Event]) -> bool:
    """Whether the action ended the deal (the hand the actor held is gone)."""
    return game.phase is Phase.OVER or any(isinstance(e, Dealt) for e in events)


def _renumber(seats: Iterable[SeatRecord]) -> list[SeatRecord]:
    """The remaining seats numbered again from 0, in order, each keeping who sits there."""
    return [dataclasses.replace(seat, seat=i) for i, seat in enumerate(seats)]
