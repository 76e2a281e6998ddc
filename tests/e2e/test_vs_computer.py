"""A whole game against the computer through Discord, as a player sees it.

Al opens `/cribbage new vs_computer:True difficulty:hard` and plays random legal moves from
his DMs (select menu and card buttons). After every move the test checks, from the bot's
database and the channel: the computer has already answered (only Al is ever owed a move),
every computer move is its own action in the log, the channel says exactly what the actions
say with the computer's plays batched into the message of the move that gave it the turn,
no card the computer holds (or threw) reaches Al before it is played or shown, and after each
show the coach's line arrives by DM. At the end the result is recorded apart from games
between people, and the lobby's "Add computer" menu is tried too.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from bot.core.render.calls import call_steps
from bot.core.render.text import escape
from engine.cards import Card, cards_str
from engine.coach import review_view
from engine.events import Dealt, Discarded, Event, Played, Shown
from engine.game import Game
from engine.phase import Phase
from engine.views import PublicView
from fakediscord import Message
from fakediscord.testing import BotProcess
from tests.e2e.driver import (
    DM_NOTICE,
    Snapshot,
    World,
    cards_in_message,
    cards_in_text,
    hidden_from,
    latest_game_id,
    read_game,
    revealed_by,
    until,
)

COMPUTER = "Computer (hard)"
COACH = "— coach: You kept"


def logged_actions(db_path: Path, game_id: int) -> list[dict[str, object]]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [json.loads(row[0]) for row in rows]


def expected_steps(
    before: Game, actions: list[dict[str, object]], after: Game
) -> list[tuple[list[Event], PublicView]]:
    """The events of each new action, found by applying the log to a copy of the game.

    A copy cannot know the bot's next shuffle, so once an action deals again the rest (the
    computer's discards in the new deal) are taken as the Discarded events they must be.
    """
    game = Game.from_dict(before.to_dict(), rng=random.Random(0))
    steps: list[tuple[list[Event], PublicView]] = []
    dealt = False
    for action in actions:
        if dealt:
            assert action["type"] == "discard" and action["seat"] == 1, action
            cards = action["cards"]
            assert isinstance(cards, list)
            steps.append(([Discarded(seat=1, count=len(cards))], after.public_view()))
            continue
        events = game.apply(action)
        steps.append((events, game.public_view()))
        dealt = any(isinstance(e, Dealt) for e in events)
    return steps


class VsComputer:
    """Al's side of the game, with the checks made after each of his moves."""

    def __init__(self, world: World, rng: random.Random, *, coach: bool = True) -> None:
        self.world = world
        #: Whether Al has the coach on (then each show must bring its line by DM).
        self.coach = coach
        self.fd = world.fd
        self.al = world.players[0]
        self.rng = rng
        self.game_id = 0
        self.seen: dict[int, int] = {}
        self.coach_lines: list[str] = []
        self.checked_cards = 0

    def snapshot(self) -> Snapshot:
        return read_game(self.world.db_path, self.game_id)

    def moved(self, before: Snapshot) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.version > before.version else None

    def table(self) -> list[Message]:
        return [
            m
            for m in self.fd.messages(self.world.general)
            if not m.ephemeral and not m.deleted and DM_NOTICE not in m.content
        ]

    def visible(self) -> list[Message]:
        return [*self.fd.visible_to(self.al, self.world.general), *self.fd.dms(self.al)]

    def changed(self) -> list[Message]:
        found = [m for m in self.visible() if self.seen.get(m.id) != len(m.history) + 1]
        for message in found:
            self.seen[message.id] = len(message.history) + 1
        return found

    async def open(self) -> Snapshot:
        reply = await self.fd.slash(
            self.al, self.world.general, "/cribbage new vs_computer:True difficulty:hard"
        )
        assert reply.ephemeral and "Dealing" in reply.content
        self.game_id = latest_game_id(self.world.db_path, self.world.general.id)
        snap = self.snapshot()
        assert snap.status == "active" and snap.game is not None
        # The computer threw its two cards with the deal: only Al is owed a discard.
        assert snap.game.pending_discards() == (0,)
        assert logged_actions(self.world.db_path, self.game_id) == snap.game.actions
        await until(self.fd, lambda: len(self.table()) >= 4, timeout=10)
        await self.fd.quiet(0.05)
        lines = [m.content for m in self.table()]
        assert lines[0].startswith("**Cribbage** — 2 players") and escape(COMPUTER) in lines[0]
        assert lines[1].startswith("Cut for deal:") and "Deal 1" in lines[2]
        assert lines[3] == f"{escape(COMPUTER)} puts 2 cards in the crib. Waiting for Al."
        self.check_leaks(snap.game, snap.game, revealed_by([]) | set(_cut(snap.game)))
        return snap

    async def prompt(self, predicate: object) -> Message:
        def find() -> Message | None:
            for message in reversed(self.fd.dms(self.al)):
                if predicate(message):  # type: ignore[operator]
                    return message
            return None

        found: Message = await until(self.fd, find, timeout=10)
        return found

    async def move(self, snap: Snapshot) -> Snapshot:
        game = snap.game
        assert game is not None
        hand = game.hand(0)
        before_lines = len(self.table())
        if game.phase is Phase.DISCARD:
            assert game.pending_discards() == (0,), "the computer never keeps Al waiting"
            select_id = f"crib:{self.game_id}:discard:{game.deal_number}"
            dm = await self.prompt(lambda m: m.component(select_id) is not None)
            menu = dm.component(select_id)
            assert menu is not None
            assert [o["value"] for o in menu["options"]] == [c.code for c in hand]
            chosen = self.rng.sample([o["value"] for o in menu["options"]], 2)
            click = await self.fd.select(self.al, dm, select_id, chosen)
        else:
            assert game.phase is Phase.PLAY and game.turn == 0, "the computer never waits"
            prefix = f"crib:{self.game_id}:play:{snap.version}:"
            dm = await self.prompt(
                lambda m: any(b.get("custom_id", "").startswith(prefix) for b in m.buttons())
            )
            buttons = [b for b in dm.buttons() if b["custom_id"].startswith(prefix)]
            playable = {c.code for c in game.playable_cards(0)}
            assert [b["label"] for b in buttons] == [str(c) for c in hand]
            assert {b["custom_id"][len(prefix) :] for b in buttons if not b.get("disabled")} == (
                playable
            )
            code = self.rng.choice(sorted(playable))
            click = await self.fd.click(self.al, dm, prefix + code)
        assert click.response is not None and click.response.type == 7, click
        after = await until(self.fd, lambda: self.moved(snap))
        # One call, one version: Al's move and every computer answer saved together.
        assert after.version == snap.version + 1
        assert after.game is not None
        actions = logged_actions(self.world.db_path, self.game_id)
        new = actions[snap.actions :]
        assert new[0]["seat"] == 0 and all(a["seat"] == 1 for a in new[1:])
        if after.status == "active":
            assert actions == after.game.actions
        steps = expected_steps(game, new, after.game)
        expected = call_steps(steps)
        await until(self.fd, lambda: len(self.table()) >= before_lines + len(expected), timeout=10)
        events = [e for step_events, _ in steps for e in step_events]
        if self.coach and any(isinstance(e, Shown) for e in events):
            await self.expect_coach(game)
        await self.fd.quiet(0.03)
        lines = [m.content for m in self.table()[before_lines:]]
        assert lines == expected, (lines, expected)
        plays = [line for line in lines if " plays " in line]
        assert len(plays) <= 1, "the plays of one move are one message"
        if any(isinstance(e, Played) for e in events):
            assert plays
        self.check_leaks(game, after.game, revealed_by(events))
        return after

    async def expect_coach(self, before: Game) -> None:
        review = review_view(before.view(0))
        assert review is not None
        want = f"deal {before.deal_number} — coach: {review.line()}"
        found = await until(
            self.fd,
            lambda: next((m for m in self.fd.dms(self.al) if want in m.content), None),
            timeout=10,
        )
        # The coach names only cards Al was dealt, and nobody else is told.
        own = set(before.view(0).kept) | set(before.view(0).discards)
        assert cards_in_text(found.content) <= own
        assert not found.components
        self.coach_lines.append(found.content)

    def check_leaks(self, before: Game, after: Game, revealed: set[Card]) -> None:
        """Nothing new that Al can see shows a card the computer holds or threw."""
        secret = (hidden_from(before, 0) | hidden_from(after, 0)) - revealed
        for message in self.changed():
            mentioned = cards_in_message(message)
            self.checked_cards += len(mentioned)
            if COACH in message.content:
                continue  # checked against Al's own dealt cards in expect_coach
            shown = mentioned & secret
            assert not shown, (
                f"Al could see {cards_str(sorted(shown, key=lambda c: c.index))} in {message!r}"
            )


