"""The Activity with the variants (issue 35), end to end in Chromium: six seats in two teams of
three, seven-card hands, five players each for themselves, four as partners and five-card
hands, at a phone's size (360 x 640) and a desktop's (the crib named for the dealer).

What a player would see is checked by the page's boxes, at each phase of the first deal and on
each page: every seat there with its whole name; the board with a track per side (two for two
teams of three, five for five-hand), each in a colour of its own, and the lines the game's
rules give (seven-card's lurch at 91, where the board drew its own at half the target, 90);
what the table plays named as the chat's lobby names it; and every card of the hand (seven at
seven-card's crib) in one row inside the window, at least as large as a finger needs, apart
from each other and from every other control, and the very element a tap at its middle lands
on. The cards are tapped there too (the deal is played at the table on both sizes, the other
players typing theirs in the chat). Every frame and answer each page receives is checked for
a card its person may not know (tests.helpers.activity_pages), and no page logs an error.

The six-hand game is opened from the Activity itself, with no game in the channel: its new
game's choices offer what ``/cribbage new`` offers, the variants by the players they seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fakediscord import Channel, FakeDiscord, User
from fakediscord.testing import BotLauncher
from tests.helpers.activity_pages import (
    SHOWN_WITHIN,
    Knowledge,
    Person,
    Players,
    all_checked,
    check_looks,
    launched,
    open_page,
    pages_showing,
    shows,
    shows_saved,
    tapped,
    with_the_activity,
)
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import World, resign

#: A finger's tap: no card narrower or shorter than this (px).
TAP_WIDTH, TAP_HEIGHT = 40, 44

#: The page's boxes, in the frame's own window: its size, the seats with their names, the
#: board's tracks, what the table plays, each card of the hand (brought into view first) with
#: what a tap at its middle lands on, and every other control in sight.
LAYOUT = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
      width: r.width, height: r.height }; };
  const seats = [...document.querySelectorAll(".seats .seat")].map((seat) => {
    const name = seat.querySelector(".name");
    return { name: name.textContent, box: box(name), clipped: name.scrollWidth > name.clientWidth };
  });
  const cards = [...document.querySelectorAll(".hand [data-card]")];
  const hand = cards.map((card) => {
    card.scrollIntoView({ block: "nearest", inline: "nearest" });
    const b = box(card);
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return { code: card.dataset.card, box: b, hit: !!hit && card.contains(hit) };
  });
  // Every other control a tap can reach now (one under the phone's hand, which stays at the
  // bottom of the screen, is reached by scrolling it out from under).
  const onTop = (c) => { const b = box(c);
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return !!hit && (c.contains(hit) || hit.contains(c)); };
  const others = [...document.querySelectorAll("button, select, input, summary")]
    .filter((c) => !c.closest(".hand") && c.getClientRects().length && onTop(c))
    .map((c) => ({ what: c.dataset.key || c.textContent.slice(0, 30), box: box(c) }));
  return {
    width: window.innerWidth, height: window.innerHeight,
    wide: document.documentElement.scrollWidth,
    seats: seats,
    tracks: document.querySelectorAll("svg.board rect.lane").length,
    colours: new Set([...document.querySelectorAll("svg.board .peg:not(.back)")]
      .map((peg) => peg.getAttribute("fill"))).size,
    board: box(document.querySelector("svg.board")),
    marks: [...document.querySelectorAll("svg.board line.mark")].map((l) => Number(l.dataset.hole)),
    kind: (document.querySelector(".kind") || {}).textContent || "",
    hand: hand,
    others: others,
  };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share any area (touching edges do not)."""
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


@dataclass
class Table:
    """What a page of this game should show."""

    names: list[str]
    tracks: int
    kind: tuple[str, ...]
    #: The holes of the lines the game's rules draw on the board (seven-card's lurch: 91).
    lines: tuple[int, ...]


