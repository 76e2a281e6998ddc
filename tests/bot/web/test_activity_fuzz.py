"""The Activity's API sent anything at all (property-based: Hypothesis writes the requests),
over channels with games in several states (tests.helpers.web_fuzz's places: no game, a
lobby, a full table of six, a cancelled lobby, five-card at the discard, three players at the
play, a show counted by hand, seven-card's second deal, a game against the computer, a
finished and a resigned game): ``POST api/act``, ``api/new`` and ``api/token`` with bodies
that are not JSON or are JSON of every shape (wrong types, huge and negative numbers, nested
values, long and odd unicode strings, nulls, fields missing, every action and odd values and
stamps, moves that are right and moves a field away from right), every route with its session
missing or forged (changed, cut short, ended, signed with another key, of another channel,
another scheme), and ``api/live`` opened with hellos of every shape.

After every request: no 5xx and nothing logged as an error (no traceback); every refusal is
JSON, ``{"ok": false, "said": ...}``, with one short sentence; a refused call changed nothing
stored (the place's channel: its open and last game, the game's record and actions); a
forged session is always 401 and a good one never; no answer names a card its reader may not
know (``Knowledge``: this deal's public cards and their own, what earlier deals showed, or
what they named themselves); and every answer stays within a size that no input can grow.
"""

from __future__ import annotations

import json
import string
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import event, example, given, note
from hypothesis import strategies as st
from yarl import URL

from bot.core.base.views import HandControls
from bot.core.games.computer import LEVELS
from bot.core.games.records import GameRecord
from bot.core.messages.prompts import controls_for
from bot.core.services import Services
from bot.store import Store
from bot.web.activity.http import MAX_BODY
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Session, Sessions
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer, review_source
from engine.cards import Card
from engine.counting import Counting
from engine.game import Game
from engine.outcome import Scoring
from engine.variants import listed
from tests.helpers.card_leaks import cards_asked
from tests.helpers.cast import GUILD
from tests.helpers.web_fuzz import (
    DECK,
    ELSEWHERE,
    FUZZ,
    NAMES,
    PATIENCE,
    PEOPLE,
    ActivitySide,
    Clockwork,
    Knowledge,
    Place,
    Places,
    ShownByName,
    assert_quiet,
    one_sentence,
    weighted,
    worth,
)

SECRET = "one secret that is long enough"
#: The most a refusal may be (a sentence, in JSON), and any other answer (a table's state,
#: a finished game's review): bounds no input may push an answer past.
REFUSAL_BYTES = 600
ANSWER_BYTES = 96 * 1024

# -- what a request is made of ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ref:
    """A value taken from the place when the request is made (so an explicit example can name
    it): ``game``, the place's game id; ``other game``, the game of another channel;
    ``stamp``, the reader's controls' stamp (else the game's version) plus ``n``; a card
    code: ``mine`` (the reader's ``n``-th card), ``theirs`` (another seat's), ``crib``,
    ``deck`` (undealt); ``claim``, the worth of the hand being counted plus ``n``; ``code``,
    the sign-in code of person ``n``; ``instance``, the place's Activity instance
    (``n`` > 0: one Discord does not know)."""

    what: str
    n: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    """A body that is what the reader's page would send now (the ``n``-th of the choices
    their controls offer; without controls, a lobby's action), then changed by ``tweaks``:
    each a field set to another value, or taken out (:data:`GONE`)."""

    n: int = 0
    tweaks: tuple[tuple[str, Any], ...] = ()


#: A field taken out of a body.
GONE = "<gone>"


@dataclass(frozen=True, slots=True)
class Auth:
    """How a request shows its session: ``kind`` is ``person`` (a good session of
    ``PEOPLE[person]`` in the place's channel), ``elsewhere`` (theirs in another channel), or
    a forgery: ``expired``, ``changed`` (one character of a good one changed, at ``n``),
    ``cut`` (a good one cut short), ``foreign`` (signed with another key), ``scheme`` (a
    good one after another word than ``Bearer``), ``none`` (no header) or ``junk``
    (``text``)."""

    kind: str = "person"
    person: int = 0
    n: int = 0
    text: str = ""

    @property
    def good(self) -> bool:
        return self.kind in ("person", "elsewhere")


#: URL-safe base64's characters, in the order of the six bits each stands for.
BASE64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"


def _other(char: str) -> str:
    """Another character of a token than ``char``: base64's with the highest of its six bits
    changed (a change of the lowest could fall in the two bits the last character of a
    signature carries and no reader reads), and for the dot, a letter."""
    return BASE64[BASE64.index(char) ^ 32] if char in BASE64 else "A"


