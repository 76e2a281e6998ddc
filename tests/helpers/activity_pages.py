"""The Activity's pages in Chromium, for the end-to-end tests (tests/e2e/test_activity*.py):
a person's page opened in fakediscord's stand-in for the Discord client, everything it
receives kept and checked for cards its person may not know, moves made at the table or typed
in the chat, and the waits that prove a move landed or a page shows a version."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from playwright.async_api import Browser, FrameLocator, Page, ViewportSize

from bot.core.messages.prompts import controls_for
from engine.cards import Card
from engine.events import Claimed
from engine.game import Game
from engine.scoring import score_hand
from fakediscord import Channel, FakeDiscord, Guild, Message, User
from fakediscord.activities import Instance
from fakediscord.runner import free_port
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import Database, Snapshot, read_game, rows
from tests.helpers.card_leaks import cards_named, revealed_by

SECRET = "a test secret, long enough"
PHONE: ViewportSize = {"width": 360, "height": 640}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
#: What a page is opened on: a phone (:data:`PHONE`, touch) or a desktop (:data:`DESKTOP`).
Device = Literal["phone", "desktop"]


async def with_the_activity(
    fd: FakeDiscord, bots: BotLauncher, database: Database, guild: Guild | None, **env: str
) -> int:
    """Start the bot with the Activity on: its web server on a free port, the Activity's URL
    mapped to it in fakediscord, the OAuth2 secret fakediscord knows; ``env`` added; its
    commands synced to ``guild`` (None: globally, for DMs and group DMs too). The port."""
    port = free_port()
    await fd.enable_activity(f"127.0.0.1:{port}/activity")
    settings = {
        "WEB_PORT": str(port),
        "WEB_SECRET": SECRET,
        "CLIENT_SECRET": fd.activities.client_secret,
        **env,
    }
    dev_guild = None if guild is None else guild.id
    await bots.process(database=database, dev_guild=dev_guild, env=settings)
    return port


#: How long a page may take to show a move (a busy machine: generous; the wait ends at once).
SHOWN_WITHIN = 30_000


@dataclass
class Knowledge:
    """What each person may know at each version of the game: their own cards of every deal so
    far, and every card the game made public (the play, the starter, the shows, the hand being
    counted)."""

    seat_of: dict[int, int]
    snapshots: dict[int, Snapshot] = field(default_factory=dict)
    own: dict[int, set[Card]] = field(default_factory=dict)
    public: set[Card] = field(default_factory=set)
    known_at: dict[tuple[int, int | None], set[Card]] = field(default_factory=dict)

    def note(self, snap: Snapshot) -> None:
        """Take the game as saved at ``snap.version``."""
        game, log = snap.game, snap.log
        self.snapshots[snap.version] = snap
        if game is None or log is None:
            return
        for deal in log.deals:
            self.public |= revealed_by(log.events(deal))
        view = game.public_view()
        if view.count_turn is not None:
            self.public |= set(view.count_turn.cards)
        if view.starter is not None:
            self.public.add(view.starter)
        for seat in range(game.state.num_players):
            mine = game.view(seat)
            self.own.setdefault(seat, set()).update(mine.hand, mine.kept, mine.discards)
        for seat in (None, *range(game.state.num_players)):
            known = set(self.public) | (self.own.get(seat, set()) if seat is not None else set())
            self.known_at[(snap.version, seat)] = known

    def known(self, version: int, deal: int, seat: int | None) -> set[Card] | None:
        """What ``seat`` may know in the look of ``version``: at that version, or the next one
        noted in the same deal (knowledge only grows within a deal, so never too much)."""
        for noted in sorted(v for v in self.snapshots if v >= version):
            game = self.snapshots[noted].game
            if game is not None and game.state.deal_number != deal:
                break
            if (noted, seat) in self.known_at:
                return self.known_at[(noted, seat)]
        return None


@dataclass
class Person:
    """One person at the Activity: their page, and everything it received."""

    user: User
    page: Page
    #: Everything received, as it came: the live socket's frames and the server's answers.
    received: list[str] = field(default_factory=list)
    looks: list[dict[str, Any]] = field(default_factory=list)
    read: int = 0
    checked: int = 0
    #: What the browser said went wrong on the page (console errors, uncaught exceptions: a
    #: content-policy refusal is one).
    errors: list[str] = field(default_factory=list)

    @property
    def table(self) -> FrameLocator:
        return self.page.frame_locator("iframe")

    def states(self) -> list[dict[str, Any]]:
        """Every look of the game this page was sent (frames and answers), in order."""
        for text in self.received[self.read :]:
            data = json.loads(text)
            if isinstance(data, dict) and isinstance(data.get("state"), dict):
                self.looks.append(data["state"])
        self.read = len(self.received)
        return self.looks


async def open_page(
    browser: Browser,
    fd: FakeDiscord,
    user: User,
    instance: Instance,
    *,
    phone: bool,
    unsupported: tuple[str, ...] = (),
) -> Person:
    """``user``'s page in ``instance``, in fakediscord's stand-in client on a phone or a
    desktop (``unsupported``: SDK commands that client lacks)."""
    context = await browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        color_scheme="dark",
        is_mobile=phone,
        has_touch=phone,
    )
    page = await context.new_page()
    person = Person(user, page)

    def on_socket(ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: person.received.append(
                payload if isinstance(payload, str) else payload.decode()
            ),
        )

    async def on_response(response: Any) -> None:
        if "/api/" in response.url and "/api/live" not in response.url:
            try:
                person.received.append(await response.text())
            except Exception:
                return

    def on_console(message: Any) -> None:
        if message.type == "error":
            person.errors.append(f"{message.text} ({message.location.get('url')})")

    page.on("websocket", on_socket)
    page.on("console", on_console)
    page.on("pageerror", lambda error: person.errors.append(f"uncaught: {error}"))
    page.on("response", lambda r: asyncio.ensure_future(on_response(r)))
    platform = "mobile" if phone else "desktop"
    await page.goto(
        fd.activity_client_url(user, instance, platform=platform, unsupported=unsupported)
    )
    return person


def check_looks(person: Person, knowledge: Knowledge) -> int:
    """Every look this page got since the last check: no card its person may not know."""
    seat = knowledge.seat_of.get(person.user.id)
    looks = person.states()
    cards = 0
    for state in looks[person.checked :]:
        if state.get("status") in ("finished", "cancelled", "expired"):
            continue  # (over: every hand is public, the review shows them all)
        named = cards_named(json.dumps(state, ensure_ascii=False))
        cards += len(named)
        if not named:
            continue
        # A show of an earlier deal names what that deal made public (cards now back in play).
        shown = state.get("show") or {}
        if shown.get("deal", 0) < state.get("deal", 0):
            named -= cards_named(json.dumps(shown, ensure_ascii=False))
        known = knowledge.known(state["version"], state["deal"], seat)
        assert known is not None, f"no game noted for version {state['version']}"
        leaked = named - known
        assert not leaked, f"{person.user.name} was sent {leaked} at version {state['version']}"
        if seat is None:
            assert "hand" not in state and "act" not in state, "a spectator was sent a hand"
    person.checked = len(looks)
    return cards


@dataclass
class Move:
    seat: int
    kind: str
    values: tuple[str, ...] = ()


def short_claim(game: Game, events: list[Any]) -> bool:
    """Whether the claim open to muggins is short of what the hand is worth (``events``: the
    deal's, where the claim is)."""
    window = game.state.muggins_window
    assert window is not None
    claims = [e for e in events if isinstance(e, Claimed)]
    claim = next(c for c in reversed(claims) if c.seat == window.seat and c.crib == window.crib)
    return score_hand(claim.cards, claim.starter, crib=claim.crib).total > window.claimed


def next_move(snap: Snapshot, seats: list[int], claims: list[bool]) -> Move:
    """The next move a sensible player makes: muggins on a short claim, else let a claim
    stand, else count (the first claim of a pone's hand worth something a point short, to be
    mugginsed while the dealer's count follows: a hand worth nothing cannot be claimed short,
    and a muggins on the deal's last count is followed at once by the next deal), else throw
    the hand's first cards (as many as it throws), else play the first card that may be
    played. ``claims`` says of each claim made so far whether it was short."""
    game, log = snap.game, snap.log
    assert game is not None and log is not None
    events = list(log.events(game.state.deal_number))
    controls = {s: controls_for(game.view(s), snap.id, snap.version) for s in seats}
    for seat, c in controls.items():
        if c is not None and (c.kind == "muggins" or c.muggins) and short_claim(game, events):
            return Move(seat, "muggins")
    for seat, c in controls.items():
        if c is not None and c.kind == "muggins":
            return Move(seat, "pass")
    for seat, c in controls.items():
        if c is not None and c.kind == "count":
            turn, starter = game.count_turn, game.public_view().starter
            assert turn is not None and starter is not None
            worth = score_hand(turn.cards, starter, crib=turn.crib).total
            pone = not turn.crib and turn.seat != game.state.dealer
            short = pone and worth > 0 and not any(claims)
            claim = worth - 1 if short else worth
            claims.append(short)
            return Move(seat, "count", (str(claim),))
    for seat, c in controls.items():
        if c is not None and c.kind == "discard":
            hand = game.view(seat).hand
            return Move(seat, "discard", tuple(card.code for card in hand[: c.pick]))
    for seat, c in controls.items():
        if c is not None and c.kind == "play":
            card = next(choice for choice in c.cards if choice.enabled)
            return Move(seat, "play", (card.code,))
    raise AssertionError(f"nobody can move at version {snap.version} ({game.state.phase})")


async def in_chat(fd: FakeDiscord, user: User, channel: Channel, move: Move) -> None:
    """The same move typed in the chat."""
    line = {
        "discard": f"/cribbage discard cards:{' '.join(move.values)}",
        "play": f"/cribbage play card:{move.values[0]}",
        "count": f"/cribbage count points:{move.values[0]}",
    }[move.kind]
    answer = await fd.slash(user, channel, line)
    assert answer.response is not None, line


async def at_the_table(person: Person, move: Move) -> None:
    """The move made on the Activity's page, as a person taps it."""
    table = person.table
    if move.kind == "discard":
        for code in move.values:
            await table.locator(f'[data-card="{code}"]').click()
        await table.locator('[data-key="discard"]').click()
    elif move.kind == "play":
        await table.locator(f'[data-card="{move.values[0]}"]').click()
    elif move.kind == "count":
        await table.locator(f'[data-claim="{move.values[0]}"]').click()
    else:
        await table.locator(f'[data-key="{move.kind}"]').click()


async def shows(person: Person, game_id: int, version: int) -> None:
    selector = f'#app[data-game="{game_id}"][data-version="{version}"]'
    await person.table.locator(selector).wait_for(state="attached", timeout=SHOWN_WITHIN)


async def shows_saved(person: Person, db: Any, game_id: int) -> None:
    """Wait until ``person``'s page shows game ``game_id`` as the bot saved it last."""
    await shows(person, game_id, version_of(db, game_id))


async def pages_showing(
    browser: Browser,
    fd: FakeDiscord,
    db: Any,
    instance: Instance,
    game_id: int,
    *people: tuple[User, Device],
) -> list[Person]:
    """The pages of ``people`` in ``instance``, each opened on its device, once each shows
    game ``game_id`` as saved (:func:`shows_saved`), in the order given."""
    pages = [
        await open_page(browser, fd, user, instance, phone=device == "phone")
        for user, device in people
    ]
    for person in pages:
        await shows_saved(person, db, game_id)
    return pages


async def all_checked(
    people: list[Person], knowledge: Knowledge, game_id: int, snap: Snapshot
) -> int:
    """Note ``snap`` in ``knowledge``, wait until each page shows its version, and check what
    each got since its last check (check_looks); answers how many cards they named."""
    knowledge.note(snap)
    cards = 0
    for person in people:
        await shows(person, game_id, snap.version)
        cards += check_looks(person, knowledge)
    return cards


async def fits(person: Person, path: Path) -> None:
    """The page fits its window's width (nothing to scroll sideways), and its picture."""
    frame = person.page.frames[1]
    wide = await frame.evaluate("document.documentElement.scrollWidth")
    width = await frame.evaluate("window.innerWidth")
    assert wide <= width, f"{person.user.name}'s page is {wide}px wide in {width}px"
    await person.page.screenshot(path=str(path))


def button(message: Message, label: str) -> str:
    found = next((b for b in message.buttons() if b.get("label") == label), None)
    assert found is not None, f"no {label} button on {message.words()!r}"
    return str(found["custom_id"])


def version_of(db: Any, game_id: int) -> int:
    [(version,)] = rows(db, "SELECT version FROM games WHERE id = ?", (game_id,))
    return int(version)


async def moved(fd: FakeDiscord, db: Any, game_id: int, version: int) -> None:
    """Wait for the bot to save the game past ``version`` (the move landed)."""
    await fd.wait_for(lambda: version_of(db, game_id) > version, timeout=60, stall=20)


async def tapped(fd: FakeDiscord, db: Any, game_id: int, person: Person, key: str) -> None:
    """``person`` taps the table's ``key`` control (``join``: takes a seat, ``start``: deals),
    and the bot saves the game past the version it had before."""
    before = version_of(db, game_id)
    await person.table.locator(f'[data-key="{key}"]').click()
    await moved(fd, db, game_id, before)


async def launched(fd: FakeDiscord, user: User, channel: Channel, *joining: User) -> Instance:
    """The Activity's instance ``user`` opens in ``channel`` from the App Launcher (the Entry
    Point command), with ``joining`` joining them there."""
    instance = (await fd.launch(user, channel)).activity_instance
    assert instance is not None
    for friend in joining:
        assert fd.activities.join(friend, channel) is instance
    return instance


async def dealt_at_the_table(
    fd: FakeDiscord, db: Any, game_id: int, opener: Person, *joining: Person
) -> None:
    """From the lobby on their pages, ``joining`` take their seats and ``opener`` deals (each
    tap waits for the game saved past it)."""
    for person in (opener, *joining):
        await shows_saved(person, db, game_id)
    for person in joining:
        await tapped(fd, db, game_id, person, "join")
    await tapped(fd, db, game_id, opener, "start")


@dataclass
class Players:
    """A game's players as the tests move them: each seat's user (``users``), and the page of
    those who play at the table (``pages``); a seat without one moves in ``channel``'s chat."""

    fd: FakeDiscord
    db: Any
    game_id: int
    channel: Channel
    users: dict[int, User]
    pages: dict[int, Person] = field(default_factory=dict)
    #: Whether each claim made so far was short (see :func:`next_move`).
    claims: list[bool] = field(default_factory=list)

    def next(self, snap: Snapshot) -> Move:
        """The move a sensible player makes next (:func:`next_move`)."""
        return next_move(snap, sorted(self.users), self.claims)

    async def make(self, snap: Snapshot, move: Move, *, chat: bool = False) -> Snapshot:
        """``move`` tapped on its player's page once it shows ``snap`` (typed in the chat
        with ``chat``, or for a seat without a page); answers the game once the bot saved it
        past ``snap``."""
        page = self.pages.get(move.seat)
        if chat or page is None:
            await in_chat(self.fd, self.users[move.seat], self.channel, move)
        else:
            await shows(page, self.game_id, snap.version)
            await at_the_table(page, move)
        await moved(self.fd, self.db, self.game_id, snap.version)
        return read_game(self.db, self.game_id)
