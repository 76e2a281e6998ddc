"""A seated game driven by random sequences of what its players (and one person not seated)
do (property-based: Hypothesis writes the sequences), at every table a registered variant
offers (at six, each teams layout), counted by the engine and by hand: the moves their hand
messages offer, by click and by command, mixed with wrong ones (out of turn, by someone not
seated, cards not held or wrongly many, impossible claims, muggins with none open, a click
from an earlier moment), resignations asked, declined and confirmed, the read-only calls
(``/cribbage hand``, the table, autocomplete with odd text) and time running out at a manual
show.

After every call: nothing raised; the answer is ok, or a refusal in one sentence that changed
nothing stored; a move is accepted exactly when the engine's rules take it (every move a hand
message offers is), and the hand messages offer controls to exactly those the game waits on;
nothing said to one person (a reply, the look it gives their hand, a note, a DM, an
autocomplete choice) names a card they may not know; scores only grow, and a game that ends
has the result its scores (or a resignation) make, in its result rows too."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from hypothesis import event, example, given, note
from hypothesis import strategies as st

from bot.core.base.replies import Answer, Choice, Click, ClickKind, User
from bot.core.base.views import ConfirmControls, HandControls, MessageView
from bot.core.games import snapshot
from bot.core.games.records import GameRecord, GameStatus
from bot.core.messages.prompts import controls_for
from bot.core.play.moves import COUNT_TIMEOUT, MUGGINS_WINDOW
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card, full_deck
from engine.counting import Counting
from engine.errors import RuleError
from engine.game import Game
from engine.outcome import EndReason, Scoring
from engine.phase import Phase
from engine.scoring import claim_values, score_hand
from engine.variants import FIVE_CARD
from tests.helpers.answer_checks import one_sentence
from tests.helpers.card_leaks import COACH_LINE, CUT_LINE, cards_in_text, public_cards
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO, GUILD
from tests.helpers.core_build import build_core
from tests.helpers.sequences import on_the_store
from tests.helpers.service_driver import Clock, Transcript, open_table, state
from tests.helpers.variant_tables import Table, every_table

PEOPLE = (AL, BEA, CY, DEE, EVE, FLO)
#: Someone seated at none of the tables, and the ``who`` of a step that is him.
GUS = User(7, "Gus")
OUTSIDER = 6
DECK = tuple(full_deck())

# -- the tables ------------------------------------------------------------------------------


TABLES = every_table()

# -- what the players do ---------------------------------------------------------------------

#: What a step does (see :meth:`Sitting.step`), and how often each is drawn (out of the
#: weights' sum): mostly the moves the hand messages offer, one at a time or several in a row,
#: so that games get through their discards and plays to the show and the next deal, among
#: every kind of wrong call.
WEIGHTS = {
    "move": 8,  # the live controls of someone's hand message, clicked
    "command": 4,  # the same move by /cribbage discard, play or count
    "run": 3,  # 2 to 14 such moves in a row, to reach shows and later deals
    "wrong_turn": 2,  # a move by a seated player while they have nothing to do
    "not_held": 1,  # a card the player does not hold (perhaps someone else does)
    "wrong_many": 1,  # too few or too many cards, or one card twice
    "bad_claim": 1,  # a count no hand makes: negative, over 29, huge, not a number
    "muggins": 2,  # Muggins! clicked by anyone (none open, on their own side, twice)
    "pass": 1,  # the claim let stand, by anyone
    "stale": 1,  # a click on controls of an earlier moment
    "resign": 2,  # the question asked, declined or confirmed, by anyone
    "look": 2,  # /cribbage hand, the table, the autocomplete of discard and play
    "wait": 1,  # the muggins window or the time to count runs out
}
#: A step: what (a key of WEIGHTS; or "show": moves until a manual show waits on a claim or
#: the deal is over, "deal": until the deal is over, "game": until the game is), who (which
#: person, where it matters) and a number that picks among the choices the moment offers.
Step = tuple[str, int, int]
steps = st.tuples(
    st.sampled_from([what for what, weight in WEIGHTS.items() for _ in range(weight)]),
    st.integers(0, OUTSIDER),
    st.integers(0, 2**16),
)
#: The most moves a "show" or "deal" step makes (a deal of six counted by hand takes about
#: 50), and a "game" (five-card cribbage to 61 takes about 150).
DEAL_MOVES = 80
GAME_MOVES = 400

#: What the autocomplete of a card option may be sent as people type.
ODD_TEXTS = ("", " ", "5", "10", "1", "5H J", "j", "♥", "10♦,", ",,", "zz 5h", "K" * 120, "\x00")
#: Claims no hand makes, as /cribbage count sends them (a number), and values no count menu
#: sends (a forged click's; an Arabic-Indic digit reads as a number, as Python reads it).
BAD_POINTS = (-1, -29, 30, 99, 10**9, 2**63, 10**40)
BAD_VALUES = ("-1", "", " 5", "1.5", "five", "+3", "٣", "29" * 20)

# -- what a person may know ------------------------------------------------------------------


def _own(game: Game, seat: int) -> frozenset[Card]:
    """The cards ``seat`` holds, kept or put in the crib this deal."""
    view = game.view(seat)
    return frozenset((*view.hand, *view.kept, *view.discards))


@dataclass(frozen=True, slots=True)
class Moment:
    """The game as stored at one moment: everything stored about it (what a refusal must
    leave as it was), its record, the game, and what each seat may know then."""

    stored: tuple[object, ...]
    record: GameRecord
    game: Game
    public: frozenset[Card]
    own: tuple[frozenset[Card], ...]

    @classmethod
    def of(cls, stored: tuple[object, ...]) -> Moment:
        record = stored[0]
        assert isinstance(record, GameRecord) and record.snapshot is not None
        game = snapshot.decode(record.snapshot, random.Random(0)).game
        own = tuple(_own(game, seat) for seat in range(game.state.num_players))
        return cls(stored, record, game, frozenset(public_cards(game)), own)

    def seat(self, user: User) -> int | None:
        return self.record.seat_of(user.id)

    def known(self, seat: int | None) -> frozenset[Card]:
        """What ``seat`` (None: someone not seated) may know: the public cards and its own."""
        return self.public if seat is None else self.public | self.own[seat]

    def held(self, seat: int | None) -> list[Card]:
        return [] if seat is None else list(self.game.hand(seat))

    def throws(self, seat: int | None) -> int:
        """How many cards ``seat`` puts in the crib this deal (one for no seat)."""
        return 1 if seat is None else self.game.view(seat).discard_count


def _worth(game: Game) -> int:
    """What the hand the manual show waits on is worth."""
    turn = game.count_turn
    assert turn is not None and game.state.starter is not None
    return score_hand(turn.cards, game.state.starter, crib=turn.crib, rules=game.state.rules).total


def _obeys(seat: int | None, verify: Callable[[int], None]) -> bool:
    """Whether the engine's rules take the move ``verify`` checks, made from ``seat``."""
    if seat is None:
        return False
    try:
        verify(seat)
    except RuleError:
        return False
    return True


