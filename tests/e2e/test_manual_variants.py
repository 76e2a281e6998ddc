"""Counting by hand (`counting:manual`) at every table a variant offers, through Discord.

For each table of :func:`tests.helpers.variant_tables.every_table` (the standard game for two,
three and four, five-card, seven-card, five-hand, six-hand in threes and in pairs) people fill
every seat of a `/cribbage new ... counting:manual` lobby, to the variant's longest target
(two deals never end the game: six-hand's sides of three once reached 61 in two), and play
from their hand messages by DM until the show. There every hand and the crib is
claimed from the count menus of its owner's hand message (every value a hand can score there
offered once, no menu over Discord's 25): the first claim worth a point is short and an
opponent takes the points with **Muggins!**, the next short one every opponent lets stand with
**No muggins**, the rest are exact (a claim the next hand waits for let stand likewise). The
owner of the first hand also types a value no hand of the variant scores, and the command's
highest where the variant's is lower, which the bot must hear and refuse with the variant's
range (a claim over the hand's value is not refused: it is made, once, and costs the points
over). Then:

- every claim and every muggins is on the deal's table with the score it made;
- every opponent's hand message, and only theirs, offered Muggins! on a claim;
- no version of any message a player or Eve (watching) saw shows a card hidden from them;
- the emulator refused nothing the bot sent (it refuses what Discord refuses), and the bot
  logged no error (the ``bots`` fixture fails the test on one).

One show is played, two when the first had too few hands worth a point to be short twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.core.base.text import plural
from bot.discord.options import HIGHEST_CLAIM
from engine.cards import Card
from engine.game import Game
from engine.phase import Phase
from engine.scoring import claim_values, score_hand
from fakediscord import FakeDiscord, Message, User
from fakediscord.model import walk_components
from fakediscord.runner import BotLauncher
from tests.helpers.bot_db import (
    OwnedMessage,
    Snapshot,
    latest_game_id,
    logged_actions,
    owned_messages,
    read_game,
)
from tests.helpers.card_leaks import LeakWatch, hidden_from, public_cards, revealed_by
from tests.helpers.expected_views import live_controls
from tests.helpers.table_driver import World, until
from tests.helpers.variant_tables import Table, every_table

#: The people past the world's four players, for the tables of five and six.
MORE_NAMES = ("Flo", "Gus")
#: Discord: at most 25 options in a select menu.
MOST_OPTIONS = 25


def _line(table: Table) -> str:
    variant = table.variant
    line = f"/cribbage new variant:{variant.name} players:{table.players}"
    if table.teams:
        line += f" teams:{table.teams}"
    return f"{line} target:{max(variant.targets)} counting:manual"


@dataclass
class ManualTable:
    """One manual game played by people at every seat, checked as it goes."""

    world: World
    users: list[User]
    game_id: int = 0
    snap: Snapshot | None = None
    #: (deal, seat) -> the cards that seat was dealt (a coach's line may name them).
    dealt: dict[tuple[int, int], set[Card]] = field(default_factory=dict)
    #: What each deal's table must say, line by line.
    expected: dict[int, list[_Line]] = field(default_factory=dict)
    watch: LeakWatch | None = None
    shorts: int = 0
    muggins_taken: int = 0
    passed: int = 0

    @property
    def fd(self) -> FakeDiscord:
        return self.world.fd

    @property
    def game(self) -> Game:
        assert self.snap is not None and self.snap.game is not None
        return self.snap.game

    def read(self) -> Snapshot:
        snap = read_game(self.world.database, self.game_id)
        assert snap.game is not None
        game = snap.game
        for seat in range(game.state.num_players):
            key = (game.state.deal_number, seat)
            if key not in self.dealt and game.state.phase is Phase.DISCARD:
                self.dealt[key] = set(game.hand(seat)) | set(game.view(seat).discards)
        return snap

    # -- opening ------------------------------------------------------------------------------

    async def open(self, table: Table) -> None:
        fd, general = self.fd, self.world.general
        creator, *others = self.users
        opened = await fd.slash(creator, general, _line(table))
        assert not opened.ephemeral, opened.words()
        assert "you count your hands (muggins)" in opened.words(), opened.words()
        lobby = opened.original
        assert lobby is not None
        self.game_id = latest_game_id(self.world.database, general.id)
        for user in others:
            joined = await fd.click(user, lobby, f"crib:{self.game_id}:lobby:join")
            assert joined.response is not None and joined.response.type == 7, joined
        await fd.click(creator, lobby, f"crib:{self.game_id}:lobby:start")
        self.snap = await until(fd, self._started)
        game = self.game
        assert game.state.rules.counting == "manual" and game.state.num_players == table.players
        # People sit in the order they joined.
        assert list(game.state.players) == [u.name for u in self.users], game.state.players
        assert self.snap.log is not None
        seat_of = {user.id: seat for seat, user in enumerate(self.users)}
        self.watch = LeakWatch(
            fd,
            general,
            [*self.users, self.world.spectator],
            seat_of,
            lambda seat, deal: self.dealt.get((deal, seat), set()),
            cut=revealed_by(self.snap.log.events(0)),
            public=self._public_in,
        )
        self.check_leaks(game)

    def _started(self) -> Snapshot | None:
        snap = self.read()
        return snap if snap.status == "active" else None

    # -- hidden cards -------------------------------------------------------------------------

    def _public_in(self, message: Message) -> set[Card]:
        """What a message about a deal (its table, ``table:N``, or a hand message,
        ``hand:N:seat``) may name whoever holds the cards now: what that deal made public (the
        show lays every hand face up), and on a hand message the cards its seat was dealt."""
        assert self.snap is not None and self.snap.log is not None
        log = self.snap.log
        keys = {row.message_id: key for key, row in self.owned().items()}
        kind, *rest = keys.get(message.id, "").split(":")
        if kind not in ("table", "hand") or not rest:
            return set()
        deal = int(rest[0])
        known = revealed_by(log.events(deal)) if deal in log.deals else set()
        if kind == "hand" and len(rest) == 2:
            known |= self.dealt.get((deal, int(rest[1])), set())
        return known

    def owned(self) -> dict[str, OwnedMessage]:
        return owned_messages(self.world.database, self.game_id)

    def check_leaks(self, before: Game) -> None:
        """No version of any message shows anyone a card hidden from them, before or after
        the step, unless the deal or the show has made it public."""
        assert self.watch is not None and self.snap is not None and self.snap.log is not None
        after, log = self.game, self.snap.log
        deals = {before.state.deal_number, after.state.deal_number}
        shown: set[Card] = set()
        for deal in deals:
            if deal in log.deals:
                shown |= revealed_by(log.events(deal))
        shown |= public_cards(before) | public_cards(after)

        def secret(seat: int | None) -> set[Card]:
            return (hidden_from(before, seat) | hidden_from(after, seat)) - shown

        self.watch.check(secret)

    # -- moves --------------------------------------------------------------------------------

    async def controls(self, user: User, prefix: str) -> Message:
        """``user``'s newest DM with a control whose custom id starts with ``prefix``."""

        def found() -> Message | None:
            for message in reversed(self.fd.dms(user)):
                for item in message.walk():
                    if str(item.get("custom_id", "")).startswith(prefix):
                        return message
            return None

        return await until(self.fd, found)

    async def moved(self, before: Snapshot) -> None:
        """Wait until the game has moved past ``before``; check the messages for leaks."""

        def later() -> Snapshot | None:
            snap = self.read()
            return snap if snap.version > before.version else None

        self.snap = await until(self.fd, later)
        assert before.game is not None
        self.check_leaks(before.game)

    async def play_to_the_show(self) -> None:
        """Discard and play from the hand messages until the show (or the game's end)."""
        for _ in range(80):
            snap = self.snap = self.read()
            game = self.game
            if game.state.phase in (Phase.SHOW, Phase.OVER):
                return
            if game.state.phase is Phase.DISCARD:
                seat = game.pending_discards()[0]
                user = self.users[seat]
                prefix = f"crib:{self.game_id}:discard:{game.state.deal_number}"
                message = await self.controls(user, prefix)
                menu = message.component(prefix)
                assert menu is not None
                count = game.view(seat).discard_count
                values = [o["value"] for o in menu["options"][:count]]
                await self.fd.select(user, message, prefix, values)
            else:
                assert game.state.turn is not None
                user = self.users[game.state.turn]
                prefix = f"crib:{self.game_id}:play:{snap.version}:"
                message = await self.controls(user, prefix)
                button = next(
                    b
                    for b in message.buttons()
                    if b["custom_id"].startswith(prefix) and not b.get("disabled")
                )
                await self.fd.click(user, message, button["custom_id"])
            await self.moved(snap)
        raise AssertionError("the show never came")

    # -- the show -----------------------------------------------------------------------------

    def worth(self) -> int:
        turn = self.game.count_turn
        assert turn is not None and self.game.state.starter is not None
        rules = self.game.state.rules
        return score_hand(turn.cards, self.game.state.starter, crib=turn.crib, rules=rules).total

    def side_name(self, side: int) -> str:
        """A side as the table names it: the player, or the partners ("Al & Cy & Eve")."""
        game = self.game
        return " & ".join(u.name for s, u in enumerate(self.users) if game.side_of(s) == side)

    def expect(self, deal: int, start: str, *parts: str, missed: int | None = None) -> None:
        """The deal's table must have a line starting with ``start`` and holding ``parts``
        (and for a breakdown, the points missed, or none)."""
        self.expected.setdefault(deal, []).append(_Line(start, parts, missed))

    async def count_menus(self, user: User) -> tuple[Message, list[dict[str, Any]]]:
        """``user``'s hand message with its count menus at the game's version: every claim the
        rules allow, once, lowest first, no menu over Discord's 25 options."""
        assert self.snap is not None
        prefix = f"crib:{self.game_id}:count:{self.snap.version}:"
        message = await self.controls(user, prefix)
        menus = [m for m in message.selects() if m["custom_id"].startswith(prefix)]
        offered = [int(o["value"]) for m in menus for o in m["options"]]
        assert offered == list(claim_values(self.game.state.rules)), offered
        assert all(len(m["options"]) <= MOST_OPTIONS for m in menus)
        return message, menus

    async def claim(self, points: int) -> None:
        """The owner of the hand to count claims ``points`` from their count menus; the table
        must show the claim with the score it made, then the hand's breakdown."""
        assert self.snap is not None
        before, game = self.snap, self.game
        turn = game.count_turn
        assert turn is not None
        user = self.users[turn.seat]
        message, menus = await self.count_menus(user)
        menu = next(m for m in menus if str(points) in [o["value"] for o in m["options"]])
        chosen = await self.fd.select(user, message, menu["custom_id"], [str(points)])
        assert chosen.response is not None and chosen.response.type == 7, chosen
        await self.moved(before)
        side = game.side_of(turn.seat)
        whose = f"{user.name}'s crib" if turn.crib else f"{user.name}'s hand"
        said = f" — {user.name} claims {points} ({self.side_name(side)}: "
        deal = game.state.deal_number
        self.expect(deal, f"{whose}: ", said + f"{self.game.state.scores[side]})")
        self.expect(deal, f"{whose} counted: ", missed=self.worth_of(before, turn.seat) - points)

    @staticmethod
    def worth_of(snap: Snapshot, seat: int) -> int:
        game = snap.game
        assert game is not None and game.count_turn is not None and game.state.starter is not None
        turn = game.count_turn
        return score_hand(
            turn.cards, game.state.starter, crib=turn.crib, rules=game.state.rules
        ).total

    def opponents(self, seat: int) -> list[int]:
        game = self.game
        return [s for s in range(game.state.num_players) if game.side_of(s) != game.side_of(seat)]

    async def muggins_buttons(self, owner: int) -> dict[int, Message]:
        """Every opponent of ``owner`` has Muggins! and No muggins on their hand message at
        the game's version; none of ``owner``'s side has Muggins!."""
        assert self.snap is not None
        version = self.snap.version
        button = f"crib:{self.game_id}:muggins:{version}"
        found: dict[int, Message] = {}
        for seat in self.opponents(owner):
            message = await self.controls(self.users[seat], button)
            assert message.component(f"crib:{self.game_id}:pass:{version}") is not None
            found[seat] = message
        game = self.game
        for seat in range(game.state.num_players):
            if game.side_of(seat) == game.side_of(owner):
                for message in self.fd.dms(self.users[seat]):
                    ids = [str(i.get("custom_id", "")) for i in message.walk()]
                    assert button not in ids, f"{self.users[seat].name} may muggins their side"
        return found

    async def take_muggins(self, owner: int, missed: int) -> None:
        """The first opponent of ``owner`` calls Muggins! on the short claim just made."""
        assert self.snap is not None
        before = self.snap
        deal = self.game.state.deal_number
        caller = self.opponents(owner)[0]
        user = self.users[caller]
        message = (await self.muggins_buttons(owner))[caller]
        click = await self.fd.click(user, message, f"crib:{self.game_id}:muggins:{before.version}")
        assert click.response is not None and click.response.type == 7, click
        await self.moved(before)
        side = self.game.side_of(caller)
        owner_name = self.users[owner].name
        took = f"Muggins! {user.name} takes the {plural(missed, 'point')} {owner_name} missed"
        self.expect(deal, took, f" ({self.side_name(side)}: {self.game.state.scores[side]})")
        self.muggins_taken += 1

    async def let_stand(self, owner: int) -> None:
        """Every opponent of ``owner`` lets the claim just made stand (No muggins), each from
        their hand message at the game's version then: the window closes once the last has."""
        assert self.snap is not None
        deal = self.game.state.deal_number
        await self.muggins_buttons(owner)
        for seat in self.opponents(owner):
            before = self.snap
            button = f"crib:{self.game_id}:pass:{before.version}"
            message = await self.controls(self.users[seat], button)
            click = await self.fd.click(self.users[seat], message, button)
            assert click.response is not None and click.response.type == 7, click
            await self.moved(before)
        assert self.game.state.muggins_window is None or self.game.state.deal_number != deal
        self.passed += 1

    async def show(self) -> None:
        """Claim every hand and the crib of this deal's show from the count menus: the first
        two hands worth a point (in the whole test) short, the first mugginsed, the second let
        stand; the rest exactly, each closing the window on the claim before it where its
        owner's side is the last that may call it, else let stand by every opponent's No
        muggins first (the next hand waits for them); so is the last claim's window."""
        deal = self.game.state.deal_number
        first = True
        while self.game.state.phase is Phase.SHOW and self.game.state.deal_number == deal:
            game = self.game
            turn = game.count_turn
            window = game.state.muggins_window
            sides = [game.side_of(seat) for seat in range(game.state.num_players)]
            if window is not None and (turn is None or window.holds(turn.seat, sides)):
                await self.let_stand(window.seat)
                continue
            assert turn is not None, "a show waiting on nothing"
            worth = self.worth()
            if first:
                await self.type_claims()
                first = False
            short = worth > 0 and self.shorts < 2
            points = max(v for v in claim_values(game.state.rules) if v < worth) if short else worth
            await self.claim(points)
            if self.game.state.phase is not Phase.SHOW or self.game.state.deal_number != deal:
                return
            if short:
                self.shorts += 1
                if self.shorts == 1:
                    await self.take_muggins(turn.seat, worth - points)
                else:
                    await self.let_stand(turn.seat)

    async def type_claims(self) -> None:
        """The owner of the hand to count types claims by ``/cribbage count`` that no hand of
        the variant scores: the first value below its highest that none scores, and the
        highest the command takes where it is more than the variant's. Each is refused with
        the variant's range, and the game does not move."""
        assert self.snap is not None
        turn = self.game.count_turn
        assert turn is not None
        user = self.users[turn.seat]
        claims = claim_values(self.game.state.rules)
        typed = [v for v in range(claims[-1]) if v not in claims][:1]
        if HIGHEST_CLAIM not in claims:
            typed.append(HIGHEST_CLAIM)
        for points in typed:
            line = f"/cribbage count points:{points}"
            answer = await self.fd.slash(user, self.world.general, line)
            assert answer.ephemeral and answer.words() == _claim_range(claims), line
        assert self.read().version == self.snap.version

    async def only_current_controls(self) -> None:
        """Wait until no DM of any player but their hand message of this deal has a live
        control (the closed deal's count menus and Muggins! buttons are gone)."""
        deal = self.game.state.deal_number

        def stale() -> list[str]:
            owned = self.owned()
            found = []
            for seat, user in enumerate(self.users):
                row = owned.get(f"hand:{deal}:{seat}")
                current = row.message_id if row else None
                found += [
                    f"{user.name}: {m.words()[:80]!r}"
                    for m in self.fd.dms(user)
                    if m.id != current and live_controls(m)
                ]
            return found

        try:
            await until(self.fd, lambda: not stale())
        except TimeoutError:
            raise AssertionError(f"live controls left on old DMs: {stale()}") from None

    async def table_says_it_all(self, deal: int) -> None:
        """The deal's table holds a line for every claim, breakdown and muggins."""
        wanted = self.expected.get(deal, [])
        assert wanted

        def table() -> str | None:
            row = owned_messages(self.world.database, self.game_id).get(f"table:{deal}")
            message = self.fd.world.messages.get(row.message_id) if row else None
            if message is None:
                return None
            lines = message.words().splitlines()
            if all(any(w.said_by(x) for x in lines) for w in wanted):
                return message.words()
            return None

        try:
            await until(self.fd, table)
        except TimeoutError:
            raise AssertionError(f"deal {deal}'s table never said all of {wanted}") from None