async def laid_out(person: Person, table: Table, *, cards: int | None = None) -> int:
    """Check what ``person`` sees (see the module) and answer how many cards their hand
    shows (``cards``: how many it must)."""
    frame = person.page.frames[1]
    seen: dict[str, Any] = await frame.evaluate(LAYOUT)
    who, width, height = person.user.name, seen["width"], seen["height"]
    assert seen["wide"] <= width, f"{who}'s page is {seen['wide']}px wide in {width}px"
    names = [s["name"].removesuffix(" (you)") for s in seen["seats"]]
    assert names == table.names, (who, names)
    for seat in seen["seats"]:
        assert not seat["clipped"], f"{seat['name']!r} is cut short on {who}'s page"
        assert seat["box"]["left"] >= 0 and seat["box"]["right"] <= width, (who, seat)
    assert seen["tracks"] == table.tracks, f"{who}'s board has {seen['tracks']} tracks"
    assert seen["colours"] == table.tracks, f"{who}'s board has {seen['colours']} peg colours"
    assert seen["board"]["right"] <= width and seen["board"]["width"] > 0, (who, seen["board"])
    assert seen["marks"] == list(table.lines), f"{who}'s board marks {seen['marks']}"
    for words in table.kind:
        assert words in seen["kind"], (who, seen["kind"])
    hand = seen["hand"]
    if cards is not None:
        assert len(hand) == cards, f"{who}'s hand shows {len(hand)} cards, not {cards}"
    # One row: a hand wrapping under itself would take half a phone's screen.
    assert len({round(card["box"]["top"]) for card in hand}) <= 1, (who, hand)
    for i, card in enumerate(hand):
        b = card["box"]
        # (Brought into view, a card may end a fraction of a pixel past the edge: rounding.)
        inside = b["left"] >= -1 and b["right"] <= width + 1
        assert inside and b["top"] >= -1 and b["bottom"] <= height + 1, (
            f"{card['code']} off {who}'s screen: {b}"
        )
        assert b["width"] >= TAP_WIDTH and b["height"] >= TAP_HEIGHT, (who, card)
        assert card["hit"], f"a tap on {card['code']} lands on something else on {who}'s page"
        for other in hand[i + 1 :]:
            assert not _overlap(b, other["box"]), f"{card['code']} and {other['code']} overlap"
        for control in seen["others"]:
            assert not _overlap(b, control["box"]), f"{card['code']} covers {control['what']!r}"
    return len(hand)


async def _start(
    world: World, bots: BotLauncher, extra: tuple[str, ...] = ()
) -> tuple[FakeDiscord, Channel, list[User]]:
    """The bot with the Activity on, and more people in the server (``extra``)."""
    fd = world.fd
    await with_the_activity(fd, bots, world.database, world.guild)
    more = [fd.add_user(name) for name in extra]
    for user in more:
        world.guild.add_member(user)
    return fd, world.general, more


