"""A manual show's waits: the table waits on muggins only when someone can call it, and a
person's count the clock makes for them says that time ran out, with one reminder per count."""

from __future__ import annotations

from bot.store import Store
from engine.phase import Phase
from tests.bot.core.games.test_counting import first_count, manual_table, to_the_show, worth
from tests.helpers.service_driver import AL, BEA, CHANNEL, Clock, load, make_service


async def test_no_muggins_wait_when_every_opponent_is_a_computer_that_never_calls_it(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, seed=8, computer=True)
    table, game_id = await manual_table(service, store, vs_computer=True, level="easy")
    for _ in range(40):
        game = await to_the_show(service, table, [AL], game_id)
        assert game.state.phase is not Phase.OVER
        turn = game.count_turn
        if game.state.muggins_window is not None or turn is None or turn.seat != 0:
            # The computer's short claim, open to Al's muggins: let its window close.
            clock.advance(seconds=31)
            await table.settle(game_id)
            continue
        if worth(game) > 0:
            break
        await table.record(AL.id, await service.moves.count(CHANNEL, AL, 0))
    else:
        raise AssertionError("no hand of Al's worth a point")
    short = await table.record(AL.id, await service.moves.count(CHANNEL, AL, 0))
    assert short.ok, short.reply.text
    # Nobody at the table can call muggins (the easy computer never does, and lets the claim
    # stand at once): the show goes on at once, with no clock time passing.
    after = await load(store, game_id)
    assert after.state.muggins_window is None
    assert after.actions[-1]["type"] != "claim" or after.actions[-1]["seat"] != 0
    assert {"type": "pass_muggins", "seat": 1} in after.actions


async def test_a_count_the_clock_makes_says_time_ran_out_and_reminds_once_a_deal(
    store: Store, clock: Clock
) -> None:
    table, game_id, game, first = await first_count(store, clock)
    dealer = (AL, BEA)[game.state.dealer]
    assert first is not dealer
    # Nobody counts: each is reminded after 60 s and counted for after 180 s; the dealer
    # twice over (the hand, then the crib).
    for _ in range(3):
        clock.advance(seconds=61)
        await table.settle(game_id)
        clock.advance(seconds=120)
        await table.settle(game_id)
    after = await load(store, game_id)
    kinds = [a["type"] for a in after.actions[len(game.actions) :]]
    assert kinds[:3] == ["auto_count"] * 3
    text = table.table(game_id, 1)
    for who in (first, dealer):
        assert f"Time ran out: {who.name}'s hand counted for them" in text, text
    assert f"Time ran out: {dealer.name}'s crib counted for them" in text
    # One reminder a deal for each player, the dealer's brought up to date for the crib, not
    # a second DM saying the same.
    reminders = {s.user_id: s for (g, k), s in table.messages.items() if k.startswith("remind:")}
    mine = [k for (g, k), s in table.messages.items() if k.startswith("remind:")]
    assert len(mine) == 2 and set(reminders) == {AL.id, BEA.id}
    said = [view.content for view in reminders[dealer.id].views]
    assert "count your hand" in said[0] and any("count your crib" in s for s in said), said
    # Once the clock counted the crib, the reminder says the table moved on: no DM is left
    # saying it waits for a count it no longer waits for.
    assert "done, the table has moved on" in reminders[dealer.id].view.content
