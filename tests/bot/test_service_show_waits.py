"""A manual show's waits: the table waits on muggins only when someone can call it, and a
person's count the clock makes for them says that time ran out, with one reminder per count."""

from __future__ import annotations

from bot.store import Store
from engine.phase import Phase
from tests.bot.test_service_counting import manual_table, to_the_show, worth
from tests.helpers.service_driver import AL, CHANNEL, Clock, load, make_service


async def test_no_muggins_wait_when_every_opponent_is_a_computer_that_never_calls_it(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, seed=8, computer=True)
    table, game_id = await manual_table(service, store, vs_computer=True, level="easy")
    for _ in range(40):
        game = await to_the_show(service, table, [AL], game_id)
        assert game.phase is not Phase.OVER
        turn = game.count_turn
        if game.muggins_window is not None or turn is None or turn.seat != 0:
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
    # Nobody at the table can call muggins (the easy computer never does): the show goes on
    # at once, with no clock time passing.
    after = await load(store, game_id)
    assert after.muggins_window is None
    assert after.actions[-1]["type"] != "claim" or after.actions[-1]["seat"] != 0
    assert {"type": "close_muggins", "seat": 0} in after.actions