def _texts(answer: Answer) -> list[str]:
    """Everything an answer shows the person who acted: its reply, the look it gives the
    clicked message, the note after it, and the cards on their controls."""
    said = [answer.reply.text, answer.note or ""]
    views: list[MessageView | None] = [answer.reply.view, answer.update]
    for view in (v for v in views if v is not None):
        said.append(view.content)
        hand = view.hand
        if hand is not None:
            said += [card.label for card in hand.cards]
    return said


# -- a move ----------------------------------------------------------------------------------

Way = Literal["click", "command"]


@dataclass(frozen=True, slots=True)
class Move:
    """A move as a person sends it: ``kind``, by a click on controls of the moment ``stamp``
    or by the slash command, with ``values`` as sent (cards as codes or labels, a count)."""

    kind: ClickKind
    way: Way
    values: tuple[str, ...] = ()
    stamp: int = 0

    def taken(self, now: Moment, seat: int | None) -> bool:
        """Whether the move, made from ``seat``, is one to accept: a click of the moment (the
        deal for a discard, the game's version otherwise), values that read, a move the
        engine's rules take."""
        game = now.game
        moment = game.state.deal_number if self.kind == "discard" else now.record.version
        if self.way == "click" and self.stamp != moment:
            return False
        try:
            cards = [Card.parse(v) for v in self.values] if self.kind in ("discard", "play") else []
        except ValueError:
            return False
        match self.kind:
            case "discard":
                return _obeys(seat, lambda s: game.verify_discard(s, cards))
            case "play":
                return len(cards) == 1 and _obeys(seat, lambda s: game.verify_play(s, cards[0]))
            case "count":
                (value,) = self.values
                if self.way == "click" and not value.isdecimal():
                    return False
                points = int(value)
                manual = game.state.rules.counting is Counting.MANUAL
                return manual and _obeys(seat, lambda s: game.verify_claim(s, points))
            case "muggins" | "pass":
                return _obeys(seat, game.verify_muggins)
            case "hint":
                return False  # (a hint is no move: nothing is taken)

    def cards(self) -> set[Card]:
        """The cards the move names (those of its values that read as cards)."""
        named = set()
        for value in self.values if self.kind in ("discard", "play") else ():
            with contextlib.suppress(ValueError):
                named.add(Card.parse(value))
        return named

    async def send(self, service: Services, channel_id: int, game_id: int, user: User) -> Answer:
        """Make the move as ``user``: the click from their hand message (by DM), or the
        command in the game's channel."""
        moves = service.moves
        if self.way == "click":
            click = Click(game_id, self.kind, self.stamp, self.values)
            return await moves.click(click, user, guild_id=None)
        match self.kind:
            case "discard":
                return await moves.discard(channel_id, user, " ".join(self.values))
            case "play":
                return await moves.play(channel_id, user, " ".join(self.values))
            case _:
                return await moves.count(channel_id, user, int(self.values[0]))


