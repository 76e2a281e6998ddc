"""The moves of a game being played: a person's discard, play, count, muggins or resignation
(by command or by a hand's control), the computer seats' answers, and the clock's moves.

Each call is made on the game's own sequence (:class:`~bot.core.games.games.Games`), validates
and applies ONE engine action, lets the computer seats make the moves they owe in answer, saves
them in one transaction and answers the person (:class:`~bot.core.base.replies.Answer`). A move made
from a hand message is answered by updating that message, and its new look is kept with the
move, so whatever sends the game's messages never draws it from before the move.

Two kinds of move are nobody's click, and :meth:`Moves.catch_up` makes them when they are due:
the clock's (manual counting: the muggins window closes, a person who has not counted in time
is counted for) and the computer's answer that was left for after the person was answered (a
level that thinks at length) when the Discord layer never made it. The game clock
(:mod:`bot.core.play.clock`) calls it as the feed says a game changed, and when a move falls due;
its moves take their turn on the game's sequence like anyone's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import NamedTuple

from bot.core.base import refusals
from bot.core.base.entry import answers
from bot.core.base.refusals import Refused, StaleControl
from bot.core.base.replies import Answer, Click, Clicked, User
from bot.core.base.text import Names, and_list, card_labels, plural
from bot.core.base.timing import ANSWER_WINDOW
from bot.core.base.views import ConfirmControls, MessageView
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.computer import (
    THINKS_AT_LENGTH,
    ComputerPlayers,
    Step,
    answers_later,
    computer_moves,
    computer_to_move,
)
from bot.core.games.computer import snapshot_views as views_before
from bot.core.games.endings import Ending
from bot.core.games.games import Games, Loaded, OnGames
from bot.core.games.records import GameRecord, GameStatus
from bot.core.messages.answers import Answering, MoveAnswer
from bot.core.messages.table import resign_question
from bot.core.settings import COUNT_TIMEOUT, MUGGINS_WINDOW
from engine.cards import Card, cards_str, parse_cards
from engine.counting import Counting
from engine.errors import RuleError
from engine.events import Claimed, Dealt, Event, Mugginsed, Overclaimed
from engine.game import Game
from engine.phase import Phase
from engine.scoring import score_hand
from engine.speech import say_score

__all__ = ["COMPUTER_ANSWER_AFTER", "COUNT_TIMEOUT", "MUGGINS_WINDOW", "Moves"]

#: The most clock moves made in one catch-up (each one settles a hand, and a show has at most
#: five hands; the computer's answers come inside each).
MAX_CLOCK_MOVES = 5
#: A computer's answer left for after a person's move is made by the Discord layer once the
#: person is answered; failing that (the process died, the answer failed), by the clock's
#: catch-up once this long has passed since the move: by then the click's answer went out or
#: never will, so nothing edits the person's hand before its answer lands.
COMPUTER_ANSWER_AFTER = ANSWER_WINDOW
#: Games whose record says the clock never has anything to do in them are remembered (by id)
#: so that their changes cost the clock no read.
CLOCKLESS_KEPT = 4096

#: A move the clock makes in a game (closing a muggins window, counting for an idle player).
ClockMove = Callable[[Game], list[Event]]
#: What a click that comes too late is told, by the kind of control.
_STALE = {
    "play": refusals.STALE_PLAY,
    "count": refusals.STALE_COUNT,
    "muggins": refusals.STALE_MUGGINS,
    "pass": refusals.STALE_MUGGINS,
}


def _parse(text: str, count: int) -> tuple[Card, ...]:
    """Cards as typed (``count`` of them asked for), or the refusal that says what was wrong
    with them."""
    try:
        return parse_cards(text, count=count or None)
    except ValueError as err:
        raise refusals.misread(err) from None


def _claim_reply(game: Game, events: Sequence[Event]) -> str:
    """What a claim's owner is told: the claim, and when it was over the hand's value, what
    it pegged, who pegs the points over, and the hand's count item by item (its own cards and
    the starter: nothing hidden), as players say it."""
    claimed = next(e for e in events if isinstance(e, Claimed))
    said = f"You claimed {claimed.points}"
    if not claimed.over:
        return said + "."
    names = Names.of(game.public_view())
    takers = [names.seat(e.seat) for e in events if isinstance(e, Overclaimed)]
    over = plural(claimed.over, "point")
    verb = "pegs" if len(takers) == 1 else "peg"
    taken = f", and {and_list(takers)} {verb} the {over} over" if takers else ""
    count = say_score(
        score_hand(claimed.cards, claimed.starter, crib=claimed.crib, rules=game.state.rules)
    )
    return (
        f"{said}, {over} more than the hand is worth: you peg {claimed.pegged}{taken}."
        f" Its count: {count}."
    )


def _card(code: str) -> Card:
    """One card from a control's value (``"10D"``), or the refusal."""
    try:
        return Card.parse(code)
    except ValueError as err:
        raise refusals.misread(err) from None


