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