FORGERIES = ("expired", "changed", "cut", "foreign", "scheme", "none", "junk")
SCHEMES = ("Basic ", "bearer ", "Bearer  ", "Token ", "", "Bearer\t", "Bearer")


# JSON of every shape, as it comes from anyone: numbers as large as 2**70 and beyond, odd
# floats, strings with any character (lone surrogates written as JSON's escapes).
ODD_INTS = st.sampled_from([0, -1, 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 2**70, -(2**70)])
ODD_TEXTS = st.sampled_from(
    ["", " ", "\x00", "\ud800", "\udfff", "é", "٣", "５", "🂡", "\u202e", "null"]
) | st.integers(41, 5000).map("é".__mul__)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    ODD_INTS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    ODD_TEXTS,
)
any_json = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)

#: Every action the page sends (and the chat's lobby has), and some no page sends.
ACTIONS = (
    "discard",
    "play",
    "count",
    "muggins",
    "pass",
    "join",
    "leave",
    "start",
    "cancel",
    "partners",
    *(f"computer:{level}" for level in LEVELS),
    "computer:",
    "computer:grandmaster",
    "computer:" + "x" * 30,
    "remove_computer",
    "resign",
    "JOIN",
    " join",
)
actions = st.sampled_from(ACTIONS) | st.text(max_size=40) | any_json
cards = st.builds(Ref, st.sampled_from(["mine", "theirs", "crib", "deck"]), st.integers(0, 7))
values = st.one_of(
    cards,
    st.builds(Ref, st.just("claim"), st.integers(-2, 2)),
    st.sampled_from(["5H", "5h", "5♥", "10H", "TH", "1", "0", "-1", "29", "30", "٣", ""]),
    st.text(max_size=6),
    any_json,
)
games = weighted(
    (4, st.just(Ref("game"))),
    (1, st.just(Ref("other game"))),
    (1, ODD_INTS),
    (1, st.integers(-5, 5)),
    (1, any_json),
)
stamps = weighted(
    (3, st.builds(Ref, st.just("stamp"), st.integers(-2, 2))), (1, ODD_INTS), (1, any_json)
)
act_fields = st.fixed_dictionaries(
    {},
    optional={
        "action": actions,
        "game": games,
        "stamp": stamps,
        "values": st.lists(values, max_size=8) | any_json,
        "extra": any_json,
    },
)
tweaks = st.tuples(
    st.sampled_from(["action", "game", "stamp", "values", "extra"]),
    st.one_of(st.just(GONE), actions, games, stamps, st.lists(values, max_size=8), any_json),
)
moves = st.builds(Move, st.integers(0, 20), st.lists(tweaks, max_size=2).map(tuple))
#: Moves as the page sends them: mostly taken, or refused by the core in a sentence (the
#: moment passed, not this person's turn).
plain_moves = st.builds(Move, st.integers(0, 20))
#: Bodies that are no JSON object: bytes, JSON nested deeper than a reader goes, or longer
#: than the server reads.
raw = st.one_of(
    st.binary(max_size=64),
    st.sampled_from([b"", b"{", b"action=join&game=1", b"\xef\xbb\xbf{}", b"{}" * 2]),
    st.integers(1000, MAX_BODY // 2).map(lambda depth: b"[" * depth + b"]" * depth),
    st.integers(1000, MAX_BODY).map(lambda depth: b"[" * depth),
    st.integers(500, MAX_BODY // 6).map(lambda depth: b'{"a":[' * depth),
    st.integers(MAX_BODY + 1, MAX_BODY + 100).map(lambda size: b" " * size),
)
#: A move's body: mostly what a page sends (so that games move on, and their states are looked
#: at for cards), or a field away from it, then anything at all.
bodies = weighted((4, plain_moves), (3, moves), (1, act_fields), (1, any_json), (1, raw))

new_fields = st.fixed_dictionaries(
    {},
    optional={
        "players": st.integers(0, 8) | ODD_INTS | any_json,
        "target": st.sampled_from([61, 121, 181, 0, 1000]) | ODD_INTS | any_json,
        "variant": st.sampled_from([v.name for v in listed()]) | st.text(max_size=50) | any_json,
        "vs_computer": st.booleans() | any_json,
        "difficulty": st.sampled_from([*LEVELS, "grandmaster"]) | ODD_TEXTS | any_json,
        "scoring": st.sampled_from([*Scoring, "double"]) | ODD_TEXTS | any_json,
        "counting": st.sampled_from([*Counting, "maybe"]) | ODD_TEXTS | any_json,
        "teams": st.sampled_from(["threes", "pairs", "quads"]) | any_json,
    },
)
good_token = st.fixed_dictionaries(
    {
        "code": st.builds(Ref, st.just("code"), st.integers(0, len(PEOPLE) - 1)),
        "instance_id": st.builds(Ref, st.just("instance"), st.integers(0, 2)),
    }
)
token_fields = st.fixed_dictionaries(
    {},
    optional={
        "code": st.builds(Ref, st.just("code"), st.integers(0, len(PEOPLE) - 1))
        | st.sampled_from(["code-", "code-0", "code-1 ", "code-٣", "code-" + "9" * 300])
        | st.text(max_size=20)
        | any_json,
        "instance_id": st.builds(Ref, st.just("instance"), st.integers(0, 2))
        | st.sampled_from(["i-", "i-0", "i-1000", "i-٣", "i-" + "9" * 300])
        | st.text(max_size=20)
        | any_json,
    },
)

#: Mostly Al and Bea, seated at most places (Al opened them), so moves are often theirs to
#: make; the others too (Cy is seated nowhere).
people = st.integers(0, 1) | st.integers(0, len(PEOPLE) - 1)
auths = weighted(
    (6, st.builds(Auth, st.just("person"), people)),
    (1, st.builds(Auth, st.just("elsewhere"), people)),
    (
        3,
        st.builds(
            Auth,
            st.sampled_from(FORGERIES),
            people,
            st.integers(0, 2**16),
            st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=60),
        ),
    ),
)

# -- the server and its places ---------------------------------------------------------------


@dataclass(repr=False, eq=False)
class Served(ShownByName):
    """The Activity's server as the tests reach it, and the places it serves."""

    name = "served"
    client: TestClient[Any, Any]
    places: Places
    sessions: Sessions
    caplog: pytest.LogCaptureFixture

    async def place(self, name: str) -> Place:
        return await self.places.get(name)

    def session(self, person: int, channel: int, *, expires: float | None = None) -> str:
        user = PEOPLE[person]
        ends = time.time() + 3600 if expires is None else expires
        return self.sessions.sign(
            Session(user.id, user.name, None, channel, GUILD, f"i-{channel}", ends)
        )

    async def headers(self, auth: Auth, place: Place) -> dict[str, str]:
        """The ``Authorization`` header ``auth`` makes at ``place`` (none: no header)."""
        channel = (await self.place(ELSEWHERE)).channel_id if auth.kind == "elsewhere" else None
        good = self.session(auth.person, channel or place.channel_id)
        match auth.kind:
            case "person" | "elsewhere":
                return {"Authorization": "Bearer " + good}
            case "expired":
                ended = self.session(auth.person, place.channel_id, expires=time.time() - auth.n)
                return {"Authorization": "Bearer " + ended}
            case "changed":
                at = auth.n % len(good)
                return {"Authorization": "Bearer " + good[:at] + _other(good[at]) + good[at + 1 :]}
            case "cut":
                return {"Authorization": "Bearer " + good[: auth.n % len(good)]}
            case "foreign":
                user = PEOPLE[auth.person]
                forged = Sessions("another secret, also long enough").sign(
                    Session(user.id, user.name, None, place.channel_id, GUILD, "i-1", 2e9)
                )
                return {"Authorization": "Bearer " + forged}
            case "scheme":
                return {"Authorization": SCHEMES[auth.n % len(SCHEMES)] + good}
            case "none":
                return {}
        return {"Authorization": auth.text}


@pytest.fixture
async def served(
    service: Services, store: Store, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[Served]:
    """The Activity's server on the game pages' server, as the bot runs it (reviews on), with
    its places, made as examples ask for them."""
    side = ActivitySide()
    sessions = Sessions(SECRET)
    reviews = review_source(service.pages)
    activity = ActivityServer(service, side, sessions, reviews=reviews, clock=Clockwork())
    # Room for every live socket the examples open: none is refused for want of it.
    limits = Capacity(connections=1000, live_pages=1000)
    links = PageLinks(SECRET)
    server = WebServer(service.pages, service.feed, links, activity=activity, limits=limits)
    activity.start()
    async with TestClient(TestServer(server.app())) as client:
        try:
            yield Served(client, Places(service, store, side), sessions, caplog)
        finally:
            await server.stop()


# -- a request and its checks ----------------------------------------------------------------


@dataclass
class Reader:
    """Whose session a request shows, and the games they may see: what they may know of
    each before the call."""

    served: Served
    place: Place
    auth: Auth
    knew: dict[int, Knowledge] = field(default_factory=dict)

    @property
    def user_id(self) -> int:
        return PEOPLE[self.auth.person].id

    async def knowledge(self, game_id: int) -> Knowledge:
        places = self.served.places
        record = await places.service.games.record(game_id)
        if record is None:
            return Knowledge(frozenset(), frozenset())
        loaded = await places.service.games.loaded.for_page(record, places.store)
        return Knowledge.of(loaded, record.seat_of(self.user_id))

    async def resolve(self, value: Any) -> Any:
        """``value`` with its :class:`Ref` and :class:`Move` taken from the place now."""
        if isinstance(value, Move):
            return await self.move(value)
        if isinstance(value, Ref):
            return await self.ref(value)
        if isinstance(value, list):
            return [await self.resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: await self.resolve(v) for k, v in value.items()}
        return value

    async def _now(self) -> tuple[GameRecord | None, Game | None, HandControls | None]:
        """The place's game now: its record, the game once dealt, the reader's controls."""
        places, game_id = self.served.places, self.place.game_id
        record = None if game_id is None else await places.service.games.record(game_id)
        if record is None:
            return None, None, None
        loaded = await places.service.games.loaded.for_page(record, places.store)
        if loaded is None:
            return record, None, None
        seat = record.seat_of(self.user_id)
        view = None if seat is None else loaded.game.view(seat)
        controls = None if view is None else controls_for(view, record.id, record.version)
        return record, loaded.game, controls

    async def ref(self, ref: Ref) -> Any:
        place = self.place
        match ref.what:
            case "game":
                return place.game_id or 0
            case "other game":
                return (await self.served.place(ELSEWHERE)).game_id
            case "code":
                return f"code-{PEOPLE[ref.n].id}"
            case "instance":
                return f"i-{place.channel_id + ref.n * 7_000_000}"
        record, game, controls = await self._now()
        if ref.what == "stamp":
            if controls is not None:
                return controls.stamp + ref.n
            return (0 if record is None else record.version) + ref.n
        if ref.what == "claim":
            counted = None if game is None else worth(game)
            return str((counted or 0) + ref.n)
        found: list[Card] = []
        if record is not None and game is not None:
            seat = record.seat_of(self.user_id)
            where = game.card_places()
            others = [s for s in range(game.state.num_players) if s != seat]
            match ref.what:
                case "mine":
                    found = [] if seat is None else list(game.hand(seat))
                case "theirs":
                    found = [card for s in others for card in game.hand(s)]
                case "crib":
                    found = [Card.parse(code) for code in where["crib"]]
                    found += [card for s in others for card in game.view(s).discards]
                case _:
                    found = [Card.parse(code) for code in where["deck"]]
        return (found[ref.n % len(found)] if found else DECK[ref.n]).code

    async def move(self, move: Move) -> dict[str, Any]:
        """What the reader's page would send now, then tweaked."""
        _, _, controls = await self._now()
        body: dict[str, Any] = {"game": self.place.game_id or 0}
        if controls is None:
            lobby = ("join", "start", "partners", "leave", "computer:easy", "cancel")
            body["action"] = lobby[move.n % len(lobby)]
        else:
            body.update(action=controls.kind, stamp=controls.stamp, values=[])
            held = [c.code for c in controls.cards if c.enabled]
            if controls.kind == "discard":
                body["values"] = [held[(move.n + i) % len(held)] for i in range(controls.pick)]
            elif controls.kind == "play" and held:
                body["values"] = [held[move.n % len(held)]]
            elif controls.kind == "count" and controls.claims:
                if move.n % 3 == 2 and controls.muggins:
                    body["action"] = ["muggins", "pass"][move.n % 2]
                else:
                    body["values"] = [str(controls.claims[move.n % len(controls.claims)])]
        for key, value in move.tweaks:
            if value == GONE:
                body.pop(key, None)
            else:
                body[key] = await self.resolve(value)
        return body


async def _query(served: Served, place: Place, query: tuple[tuple[str, str], ...]) -> str:
    """``query`` as a query string (``?`` and its pairs, quoted; empty for none), ``GAME``
    standing for the place's game, ``OTHER`` for another channel's (a finished game)."""
    if not query:
        return ""
    finished = (await served.place("finished")).game_id
    games = {"GAME": str(place.game_id or 0), "OTHER": str(finished)}
    pairs = [(key, games.get(value, value)) for key, value in query]
    return "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in pairs)


def _encoded(body: Any) -> bytes:
    """The request's body as sent: bytes as they are, anything else as JSON."""
    return body if isinstance(body, bytes) else json.dumps(body).encode()


async def _call(
    served: Served,
    method: str,
    path: str,
    place: Place,
    auth: Auth,
    body: Any = None,
    query: tuple[tuple[str, str], ...] = (),
) -> dict[str, Any]:
    """Make one request as ``auth`` at ``place`` (with ``query``'s string after its path) and
    check its answer (see the module); the answer, read."""
    reader = Reader(served, place, auth)
    places = served.places
    elsewhere = await served.place(ELSEWHERE)
    sent = _encoded(await reader.resolve(body)) if body is not None else b""
    headers = await served.headers(auth, place)
    asked = cards_asked(sent.decode(errors="replace"))
    asking = await _query(served, place, query)
    asked |= cards_asked(asking)
    note(f"{method} {path}{asking} at {place.name!r} as {auth}: {sent[:300]!r}")
    before = {p.name: await places.stored(p) for p in (place, elsewhere)}
    for game in (place.game_id, elsewhere.game_id):
        if game is not None:
            reader.knew[game] = await reader.knowledge(game)
    served.caplog.clear()
    if method == "GET":
        response = await served.client.get(URL(path + asking, encoded=True), headers=headers)
    else:
        response = await served.client.post(
            URL(path + asking, encoded=True), data=sent, headers=headers
        )
    text = await response.read()
    what = f"{method} {path}{asking} {sent[:200]!r} as {auth}"
    assert response.status < 500, (what, response.status, text[:500])
    assert_quiet(served.caplog, what)
    assert response.content_type == "application/json", (what, response.status, text[:300])
    assert len(text) <= ANSWER_BYTES, (what, len(text))
    answer = json.loads(text)
    assert isinstance(answer, dict), (what, answer)
    needs_session = not path.endswith("/token")
    if needs_session:
        # A forged session is refused as one, whatever the request; a good one never is.
        assert (response.status == 401) == (not auth.good), (what, response.status, answer)
    refused = response.status >= 400 or answer.get("ok") is False
    after = {p.name: await places.stored(p) for p in (place, elsewhere)}
    event(f"{path.rsplit('/', 1)[1]}: {response.status} {answer.get('ok')}")
    if refused:
        assert one_sentence(answer.get("said")), (what, response.status, answer)
        # (A move the core refused is answered with the table as it stands, as one taken.)
        assert response.status < 400 or len(text) <= REFUSAL_BYTES, (what, len(text))
        assert after == before, f"{what}: refused ({answer.get('said')}), yet changed"
    if method == "GET":
        assert after == before, f"{what}: a look changed what is stored"
        if asking:
            # No route reads a query string: the answer is the one without it (a review is
            # of the session's channel's game, whatever game it names).
            plain = await served.client.get(path, headers=headers)
            assert (plain.status, await plain.read()) == (response.status, text), what
    for changed in (place, elsewhere):
        if after[changed.name] != before[changed.name]:
            places.spend(changed)
    await _check_told(reader, answer, asked, what)
    return answer


async def _check_told(reader: Reader, answer: dict[str, Any], asked: set[Card], what: str) -> None:
    """No card in the answer its reader may not know (before or after the call); what it
    says may also name what the request named."""
    state = answer.get("state")
    game = state.get("game") if isinstance(state, dict) else None
    known = Knowledge(frozenset(), frozenset())
    if isinstance(game, int):
        known = reader.knew.get(game, known) | await reader.knowledge(game)
    if isinstance(state, dict):
        # (How often a state named cards, and so was looked at for them.)
        event(f"cards in the state: {'some' if known.check_state(state, what) else 0}")
    else:
        # No state (a refusal, a sign-in): what it says may name only what the reader knew
        # at any of the games they may see, or named.
        for knew in reader.knew.values():
            known = known | knew
    said = answer.get("said")
    if isinstance(said, str):
        known.check_text(said, asked, what)
    review = answer.get("html")
    if isinstance(review, str):
        # (The review of a game over: every seat's decisions as someone who did not play sees
        # them, from the deals whose every card was shown.)
        known.check_text(review, asked, what)


# -- the tests -------------------------------------------------------------------------------


@FUZZ
@given(name=st.sampled_from(NAMES), auth=auths, body=bodies)
# A body nested deeper than JSON's reader goes (it raised RecursionError: 500).
@example(name="lobby", auth=Auth(), body=b"[" * 2000 + b"]" * 2000)
@example(name="lobby", auth=Auth(), body=b'{"action":[' * 360)
# Numbers past 64 bits, ids and stamps zero or negative, fields of the wrong type or null.
@example(name="three players, the play", auth=Auth(), body=Move(0, (("game", 2**70),)))
@example(name="three players, the play", auth=Auth(), body=Move(0, (("stamp", 2**70),)))
@example(name="three players, the play", auth=Auth(), body=Move(0, (("stamp", -(2**63)),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("game", 0),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("game", -1),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("game", True),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("stamp", None),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("values", [None, {}]),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("values", ["5H"] * 7),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("action", "a" * 5000),)))
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("action", "\ud800"),)))
@example(name="lobby", auth=Auth(), body=Move(0, (("action", "computer:\ud800"),)))
@example(name="lobby", auth=Auth(), body={"action": "join", "game": float("nan")})
# Another seat's cards, the crib's and the deck's, thrown or played by someone who has
# none of them; a claim of a hand's worth and one point more; a move by someone not seated.
@example(name="five-card, discards", auth=Auth(), body=Move(0, (("values", [Ref("theirs")] * 2),)))
@example(name="seven-card, second deal", auth=Auth(), body=Move(0, (("values", [Ref("crib")]),)))
@example(name="three players, the play", auth=Auth(), body=Move(0, (("values", [Ref("deck")]),)))
@example(name="counted by hand", auth=Auth(), body=Move(1, (("values", [Ref("claim", 1)]),)))
@example(name="counted by hand", auth=Auth(), body=Move(2))
@example(name="counted by hand", auth=Auth(person=1), body=Move(2))
@example(name="five-card, discards", auth=Auth(person=2), body=Move(0))
# A game of another channel, and from another channel's page; a game over.
@example(name="lobby", auth=Auth(), body=Move(0, (("game", Ref("other game")),)))
@example(name="lobby", auth=Auth("elsewhere"), body=Move(0))
@example(name="finished", auth=Auth(), body=Move(0, (("action", "play"),)))
@example(name="full lobby of six", auth=Auth(), body=Move(2))
async def test_any_move_is_answered_and_a_refusal_changes_nothing(
    served: Served, name: str, auth: Auth, body: Any
) -> None:
    """``POST api/act`` with ``body`` at the place ``name`` as ``auth``: checked as every
    request is (see the module)."""
    place = await served.place(name)
    await _call(served, "POST", "/activity/api/act", place, auth, body)


