"""Taking over from a sender that stopped mid-send: the look for the posts it may have left
behind (issue 46). A look counts for the stretch of the lease it was made under, and none is
made by a process that does not send; a look cut short as the process is deposed leaves
nothing broken for whoever waits on it."""

from __future__ import annotations

import asyncio

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.ledger.attempts import Attempts, Crew
from bot.core.ledger.lanes import Lanes
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.takeover import Takeover
from bot.core.services import Services
from tests.bot.core.ledger.test_keeper import FakeCourier, make_keeper, settle
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import game_owner


class LeasedCourier(FakeCourier):
    """The fake Discord, and a lease whose epoch moves on each time it is taken again (as
    ``bot.store.cluster.Cluster``'s does after another process held it)."""

    def __init__(self) -> None:
        super().__init__()
        self.stretch = 1

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
    await asyncio.sleep(0)
    # The first look ends, and the process is deposed before the waiter runs.
    takeover.gate.set()
    asyncio.get_running_loop().call_soon(takeover.forget)
    await first
    await waiter  # (raised KeyError)
    assert takeover.looks == 2, "the waiter looks again, the first look having been forgotten"
    await takeover.recovered(owner)
    assert takeover.looks == 2