@dataclass(frozen=True)
class _Line:
    """A line the table must have: its start, what it holds, and for a hand's breakdown the
    points its claim missed (0: it says none)."""

    start: str
    parts: tuple[str, ...]
    missed: int | None

    def said_by(self, line: str) -> bool:
        if not line.startswith(self.start) or not all(p in line for p in self.parts):
            return False
        if self.missed is None:
            return True
        if self.missed == 0:
            return "missed" not in line
        return f" — {plural(self.missed, 'point')} missed" in line


def _claim_range(claims: tuple[int, ...]) -> str:
    """What the engine answers a claim no hand can make: "Claim from 0 to 29 points (no hand
    scores 19, 25, 26 or 27)."."""
    missing = [str(v) for v in range(claims[-1]) if v not in claims]
    return (
        f"Claim from 0 to {claims[-1]} points (no hand scores "
        f"{', '.join(missing[:-1])} or {missing[-1]})."
    )


TABLES = every_table()


def _seated(world: World, table: Table) -> list[User]:
    """The people who fill ``table``: the world's players, then more members."""
    users = list(world.players)
    for name in MORE_NAMES[: max(0, table.players - len(users))]:
        user = world.fd.add_user(name)
        world.guild.add_member(user)
        users.append(user)
    return users[: table.players]


