"""Helpers for the core's tests: a settable clock and a driver that plays a whole game
through the core the way players do (from the prompts they are sent)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.base.delivery import Owed
from bot.core.base.feed import Change
from bot.core.base.keys import LOBBY
from bot.core.base.owners import Owner
from bot.core.base.places import PlaceKind
from bot.core.base.replies import Answer, Click, Clicked, TableAsked, User
from bot.core.base.views import HandControls, MessageRecord, MessageView
from bot.core.deck.seeded import SeedDealer
from bot.core.games import snapshot
from bot.core.games.games import RngFactory
from bot.core.games.records import GameRecord
from bot.core.services import Services
from bot.store import Store
from engine.game import Game
from tests.helpers.cast import AL as AL
from tests.helpers.cast import BEA as BEA
from tests.helpers.cast import CHANNEL as CHANNEL
from tests.helpers.cast import CY as CY
from tests.helpers.cast import DEE as DEE
from tests.helpers.cast import EVE as EVE
from tests.helpers.cast import GUILD as GUILD
from tests.helpers.cast import PLAYERS as PLAYERS

# The people, also named here for the tests that take them with the driver's helpers.
from tests.helpers.core_build import build_core

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


def seeded(seed: int) -> RngFactory:
    """An rng factory giving a different but reproducible source for every key."""

    def factory(key: str) -> random.Random:
        return random.Random(f"{seed}:{key}")

    return factory


def sealed(seed: int) -> RngFactory:
    """Like :func:`seeded`, with every shuffle sealed by a seed (as the running bot's are)."""
    plain = seeded(seed)
    return lambda key: SeedDealer(plain(key))


async def load(store: Store, game_id: int) -> Game:
    """The game as stored now."""
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    return snapshot.decode(record.snapshot, random.Random(0)).game


async def state(store: Store, game_id: int) -> tuple[object, ...]:
    """Everything stored about a game, to show that a refused call changed nothing."""
    record = await store.get_game(game_id)
    return (record, tuple(await store.actions(game_id)))


class Members:
    """Who is still a member of the servers, as the core asks (``membership``): everyone but
    those in :attr:`gone`, who left."""

    def __init__(self) -> None:
        self.gone: set[int] = set()

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return user_id not in self.gone

    async def sees(self, guild_id: int, user_id: int, channel_id: int) -> bool:
        return True

    async def open_to_all(self, guild_id: int, channel_id: int) -> bool:
        return True


def make_service(
    store: Store,
    clock: Clock,
    seed: int = 1,
    days: float = 7,
    *,
    computer: bool = False,
    sealing: bool = False,
    **options: Any,
) -> Services:
    """The core, whose deals are reproducible from ``seed`` (and, with ``computer``, the
    computer's choices too; with ``sealing``, each shuffle is sealed by a seed); ``options`` as
    :meth:`Services.build`'s (``retention``, ``membership``, ``remind_after``, ...)."""
    return build_core(
        store,
        rng_factory=sealed(seed) if sealing else seeded(seed),
        clock=clock,
        idle_expiry=timedelta(days=days),
        computer_rng=random.Random(seed) if computer else None,
        **options,
    )


def game_owner(game_id: int | None) -> Owner:
    """The owner that is the game ``game_id``."""
    assert game_id is not None
    return Owner.game(game_id)


async def owed_now(service: Services, game_id: int | None) -> tuple[Owed, ...]:
    """What the game's messages should show now."""
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    return owing.owed


@dataclass
class Sent:
    """One message of a game as Discord would show it: every version, newest last."""

    key: str
    user_id: int | None
    message_id: int
    views: list[MessageView] = field(default_factory=list)

    @property
    def view(self) -> MessageView:
        """What it shows now."""
        return self.views[-1]


@dataclass
class Transcript:
    """Discord, as far as the core's games reach it: every message the games own, brought up
    to date after each call the way the bot's table keeper does (it follows the change feed,
    asks the ledger what each game owes and reports each send back), and everything said
    privately to each user."""

    service: Services
    messages: dict[tuple[int, str], Sent] = field(default_factory=dict)
    # user id -> every text that user was answered or sent privately (replies and DMs)
    private: dict[int, list[str]] = field(default_factory=dict)
    outcomes: list[Answer] = field(default_factory=list)
    #: Users whose DMs are closed: a new DM to them is refused as Discord would (an edit of
    #: one sent before they closed them is not: fakediscord/README.md, "Closed DMs").
    dms_closed: set[int] = field(default_factory=set)
    #: The keys of the DMs refused so (every one a request Discord would have answered 403).
    refused: list[str] = field(default_factory=list)
    #: The games the change feed said changed since they were last brought up to date.
    changed: set[int] = field(default_factory=set)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _following: object = None

    def __post_init__(self) -> None:
        self._follow()

    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        if name == "service" and "_following" in self.__dict__:
            self._follow()  # a test swaps the core, as a restart does

    def _follow(self) -> None:
        """Follow the change feed of the core in use."""
        if self._following is not self.service.feed:
            self.service.feed.subscribe(self._heard)
            self._following = self.service.feed

    def _heard(self, change: Change) -> None:
        self.changed.add(change.owner.id)

    async def record(self, user_id: int | None, outcome: Answer) -> Answer:
        """Take one call's answer: answer it (a click's update edits the clicked message,
        which the tests take to be the game's own), hand it back to the core, then bring the
        games that changed up to date."""
        self.outcomes.append(outcome)
        if user_id is not None:
            said = outcome.reply.view.content if outcome.reply.view else outcome.reply.text
            self.private.setdefault(user_id, []).append(said)
        sequel = outcome.sequel
        if outcome.ok and sequel is not None:
            # (Kept by the key's text, as Discord's side of a test reads them.)
            game_id, key = sequel.owner.id, None if sequel.key is None else str(sequel.key)
            view = outcome.update if outcome.update is not None else outcome.reply.view
            known = None if key is None else self.messages.get((game_id, key))
            if key == str(LOBBY) and known is None and view is not None:
                # /cribbage new: the answer is the lobby, the game's first message.
                known = Sent(key, None, next(self._ids))
                self.messages[(game_id, key)] = known
            shown = None
            if sequel.mirror is not None and view is not None:
                # A private copy of the hand (/cribbage hand, a move by command): a message
                # of its own, not the game's hand message, which it leaves as it was (it is
                # answered without the hand's controls, which the keeper's first edit of it
                # adds: tests/bot/core/ledger/test_keeper.py).
                shown = Clicked(sequel.channel_id, next(self._ids), "token")
            elif key is not None and known is not None and view is not None:
                # A click on a message the game owns is answered by updating it. (A click on a
                # private copy, from /cribbage hand, updates only that copy.)
                known.views.append(view)
                shown = Clicked(sequel.channel_id, known.message_id, "token")
            await self.service.sequels.answered(outcome, landed=True, shown=shown)
        for changed in sorted(self.changed):
            await self.settle(changed)
        return outcome

    async def settle(self, game_id: int) -> None:
        """Make the timed moves that are due by the test's clock (as the game clock does),
        then send what the game owes until it owes nothing (DMs to closed users refused)."""
        self.changed.discard(game_id)
        await self.service.moves.catch_up(game_id)
        for _ in range(20):
            owing = await self.service.ledger.owed(game_owner(game_id))
            if owing is None:
                return
            due = [o for o in owing.owed if o.due(owing.sent.get(o.key))]
            if not due:
                self.changed.discard(game_id)
                await self.service.ledger.writes.flush()
                return
            records = []
            for owed in due:
                sent = self.messages.get((game_id, str(owed.key)))
                if owed.user_id is not None and owed.user_id in self.dms_closed and sent is None:
                    self.refused.append(str(owed.key))
                    await self.service.ledger.dms_refused(game_owner(game_id), owed.user_id)
                    continue
                if sent is None:
                    sent = Sent(str(owed.key), owed.user_id, next(self._ids))
                    self.messages[(game_id, str(owed.key))] = sent
                sent.views.append(owed.view)
                if owed.user_id is not None:
                    self.private.setdefault(owed.user_id, []).append(owed.view.content)
                channel = owing.channel_id if owed.user_id is None else -owed.user_id
                digest = owed.view.digest()
                records.append(
                    MessageRecord(owed.key, channel, sent.message_id, digest, version=owing.version)
                )
            await self.service.ledger.shown.sent(game_owner(game_id), records)
        still = [str(o.key) for o in due]
        raise AssertionError(f"the game's messages never settled (still due: {still})")

    # -- reading -----------------------------------------------------------------------------
    def channel(self, game_id: int | None = None) -> list[str]:
        """What the channel shows now, message by message in the order they were posted."""
        found = [
            s
            for (gid, _), s in self.messages.items()
            if s.user_id is None and (game_id is None or gid == game_id)
        ]
        return [s.view.content for s in sorted(found, key=lambda s: s.message_id)]

    def table(self, game_id: int, deal: int) -> str:
        """A deal's table message as it reads now."""
        return self.messages[(game_id, f"table:{deal}")].view.content

    def hands(self) -> list[tuple[int, int, Sent]]:
        """(game id, user id, message) of every hand message with live controls."""
        return [
            (gid, s.user_id, s)
            for (gid, key), s in self.messages.items()
            if key.startswith("hand:") and s.user_id is not None and s.view.hand is not None
        ]

    @property
    def latest(self) -> dict[int, HandControls]:
        """user id -> the live controls on that user's hand (only users who may act now)."""
        return {uid: hand for _, uid, s in self.hands() if (hand := s.view.hand) is not None}

    def hand(self, game_id: int, user_id: int) -> MessageView | None:
        """The newest hand message of a user in a game, as it reads now."""
        mine = [
            s
            for (gid, key), s in self.messages.items()
            if gid == game_id and key.startswith("hand:") and s.user_id == user_id
        ]
        return max(mine, key=lambda s: s.message_id).view if mine else None


async def open_table(
    service: Services,
    users: Sequence[User],
    target: int = 121,
    channel: int = CHANNEL,
    *,
    private: bool = False,
    **options: Any,
) -> Transcript:
    """Open a game, seat ``users`` and start it (``options``: the table's others, as
    :class:`TableAsked` takes them; ``private``: where the bot is not a member); returns what
    was sent so far."""
    table = Transcript(service)
    lobbies = service.lobbies
    asked = TableAsked(players=len(users), target=target, **options)
    opened = await lobbies.new_game(GUILD, channel, users[0], asked, private=private)
    await table.record(users[0].id, opened)
    for user in users[1:]:
        assert (await table.record(user.id, await lobbies.join(channel, user))).ok
    started = await table.record(users[0].id, await lobbies.start(channel, users[0]))
    assert started.ok, started.reply.text
    return table


Check = Callable[[Answer, User], Awaitable[None]]
#: How a driven player picks a click on their hand's controls.
Choose = Callable[[HandControls], Awaitable[Click]]


def click_of(controls: HandControls, *values: str) -> Click:
    """A click on a hand's ``controls`` with ``values`` (cards, a count)."""
    return Click(controls.game_id, controls.kind, controls.stamp, values)


def first_choice(controls: HandControls) -> Click:
    """The plainest click on ``controls``: the first cards to throw, the first card that may
    be played, the first count offered, or Muggins!"""
    match controls.kind:
        case "discard":
            return click_of(controls, *(c.code for c in controls.cards[: controls.pick]))
        case "play":
            return click_of(controls, next(c.code for c in controls.cards if c.enabled))
        case "count":
            return click_of(controls, str(controls.claims[0]))
        case "muggins":
            return click_of(controls)


async def drive(
    service: Services,
    table: Transcript,
    users: Sequence[User],
    *,
    max_moves: int = 2000,
    stop_after: int | None = None,
    check: Check | None = None,
    choose: Choose | None = None,
) -> Transcript:
    """Use the live controls of the players' hand messages (discards first, each the plainest
    choice: :func:`first_choice`, or what ``choose`` picks) until the game ends (or
    ``stop_after`` moves); ``check`` looks at every outcome."""
    by_id = {u.id: u for u in users}
    for move in range(max_moves):
        if stop_after is not None and move == stop_after:
            return table
        live = [(gid, uid, s) for gid, uid, s in table.hands() if uid in by_id]
        live.sort(key=lambda h: (h[2].view.hand is None or h[2].view.hand.kind != "discard"))
        if not live:
            return table
        _, user_id, sent = live[0]
        controls = sent.view.hand
        assert controls is not None
        user = by_id[user_id]
        click = first_choice(controls) if choose is None else await choose(controls)
        outcome = await service.moves.click(click, user, guild_id=None)
        assert outcome.ok, outcome.reply.text
        # The click was on this hand message: its answer updates it.
        await table.record(user.id, outcome)
        if check is not None:
            await check(outcome, user)
    raise AssertionError("the game did not end")


async def finished_game(
    service: Services,
    users: Sequence[User] = (AL, BEA),
    target: int = 61,
    channel: int = CHANNEL,
    **options: Any,
) -> tuple[Transcript, int]:
    """A game between ``users`` to ``target`` in ``channel`` (``options``: as
    :func:`open_table` takes them), opened and played to its end by :func:`drive`: what was
    sent, and the game's id."""
    table = await open_table(service, users, target=target, channel=channel, **options)
    await drive(service, table, users)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    return table, game_id


async def search_ranked(
    service: Services,
    user: User,
    channel_id: int,
    *,
    guild_id: int | None = None,
    avatar: str | None = None,
) -> Answer:
    """``/cribbage ranked play`` by ``user`` from ``channel_id`` (a server's channel with
    ``guild_id``, else their DM through their own install); its answer, which says yes, landed
    (its token, as Discord gives every command one, the way to the player's place)."""
    place = PlaceKind.SERVER if guild_id is not None else PlaceKind.PRIVATE
    token = f"search-{user.id}-{channel_id}"
    answer = await service.ranked.play(
        user, avatar=avatar, guild_id=guild_id, channel_id=channel_id, place=place, token=token
    )
    assert answer.ok, answer.reply.text
    shown = Clicked(channel_id, 7000 + user.id % 1000, token)
    await service.sequels.answered(answer, landed=True, shown=shown)
    return answer


async def ranked_game(service: Services, store: Store, user: User) -> GameRecord:
    """The referee matches the searches waiting and deals: the newest game of ``user``'s
    match."""
    await service.ranked_play.referee.start()
    await service.ranked_play.referee.idle()
    entry = await store.live_entry(user.id)
    assert entry is not None and entry.match_id is not None
    games = await store.match_games(entry.match_id)
    record = await store.get_game(games[-1].game_id)
    assert record is not None
    return record
