"""Muggins gives nothing away: every claim is open to it for the window (not only a short
one), and a wrong call costs the caller nothing but the chance, said to them alone."""

from __future__ import annotations

from bot.core.base.replies import Answer, Click, User
from bot.store import Store
from tests.bot.core.games.test_counting import Table, first_count, worth
from tests.helpers.service_driver import AL, BEA, CHANNEL, Clock, load


async def _claimed(store: Store, clock: Clock, *, right: bool) -> tuple[Table, int, User, Answer]:
    """Al and Bea's manual game at its first count, claimed (rightly, or as nothing): the
    table, the game's id, the opponent (who may call muggins) and the claim's answer."""
    table, game_id, game, owner = await first_count(store, clock)
    claim = await table.service.moves.count(CHANNEL, owner, worth(game) if right else 0)
    return table, game_id, BEA if owner is AL else AL, await table.record(owner.id, claim)


async def test_a_right_claim_is_open_to_muggins_and_a_wrong_call_costs_only_the_chance(
    store: Store, clock: Clock
) -> None:
    table, game_id, opponent, right = await _claimed(store, clock, right=True)
    service = table.service
    assert right.ok, right.reply.text
    # The claim was right, and still the opponent is offered the call, as after any claim.
    offered = table.latest[opponent.id]
    assert offered.kind == "muggins" or offered.muggins
    hand = table.hand(game_id, opponent.id)
    assert hand is not None and "Muggins!" in hand.content
    assert "may call **Muggins!**" in table.table(game_id, 1)
    before = await load(store, game_id)
    called = await service.moves.click(
        Click(game_id, "muggins", offered.stamp), opponent, guild_id=None
    )
    assert called.ok and called.reply.text.startswith("No muggins: that count was right.")
    assert "nothing but the chance" in called.reply.text
    await table.record(opponent.id, called)
    after = await load(store, game_id)
    assert after.state.scores == before.state.scores
    # The only opponent has had the chance: the window closes and the breakdown follows, the
    # channel saying nothing of the wrong call.
    assert after.state.muggins_window is None
    text = table.table(game_id, 1)
    assert "missed" not in text and "No muggins" not in text
    assert opponent.id not in table.latest or table.latest[opponent.id].kind != "muggins"


async def test_no_muggins_lets_the_claim_stand_without_waiting_out_the_window(
    store: Store, clock: Clock
) -> None:
    table, game_id, opponent, claimed = await _claimed(store, clock, right=False)
    service = table.service
    assert claimed.ok
    before = await load(store, game_id)
    assert before.state.muggins_window is not None
    offered = table.latest[opponent.id]
    passed = await service.moves.click(
        Click(game_id, "pass", offered.stamp), opponent, guild_id=None
    )
    assert passed.ok, passed.reply.text
    await table.record(opponent.id, passed)
    after = await load(store, game_id)
    # No time passed: the only opponent let it stand, so the window closed and the show
    # went on, the claim standing as made.
    assert after.state.muggins_window is None and after.state.scores == before.state.scores
    assert after.actions[-1] == {"type": "pass_muggins", "seat": (AL, BEA).index(opponent)}
    again = await service.moves.click(
        Click(game_id, "pass", offered.stamp), opponent, guild_id=None
    )
    assert not again.ok
