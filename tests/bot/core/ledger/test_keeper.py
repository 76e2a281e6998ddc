"""The table keeper that makes a game's messages match the stored game (the pacer's buckets
are tests/bot/core/ledger/test_pacer.py): each message sent once and then only when it
changes, moves made meanwhile coalesced into one edit, closed DMs turned into the channel's
notice, and failed sends tried again; with two processes, a click's answer confirmed by the one
that answered it, and one taken as lost edited again once."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.core.base.faults import Cause
from bot.core.base.feed import Change
from bot.core.base.keys import HAND, LOBBY, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, Clicked
from bot.core.base.store_errors import StoreUnavailable
from bot.core.base.timing import ANSWER_LANDS_WITHIN
from bot.core.base.views import MessageView
from bot.core.ledger import MessageKeeper, Owing
from bot.core.ledger import answers as answers_module
from bot.core.ledger import hands as hands_module
from bot.core.ledger import lanes as lanes_module
from bot.core.ledger.answers import Answers
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.transport import (
    Attempt,
    Carried,
    DmsClosed,
    Fence,
    NotSender,
    PendingPost,
    RequestKind,
    TokenLapsed,
)
from bot.core.messages.game_messages import REMIND_AFTER
from bot.core.services import Services
from bot.store import Store
from engine.phase import Phase
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import (
    Clock,
    first_choice,
    game_owner,
    load,
    make_service,
    open_table,
    owed_now,
)


class FakeCourier:
    """Discord as the keeper's transport sees it: records what is carried; refuses DMs to some
    users, or fails on demand; holds DMs (as their pacing would) while `held` is set, then
    checks the fence as the real courier does right before writing (so a DM whose game moved
    on meanwhile is not sent). It is also the lease: while `may_send` is off, nothing goes."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []  # (key, edit?)
        self.shown: list[tuple[str, str]] = []  # (key, digest of what was sent), in order
        self.tokens: list[tuple[str, str | None]] = []  # (key, the token it went through)
        self.closed: set[int] = set()
        #: DM channels whose user takes no DMs from the bot: a post there is refused.
        self.closed_dm_channels: set[int] = set()
        #: Users' DM channels, as Discord opens them for a post to a user (else unnamed).
        self.dm_channels: dict[int, int] = {}
        #: Sends of the messages whose keys start so wait for the event before their fence.
        self.gates: dict[str, asyncio.Event] = {}
        self.dm_attempts: dict[int, int] = {}
        self.fail_next = 0
        #: Whether this process may send (its sender's lease valid).
        self.may_send = True
        self.held: asyncio.Event | None = None
        self.waiting = asyncio.Event()
        #: While set, a DM written (past its fence) is held on its way, as the network holds
        #: it, until the event is set; ``on_the_wire`` is set meanwhile.
        self.wire: asyncio.Event | None = None
        self.on_the_wire = asyncio.Event()
        #: Set once something was carried.
        self.carried = asyncio.Event()
        self.lost: Callable[[Owner, PendingPost, set[int]], Awaitable[list[int]]] | None = None

    # -- the lease --
    def held_as(self) -> str | None:
        return None

    def epoch(self) -> int | None:
        return 1 if self.may_send else None

    def holds(self, epoch: int) -> bool:
        return self.may_send

    # -- the transport --
    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        user = attempt.user_id or (attempt.channel_id if attempt.urgent else None)
        if self.fail_next:
            self.fail_next -= 1
            raise RuntimeError("Discord is down")
        if user is not None and self.held is not None:
            self.waiting.set()
            await self.held.wait()
        for prefix, gate in self.gates.items():
            if str(attempt.keep.key).startswith(prefix):
                await gate.wait()
        fence()
        if user is not None and self.wire is not None:
            self.on_the_wire.set()
            await self.wire.wait()
        if attempt.channel_id in self.closed_dm_channels:
            self.dm_attempts[attempt.channel_id] = self.dm_attempts.get(attempt.channel_id, 0) + 1
            raise DmsClosed("Cannot send messages to this user")
        if user is not None:
            self.dm_attempts[user] = self.dm_attempts.get(user, 0) + 1
            if user in self.closed:
                where = attempt.channel_id or self.dm_channels.get(user)
                raise DmsClosed("Cannot send messages to this user", channel_id=where)
        key = str(attempt.keep.key)  # (what Discord's side sees of it: its text)
        self.shown.append((key, view.digest()))
        self.tokens.append((key, attempt.token))
        self.sent.append((key, not attempt.way.posts))
        channel = attempt.channel_id or attempt.user_id or 0
        message_id = attempt.message_id if attempt.message_id else len(self.sent)
        self.carried.set()
        return Carried(channel, message_id)

    async def delete_followup(self, token: str, message_id: int, fence: Fence) -> None:
        fence()

    async def lost_posts(
        self, owner: Owner, post: PendingPost, kept: set[int], fence: Fence
    ) -> list[int]:
        fence()
        if self.lost is None:
            return []
        return await self.lost(owner, post, kept)

    def finds_lost_posts(self, message_id: int) -> list[str]:
        """From now on every look for a lost post finds one, ``message_id``; the keys of the
        posts looked for, in order, as they come."""
        looked: list[str] = []

        async def lost(_: Owner, post: PendingPost, kept: set[int]) -> list[int]:
            looked.append(str(post.key))
            return [message_id]

        self.lost = lost
        return looked

    async def delete(self, channel_id: int, message_id: int, fence: Fence) -> None:
        fence()


