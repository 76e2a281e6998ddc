"""What the web fuzz tests (tests/bot/web/test_activity_fuzz.py, test_page_fuzz.py) share:
channels with games in several states ("places": a lobby, a deal in progress at each phase,
finished games, several variants), Discord as the Activity's server asks it for all of them,
what a person may know of a game, and the checks every answer must pass (no 5xx, nothing
logged as an error, a refusal one short sentence, nothing stored changed).

A place is made the first time an example asks for it and kept while nothing changes it: most
calls the tests make are refused and change nothing, so one place serves many examples. A call
that was taken marks it spent, and the next example that asks for it gets a new one in a
channel of its own (its cards dealt anew: the deals follow the game's id).
"""

from __future__ import annotations

import itertools
import json
import logging
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bot.core.base import refusals
from bot.core.base.replies import TableAsked, User
from bot.core.deck.shuffles import ScriptedRandom
from bot.core.games import snapshot
from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord
from bot.core.services import Services
from bot.store import Store
from bot.web.activity.identity import ActivityPerson, ActivityPlace, ActivityRefused
from engine.cards import Card, full_deck
from engine.game import Game
from engine.phase import Phase
from engine.scoring import score_hand
from tests.helpers.answer_checks import one_sentence as a_sentence
from tests.helpers.card_leaks import (
    CARD_WORDS,
    cards_in_text,
    cards_named,
    public_cards,
    revealed_by,
)
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO, GUILD
from tests.helpers.service_driver import Transcript, drive, finished_game, open_table, state

__all__ = [
    "DECK",
    "ELSEWHERE",
    "FUZZ",
    "GUS",
    "NAMES",
    "PATIENCE",
    "PEOPLE",
    "PLACES",
    "ActivitySide",
    "Clockwork",
    "Knowledge",
    "Place",
    "Places",
    "ShownByName",
    "assert_quiet",
    "one_sentence",
    "page_cards",
    "weighted",
    "worth",
]

#: A sixth player for the full table of six (Cy is never seated anywhere: the outsider).
GUS = User(7, "Gus")
#: Everyone the tests sign in as: the places' players and Cy, who sits at none of them.
PEOPLE = (AL, BEA, CY, DEE, EVE, FLO, GUS)
DECK = tuple(full_deck())
#: The web's property tests: a hundred requests each (a test builds its places once and
#: keeps them until a request changes one: a function-scoped fixture is meant).
FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: How long a test waits on a live socket or page for what it asked before calling it lost
#: (never a measure).
PATIENCE = 10.0
#: A refusal is one sentence a person reads at a glance.
SENTENCE_CHARS = 300


class ShownByName:
    """A test's fixture that Hypothesis prints by its ``name`` alone: Hypothesis prints a
    failing example's arguments, this fixture's among them, and would print every field."""

    #: What a failing example says for the fixture.
    name: ClassVar[str] = "fixture"

    def __repr__(self) -> str:
        return self.name


def one_sentence(text: object) -> bool:
    """Whether ``text`` is a refusal as a person should read it: one short line, a sentence
    (as the core's refusals are, :func:`tests.helpers.answer_checks.one_sentence`)."""
    return isinstance(text, str) and len(text) <= SENTENCE_CHARS and a_sentence(text.strip())


def assert_quiet(caplog: pytest.LogCaptureFixture, what: object) -> None:
    """Nothing was logged as an error, and no traceback at any level, since ``caplog`` was
    last cleared: a handler that failed (aiohttp logs it and answers 500, or a live page's
    drawing caught it) shows here even when the answer looked right."""
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    said = [f"{r.name}: {r.getMessage()} {r.exc_info[1] if r.exc_info else ''!r}" for r in bad]
    assert not bad, f"{what} logged {said}"


def page_cards(text: str) -> set[Card]:
    """The cards an HTML page names as people read them (``5♥``, ``5 of hearts``); not the
    codes: the links' signatures are base64, where ``-5H_`` is no card."""
    found = cards_in_text(text)
    ranks = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
    for rank, suit in CARD_WORDS.findall(text):
        found.add(Card.parse(ranks.get(rank, rank) + suit[0].upper()))
    return found


class Clockwork:
    """A clock that moves a minute each time it is read: the Activity's limit on code
    exchanges per minute never refuses the tests' sign-ins (many examples, one server)."""

    def __init__(self) -> None:
        self._now = 0.0

    def __call__(self) -> float:
        self._now += 60.0
        return self._now