NEW_PLACES = ("no game", "lobby", "cancelled", "resigned", "against the computer")


@FUZZ
@given(
    name=st.sampled_from(NEW_PLACES),
    auth=auths,
    body=weighted((4, new_fields), (1, any_json), (1, raw)),
)
@example(name="no game", auth=Auth(), body={"players": 2**70})
@example(name="no game", auth=Auth(), body={"target": 2**63 - 1, "players": -1})
@example(name="no game", auth=Auth(), body={"variant": "x\ny" * 10})
@example(name="no game", auth=Auth(), body={"variant": "\ud800", "difficulty": "\ud800"})
@example(name="no game", auth=Auth(), body={"players": None, "target": None, "variant": None})
@example(name="no game", auth=Auth(), body={"vs_computer": 1, "scoring": ["lurch"]})
@example(name="no game", auth=Auth(), body={"players": 6, "teams": "pairs", "target": 61})
@example(name="no game", auth=Auth(), body=b"[" * 2000 + b"]" * 2000)
async def test_any_new_game_is_answered_and_a_refusal_opens_nothing(
    served: Served, name: str, auth: Auth, body: Any
) -> None:
    """``POST api/new`` with ``body`` (``/cribbage new``'s choices of any shape) at the
    place ``name`` as ``auth``: checked as every request is (see the module)."""
    place = await served.place(name)
    await _call(served, "POST", "/activity/api/new", place, auth, body)