def _ids(tables: list[Table]) -> list[str]:
    return [str(t).replace(" ", "-") for t in tables]


@pytest.mark.parametrize("table", TABLES, ids=_ids(TABLES))
async def test_a_manual_show_at_every_table(world: World, bots: BotLauncher, table: Table) -> None:
    fd = world.fd
    users = _seated(world, table)
    await bots.process(database=world.database, dev_guild=world.guild.id)
    played = ManualTable(world, users)
    await played.open(table)
    shows: list[int] = []
    while len(shows) < 2 and played.shorts < 2:
        await played.play_to_the_show()
        assert played.game.state.phase is Phase.SHOW, "a game over in two deals"
        shows.append(played.game.state.deal_number)
        await played.show()
    for deal in shows:
        await played.table_says_it_all(deal)
    assert played.muggins_taken == 1, "no hand worth a point in two shows"
    assert played.passed >= 1
    # The next deal's hand messages come, with the crib menu (each deal's crib is four).
    game = played.game
    assert game.state.phase is Phase.DISCARD and game.state.deal_number == shows[-1] + 1
    for seat in game.pending_discards():
        await played.controls(
            users[seat], f"crib:{played.game_id}:discard:{game.state.deal_number}"
        )
    # And every earlier DM lost its controls: no count menu or Muggins! left live.
    await played.only_current_controls()
    played.check_leaks(game)
    assert played.watch is not None and played.watch.cards_seen > 20
    refused = [(r.route, r.status, r.code) for r in fd.requests if r.status >= 400]
    assert not refused, refused


