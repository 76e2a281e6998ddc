"""Reviews asked for in random ways (property-based: Hypothesis writes the requests) by the
players of a game and by people who did not play it: ``/cribbage review`` with a game's number
or without (the channel's latest game), a player or none, and the result's Review button; a
review page's Previous and Next as shown and forged (any seat, any page); of a game still
going at each table a registered variant offers (at six, each teams layout), moving on between
requests, and of games finished at those tables (resigned mid-deal, played out, against the
computer), one never dealt and one cancelled; numbers of no game, asked in the game's channel,
another, another server and outside servers.

After every request: nothing raised; the answer is ok, or a refusal in one sentence that
changed nothing stored; it fits Discord. And a review names only what its reader may know
(tests.helpers.card_leaks reads the cards it names): each page, and each line of the summary,
is about one deal, and names only the cards the reviewed player held in that deal and those
played or cut in it; of a game still going only its players' own, and never of the deal being
played; of someone else's decisions only deals whose every hand and crib was shown."""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from hypothesis import event, example, given, note
from hypothesis import strategies as st

from bot.core.base.places import Place, Spot
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.base.views import MessageView, ReviewPages
from bot.core.services import Services
from bot.discord.components import controls_view
from bot.store import Store
from engine.cards import Card
from engine.phase import Phase
from tests.helpers.answer_checks import check_fits, one_sentence
from tests.helpers.card_leaks import cards_in_text
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO, GUILD
from tests.helpers.sequences import on_the_store
from tests.helpers.service_driver import Clock, Transcript, drive, load, make_service, open_table
from tests.helpers.variant_tables import Table, every_table

GUS = User(7, "Gus")  # (seated nowhere)
PEOPLE = (AL, BEA, CY, DEE, EVE, FLO, GUS)

# -- the tables ------------------------------------------------------------------------------


TABLES = every_table()

# -- what a reader may know ------------------------------------------------------------------


@dataclass
class Known:
    """One game as its players saw it, move by move: the cards each seat held in each deal,
    those played or cut in each, the deal being played, whether it is over, and the deals whose
    every hand and crib was shown."""

    game_id: int
    channel_id: int
    people: tuple[User, ...]
    sent: Transcript
    own: dict[tuple[int, int], set[Card]] = field(default_factory=dict)
    public: dict[int, set[Card]] = field(default_factory=dict)
    shown: set[int] = field(default_factory=set)
    deal: int = 1
    over: bool = False

    async def watch(self, store: Store) -> None:
        """Look at the game as stored now."""
        record = await store.get_game(self.game_id)
        assert record is not None
        game = await load(store, self.game_id)
        deal = self.deal = game.state.deal_number
        for seat in range(game.state.num_players):
            view = game.view(seat)
            self.own.setdefault((seat, deal), set()).update(view.hand, view.kept, view.discards)
        table = game.public_view()
        seen = self.public.setdefault(deal, set())
        seen.update(card for played in table.played for card in played)
        seen.update(table.series)
        if table.starter is not None:
            seen.add(table.starter)
        # A deal follows a whole show (counted by the engine): every deal before it was shown.
        self.shown.update(range(1, deal))
        self.over = game.state.phase is Phase.OVER or not record.is_open
        last = table.last_show
        held = set().union(*(self.own.get((s, deal), set()) for s in range(game.state.num_players)))
        if (
            game.state.phase is Phase.OVER
            and any(shown.crib for shown in last)
            and all(
                set(shown.cards) <= held and shown.starter == game.state.starter for shown in last
            )
        ):
            self.shown.add(deal)  # (the game ended once this deal's crib was counted)

    def allowed(self, seat: int, deal: int) -> set[Card]:
        """What a page of ``seat``'s review about ``deal`` may name."""
        return self.own.get((seat, deal), set()) | self.public.get(deal, set())


# -- the requests ----------------------------------------------------------------------------

#: Where a request is made: in the game's channel, in another channel of the server, in
#: another server, outside servers (a DM).
WHERE = ("channel", "elsewhere", "other server", "dm")
ELSEWHERE = 9_999
#: A review's page asked for: the first ones, past the last, a button's most (four digits),
#: one before the first (no button makes it).
PAGES = (0, 1, 2, 3, 9999, -1)
#: Game numbers of no game: none, below one, past the most a custom id or a store holds.
NO_GAMES = (0, -1, 10**9, 2**53, 2**63, 10**19 - 1)


@dataclass(frozen=True, slots=True)
class Review:
    """``/cribbage review`` by ``who`` of game ``game`` (an index: 0 the game going, then the
    finished ones, then the channel's latest game, then numbers of no game), of ``player``'s
    decisions (None: the reader's own), at ``page``; with no player and page 0, what the
    result's Review button asks too."""

    who: int
    game: int
    player: int | None
    page: int
    where: str