@FUZZ
@given(
    name=st.sampled_from(("no game", "lobby")),
    body=weighted((2, good_token), (3, token_fields), (1, any_json), (1, raw)),
)
@example(name="lobby", body={"code": Ref("code", 1), "instance_id": Ref("instance")})
@example(name="lobby", body={"code": Ref("code", 1), "instance_id": Ref("instance", 1)})
@example(name="lobby", body={"code": "code-99", "instance_id": Ref("instance")})
@example(name="lobby", body={"code": "x" * 201, "instance_id": Ref("instance")})
@example(name="lobby", body={"code": Ref("code", 0), "instance_id": ["i-1"]})
async def test_any_sign_in_is_answered_and_names_only_its_person(
    served: Served, name: str, body: Any
) -> None:
    """``POST api/token`` with ``body`` (the SDK's code and the instance, of any shape):
    checked as every request is; a session given is the person's whose code it was, at the
    instance's channel, and reads back as such."""
    place = await served.place(name)
    answer = await _call(served, "POST", "/activity/api/token", place, Auth("none"), body)
    if answer.get("ok"):
        sent = await Reader(served, place, Auth("none")).resolve(body)
        session = served.sessions.read(str(answer["session"]))
        assert session is not None and f"code-{session.user_id}" == sent["code"]
        assert f"i-{session.channel_id}" == sent["instance_id"] == session.instance_id
        assert set(answer) == {"ok", "access_token", "session", "you"}