def _new_deal(game: Game, events: Sequence[Event]) -> bool:
    """Whether the action ended the deal (the hand the actor held is gone)."""
    return game.state.phase is Phase.OVER or any(isinstance(e, Dealt) for e in events)


def _seat_of_action(step: Step) -> int | None:
    """The seat whose move a log entry is (every discard, play and resignation names it)."""
    seat = step.action.get("seat")
    return seat if isinstance(seat, int) else None


class _Move(NamedTuple):
    """A person's move: what it does to the game, and what they are told of it (on the game
    after it, from the events it made)."""

    act: Callable[[Game], list[Event]]
    reply: Callable[[Game, Sequence[Event]], str]


def _discarding(game: Game, seat: int, cards: str | Sequence[Card]) -> _Move:
    """``seat`` puts ``cards`` in the crib (as typed, e.g. ``"5H JD"``, or cards)."""
    wanted = game.state.rules.to_crib(seat, game.state.dealer)
    chosen = _parse(cards, wanted) if isinstance(cards, str) else tuple(cards)

    def reply(game: Game, events: Sequence[Event]) -> str:
        said = f"You put {card_labels(chosen)} in the crib."
        if _new_deal(game, events):
            return said
        return f"{said} You keep {cards_str(game.view(seat).kept)}."

    return _Move(lambda g: g.discard(seat, chosen), reply)


def _playing(seat: int, card: str | Card) -> _Move:
    """``seat`` plays ``card`` (as typed, or a card)."""
    if isinstance(card, str):
        parsed = _parse(card, 1)
        if len(parsed) != 1:
            raise Refused(refusals.ONE_CARD)
        card = parsed[0]
    chosen = card

    def reply(game: Game, events: Sequence[Event]) -> str:
        left = () if _new_deal(game, events) else game.view(seat).hand
        rest = f" You hold {cards_str(left)}." if left else ""
        return f"You played {chosen}.{rest}"

    return _Move(lambda g: g.play(seat, chosen), reply)


def _claiming(game: Game, seat: int, points: int) -> _Move:
    """``seat`` claims ``points`` for the hand (or crib) it counts now (manual counting)."""
    if game.state.rules.counting is not Counting.MANUAL:
        raise Refused(refusals.AUTO_COUNTING)
    # Every claim is open to muggins, so an open window gives nothing away.
    return _Move(lambda g: g.claim(seat, points, open_window=True, waits=True), _claim_reply)


def _passing(game: Game, seat: int) -> _Move:
    """``seat`` lets the claim before it stand (no muggins)."""
    return _Move(
        lambda g: g.pass_muggins(seat), lambda g, e: "No muggins from you: the claim stands."
    )