@dataclass(frozen=True, slots=True)
class Page:
    """A review page's Previous or Next as a custom id may say it: any game, seat and page."""

    who: int
    game: int
    seat: int
    page: int
    where: str


@dataclass(frozen=True, slots=True)
class Turn:
    """A click on one of the enabled buttons (``which``, counted round) of the page last
    shown, by the person it was shown to."""

    which: int


@dataclass(frozen=True, slots=True)
class Play:
    """The game going moves on ``moves`` moves (its players' plainest choices)."""

    moves: int


Request = Review | Page | Turn | Play

#: Which game (see Review): mostly one with cards dealt, now and then no game at all.
games = st.integers(0, 12) | st.integers(0, 40)
#: Where: mostly in the game's channel, where the Review button and the command are used.
places = st.sampled_from([*WHERE, "channel", "channel", "elsewhere"])
requests = st.one_of(
    st.builds(
        Review,
        who=st.integers(0, len(PEOPLE) - 1),
        game=games,
        player=st.none() | st.integers(0, len(PEOPLE) - 1),
        page=st.sampled_from(PAGES),
        where=places,
    ),
    st.builds(
        Page,
        who=st.integers(0, len(PEOPLE) - 1),
        game=games,
        seat=st.integers(0, 6),
        page=st.sampled_from(PAGES),
        where=places,
    ),
    st.builds(Turn, which=st.integers(0, 1)),
    st.builds(Play, moves=st.integers(1, 30)),
)

#: A review button's custom id, as the Discord layer reads it back.
REVIEW_BUTTON = re.compile(r"crib:review:(\d{1,19}):([0-5]):(\d{1,4})$")
DEAL_PAGE = re.compile(r"\*\*Deal (\d+)\*\*")
DEAL_LINE = re.compile(r"\bDeal (\d+)\b")
#: The summary's line of the deals another reader's review leaves out (their cards unseen).
LEFT_OUT = re.compile(r"Deals? ([\d, and]+) (?:is|are) left out: .+ never shown\.")

# -- the games -------------------------------------------------------------------------------

#: Channels of their own for each game (the store outlives the examples).
CHANNELS = itertools.count(40_000)
#: Moves into a game before it is resigned: into its second deal or later at every table.
RESIGNED_AFTER = 30


async def _open(service: Services, store: Store, table: Table, *, computer: bool = False) -> Known:
    """A game at ``table`` dealt to its players (with ``computer``, Al against the computer),
    to the table's shortest target, in a channel of its own."""
    people = PEOPLE[: 1 if computer else table.players]
    channel = next(CHANNELS)
    target = min(table.variant.targets)
    if computer:
        sent = Transcript(service)
        opened = await service.lobbies.new_game(
            GUILD, channel, AL, TableAsked(target=target, vs_computer=True, level="easy")
        )
        await sent.record(AL.id, opened)
    else:
        sent = await open_table(
            service, people, target, channel, variant=table.variant.name, teams=table.teams
        )
    known = Known(sent.outcomes[0].game_id or 0, channel, people, sent)
    await known.watch(store)
    return known


async def _play(service: Services, store: Store, known: Known, moves: int) -> None:
    """The game's players make ``moves`` moves (their plainest choices), each watched."""

    async def watch(_answer: Answer, _user: User) -> None:
        await known.watch(store)

    await drive(service, known.sent, known.people, stop_after=moves, check=watch)
    await known.watch(store)


@dataclass
class League:
    """The games finished once per database (the examples share it): at each table one
    resigned a few deals in, and one played out, one against the computer; one never dealt
    and one cancelled once dealt."""

    finished: list[Known]
    lobby: int
    cancelled: Known


#: Each database's league (by the store's id, with the store: an id is reused once freed).
LEAGUES: dict[int, tuple[Store, League]] = {}


