"""The Activity's table at a manual show: a claim over the hand's value is said as the chat
says it (the points over, pegged by the opponent) and shown in the hand's breakdown."""

from __future__ import annotations

from bot.core.base.text import plural
from bot.store import Store
from tests.bot.core.games.test_counting import CLAIM_VALUES, first_count, worth
from tests.helpers.activity_states import activity_state
from tests.helpers.cast import AL, BEA, CHANNEL
from tests.helpers.service_driver import Clock


async def test_the_activity_says_a_claim_over_the_value_and_the_points_over(
    store: Store, clock: Clock
) -> None:
    table, game_id, game, counter = await first_count(store, clock)
    value, claimed = worth(game), max(CLAIM_VALUES)
    other = BEA if counter is AL else AL
    made = await table.service.moves.count(CHANNEL, counter, claimed)
    assert made.ok, made.reply.text
    record = await table.service.games.record(game_id)
    assert record is not None
    state = activity_state(record, table.service.games.loaded.load(record), other.id)
    over = plural(claimed - value, "point")
    assert state["caption"] == f"Too many! {other.name} pegs the {over} {counter.name} claimed over"
    [shown] = [h for h in state["show"]["hands"] if h["claimed"] is not None]
    assert (shown["points"], shown["claimed"], shown["over"], shown["missed"]) == (
        value,
        claimed,
        claimed - value,
        0,
    )


async def test_the_activity_says_a_count_waits_for_muggins_and_who_may_call_it(
    store: Store, clock: Clock
) -> None:
    """The dealer's claim of their hand keeps them from counting the crib while the pone may
    still call muggins on it: the dealer's Activity offers no count buttons (the game would
    refuse them) and says the crib is counted once muggins is settled, naming who may call it."""
    table, game_id, game, pone = await first_count(store, clock)
    dealer = BEA if pone is AL else AL
    made = await table.service.moves.count(CHANNEL, pone, worth(game))
    assert made.ok, made.reply.text
    record = await table.service.games.record(game_id)
    assert record is not None
    made = await table.service.moves.count(
        CHANNEL, dealer, worth(table.service.games.loaded.load(record).game)
    )
    assert made.ok, made.reply.text
    record = await table.service.games.record(game_id)
    assert record is not None
    state = activity_state(record, table.service.games.loaded.load(record), dealer.id)
    assert state["act"] is None
    seats = {seat["name"]: seat["seat"] for seat in state["seats"]}
    assert state["counting"]["crib"] and state["counting"]["waits"]
    assert state["muggins"]["callers"] == [seats[pone.name]]
    state = activity_state(record, table.service.games.loaded.load(record), pone.id)
    assert state["act"]["kind"] == "muggins"
