"""Plays whole games at a private table (a DM or group DM the bot is not in) through fakediscord,
as the players would, checking every step.

Each person acts from their own hand, an ephemeral message opened with the table's *Your hand*
button and kept up to date by the bot through that interaction's token; when they have none
that still shows what they may do, or the table mentions them (their token lapsed), they press
*Your hand* on the table again. After each move the driver replays the bot's action log on its
own copy of the game (`Replay`), and every version of every message each player can see is
looked at for a card hidden from them (`LeakWatch`). Nothing may go through the bot's own token
in the conversation: `bot_token_requests` lists what did.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.private_table import HAND_BUTTON
from engine.cards import Card
from engine.phase import Phase
from fakediscord import Channel, FakeDiscord, Interaction, Message, User
from tests.helpers.bot_db import (
    Database,
    Snapshot,
    answering_apart,
    latest_game_id,
    logged_actions,
    owned_messages,
    read_game,
)
from tests.helpers.card_leaks import LeakWatch, hidden_from, revealed_by
from tests.helpers.replay import Replay
from tests.helpers.table_driver import until

__all__ = ["PrivateDriver", "bot_token_requests"]


def bot_token_requests(fd: FakeDiscord, since: int = 0) -> list[str]:
    """The requests made with the bot's own token (not an interaction's callback or webhook)
    among ``fd.requests[since:]``."""
    return [
        f"{r.route} -> {r.status}"
        for r in fd.requests[since:]
        if not r.template.startswith("POST /interactions/") and "/webhooks/" not in r.template
    ]


@dataclass
class PrivateDriver:
    """Plays one game at a private table in ``channel`` for ``players`` (in seat order)."""

    fd: FakeDiscord
    channel: Channel
    players: list[User]
    database: Database
    rng: random.Random
    game_id: int = 0
    replay: Replay | None = None
    #: Every click on a hand (its answer must update that hand: type 7).
    clicks: list[Interaction] = field(default_factory=list)
    #: How often a player pressed Your hand (or typed `/cribbage hand`).
    opened: int = 0
    #: How often a player types `/cribbage hand` rather than pressing Your hand.
    hand_command_rate: float = 0.0
    typed_hands: int = 0
    _watch: LeakWatch | None = None

    # -- reading ------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """The game as saved now."""
        return read_game(self.database, self.game_id)

    def table(self) -> Message:
        """The table message the game keeps now (the answer to `/cribbage new`, or the copy
        posted again through a later interaction once no token reached the first)."""
        found = self.table_now()
        assert found is not None, "the table's id is kept"
        return found

    def table_now(self) -> Message | None:
        """The table message, once its id is kept (the answer's id is written a moment after
        it is known)."""
        row = owned_messages(self.database, self.game_id).get("lobby")
        return None if row is None else self.fd.world.messages.get(row.message_id)

    @property
    def cards_seen(self) -> int:
        """Card mentions the hidden-card check looked at."""
        return self._watch.cards_seen if self._watch is not None else 0

    # -- opening ------------------------------------------------------------------------------
    async def open(self, *, target: int = 61) -> Message:
        """`/cribbage new` by the first player, the others join on the table, the creator
        starts: every click answered by updating the table (type 7)."""
        creator = self.players[0]
        line = f"/cribbage new players:{len(self.players)} target:{target}"
        reply = await self.fd.slash(creator, self.channel, line)
        table = reply.original
        assert table is not None and not reply.ephemeral, reply.content
        self.game_id = latest_game_id(self.database, self.channel.id)
        for user in self.players[1:]:
            click = await self.fd.click(user, table, f"crib:{self.game_id}:lobby:join")
            assert click.response is not None and click.response.type == 7, click
        start = await self.fd.click(creator, table, f"crib:{self.game_id}:lobby:start")
        assert start.response is not None and start.response.type == 7
        snap = await until(self.fd, self._started)
        assert snap.game is not None
        seats = set(range(len(self.players)))
        self.replay = Replay.begin(snap, logged_actions(self.database, self.game_id), seats)
        self._watch = LeakWatch(
            self.fd,
            self.channel,
            list(self.players),
            {user.id: seat for seat, user in enumerate(self.players)},
            self.replay.dealt_to,
            cut=revealed_by(self.replay.deals[0]),
            public=self._public_in,
        )
        self._check(snap)
        return table

    async def open_against_computer(
        self, difficulty: str, *, target: int = 61, watchers: tuple[User, ...] = ()
    ) -> Message:
        """`/cribbage new vs_computer:True` by the first player (the only person seated):
        the game deals at once. ``watchers`` see the table and must see no hand."""
        creator = self.players[0]
        line = f"/cribbage new target:{target} vs_computer:True difficulty:{difficulty}"
        reply = await self.fd.slash(creator, self.channel, line)
        table = reply.original
        assert table is not None and not reply.ephemeral, reply.content
        self.game_id = latest_game_id(self.database, self.channel.id)
        snap = await until(self.fd, self._started)
        seats = set(range(len(self.players)))
        self.replay = Replay.begin(snap, logged_actions(self.database, self.game_id), seats)
        self.replay.later = answering_apart(self.database, self.game_id)
        self._watch = LeakWatch(
            self.fd,
            self.channel,
            [*self.players, *watchers],
            {user.id: seat for seat, user in enumerate(self.players)},
            self.replay.dealt_to,
            cut=revealed_by(self.replay.deals[0]),
            public=self._public_in,
        )
        self._check(snap)
        return table

    def _started(self) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.status == "active" and snap.game is not None else None

    # -- playing ------------------------------------------------------------------------------
    async def play_out(self, *, moves: int | None = None) -> Snapshot:
        """Play until the game is over (or ``moves`` moves were made); the game then."""
        made = 0
        while True:
            snap = self.snapshot()
            if snap.status != "active" or (moves is not None and made >= moves):
                return snap
            game = snap.game
            assert game is not None
            if game.phase is Phase.PLAY and (game.turn or 0) >= len(self.players):
                await self._computer_moves(snap)  # the computer answers in a version of its own
                continue
            await self.move(snap)
            made += 1

    async def move(self, snap: Snapshot) -> Interaction:
        """One move by someone the game waits on (from their hand); the click."""
        game = snap.game
        assert game is not None
        if game.phase is Phase.DISCARD:
            seat = self.rng.choice(game.pending_discards())
        elif game.phase is Phase.PLAY and game.turn is not None:
            seat = game.turn
        else:
            raise AssertionError(f"nobody to move in {game.phase}")
        return await self._move(snap, seat)

    async def _move(self, snap: Snapshot, seat: int) -> Interaction:
        game = snap.game
        assert game is not None
        user = self.players[seat]
        found = await self._until(
            user, snap, lambda: self._controls(user, snap) or self._to_open(user)
        )
        if found is True:
            await self._open_hand(user, snap)
            found = await self._until(user, snap, lambda: self._controls(user, snap))
        assert isinstance(found, tuple)
        hand, custom_id = found
        if game.phase is Phase.DISCARD:
            menu = hand.component(custom_id)
            assert menu is not None
            codes = [str(o["value"]) for o in menu["options"]]
            held = {str(card) for card in game.hand(seat)}
            assert {str(Card.parse(c)) for c in codes} == held, "the hand shows its own cards"
            pick = self.rng.sample(codes, int(menu["min_values"]))
            click = await self.fd.select(user, hand, custom_id, pick)
        else:
            click = await self.fd.click(user, hand, custom_id)
        assert click.response is not None and click.response.type == 7, click.content
        self.clicks.append(click)
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()
        return click

    async def type_move(self, snap: Snapshot) -> Interaction:
        """One move typed as a slash command by someone the game waits on; its answer."""
        game = snap.game
        assert game is not None
        if game.phase is Phase.DISCARD:
            seat = self.rng.choice(game.pending_discards())
            count = len(game.hand(seat)) - 4
            cards = self.rng.sample(sorted(game.hand(seat), key=lambda c: c.index), count)
            line = "/cribbage discard cards:" + " ".join(c.code for c in cards)
        else:
            assert game.phase is Phase.PLAY and game.turn is not None
            seat = game.turn
            line = f"/cribbage play card:{self.rng.choice(game.playable_cards(seat)).code}"
        answer = await self.fd.slash(self.players[seat], self.channel, line)
        assert answer.ephemeral, answer.content
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()
        return answer

    def _advance(self) -> None:
        """Replay what the bot logged since the last look, on the game as saved with it (the
        snapshot and the log read until they agree: a computer's answer saved apart may come
        in between the two reads)."""
        assert self.replay is not None
        while True:
            new = logged_actions(self.database, self.game_id)[self.replay.actions :]
            snap = self.snapshot()
            if snap.actions == self.replay.actions + len(new):
                break
        self.replay.advance(snap, new)
        self._check(snap)

    async def _computer_moves(self, snap: Snapshot) -> None:
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()

    async def _until(self, user: User, snap: Snapshot, predicate: Callable[[], Any]) -> Any:
        try:
            return await until(self.fd, predicate)
        except TimeoutError as waited:
            hands = [
                [str(i.get("custom_id")) + ("(off)" if i.get("disabled") else "") for i in m.walk()]
                for m in self._hands_of(user)
            ]
            owned = owned_messages(self.database, self.game_id)
            raise AssertionError(
                f"{user.name} never got controls at version {snap.version}: their hands "
                f"{hands}; the table {self.table().words()!r}; kept {owned}"
            ) from waited

    def _controls(self, user: User, snap: Snapshot) -> tuple[Message, str] | None:
        """The newest of ``user``'s hands that shows what they may do now, and the control."""
        game = snap.game
        assert game is not None
        if game.phase is Phase.DISCARD:
            wanted = f"crib:{self.game_id}:discard:{game.deal_number}"
        else:
            wanted = f"crib:{self.game_id}:play:{snap.version}:"
        for message in reversed(self._hands_of(user)):
            for item in message.walk():
                custom_id = str(item.get("custom_id", ""))
                if not custom_id.startswith(wanted) or item.get("disabled"):
                    continue
                return message, custom_id
        return None

    def _hands_of(self, user: User) -> list[Message]:
        prefix = f"crib:{self.game_id}:"
        return [
            m
            for m in self.fd.visible_to(user, self.channel)
            if m.ephemeral
            and not m.deleted
            and any(str(i.get("custom_id", "")).startswith(prefix) for i in m.walk())
        ]

    def _to_open(self, user: User) -> bool:
        """Whether ``user`` should press Your hand: the table mentions them, or no hand of
        theirs is open at all."""
        table = self.table_now()
        if table is None:
            return False
        return f"<@{user.id}>" in table.words() or not self._hands_of(user)

    async def _open_hand(self, user: User, snap: Snapshot) -> None:
        self.opened += 1
        if self.rng.random() < self.hand_command_rate:
            typed = await self.fd.slash(user, self.channel, "/cribbage hand")
            assert typed.ephemeral and typed.original is not None, typed.content
            assert typed.original.ephemeral_for is user
            self.typed_hands += 1
            return
        wanted = f"crib:{self.game_id}:lobby:{HAND_BUTTON}"

        def offered() -> Message | None:
            table = self.table_now()
            if table is None:
                return None
            return table if any(b.get("custom_id") == wanted for b in table.buttons()) else None

        table = await until(self.fd, offered)
        click = await self.fd.click(user, table, wanted)
        assert click.response is not None and click.response.type == 6, click.content
        [hand] = await click.wait_followups(1)
        assert hand.ephemeral and hand.ephemeral_for is user, hand

    def _moved_on(self, snap: Snapshot) -> Snapshot | None:
        now = self.snapshot()
        return now if now.version > snap.version else None

    # -- checking -----------------------------------------------------------------------------
    def check_now(self) -> None:
        """Look at every version shown since the last look (the end of the game)."""
        self._check(self.snapshot())

    def _check(self, snap: Snapshot) -> None:
        game = snap.game
        assert game is not None and self._watch is not None
        self._watch.check(lambda seat: hidden_from(game, seat))

    def _public_in(self, message: Message) -> set[Card]:
        """What a message may name whoever holds the cards now: what any deal so far made
        public (the table shows the deal before's show while the crib is made, and a hand is
        carried from deal to deal, naming the starter and the count's cards), and, for a hand,
        the cards its reader was dealt in any deal."""
        assert self.replay is not None
        shown = set().union(*(revealed_by(events) for events in self.replay.deals.values()))
        if message.ephemeral_for is None:
            return shown
        seat = next((s for s, u in enumerate(self.players) if u is message.ephemeral_for), None)
        if seat is None:
            return set()
        return shown.union(*(self.replay.dealt_to(seat, d) for d in self.replay.deals))

    async def settled(self, predicate: Any = None) -> Message:
        """The table once it shows the game as saved (its result, once the game is over)."""

        def shown() -> Message | None:
            table = self.table_now()
            if table is None:
                return None
            snap = self.snapshot()
            if snap.status == "finished":
                done = "game point" in table.words() and not list(table.buttons())
                return table if done else None
            return table if predicate is None or predicate(table) else None

        return await until(self.fd, shown)