def _cut(game: Game) -> list[Card]:
    return [card for cards in game.cut_rounds for card in cards]


async def test_a_whole_game_against_hard(world: World, bot: BotProcess) -> None:
    player = VsComputer(world, random.Random(11))
    snap = await player.open()
    for _ in range(400):
        if snap.status != "active":
            break
        snap = await player.move(snap)
    assert snap.status == "finished" and snap.game is not None
    result = snap.game.result
    assert result is not None and max(result.scores) >= 121
    assert "game point" in player.table()[-1].content
    shows = sum(1 for m in player.table() if m.content.startswith("Al's hand:"))
    assert shows >= 2 and len(player.coach_lines) >= shows
    assert player.checked_cards > 200, "the hidden-card check looked at the cards"

    with sqlite3.connect(world.db_path) as db:
        rows = db.execute(
            "SELECT user_id, is_computer, vs_computer, won FROM results WHERE game_id = ?"
            " ORDER BY seat",
            (player.game_id,),
        ).fetchall()
    assert [r[:3] for r in rows] == [(player.al.id, 0, 1), (None, 1, 1)]
    assert bool(rows[0][3]) == (result.winner == 0)

    stats = await world.fd.slash(player.al, world.general, "/cribbage stats")
    assert "Against the computer: 1 game" in stats.content and "Against people" not in stats.content
    board = await world.fd.slash(player.al, world.general, "/cribbage leaderboard")
    assert "**Against the computer**" in board.content and "Computer" not in board.content.split(
        "**Against the computer**"
    )[1].replace("Against the computer", "")
    status = await world.fd.slash(player.al, world.general, "/cribbage status")
    assert "The last game here is over." in status.content and "/cribbage new" in status.content