#: Query strings no route reads: a game's number (the place's, or a finished game of another
#: channel), a seat, a page, a step.
queries = st.lists(
    st.tuples(
        weighted((3, st.sampled_from(["game", "seat", "page", "step", "v"])), (1, st.text())),
        weighted(
            (3, st.sampled_from(["GAME", "OTHER", "0", "1", "-1", "2", "99", str(2**70), ""])),
            (1, st.text(max_size=12)),
        ),
    ),
    max_size=3,
).map(tuple)

ROUTES = (
    ("GET", "/activity/api/state"),
    ("GET", "/activity/api/review"),
    ("POST", "/activity/api/act"),
    ("POST", "/activity/api/new"),
)


@FUZZ
@given(
    name=st.sampled_from(NAMES),
    route=st.sampled_from(ROUTES),
    auth=auths,
    body=st.one_of(moves, new_fields),
    query=queries,
)
@example(name="finished", route=ROUTES[1], auth=Auth(), body=Move(), query=())
@example(name="finished", route=ROUTES[1], auth=Auth("expired"), body=Move(), query=())
@example(name="lobby", route=ROUTES[1], auth=Auth(), body=Move(), query=(("game", "OTHER"),))
@example(
    name="seven-card, second deal",
    route=ROUTES[0],
    auth=Auth(person=2),
    body=Move(),
    query=(("seat", "0"), ("game", "GAME")),
)
@example(
    name="counted by hand", route=ROUTES[0], auth=Auth("changed", 1, 40), body=Move(), query=()
)
@example(name="counted by hand", route=ROUTES[2], auth=Auth("foreign", 1), body=Move(), query=())
@example(name="lobby", route=ROUTES[2], auth=Auth("scheme", 0, 1), body=Move(), query=())
@example(
    name="lobby",
    route=ROUTES[0],
    auth=Auth("junk", text="Bearer " + "x" * 2000),
    body=Move(),
    query=(),
)
@example(
    name="lobby", route=ROUTES[0], auth=Auth("junk", text="Bearer a.b.c"), body=Move(), query=()
)
@example(name="lobby", route=ROUTES[0], auth=Auth("junk", text="Bearer é.ü"), body=Move(), query=())
async def test_every_route_reads_only_a_good_session(
    served: Served,
    name: str,
    route: tuple[str, str],
    auth: Auth,
    body: Any,
    query: tuple[tuple[str, str], ...],
) -> None:
    """Each route that needs a session (the state, the review, a move, a new game), with a
    good session or a forged one at the place ``name``, and a query string no route reads:
    a forged session is 401 in a sentence and changes nothing; a good one is answered as the
    reader may see, and a look (the state, the review) as it is without the query string, for
    the session's channel alone (see the module)."""
    place = await served.place(name)
    method, path = route
    sent = body if method == "POST" else None
    await _call(served, method, path, place, auth, sent, query)


