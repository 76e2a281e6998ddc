"""The coach's line after each show (on the person's next hand message), its on/off setting,
and closed DMs told once per deal."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.core.base.choices import DEFAULT_LEVEL
from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.messages.lesson import COACH_FIGURES
from bot.core.services import Services
from bot.store import Store
from engine.coach import review_view
from engine.game import Game
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.held import held
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    drive,
    first_choice,
    load,
    make_service,
    open_table,
    owed_now,
)

COACH = re.compile(r"^Coach, deal (\d+): (.*)$", re.M)


async def against_computer(
    service: Services, dms_closed: bool = False, level: str = DEFAULT_LEVEL
) -> Transcript:
    table = Transcript(service, dms_closed={AL.id} if dms_closed else set())
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(target=61, vs_computer=True, level=level)
    )
    assert opened.ok
    await table.record(AL.id, opened)
    return table


def coach_checker(  # type: ignore[no-untyped-def]
    store: Store, table: Transcript, seats: dict[int, int], lines: list[tuple[int, str]]
):
    """After a move that showed a deal, each person's hand message (the next deal's, or the
    last deal's once the game is over) opens with the coach's line on that deal's discard, as
    the engine's review says it, at the scores the deal began with (those its discards were
    made at); the channel never hears it."""
    previous: list[Game] = []
    began: dict[int, tuple[int, ...]] = {}

    async def check(outcome: Answer, user: User) -> None:
        assert outcome.game_id is not None
        game = await load(store, outcome.game_id)
        began.setdefault(1, (0,) * len(game.state.scores))
        began.setdefault(game.state.deal_number, tuple(game.state.scores))
        before = previous[0] if previous else None
        previous[:] = [game]
        assert not any("Coach" in m for m in table.channel(outcome.game_id))
        if before is None or (
            game.state.deal_number == before.state.deal_number and game.state.result is None
        ):
            return
        # The move ended a deal: the show happened (the game may end part-way through it).
        for user_id, seat in seats.items():
            hand = table.hand(outcome.game_id, user_id)
            assert hand is not None
            (line,) = COACH.findall(hand.content)
            review = review_view(before.view(seat), scores=began[before.state.deal_number])
            assert review is not None
            assert line == (str(before.state.deal_number), review.line())
            assert hand.hand is None or hand.hand.kind == "discard"
            lines.append((user_id, line[1]))

    return check


async def test_a_line_after_every_show_for_the_person_only(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, computer=True)
    table = await against_computer(service)
    lines: list[tuple[int, str]] = []
    await drive(service, table, [AL], check=coach_checker(store, table, {AL.id: 0}, lines))
    game = await load(store, table.outcomes[0].game_id or 0)
    assert game.state.result is not None
    assert len(lines) >= game.state.deal_number - 1 >= 1
    assert {user for user, _ in lines} == {AL.id}
    assert lines[0][1].startswith("You kept ")


async def test_people_each_get_their_own_line(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, seed=3, computer=True)
    table = await open_table(service, [AL, BEA], target=61)
    lines: list[tuple[int, str]] = []
    seats = {AL.id: 0, BEA.id: 1}
    await drive(service, table, [AL, BEA], check=coach_checker(store, table, seats, lines))
    assert {user for user, _ in lines} == {AL.id, BEA.id}


async def test_the_coach_can_be_turned_off_and_on(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, computer=True)
    said = (await service.coach.coach(AL)).reply.text
    assert "The coach is on" in said
    # The line rides on the next hand, which is no DM at a private table (a DM between
    # people, a group DM): the answer says where it comes, wherever it is asked.
    assert "your next hand carries" in said and "DM" not in said, said
    off = await service.coach.coach(AL, False)
    assert off.ok and off.reply.ephemeral and "Coach off" in off.reply.text
    assert "The coach is off" in (await service.coach.coach(AL)).reply.text
    table = await against_computer(service)
    await drive(service, table, [AL])
    assert not any("Coach, deal" in text for text in table.private[AL.id])
    # The setting is the player's own: another player still gets their lines.
    assert await store.coach_off([AL.id, BEA.id]) == {AL.id}
    assert "Coach on" in (await service.coach.coach(AL, True)).reply.text
    assert await store.coach_off([AL.id]) == set()


async def test_the_coach_turned_off_while_a_hand_reads_the_setting_is_off_at_once(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand drawn reads its player's setting as they turn the coach off: the read from
    before is not kept, so the next hand has no line (it had, for the next minute)."""
    service = make_service(store, clock, computer=True)
    reached, go_on = held(monkeypatch, store, "coach_settings", answered=True)
    reading = asyncio.create_task(service.coach.off([AL.id]))
    await reached.wait()
    assert "Coach off" in (await service.coach.coach(AL, False)).reply.text
    go_on.set()
    assert await reading == frozenset(), "read before"
    assert await service.coach.off([AL.id]) == {AL.id}


