"""Computer seats: their names, their levels, and the moves they make inside a service call.

A computer seat is a :class:`~bot.core.games.records.SeatRecord` with ``is_computer`` set, no user,
and its difficulty in ``level`` (stored in its own column; the name shown at the table, "Hard bot",
"Easy bot 2", only repeats it for the players). Games stored before these names keep the names they
were played with ("Computer (hard)").

:func:`computer_moves` applies, one engine action at a time, every move the computer seats
owe right now (discards at a new deal, plays while it is a computer's turn, and with manual
counting its claims and its calls of muggins). Each move is its own entry in the game's action
log, so a replay or a restart sees exactly what happened.

At a manual show a computer claims its count (exactly at ``hard`` and ``expert``; ``easy``
and ``medium`` miss points the way beginners do, see :mod:`engine.players.claims`) only while
no claim is open to muggins, so people always get the whole window; a ``hard`` or ``expert``
computer calls muggins on an opponent's short claim at once, and any computer opponent that
does not call lets the claim stand at once, so that the next hand waits only on people.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.core.base.choices import level_name
from bot.core.games.records import GameRecord, SeatRecord
from bot.core.worker.thinking import WorkerThinking
from engine.cards import Card
from engine.events import Event
from engine.game import Game
from engine.hint import Hint, hint
from engine.phase import Phase
from engine.players import LEVELS, Level, Player, make_player, role_crib
from engine.players.claims import calls_muggins, computer_claim
from engine.rules import PlayEnd
from engine.variants import STANDARD, named
from engine.views import PublicView, SeatView

__all__ = [
    "LEVELS",
    "THINKS_AT_LENGTH",
    "ComputerPlayers",
    "Step",
    "answers_later",
    "computer_moves",
    "computer_name",
    "computer_to_move",
    "level_note",
    "level_of",
    "snapshot_views",
    "without_tables",
]

#: Levels whose plays take milliseconds rather than microseconds (``expert`` plays each card
#: out against sampled hands): a person's move is answered before such a seat thinks about its
#: reply, which follows as a move of its own (see :func:`answers_later`).
THINKS_AT_LENGTH = frozenset({"expert"})


@dataclass(frozen=True, slots=True)
class Step:
    """One applied engine action: its log entry, its events, every seat's view just before it
    when it is the last card of the play (the coach needs the dealt hands, which the next deal
    replaces; see :func:`snapshot_views`) and the public table right after it (for the
    channel's words)."""

    action: Mapping[str, object]
    events: Sequence[Event]
    before: Mapping[int, SeatView]
    table: PublicView


def computer_name(level: str, seats: Sequence[SeatRecord]) -> str:
    """The name for a new computer seat at ``level``: "Hard bot", then "Hard bot 2" and on,
    so that two computers at one table can be told apart in the channel."""
    base = level_name(level)
    taken = {seat.name for seat in seats}
    # A name for each seat there is, and one more: one of them is free.
    for number in range(1, len(seats) + 2):
        name = base if number == 1 else f"{base} {number}"
        if name not in taken:
            return name
    raise AssertionError("unreachable: more names than seats")


def without_tables(record: GameRecord) -> str | None:
    """The game at ``record``'s table as a player reads it ("five-card cribbage", "cribbage
    for three"), where the expert's tables of the standard two-player game do not hold and
    it plays without them (:mod:`engine.players.expert`: any other variant, and the standard
    game for three or four); None where they hold. The lobby's note of the expert
    (:func:`level_note`) and a review's caveat are both drawn from it."""
    options = record.options
    if role_crib.holds(options.rules):
        return None
    variant = named(options.variant)
    if variant is not STANDARD:
        return variant.title.lower()
    return f"cribbage for {_PLAYERS_SAID.get(options.num_players, str(options.num_players))}"


#: The numbers of players the standard game seats beyond two, as :func:`without_tables` says.
_PLAYERS_SAID = {3: "three", 4: "four"}


def level_note(level: str, record: GameRecord) -> str | None:
    """What a computer at ``level`` does otherwise at ``record``'s table than in the
    standard two-player game, said in the lobby (None: nothing). The expert's crib by
    role, its worth of the kept cards in the play, its guesses at what others keep and its
    chance to win are tables of the standard two-player game (:mod:`engine.players.expert`
    says so): without them (:func:`without_tables`) it plays a level of its own, below its
    standard strength. The other levels' tables (the crib of any four cards) hold in every
    game."""
    game = without_tables(record)
    if level != "expert" or game is None:
        return None
    return (
        f"{level_name(level)} plays {game} without its two-player tables"
        " (the crib by role, the kept cards' worth in the play, the chance to win): it weighs"
        " the crib by the one-card table and plays for points near the end, so it is not at"
        " full expert strength here; the other levels play as they do in the standard game."
    )


def level_of(seat: SeatRecord) -> str:
    """The difficulty of a computer seat."""
    if not seat.is_computer or seat.level not in LEVELS:
        raise ValueError(f"Seat {seat.seat} is not a computer seat with a level.")
    return seat.level


class ComputerPlayers:
    """One engine player per level (they keep no state between decisions), the random source
    their choices use, and where the levels that think at length make their plays (a worker
    process in the running bot, see :mod:`bot.core.worker.thinking`; here, on the loop, without)."""

    def __init__(self, rng: random.Random, thinking: WorkerThinking | None) -> None:
        self.rng = rng
        self.thinking = thinking
        self._players: dict[str, Player] = {level: make_player(level) for level in LEVELS}

    def choose_discard(self, seat: SeatRecord, view: SeatView) -> tuple[Card, ...]:
        """The cards a computer seat throws from its view (quick at every level). A level that
        thinks at length has its worker started now, a deal before its first play."""
        level = level_of(seat)
        if self.thinking is not None and level in self.thinking.levels:
            self.thinking.start()
        return self._players[level].choose_discard(view, self.rng)

    async def choose_play(self, seat: SeatRecord, view: SeatView) -> Card:
        """The card a computer seat plays from its view."""
        level = level_of(seat)
        if self.thinking is not None and level in self.thinking.levels:
            return await self.thinking.choose_play(level, view, self.rng.getrandbits(63))
        return self._players[level].choose_play(view, self.rng)

    async def hint(self, view: SeatView, seed: int) -> Hint:
        """The expert's hint for a person's seat (:mod:`engine.hint`), its play-outs drawn
        from ``seed``: made where the expert thinks (the worker process, when there is one),
        never holding the loop. ``ValueError`` when the seat has nothing to decide."""
        if self.thinking is not None:
            return await self.thinking.hint(view, seed)
        return hint(self._players[Level.EXPERT], view, random.Random(seed))


def _show_move(
    seats: Sequence[SeatRecord], game: Game, players: ComputerPlayers
) -> list[Event] | None:
    """At a manual show: a computer's call of muggins or claim, or None when it is for a
    person (or the clock) to act."""
    window = game.state.muggins_window
    if window is not None:
        for k in range(1, game.state.num_players):
            seat = (window.seat + k) % game.state.num_players
            record = seats[seat]
            opponent = game.side_of(seat) != window.side
            # A computer that calls muggins counts the hand itself: it calls only a claim that
            # missed points (a wrong call would cost it the chance for nothing).
            if not (opponent and record.is_computer) or seat in window.passed:
                continue
            if calls_muggins(level_of(record)) and game.muggins_missed() > 0:
                return game.muggins(seat)
            if window.waits:
                # It lets the claim stand at once, so that the next hand waits only on people.
                return game.pass_muggins(seat)
        return None  # the window stays open for the people (or the timer)
    turn = game.count_turn
    if turn is None or not seats[turn.seat].is_computer:
        return None
    starter = game.state.starter
    assert starter is not None  # the show comes after the starter
    level = level_of(seats[turn.seat])
    points = computer_claim(
        level, turn.cards, starter, crib=turn.crib, rules=game.state.rules, rng=players.rng
    )
    return game.claim(turn.seat, points, open_window=True, waits=True)


def _next_computer(seats: Sequence[SeatRecord], game: Game) -> int | None:
    """The computer seat that must act now, or None when a person has to."""
    if game.state.phase is Phase.DISCARD:
        for seat in game.pending_discards():
            if seats[seat].is_computer:
                return seat
        return None
    if (
        game.state.phase is Phase.PLAY
        and game.state.turn is not None
        and seats[game.state.turn].is_computer
    ):
        return game.state.turn
    return None


def computer_to_move(seats: Sequence[SeatRecord], game: Game) -> bool:
    """Whether a computer seat must discard or play now (a move it owes, not a person's)."""
    return _next_computer(seats, game) is not None


def answers_later(seats: Sequence[SeatRecord], game: Game) -> bool:
    """Whether the computer's answer to the move just made is left for after the person has
    been answered: it is a computer's turn to play and its level thinks at length. Its discards
    and show moves are quick and always made with the move that calls for them."""
    seat = _next_computer(seats, game)
    return (
        seat is not None
        and game.state.phase is Phase.PLAY
        and seats[seat].level in THINKS_AT_LENGTH
    )


def snapshot_views(game: Game) -> dict[int, SeatView]:
    """Every seat's view just before a play that may end the play, the only action that ends
    a deal (and so replaces the dealt hands the coach needs): the last card, or any card when
    the play ends at the first go or 31 (five-card cribbage); empty before any other action."""
    if game.state.phase is not Phase.PLAY:
        return {}
    one_pass = game.state.rules.play_end is PlayEnd.FIRST_GO
    if not one_pass and sum(len(game.hand(seat)) for seat in range(game.state.num_players)) != 1:
        return {}
    return {seat: game.view(seat) for seat in range(game.state.num_players)}


async def computer_moves(
    seats: Sequence[SeatRecord], game: Game, players: ComputerPlayers
) -> list[Step]:
    """Make every move the computer seats owe now, each as its own engine action.

    Stops when a person must act or the game is over. A game always has a person in it (the
    creator), so this ends.
    """
    steps: list[Step] = []
    while True:
        if game.state.phase is Phase.SHOW:
            shown = _show_move(seats, game, players)
            if shown is None:
                return steps
            steps.append(Step(game.actions[-1], shown, {}, game.public_view()))
            continue
        seat = _next_computer(seats, game)
        if seat is None:
            return steps
        view = game.view(seat)
        before = snapshot_views(game)
        if game.state.phase is Phase.DISCARD:
            events = game.discard(seat, players.choose_discard(seats[seat], view))
        else:
            events = game.play(seat, await players.choose_play(seats[seat], view))
        steps.append(Step(game.actions[-1], events, before, game.public_view()))