def make_keeper(service: Services, courier: FakeCourier, pacer: Pacer) -> MessageKeeper:
    """A keeper on the service's own clock (the tests' clock stands still)."""
    return MessageKeeper(
        service.ledger,
        courier,
        pacer,
        lease=courier,
        clock=service.games.now,
        faults=service.games.faults,
    )


async def settle(keeper: MessageKeeper) -> None:
    # Done as soon as nothing is owed; the bound is only for a busy machine (the suite runs
    # several tests at once): a flush that runs out of time cuts a send short.
    unsent = await keeper.flush(timeout=60)
    assert unsent == []


async def catch_up(keeper: MessageKeeper, game_id: int) -> None:
    """Tell the keeper the game changed, and let it send all it owes."""
    keeper.touch(game_owner(game_id), CHANNEL)
    await settle(keeper)


async def al_and_bea(service: Services) -> int:
    """A game of Al and Bea, started in the channel; its id."""
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    await service.lobbies.join(CHANNEL, BEA)
    await service.lobbies.start(CHANNEL, AL)
    return opened.game_id or 0


@pytest.fixture
def courier() -> FakeCourier:
    return FakeCourier()


@pytest.fixture
def retry_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keeper tries again 10 ms after a failure, not after its usual wait."""
    monkeypatch.setattr(lanes_module, "RETRY_AFTER", 0.01)


async def first_send(courier: FakeCourier) -> None:
    """Wait for the courier's first send (the bound is only for a busy machine)."""
    await asyncio.wait_for(courier.carried.wait(), timeout=60)


async def test_each_message_is_sent_once_then_only_when_it_changes(
    service: Services, courier: FakeCourier
) -> None:
    game_id = await al_and_bea(service)
    keeper = make_keeper(service, courier, Pacer())
    await catch_up(keeper, game_id)
    assert sorted(courier.sent) == [
        ("hand:1:0", False),
        ("hand:1:1", False),
        ("lobby", False),
        ("table:1", False),
    ]
    await catch_up(keeper, game_id)
    assert len(courier.sent) == 4, "nothing changed, nothing sent"


async def test_a_stopping_sender_starts_nothing_once_it_has_flushed(
    service: Services, courier: FakeCourier
) -> None:
    """A stopping sender flushes, then gives up its lease; the next takes over at once (a
    clean hand-over waits nothing). A change heard in between (another process's move) must
    not start a send: a post written then, whose id the stopping process never keeps, would
    be posted again by the next sender, leaving the first copy with live controls (seen in
    tests/e2e/test_two_processes.py's rolling restart)."""
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    keeper = make_keeper(service, courier, Pacer())
    keeper.follow(service.feed)
    await catch_up(keeper, game_id)
    sent = len(courier.sent)
    assert await keeper.flush(timeout=60, last=True) == []
    assert (await service.moves.click(first_choice(table.latest[AL.id]), AL, guild_id=None)).ok
    assert not keeper.busy, "a send started after the last flush"
    keeper.touch(game_owner(game_id), CHANNEL)
    assert not keeper.busy and len(courier.sent) == sent