async def test_the_lobby_seats_a_computer_for_three(world: World, bot: BotProcess) -> None:
    al, bea, _, _ = world.players
    fd = world.fd
    await fd.slash(al, world.general, "/cribbage new players:3 target:61")
    game_id = latest_game_id(world.db_path, world.general.id)
    lobby = await until(
        fd,
        lambda: next(
            (
                m
                for m in fd.messages(world.general)
                if m.component(f"crib:{game_id}:lobby:computer")
            ),
            None,
        ),
    )
    menu_id = f"crib:{game_id}:lobby:computer"
    await fd.click(bea, lobby, f"crib:{game_id}:lobby:join")
    refused = await fd.select(bea, lobby, menu_id, ["easy"])
    assert "Only the player who opened this game" in refused.content
    added = await fd.select(al, lobby, menu_id, ["medium"])
    assert added.response is not None and added.response.type == 7
    assert "Computer \\(medium\\)" in lobby.content
    assert lobby.component(menu_id) is None, "a full table offers no more computers"
    await fd.click(al, lobby, f"crib:{game_id}:lobby:start")

    def started() -> Game | None:
        return read_game(world.db_path, game_id).game

    game = await until(fd, started)
    assert game.pending_discards() == (0, 1)
    # Both people get their hands by DM; the computer's single card is already in the crib.
    await until(fd, lambda: all(any(m.selects() for m in fd.dms(u)) for u in (al, bea)))
