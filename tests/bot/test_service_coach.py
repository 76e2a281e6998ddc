"""The coach's line after each show, its on/off setting, and closed DMs told once per deal."""

from __future__ import annotations

from bot.core.replies import Outcome, User
from bot.core.service import GameService
from bot.store import Store
from engine.coach import review_view
from engine.game import Game
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    GUILD,
    Clock,
    Transcript,
    drive,
    load,
    make_service,
    open_table,
)


def coach_service(store: Store, clock: Clock, seed: int = 1) -> GameService:
    """A service whose deals and computer choices are both reproducible."""
    return make_service(store, clock, seed, computer=True)


async def against_computer(service: GameService) -> Transcript:
    table = Transcript()
    opened = await service.new_game(GUILD, CHANNEL, AL, target=61, vs_computer=True)
    assert opened.ok
    table.record(AL.id, opened)
    return table


def coach_checker(store: Store, seats: dict[int, int], lines: list[tuple[int, str]]):  # type: ignore[no-untyped-def]
    """Checks each coach line against the engine's review of the deal just shown."""
    previous: list[Game] = []

    async def check(outcome: Outcome, user: User) -> None:
        assert outcome.game_id is not None
        game = await load(store, outcome.game_id)
        before = previous[0] if previous else None
        previous[:] = [game]
        infos = [p for p in outcome.prompts if p.kind == "info"]
        # (The game may end part-way through a show: the line still comes.)
        shown = any("'s hand: " in message for message in outcome.channel)
        for info in infos:
            assert before is not None and shown
            review = review_view(before.view(seats[info.user_id]))
            assert review is not None
            assert info.text.endswith(f"coach: {review.line()}")
            assert info.pick == 0 and info.cards == ()
            lines.append((info.user_id, info.text))
        kinds = [p.kind for p in outcome.prompts]
        # The coach speaks of the deal just shown, before the next deal's hand arrives.
        assert kinds == sorted(kinds, key=lambda kind: kind != "info")
        assert not any("coach" in message for message in outcome.channel)

    return check


async def test_a_line_after_every_show_for_the_person_only(store: Store, clock: Clock) -> None:
    service = coach_service(store, clock)
    table = await against_computer(service)
    lines: list[tuple[int, str]] = []
    await drive(service, table, [AL], check=coach_checker(store, {AL.id: 0}, lines))
    game = await load(store, table.outcomes[0].game_id or 0)
    shows = sum(any("'s hand: " in m for m in o.channel) for o in table.outcomes)
    assert shows >= 2 and len(lines) == shows
    assert {user for user, _ in lines} == {AL.id}
    assert lines[0][1].startswith(f"Cribbage in <#{CHANNEL}>, deal 1 — coach: You kept ")
    assert game.result is not None


async def test_people_each_get_their_own_line(store: Store, clock: Clock) -> None:
    service = coach_service(store, clock, seed=3)
    table = await open_table(service, [AL, BEA], target=61)
    lines: list[tuple[int, str]] = []
    seats = {AL.id: 0, BEA.id: 1}
    await drive(service, table, [AL, BEA], check=coach_checker(store, seats, lines))
    assert {user for user, _ in lines} == {AL.id, BEA.id}


async def test_the_coach_can_be_turned_off_and_on(store: Store, clock: Clock) -> None:
    service = coach_service(store, clock)
    assert "The coach is on" in (await service.coach(AL)).reply.text
    off = await service.coach(AL, False)
    assert off.ok and off.reply.ephemeral and "Coach off" in off.reply.text
    assert "The coach is off" in (await service.coach(AL)).reply.text
    table = await against_computer(service)
    await drive(service, table, [AL])
    assert not any(p.kind == "info" for o in table.outcomes for p in o.prompts)
    # The setting is the player's own: another player still gets their lines.
    assert await store.coach_off([AL.id, BEA.id]) == {AL.id}
    assert "Coach on" in (await service.coach(AL, True)).reply.text
    assert await store.coach_off([AL.id]) == set()


async def test_closed_dms_are_told_once_per_deal(store: Store, clock: Clock) -> None:
    """Every prompt refused (as with closed DMs), coach lines included: the channel hears
    about it once per deal, never gets the coach's words, and nothing after the end."""
    service = coach_service(store, clock, seed=2)
    table = await against_computer(service)
    notices: list[tuple[int, str]] = []
    game_id = table.outcomes[0].game_id or 0

    async def refuse_dms(outcome: Outcome) -> None:
        for prompt in outcome.prompts:
            failed = await service.dm_failed(prompt.game_id, prompt.user_id)
            assert failed.reply.text == ""
            for line in failed.channel:
                game = await load(store, game_id)
                notices.append((game.deal_number, line))

    await refuse_dms(table.outcomes[0])

    async def check(outcome: Outcome, user: User) -> None:
        await refuse_dms(outcome)

    await drive(service, table, [AL], check=check)
    game = await load(store, game_id)
    deals = [deal for deal, _ in notices]
    assert deals == sorted(set(deals)) and len(deals) >= game.deal_number - 1
    assert all(
        line.startswith(f"<@{AL.id}>, I can't send you direct messages") for _, line in notices
    )
    assert not any("coach" in line for _, line in notices)
    # The game is over: a refused DM (the last coach line) asks nothing of the channel.
    assert (await service.dm_failed(game_id, AL.id)).channel == []


async def test_status_after_the_game_shows_the_result(store: Store, clock: Clock) -> None:
    service = coach_service(store, clock)
    assert not (await service.status(CHANNEL)).ok
    await against_computer(service)
    assert (await service.resign(CHANNEL, AL)).ok
    status = await service.status(CHANNEL)
    assert status.ok and not status.reply.ephemeral
    assert "by resignation" in status.reply.text and "`/cribbage new`" in status.reply.text
    # A cancelled last game is no result: the channel simply has no game.
    assert (await service.new_game(GUILD, CHANNEL, AL)).ok
    assert (await service.cancel(CHANNEL, AL)).ok
    assert not (await service.status(CHANNEL)).ok