async def test_moves_made_while_the_channel_waits_go_out_in_one_edit(
    service: Services, courier: FakeCourier
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    # One edit a second per channel, and that one just spent.
    pacer = Pacer(channel_limit=1, channel_period=1.0)
    await pacer.slot(CHANNEL, RequestKind.EDIT, global_limit=False)
    await pacer.slot(CHANNEL, RequestKind.POST, global_limit=False)
    keeper = make_keeper(service, courier, pacer)
    for user in (AL, BEA):
        prompt = table.latest[user.id]
        click = first_choice(prompt)
        assert (await service.moves.click(click, user, guild_id=None)).ok
        keeper.touch(game_owner(game_id), CHANNEL)
        # Until the table's edit waits for the channel (its timer set): the second move comes
        # meanwhile, not before the keeper has looked (that would be one edit of any keeper).
        async with asyncio.timeout(30):
            while (game_owner(game_id), lanes_module.Lane.TABLE) not in keeper._lanes._timers:
                await asyncio.sleep(0)
    await settle(keeper)
    table_edits = [key for key, edit in courier.sent if key == "table:1" and edit]
    assert table_edits == ["table:1"], courier.sent


async def test_closed_dms_become_the_channels_notice_and_are_not_tried_again(
    service: Services, courier: FakeCourier
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    courier.closed = {BEA.id}
    keeper = make_keeper(service, courier, Pacer())
    # Bea's hand was never delivered in this fake Discord: everything is owed afresh.
    await service.ledger.shown.gone(game_owner(game_id), MessageKey.hand(1, 1))
    await catch_up(keeper, game_id)
    await catch_up(keeper, game_id)
    assert ("dm-closed:1:1", False) in courier.sent
    assert courier.dm_attempts[BEA.id] == 1, "no second DM to a closed inbox in the deal"


async def test_a_refused_dm_is_told_in_the_channel_without_waiting_for_another_move(
    service: Services, courier: FakeCourier
) -> None:
    # The hands and the table are sent by two tasks: the table's may well have finished when
    # the DM is refused, and the notice is the table's to post.
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    await service.ledger.shown.gone(game_owner(game_id), MessageKey.hand(1, 1))
    courier.closed = {BEA.id}
    keeper = make_keeper(service, courier, Pacer())
    await catch_up(keeper, game_id)
    assert ("dm-closed:1:1", False) in courier.sent


async def _lesson_in_a_closed_dm(service: Services, courier: FakeCourier) -> tuple[int, int]:
    """A lesson of Al's in his DM, which takes no posts from the bot: its id and the DM's."""
    dm = 7000

    async def reached(_: str) -> bool:
        return True

    assert (await service.lessons.learn(AL, dm, here=True, in_server=False, reach=reached)).ok
    lesson = await service.games.store.open_lesson(AL.id)
    assert lesson is not None
    courier.closed, courier.closed_dm_channels, courier.dm_channels = {AL.id}, {dm}, {AL.id: dm}
    return lesson.id, dm


async def test_a_lessons_table_refused_in_its_dm_is_not_tried_again(
    service: Services,
    store: Store,
    courier: FakeCourier,
    retry_soon: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The learner's DMs closed to the bot: the lesson's channel is theirs, and its table is
    # refused like a DM. Nothing more is tried there, and nothing is logged as an error.
    lesson_id, dm = await _lesson_in_a_closed_dm(service, courier)
    keeper = make_keeper(service, courier, Pacer())
    for _ in range(2):
        keeper.touch(game_owner(lesson_id), dm)
        await settle(keeper)
    assert sum(courier.dm_attempts.values()) == 1, courier.dm_attempts
    assert await store.dm_refusals(lesson_id) == {0: 1}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("first", ["table", "hand"])
async def test_a_lessons_dm_is_refused_once_whichever_lane_posts_first(
    service: Services, store: Store, courier: FakeCourier, first: str
) -> None:
    # The lesson's DM is the table's channel and the hand's DM: the two lanes send apart, and
    # the one held back while the other's post is refused is not written (seen: a hand's post
    # refused, the table's refused 5 s later).
    lesson_id, dm = await _lesson_in_a_closed_dm(service, courier)
    second = "hand" if first == "table" else "table"
    courier.gates[second] = asyncio.Event()
    keeper = make_keeper(service, courier, Pacer())
    keeper.touch(game_owner(lesson_id), dm)
    async with asyncio.timeout(30):
        while not courier.dm_attempts:
            await asyncio.sleep(0.01)
    courier.gates[second].set()
    await settle(keeper)
    assert sum(courier.dm_attempts.values()) == 1, courier.dm_attempts
    # Both ways, the DM is closed and the learner's seat takes no more DMs in the game.
    assert await store.dm_refusals(lesson_id) == {0: 1}


async def test_a_dm_drawn_before_a_move_is_not_sent_after_it(
    service: Services, courier: FakeCourier
) -> None:
    # A player's click is answered with their hand as the move left it; a DM drawn before the
    # move, still waiting for its turn, must not bring the old controls back over that answer.
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    prompt = table.latest[AL.id]
    for seat in (0, 1):  # (owed afresh: drawn now, at the deal)
        await service.ledger.shown.gone(game_owner(game_id), MessageKey.hand(1, seat))
    courier.held = asyncio.Event()
    keeper = make_keeper(service, courier, Pacer())
    keeper.touch(game_owner(game_id), CHANNEL)
    await asyncio.wait_for(courier.waiting.wait(), timeout=60)
    click = first_choice(prompt)
    moved = await service.moves.click(click, AL, guild_id=None)
    assert moved.ok
    courier.held.set()
    await catch_up(keeper, game_id)
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None and not service.ledger.moved_on(owing)
    hands = {str(o.key): o.view.digest() for o in owing.owed if o.key.name == HAND}
    sent = [(key, digest) for key, digest in courier.shown if key.startswith("hand:")]
    assert sorted(sent) == sorted(hands.items()), "each hand sent once, as the move left it"


async def test_a_clicks_answer_goes_after_the_edit_of_its_message_on_its_way(
    service: Services, courier: FakeCourier, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a restart what Al's hand showed is not known, and it is edited again with the look
    # it had all along; Al clicks that look while the edit is on its way. Discord shows
    # whichever lands last: the click's answer waits for the edit to come back, so the hand
    # never shows the card he played as still his (test_latency's game with a kill).
    monkeypatch.setattr(answers_module, "REQUEST_LANDS_WITHIN", 3600.0)  # (back, or never)
    asked = asyncio.Event()
    way_clear = Answers.way_clear
    # What happened, in order: the way asked for (of which message), the edit let go by the
    # network, the way given. (The way can only be given once the edit is back: REQUEST_LANDS_
    # WITHIN is an hour here, so the order says whether the answer waited for it.)
    happened: list[object] = []

    async def asking(answers: Answers, owner: Owner, key: MessageKey) -> None:
        happened.append((owner, key))
        asked.set()
        await way_clear(answers, owner, key)
        happened.append("way given")

    monkeypatch.setattr(Answers, "way_clear", asking)
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    prompt = table.latest[AL.id]
    keeper = make_keeper(service, courier, Pacer())
    await catch_up(keeper, game_id)
    hand = (await service.ledger.shown.kept(game_owner(game_id)))[MessageKey.hand(1, 0)]
    await service.ledger.shown.forget_look(game_owner(game_id), hand.key, None)
    courier.wire = asyncio.Event()
    keeper.touch(game_owner(game_id), CHANNEL)
    await asyncio.wait_for(courier.on_the_wire.wait(), timeout=60)
    clicked = Clicked(hand.channel_id, hand.message_id, "al-clicks-his-hand")
    click = asyncio.ensure_future(
        service.moves.click(first_choice(prompt), AL, clicked, guild_id=None)
    )
    waiting = asyncio.ensure_future(asked.wait())
    await asyncio.wait({click, waiting}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
    assert waiting.done() and not click.done(), "the move saved, its answer asks for the way"
    happened.append("edit back")
    courier.wire.set()
    assert (await asyncio.wait_for(click, timeout=60)).ok
    owner = game_owner(game_id)
    assert happened == [(owner, hand.key), "edit back", "way given"], "after the edit, not before"


async def test_a_private_table_drawn_while_a_click_is_saved_waits_for_that_clicks_answer(
    service: Services, courier: FakeCourier, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At a private table (a DM) the lobby message becomes the table: the start click's answer
    # (the lobby, closed) goes to it first, and the keeper lays it out after. A keeper drawing
    # the game while the start is being saved (its record written, this process not yet told)
    # must leave that message to the start's change: an edit laying it out landed before the
    # answer, which Discord then refused (plain text over a laid-out message: 50035; seen with
    # the start-up's reconciliation drawing every game at that moment).
    dm = 4343
    opened = await service.lobbies.new_game(None, dm, AL, token="new", private=True)
    game_id = opened.game_id or 0
    await service.sequels.answered(opened, landed=True, shown=Clicked(dm, 900, "new"))
    joined = await service.lobbies.click(
        game_id, "join", BEA, Clicked(dm, 900, "join"), guild_id=None
    )
    await service.sequels.answered(joined, landed=True, shown=Clicked(dm, 900, "join"))
    keeper = make_keeper(service, courier, Pacer())
    keeper.touch(game_owner(game_id), dm)
    await settle(keeper)
    before = len(courier.sent)
    written, gate = asyncio.Event(), asyncio.Event()
    store = service.games.store
    save = store.save

    async def held(*args: Any, **kwargs: Any) -> int:
        # The start's record is in the store; the move hears of it once the gate opens.
        version = await save(*args, **kwargs)
        written.set()
        await gate.wait()
        return version

    monkeypatch.setattr(store, "save", held)

    async def start() -> Answer:
        return await service.lobbies.click(
            game_id, "start", AL, Clicked(dm, 900, "start"), guild_id=None
        )

    starting = asyncio.create_task(start())
    await asyncio.wait_for(written.wait(), timeout=60)
    keeper.touch(game_owner(game_id), dm)
    await settle(keeper)  # the keeper has drawn the started game, and sent what it would
    assert courier.sent[before:] == [], "nothing goes to the table before the start's answer"
    gate.set()
    started = await starting
    assert started.ok
    await service.sequels.answered(started, landed=True, shown=Clicked(dm, 900, "start"))
    keeper.touch(game_owner(game_id), dm)
    await settle(keeper)
    assert ("lobby", True) in courier.sent[before:], "laid out (an edit) once the answer landed"


async def test_a_private_table_drawn_before_another_processs_click_is_heard_waits_for_it(
    store: Store, clock: Clock
) -> None:
    # The same with two processes: the start is saved by the other one, and this one (the
    # sender) draws the started game before it hears of the change. What the messages show is
    # read again for that version: the other process's answer is on its way to the table, so
    # the table goes only through that answer's own token (which reaches it once the answer
    # has landed), never through an older one that would land first.
    here = make_service(store, clock, shared=True)
    there = make_service(store, clock, shared=True)  # its changes are never heard here
    courier = FakeCourier()
    dm = 4343
    opened = await here.lobbies.new_game(None, dm, AL, token="new", private=True)
    game_id = opened.game_id or 0
    await here.sequels.answered(opened, landed=True, shown=Clicked(dm, 900, "new"))
    joined = await here.lobbies.click(game_id, "join", BEA, Clicked(dm, 900, "join"), guild_id=None)
    await here.sequels.answered(joined, landed=True, shown=Clicked(dm, 900, "join"))
    keeper = make_keeper(here, courier, Pacer())
    keeper.touch(game_owner(game_id), dm)
    await settle(keeper)
    before = len(courier.tokens)
    started = await there.lobbies.click(
        game_id, "start", AL, Clicked(dm, 900, "start"), guild_id=None
    )
    assert started.ok
    keeper.touch(game_owner(game_id), dm)
    await settle(keeper)
    through = {token for key, token in courier.tokens[before:] if key == "lobby"}
    assert through == {"start"}, "the table only through the start's own token"


async def test_a_failed_send_is_tried_again(
    service: Services, caplog: pytest.LogCaptureFixture, courier: FakeCourier, retry_soon: None
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    courier.fail_next = 1
    keeper = make_keeper(service, courier, Pacer())
    with caplog.at_level(logging.WARNING):
        keeper.touch(game_owner(opened.game_id or 0), CHANNEL)
        await first_send(courier)
    assert courier.sent == [("lobby", False)]
    assert "trying again" in caplog.text


async def test_what_was_held_back_while_the_lease_lapsed_goes_when_it_is_renewed(
    service: Services, caplog: pytest.LogCaptureFixture, courier: FakeCourier
) -> None:
    """While the sender's lease is not valid nothing is sent, nor retried on a timer (it is no
    failure); renewed, the keeper sends what it held back, once."""
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    courier.may_send = False
    keeper = make_keeper(service, courier, Pacer())
    with caplog.at_level(logging.WARNING):
        keeper.touch(game_owner(opened.game_id or 0), CHANNEL)
        await settle(keeper)
    assert courier.sent == [] and "trying again" not in caplog.text
    courier.may_send = True
    keeper.resume()
    await settle(keeper)
    assert courier.sent == [("lobby", False)]
    keeper.resume()  # held back once, sent once
    await settle(keeper)
    assert courier.sent == [("lobby", False)]


async def test_a_lease_lost_while_taking_over_leaves_a_lost_post_for_the_next_sender(
    service: Services, courier: FakeCourier
) -> None:
    """Taking over looks for DMs a dead process posted without keeping their ids; a lease
    lost meanwhile stops the look (nothing is sent) without failing the takeover, and the post
    stays to be looked for by whoever sends next."""
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    owner = game_owner(opened.game_id or 0)
    await service.ledger.writes.posting(owner, MessageKey.hand(1, 0), 555)
    courier.may_send = False

    async def lost(*_: object) -> list[int]:
        raise NotSender

    courier.lost = lost
    keeper = make_keeper(service, courier, Pacer())
    assert owner in await keeper.reconcile()
    assert [p.key for p in await service.ledger.writes.pending_posts(owner)] == [
        MessageKey.hand(1, 0)
    ]
    await settle(keeper)
    assert courier.sent == []


async def test_a_change_heard_before_the_start_ups_reconciling_waits_for_the_lost_post(
    service: Services,
) -> None:
    """A process killed between posting a message and keeping its id: the next sender looks
    for that post before it sends anything of the owner, even for a change heard before its
    start-up reconciles (then the found message is edited, not posted a second time)."""
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    owner = game_owner(opened.game_id or 0)
    await service.ledger.writes.posting(owner, LOBBY, CHANNEL)
    courier = FakeCourier()
    looked = courier.finds_lost_posts(777)
    keeper = make_keeper(service, courier, Pacer())
    keeper.touch(owner, CHANNEL)
    await settle(keeper)
    assert looked == ["lobby"] and courier.sent == [("lobby", True)]
    await keeper.reconcile()  # looked for once
    await settle(keeper)
    assert looked == ["lobby"]


async def test_a_store_fault_is_noted_once_and_tried_again_quietly(
    service: Services,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    courier: FakeCourier,
    retry_soon: None,
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    owner = game_owner(opened.game_id or 0)
    ledger = service.ledger
    drawn = ledger.owed
    failing = [3]

    async def out_of_reach(owner: Owner, now: float | None = None) -> Owing | None:
        if failing[0]:
            failing[0] -= 1
            raise StoreUnavailable(Cause.UNREACHABLE, "PostgreSQL: connection refused")
        return await drawn(owner, now)

    monkeypatch.setattr(ledger, "owed", out_of_reach)
    keeper = MessageKeeper(
        ledger,
        courier,
        Pacer(),
        lease=courier,
        clock=service.games.now,
        faults=service.games.faults,
    )
    with caplog.at_level(logging.INFO):
        keeper.touch(owner, CHANNEL)
        await first_send(courier)
    assert courier.sent == [("lobby", False)], "sent once the store answers again"
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    [line] = [r for r in caplog.records if r.name == "bot.core.base.faults"]
    assert f"game {owner.id}: {Cause.UNREACHABLE.value}" in line.getMessage()


async def test_a_finished_deals_closing_is_not_held_back_for_a_players_turn(
    service: Services, courier: FakeCourier
) -> None:
    """A redraw that offers a player nothing new waits while their DM's edits are few, so the
    edit that gives them their turn finds room; a finished deal's hand is owed its closing only
    while the game keeps that deal, so it never waits so (it could be drawn no more before it
    went: a hand left showing a turn of a deal long gone)."""
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    owner = game_owner(game_id)

    async def second_deal() -> bool:
        return any(str(o.key) == "table:2" for o in await owed_now(service, game_id))

    while not await second_deal():
        live = sorted(table.hands(), key=lambda h: h[2].view.hand is None)
        _, user_id, sent = live[0]
        user = AL if user_id == AL.id else BEA
        assert sent.view.hand is not None
        clicked = await service.moves.click(first_choice(sent.view.hand), user, guild_id=None)
        await table.record(user.id, clicked)
    # The sender had not closed Al's hand of deal 1 yet (it shows a turn of deal 1), and no
    # click's token reaches it any more: it is edited with the bot's token, in Al's DM.
    kept = dataclasses.replace(
        (await service.ledger.shown.kept(owner))[MessageKey.parse("hand:1:0")],
        digest="a turn of deal 1",
        token=None,
        token_at=None,
    )
    await service.ledger.shown.sent(owner, [kept])
    # Al's DM has room for two more edits: a redraw would wait, leaving them to his turn.
    pacer = Pacer(channel_limit=4)
    for _ in range(2):
        await pacer.slot(kept.channel_id, RequestKind.EDIT, global_limit=False)
    assert pacer.room(kept.channel_id, RequestKind.EDIT) == hands_module.PROMPT_RESERVE
    keeper = make_keeper(service, courier, pacer)
    await catch_up(keeper, game_id)
    assert ("hand:1:0", True) in courier.sent, courier.sent


async def _answered_by_the_other_process(
    store: Store, clock: Clock
) -> tuple[Services, Services, FakeCourier, MessageKeeper, Owner, Answer, Clicked]:
    """Two processes on one store: the sender posts a started game's messages; then Al's
    discard is clicked on his hand and answered by the other one, which read the game before
    the sender posted them (as at the lobby's answer). The answer is kept with the move, not
    yet known to have landed."""
    sender = make_service(store, clock, shared=True)
    other = make_service(store, clock, shared=True)  # its changes are never heard here
    courier = FakeCourier()
    opened = await other.lobbies.new_game(GUILD, CHANNEL, AL)
    owner = game_owner(opened.game_id)
    assert await other.ledger.shown.kept(owner) == {}, "read before anything was posted"
    assert (await other.lobbies.join(CHANNEL, BEA)).ok
    assert (await other.lobbies.start(CHANNEL, AL)).ok
    controls = next(
        o.view.hand for o in await owed_now(sender, owner.id) if str(o.key) == "hand:1:0"
    )
    assert controls is not None
    keeper = make_keeper(sender, courier, Pacer())
    keeper.follow(sender.feed)
    keeper.touch(owner, CHANNEL)
    await settle(keeper)
    hand = (await store.messages(owner))[MessageKey.parse("hand:1:0")]
    clicked = Clicked(hand.channel_id, hand.message_id, "al-discards")
    answer = await other.moves.click(first_choice(controls), AL, clicked, guild_id=None)
    assert answer.ok and answer.sequel is not None and answer.sequel.kept
    assert (await store.messages(owner))[MessageKey.parse("hand:1:0")].unconfirmed_since is not None
    return sender, other, courier, keeper, owner, answer, clicked


async def test_the_process_that_answered_confirms_an_answer_to_a_message_posted_since_it_read(
    store: Store, clock: Clock
) -> None:
    # It learns of the sender's posts only from the store: finding no record of the hand, it
    # never confirmed the answer, and the sender, taking it as lost, edited the hand again
    # (every second, see the next test: 5.3 DM edits a move with two processes in
    # benchmarks/bot_load.py, against 1.0 with one).
    _, other, _, _, owner, answer, clicked = await _answered_by_the_other_process(store, clock)
    await other.sequels.answered(answer, landed=True, shown=clicked)
    assert await other.ledger.writes.flush()
    kept = (await store.messages(owner))[MessageKey.parse("hand:1:0")]
    assert kept.unconfirmed_since is None and kept.token == "al-discards"
    clock.advance(seconds=60)
    assert await store.unconfirmed(clock.now.timestamp()) == [], "the sender finds none lost"


async def test_a_hand_drawn_before_another_processs_answer_to_it_is_heard_is_not_edited_over_it(
    store: Store, clock: Clock
) -> None:
    # The sender draws the game at the version the other process saved with Al's discard
    # before it hears of that change (the table, say, is due). Drawn from what it kept in
    # memory, the hand showed the discard's menu, and the sender edited it to the look the
    # click's answer gives, while that answer was on its way: landing after it, the edit showed
    # for a moment controls the click had used (unpaced with two processes, a click on them was
    # now and then refused as out of date). Read again for that version, the hand is the
    # answer's, on its way: nothing is sent to it.
    _, _, courier, keeper, owner, _, _ = await _answered_by_the_other_process(store, clock)
    before = len(courier.sent)
    keeper.touch(owner, CHANNEL)
    await settle(keeper)
    assert "table:1" in [key for key, _ in courier.sent[before:]], "the game was drawn again"
    assert [key for key, _ in courier.sent[before:] if key == "hand:1:0"] == []


async def test_a_message_edited_again_after_an_answer_taken_as_lost_is_not_taken_so_again(
    store: Store, clock: Clock
) -> None:
    # The process that answered stopped before it heard the answer land: the sender finds the
    # answer unconfirmed once Discord's window for it is past, and edits the hand again
    # (through the click's token, which lives). What it keeps of that edit is confirmed by
    # Discord's reply: the hand is not found again a second later, and edited again, for as
    # long as the token lives.
    sender, _, courier, keeper, owner, answer, _ = await _answered_by_the_other_process(
        store, clock
    )
    clock.advance(seconds=ANSWER_LANDS_WITHIN + 1)
    before = len(courier.sent)
    for _ in range(2):  # the sender's look for answers never said to have landed, twice
        for found, version, channel_id in await store.unconfirmed(clock.now.timestamp()):
            sender.ledger.answers.heard_late(found)
            sender.feed.publish(Change(found, version, channel_id))
        await settle(keeper)
        assert await sender.ledger.writes.flush()
    edits = [sent for sent in courier.tokens[before:] if sent[0] == "hand:1:0"]
    assert edits == [("hand:1:0", "al-discards")], "edited again once"
    kept = (await store.messages(owner))[MessageKey.parse("hand:1:0")]
    assert answer.sequel is not None
    assert kept.unconfirmed_since is None and kept.version >= answer.sequel.version


async def test_a_turn_reminder_is_timed_on_the_cores_clock_not_the_keepers(
    service: Services, courier: FakeCourier
) -> None:
    """The core's clock (the tests' standing one, months before today) and the keeper's own
    (the wall clock: Discord's tokens and windows) differ: the reminder of a turn waited on
    falls due ``remind_after`` after the move, not at once (where the keeper drew the game
    again and again, without end, starving the rest of the bot)."""
    game_id = await al_and_bea(service)
    # (On the wall clock.)
    keeper = MessageKeeper(
        service.ledger, courier, Pacer(), lease=courier, faults=service.games.faults
    )
    keeper.touch(game_owner(game_id), CHANNEL)
    # (Not a flush: it stops the keeper, reminders and all. The bound is for a busy machine.)
    await asyncio.wait_for(keeper.caught_up(), timeout=60)
    loop = asyncio.get_running_loop()
    reminder = keeper._lanes._reminders[game_owner(game_id)]
    due_in = reminder.when() - loop.time()
    assert REMIND_AFTER.total_seconds() - 5 < due_in <= REMIND_AFTER.total_seconds()


async def test_a_command_moves_copy_gets_its_controls_only_once_written_down(
    service: Services, store: Store, courier: FakeCourier
) -> None:
    """``/cribbage discard`` is answered with the mover's hand, a private copy, but without its
    controls: the answer shows on Discord before the bot hears it land, and a bot killed in
    between would never know the copy, which would offer used controls until its token
    lapsed. Once the copy is written down, the keeper's first edit through the command's token
    gives it the hand's controls (here the pone's first play)."""
    game_id = await al_and_bea(service)
    keeper = make_keeper(service, courier, Pacer())
    await catch_up(keeper, game_id)
    record = await store.get_game(game_id)
    assert record is not None
    game = service.games.loaded.load(record).game
    dealer = game.state.dealer
    pone = 1 - dealer
    people = {record.seat_of(AL.id): AL, record.seat_of(BEA.id): BEA}
    for seat in (dealer, pone):
        codes = " ".join(c.code for c in game.hand(seat)[:2])
        thrown = await service.moves.discard(CHANNEL, people[seat], codes)
        assert thrown.ok, thrown.reply.text
    answered = thrown.reply.view
    assert answered is not None and "You put" in answered.content
    assert answered.controls is None, "no control before the copy is written down"

    await service.sequels.answered(thrown, landed=True, shown=Clicked(CHANNEL, 4242, "typed"))
    key = MessageKey.hand(1, pone)
    assert key.copy_at(4242) in await store.messages(game_owner(game_id)), "written down"
    keeper.touch(game_owner(game_id), CHANNEL)
    await settle(keeper)
    edits = [
        digest
        for (sent, digest), (_, token) in zip(courier.shown, courier.tokens, strict=True)
        if sent == str(key) and token == "typed"
    ]
    hand_now = next(o.view for o in await owed_now(service, game_id) if o.key == key)
    assert hand_now.controls is not None, "the pone plays first"
    assert edits == [hand_now.digest()], "one edit: the hand as it is, controls and all"


class LapsingCourier(FakeCourier):
    """Discord, which calls the tokens in ``dead`` expired (401 / 50027: its clock is not the
    bot's): every request through one of them is refused, and counted."""

    def __init__(self) -> None:
        super().__init__()
        self.dead: set[str] = set()
        self.refused: list[tuple[str, str]] = []

    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        if attempt.token is not None and attempt.token in self.dead:
            self.refused.append((str(attempt.keep.key), attempt.token))
            raise TokenLapsed("Invalid Webhook Token")
        return await super().carry(attempt, view, fence)


async def test_a_token_discord_called_expired_is_not_tried_again(
    service: Services, store: Store
) -> None:
    """Issue 67, item 5: the table is edited through the Start's token for its 15 minutes.
    Discord's clock runs ahead of the bot's: it calls the token expired while the bot still
    counts it live. Its edit goes with the bot's token, and so does every edit after it, where
    each edit of the table tried the dead token again first (one refused request each, toward
    Discord's limit of invalid requests)."""
    courier = LapsingCourier()
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, token="new")
    game_id = opened.game_id or 0
    await service.sequels.answered(opened, landed=True, shown=Clicked(CHANNEL, 900, "new"))
    for user, action in ((BEA, "join"), (AL, "start")):
        clicked = Clicked(CHANNEL, 900, action)
        done = await service.lobbies.click(game_id, action, user, clicked, guild_id=GUILD)
        assert done.ok
        await service.sequels.answered(done, landed=True, shown=clicked)
    keeper = make_keeper(service, courier, Pacer())
    keeper.follow(service.feed)
    await catch_up(keeper, game_id)
    assert ("table:1", "start") in courier.tokens, "the table went through the Start's token"
    courier.dead.add("start")
    people = (AL, BEA)
    game = await load(store, game_id)
    while game.state.deal_number == 1:  # every move edits the table; then deal 2's is posted
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            done = await service.moves.discard(CHANNEL, people[seat], list(game.hand(seat)[:2]))
        else:
            seat = game.state.turn or 0
            done = await service.moves.play(CHANNEL, people[seat], game.playable_cards(seat)[0])
        assert done.ok, done.reply.text
        await settle(keeper)
        game = await load(store, game_id)
    assert courier.refused == [("table:1", "start")], courier.refused
    assert [t for k, t in courier.tokens if k == "table:2"] == [None], "posted as the bot"
