"""The game service: every player action, from command or button, goes through here.

Each call takes the channel's lock, loads the game, validates and applies ONE engine action,
saves it (action log + snapshot + version check, one transaction) and returns an
:class:`~bot.core.replies.Outcome` saying what to send. Nothing here imports Discord.

A call that cannot be carried out raises where that is found (:class:`Refused`, the engine's
``RuleError``, the store's ``StoreError``); :func:`_answers` turns each into the refusal the
caller sends, once, where the call is entered.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Concatenate, ParamSpec

from bot.core import lobby, refusals, snapshot
from bot.core.computer import DEFAULT_LEVEL, LEVELS, ComputerPlayers, Step, computer_moves
from bot.core.computer import snapshot_views as views_before
from bot.core.games import Loaded, LoadedGames, RngFactory
from bot.core.prompts import (
    discard_completions,
    discard_prompt,
    play_completions,
    play_prompt,
    prompts_after,
)
from bot.core.records import GameRecord, GameStatus, SeatRecord
from bot.core.refusals import Refused
from bot.core.render.calls import CalledStep, call_steps
from bot.core.render.private import coach_text, hand_text
from bot.core.render.rules_help import rules_text
from bot.core.render.standings import leaderboard_text, stats_text
from bot.core.render.status import last_result_text, status_text
from bot.core.render.text import card_labels, escape
from bot.core.replies import Choice, Outcome, Prompt, Reply, User
from bot.core.results import result_rows
from bot.core.storage import GameStore
from bot.core.tally import Tally
from engine.cards import Card, cards_str, parse_cards
from engine.coach import review_view
from engine.errors import RuleError
from engine.events import Dealt, Event, Shown
from engine.game import Game
from engine.outcome import TARGETS
from engine.phase import Phase
from engine.views import SeatView

__all__ = ["GameService", "RngFactory"]

#: (game, user) pairs remembered for "told once per deal that their DMs are closed".
DM_NOTICES_KEPT = 4096

#: Why a game that is no longer open refuses a click.
_CLOSED = {
    GameStatus.FINISHED: refusals.GAME_OVER,
    GameStatus.CANCELLED: refusals.GAME_CANCELLED,
    GameStatus.EXPIRED: refusals.GAME_EXPIRED,
}

_P = ParamSpec("_P")


def _answers(
    call: Callable[Concatenate[GameService, _P], Awaitable[Outcome]],
) -> Callable[Concatenate[GameService, _P], Awaitable[Outcome]]:
    """Where a service call is entered: a refusal raised anywhere inside it becomes the one
    sentence sent back (nothing else sent, nothing changed)."""

    @functools.wraps(call)
    async def entered(self: GameService, /, *args: _P.args, **kwargs: _P.kwargs) -> Outcome:
        try:
            return await call(self, *args, **kwargs)
        except (Refused, RuleError) as refusal:
            return Outcome.refuse(str(refusal))

    return entered


def _parse(text: str) -> tuple[Card, ...]:
    """Cards as typed, or the refusal that says what was wrong with them."""
    try:
        return parse_cards(text)
    except ValueError as err:
        raise Refused(str(err)) from None


def _card(code: str) -> Card:
    """One card from a control's value (``"10D"``), or the refusal."""
    try:
        return Card.parse(code)
    except ValueError as err:
        raise Refused(str(err)) from None