def _chosen(controls: HandControls, game: Game, pick: int) -> tuple[ClickKind, tuple[str, ...]]:
    """What a player does with their hand's live ``controls`` (``pick`` chooses): a discard
    of as many cards as they throw, a card that may be played, a claim (nothing, the hand's
    worth, the nearest claim short of it), Muggins! or letting the claim stand. ``pick`` 0 is
    a plain choice that keeps muggins in play: the first cards, a claim of nothing (short,
    when the hand is worth something), Muggins! where it is all the controls offer."""
    match controls.kind:
        case "discard":
            codes = [card.code for card in controls.cards]
            splits = list(itertools.combinations(codes, controls.pick))
            return "discard", splits[pick % len(splits)]
        case "play":
            playable = [card.code for card in controls.cards if card.enabled]
            return "play", (playable[pick % len(playable)],)
        case "count":
            if controls.muggins and pick % 4 == 3:
                return "muggins", ()
            value = _worth(game)
            # One short: the nearest value below that a show may score (a hand of 20 is never
            # claimed as 19, which no hand scores and the count's menu does not offer).
            short = max((v for v in claim_values(game.state.rules) if v < value), default=0)
            return "count", (str((0, value, short, value)[pick % 4]),)
        case "muggins":
            return ("muggins", "pass")[pick % 2], ()


# -- one call --------------------------------------------------------------------------------

Run = Callable[[], Awaitable[Answer | list[Choice]]]


@dataclass(frozen=True, slots=True)
class Call:
    """One call a person makes: who, the call, whether it is to be accepted (None: either
    way), whether it may change the game, and the cards it names (which its answer may name
    back to the asker whoever holds them: "You don't hold 5♥.")."""

    user: User
    run: Run
    taken: bool | None = None
    moves: bool = True
    asked: frozenset[Card] = frozenset()


# -- one game --------------------------------------------------------------------------------

#: A channel of its own for each game: the fixtures' store outlives the examples.
CHANNELS = itertools.count(20_000)