class Moves(OnGames):
    """The moves of started games: the people's, the computer's and the clock's."""

    def __init__(
        self,
        games: Games,
        coach: CoachSettings,
        computers: ComputerPlayers,
        *,
        muggins_window: timedelta = MUGGINS_WINDOW,
        count_timeout: timedelta = COUNT_TIMEOUT,
    ) -> None:
        self._games = games
        self._coach = coach
        self._computers = computers
        self._muggins_window = muggins_window.total_seconds()
        self._count_timeout = count_timeout.total_seconds()
        # Games the clock never has anything to do in (automatic counting, no computer that
        # answers later): ids, oldest first.
        self._clockless: dict[int, None] = {}

    # -- applying one action ------------------------------------------------------------------
    async def _apply(
        self,
        loaded: Loaded,
        act: Callable[[Game], list[Event]] | None,
        reply: Callable[[Game, Sequence[Event]], str],
        *,
        answering: Answering | None = None,
        mirror: bool = False,
        ending: Ending | None = None,
    ) -> Answer:
        """Apply one engine action and the computer's answers to it, save them in one
        transaction, and say what happened. ``answering``: the hand message whose control was
        used (its new look is the click's answer, kept with the move when the click is known).
        ``mirror``: a move by command, answered with the mover's hand as it is now (a private
        copy of their hand message, kept up to date while the command's token lives: their
        next turn reaches them where they typed, at once). With no ``act``, only the
        computer's owed answers (see :meth:`computer_turn`). ``ending``: how a resignation
        came about, kept with the result (:class:`~bot.core.games.endings.Ending`)."""
        game, record = loaded.game, loaded.record
        people = [s.user_id for s in record.seats if s.user_id is not None]
        asked = MoveAnswer.asks_coach(record, answering, mirror)
        coach_off = await self._coach.off(people) if asked else frozenset()
        steps: list[Step] = []
        said = ""
        seat = None
        if act is not None:
            before = views_before(game)
            events = act(game)
            # The reply is about the person's own move, before the computer changes it.
            said = reply(game, events)
            # Every accepted discard, play or resignation adds exactly one log entry.
            steps.append(Step(game.actions[-1], events, before, game.public_view()))
            seat = _seat_of_action(steps[0])
        # A computer that thinks at length answers after the person hears of their move
        # (see computer_turn); any other answers inside the same transaction.
        computer_owes = act is not None and answers_later(record.seats, game)
        if not computer_owes:
            steps += await computer_moves(record.seats, game, self._computers)
        # What the move means for the mover's messages is the messages' to say: drawn on the
        # game as saved, the look of a clicked hand kept with the move.
        shown = MoveAnswer(
            record, seat, coach_off, answering=answering, mirror=mirror, now=self._games.now
        )
        version = await self._games.save_moves(
            loaded, steps, shown.kept, more_coming=computer_owes, ending=ending
        )
        # (Played apart, what the mover is shown is their place's.)
        owner = self._games.owner_at(record, seat)
        return shown.answer(said, owner, version, computer_owes=computer_owes)

    # -- by command (the channel's game) -------------------------------------------------------
    @answers
    async def resign(self, channel_id: int, user: User, ending: Ending = Ending.RESIGNED) -> Answer:
        """Concede: the other side wins; counts as a loss. ``ending``: why, when the player
        did not resign themselves (their turn clock ran out, they left their ranked match,
        their data was deleted): the game's result says so."""

        async def body(record: GameRecord) -> Answer:
            loaded, seat = self._games.loaded.seated(record, user)
            return await self._apply(
                loaded, lambda g: g.resign(seat), lambda g, e: "You resigned.", ending=ending
            )

        return await self._games.in_channel(channel_id, body)

    @answers
    async def ask_resign(self, channel_id: int, user: User) -> Answer:
        """``/cribbage resign``: asks the player to confirm, privately, with Yes and No (see
        :meth:`confirm_resign`); nothing changes yet. In a partners game the resignation is
        the player's alone, for their side."""
        return await self._games.in_channel(channel_id, lambda r: self._resign_question(r, user))

    @answers
    async def ask_resign_at(self, game_id: int, user: User, *, guild_id: int | None) -> Answer:
        """A private table's *Resign*, about its game ``game_id``: the question
        :meth:`ask_resign` asks. The game is the button's, as every control's
        (:meth:`Games.by_id <bot.core.games.games.Games.by_id>`): someone who may not use
        it is told why as every control tells them (someone else's ranked game, not
        their game); an older table's game, that it is over."""
        return await self._games.by_id(
            game_id, lambda r: self._resign_question(r, user), user=user, guild_id=guild_id
        )

    async def _resign_question(self, record: GameRecord, user: User) -> Answer:
        loaded, seat = self._games.loaded.seated(record, user)
        game = loaded.game
        try:
            game.verify_resign(seat)
        except RuleError as err:
            raise Refused(str(err)) from None
        ranked = record.in_match
        text = resign_question(
            Names.of(game.public_view()), game.public_view(), seat, ranked=ranked
        )
        view = MessageView(text, controls=ConfirmControls(record.id))
        return Answer.say(text, view=view)

    @answers
    async def confirm_resign(
        self, game_id: int, user: User, yes: bool, *, guild_id: int | None
    ) -> Answer:
        """The answer to the question :meth:`ask_resign` asked: Yes resigns the game (a loss),
        No plays on; either way the question's message says so, without its buttons."""
        if not yes:
            return Answer.in_place("You play on.")

        async def body(record: GameRecord) -> Answer:
            loaded, seat = self._games.loaded.seated(record, user)
            answer = await self._apply(
                loaded, lambda g: g.resign(seat), lambda g, e: "You resigned."
            )
            return dataclasses.replace(answer, update=MessageView("You resigned."))

        return await self._games.by_id(game_id, body, user=user, guild_id=guild_id)

    @answers
    async def discard(
        self, channel_id: int, user: User, cards: str | Sequence[Card], *, mirror: bool = True
    ) -> Answer:
        """Put cards in the crib (text as typed, e.g. ``"5H JD"``, or cards); ``mirror``: the
        answer copies the mover's hand (not where the command was typed beside it, in the
        bot's DM)."""
        return await self._games.in_channel(
            channel_id,
            lambda r: self._move(
                r, user, lambda g, seat: _discarding(g, seat, cards), mirror=mirror
            ),
        )

    @answers
    async def play(
        self, channel_id: int, user: User, card: str | Card, *, mirror: bool = True
    ) -> Answer:
        """Play one card in the play (``mirror`` as for :meth:`discard`)."""
        return await self._games.in_channel(
            channel_id,
            lambda r: self._move(r, user, lambda g, seat: _playing(seat, card), mirror=mirror),
        )

    @answers
    async def count(
        self, channel_id: int, user: User, points: int, *, mirror: bool = True
    ) -> Answer:
        """Manual counting: claim ``points`` for the hand (or crib) you must count now
        (``mirror`` as for :meth:`discard`)."""
        return await self._games.in_channel(
            channel_id,
            lambda r: self._move(
                r, user, lambda g, seat: _claiming(g, seat, points), mirror=mirror
            ),
        )

    # -- by a hand's control (a game by id) -----------------------------------------------------
    @answers
    async def click(
        self,
        click: Click,
        user: User,
        clicked: Clicked | None = None,
        *,
        guild_id: int | None,
    ) -> Answer:
        """A hand's control (by DM or from ``/cribbage hand``), made in the server ``guild_id``
        (None: a DM). ``clicked``: the message and the click, whose answer is kept with the
        move. A control from an earlier moment of the game (its stamp) gets a clear answer."""

        async def body(record: GameRecord) -> Answer:
            game = self._games.loaded.started(record).game
            if click.kind == "discard":
                if click.stamp != game.state.deal_number:
                    raise StaleControl(refusals.STALE_DISCARD, click.game_id)
                cards = [_card(code) for code in click.values]
                answering = Answering(click.stamp, clicked)
                return await self._move(
                    record, user, lambda g, seat: _discarding(g, seat, cards), answering
                )
            if click.stamp != record.version:
                raise StaleControl(_STALE[click.kind], click.game_id)
            answering = Answering(game.state.deal_number, clicked, seen=click.stamp)
            if click.kind == "play":
                if len(click.values) != 1:
                    raise Refused(refusals.ONE_CARD)
                card = _card(click.values[0])
                return await self._move(
                    record, user, lambda g, seat: _playing(seat, card), answering
                )
            if click.kind == "count":
                if len(click.values) != 1 or not click.values[0].isdecimal():
                    raise Refused(refusals.BAD_COUNT)
                points = int(click.values[0])
                return await self._move(
                    record, user, lambda g, seat: _claiming(g, seat, points), answering
                )
            if click.kind == "pass":
                return await self._move(record, user, _passing, answering)
            return await self._muggins(record, user, answering)

        return await self._games.by_id(click.game_id, body, user=user, guild_id=guild_id)

    # -- the moves themselves -------------------------------------------------------------------
    async def _move(
        self,
        record: GameRecord,
        user: User,
        move: Callable[[Game, int], _Move],
        answering: Answering | None = None,
        *,
        mirror: bool = True,
    ) -> Answer:
        """``user``'s ``move`` (made from the game and their seat): by a hand's control
        (``answering``: the click, answered with the hand's new look), or by command
        (answered with the mover's hand as it is now: :meth:`_apply`'s ``mirror``, unless
        typed beside that hand)."""
        loaded, seat = self._games.loaded.seated(record, user)
        act, reply = move(loaded.game, seat)
        copied = mirror and answering is None
        return await self._apply(loaded, act, reply, answering=answering, mirror=copied)

    async def _muggins(self, record: GameRecord, user: User, answering: Answering) -> Answer:
        loaded, seat = self._games.loaded.seated(record, user)
        wrong = False

        def reply(game: Game, events: Sequence[Event]) -> str:
            nonlocal wrong
            taken = next((e for e in events if isinstance(e, Mugginsed)), None)
            if taken is None:
                wrong = True
                return refusals.WRONG_MUGGINS
            return f"Muggins! You take {plural(taken.points, 'point')}."

        answer = await self._apply(loaded, lambda g: g.muggins(seat), reply, answering=answering)
        # A wrong call is said to the caller alone: the table learns nothing of it.
        return dataclasses.replace(answer, note=answer.reply.text) if wrong else answer

    # -- the computer and the clock -------------------------------------------------------------
    async def computer_turn(self, game_id: int) -> None:
        """Make the moves the computer seats owe in a game: the answer to a person's move that
        was left for after the person was answered, saved in its own transaction, on the
        game's sequence. Nothing when none is owed (another call made it first)."""
        now = self._games.now()
        await self._games.on(game_id, lambda r: self._computer_answers(r, now, wait=False))

    async def catch_up(self, game_id: int, now: float | None = None) -> float | None:
        """Make the moves nobody clicks for that are due in the game by ``now``, on the game's
        sequence: the clock's at a manual show, and the computer's answer left for after a
        person's move that was never made. Returns when the next one falls due (None:
        nothing is waiting on time)."""
        if game_id in self._clockless:
            return None
        moment = self._games.now() if now is None else now
        record = await self._games.record(game_id)
        if record is None:
            return None
        if not self._needs_clock(record):
            self._clockless[game_id] = None
            while len(self._clockless) > CLOCKLESS_KEPT:
                del self._clockless[next(iter(self._clockless))]
            return None
        return await self._games.on(game_id, lambda r: self._caught_up(r, moment), read=record)

    async def _caught_up(self, record: GameRecord, now: float) -> float | None:
        """On the game's sequence: the clock's moves due, then the computer's; when the next
        falls due."""
        record, next_move = await self._clock_moves(record, now)
        record, computer_due = await self._computer_answers(record, now)
        times = [t for t in (next_move, computer_due) if t is not None]
        return min(times) if times else None

    @staticmethod
    def _needs_clock(record: GameRecord) -> bool:
        """Whether the clock may ever have a move to make in the game: it is open, and counts
        by hand or has a computer seat that answers after the person (a game's seats and
        options never change once it is dealt)."""
        if not record.is_open:
            return False
        if record.status is GameStatus.LOBBY:
            return True  # its seats may still change
        slow = any(s.is_computer and s.level in THINKS_AT_LENGTH for s in record.seats)
        return record.options.counting is Counting.MANUAL or slow

    def _clock_move(self, record: GameRecord, game: Game) -> tuple[float, ClockMove] | None:
        """The move the clock makes at a manual show, and when: closing the muggins window on
        a claim (at once when no person sits among the opponents, so nobody can call
        it), or counting the hand of a person who has not claimed in time."""
        if record.status is not GameStatus.ACTIVE or game.state.phase is not Phase.SHOW:
            return None
        window = game.state.muggins_window
        if window is not None:
            owner = window.seat
            # Only a person can still call it (a computer that calls muggins did so at once):
            # with no person among the opponents, the window closes without a wait.
            sides = [game.side_of(seat) for seat in range(game.state.num_players)]
            may_call = window.callers(sides)
            callers = [s for s in record.seats if not s.is_computer and s.seat in may_call]
            wait = self._muggins_window if callers else 0.0
            return record.updated_at + wait, lambda g: g.close_muggins(owner)
        turn = game.count_turn
        if turn is None or record.seats[turn.seat].is_computer:
            return None
        seat = turn.seat
        return record.updated_at + self._count_timeout, lambda g: g.auto_count(seat)

    async def _computer_answers(
        self, record: GameRecord, now: float, *, wait: bool = True
    ) -> tuple[GameRecord, float | None]:
        """On the game's sequence: make the computer's owed moves in ``record``'s game; the
        game as it is then, and (``wait``: the clock looking, not the Discord layer right
        after the answer) when to look again if the move is so recent that its answer may
        still be on its way."""
        if record.status is not GameStatus.ACTIVE or record.snapshot is None:
            return record, None
        if not any(seat.is_computer for seat in record.seats):
            return record, None
        loaded = self._games.loaded.load(record)
        if not computer_to_move(record.seats, loaded.game):
            return record, None
        if wait and now < record.updated_at + COMPUTER_ANSWER_AFTER:
            return record, record.updated_at + COMPUTER_ANSWER_AFTER
        await self._apply(loaded, None, lambda g, e: "")
        return await self._games.as_now(record.id), None

    async def _clock_moves(self, record: GameRecord, now: float) -> tuple[GameRecord, float | None]:
        """On the game's sequence: make the clock's moves of a manual show that are due (the
        computer answering as after any move): the game as it is then, and when the next move
        falls due, if any."""
        for _ in range(2 * MAX_CLOCK_MOVES):
            if record.options.counting is not Counting.MANUAL or record.snapshot is None:
                return record, None
            loaded = self._games.loaded.load(record)
            due = self._clock_move(record, loaded.game)
            if due is None or due[0] > now:
                return record, None if due is None else due[0]
            await self._apply(loaded, due[1], lambda g, e: "")
            record = await self._games.as_now(record.id)
        return record, None