class GameService:
    """Games of cribbage in Discord channels, one open game per channel or thread."""

    def __init__(
        self,
        store: GameStore,
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
        self._games = LoadedGames(rng_factory)

    @classmethod
    def create(cls, store: GameStore, *, idle_expiry: timedelta) -> GameService:
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
                raise Refused(refusals.NO_GAME)
            return await body(record)

    async def _by_id(
        self, game_id: int, body: Callable[[GameRecord], Awaitable[Outcome]]
    ) -> Outcome:
        """Run ``body`` on an open game found by id, holding its channel's lock."""
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            found = await self._store.get_game(game_id)
            if found is None:
                raise Refused(refusals.UNKNOWN_GAME)
            channel_id = self._channels[game_id] = found.channel_id
        async with self._lock(channel_id):
            # Load again under the lock: the first read only told us which lock to take.
            record = await self._store.get_game(game_id)
            assert record is not None  # games are never deleted
            if not record.is_open:
                raise Refused(_CLOSED[record.status])
            return await body(record)

    def _started(self, record: GameRecord) -> Loaded:
        """The game being played, or the refusal for a lobby."""
        if record.status is GameStatus.LOBBY:
            raise Refused(refusals.NOT_STARTED)
        return self._games.load(record)

    def _seated(self, record: GameRecord, user: User) -> tuple[Loaded, int]:
        """The started game and ``user``'s seat in it."""
        loaded = self._started(record)
        seat = record.seat_of(user.id)
        if seat is None:
            raise Refused(refusals.NOT_A_PLAYER)
        return loaded, seat

    async def _save_move(
        self, record: GameRecord, game: Game, tally: Tally, steps: Sequence[Step]
    ) -> int:
        """Store the moves of one call (each its own log entry) in one transaction; the new
        version. A finished game gets its results in the same transaction."""
        for step in steps:
            tally.add(step.events)
        finished = game.phase is Phase.OVER
        version = await self._store.save(
            record.id,
            record.version,
            now=self._now(),
            status=GameStatus.FINISHED if finished else GameStatus.ACTIVE,
            snapshot=snapshot.encode(game, tally),
            actions=[json.dumps(step.action) for step in steps],
            results=result_rows(record, game, tally) if finished else (),
        )
        if not finished:
            self._games.keep(record.id, version, game, tally)
        return version

    # -- applying one action ------------------------------------------------------------------
    async def _apply(
        self,
        loaded: Loaded,
        act: Callable[[Game], list[Event]],
        reply: Callable[[Game, Sequence[Event]], str],
        *,
        announce: Sequence[str] = (),
    ) -> Outcome:
        """Apply one engine action and the computer's answers to it, save them in one
        transaction, and say what happened (``announce``: channel lines that come first)."""
        game, record = loaded.game, loaded.record
        # The action changes these objects: until it is saved they must not be reused.
        self._games.drop(record.id)
        before = views_before(game)
        events = act(game)
        # The reply is about the person's own move, before the computer changes the table.
        said = reply(game, events)
        # Every accepted discard, play or resignation adds exactly one entry to the log.
        steps = [Step(game.actions[-1], events, before, game.public_view())]
        steps += computer_moves(record.seats, game, self._computers)
        version = await self._save_move(record, game, loaded.tally, steps)
        return Outcome(
            reply=Reply(said),
            game_id=record.id,
            channel_id=record.channel_id,
            channel=[*announce, *call_steps([(s.events, s.table) for s in steps])],
            prompts=await self._coach(record, steps)
            + prompts_after(record, game, [e for s in steps for e in s.events], version),
        )

    async def _coach(self, record: GameRecord, steps: Sequence[Step]) -> list[Prompt]:
        """The coach's line for each person whose discard was just shown (unless they turned
        the coach off): judged from their view just before the play ended the deal."""
        shown = [s for s in steps if any(isinstance(e, Shown) for e in s.events)]
        if not shown:
            return []
        people = [s.user_id for s in record.seats if not s.is_computer and s.user_id is not None]
        off = await self._store.coach_off(people)
        prompts = []
        for step in shown:
            for seat in record.seats:
                view = step.before.get(seat.seat)
                if seat.is_computer or seat.user_id is None or seat.user_id in off or not view:
                    continue
                review = review_view(view)
                if review is None:
                    continue
                prompts.append(
                    Prompt(
                        user_id=seat.user_id,
                        game_id=record.id,
                        kind="info",
                        text=coach_text(record.channel_id, view.deal_number, review.line()),
                        cards=(),
                        pick=0,
                        stamp=view.deal_number,
                    )
                )
        return prompts

    # -- lobby (by channel) ---------------------------------------------------------------------
    @_answers
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
            raise Refused(refusals.BAD_PLAYERS)
        if target not in TARGETS:
            raise Refused(refusals.BAD_TARGET)
        if difficulty not in LEVELS:
            raise Refused(refusals.bad_level(LEVELS))
        async with self._lock(channel_id):
            if await self._store.open_game_in_channel(channel_id) is not None:
                raise Refused(refusals.CHANNEL_BUSY)
            record = await self._store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                creator=SeatRecord(0, user.id, user.name),
                num_players=players,
                target=target,
                now=self._now(),
                vs_computer=vs_computer,
            )
            if vs_computer:
                seats = lobby.fill_with_computers(record, difficulty)
                return await self._deal(await self._reseated(record, seats), user)
        return Outcome(
            reply=Reply(
                f"Game opened: {players} players, to {target}. "
                "Others join with the Join button or `/cribbage join`."
            ),
            game_id=record.id,
            channel_id=channel_id,
            lobby=lobby.lobby_message(record),
        )

    async def _reseated(self, record: GameRecord, seats: Sequence[SeatRecord]) -> GameRecord:
        """Store the lobby's new seats; the game as it is now."""
        await self._store.set_seats(record.id, record.version, seats, now=self._now())
        updated = await self._store.get_game(record.id)
        assert updated is not None
        return updated

    async def _seats_changed(
        self, record: GameRecord, seats: Sequence[SeatRecord], text: str
    ) -> Outcome:
        """Store the lobby's new seats and show the lobby as it is now."""
        updated = await self._reseated(record, seats)
        if len(seats) == record.num_players:
            text += " The table is full: press Start to deal."
        return Outcome(
            reply=Reply(text),
            game_id=record.id,
            channel_id=record.channel_id,
            lobby=lobby.lobby_message(updated),
        )

    @_answers
    async def join(self, channel_id: int, user: User) -> Outcome:
        """Take a seat in the channel's lobby."""
        return await self._in_channel(channel_id, lambda r: self._join(r, user))

    async def _join(self, record: GameRecord, user: User) -> Outcome:
        seats = lobby.seats_joining(record, user)
        text = f"You're in: seat {len(seats)} of {record.num_players}."
        return await self._seats_changed(record, seats, text)

    async def _add_computer(self, record: GameRecord, user: User, level: str) -> Outcome:
        seats = lobby.seats_adding_computer(record, user, level)
        return await self._seats_changed(
            record, seats, f"{seats[-1].name} takes seat {len(seats)}."
        )

    async def _remove_computer(self, record: GameRecord, user: User) -> Outcome:
        seats, name = lobby.seats_removing_computer(record, user)
        return await self._seats_changed(record, seats, f"{name} left the table.")

    @_answers
    async def leave(self, channel_id: int, user: User) -> Outcome:
        """Give up a seat in the lobby (the creator leaving closes the lobby)."""
        return await self._in_channel(channel_id, lambda r: self._leave(r, user))

    async def _leave(self, record: GameRecord, user: User) -> Outcome:
        seats = lobby.seats_leaving(record, user)
        if user.id == record.creator_id:
            line = f"{escape(user.name)} left and closed the lobby."
            return await self._close(record, GameStatus.CANCELLED, line, "You left.")
        return await self._seats_changed(record, seats, "You left the game.")

    @_answers
    async def start(self, channel_id: int, user: User) -> Outcome:
        """Deal, when every seat is taken (any seated player may start)."""
        return await self._in_channel(channel_id, lambda r: self._start(r, user))

    async def _start(self, record: GameRecord, user: User) -> Outcome:
        lobby.check_start(record, user)
        return await self._deal(record, user)

    async def _deal(self, record: GameRecord, user: User) -> Outcome:
        """Cut for deal and deal the first hand of a full lobby (lock held)."""
        rng = self._rng_factory(f"{record.id}:{record.version}")
        game, events = Game.new([s.name for s in record.seats], target=record.target, rng=rng)
        tally = Tally.empty(record.num_players)
        tally.add(events)
        # The computer seats discard at once; each discard is logged like a person's.
        steps = computer_moves(record.seats, game, self._computers)
        version = await self._save_move(record, game, tally, steps)
        # The cut and the deal need only names and sizes, which the computer's discards keep.
        said: list[CalledStep] = [(events, game.public_view())]
        return Outcome(
            reply=Reply("Dealing — your hand is on its way by DM."),
            game_id=record.id,
            channel_id=record.channel_id,
            lobby=lobby.lobby_message(record, GameStatus.ACTIVE),
            channel=call_steps(said + [(s.events, s.table) for s in steps]),
            prompts=prompts_after(record, game, events, version),
        )

    @_answers
    async def cancel(self, channel_id: int, user: User, *, moderator: bool = False) -> Outcome:
        """End the game with no result (its creator, or a moderator)."""
        return await self._in_channel(channel_id, lambda r: self._cancel(r, user, moderator))

    async def _cancel(self, record: GameRecord, user: User, moderator: bool) -> Outcome:
        if user.id != record.creator_id and not moderator:
            raise Refused(refusals.CANCEL_CREATOR)
        return await self._close(
            record,
            GameStatus.CANCELLED,
            f"{escape(user.name)} cancelled the game. No result is recorded.",
            "Game cancelled.",
        )

    async def _close(
        self, record: GameRecord, status: GameStatus, line: str, reply: str
    ) -> Outcome:
        """End a game without a result (cancelled or expired)."""
        await self._store.save(record.id, record.version, now=self._now(), status=status)
        # An open lobby is closed; a started game's lobby message is edited only if known.
        closed = None
        if record.status is GameStatus.LOBBY or record.lobby_message_id is not None:
            closed = lobby.lobby_message(record, status)
        return Outcome(
            reply=Reply(reply),
            game_id=record.id,
            channel_id=record.channel_id,
            channel=[line],
            lobby=closed,
        )

    # -- the game (by channel) ----------------------------------------------------------------
    @_answers
    async def resign(self, channel_id: int, user: User) -> Outcome:
        """Concede: the other side wins; counts as a loss."""
        return await self._in_channel(channel_id, lambda r: self._resign(r, user))

    async def _resign(self, record: GameRecord, user: User) -> Outcome:
        loaded, seat = self._seated(record, user)
        return await self._apply(
            loaded,
            lambda g: g.resign(seat),
            lambda g, e: "You resigned.",
            announce=[f"{escape(user.name)} resigns."],
        )

    @_answers
    async def discard(self, channel_id: int, user: User, cards: str | Sequence[Card]) -> Outcome:
        """Put cards in the crib (text as typed, e.g. ``"5H JD"``, or cards)."""
        return await self._in_channel(channel_id, lambda r: self._discard(r, user, cards))

    async def _discard(
        self, record: GameRecord, user: User, cards: str | Sequence[Card]
    ) -> Outcome:
        loaded, seat = self._seated(record, user)
        chosen = _parse(cards) if isinstance(cards, str) else tuple(cards)

        def reply(game: Game, events: Sequence[Event]) -> str:
            said = f"You put {card_labels(chosen)} in the crib."
            if _new_deal(game, events):
                return said
            return f"{said} You keep {cards_str(game.view(seat).kept)}."

        return await self._apply(loaded, lambda g: g.discard(seat, chosen), reply)

    @_answers
    async def play(self, channel_id: int, user: User, card: str | Card) -> Outcome:
        """Play one card in the play."""
        return await self._in_channel(channel_id, lambda r: self._play(r, user, card))

    async def _play(self, record: GameRecord, user: User, card: str | Card) -> Outcome:
        loaded, seat = self._seated(record, user)
        if isinstance(card, str):
            parsed = _parse(card)
            if len(parsed) != 1:
                raise Refused(refusals.ONE_CARD)
            card = parsed[0]
        chosen = card

        def reply(game: Game, events: Sequence[Event]) -> str:
            left = () if _new_deal(game, events) else game.view(seat).hand
            rest = f" You hold {cards_str(left)}." if left else ""
            return f"You played {chosen}.{rest}"

        return await self._apply(loaded, lambda g: g.play(seat, chosen), reply)

    @_answers
    async def hand(self, channel_id: int, user: User) -> Outcome:
        """The user's hand, privately, with the controls for what they can do now."""
        return await self._in_channel(channel_id, lambda r: self._hand(r, user))

    async def _hand(self, record: GameRecord, user: User) -> Outcome:
        loaded, seat = self._seated(record, user)
        game = loaded.game
        controls: Prompt | None = None
        view = game.view(seat)
        if seat in game.pending_discards():
            controls = discard_prompt(view, record.id, record.channel_id, user.id)
        elif game.phase is Phase.PLAY and game.turn == seat:
            controls = play_prompt(view, record.id, record.channel_id, user.id, record.version)
        return Outcome(
            reply=Reply(hand_text(view, record.channel_id), ephemeral=True, controls=controls),
            game_id=record.id,
            channel_id=record.channel_id,
        )

    @_answers
    async def status(self, channel_id: int) -> Outcome:
        """The table: board, dealer, phase, turn, count and series (public)."""
        async with self._lock(channel_id):
            record = await self._store.open_game_in_channel(channel_id)
            if record is None:
                record = await self._store.last_game_in_channel(channel_id)
        if record is None or record.status in (GameStatus.CANCELLED, GameStatus.EXPIRED):
            raise Refused(refusals.NO_GAME)
        if record.status is GameStatus.FINISHED:
            text = last_result_text(self._games.load(record).game.public_view())
        elif record.status is GameStatus.LOBBY:
            text = lobby.lobby_message(record).text
        else:
            text = status_text(self._games.load(record).game.public_view())
        return Outcome(reply=Reply(text, ephemeral=False), game_id=record.id, channel_id=channel_id)

    # -- components (by game id) ----------------------------------------------------------------
    @_answers
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
            actions[f"computer:{level}"] = functools.partial(
                self._add_computer, user=user, level=level
            )
        body = actions.get(button)
        if body is None:
            raise Refused(refusals.UNKNOWN_BUTTON)
        return await self._by_id(game_id, body)

    @_answers
    async def click_discard(
        self, game_id: int, stamp: int, user: User, codes: Sequence[str]
    ) -> Outcome:
        """The discard select menu of a prompt (``codes`` are the selected card codes)."""

        async def body(record: GameRecord) -> Outcome:
            if stamp != self._started(record).game.deal_number:
                raise Refused(refusals.STALE_DISCARD)
            return await self._discard(record, user, [_card(code) for code in codes])

        return await self._by_id(game_id, body)

    @_answers
    async def click_play(self, game_id: int, stamp: int, user: User, code: str) -> Outcome:
        """A card button of a play prompt."""

        async def body(record: GameRecord) -> Outcome:
            if record.status is GameStatus.LOBBY:
                raise Refused(refusals.NOT_STARTED)
            if stamp != record.version:
                raise Refused(refusals.STALE_PLAY)
            return await self._play(record, user, _card(code))

        return await self._by_id(game_id, body)

    async def lobby_posted(self, game_id: int, message_id: int) -> None:
        """Remember the lobby message's id so later changes edit it (also after a restart)."""
        await self._store.set_lobby_message(game_id, message_id)

    @_answers
    async def dm_failed(self, game_id: int, user_id: int) -> Outcome:
        """A DM to this player was refused: the channel line telling them to use ``hand``."""
        record = await self._store.get_game(game_id)
        if record is None:
            raise Refused(refusals.UNKNOWN_GAME)
        quiet = Outcome(reply=Reply(""), game_id=game_id, channel_id=record.channel_id)
        if record.status is not GameStatus.ACTIVE:
            # A finished game's last words (the coach's line) need no "use /cribbage hand".
            return quiet
        # Once per deal is enough: every prompt of the deal would otherwise repeat it.
        deal = self._games.load(record).game.deal_number
        key = (game_id, user_id)
        if self._dm_notices.get(key) == deal:
            return quiet
        self._dm_notices[key] = deal
        self._dm_notices.move_to_end(key)
        while len(self._dm_notices) > DM_NOTICES_KEPT:
            self._dm_notices.popitem(last=False)
        notice = (
            f"<@{user_id}>, I can't send you direct messages. Use `/cribbage hand` here "
            "to see your cards and play."
        )
        return Outcome(
            reply=Reply(""), game_id=game_id, channel_id=record.channel_id, channel=[notice]
        )

    # -- autocomplete -------------------------------------------------------------------------
    async def _seat_view(self, channel_id: int, user_id: int) -> SeatView | None:
        record = await self._store.open_game_in_channel(channel_id)
        if record is None or record.status is not GameStatus.ACTIVE:
            return None
        seat = record.seat_of(user_id)
        if seat is None:
            return None
        return self._games.load(record).game.view(seat)

    async def autocomplete_discard(
        self, channel_id: int, user_id: int, current: str
    ) -> list[Choice]:
        """The user's cards matching what they typed (empty when they have nothing to discard).

        Cards already typed in full stay in front, so ``"5H J"`` offers ``"5H JD"``,
        ``"5H JC"`` and so on.
        """
        view = await self._seat_view(channel_id, user_id)
        return [] if view is None else discard_completions(view, current)

    async def autocomplete_play(self, channel_id: int, user_id: int, current: str) -> list[Choice]:
        """Only the cards the user may legally play now (empty when it is not their turn)."""
        view = await self._seat_view(channel_id, user_id)
        return [] if view is None else play_completions(view, current)

    # -- server-wide --------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int | None) -> Outcome:
        """The server's standings (games between people), ranked."""
        rows = await self._store.leaderboard(guild_id)
        computer = await self._store.leaderboard(guild_id, vs_computer=True)
        return Outcome(reply=Reply(leaderboard_text(rows, computer), ephemeral=False))

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
        text = stats_text(user.name, found.get(False), found.get(True))
        return Outcome(reply=Reply(text, ephemeral=False))

    def rules(self, topic: str | None = None) -> Outcome:
        """Rules help for a topic (overview, deal, play, show, scoring, commands)."""
        return Outcome(reply=Reply(rules_text(topic), ephemeral=True))

    async def expire_idle(self, now: datetime | None = None) -> list[Outcome]:
        """End every game idle longer than the expiry (no stats); one outcome per game."""
        moment = now if now is not None else self._clock()
        cutoff = (moment - self._idle_expiry).timestamp()
        days = self._idle_expiry / timedelta(days=1)
        said = f"{days:g} day" + ("" if days == 1 else "s")
        line = f"Nobody moved in this game for {said}, so it has ended. No result is recorded."
        outcomes = []
        for stale in await self._store.idle_games(cutoff):
            async with self._lock(stale.channel_id):
                record = await self._store.get_game(stale.id)
                # A move may have arrived since the list was read: then it is not idle.
                if record is None or not record.is_open or record.updated_at >= cutoff:
                    continue
                try:
                    outcome = await self._close(record, GameStatus.EXPIRED, line, "")
                except Refused:
                    continue  # it moved on between the read and the write: not idle
            outcomes.append(outcome)
        return outcomes


def _new_deal(game: Game, events: Sequence[Event]) -> bool:
    """Whether the action ended the deal (the hand the actor held is gone)."""
    return game.phase is Phase.OVER or any(isinstance(e, Dealt) for e in events)
