"""Taking over from a sender that stopped mid-send: the look for the posts it may have left
behind (issue 46). A look counts for the stretch of the lease it was made under, and none is
made by a process that does not send; a look cut short as the process is deposed leaves
nothing broken for whoever waits on it."""

from __future__ import annotations

import asyncio

from bot.core.base.keys import AWAY, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked
from bot.core.base.views import MessageView
from bot.core.ledger.attempts import Attempts, Crew
from bot.core.ledger.lanes import Lanes
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.takeover import Takeover
from bot.core.ledger.transport import Attempt, Carried, Fence
from bot.core.messages.game_messages import REMIND_AFTER
from bot.core.services import Services
from bot.store import Store
from tests.bot.core.ledger.test_keeper import FakeCourier, make_keeper, settle
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import Clock, game_owner, make_service

#: A DM between Al and Bea (where the bot is not a member).
DM = 4242


class LeasedCourier(FakeCourier):
    """The fake Discord, and a lease whose epoch moves on each time it is taken again (as
    ``bot.store.cluster.Cluster``'s does after another process held it)."""

    def __init__(self) -> None:
        super().__init__()
        self.stretch = 1

    def held_as(self) -> str | None:
        return None

    def epoch(self) -> int | None:
        return self.stretch if self.may_send else None

    def holds(self, epoch: int) -> bool:
        return self.may_send and epoch == self.stretch

    def lose(self) -> None:
        self.may_send = False

    def take_again(self) -> None:
        self.stretch += 1
        self.may_send = True


async def test_a_process_that_sent_before_looks_for_lost_posts_again_when_it_takes_over(
    service: Services,
) -> None:
    """Issue 46: with two processes and the sender frozen past its lease, hand DMs were posted
    twice. The process taking over had sent before; deposed then, it went on drawing an owner
    on a timer (a retry, the channel's pacing, a reminder) and 'looked' for its lost posts while
    it did not send, when there were none yet. The other process then posted the owner's
    messages as follow-ups and froze before keeping their ids; taking over, the first process
    took its old look as made, never read the DM's history, and posted second copies."""
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    owner = game_owner(opened.game_id)
    courier = LeasedCourier()
    looked = courier.finds_lost_posts(777)
    keeper = make_keeper(service, courier, Pacer())
    keeper.follow(service.feed)
    keeper.touch(owner, CHANNEL)
    await settle(keeper)
    assert courier.sent == [("lobby", False)]
    # Deposed: another process sends now. A pass under way as it was deposed (or a timer such
    # a pass sets) draws the owner all the same.
    courier.lose()
    keeper.unfollow()
    keeper.touch(owner, CHANNEL)
    await settle(keeper)
    # The other process deals, posts the table as a follow-up, and stops before keeping it.
    await service.lobbies.join(CHANNEL, BEA)
    await service.lobbies.start(CHANNEL, AL)
    await service.ledger.writes.posting(owner, MessageKey.table(1), CHANNEL)
    # This one takes over.
    courier.take_again()
    keeper.follow(service.feed)
    await keeper.take_over()
    await settle(keeper)
    assert looked == ["table:1"], "the look for lost posts was never made"
    tables = [edit for key, edit in courier.sent if key == "table:1"]
    assert tables == [True], "the table found is edited, not posted a second time"


class GatedTakeover(Takeover):
    """A takeover whose look for lost posts waits on ``gate``."""

    def __init__(self, crew: Crew, attempts: Attempts) -> None:
        super().__init__(crew, attempts)
        self.gate = asyncio.Event()
        self.looks = 0

    async def _recover(self, owner: Owner) -> None:
        self.looks += 1
        await self.gate.wait()


async def test_a_look_forgotten_as_the_process_is_deposed_breaks_nothing_for_its_waiters(
    service: Services,
) -> None:
    """Issue 46: ``KeyError: Owner(kind=GAME, id=33)`` at ``del self._recovering[owner]`` as a
    process was deposed. One caller's look ended and let the next caller (waiting for it) in;
    the process, deposed just then, forgot its looks, so the waiter looked again and, ending,
    removed an entry the first had removed already."""
    courier = LeasedCourier()

    async def nothing(*_: object) -> None:
        return None

    crew = Crew.of(service.ledger, courier, Pacer(), Lanes(nothing), service.games.now)
    takeover = GatedTakeover(crew, Attempts(crew, courier))
    owner = Owner.game(33)
    first = asyncio.create_task(takeover.recovered(owner))
    while not takeover.looks:
        await asyncio.sleep(0)
    waiter = asyncio.create_task(takeover.recovered(owner))
    while takeover._recovering[owner].callers < 2:  # (until the waiter waits for that look)
        await asyncio.sleep(0)
    # The first look ends, and the process is deposed before the waiter runs.
    takeover.gate.set()
    asyncio.get_running_loop().call_soon(takeover.forget)
    await first
    await waiter  # (raised KeyError)
    assert takeover.looks == 2, "the waiter looks again, the first look having been forgotten"
    await takeover.recovered(owner)
    assert takeover.looks == 2


class FreezingCourier(FakeCourier):
    """Discord, and a process that freezes the moment a call was posted through a token at a
    private table (``away:``), before it hears the answer: it stops there for good."""

    def __init__(self) -> None:
        super().__init__()
        self.frozen = asyncio.Event()

    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        carried = await super().carry(attempt, view, fence)
        if attempt.keep.key.name == AWAY:
            self.frozen.set()
            await asyncio.Event().wait()  # (never heard back: the process stops here)
        return carried


async def test_a_call_posted_at_a_private_table_just_before_a_stop_is_not_posted_again(
    store: Store, clock: Clock
) -> None:
    """Issue 67, item 5: the table waited on Al long enough, and his call (a message of its
    own, to notify him) was posted through a token the moment before the process stopped. A
    follow-up takes no nonce and, where the bot is not a member, cannot be looked for in the
    conversation: the process that sends next takes the call as posted (noted before it went),
    where it posted it again and Al was notified twice for the turn."""
    first = make_service(store, clock)
    opened = await first.lobbies.new_game(None, DM, AL, token="new", private=True)
    game_id = opened.game_id or 0
    await first.sequels.answered(opened, landed=True, shown=Clicked(DM, 900, "new"))
    assert (await first.lobbies.click(game_id, "join", BEA, guild_id=None)).ok
    assert (await first.lobbies.click(game_id, "start", AL, guild_id=None)).ok
    clock.advance(seconds=REMIND_AFTER.total_seconds())
    freezing = FreezingCourier()
    keeper = make_keeper(first, freezing, Pacer())
    keeper.touch(game_owner(game_id), DM)
    await asyncio.wait_for(freezing.frozen.wait(), timeout=60)
    [made] = [key for key, _ in freezing.sent if key.startswith("away:")]
    await keeper.flush(timeout=0.01)  # (the process stops: what was on its way never ends)
    # The next process to send (started again, or taking over).
    second = make_service(store, clock)
    courier = FakeCourier()
    again = make_keeper(second, courier, Pacer())
    await again.reconcile()
    await settle(again)
    calls = [key for key, _ in courier.sent if key.startswith("away:")]
    assert made not in calls, "the call already posted was posted again"
    assert calls, "the other call, never posted, goes"