async def test_closed_dms_are_told_once_per_deal(store: Store, clock: Clock) -> None:
    """Every DM refused: the channel hears about it once per deal (remembered, so drawing the
    game again says nothing twice), never gets the coach's words, and the game goes on."""
    service = make_service(store, clock, seed=2, computer=True)
    table = await against_computer(service, dms_closed=True)
    game_id = table.outcomes[0].game_id or 0
    deals = 0
    while (await service.table.hand(CHANNEL, AL)).reply.view is not None:
        # The private copy's controls come with the keeper's first edit of it: the hand's.
        deal = (await load(store, game_id)).state.deal_number
        hand = [o.view for o in await owed_now(service, game_id) if str(o.key) == f"hand:{deal}:0"]
        controls = hand[0].hand if hand else None
        if controls is None:
            break
        deals = max(deals, deal)
        outcome = await service.moves.click(first_choice(controls), AL, guild_id=None)
        await table.record(AL.id, outcome)
        if (await load(store, game_id)).state.result is not None:
            break
    notices = [m for m in table.channel(game_id) if "I can't send you direct messages" in m]
    assert 1 <= len(notices) <= deals
    assert all(m.startswith(f"<@{AL.id}>, I can't send you direct messages") for m in notices)
    assert not any("Coach" in m for m in table.channel(game_id))
    assert table.hand(game_id, AL.id) is None, "no hand message was ever sent"


async def test_dms_refused_while_the_table_reads_the_refusals_are_told_at_once(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table reads the game's refused DMs (a process that just started) as Discord refuses
    a player's hand: the read from before is not kept, so the channel is told now (it was
    not, and the next hand went to the closed DMs, until another was refused)."""
    service = make_service(store, clock, seed=2, computer=True)
    table = await against_computer(service)
    game_id = table.outcomes[0].game_id or 0
    again = make_service(store, clock, seed=2, computer=True)
    reads = store.dm_refusals
    reached, go_on = held(monkeypatch, store, "dm_refusals", answered=True)
    drawing = asyncio.create_task(owed_now(again, game_id))
    await reached.wait()
    monkeypatch.setattr(store, "dm_refusals", reads)  # (the read held is the table's alone)
    await again.ledger.dms_refused(Owner.game(game_id), AL.id)
    go_on.set()
    told = "I can't send you direct messages"
    assert not any(told in o.view.content for o in await drawing), "read before"
    assert any(told in o.view.content for o in await owed_now(again, game_id))


async def test_status_after_the_game_shows_the_result(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, computer=True)
    assert not (await service.table.status(CHANNEL)).ok
    await against_computer(service)
    assert (await service.moves.resign(CHANNEL, AL)).ok
    status = await service.table.status(CHANNEL, public=True)
    assert status.ok and not status.reply.ephemeral
    assert "Al resigned" in status.reply.text and "`/cribbage new`" in status.reply.text
    # A cancelled last game has no result: status says how it ended (as a move there sends
    # the person to it), not that the channel has no game.
    assert (await service.lobbies.new_game(GUILD, CHANNEL, AL)).ok
    assert (await service.lobbies.cancel(CHANNEL, AL)).ok
    cancelled = await service.table.status(CHANNEL)
    assert cancelled.ok and "Al cancelled the game. No result is recorded." in cancelled.reply.text


async def test_against_the_easy_computer_the_coach_says_what_its_figures_mean(
    store: Store, clock: Clock
) -> None:
    # The easy computer is a learner's (a lesson's end sends them to it): "= 2.6 expected" is
    # said in words under the line; at the default level, whose players chose it, it is not.
    service = make_service(store, clock, computer=True)
    for level, explained in (("easy", True), (DEFAULT_LEVEL, False)):
        table = await against_computer(service, level=level)
        await drive(service, table, [AL])
        coached = [text for text in table.private[AL.id] if COACH.search(text)]
        assert coached, level
        assert all((COACH_FIGURES in text) is explained for text in coached), level
        # Under the coach's line itself, where there is one.
        under = re.compile(rf"^Coach, deal \d+: .*\n{re.escape(COACH_FIGURES)}$", re.M)
        assert all(bool(under.search(text)) is explained for text in coached), level