async def league(service: Services, store: Store) -> League:
    """The finished games of this database, made on first use."""
    kept = LEAGUES.get(id(store))
    if kept is not None and kept[0] is store:
        return kept[1]
    finished = []
    for table in TABLES:
        known = await _open(service, store, table)
        await _play(service, store, known, RESIGNED_AFTER)
        resigned = await service.moves.resign(known.channel_id, known.people[-1])
        assert resigned.ok, resigned.reply.text
        await known.watch(store)
        finished.append(known)
    played_out = await _open(service, store, TABLES[0])
    await _play(service, store, played_out, 2_000)
    computer = await _open(service, store, TABLES[0], computer=True)
    await _play(service, store, computer, RESIGNED_AFTER // 3)  # (Al's moves alone)
    assert (await service.moves.resign(computer.channel_id, AL)).ok
    await computer.watch(store)
    finished += [played_out, computer]
    assert all(known.over for known in finished)
    lobby = await service.lobbies.new_game(GUILD, next(CHANNELS), AL, TableAsked(players=2))
    cancelled = await _open(service, store, TABLES[0])
    gone = await service.lobbies.cancel(cancelled.channel_id, BEA, moderator=True)
    assert lobby.ok and gone.ok, (lobby.reply.text, gone.reply.text)
    await cancelled.watch(store)
    made = League(finished, lobby.game_id or 0, cancelled)
    LEAGUES[id(store)] = (store, made)
    return made


# -- one reader ------------------------------------------------------------------------------


@dataclass
class Reader:
    """The people asking for reviews in one example: the game going, the league's games, and
    the page last shown (to whom, and where)."""

    store: Store
    service: Services
    going: Known
    league: League
    shown: tuple[User, MessageView, str] | None = None

    @property
    def games(self) -> list[Known]:
        return [self.going, *self.league.finished]

    def _game(self, index: int) -> tuple[int | None, Known | None]:
        """The game a request's index names (None: the channel's latest), and what is known
        of it (None: a game whose cards nobody was dealt, or no game)."""
        games = [*self.games, self.league.cancelled]
        if index < len(games):
            return games[index].game_id, games[index]
        others = [self.league.lobby, None, *NO_GAMES]
        found = others[(index - len(games)) % len(others)]
        return (found, self.going) if found is None else (found, None)

    def _where(self, where: str, known: Known | None) -> tuple[Place, int]:
        """The place a request is made in, and the channel whose latest game it asks for."""
        channel = self.going.channel_id if known is None else known.channel_id
        match where:
            case "channel":
                return Place(Spot.CHANNEL, channel, GUILD), channel
            case "elsewhere":
                return Place(Spot.CHANNEL, ELSEWHERE, GUILD), ELSEWHERE
            case "other server":
                return Place(Spot.CHANNEL, channel, GUILD + 1), channel
        return Place(Spot.PRIVATE, channel), channel

    async def ask(self, request: Request) -> None:
        """Make the request, then check its answer (see the module)."""
        if isinstance(request, Play):
            await _play(self.service, self.store, self.going, request.moves)
            event("play")
            return
        reviews = self.service.reviews
        game_id: int | None
        known: Known | None
        seat: int | None
        run: Callable[[], Awaitable[Answer]]
        if isinstance(request, Turn):
            if self.shown is None:
                return
            user, last, where = self.shown
            buttons = _buttons(last)
            if not buttons:
                return
            game_id, seat, page = buttons[request.which % len(buttons)]
            request = Page(PEOPLE.index(user), -1, seat, page, where)
            known = next((k for k in self.games if k.game_id == game_id), None)
        else:
            game_id, known = self._game(request.game)
        user = PEOPLE[request.who]
        place, channel = self._where(request.where, known)
        if isinstance(request, Review):
            player = None if request.player is None else PEOPLE[request.player]
            page = request.page
            run = lambda: reviews.review(place, channel, user, game_id, player, page)  # noqa: E731
            seat = _seat_of(known, player or user)
            if seat is None and known is not None and known.over and player in (None, user):
                seat = 0  # (someone who did not play: the first person's decisions)
        else:
            # (A page's button names its game: the channel's latest is the game going.)
            game_id = self.going.game_id if game_id is None else game_id
            seat, page, asked = request.seat, request.page, game_id
            run = lambda: reviews.page(place, user, asked, seat, page)  # noqa: E731
        before = await self._stored(game_id)
        answer = await run()
        kind = type(request).__name__.lower()
        event(f"{kind}: {'ok' if answer.ok else 'no'}")
        note(f"{user.name} {request}: {(answer.reply.text or '(a page)')[:120]!r}")
        assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
        await check_fits(answer)
        if not answer.ok:
            assert await self._stored(game_id) == before, f"refused, yet changed: {request}"
            return
        view: MessageView | None = answer.update if isinstance(request, Page) else answer.reply.view
        assert view is not None and known is not None and seat is not None, request
        self._check_page(view, known, seat, user)
        self.shown = (user, view, request.where)

    def _check_page(self, view: MessageView, known: Known, seat: int, reader: User) -> None:
        """A page names only what its reader may know (see the module)."""
        mine = _seat_of(known, reader) == seat
        if not known.over:
            assert mine, "a game still going, reviewed by someone else"
        text = view.content
        heading = DEAL_PAGE.match(text)
        parts: list[tuple[int | None, str]]
        if heading is not None:
            parts = [(int(heading[1]), text)]
        else:
            parts = [
                ((int(m[1]) if (m := DEAL_LINE.search(line)) else None), line)
                for line in text.splitlines()
            ]
        for deal, part in parts:
            named = cards_in_text(part)
            if (left := LEFT_OUT.fullmatch(part)) is not None:
                # Said only to another reader, of deals not shown, naming no card.
                out = {int(n) for n in re.findall(r"\d+", left[1])}
                assert not mine and not out & known.shown and not named, part
                continue
            if deal is None:
                assert not named, f"{named} on a line of no deal: {part!r}"
                continue
            event("a page of a deal")
            if not known.over:
                assert deal < known.deal, f"deal {deal} is being played: {part!r}"
            if not mine:
                assert deal in known.shown, f"deal {deal} was not shown: {part!r}"
            leaked = named - known.allowed(seat, deal)
            assert not leaked, f"{reader.name} was told {sorted(map(str, leaked))}: {part!r}"

    async def _stored(self, game_id: int | None) -> tuple[object, ...]:
        """Everything stored about the game asked for (its record, log and kept reviews)."""
        if game_id is None or not 0 < game_id < 2**63:
            game_id = self.going.game_id
        return (
            await self.store.get_game(game_id),
            tuple(await self.store.actions(game_id)),
            tuple([await self.store.review(game_id, seat) for seat in range(6)]),
        )


def _seat_of(known: Known | None, user: User) -> int | None:
    if known is None:
        return None
    return next((seat for seat, p in enumerate(known.people) if p.id == user.id), None)


def _buttons(view: MessageView) -> list[tuple[int, int, int]]:
    """The enabled Previous and Next of a review page, as the clicks they make: (game, seat,
    page), read back from their custom ids."""
    if view.controls_of(ReviewPages) is None:
        return []
    made = controls_view(view)
    assert made is not None
    found = []
    for row in made.to_components():
        for button in row["components"]:
            match = REVIEW_BUTTON.match(button["custom_id"])
            assert match is not None, button["custom_id"]
            if not button.get("disabled"):
                found.append((int(match[1]), int(match[2]), int(match[3])))
    return found


SEQUENCES = on_the_store(10)

#: Each finished game reviewed by its first player and by Gus, someone else's review asked
#: for, every page of one turned through; the game going reviewed by its player before its
#: first deal is over and after, by another of its players for someone else, by Gus; forged
#: pages of any seat; numbers of no game; the channel's latest game; elsewhere.
EVERYTHING: list[Request] = [
    Review(0, 0, None, 0, "channel"),
    Play(30),
    Review(0, 0, None, 0, "channel"),
    Turn(1),
    Turn(1),
    Turn(0),
    Review(1, 0, 0, 1, "channel"),
    Review(6, 0, None, 0, "elsewhere"),
    Page(1, 0, 1, 1, "dm"),
    *(Review(0, game, None, 0, "channel") for game in range(1, len(TABLES) + 3)),
    *(Review(6, game, None, 1, "elsewhere") for game in range(1, len(TABLES) + 3)),
    Review(6, len(TABLES) + 2, 1, 2, "channel"),
    Page(6, len(TABLES) + 1, 1, 9999, "channel"),
    Turn(0),
    Turn(0),
    Page(3, 3, 5, 1, "channel"),
    Review(2, 3, 6, 0, "channel"),
    *(Review(0, len(TABLES) + 3 + n, None, 0, where) for n in range(10) for where in WHERE[:2]),
]


@SEQUENCES
@given(
    table=st.sampled_from(TABLES),
    moves=st.integers(0, 40),
    sequence=st.lists(requests, min_size=3, max_size=10),
)
@example(table=TABLES[0], moves=0, sequence=EVERYTHING)
@example(table=TABLES[-1], moves=0, sequence=EVERYTHING[:9])
async def test_any_request_for_a_review_is_answered_and_tells_nobody_a_hidden_card(
    store: Store, table: Table, moves: int, sequence: list[Request]
) -> None:
    """A game going at ``table``, ``moves`` moves in, beside the league's finished games:
    each request of ``sequence`` raises nothing, is answered ok or refused in one sentence
    that changed nothing stored, fits Discord, and names no card its reader may not know
    (see :meth:`Reader._check_page`)."""
    service = make_service(store, Clock())
    made = await league(service, store)
    going = await _open(service, store, table)
    await _play(service, store, going, moves)
    reader = Reader(store, service, going, made)
    for request in sequence:
        await reader.ask(request)