#: The tables where a claim has the most opponents: five each for themselves, and teams of
#: two (whose partner must not be offered Muggins!).
CROWDED = [t for t in TABLES if t.players == 5 or t.teams == "pairs"]


@pytest.mark.parametrize("table", CROWDED, ids=_ids(CROWDED))
async def test_a_claim_no_opponent_answers_is_closed_by_the_clock(
    world: World, bots: BotLauncher, table: Table
) -> None:
    fd = world.fd
    users = _seated(world, table)
    env = {"MUGGINS_SECONDS": "5"}
    await bots.process(database=world.database, dev_guild=world.guild.id, env=env)
    played = ManualTable(world, users)
    await played.open(table)
    await played.play_to_the_show()
    turn = played.game.count_turn
    assert turn is not None
    await played.claim(played.worth())
    claimed = played.snap
    assert claimed is not None and played.game.state.muggins_window is not None
    buttons = {f"crib:{played.game_id}:{kind}:{claimed.version}" for kind in ("muggins", "pass")}

    def ids(components: list[dict[str, Any]]) -> set[str]:
        return {str(item.get("custom_id", "")) for item in walk_components(components)}

    def offered(seat: int, now: bool) -> bool:
        """Whether a DM of ``seat`` shows the claim's buttons (``now``), or ever did."""
        for message in played.fd.dms(users[seat]):
            versions = [message.version()] if now else [*message.history, message.version()]
            if any(buttons <= ids(v.components) for v in versions):
                return True
        return False

    # Nobody answers the claim: the clock closes its window.
    await played.moved(claimed)
    closed = logged_actions(world.database, played.game_id)[claimed.actions :]
    assert closed[0] == {"type": "close_muggins", "seat": turn.seat}, closed
    assert played.game.state.muggins_window is None
    # Every opponent had been offered Muggins! and No muggins (checked in every version of
    # their DMs: the clock may have closed the window before a slow machine read the buttons),
    # none of the owner's side; then no one's hand message offers them any more.
    opponents = played.opponents(turn.seat)
    assert all(offered(seat, now=False) for seat in opponents)
    sides = [s for s in range(len(users)) if s not in opponents]
    assert not any(offered(seat, now=False) for seat in sides)
    await until(fd, lambda: not any(offered(seat, now=True) for seat in opponents))
    # The show goes on from the next owner's count menus.
    if played.game.state.phase is Phase.SHOW and played.game.count_turn is not None:
        await played.count_menus(users[played.game.count_turn.seat])
    played.check_leaks(played.game)