# -- the live socket -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """What a live page sends first: ``text`` (with ``SESSION`` standing for the session
    ``auth`` makes, as a JSON string's content), ``binary``, or nothing (``close``: the page
    closes at once); then ``after``, sent once the socket is open."""

    kind: str = "text"
    text: str = '{"session": SESSION}'
    data: bytes = b""
    after: tuple[str, ...] = ()


SESSION = "SESSION"


def _opens(hello: Hello, token: str) -> bool:
    """Whether ``hello`` shows the session ``token``: a JSON object whose ``session`` it is."""
    if hello.kind != "text":
        return False
    try:
        shown = json.loads(hello.text.replace(SESSION, json.dumps(token)))
    except (ValueError, RecursionError):
        return False
    return isinstance(shown, dict) and shown.get("session") == token


#: What a page may send after its hello (nothing of it is read).
chatter = st.lists(st.text(max_size=20), max_size=3).map(tuple)
hellos = weighted(
    # Mostly the page's own hello.
    (4, st.builds(Hello, after=chatter)),
    (
        3,
        st.builds(
            Hello,
            st.just("text"),
            st.sampled_from(
                [
                    '{"session": SESSION, "session2": 1}',
                    '{"session": [SESSION]}',
                    '{"session": {"session": SESSION}}',
                    "[SESSION]",
                    "SESSION",
                    '"SESSION"',
                    '{"Session": SESSION}',
                    '{"session": null}',
                    '{"session": 5}',
                    "",
                    "{",
                ]
            )
            | any_json.map(json.dumps),
            st.just(b""),
            chatter,
        ),
    ),
    # JSON nested deeper than Python's reader goes (it fits in the 4 KB a message may be).
    (1, st.builds(Hello, text=st.integers(1000, MAX_BODY // 2).map(lambda d: "[" * d + "]" * d))),
    (1, st.builds(Hello, st.just("binary"), st.just(""), st.binary(max_size=64))),
    (1, st.just(Hello("close"))),
)


@FUZZ
@given(name=st.sampled_from(NAMES), auth=auths, hello=hellos)
@example(name="lobby", auth=Auth(), hello=Hello(text="[" * 2000 + "]" * 2000))
@example(name="lobby", auth=Auth(), hello=Hello(text='{"session": "\\ud800.x"}'))
@example(name="lobby", auth=Auth(), hello=Hello(text="x" * (MAX_BODY + 1)))
@example(name="counted by hand", auth=Auth(person=1), hello=Hello(after=("junk", "{}")))
@example(name="seven-card, second deal", auth=Auth(person=2), hello=Hello())
@example(name="lobby", auth=Auth("expired"), hello=Hello())
@example(name="lobby", auth=Auth(), hello=Hello("binary", data=b'{"session": 1}'))
@example(name="lobby", auth=Auth(), hello=Hello("close"))
async def test_a_live_socket_opens_only_for_a_good_session(
    served: Served, name: str, auth: Auth, hello: Hello
) -> None:
    """``api/live`` with ``hello`` as its first message: the game as the session's person
    sees it (nothing they may not know) when the hello is ``{"session": <a good one>}``,
    else the socket closed with 4001; nothing logged as an error, nothing stored changed."""
    place = await served.place(name)
    header = (await served.headers(auth, place)).get("Authorization", "")
    token = header.removeprefix("Bearer ") if header.startswith("Bearer ") else header
    reader = Reader(served, place, auth)
    if place.game_id is not None:
        reader.knew[place.game_id] = await reader.knowledge(place.game_id)
    before = await served.places.stored(place)
    note(f"live at {place.name!r} as {auth}: {hello}")
    served.caplog.clear()
    async with served.client.ws_connect("/activity/api/live") as socket:
        if hello.kind == "text":
            await socket.send_str(hello.text.replace(SESSION, json.dumps(token)))
        elif hello.kind == "binary":
            await socket.send_bytes(hello.data)
        else:
            await socket.close()
        for more in hello.after:
            await socket.send_str(more)
        got = await socket.receive(timeout=PATIENCE)
        # (A forgery of the header's scheme alone, a good token after another word or none,
        # is still a good session when the hello shows the token itself.)
        if _opens(hello, token) and served.sessions.read(token) is not None:
            assert got.type is aiohttp.WSMsgType.TEXT, got
            message = json.loads(got.data)
            assert message["type"] == "state" and len(got.data) <= ANSWER_BYTES
            state = message["state"]
            game = state["game"]
            known = reader.knew.get(game, Knowledge(frozenset(), frozenset()))
            if isinstance(game, int):
                known = known | await reader.knowledge(game)
            named = known.check_state(state, f"live {hello}")
            event(f"live state, cards in it: {'some' if named else 0}")
        elif hello.kind != "close":
            # The session it shows is not one: closed (4001 when the page could send more;
            # a hello too long for the socket is closed by aiohttp itself, 1009).
            assert got.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), got
            assert got.type is aiohttp.WSMsgType.CLOSED or got.data in (4001, 1009), got
            event(f"closed: {got.data}")
    assert_quiet(served.caplog, hello)
    assert await served.places.stored(place) == before