def _seated(db: Any, game_id: int) -> dict[int, int]:
    """Who sits where: user id -> seat."""
    found = rows(db, "SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))
    return {int(user): int(seat) for seat, user in found if user is not None}


async def _first_deal(
    world: World,
    game_id: int,
    players: list[User],
    on_pages: list[Person],
    watchers: list[Person],
    kind: tuple[str, ...],
) -> None:
    """Start the game from the first of ``on_pages`` (the players with a page) and play its
    first deal: the seats with a page move there (tapping), the others in the chat; at each
    phase, on every page, check what it shows (a table with two tracks, ``kind``'s words; at
    the crib, every card the rules deal each seat with a page). The discard and the play must
    both be checked."""
    fd, channel, db = world.fd, world.general, world.database
    await tapped(fd, db, game_id, on_pages[0], "start")
    seat_of = _seated(db, game_id)
    users = {seat_of[user.id]: user for user in players}
    pages = {seat_of[person.user.id]: person for person in on_pages}
    moving = Players(fd, db, game_id, channel, users, pages)
    people = [*pages.values(), *watchers]
    knowledge = Knowledge({user.id: seat for seat, user in users.items()})
    snap = read_game(db, game_id)
    assert snap.game is not None
    holes = tuple(hole for hole, _ in snap.game.state.rules.lines)
    table = Table([users[seat].name for seat in sorted(users)], 2, kind, holes)
    checked: set[str] = set()
    seen = 0
    while snap.game is not None and snap.game.state.deal_number == 1:
        seen += await all_checked(people, knowledge, game_id, snap)
        phase = snap.game.state.phase.value
        if phase not in checked:
            checked.add(phase)
            dealer = snap.game.public_view().dealer
            for seat, person in pages.items():
                dealt = snap.game.state.rules.dealt(seat, dealer) if phase == "discard" else None
                await laid_out(person, table, cards=dealt)
            for person in watchers:
                await laid_out(person, table, cards=0)
        snap = await moving.make(snap, moving.next(snap))
    seen += await all_checked(people, knowledge, game_id, snap)
    for person in people:
        await laid_out(person, table)
    assert seen > 50, f"only {seen} card mentions checked"
    for person in people:
        assert person.errors == [], (person.user.name, person.errors)
    assert {"discard", "play"} <= checked, checked


async def _partners_changed(
    world: World, game_id: int, opener: Person, other: Person, people: list[Person]
) -> None:
    """At a full six-hand lobby, the game's opener taps *Change partners* (another player has
    no such button): every page, and the chat's lobby, name the new teams as seated (the
    table's lobby reads as the chat's)."""
    fd, db = world.fd, world.database
    partners_now = '[data-key="lobby-text"]'

    def teams() -> str:
        names = [
            name
            for (name,) in rows(
                db, "SELECT display_name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
        return " against ".join(
            " & ".join(names[s] for s in side) for side in ((0, 2, 4), (1, 3, 5))
        )

    before = teams()
    assert f"Partners: {before}." in await opener.table.locator(partners_now).inner_text()
    assert await other.table.locator('[data-key="partners"]').count() == 0
    await tapped(fd, db, game_id, opener, "partners")
    after = teams()
    assert after != before
    for person in people:
        await shows_saved(person, db, game_id)
        assert f"Partners: {after}." in await person.table.locator(partners_now).inner_text()
    await fd.wait_for(
        lambda: any(f"Partners: {after}." in m.words() for m in fd.messages(world.general)),
        timeout=30,
        stall=20,
    )


async def test_six_seats_in_two_teams_opened_and_played_at_the_table(
    world: World, bots: BotLauncher
) -> None:
    fd, general, more = await _start(world, bots, ("Wilhelmina Featherstonehaugh", "Flo"))
    db = world.database
    al, bea, eve = world.players[0], world.players[1], world.spectator
    instance = await launched(fd, al, general)
    async with open_browser() as browser:
        al_page = await open_page(browser, fd, al, instance, phone=True)
        table = al_page.table
        # No game here yet: /cribbage new's choices, the variants by the players they seat.
        await table.locator('#app[data-status="none"]').wait_for(state="attached")
        players = table.locator('.new-game input[name="players"]')
        assert [await p.get_attribute("value") for p in await players.all()] == [
            "2",
            "3",
            "4",
            "5",
            "6",
        ]
        offered = table.locator('.new-game input[name="variant"]')
        two = [await v.get_attribute("value") for v in await offered.all()]
        assert two == ["standard", "five_card", "seven_card"], two
        await table.locator('[data-choice="players-6"]').click()
        six = [await v.get_attribute("value") for v in await offered.all()]
        assert six == ["six_hand", "six_hand_pairs"], six
        assert await table.locator('[data-choice="variant-six_hand"]').is_checked()
        await table.locator('[data-choice="target-61"]').click()
        chosen = table.locator('[data-key="chosen"]')
        await chosen.filter(
            has_text="Six-hand cribbage, 6 players in two teams of three"
        ).wait_for()
        await table.locator('[data-key="open"]').click()
        await table.locator('#app[data-status="lobby"]').wait_for(state="attached")
        game_id = latest_game_id(db, general.id)
        [(variant, seats, target)] = rows(
            db, "SELECT variant, num_players, target FROM games WHERE id = ?", (game_id,)
        )
        assert (variant, seats, target) == ("six_hand", 6, 61)
        # The lobby names the variant, as the chat's lobby does.
        lobby = table.locator(".lobby .kind")
        await lobby.filter(has_text="Six-hand cribbage, 6 players in two teams of three").wait_for()
        await fd.wait_for(
            lambda: any("Six-hand cribbage" in m.words() for m in fd.messages(general)),
            timeout=30,
            stall=20,
        )
        # The others take their seats in the chat; Bea watches from a desktop, Eve too.
        for user in (bea, world.players[2], world.players[3], *more):
            joined = await fd.slash(user, general, "/cribbage join")
            assert joined.response is not None
        assert fd.activities.join(bea, general) is instance
        assert fd.activities.join(eve, general) is instance
        bea_page, eve_page = await pages_showing(
            browser, fd, db, instance, game_id, (bea, "desktop"), (eve, "phone")
        )
        await shows_saved(al_page, db, game_id)
        await _partners_changed(world, game_id, al_page, bea_page, [al_page, bea_page, eve_page])
        await _first_deal(
            world,
            game_id,
            [al, bea, world.players[2], world.players[3], *more],
            [al_page, bea_page],
            [eve_page],
            ("Six-hand cribbage", "two teams of three", "to 61"),
        )
        # The show of the first deal: six hands and the crib, each with its owner.
        for person in (al_page, bea_page, eve_page):
            shown = person.table.locator(".show .shown")
            await shown.nth(6).wait_for(timeout=SHOWN_WITHIN)
            assert await shown.count() == 7


async def test_seven_cards_at_the_table_on_a_phone_and_a_desktop(
    world: World, bots: BotLauncher
) -> None:
    fd, general, _ = await _start(world, bots)
    db = world.database
    al, bea = world.players[0], world.players[1]
    opened = await fd.slash(al, general, "/cribbage new variant:seven_card")
    assert opened.original is not None and "Seven-card cribbage" in opened.original.words()
    joined = await fd.slash(bea, general, "/cribbage join")
    assert joined.response is not None
    game_id = latest_game_id(db, general.id)
    instance = await launched(fd, al, general, bea)
    async with open_browser() as browser:
        al_page, bea_page = await pages_showing(
            browser, fd, db, instance, game_id, (al, "phone"), (bea, "desktop")
        )
        for person in (al_page, bea_page):
            lobby = person.table.locator(".lobby .kind")
            await lobby.filter(has_text="Seven-card cribbage, 2 players, to 181").wait_for()
        await _first_deal(
            world, game_id, [al, bea], [al_page, bea_page], [], ("Seven-card cribbage", "to 181")
        )


async def test_five_hand_gives_each_player_a_track_of_their_own(
    world: World, bots: BotLauncher
) -> None:
    """Five players each for themselves (against the computer): five tracks in five colours,
    five seats, Al's hand, on a phone and a desktop."""
    fd, general, _ = await _start(world, bots)
    db = world.database
    al = world.players[0]
    opened = await fd.slash(al, general, "/cribbage new players:5 vs_computer:True target:61")
    assert opened.response is not None
    game_id = latest_game_id(db, general.id)
    instance = await launched(fd, al, general)
    found = rows(
        db, "SELECT seat, display_name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    snap = read_game(db, game_id)
    assert snap.game is not None
    holes = tuple(hole for hole, _ in snap.game.state.rules.lines)
    table = Table([str(name) for _, name in found], 5, ("Five-hand cribbage", "5 players"), holes)
    dealt = snap.game.state.rules.dealt(0, snap.game.public_view().dealer)
    knowledge = Knowledge({al.id: 0})
    knowledge.note(snap)
    async with open_browser() as browser:
        for phone in (True, False):
            page = await open_page(browser, fd, al, instance, phone=phone)
            await shows(page, game_id, snap.version)
            assert check_looks(page, knowledge) > 0
            await laid_out(page, table, cards=dealt)
            assert page.errors == [], page.errors


async def test_partners_and_five_card_fit_a_phone_and_name_the_cribs_owner(
    world: World, bots: BotLauncher
) -> None:
    """Four players as two teams of partners, and five-card cribbage (each against the
    computer): every seat and the board laid out as above on a phone and a desktop, and the
    crib named for its owner, the dealer, whose seat says so."""
    fd, general, _ = await _start(world, bots)
    db = world.database
    al = world.players[0]
    async with open_browser() as browser:
        for line, kind, tracks in (
            ("players:4 vs_computer:True target:61", ("two teams of two",), 2),
            ("variant:five_card vs_computer:True", ("Five-card cribbage",), 2),
        ):
            opened = await fd.slash(al, general, f"/cribbage new {line}")
            assert opened.response is not None, line
            game_id = latest_game_id(db, general.id)
            snap = read_game(db, game_id)
            assert snap.game is not None
            found = rows(
                db,
                "SELECT seat, display_name FROM seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
            names = [str(name) for _, name in found]
            holes = tuple(hole for hole, _ in snap.game.state.rules.lines)
            dealer = snap.game.public_view().dealer
            dealt = snap.game.state.rules.dealt(0, dealer)
            instance = await launched(fd, al, general)
            for phone in (True, False):
                page = await open_page(browser, fd, al, instance, phone=phone)
                await shows(page, game_id, snap.version)
                await laid_out(page, Table(names, tracks, kind, holes), cards=dealt)
                crib = await page.table.locator(".crib .label").inner_text()
                assert crib == f"{names[dealer]}'s crib", (line, crib, names, dealer)
                badged = page.table.locator(".seats .seat", has_text="Dealer")
                assert await badged.count() == 1, line
                assert names[dealer] in await badged.locator(".name").inner_text(), line
                assert page.errors == [], page.errors
                await page.page.context.close()
            resigned = await resign(fd, al, general)
            assert resigned.original is not None, line