class ActivitySide:
    """Discord as the Activity's server asks it, for every place at once: a code is
    ``code-<user id>`` of one of :data:`PEOPLE` (anything else is refused as Discord refuses
    a used or made-up code), an instance is ``i-<channel id>`` of a channel the tests named
    (anything else: no such instance), with everyone in it; the bot is in the tests' server."""

    application_id = 424242

    def __init__(self) -> None:
        self._people = {f"token-{u.id}": u for u in PEOPLE}
        self.channels: set[int] = set()

    async def exchange(self, code: str) -> str:
        token = "token-" + code.removeprefix("code-")
        if not code.startswith("code-") or token not in self._people:
            raise ActivityRefused("That sign-in expired.")
        return token

    async def person(self, access_token: str) -> ActivityPerson:
        user = self._people.get(access_token)
        if user is None:
            raise ActivityRefused("That sign-in expired.")
        return ActivityPerson(user.id, user.name, None)

    async def place(self, instance_id: str) -> ActivityPlace | None:
        channel = instance_id.removeprefix("i-")
        if not instance_id.startswith("i-") or not channel.isdecimal():
            return None
        if int(channel) not in self.channels:
            return None
        return ActivityPlace(int(channel), GUILD, frozenset(u.id for u in PEOPLE))

    def bot_in(self, guild_id: int | None) -> bool:
        return guild_id == GUILD

    async def bots_dm(self, channel_id: int, user_id: int) -> bool:
        return False

    async def names(self, user_ids: Sequence[int], guild_id: int | None) -> dict[int, str]:
        known = {u.id: u.name for u in PEOPLE}
        return {i: known[i] for i in user_ids if i in known}


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each drawn as often as its weight says. (``st.one_of`` takes a
    ``one_of`` among its choices apart into its own, so a choice made of many small ones, as
    the tests' bodies that are not JSON are, would crowd out the rest.)"""
    return st.sampled_from([s for weight, s in choices for _ in range(weight)]).flatmap(
        lambda chosen: chosen
    )


# -- places ---------------------------------------------------------------------------------


@dataclass
class Place:
    """A channel and the game last opened there (None: none ever was)."""

    name: str
    channel_id: int
    game_id: int | None


Build = Callable[[Services, int], Awaitable[int | None]]


async def _stored_game(service: Services, game_id: int) -> Game:
    record = await service.games.record(game_id)
    assert record is not None and record.snapshot is not None
    return snapshot.decode(record.snapshot, random.Random(0)).game


async def _until(
    service: Services,
    table: Transcript,
    users: tuple[User, ...],
    done: Callable[[Game], bool],
    most: int = 200,
) -> int:
    """Make the plainest moves, one at a time, until ``done`` holds of the game."""
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    for _ in range(most):
        if done(await _stored_game(service, game_id)):
            return game_id
        await drive(service, table, users, stop_after=1)
    raise AssertionError("the game never got there")


async def _nothing(service: Services, channel: int) -> int | None:
    return None


async def _lobby(service: Services, channel: int) -> int | None:
    """Al's lobby for two, nobody else seated yet."""
    opened = await service.lobbies.new_game(GUILD, channel, AL, TableAsked(players=2, target=121))
    assert opened.ok, opened.reply.text
    return opened.game_id


async def _full_lobby(service: Services, channel: int) -> int | None:
    """A full lobby of six-hand in three teams of two, not dealt (partners may change)."""
    opened = await service.lobbies.new_game(
        GUILD, channel, AL, TableAsked(players=6, variant="six_hand_pairs", target=61)
    )
    assert opened.ok, opened.reply.text
    for user in (BEA, DEE, EVE, FLO, GUS):
        joined = await service.lobbies.join(channel, user)
        assert joined.ok, joined.reply.text
    return opened.game_id


async def _cancelled(service: Services, channel: int) -> int | None:
    """A lobby its opener cancelled: the channel's last game, no open one."""
    game_id = await _lobby(service, channel)
    cancelled = await service.lobbies.ask_cancel(channel, AL)
    assert cancelled.ok, cancelled.reply.text
    return game_id


async def _discard(service: Services, channel: int) -> int | None:
    """Five-card cribbage just dealt: both players to throw."""
    table = await open_table(service, [AL, BEA], target=61, channel=channel, variant="five_card")
    return table.outcomes[0].game_id


async def _play(service: Services, channel: int) -> int | None:
    """Three players to 61, the crib thrown, cards being played."""
    users = (AL, BEA, DEE)
    table = await open_table(service, users, target=61, channel=channel)
    return await _until(service, table, users, lambda g: g.state.phase is Phase.PLAY)


async def _manual_show(service: Services, channel: int) -> int | None:
    """Two players counting by hand: a hand's count is asked for (claims, muggins)."""
    users = (AL, BEA)
    table = await open_table(service, users, target=121, channel=channel, counting="manual")
    return await _until(service, table, users, lambda g: g.count_turn is not None)


async def _second_deal(service: Services, channel: int) -> int | None:
    """Seven-card cribbage in its second deal, cards being played (the first deal's show
    is on the table)."""
    users = (AL, BEA)
    table = await open_table(service, users, target=181, channel=channel, variant="seven_card")
    return await _until(
        service, table, users, lambda g: g.state.deal_number == 2 and g.state.phase is Phase.PLAY
    )


async def _computer(service: Services, channel: int) -> int | None:
    """Al against the computer (easy), dealt at once."""
    opened = await service.lobbies.new_game(
        GUILD, channel, AL, TableAsked(players=2, target=61, vs_computer=True, level="easy")
    )
    assert opened.ok, opened.reply.text
    await Transcript(service).record(AL.id, opened)
    return opened.game_id


async def _finished(service: Services, channel: int) -> int | None:
    """A whole game to 61 between Al and Bea, played to its end."""
    return (await finished_game(service, channel=channel))[1]


async def _resigned(service: Services, channel: int) -> int | None:
    """Four players in teams, Bea resigning for hers during the first play."""
    users = (AL, BEA, DEE, EVE)
    table = await open_table(service, users, target=121, channel=channel)
    game_id = await _until(service, table, users, lambda g: g.state.phase is Phase.PLAY)
    resigned = await service.moves.resign(channel, BEA)
    assert resigned.ok, resigned.reply.text
    record = await service.games.record(game_id)
    assert record is not None and not record.is_open
    return game_id


#: Every place, by name: how it is made.
PLACES: dict[str, Build] = {
    "no game": _nothing,
    "lobby": _lobby,
    "full lobby of six": _full_lobby,
    "cancelled": _cancelled,
    "five-card, discards": _discard,
    "three players, the play": _play,
    "counted by hand": _manual_show,
    "seven-card, second deal": _second_deal,
    "against the computer": _computer,
    "finished": _finished,
    "resigned": _resigned,
}
#: The places by name, in a fixed order for Hypothesis to draw from.
NAMES = sorted(PLACES)
#: A place whose channel is another than the one a session is drawn for.
ELSEWHERE = "lobby elsewhere"


async def _elsewhere(service: Services, channel: int) -> int | None:
    """Cy's lobby in a channel of its own: what a page of another channel may not touch."""
    opened = await service.lobbies.new_game(GUILD, channel, CY, TableAsked(players=3, target=61))
    assert opened.ok, opened.reply.text
    return opened.game_id


@dataclass
class Places:
    """The places made so far for one test (its store), each kept until a call changes it."""

    service: Services
    store: Store
    side: ActivitySide | None = None
    channels: Iterator[int] = field(default_factory=lambda: itertools.count(20_000))
    _made: dict[str, Place] = field(default_factory=dict)

    async def get(self, name: str) -> Place:
        """The place ``name``, made now if it is not kept."""
        place = self._made.get(name)
        if place is None:
            channel = next(self.channels)
            build = _elsewhere if name == ELSEWHERE else PLACES[name]
            place = Place(name, channel, await build(self.service, channel))
            if self.side is not None:
                self.side.channels.add(channel)
            self._made[name] = place
        return place

    def spend(self, place: Place) -> None:
        """A call changed the place: the next example gets a new one."""
        if self._made.get(place.name) is place:
            del self._made[place.name]

    async def stored(self, place: Place) -> tuple[object, ...]:
        """Everything stored about the place's channel: its open game, its last game, and all
        of the place's game (its record and every action)."""
        store = self.store
        channel = place.channel_id
        game = None if place.game_id is None else await state(store, place.game_id)
        return (
            await store.open_game_in_channel(channel),
            await store.last_game_in_channel(channel),
            game,
        )


#: The bot's refusals that are always the same words.
FIXED_SENTENCES = frozenset(
    text for name, text in vars(refusals).items() if isinstance(text, str) and name.isupper()
)


def _card_reading_words() -> frozenset[str]:
    """The fixed words of the engine's refusals of a card it cannot read, which give examples
    ("like 5H or 10D": no card of the game): each refusal after the input it quotes."""
    words = set()
    for raw in ("", "zz", "5Z", 5):
        try:
            Card.parse(raw)  # type: ignore[arg-type]
        except ValueError as error:
            words.add(str(error).split("\u201d", 1)[-1])
    return frozenset(words)


#: See :func:`_card_reading_words`.
CARD_READING_WORDS = _card_reading_words()


# -- what a person may know -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one reader may know of one game at one moment: ``now``, the cards of the deal
    being played (the public ones and, seated, their own); ``before``, what earlier deals made
    public (a show of the deal before and the coach's line about it may name those, though
    some are in someone's hand again); ``everything``: a game over whose shuffles were not
    recorded (what its deals showed cannot be worked out again). A game over may be told
    again deal by deal, so of one both hold every card any deal showed."""

    now: frozenset[Card]
    before: frozenset[Card]
    everything: bool = False

    @classmethod
    def of(cls, loaded: Loaded | None, seat: int | None) -> Knowledge:
        """What ``seat`` (None: someone not seated) may know of ``loaded`` (None: a game not
        dealt, where nobody knows a card)."""
        if loaded is None:
            return cls(frozenset(), frozenset())
        game, log = loaded.game, loaded.log
        if game.state.phase is Phase.OVER:
            return cls._over(loaded, seat)
        deal = game.state.deal_number
        now = public_cards(game) | revealed_by(log.events(deal)) | revealed_by(log.events(0))
        if seat is not None:
            mine = game.view(seat)
            now |= {*mine.hand, *mine.kept, *mine.discards}
        earlier = set().union(*(revealed_by(log.events(d)) for d in log.deals if d < deal))
        return cls(frozenset(now), frozenset(earlier))

    @classmethod
    def _over(cls, loaded: Loaded, seat: int | None) -> Knowledge:
        """What ``seat`` may know of a game over: every card the table saw in any deal (played,
        cut, shown or claimed: the game dealt again from its shuffles and its actions applied,
        not the bot's own deal log, which keeps the last deals alone) and, seated, their own
        cards of the last deal. A deal the game ended in before its crib's show keeps the
        cards nobody saw (what was thrown, what was kept but never played or shown)."""
        game = loaded.game
        if loaded.shuffles is None:
            return cls(frozenset(DECK), frozenset(DECK), everything=True)
        again, first = Game.new(
            list(game.state.players),
            rng=ScriptedRandom(list(loaded.shuffles)),
            rules=game.state.rules,
            dealer=game.state.given_dealer,
        )
        seen = revealed_by(first)
        for action in game.actions:
            seen |= revealed_by(again.apply(action))
        if seat is not None:
            mine = game.view(seat)
            seen |= {*mine.hand, *mine.kept, *mine.discards}
        return cls(frozenset(seen), frozenset(seen))

    def __or__(self, other: Knowledge) -> Knowledge:
        return Knowledge(
            self.now | other.now, self.before | other.before, self.everything or other.everything
        )

    def check_state(self, state: dict[str, Any], what: object) -> int:
        """An Activity state names only cards its reader may know (whatever the request named:
        a state is drawn from what is stored alone): its show and coach's line may name what
        earlier deals showed, the rest only this deal's. How many cards it names (0 for a
        game over: every card may be named)."""
        if self.everything:
            return 0
        rest = {k: v for k, v in state.items() if k not in ("show", "coach")}
        named = cards_named(json.dumps(rest, ensure_ascii=False))
        leaked = named - self.now
        assert not leaked, f"{what}: the state names {sorted(map(str, leaked))}: {state}"
        told = {k: state.get(k) for k in ("show", "coach")}
        shown = cards_named(json.dumps(told, ensure_ascii=False))
        leaked = shown - self.now - self.before
        assert not leaked, f"{what}: its show or coach names {sorted(map(str, leaked))}: {told}"
        return len(named | shown)

    def check_text(self, text: str, asked: set[Card], what: object) -> None:
        """A sentence said to the reader names only cards they may know (now or from the
        deals before: a coach's line, a show's total) or named themselves. (Some of the bot's
        fixed refusals name an example, "like 7C" or "like 5H or 10D", which is no card of the
        game.)"""
        if self.everything or text in FIXED_SENTENCES:
            return
        for words in CARD_READING_WORDS:
            text = text.replace(words, "")
        leaked = cards_named(text) - self.now - self.before - asked
        assert not leaked, f"{what}: said {sorted(map(str, leaked))}: {text!r}"


def worth(game: Game) -> int | None:
    """What the hand a manual show waits on is worth (None: none waits)."""
    turn = game.count_turn
    if turn is None or game.state.starter is None:
        return None
    return score_hand(turn.cards, game.state.starter, crib=turn.crib, rules=game.state.rules).total


def record_seat(record: GameRecord | None, user_id: int) -> int | None:
    """The seat ``user_id`` holds at ``record``'s game (None: none, or no game)."""
    return None if record is None else record.seat_of(user_id)
