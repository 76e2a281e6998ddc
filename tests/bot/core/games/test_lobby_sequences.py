"""The lobby driven by random sequences of what six people do (property-based: Hypothesis
writes the sequences), at every table a registered variant offers: its buttons and the "Add
computer" menu, a button no lobby has, ``/cribbage join``, ``leave``, ``start`` and ``cancel``,
and ``/cribbage new`` with options good and bad. Every call is answered, ok or with one
sentence, and nothing raises; a refusal changes nothing stored; a lobby's seats stay whole
(no more than the table has, numbered from 0 in order, nobody twice, its creator first); a
game that deals is dealt to the seated players in their seats, with the variant's sides."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hypothesis import event, example, given, note
from hypothesis import strategies as st

from bot.core.base.replies import Answer, TableAsked, User
from bot.core.base.views import LOBBY_ACTIONS
from bot.core.games.computer import LEVELS
from bot.core.games.lobby import TEAMS
from bot.core.games.records import GameRecord, GameStatus
from bot.core.services import Services
from bot.store import Store
from engine.counting import Counting
from engine.outcome import Scoring
from engine.variants import SIX_HAND, listed, named
from tests.helpers.answer_checks import one_sentence
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO, GUILD
from tests.helpers.sequences import on_the_store
from tests.helpers.service_driver import load, state

PEOPLE = (AL, BEA, CY, DEE, EVE, FLO)

#: The lobby's buttons (but *Your hand* and *Play at the table*, which change nothing) and its
#: menu's levels, and two actions no lobby offers (an unknown button, a level there is not).
CLICKS = (
    *(action for action in LOBBY_ACTIONS if action not in ("hand", "table")),
    *(f"computer:{level}" for level in LEVELS),
    "computer:grandmaster",
    "shuffle",
)
#: The slash commands that act on the channel's lobby.
COMMANDS = ("/join", "/leave", "/start", "/cancel")
#: ``/cribbage new``, with the options drawn for it (:class:`TableAsked`).
NEW = "/new"


Step = tuple[int, str | TableAsked]

# Each option's values the command offers, and some it does not (a player count of no table,
# a variant, target, layout, level, scale and way of counting there are not).
openings = st.builds(
    TableAsked,
    players=st.none() | st.integers(0, 8),
    variant=st.none() | st.sampled_from([*(v.name for v in listed()), "nine_card"]),
    target=st.none() | st.sampled_from([61, 121, 181, 0, 1000]),
    teams=st.none() | st.sampled_from([*TEAMS, "quads"]),
    vs_computer=st.booleans(),
    level=st.sampled_from([*LEVELS, "grandmaster"]),
    scoring=st.sampled_from([*Scoring, "double"]),
    counting=st.sampled_from([*Counting, "maybe"]),
    hints=st.booleans(),
)


#: How often each is drawn (out of the weights' sum): mostly what fills a table and what may
#: be done once it is full, since a table of six fills only after five joins by five people.
WEIGHTS = {
    **dict.fromkeys(CLICKS, 1),
    **dict.fromkeys(COMMANDS, 1),
    "join": 10,
    "/join": 5,
    "start": 2,
    "partners": 3,
    NEW: 1,
}


@st.composite
def steps(draw: st.DrawFn) -> Step:
    """Who acts (an index into PEOPLE) and what they do: a lobby action or ``/cribbage
    new`` with its options (:data:`WEIGHTS`)."""
    person = draw(st.integers(0, len(PEOPLE) - 1))
    action = draw(st.sampled_from([a for a, weight in WEIGHTS.items() for _ in range(weight)]))
    return person, draw(openings) if action == NEW else action


def tables() -> list[tuple[str, int, str | None]]:
    """Every table ``/cribbage new`` opens with a variant named: each registered variant at
    each number of seats it offers, and with six seats each ``teams`` it takes (six-hand
    names the deal, laid out in either; another variant takes its own layout's name)."""
    found: list[tuple[str, int, str | None]] = []
    for variant in listed():
        for seats in variant.seats:
            layouts = (None, *TEAMS) if seats in SIX_HAND.seats else (None,)
            found += [
                (variant.name, seats, teams)
                for teams in layouts
                if teams is None or variant is SIX_HAND or TEAMS[teams] is variant
            ]
    return found


TABLES = tables()

#: A channel of its own for each table of each example: the fixtures' store outlives the examples.
CHANNELS = itertools.count(10_000)

SEQUENCES = on_the_store(10)


@dataclass
class Channel:
    """One channel's lobbies as the test drives them: the game last opened there (None:
    none yet) and whether it has been dealt."""

    store: Store
    service: Services
    channel_id: int
    game_id: int | None = None
    dealt: bool = False

    async def act(self, user: User, action: str | TableAsked) -> Answer:
        """Make the call, then check its answer, what it stored and the lobby's seats."""
        before = await self._stored()
        answer = await self._call(user, action)
        # How often each action went through (pytest --hypothesis-show-statistics): what the
        # weights are tuned by.
        event(f"{NEW if isinstance(action, TableAsked) else action}: {'ok' if answer.ok else 'no'}")
        assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
        if not answer.ok:
            assert await self._stored() == before, f"refused, yet changed: {answer.reply.text}"
            return answer
        assert answer.reply.text or answer.reply.view is not None
        if isinstance(action, TableAsked):
            assert answer.game_id is not None and answer.game_id != self.game_id
            self.game_id, self.dealt = answer.game_id, False
        record = await self._record()
        if isinstance(action, TableAsked):
            _check_opened(record, action, user)
        if record.status is GameStatus.LOBBY:
            _check_lobby(record)
        elif record.status is GameStatus.ACTIVE and not self.dealt:
            # Dealt just now, by a start or by /cribbage new against the computer.
            await _check_dealt(self.store, record)
            self.dealt = True
        return answer

    async def _call(self, user: User, action: str | TableAsked) -> Answer:
        lobbies, channel = self.service.lobbies, self.channel_id
        if isinstance(action, TableAsked):
            return await lobbies.new_game(GUILD, channel, user, action)
        match action:
            case "/join":
                return await lobbies.join(channel, user)
            case "/leave":
                return await lobbies.leave(channel, user)
            case "/start":
                return await lobbies.start(channel, user)
            case "/cancel":
                # /cribbage cancel: a lobby is cancelled at once, a game dealt asks first.
                return await lobbies.ask_cancel(channel, user)
        # Before any game opened here, a click names a game there is not.
        return await lobbies.click(self.game_id or 0, action, user, guild_id=GUILD)

    async def _stored(self) -> tuple[object, ...]:
        """Everything stored about the channel: its open game and all of the game last
        opened there."""
        opened = await self.store.open_game_in_channel(self.channel_id)
        return opened, None if self.game_id is None else await state(self.store, self.game_id)

    async def _record(self) -> GameRecord:
        assert self.game_id is not None
        record = await self.store.get_game(self.game_id)
        assert record is not None
        return record


def _check_opened(record: GameRecord, asked: TableAsked, user: User) -> None:
    """An opened game is the table asked for, with ``user`` in the first seat."""
    assert record.creator_id == user.id and record.seats[0].user_id == user.id
    variant = named(record.options.variant)
    assert record.options.num_players in variant.seats and record.options.target in variant.targets
    if asked.players is not None:
        assert record.options.num_players == asked.players
    if asked.target is not None:
        assert record.options.target == asked.target
    if asked.teams is not None:
        assert variant is TEAMS[asked.teams]
    elif asked.variant is not None:
        assert record.options.variant == asked.variant
    assert (record.options.scoring, record.options.counting) == (asked.scoring, asked.counting)
    assert (record.options.vs_computer, record.options.hints) == (asked.vs_computer, asked.hints)
    # Against the computer the table is full and dealt at once; otherwise a lobby opens.
    if asked.vs_computer:
        assert record.status is GameStatus.ACTIVE
        assert all(s.is_computer and s.level == asked.level for s in record.seats[1:])
    else:
        assert record.status is GameStatus.LOBBY and len(record.seats) == 1


def _check_lobby(record: GameRecord) -> None:
    """An open lobby's seats: no more than the table's, numbered 0, 1, ... in order, nobody
    twice, the creator first (the creator leaving closes it), every computer at a level."""
    seats = record.seats
    assert len(seats) <= record.options.num_players
    assert [s.seat for s in seats] == list(range(len(seats)))
    people = [s.user_id for s in seats if not s.is_computer]
    assert len(people) == len(set(people)) and None not in people
    assert seats and not seats[0].is_computer and seats[0].user_id == record.creator_id
    assert all(s.user_id is None and s.level in LEVELS for s in seats if s.is_computer)


async def _check_dealt(store: Store, record: GameRecord) -> None:
    """A game just dealt: every seat taken, and the engine's game, as stored, has the seated
    players in their seats, by the rules of the table's variant (its sides among them)."""
    assert len(record.seats) == record.options.num_players
    game = await load(store, record.id)
    assert game.state.num_players == record.options.num_players
    assert game.state.players == tuple(s.name for s in record.seats)
    rules = named(record.options.variant).rules(
        record.options.num_players,
        record.options.target,
        record.options.scoring,
        record.options.counting,
    )
    assert game.state.rules == rules
    assert game.state.rules.num_sides == len(rules.sides)
    assert all(game.side_of(seat) == side for side, team in enumerate(rules.sides) for seat in team)


@SEQUENCES
@given(sequence=st.lists(steps(), min_size=10, max_size=40))
# Always: each table filled by everyone joining, partners changed, dealt; and filled by its
# creator's computers, one taken away again for a person, dealt.
@example(sequence=[*((i, "join") for i in range(1, 6)), (0, "partners"), (0, "/start")])
@example(
    sequence=[
        *((0, f"computer:{level}") for level in (*LEVELS, LEVELS[0])),
        (0, "partners"),
        (0, "remove_computer"),
        (1, "/join"),
        (1, "start"),
    ]
)
async def test_any_sequence_in_any_lobby_is_answered_and_keeps_it_whole(
    store: Store, service: Services, sequence: list[Step]
) -> None:
    """At each table a variant offers, opened by Al, the people's calls in ``sequence``
    each raise nothing, and are answered ok or refused in a sentence that changed nothing;
    the lobby stays whole and a game dealt is the table's (see the checks above)."""
    # The same sequence at every table, each in a channel of its own: one database for all
    # of them (a PostgreSQL database takes longer to make than a sequence to run).
    for variant, players, teams in TABLES:
        note(f"At a table of {variant} for {players}, teams {teams}:")
        channel = Channel(store, service, next(CHANNELS))
        opened = await channel.act(AL, TableAsked(players=players, variant=variant, teams=teams))
        assert opened.ok, opened.reply.text
        for person, action in sequence:
            await channel.act(PEOPLE[person], action)