@dataclass
class Sitting:
    """One game at a table as the test drives it, and the next when it ends: the people
    seated, what was sent (the transcript), the game as last stored, the cards each seat was
    dealt in each deal (what its coach's lines may name), how much of what each person was
    told has been looked at, and what has happened (``seen``: the kinds of action logged,
    ``new deal``, how games ended)."""

    store: Store
    service: Services
    clock: Clock
    table: Table
    counting: Counting
    scoring: Scoring
    people: tuple[User, ...] = ()
    channel_id: int = 0
    game_id: int = 0
    sent: Transcript | None = None
    last: Moment | None = None
    dealt: dict[tuple[int, int], set[Card]] = field(default_factory=dict)
    read: dict[int, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    async def open(self) -> None:
        """Open a new game at the table (to its shortest target), seat its players, deal."""
        variant = self.table.variant
        self.people = PEOPLE[: self.table.players]
        self.channel_id = next(CHANNELS)
        self.sent = await open_table(
            self.service,
            self.people,
            target=min(variant.targets),
            channel=self.channel_id,
            variant=variant.name,
            teams=self.table.teams,
            scoring=self.scoring if variant.skunk else Scoring.LURCH,
            counting=self.counting,
        )
        self.game_id = self.sent.outcomes[0].game_id or 0
        self.dealt, self.read, self.last = {}, {}, None
        await self._now()

    @property
    def transcript(self) -> Transcript:
        assert self.sent is not None
        return self.sent

    @property
    def now(self) -> Moment:
        """The game as last read (nothing but the test's calls changes it)."""
        assert self.last is not None
        return self.last

    async def _now(self) -> Moment:
        """Read the game as stored now (decoded again only when it changed)."""
        stored = await state(self.store, self.game_id)
        if self.last is None or self.last.stored != stored:
            self.last = Moment.of(stored)
            for seat, cards in enumerate(self.last.own):
                self.dealt.setdefault((seat, self.last.game.state.deal_number), set()).update(cards)
        return self.last

    async def step(self, what: str, who: int, pick: int) -> bool:
        """Do one step (see :data:`WEIGHTS`), then check its answer and the game; whether
        the game is over."""
        if what in ("run", "show", "deal", "game"):
            deal = self.now.game.state.deal_number
            most = {"run": 2 * (who + 1), "game": GAME_MOVES}.get(what, DEAL_MOVES)
            for move in range(most):
                if what == "show" and self.now.game.state.phase is Phase.SHOW:
                    return False
                if await self.step("move", 0, pick + move):
                    return True
                if what in ("show", "deal") and self.now.game.state.deal_number != deal:
                    return False
            assert what == "run", f"no end to the {what} in {most} moves"
            return False
        before = self.now
        if what == "wait":
            # The muggins window, or the time to count, runs out: the clock's move.
            waited = MUGGINS_WINDOW if pick % 2 else COUNT_TIMEOUT
            self.clock.advance(seconds=waited.total_seconds() + 1)
            await self.transcript.settle(self.game_id)
            return await self._after(before, None, None)
        call = self._call(what, who, pick, before)
        answer = await call.run()
        if isinstance(answer, list):
            event(f"{what}: {min(len(answer), 2)} choices or more")
            seat = before.seat(call.user)
            _check_choices(answer, set(before.held(seat)))
            assert await self._now() is before, f"{what} changed the game"
            return False
        event(f"{what}: {'ok' if answer.ok else 'no'}")
        note(f"{call.user.name} {what} {pick}: {answer.reply.text!r}")
        assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
        if call.taken is not None:
            said = answer.reply.text
            assert answer.ok == call.taken, f"{what}: rules take it: {call.taken}, bot: {said!r}"
        await self.transcript.record(call.user.id, answer)
        over = await self._after(before, call, answer)
        if not answer.ok or not call.moves:
            assert self.now is before, f"{what} changed the game: {answer.reply.text!r}"
        if answer.ok and answer.reply.view is not None and what == "resign":
            asked = answer.reply.view.controls_of(ConfirmControls)
            assert asked is not None and asked.subject == self.game_id
        return over

    def _actor(self, who: int) -> User:
        """A seated person (who is 0 to 5), or Gus (6)."""
        return GUS if who == OUTSIDER else self.people[who % len(self.people)]

    def _call(self, what: str, who: int, pick: int, now: Moment) -> Call:
        """The call of a step (see :data:`WEIGHTS`) at the moment ``now``."""
        user = self._actor(who)
        seat, game = now.seat(user), now.game
        held = now.held(seat)
        way: Way = ("click", "command")[pick % 2]
        stamp = game.state.deal_number if game.state.phase is Phase.DISCARD else now.record.version
        latest = self.transcript.latest
        live = [(p, latest[p.id]) for p in self.people if p.id in latest]
        if what in ("move", "command") and live:
            by, controls = live[pick % len(live)]
            kind, values = _chosen(controls, game, pick // len(live))
            # Muggins! and letting a claim stand are clicks alone.
            way = "command" if what == "command" and kind not in ("muggins", "pass") else "click"
            if way == "command" and kind != "count" and pick % 3 == 0:
                values = tuple(str(Card.parse(v)) for v in values)  # typed as labels: 5♥
            made = Move(kind, way, values, controls.stamp)
            # What a hand message offers is a move the rules take (so the bot must too).
            assert made.taken(now, now.seat(by)), f"{by.name} offered {kind} {values}"
            return self._move(made, by, now)
        if what in ("move", "command", "wrong_turn"):
            # Someone with nothing to do now (or anyone, when everyone has something to do).
            idle = [p for p in self.people if p.id not in latest] or [user]
            user = idle[who % len(idle)]
            seat = now.seat(user)
            held = now.held(seat)
            if game.state.phase is Phase.DISCARD:
                cards = held[: now.throws(seat)]
                return self._move(Move("discard", way, _codes(cards), stamp), user, now)
            if game.state.phase is Phase.SHOW:
                return self._move(Move("count", way, ("0",), stamp), user, now)
            return self._move(Move("play", way, _codes(held[:1]), stamp), user, now)
        if what == "not_held":
            others = [card for card in DECK if card not in held]
            card = others[pick % len(others)]
            if game.state.phase is Phase.DISCARD:
                cards = [card, *held[: max(now.throws(seat) - 1, 0)]]
                return self._move(Move("discard", way, _codes(cards), stamp), user, now)
            return self._move(Move("play", way, (str(card),), stamp), user, now)
        if what == "wrong_many":
            if game.state.phase is Phase.DISCARD and held:
                throws = now.throws(seat)
                sizes = [n for n in range(len(held) + 1) if n != throws]
                cards = held[: sizes[pick % len(sizes)]]
                if pick % 3 == 0:
                    cards = [held[0]] * max(throws, 2)  # one card twice
                return self._move(Move("discard", way, _codes(cards), stamp), user, now)
            two = _codes((held or list(DECK))[:2])
            return self._move(Move("play", way, (*two, *two)[:2], stamp), user, now)
        if what == "bad_claim":
            if way == "command":
                points = BAD_POINTS[pick // 2 % len(BAD_POINTS)]
                return self._move(Move("count", way, (str(points),)), user, now)
            value = BAD_VALUES[pick // 2 % len(BAD_VALUES)]
            return self._move(Move("count", way, (value,), now.record.version), user, now)
        if what in ("muggins", "pass"):
            clicked: ClickKind = "muggins" if what == "muggins" else "pass"
            return self._move(Move(clicked, "click", (), now.record.version), user, now)
        if what == "stale":
            return self._stale(user, pick, now)
        if what == "resign":
            return self._resign(user, pick, now)
        return self._look(user, pick)

    def _move(self, made: Move, user: User, now: Moment) -> Call:
        """``made`` by ``user``: to be accepted exactly when the rules take it."""
        service, channel, game_id = self.service, self.channel_id, self.game_id
        run = lambda: made.send(service, channel, game_id, user)  # noqa: E731
        return Call(user, run, made.taken(now, now.seat(user)), asked=frozenset(made.cards()))

    def _stale(self, user: User, pick: int, now: Moment) -> Call:
        """A click on controls of an earlier moment: the previous deal's discard menu, or
        controls of an earlier version of the game, with values that would do otherwise."""
        kinds: tuple[ClickKind, ...] = ("discard", "play", "count", "muggins", "pass")
        kind = kinds[pick % len(kinds)]
        seat = now.seat(user)
        held = now.held(seat)
        if kind == "discard":
            values = _codes(held[: now.throws(seat)])
            earlier = now.game.state.deal_number - 1 - pick // 5 % 2
        else:
            values = {"play": _codes(held[:1]), "count": ("0",)}.get(kind, ())
            earlier = now.record.version - 1 - pick // 5 % 3
        return self._move(Move(kind, "click", values, earlier), user, now)

    def _resign(self, user: User, pick: int, now: Moment) -> Call:
        """``/cribbage resign`` (the question, which changes nothing), No, or (one time in
        six) Yes, or the resignation without the question."""
        moves, channel, game_id = self.service.moves, self.channel_id, self.game_id
        may = _obeys(now.seat(user), now.game.verify_resign)
        match pick % 6:
            case 0 | 1 | 2:
                return Call(user, lambda: moves.ask_resign(channel, user), may, moves=False)
            case 3 | 4:
                no = lambda: moves.confirm_resign(game_id, user, False, guild_id=GUILD)  # noqa: E731
                return Call(user, no, True, moves=False)
        if pick // 6 % 2:
            return Call(user, lambda: moves.resign(channel, user), may)
        yes = lambda: moves.confirm_resign(game_id, user, True, guild_id=GUILD)  # noqa: E731
        return Call(user, yes, may)

    def _look(self, user: User, pick: int) -> Call:
        """A call that changes nothing: the person's hand, the table, autocomplete."""
        info, channel = self.service.table, self.channel_id
        typed = ODD_TEXTS[pick // 4 % len(ODD_TEXTS)]
        run: Run
        match pick % 4:
            case 0:
                run = lambda: info.hand(channel, user)  # noqa: E731
            case 1:
                public = bool(pick // 4 % 2)
                run = lambda: info.status(channel, public=public)  # noqa: E731
            case 2:
                run = lambda: info.autocomplete_discard(channel, user.id, typed)  # noqa: E731
            case _:
                run = lambda: info.autocomplete_play(channel, user.id, typed)  # noqa: E731
        return Call(user, run, moves=False)

    async def _after(self, before: Moment, call: Call | None, answer: Answer | None) -> bool:
        """Check what everyone was told and the game as it is now; whether it is over."""
        now = await self._now()
        for person in (*self.people, GUS):
            told = self.transcript.private.get(person.id, [])
            said = told[self.read.get(person.id, 0) :]
            self.read[person.id] = len(told)
            asked: frozenset[Card] = frozenset()
            if call is not None and answer is not None and person == call.user:
                said, asked = [*said, *_texts(answer)], call.asked
            seat = now.seat(person)
            known = before.known(seat) | now.known(seat) | asked
            for text in said:
                self._check_hidden(text, seat, known, now.game)
        if now is before:
            return False
        self._check_controls(now)
        game, record = now.game, now.record
        self.seen |= {action["type"] for action in game.actions[len(before.game.actions) :]}
        if game.state.deal_number != before.game.state.deal_number:
            self.seen.add("new deal")
        assert all(a >= b for a, b in zip(game.state.scores, before.game.state.scores, strict=True))
        if game.state.phase is not Phase.OVER:
            assert (
                max(game.state.scores) < game.state.rules.target
                and record.status is GameStatus.ACTIVE
            )
            return False
        await self._check_end(game, record)
        return True

    def _check_hidden(
        self, text: str, seat: int | None, known: frozenset[Card], game: Game
    ) -> None:
        """``text``, said to ``seat`` (None: someone not seated) just now, names only cards it
        ``known``: before or after the call (its own, the public ones, those it asked for). A
        coach's line names only cards the seat was dealt in that deal; the cut for deal only
        the cards cut."""
        for line in COACH_LINE.finditer(text):
            named = cards_in_text(line.group(0))
            deal = int(line.group(1))
            dealt = self.dealt.get((seat, deal), set()) if seat is not None else set()
            assert named <= dealt, f"seat {seat}'s coach line names {named - dealt}: {text!r}"
        cut = {card for cards in game.state.cut_rounds for card in cards if card is not None}
        for line in CUT_LINE.finditer(text):
            assert cards_in_text(line.group(0)) <= cut, text
        leaked = cards_in_text(CUT_LINE.sub("", COACH_LINE.sub("", text))) - known
        assert not leaked, f"seat {seat} was told {sorted(map(str, leaked))}: {text!r}"

    def _check_controls(self, now: Moment) -> None:
        """The hand messages offer controls to exactly the people the game waits on, of the
        kind it waits for."""
        offered = {user_id: c.kind for user_id, c in self.transcript.latest.items()}
        waited = {
            user.id: controls.kind
            for user in self.people
            if (seat := now.seat(user)) is not None
            and (controls := controls_for(now.game.view(seat), self.game_id, 0)) is not None
        }
        assert offered == waited, (offered, waited)

    async def _check_end(self, game: Game, record: GameRecord) -> None:
        """A finished game's result is its scores': a side at the target and the others
        short of it, or a resignation by a seat of a losing side; the game points the rules
        give; one result row per seat saying the same."""
        result = game.state.result
        assert result is not None and record.status is GameStatus.FINISHED
        assert result.scores == game.state.scores
        assert result == game.state.rules.result(game.state.scores, result.winner, result.reason)
        others = [score for side, score in enumerate(game.state.scores) if side != result.winner]
        if result.reason is EndReason.TARGET:
            assert game.state.scores[result.winner] >= game.state.rules.target > max(others)
        else:
            last = game.actions[-1]
            assert last["type"] == "resign" and game.side_of(last["seat"]) != result.winner
        rows = await self.store.results(record.id)
        assert sorted(row.seat for row in rows) == list(range(game.state.num_players))
        for row in rows:
            side = game.side_of(row.seat)
            assert row.won == (side == result.winner) and row.score == result.scores[side]
            assert row.game_points == result.game_points and row.reason == result.reason
        self.seen.add(f"ended by {result.reason}")
        event(f"ended by {result.reason}")


def _codes(cards: list[Card]) -> tuple[str, ...]:
    return tuple(card.code for card in cards)


def _check_choices(choices: list[Choice], held: set[Card]) -> None:
    """Autocomplete offers at most 25 choices, each within Discord's 100 characters, naming
    only cards the person holds."""
    assert len(choices) <= 25
    assert all(0 < len(c.name) <= 100 and 0 < len(c.value) <= 100 for c in choices)
    named = set().union(*(cards_in_text(c.name) for c in choices))
    assert named <= held, named


def _service(store: Store, clock: Clock, seed: int) -> Services:
    """The core, dealing as ``seed`` says whatever ids the store gives the games: each game's
    shuffles are drawn from its place among the games opened here, so that an example plays
    the same deals each time Hypothesis runs it (the store, and its ids, go on between
    examples)."""
    places: dict[str, int] = {}

    def rng(key: str) -> random.Random:
        game, _, version = key.partition(":")
        return random.Random(f"{seed}:{places.setdefault(game, len(places))}:{version}")

    return build_core(store, rng_factory=rng, clock=clock, idle_expiry=timedelta(days=7))


#: A whole deal at every table (at six, counted by hand, about fifty moves: claims, Muggins!
#: called and claims let stand), then a call of each other kind at the next deal's discard,
#: by Al, Bea or Gus.
WHOLE_DEAL: list[Step] = [
    ("deal", 0, 0),
    ("command", 0, 1),
    ("wrong_turn", 1, 1),
    ("not_held", 0, 1),
    ("wrong_many", OUTSIDER, 1),
    ("bad_claim", 0, 1),
    ("muggins", 1, 1),
    ("pass", OUTSIDER, 1),
    ("stale", 0, 1),
    ("resign", OUTSIDER, 1),
    ("look", 1, 1),
    ("wait", 0, 1),
]
#: Into the play, with calls out of turn and of cards not held, on to the show: a claim of
#: nothing left to the clock to close, another called Muggins! by everyone (the claimer's
#: side, the opponents, again, Gus), the clock counting for the next who waits too long; then
#: the question to resign, asked by Bea and answered Yes by the fourth person counting round
#: the table (Dee, at four and in teams of three Bea's partner; at two, Bea herself).
AT_THE_SHOW: list[Step] = [
    ("run", 3, 2),
    *(("wrong_turn", who, 3) for who in range(3)),
    ("not_held", 1, 7),
    ("show", 0, 5),
    ("move", 0, 0),
    ("wait", 0, 1),
    ("move", 0, 0),
    *(("muggins", who, 0) for who in range(OUTSIDER + 1)),
    ("wait", 0, 0),
    ("resign", 1, 0),
    ("resign", 3, 5),
]
#: A game played until it is won.
TO_THE_END: list[Step] = [("game", 0, 0)]
#: The shortest game there is.
SHORTEST = [Table(FIVE_CARD, 2)]
MANUAL = (Counting.MANUAL,)
BOTH = tuple(Counting)

SEQUENCES = on_the_store(4)


@SEQUENCES
@given(
    sequence=st.lists(steps, min_size=3, max_size=10),
    scoring=st.sampled_from(Scoring),
    seed=st.integers(0, 2**16),
    countings=st.just(BOTH),
    tables=st.just(TABLES),
)
# The deep paths, every run: at each table counted by hand (the show by the engine is one
# step of a deal, taken by the random sequences and many other tests).
@example(sequence=WHOLE_DEAL, scoring=Scoring.SKUNK, seed=0, countings=MANUAL, tables=TABLES)
@example(sequence=AT_THE_SHOW, scoring=Scoring.SKUNK, seed=1, countings=MANUAL, tables=TABLES)
@example(sequence=TO_THE_END, scoring=Scoring.SKUNK, seed=2, countings=MANUAL, tables=SHORTEST)
# A player who owes a discard asks for their hand by command: its private copy (answered without
# controls) was taken for the hand message itself, which then offered no discard.
@example(sequence=[("move", 0, 0), ("look", 1, 0), ("move", 0, 0)], scoring=Scoring.LURCH,
         seed=14, countings=BOTH, tables=TABLES)  # fmt: skip
async def test_any_sequence_of_moves_is_answered_and_keeps_the_game_whole(
    store: Store,
    sequence: list[Step],
    scoring: Scoring,
    seed: int,
    countings: tuple[Counting, ...],
    tables: list[Table],
) -> None:
    """At each table, with each way of counting in ``countings``, the calls of ``sequence``
    each raise nothing, are answered ok or refused in a sentence that changed nothing, are
    accepted exactly when the rules take them, tell nobody a card they may not know, and
    leave the game whole (see :class:`Sitting`); a game that ends is followed by a new one
    at the table. The whole deal counted by hand at five and six has muggins called in it,
    and the game played to its end is won."""
    clock = Clock()
    service = _service(store, clock, seed)
    for table in tables:
        for counting in countings:
            note(f"At a table of {table}, counted {counting}:")
            sitting = Sitting(store, service, clock, table, counting, scoring)
            await sitting.open()
            for what, who, pick in sequence:
                if await sitting.step(what, who, pick):
                    await sitting.open()
            for happened in sitting.seen:
                event(f"seen: {happened}")
            if sequence is WHOLE_DEAL and table.players >= 5:
                assert {"new deal", "claim", "muggins"} <= sitting.seen, sitting.seen
            if sequence is TO_THE_END:
                assert "ended by target" in sitting.seen, sitting.seen
